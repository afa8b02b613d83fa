'use strict';
/**
 * Loopback servers the harness owns: the built-in demo hosts (the repo's src/demo, bundled), whose
 * arrival logs say what a crawl really sent, and a hostile robots.txt server for the escaping test.
 */
const http = require('node:http');
const path = require('node:path');
const { fork } = require('node:child_process');
const { own, withTimeout } = require('./proc');

/**
 * The repo's demo hosts on ephemeral ports, on their own loopback addresses (127.0.0.31, …), in a child
 * process (lib/demoChild.js) so their arrival stamps do not wait on the harness. `snapshot()` reads
 * the arrival logs; `resetLag()` starts a new measurement of the child's event-loop delay.
 */
async function startDemo(modulePath) {
  const child = fork(path.join(__dirname, 'demoChild.js'), [modulePath, '31'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  let nextId = 1;
  const waiting = new Map();
  let onReady;
  const ready = new Promise((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`the demo hosts' process exited (${code}) before it was ready`)));
  });
  child.on('message', (m) => {
    if (m.type === 'ready') onReady(m);
    else if (waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.send({ type: 'close' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const unown = own('demo hosts', stop);
  const { hosts, listing } = await withTimeout(ready, 30_000, 'starting the demo hosts');
  const ask = (type) =>
    withTimeout(
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ type, id });
      }),
      10_000,
      `demo hosts: ${type}`,
    );
  const byName = (name) => {
    const h = hosts.find((x) => x.name === name);
    if (!h) throw new Error(`no demo host named ${name}`);
    return h;
  };
  return {
    hosts,
    byName,
    listing,
    /** Arrivals as of now: `arrivals(name)`, `requestArrivals(name, since)` (robots.txt included), `pageArrivals(name, since)` (no robots.txt or sitemap), `inFlightMax(name)`, `lagMs`. */
    async snapshot() {
      const m = await ask('snapshot');
      const arrivals = (name) => m.arrivals.filter((a) => a.host === name);
      return {
        arrivals,
        requestArrivals: (name, since = 0) => arrivals(name).filter((a) => a.at >= since),
        pageArrivals: (name, since = 0) =>
          arrivals(name).filter((a) => a.path !== '/robots.txt' && a.path !== '/sitemap.xml' && a.at >= since),
        inFlightMax: (name) => m.inFlight[name] ?? 0,
        lagMs: m.lagMs,
      };
    },
    async resetLag() {
      await ask('resetLag');
    },
    async close() {
      unown();
      await stop();
    },
  };
}

/**
 * A robots.txt written to attack the webview: markup in paths, in comments, in the user agent line and
 * in a sitemap URL. If any of it were parsed as HTML, `window.__pwned` would be set.
 */
const HOSTILE_ROBOTS = [
  '# <script>window.__pwned=1</script>',
  '# <img src=x onerror="window.__pwned=1">',
  'User-agent: *',
  'Disallow: /<img src=x onerror=window.__pwned=1>',
  'Disallow: /"><script>window.__pwned=1</script>',
  'Allow: /</td></tr><iframe srcdoc="<script>parent.__pwned=1</script>">',
  'Crawl-delay: 1',
  'Sitemap: javascript:window.__pwned=1//<b>bold</b>',
  '',
].join('\n');

async function startHostile() {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(HOSTILE_ROBOTS);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>hostile</title><p>nothing here</p>');
  });
  await new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  const unown = own('hostile robots.txt server', close);
  return {
    origin,
    robotsTxt: HOSTILE_ROBOTS,
    requests,
    async close() {
      unown();
      await close();
    },
  };
}

module.exports = { startDemo, startHostile, HOSTILE_ROBOTS };

/**
 * Debian's nginx as a real web server on loopback, for tests whose claim depends on a server nobody here
 * wrote: its `limit_req` rate limiter above all. One nginx per call, with its own prefix folder and a
 * generated config (nothing root-owned is read or written), one `server` per site on its own 127.0.0.N
 * address, every file served from that folder. Requests are read from nginx's access log, stamped in C by
 * its event loop: each request's start is `$msec − $request_time` (ms resolution).
 *
 *   const nginx = await startNginx([{ host: '127.0.0.41', files: { '/robots.txt': 'User-agent: *\n' },
 *     limit: { rate: '3r/s', status: 429, retryAfter: '1' } }]);
 *   try { … nginx.sites[0].url('/a.html') … nginx.arrivals() … } finally { await nginx.close(); }
 *
 * nginx must be installed (`apt-get install nginx-light`; `npm test` installs it when run as root, and CI
 * does): a test that needs it fails with that instruction rather than skipping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertLoopback } from './loopback';

/** A rate limiter on a site: nginx's `limit_req` (leaky bucket), keyed on the site's address. */
export interface NginxLimit {
  /** nginx's rate syntax: `3r/s`, `30r/m`. */
  rate: string;
  /** Requests above the rate that wait in the bucket (0: none; every early request is refused). */
  burst?: number;
  /** With a burst: serve the burst at once instead of spacing it. */
  nodelay?: boolean;
  /** The status of a refusal: 429 (default) or 503 (nginx's own default). */
  status?: 429 | 503;
  /** The Retry-After header on refusals only (seconds or an HTTP-date); none when undefined. */
  retryAfter?: string;
  /** Paths the limiter leaves alone (exact), e.g. `/robots.txt`. */
  exempt?: readonly string[];
}

export interface NginxSiteOptions {
  /** A loopback address of its own: the site is a host of its own. */
  host: string;
  /** Path → body. A path ending in `/` is served by its `index.html`. */
  files: Record<string, string | Uint8Array>;
  limit?: NginxLimit;
  /** nginx's `limit_rate` (bytes per second per connection, e.g. `150k`): answer time grows with size. */
  bandwidth?: string;
  /** The port to listen on (default: a free one), so that files can name their own origin. */
  port?: number;
}

export interface NginxSite {
  readonly host: string;
  readonly port: number;
  readonly origin: string;
  url(p?: string): string;
}

/** One request as nginx logged it. */
export interface NginxArrival {
  /** When the request started (its first byte read), epoch ms: `$msec − $request_time`. */
  at: number;
  /** When nginx finished it, epoch ms. */
  endedAt: number;
  /** `host:port` of the site it reached. */
  site: string;
  method: string;
  path: string;
  status: number;
}

export interface NginxServer {
  readonly sites: readonly NginxSite[];
  /** Every request logged so far, in log order. */
  arrivals(): NginxArrival[];
  /** The arrivals of one site (by host or site), in order of their start. */
  arrivalsOf(site: NginxSite): NginxArrival[];
  close(): Promise<void>;
}

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'];

/** The nginx binary, or undefined when it is not installed. */
export function nginxBinary(): string | undefined {
  return CANDIDATES.find((p) => fs.existsSync(p));
}

export const NGINX_MISSING =
  'nginx is not installed: `apt-get install -y nginx-light` (npm test installs it when run as root; CI does)';

/** A free port on `host`: for a site whose files name their own origin, given as its `port`. */
export async function freePort(host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function waitForPort(host: string, port: number, child: ChildProcess, errors: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise<void>((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null) return reject(new Error(`nginx exited (${child.exitCode}): ${errors()}`));
      const socket = net.connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${host}:${port}: ${errors()}`));
        else setTimeout(attempt, 20);
      });
    };
    attempt();
  });
}

function siteConfig(i: number, site: NginxSiteOptions, port: number, root: string): string {
  const limit = site.limit;
  const limited = limit
    ? [
        `limit_req zone=site${i}${limit.burst ? ` burst=${limit.burst}` : ''}${limit.nodelay ? ' nodelay' : ''};`,
        `limit_req_status ${limit.status ?? 429};`,
      ]
    : [];
  const exempt = (limit?.exempt ?? []).map((p) => `    location = ${p} { }`);
  return [
    `  server {`,
    `    listen ${site.host}:${port};`,
    `    root ${root};`,
    `    index index.html;`,
    ...(site.bandwidth ? [`    limit_rate ${site.bandwidth};`] : []),
    `    add_header Retry-After $retry_after always;`,
    `    location / {`,
    ...limited.map((l) => `      ${l}`),
    `    }`,
    ...exempt,
    `  }`,
  ].join('\n');
}

/** Starts one nginx serving `sites`; resolves once every site accepts connections. */
export async function startNginx(sites: readonly NginxSiteOptions[]): Promise<NginxServer> {
  const binary = nginxBinary();
  if (binary === undefined) throw new Error(NGINX_MISSING);
  for (const s of sites) assertLoopback(s.host);
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-planner-nginx-'));
  // Started as root, nginx's workers run as `nobody`: everything they read must be world-readable.
  fs.chmodSync(prefix, 0o755);
  const ports = await Promise.all(sites.map((s) => s.port ?? freePort(s.host)));
  const roots = sites.map((site, i) => {
    const root = path.join(prefix, `site${i}`);
    for (const [p, body] of Object.entries(site.files)) {
      const file = path.join(root, p.endsWith('/') ? `${p}index.html` : p);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
      fs.writeFileSync(file, body, { mode: 0o644 });
    }
    fs.mkdirSync(root, { recursive: true, mode: 0o755 });
    return root;
  });
  for (const dir of walkDirs(prefix)) fs.chmodSync(dir, 0o755);
  const log = path.join(prefix, 'access.log');
  const retryAfterMap = sites
    .map((s) =>
      s.limit?.retryAfter === undefined ? '' : `    "${s.host}:${s.limit.status ?? 429}" "${s.limit.retryAfter}";`,
    )
    .filter(Boolean);
  const conf = [
    `daemon off;`,
    `worker_processes 1;`,
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    `events { worker_connections 256; }`,
    `http {`,
    `  types { text/html html; application/xml xml; text/plain txt; application/gzip gz; }`,
    `  default_type text/plain;`,
    `  log_format timed '$msec $request_time $server_addr:$server_port $status "$request"';`,
    `  access_log ${log} timed;`,
    `  client_body_temp_path ${prefix}/client_body;`,
    `  proxy_temp_path ${prefix}/proxy;`,
    `  fastcgi_temp_path ${prefix}/fastcgi;`,
    `  uwsgi_temp_path ${prefix}/uwsgi;`,
    `  scgi_temp_path ${prefix}/scgi;`,
    `  keepalive_timeout 30s;`,
    `  map "$server_addr:$status" $retry_after {`,
    `    default "";`,
    ...retryAfterMap,
    `  }`,
    ...sites.flatMap((s, i) =>
      s.limit ? [`  limit_req_zone $server_addr zone=site${i}:1m rate=${s.limit.rate};`] : [],
    ),
    ...sites.map((s, i) => siteConfig(i, s, ports[i]!, roots[i]!)),
    `}`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), conf, { mode: 0o644 });
  fs.writeFileSync(log, '', { mode: 0o666 });
  const child = spawn(binary, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const errors = (): string => {
    let logged = '';
    try {
      logged = fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
    } catch {
      // not written yet
    }
    return `${stderr}${logged}`.trim().slice(-2000);
  };
  try {
    for (let i = 0; i < sites.length; i++) await waitForPort(sites[i]!.host, ports[i]!, child, errors);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const siteViews: NginxSite[] = sites.map((s, i) => {
    const origin = `http://${s.host}:${ports[i]}`;
    return { host: s.host, port: ports[i]!, origin, url: (p = '/') => `${origin}${p}` };
  });
  const arrivals = (): NginxArrival[] => parseAccessLog(fs.readFileSync(log, 'utf8'));
  return {
    sites: siteViews,
    arrivals,
    arrivalsOf: (site) =>
      arrivals()
        .filter((a) => a.site === `${site.host}:${site.port}`)
        .sort((a, b) => a.at - b.at),
    close: () =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          fs.rmSync(prefix, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        // SIGQUIT: graceful; a worker holding a keep-alive connection is closed at once by SIGTERM after it.
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

function walkDirs(dir: string): string[] {
  const out = [dir];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) out.push(...walkDirs(path.join(dir, entry.name)));
  return out;
}

/** Lines of the `timed` log format: `$msec $request_time $server_addr:$server_port $status "$request"`. */
export function parseAccessLog(text: string): NginxArrival[] {
  const out: NginxArrival[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+\.\d+) (\d+\.\d+) (\S+) (\d{3}) "(\S+) (\S+)[^"]*"$/.exec(line.trim());
    if (!m) continue;
    const endedAt = Math.round(Number(m[1]) * 1000);
    out.push({
      at: endedAt - Math.round(Number(m[2]) * 1000),
      endedAt,
      site: m[3]!,
      status: Number(m[4]),
      method: m[5]!,
      path: m[6]!,
    });
  }
  return out;
}

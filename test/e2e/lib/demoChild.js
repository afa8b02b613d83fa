'use strict';
/**
 * The demo hosts in a process of their own (forked by lib/servers.js), so that the arrival times they
 * stamp are not delayed by the harness's browser work. Talks over IPC: `ready` with the hosts, then
 * answers `snapshot` (arrivals, most in flight, this process's worst event-loop delay since `resetLag`)
 * and `close`. Exits when the parent goes away.
 */
const { monitorEventLoopDelay } = require('node:perf_hooks');

async function main() {
  const demo = require(process.argv[2]);
  const hosts = await demo.startDemoHosts({
    ...demo.defaultDemoConfig(),
    basePort: 0,
    firstAddress: Number(process.argv[3] || 31),
  });
  let lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const info = hosts.hosts.map((h) => ({
    name: h.name,
    origin: h.origin,
    baseUrl: h.baseUrl,
    seeds: h.seeds,
    robotsTxt: h.robotsTxt,
    pageCount: h.pageCount,
  }));
  process.send({ type: 'ready', hosts: info, listing: demo.formatDemoHosts(hosts) });
  process.on('message', async (m) => {
    if (m.type === 'snapshot') {
      const inFlight = Object.fromEntries(info.map((h) => [h.name, hosts.inFlightMax(h.name)]));
      process.send({
        type: 'snapshot',
        id: m.id,
        arrivals: hosts.arrivals(),
        inFlight,
        lagMs: Math.max(0, lag.max / 1e6 - 1),
      });
    } else if (m.type === 'resetLag') {
      lag.disable();
      lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      process.send({ type: 'resetLag', id: m.id });
    } else if (m.type === 'close') {
      await hosts.close();
      process.exit(0);
    }
  });
  process.on('disconnect', () => {
    void hosts.close().finally(() => process.exit(0));
  });
}

main().catch((err) => {
  process.stderr.write(`demo hosts: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});

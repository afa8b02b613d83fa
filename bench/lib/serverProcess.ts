/**
 * The bench's host server: a child process of the bench that runs the loopback demo hosts of one scenario
 * at a time and stamps every arrival on its own event loop, so that a busy crawler (or the bench itself)
 * cannot delay the stamps. Driven over IPC by `hostServer.ts`; never run by hand.
 *
 *   parent → { type: 'start', config }   child → { type: 'started', hosts }
 *   parent → { type: 'stop' }            child → { type: 'stopped', log }
 */
import { performance } from 'node:perf_hooks';
import { startDemoHosts, type DemoConfig, type DemoHosts } from '../../src/demo';
import { measureServerLag } from '../../src/demo/lag';
import type { ServerRequest, ServerReply } from './hostServer';

let demo: DemoHosts | undefined;
let lag: { stop(): number } | undefined;

/** Epoch milliseconds with sub-millisecond resolution. */
const now = (): number => performance.timeOrigin + performance.now();

function reply(message: ServerReply): void {
  process.send?.(message);
}

async function handle(message: ServerRequest): Promise<void> {
  try {
    if (message.type === 'start') {
      if (demo) throw new Error('host server: hosts are already running');
      const config: DemoConfig = { ...message.config, now };
      demo = await startDemoHosts(config);
      lag = measureServerLag();
      reply({ type: 'started', hosts: demo.hosts, addressing: demo.addressing });
    } else {
      if (!demo) throw new Error('host server: no hosts are running');
      const running = demo;
      demo = undefined;
      const lagMs = lag?.stop() ?? 0;
      await running.close(); // ends hanging requests, so every arrival has its end
      const inFlightMax: Record<string, number> = {};
      for (const h of running.hosts) inFlightMax[h.name] = running.inFlightMax(h.name);
      reply({ type: 'stopped', log: { arrivals: running.arrivals(), inFlightMax, lagMs } });
    }
  } catch (err) {
    reply({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

process.on('message', (message: ServerRequest) => void handle(message));
process.on('disconnect', () => {
  void (demo?.close() ?? Promise.resolve()).then(() => process.exit(0));
});

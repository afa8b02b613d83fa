/**
 * The parent side of the bench's host server (`serverProcess.ts`): one child process that serves each
 * scenario's loopback hosts in turn, apart from the crawler under test and from the bench, and hands back
 * its arrival log when a run ends.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DemoArrival, DemoConfig, DemoHostInfo } from '../../src/demo';

/** What the servers saw during one run. Times are the server's epoch milliseconds (sub-ms resolution). */
export interface ServerLog {
  arrivals: DemoArrival[];
  /** Host name → the most requests it had open at once. */
  inFlightMax: Record<string, number>;
  /** The server process's worst event-loop delay during the run, in ms: how late a stamp may be. */
  lagMs: number;
}

export type ServerRequest = { type: 'start'; config: Omit<DemoConfig, 'now'> } | { type: 'stop' };
export type ServerReply =
  | { type: 'started'; hosts: DemoHostInfo[]; addressing: 'distinct' | 'single' }
  | { type: 'stopped'; log: ServerLog }
  | { type: 'error'; message: string };

export interface HostServer {
  /** Starts one scenario's hosts (a plain-data config: it crosses a process boundary). */
  start(config: Omit<DemoConfig, 'now'>): Promise<{ hosts: DemoHostInfo[]; addressing: 'distinct' | 'single' }>;
  /** Stops them and returns what they saw. */
  stop(): Promise<ServerLog>;
  /** Ends the server process. */
  close(): Promise<void>;
}

/**
 * Stamps should not wait for the crawler under test or anything else on the machine. As root: the
 * real-time FIFO policy for all the server's threads (`chrt`, util-linux; the kernel still keeps 5% of each
 * second for other tasks), else a nice of −10. Best effort: the measured event-loop delay says how much
 * it helped. Returns what was applied.
 */
export function raisePriority(pid: number | undefined): 'realtime' | 'nice' | 'none' {
  if (pid === undefined) return 'none';
  if (spawnSync('chrt', ['--all-tasks', '--fifo', '--pid', '10', String(pid)], { stdio: 'ignore' }).status === 0)
    return 'realtime';
  try {
    os.setPriority(pid, -10);
    return 'nice';
  } catch {
    return 'none';
  }
}

export async function startHostServer(): Promise<HostServer> {
  const child: ChildProcess = fork(path.join(__dirname, 'serverProcess.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  raisePriority(child.pid);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  const ask = <T extends ServerReply['type']>(
    request: ServerRequest,
    expect: T,
  ): Promise<Extract<ServerReply, { type: T }>> =>
    new Promise((resolve, reject) => {
      if (exited) {
        reject(new Error('host server: the process has exited'));
        return;
      }
      const onMessage = (message: ServerReply): void => {
        cleanup();
        if (message.type === 'error') reject(new Error(message.message));
        else if (message.type !== expect) reject(new Error(`host server: expected ${expect}, got ${message.type}`));
        else resolve(message as Extract<ServerReply, { type: T }>);
      };
      const onExit = (): void => {
        cleanup();
        reject(new Error('host server: the process exited'));
      };
      const cleanup = (): void => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(request);
    });

  return {
    async start(config) {
      const { hosts, addressing } = await ask({ type: 'start', config }, 'started');
      return { hosts, addressing };
    },
    async stop() {
      return (await ask({ type: 'stop' }, 'stopped')).log;
    },
    async close() {
      if (!exited) {
        child.disconnect();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exit;
        clearTimeout(timer);
      }
    },
  };
}

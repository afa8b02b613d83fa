/**
 * Runs the BUILT command (`dist/cli.js`) as a user does, without blocking this process's event loop
 * (the loopback servers the tests start live here).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');

/** Builds dist/ (about a second); call once in a `before` hook. */
export function buildCli(): void {
  execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'pipe' });
}

export interface CliRun {
  /** The exit code, or null when a signal ended the process. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the run. */
  ms: number;
}

export interface CliOptions {
  cwd?: string;
  /** The run is killed (and the promise rejected) after this long. Default 60 s. */
  timeoutMs?: number;
  /** Sees stdout as it arrives, with the child (to send it a signal). */
  onStdout?: (chunk: string, child: ChildProcess) => void;
  /** Written to the child's standard input, which is then closed; without it, stdin is not connected. */
  input?: string;
  /** More environment for the child (e.g. NODE_OPTIONS with a local resolver). */
  env?: Record<string, string>;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    const timeoutMs = options.timeoutMs ?? 60_000;
    const killer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`crawl-planner ${args.join(' ')} did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.onStdout?.(d, child);
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(killer);
      resolvePromise({ status, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

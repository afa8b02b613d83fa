/**
 * Runs a simulation off the extension host's thread: a worker thread (simulateWorker.ts, bundled as
 * dist/simulate.js) is sent the plan, runs `simulate` and posts the result back. The extension stays
 * responsive however long the simulation takes (a million simulated requests take up to about 2 s:
 * docs/benchmarks.md), and a simulation of a plan that changed meanwhile is stopped at once: the worker is
 * terminated when `signal` aborts.
 */
import { Worker } from 'node:worker_threads';
import type { Plan } from '../../core/plan';
import type { Simulation } from '../../core/simulate/types';

/** What the worker is sent. */
export interface SimulateRequest {
  plan: Plan;
  options: { runs: number; seed: number };
}

/** What the worker answers. */
export type SimulateResponse = { simulation: Simulation } | { error: string };

/** Where the worker's script is: dist/simulate.js (a test bundles it elsewhere). */
export interface SimulateWorkerScript {
  file: string;
}

function abortError(): Error {
  const error = new Error('The simulation was stopped: the plan changed');
  error.name = 'AbortError';
  return error;
}

/** Simulates `plan` in a worker; rejects with an AbortError when `signal` aborts first (the worker is terminated). */
export function runSimulation(
  script: SimulateWorkerScript,
  plan: Plan,
  options: { runs: number; seed: number },
  signal: AbortSignal,
): Promise<Simulation> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<Simulation>((resolve, reject) => {
    const worker = new Worker(script.file);
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      action();
    };
    const onAbort = (): void => settle(() => reject(abortError()));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (response: SimulateResponse) =>
      settle(() => ('error' in response ? reject(new Error(response.error)) : resolve(response.simulation))),
    );
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the simulation's worker stopped (exit code ${code})`))));
    const request: SimulateRequest = { plan, options };
    worker.postMessage(request);
  });
}

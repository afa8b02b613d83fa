/**
 * The simulation's worker thread (bundled as dist/simulate.js): it runs `simulate` (src/core/simulate) on the
 * plan it is sent and posts the result back, so a simulation of a million requests (up to about 2 s) never
 * holds up the extension host. One simulation per worker; simulateRunner.ts starts it and terminates it
 * when the plan changes.
 */
import { parentPort } from 'node:worker_threads';
import type { Plan } from '../../core/plan';
import { simulate } from '../../core/simulate/simulate';
import type { SimulateRequest, SimulateResponse } from './simulateRunner';

parentPort?.on('message', (request: SimulateRequest) => {
  let response: SimulateResponse;
  try {
    response = { simulation: simulate(request.plan as Plan, request.options) };
  } catch (err) {
    response = { error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(response);
});

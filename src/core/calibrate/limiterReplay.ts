/**
 * A fitted rate limiter (faultModel.ts) replayed: given each request's start, whether it passes, as the
 * limiter would decide at that pace (docs/calibration-and-simulation.md#fault-models). The plan's walk
 * (src/core/plan/faults.ts) and the simulation (src/core/simulate/model.ts) ask it for every request, the
 * host's robots.txt included (a limiter counts it), so that the refusals follow the pace the engine keeps.
 */
import type { LimiterModel } from './types';

export interface LimiterReplay {
  /** Whether a request that starts at `seconds` (ascending from call to call) passes; it counts either way. */
  admit(seconds: number): boolean;
}

/** A fresh limiter of `model`'s kind, with `intervalSeconds` (default the fit's) as its interval or refill. */
export function limiterReplay(model: LimiterModel, intervalSeconds = model.intervalSeconds): LimiterReplay {
  if (model.kind === 'min-interval') {
    let last: number | undefined;
    return {
      admit(seconds) {
        const ok = last === undefined || seconds - last >= intervalSeconds;
        if (ok || model.since === 'any') last = seconds;
        return ok;
      },
    };
  }
  let tokens = model.burst;
  let at: number | undefined;
  return {
    admit(seconds) {
      if (at !== undefined) tokens = Math.min(model.burst, tokens + (seconds - at) / intervalSeconds);
      at = seconds;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/**
 * What a short test crawl cannot tell apart (docs/calibration-and-simulation.md#fault-models): a limiter fitted
 * from fewer than 3 separate refusals is `undetermined`. The refusals are explained as well by the fit, by the
 * other kind of limiter (`model.alternative`: a token bucket for a min-interval fit, or the reverse) and by
 * refusals at random. Each is a calibration of its own here. The plan walks the fit, the simplest explanation
 * (src/core/plan/host.ts); each simulated run draws one of them (src/core/simulate/model.ts), so that the band
 * spans what the test crawl leaves open.
 */
import type { HostCalibration } from './types';

/** The calibrations a host's model leaves open: the calibration itself alone unless its model is undetermined. */
export function faultHypotheses(c: HostCalibration): HostCalibration[] {
  const m = c.model;
  if (m === undefined || !m.undetermined || m.limiter === null) return [c];
  const out: HostCalibration[] = [c];
  if (m.alternative !== undefined)
    out.push({ ...c, model: { ...m, limiter: m.alternative, alternative: undefined, undetermined: true } });
  // No limiter: its refusals come at random (randomFaults then counts them, less their repeats), at their
  // posterior rate, not on every Nth request (a limiter explained them: they are not a counting limiter's).
  const status = m.limiter.status === 429 ? 'tooManyRequests' : 'serverErrors';
  out.push({
    ...c,
    faults: { ...c.faults, [status]: { ...c.faults[status], every: null } },
    model: {
      ...m,
      limiter: null,
      alternative: undefined,
      undetermined: false,
      unexplainedRefusals: 0,
      evidence: { ...m.evidence, explained: 0 },
    },
  });
  return out;
}

/**
 * The simulation runs the engine with the plan's politeness units (docs/how-it-works.md#politeness-units): a plan
 * kept by ip makes the hosts of one address one unit in every simulated run, so their pages take turns; the band
 * of a plan too large to run request by request (per-host sums) draws a unit's members together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan, type Plan, type PlanInput } from '../../src/core/plan';
import { simulationUnits } from '../../src/core/simulate/run';
import { simulate } from '../../src/core/simulate/simulate';
import { SAMPLE_RUNS } from '../../src/core/simulate/bands';
import { calibration, hostCalibration } from '../helpers/calibration';

const HOSTS = ['a.example', 'b.example', 'c.example', 'd.example'];
const input: PlanInput = {
  seeds: HOSTS.map((h) => ({ host: h })),
  pages: { total: 40 },
  delaySeconds: 1,
  // a, b and c on one address (IPv6, as a resolver gives it); d on its own.
  addressesByHost: {
    'a.example': ['2001:db8::7'],
    'b.example': ['2001:db8::7'],
    'c.example': ['2001:db8::7'],
    'd.example': ['2001:db8::8'],
  },
};

/** The plan as made per unit: its input says so (what the plan keeps in its settings). */
function keptBy(p: Plan, by: 'ip' | 'domain'): Plan {
  return { ...p, input: { ...p.input, politenessBy: by } as Plan['input'] };
}

test('the simulation keeps the plan units: three hosts on one address take three times as long', () => {
  const perHost = plan(input);
  const byIp = keptBy(perHost, 'ip');
  const units = simulationUnits(byIp)!;
  assert.equal(units.unitOf('b.example'), '2001:db8::7');
  assert.equal(units.unitOf('d.example'), 'd.example');
  assert.equal(simulationUnits(perHost), undefined);
  const alone = simulate(perHost, { runs: 3 });
  const together = simulate(byIp, { runs: 3 });
  // 10 pages a host at 1 s: about 10 s each apart; the unit's 30 requests (robots.txt included: 33) one a second.
  assert.ok(alone.p50Seconds < 13, `per host: ${alone.p50Seconds} s`);
  assert.ok(together.p50Seconds >= 32, `per unit: ${together.p50Seconds} s`);
});

test('by domain, the hosts of one registered domain are one unit in the simulation', () => {
  const p = keptBy(
    plan({ ...input, seeds: ['x.shop.example', 'y.shop.example'].map((host) => ({ host })), addressesByHost: {} }),
    'domain',
  );
  assert.equal(simulationUnits(p)!.unitOf('x.shop.example'), 'shop.example');
  assert.ok(simulate(p, { runs: 1 }).p50Seconds >= 40, 'the two hosts take turns');
});

test('per-host sums (a plan too large to run request by request) keep the units: the hosts of one address are drawn together', () => {
  const jitter = [0.04, 0.05, 0.06, 0.08, 0.12];
  const cal = calibration(HOSTS.map((h) => hostCalibration(h, { samples: jitter })));
  const perHost = plan({ ...input, pages: { perHost: 120 }, delaySeconds: 0.5, calibration: cal });
  const byIp = keptBy(perHost, 'ip');
  const engine = simulate(byIp, { runs: 100, seed: 5 });
  // A budget that makes each unit's sample runs a part of its pages: its time is a sum drawn from their spread.
  const budget = { runs: 100, seed: 5, budgetRequests: 4 * SAMPLE_RUNS * 60 };
  const sums = simulate(byIp, budget);
  const apart = simulate(perHost, budget);
  assert.equal(engine.method, 'engine');
  assert.equal(sums.method, 'per-host-sums');
  // The unit's 3 × 121 requests at 0.5 s: about 181 s; each host alone about 60 s.
  assert.ok(apart.p50Seconds < 70, `per host: ${apart.p50Seconds} s`);
  assert.ok(
    Math.abs(sums.p50Seconds - engine.p50Seconds) <= 0.03 * engine.p50Seconds,
    `per-host sums ${sums.p50Seconds} s, engine ${engine.p50Seconds} s`,
  );
  const b = sums.hosts.find((h) => h.host === 'b.example')!;
  assert.ok(b.p50Seconds > 170, `b.example ends with its unit: ${b.p50Seconds} s`);
});

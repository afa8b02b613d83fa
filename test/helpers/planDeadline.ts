/**
 * Seeds and readers for the deadline solver's tests (plan-deadline-*.test.ts): named hosts, n hosts, the
 * plan an option stands for, and an option of a kind.
 */
import assert from 'node:assert/strict';
import { applyPlanChange, plan, type DeadlineOption, type Plan, type PlanInput } from '../../src/core/plan';

/** One seed host per name. */
export const hosts = (...names: string[]) => names.map((host) => ({ host }));

/** n seed hosts, h0.example to h(n − 1).example. */
export const many = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${i}.example` }));

/** The plan an option stands for. */
export function applied(input: PlanInput, o: DeadlineOption): Plan {
  return plan(applyPlanChange(input, o.change));
}

/** The plan's deadline option of that kind (asserting there is one). */
export function optionOf(p: Plan, kind: DeadlineOption['kind']): DeadlineOption {
  const o = p.deadline!.options.find((x) => x.kind === kind);
  assert.ok(o, `no ${kind} option in ${JSON.stringify(p.deadline!.options.map((x) => x.kind))}`);
  return o;
}

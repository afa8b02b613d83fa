/**
 * Seeds and a reader for the plan tests of src/core/plan/ (plan-politeness, plan-hosts and plan-input):
 * one host, n hosts, and the one host of a plan.
 */
import assert from 'node:assert/strict';
import type { HostPlan, Plan } from '../../src/core/plan';

/** One seed host, a.example. */
export const A = [{ host: 'a.example' }];

/** n seed hosts, h0.example to h(n − 1).example. */
export const hosts = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${i}.example` }));

/** The plan's only host (asserting there is one). */
export const only = (p: Plan): HostPlan => {
  assert.equal(p.hosts.length, 1);
  return p.hosts[0]!;
};

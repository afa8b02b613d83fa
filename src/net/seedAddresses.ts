/**
 * The seed hosts' addresses as the plan takes them (PlanInput.addressesByHost and unresolvedHosts;
 * docs/network.md#resolution): one function for the CLI (`--resolve`, `--resolve-hosts`) and the extension
 * (`crawlPlanner.resolve`, "Check shared servers"). A host named by an override has its addresses without DNS;
 * the others are looked up only when `lookUp` says so, with createResolver's bound per host and at once.
 */
import type { PlanInput } from '../core/plan/types';
import type { AddressOverrides } from '../core/servers/overrides';
import { createResolver, type LookupAll } from './resolve';

export type SeedAddresses = Required<Pick<PlanInput, 'addressesByHost' | 'unresolvedHosts'>>;

export interface SeedAddressOptions {
  /** Look the hosts the overrides do not name up in DNS; false: they are reported with `notLookedUp`. */
  lookUp: boolean;
  /** Why a host was not looked up, in the front end's words (its flag or its checkbox). */
  notLookedUp: string;
  timeoutMs?: number;
  concurrency?: number;
  /** Tests: a lookup of their own. */
  lookup?: LookupAll;
  /** Stops waiting: rejects with an AbortError (lookups already started finish on their own). */
  signal?: AbortSignal;
  /** After each host: how many are done, of how many. */
  onProgress?: (done: number, total: number) => void;
}

/** The hosts' addresses (each host once, in the order given) and why the others have none. */
export async function lookUpSeedAddresses(
  hosts: readonly string[],
  overrides: AddressOverrides,
  options: SeedAddressOptions,
): Promise<SeedAddresses> {
  const offline: LookupAll = () => Promise.reject(Object.assign(new Error('not looked up'), { code: 'OFFLINE' }));
  const resolver = createResolver({
    overrides,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.lookUp ? (options.lookup ? { lookup: options.lookup } : {}) : { lookup: offline }),
  });
  const unique = [...new Set(hosts)];
  let done = 0;
  const all = Promise.all(
    unique.map((host) =>
      resolver.resolve(host).then((r) => {
        options.onProgress?.(++done, unique.length);
        return r;
      }),
    ),
  );
  const signal = options.signal;
  const results = await (signal === undefined
    ? all
    : new Promise<Awaited<typeof all>>((resolve, reject) => {
        const aborted = () => reject(signal.reason ?? new DOMException('The lookups were stopped.', 'AbortError'));
        if (signal.aborted) return aborted();
        signal.addEventListener('abort', aborted, { once: true });
        all.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
      }));
  const addressesByHost: Record<string, string[]> = {};
  const unresolvedHosts: Record<string, string> = {};
  for (const r of results) {
    if ('addresses' in r) addressesByHost[r.host] = r.addresses;
    else unresolvedHosts[r.host] = options.lookUp ? r.error : options.notLookedUp;
  }
  return { addressesByHost, unresolvedHosts };
}

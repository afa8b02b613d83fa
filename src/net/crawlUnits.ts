/**
 * A crawl's politeness units (docs/how-it-works.md#politeness-units), made when it starts. With `ip` the seed
 * hosts are resolved now (src/net/resolve.ts, `--resolve` first), whatever a plan found earlier: addresses
 * can change between the plan and the crawl, and the units are what the crawl connects to. A host that
 * resolves to nothing is its own unit (its requests then fail as errors, reported for it; the crawl goes on);
 * an IP-literal seed is its own address. With `domain` nothing is looked up; with `host` every host is its own.
 */
import { politenessUnits, type PolitenessBy, type PolitenessUnits } from '../core/servers/units';
import { createResolver, type ResolverOptions } from './resolve';

export interface CrawlUnits {
  units: PolitenessUnits;
  /** With `ip`: each seed host's addresses, as the plan takes them (PlanInput.addressesByHost). */
  addressesByHost?: Record<string, string[]>;
  /** With `ip`: why a host has no address (PlanInput.unresolvedHosts). */
  unresolvedHosts?: Record<string, string>;
}

/** The units of the seeds' hosts under `by`; `resolver` is how `ip` looks them up (its overrides: `--resolve`). */
export async function crawlUnits(
  seeds: readonly string[],
  by: PolitenessBy,
  resolver: ResolverOptions = {},
): Promise<CrawlUnits> {
  const hosts = [...new Set(seeds.map((s) => new URL(s).host))];
  if (by !== 'ip') return { units: politenessUnits(hosts, by) };
  const addressesByHost: Record<string, string[]> = {};
  const unresolvedHosts: Record<string, string> = {};
  for (const r of await createResolver(resolver).resolveAll(hosts)) {
    if ('addresses' in r) addressesByHost[r.host] = r.addresses;
    else unresolvedHosts[r.host] = r.error;
  }
  return { units: politenessUnits(hosts, by, addressesByHost), addressesByHost, unresolvedHosts };
}

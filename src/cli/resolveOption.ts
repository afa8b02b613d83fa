/**
 * `--resolve HOST=IP` (repeatable; curl's HOST:PORT:IP too) for every command that plans or fetches, and the
 * rule of when the other seed hosts are looked up (docs/cli.md#shared-servers, docs/network.md#resolution):
 * a host named by --resolve has its address without DNS; the others only when the command goes to the network
 * anyway (--robots, --sitemaps, a crawl) or --resolve-hosts asks. One option table, spread by each command.
 */
import { sanitizeText } from '../core/format/table';
import { AddressOverrides, parseAddressOverride, type AddressOverride } from '../core/servers/overrides';
import { DEFAULT_POLITENESS_BY, isPolitenessBy, POLITENESS_BY, type PolitenessBy } from '../core/servers/units';
import type { PlanInput } from '../core/plan';
import type { HttpClientOptions } from '../net/http';
import { UsageError } from './args';

/** The option, spread into each command's table. */
export const RESOLVE_OPTIONS = {
  resolve: { type: 'string', multiple: true },
} as const;

/** `--resolve-hosts`: estimate and export look the seed hosts up even when they would stay offline. */
export const RESOLVE_HOSTS_OPTIONS = {
  'resolve-hosts': { type: 'boolean' },
} as const;

/** The help lines, one text for every command; `column`: where the command's help texts start. */
export function resolveHelp(column: number): string {
  const pad = (flag: string) => `  ${flag}`.padEnd(column);
  return (
    `${pad('--resolve HOST=IP')}connect to IP for HOST, without DNS (repeatable; HOST:PORT:IP for one port,\n` +
    `${pad('')}IP,IP for several); the Host header and TLS SNI stay HOST\n`
  );
}

/** --resolve-hosts's help line (estimate, export). */
export function resolveHostsHelp(column: number): string {
  return (
    `${'  --resolve-hosts'.padEnd(column)}look the seed hosts up (A and AAAA) to find hosts on one server, even\n` +
    `${''.padEnd(column)}without --robots or --sitemaps (which look them up anyway)\n`
  );
}

/** --resolve's entries, checked; an empty set without it. */
export function resolveOption(raws: readonly string[] | undefined): AddressOverrides {
  const entries: AddressOverride[] = [];
  for (const raw of raws ?? []) {
    const parsed = parseAddressOverride(raw);
    if ('problem' in parsed) throw new UsageError(`--resolve: "${sanitizeText(raw)}": ${parsed.problem}`);
    entries.push(parsed);
  }
  return new AddressOverrides(entries);
}

/** The HTTP options that make every connection follow --resolve (none without it). */
export function resolveHttp(overrides: AddressOverrides): Partial<Pick<HttpClientOptions, 'resolve'>> {
  return overrides.size > 0 ? { resolve: overrides } : {};
}

/**
 * The seed hosts' addresses for the plan: the overridden ones always; the others through DNS when `lookUp`
 * (the command goes to the network, or --resolve-hosts). Undefined when nothing was looked up or given: the
 * plan then says shared servers were not checked.
 */
export async function seedAddresses(
  hosts: readonly string[],
  overrides: AddressOverrides,
  lookUp: boolean,
): Promise<Pick<PlanInput, 'addressesByHost' | 'unresolvedHosts'> | undefined> {
  if (!lookUp && overrides.size === 0) return undefined;
  // The resolver (and node:dns) load only when addresses are wanted.
  const { lookUpSeedAddresses } = await import('../net/seedAddresses.js');
  return lookUpSeedAddresses(hosts, overrides, {
    lookUp,
    notLookedUp: 'not looked up: no --resolve for it and no --resolve-hosts',
  });
}

/** `--politeness-by host|ip|domain` (docs/cli.md#shared-servers): the politeness unit; `ip` looks the hosts up. */
export const POLITENESS_BY_OPTIONS = {
  'politeness-by': { type: 'string' },
} as const;

/** --politeness-by's help line. */
export function politenessByHelp(column: number): string {
  return (
    `${'  --politeness-by UNIT'.padEnd(column)}what one queue and one interval are kept for: ${POLITENESS_BY.join('|')}\n` +
    `${''.padEnd(column)}(default ${DEFAULT_POLITENESS_BY}); ip and domain make hosts on one address or one\n` +
    `${''.padEnd(column)}registered domain one unit (ip looks the hosts up)\n`
  );
}

/** --politeness-by's value, checked; the default without it. */
export function politenessByOption(raw: string | undefined): PolitenessBy {
  if (raw === undefined) return DEFAULT_POLITENESS_BY;
  if (!isPolitenessBy(raw))
    throw new UsageError(`--politeness-by: "${sanitizeText(raw)}" must be one of ${POLITENESS_BY.join(', ')}`);
  return raw;
}

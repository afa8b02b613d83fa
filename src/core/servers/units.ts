/**
 * The politeness unit (docs/how-it-works.md#politeness-units, Nutch's fetcher.queue.mode names): what one back
 * queue, one request in flight and one interval are kept for.
 *
 * - `host` (the default): each seed host is its own unit, as before grouping existed.
 * - `ip`: hosts that share an address are one unit (the union-find groups of groupByAddress, so a host with
 *   several addresses joins every group it touches). A host whose addresses are unknown is its own unit; an
 *   IP-literal seed is its own address, so it joins the names on that address (one server, whatever it is called).
 * - `domain`: hosts in one registered domain (Public Suffix List, private suffixes included) are one unit;
 *   an IP literal or a bare public suffix is its own.
 *
 * A unit's name is what the plan, the live lines and the report show: the host itself for a unit of one,
 * otherwise the group's key (the shared address, several joined by "+", or the registered domain). Each
 * member keeps its own robots.txt and Crawl-delay; the unit's interval is the largest of its members'.
 */
import { groupByAddress, groupByDomain, knownAddresses } from './groups';

/** The modes, in the order help and the sidebar list them. */
export const POLITENESS_BY = ['host', 'ip', 'domain'] as const;
export type PolitenessBy = (typeof POLITENESS_BY)[number];
export const DEFAULT_POLITENESS_BY: PolitenessBy = 'host';

export function isPolitenessBy(value: unknown): value is PolitenessBy {
  return typeof value === 'string' && (POLITENESS_BY as readonly string[]).includes(value);
}

/** One unit: its name and its member hosts, in first-seen order. */
export interface PolitenessUnit {
  name: string;
  hosts: string[];
}

/** The hosts' units: every host given is in exactly one. */
export class PolitenessUnits {
  readonly by: PolitenessBy;
  readonly units: readonly PolitenessUnit[];
  private readonly unitByHost = new Map<string, PolitenessUnit>();

  constructor(by: PolitenessBy, units: readonly PolitenessUnit[]) {
    this.by = by;
    this.units = units;
    for (const unit of units) for (const host of unit.hosts) this.unitByHost.set(host, unit);
  }

  /** The unit's name for a host; a host not given when the units were made is its own unit. */
  unitOf(host: string): string {
    return this.unitByHost.get(host)?.name ?? host;
  }

  /** The members of the unit a host is in (the host alone when it was not given). */
  membersOf(host: string): readonly string[] {
    return this.unitByHost.get(host)?.hosts ?? [host];
  }

  /** Whether any unit has two or more hosts (with `host`, never). */
  get grouped(): boolean {
    return this.units.some((u) => u.hosts.length > 1);
  }
}

/**
 * The units for `hosts` under `by`. `addressesByHost` (canonical addresses, as PlanInput carries them) is
 * read with `ip` only; a host missing from it is its own unit, and an IP literal is its own address. Unit names
 * are unique.
 */
export function politenessUnits(
  hosts: readonly string[],
  by: PolitenessBy,
  addressesByHost?: Readonly<Record<string, readonly string[]>>,
): PolitenessUnits {
  const unique = [...new Set(hosts)];
  if (by === 'host')
    return new PolitenessUnits(
      by,
      unique.map((h) => ({ name: h, hosts: [h] })),
    );
  // An IP-literal seed is its own address: it shares a server with the names on it.
  const groups =
    by === 'ip'
      ? groupByAddress(new Map(unique.map((h) => [h, knownAddresses(h, addressesByHost) ?? []])))
      : groupByDomain(unique);
  // A unit of one is named by its host, a group by its key. The names are unique: a key that is a lone host's
  // name would be an IP literal, and that literal is in the group on its own address.
  const units: PolitenessUnit[] = groups.map((group) => ({
    name: group.hosts.length === 1 ? group.hosts[0]! : [...group.keys].sort().join('+') || group.hosts[0]!,
    hosts: [...group.hosts],
  }));
  return new PolitenessUnits(by, units);
}

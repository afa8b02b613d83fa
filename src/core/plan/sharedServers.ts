/**
 * Hosts that share a server, in the plan (docs/planning.md#shared-servers): the groups of seed hosts on one
 * address (when the addresses were looked up: PlanInput.addressesByHost) and in one registered domain (always:
 * the Public Suffix List needs no network), each with the worst-case rate its server receives from the
 * per-host queues, and the `shared-address` and `shared-domain` findings made from them (warnings.ts).
 *
 * The worst case: every host queue of the group sends its `perHostConcurrency` requests per interval at the
 * same time, so the server sees Σ concurrency / interval requests a second, written per the shortest member
 * interval ("up to 3 requests per 1 s from 3 host queues"). Under `--politeness-by ip` or `domain` a group
 * planned as one politeness unit (docs/planning.md#politeness-units) is one queue: its worst case is the unit's
 * concurrency per the unit's interval.
 */
import { formatNumber, formatSeconds } from '../format/duration';
import { plural } from '../format/text';
import { classifyAddress, type AddressInfo } from '../servers/address';
import { groupByAddress, groupByDomain, knownAddresses } from '../servers/groups';
import { isActive } from './makespan';
import { DEFAULT_POLITENESS_BY, type PolitenessBy } from '../servers/units';
import type { HostPlan, PlanInput, ResolvedPlanInput, UnitPlan } from './types';

/** One group of two or more seed hosts on one server. */
export interface SharedGroup {
  kind: 'address' | 'domain';
  /** The shared addresses, or the registered domain. */
  key: string;
  /** With `address`: each shared address and its class (loopback, private, link-local, cdn, public…). */
  addresses?: AddressInfo[];
  hosts: string[];
  /** The worst case: up to `requests` per `perSeconds` from the group's active host queues; null when a queue has no delay. */
  worstCase: { requests: number; perSeconds: number } | null;
  /** What one host alone may send: its concurrency per the same `perSeconds` (the shortest member interval). */
  perHostRequests: number;
  /**
   * The politeness unit the group is planned as, when every member is in that one unit of several hosts
   * (`--politeness-by ip` for an address group, `domain` for a domain group); absent when its hosts are planned apart.
   */
  unit?: string;
}

/** The plan's section on shared servers. */
export interface SharedServers {
  /** Whether the seed hosts' addresses were looked up (else only domains were grouped). */
  addressesChecked: boolean;
  /** Hosts whose addresses could not be found, with why (their own group; planned as given). */
  unresolved: Array<{ host: string; reason: string }>;
  /** Groups of two or more hosts, largest first (address groups, then domain groups). */
  groups: SharedGroup[];
}

/** Findings made per kind; the rest are counted in one more finding (the section lists them all). */
export const SHARED_GROUPS_WARNED = 10;
/** Hosts named in a finding; the rest are counted. */
export const SHARED_HOSTS_NAMED = 3;

function worstCase(
  members: readonly HostPlan[],
  r: ResolvedPlanInput,
): Pick<SharedGroup, 'worstCase' | 'perHostRequests'> {
  const active = members.filter(isActive);
  if (active.length === 0) return { worstCase: { requests: 0, perSeconds: 0 }, perHostRequests: r.perHostConcurrency };
  if (active.some((h) => h.intervalSeconds === 0)) return { worstCase: null, perHostRequests: r.perHostConcurrency };
  const per = Math.min(...active.map((h) => h.intervalSeconds));
  const requests = active.reduce((s, h) => s + (r.perHostConcurrency * per) / h.intervalSeconds, 0);
  return {
    worstCase: { requests: Math.round(requests * 100) / 100, perSeconds: per },
    perHostRequests: r.perHostConcurrency,
  };
}

/** The unit of several hosts every member of a group is in, or undefined when they are planned apart. */
function plannedUnit(members: readonly HostPlan[], units: ReadonlyMap<string, UnitPlan>): UnitPlan | undefined {
  const name = members[0]?.unit;
  if (name === undefined || !members.every((h) => h.unit === name)) return undefined;
  return units.get(name);
}

/** A group's figures: the host queues' worst case, or, planned as one unit, the unit's. */
function groupFigures(
  members: readonly HostPlan[],
  r: ResolvedPlanInput,
  units: ReadonlyMap<string, UnitPlan>,
): Pick<SharedGroup, 'worstCase' | 'perHostRequests' | 'unit'> {
  const unit = plannedUnit(members, units);
  if (unit === undefined) return worstCase(members, r);
  const c = r.perHostConcurrency;
  return {
    worstCase:
      unit.pages === 0
        ? { requests: 0, perSeconds: 0 }
        : unit.intervalSeconds === 0
          ? null
          : { requests: c, perSeconds: unit.intervalSeconds },
    perHostRequests: c,
    unit: unit.unit,
  };
}

/** The groups of the plan's hosts (`units`: the plan's units of several hosts, none under `host`). */
export function sharedServers(
  input: PlanInput,
  r: ResolvedPlanInput,
  hosts: readonly HostPlan[],
  units: readonly UnitPlan[] = [],
): SharedServers {
  const byName = new Map(hosts.map((h) => [h.host, h]));
  const unitByName = new Map(units.map((u) => [u.unit, u]));
  const groups: SharedGroup[] = [];
  const unresolved: SharedServers['unresolved'] = [];
  const looked = input.addressesByHost;
  if (looked !== undefined) {
    const addresses = new Map<string, readonly string[]>();
    for (const h of hosts) {
      const found = knownAddresses(h.host, looked);
      addresses.set(h.host, found ?? []);
      if (found === undefined || found.length === 0)
        unresolved.push({ host: h.host, reason: input.unresolvedHosts?.[h.host] ?? 'not looked up' });
    }
    for (const g of groupByAddress(addresses)) {
      if (g.hosts.length < 2) continue;
      const members = g.hosts.map((h) => byName.get(h)!);
      groups.push({
        kind: 'address',
        key: g.keys.join(', '),
        addresses: g.keys.map(classifyAddress),
        hosts: g.hosts,
        ...groupFigures(members, r, unitByName),
      });
    }
  }
  const domainGroups: SharedGroup[] = [];
  for (const g of groupByDomain(hosts.map((h) => h.host))) {
    if (g.hosts.length < 2) continue;
    const members = g.hosts.map((h) => byName.get(h)!);
    domainGroups.push({ kind: 'domain', key: g.keys[0]!, hosts: g.hosts, ...groupFigures(members, r, unitByName) });
  }
  const bySize = (a: SharedGroup, b: SharedGroup) => b.hosts.length - a.hosts.length;
  return {
    addressesChecked: looked !== undefined,
    unresolved,
    groups: [...groups.sort(bySize), ...domainGroups.sort(bySize)],
  };
}

/** "a, b and 3 more". */
function hostsText(hosts: readonly string[]): string {
  const shown = hosts.slice(0, SHARED_HOSTS_NAMED);
  const more = hosts.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${formatNumber(more)} more`;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const CLASS_WORDS: Readonly<Record<string, string>> = {
  loopback: 'loopback',
  unspecified: 'unspecified',
  private: 'private network',
  'link-local': 'link-local',
};

/** "(loopback)", "(a Cloudflare edge)", "" for public. */
function classText(addresses: readonly AddressInfo[]): string {
  const words = [
    ...new Set(
      addresses.map((a) => (a.class === 'cdn' ? `a ${a.provider} edge` : (CLASS_WORDS[a.class] ?? ''))).filter(Boolean),
    ),
  ];
  return words.length > 0 ? ` (${words.join(', ')})` : '';
}

/** The rate sentence: "127.0.0.5 gets up to 3 requests per 1 s from 3 host queues, 3× what one host is allowed." */
function rateText(g: SharedGroup, subject: string): string {
  const queues = plural(g.hosts.length, 'host queue');
  if (g.worstCase === null)
    return `${subject} gets requests from ${queues} with no delay between them: only response times pace them.`;
  const { requests, perSeconds } = g.worstCase;
  if (requests === 0) return `${subject} gets no requests: no host of it has pages planned.`;
  const times = requests / g.perHostRequests;
  return (
    `${subject} gets up to ${formatNumber(requests, 2)} ${requests === 1 ? 'request' : 'requests'} per ${formatSeconds(perSeconds)} from ${queues}` +
    (times > 1 ? `, ${formatNumber(times, 2)}× what one host is allowed.` : '.')
  );
}

/** The group in a few words, as its finding and the sidebar head it: "3 hosts on 127.0.0.5 (loopback)". */
export function sharedGroupHeading(g: Pick<SharedGroup, 'kind' | 'key' | 'hosts' | 'addresses'>): string {
  return g.kind === 'domain'
    ? `${plural(g.hosts.length, 'host')} in ${g.key}`
    : `${plural(g.hosts.length, 'host')} on ${g.key}${classText(g.addresses ?? [])}`;
}

/** Whether every shared address of an address group is a CDN edge (its finding then says grouping is too cautious). */
export function onCdnEdge(g: Pick<SharedGroup, 'kind' | 'addresses'>): boolean {
  const addresses = g.addresses ?? [];
  return g.kind === 'address' && addresses.length > 0 && addresses.every((a) => a.class === 'cdn');
}

/** Why grouping hosts on a CDN edge is too cautious (the finding says it whether or not they are grouped). */
const CDN_REASON =
  "a CDN edge answers for many unrelated sites from a pool of servers, and each site's origin sees only its own" +
  " host's requests; the per-host limits are the ones that matter here.";

/** A group planned as one unit: "Planned as one politeness unit: 127.0.0.5 gets up to 1 request per 2 s." */
function unitRateText(g: SharedGroup, subject: string): string {
  const w = g.worstCase;
  const rate =
    w === null
      ? `${subject} gets one request at a time, with no delay between them.`
      : w.requests === 0
        ? `${subject} gets no requests: no host of it has pages planned.`
        : `${subject} gets up to ${plural(w.requests, 'request')} per ${formatSeconds(w.perSeconds)}, the interval of its slowest member.`;
  return `Planned as one politeness unit: ${rate}`;
}

/**
 * The finding's sentence for one group (warnings.ts makes the finding). `by`: the plan's politeness unit; with
 * `host`, an address group's finding names the flag that plans it as one unit.
 */
export function sharedGroupText(
  g: SharedGroup,
  by: PolitenessBy = DEFAULT_POLITENESS_BY,
  /** Name the flags that change it (the CLI's text); the sidebar has its own Politeness unit control. */
  flags = true,
): string {
  if (g.kind === 'domain') {
    const subject = `If one server answers for ${g.key}, it`;
    return `${sharedGroupHeading(g)}: ${hostsText(g.hosts)}. ${g.unit !== undefined ? unitRateText(g, g.key) : rateText(g, subject)}`;
  }
  const cdn = onCdnEdge(g);
  let text = `${sharedGroupHeading(g)}: ${hostsText(g.hosts)}. ${g.unit !== undefined ? unitRateText(g, g.key) : rateText(g, g.key)}`;
  if (cdn && g.unit !== undefined)
    text += ` Grouping by this address is too cautious: ${CDN_REASON}${flags ? ' --politeness-by host plans them apart.' : ''}`;
  else if (cdn) text += ` Grouping by this address would be too cautious: ${CDN_REASON}`;
  else if (g.unit === undefined && by === 'host' && flags) text += ' --politeness-by ip plans them as one unit.';
  return text;
}

/** The finding for the groups not warned one by one. */
export function moreGroupsText(kind: SharedGroup['kind'], count: number, hosts: number): string {
  return `${plural(count, 'more group')} of hosts ${kind === 'address' ? 'on one address' : 'in one registered domain'} (${plural(hosts, 'host')} in all); the plan's sharedServers lists them.`;
}

/**
 * Hosts that share a server (docs/planning.md#shared-servers): grouped by address, with union-find over the
 * addresses so that a host with several addresses joins every group it touches (a on x, b on x and y, c on y:
 * one group of three), and grouped by registered domain through the Public Suffix List (tldts, private
 * suffixes included, so x.github.io and y.github.io are two sites). An IP-literal seed is its own address
 * and has no registered domain. The groups are a partition of the hosts given, in first-seen order; a group
 * is the unit a later `--politeness-by ip|domain` would keep polite.
 */
import { getDomain } from 'tldts';
import { canonicalAddress, hostnameOf } from './address';

/** One group of hosts: every host given is in exactly one. */
export interface HostGroup {
  /** The shared addresses (those of two or more members), or the registered domain; a lone host's own. */
  keys: string[];
  /** In first-seen order. */
  hosts: string[];
}

/** The registered domain of a seed host (`URL.host`, a port allowed), or null for an IP literal or a public suffix. */
export function registeredDomain(host: string): string | null {
  const name = hostnameOf(host);
  if (canonicalAddress(name) !== undefined) return null;
  return getDomain(name, { allowPrivateDomains: true }) ?? null;
}

/** The address an IP-literal seed host is, or undefined for a name. */
export function literalAddress(host: string): string | undefined {
  return canonicalAddress(hostnameOf(host));
}

/**
 * A seed host's addresses: an IP literal is its own address, whatever a lookup said; a name has what `looked`
 * (canonical addresses, as PlanInput carries them) gives it, or undefined when it was not looked up.
 */
export function knownAddresses(
  host: string,
  looked: Readonly<Record<string, readonly string[]>> | undefined,
): readonly string[] | undefined {
  const literal = literalAddress(host);
  return literal !== undefined ? [literal] : looked?.[host];
}

/**
 * Hosts grouped by shared address. `addresses` maps each host to its addresses (canonical, see
 * canonicalAddress); a host with none (unresolved) is a group of its own with no keys. Linear in the number of
 * (host, address) pairs, near enough (union by size, path halving).
 */
export function groupByAddress(addresses: ReadonlyMap<string, readonly string[]>): HostGroup[] {
  const hosts = [...addresses.keys()];
  const parent = hosts.map((_, i) => i);
  const size = hosts.map(() => 1);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number): void => {
    let ra = find(a);
    let rb = find(b);
    if (ra === rb) return;
    if (size[ra]! < size[rb]!) [ra, rb] = [rb, ra];
    parent[rb] = ra;
    size[ra]! += size[rb]!;
  };
  const firstHostOf = new Map<string, number>();
  const holders = new Map<string, number>();
  hosts.forEach((host, i) => {
    for (const address of new Set(addresses.get(host))) {
      holders.set(address, (holders.get(address) ?? 0) + 1);
      const first = firstHostOf.get(address);
      if (first === undefined) firstHostOf.set(address, i);
      else union(first, i);
    }
  });
  const byRoot = new Map<number, HostGroup>();
  hosts.forEach((host, i) => {
    const root = find(i);
    let group = byRoot.get(root);
    if (group === undefined) byRoot.set(root, (group = { keys: [], hosts: [] }));
    group.hosts.push(host);
  });
  // Keys: the addresses two or more members share (a lone host: its own addresses).
  for (const group of byRoot.values()) {
    const keys = new Set<string>();
    for (const host of group.hosts)
      for (const address of addresses.get(host) ?? [])
        if (group.hosts.length === 1 || holders.get(address)! > 1) keys.add(address);
    group.keys = [...keys];
  }
  return [...byRoot.values()];
}

/** Hosts grouped by registered domain; an IP literal or a bare public suffix is a group of its own, keyed by itself. */
export function groupByDomain(hosts: readonly string[]): HostGroup[] {
  const groups = new Map<string, HostGroup>();
  for (const host of new Set(hosts)) {
    const domain = registeredDomain(host);
    const key = domain === null ? `host:${host}` : domain;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { keys: [domain ?? hostnameOf(host)], hosts: [] }));
    group.hosts.push(host);
  }
  return [...groups.values()];
}

/**
 * Each seed host's addresses, for the shared-server findings (docs/network.md#resolution): A and AAAA through
 * `dns.lookup(name, { all: true })`, with a per-run cache, a bounded time per host and a bounded number of
 * lookups at once, so that 10,000 hosts never storm the resolver. A failure is that host's, never the run's.
 *
 * Why `lookup` and not `resolve4`/`resolve6`: lookup is getaddrinfo, the same call the HTTP layer's
 * connections make (net.connect), so it sees /etc/hosts, `localhost` and the system's resolver set-up, and the
 * addresses grouped are the ones a crawl connects to; resolve4/6 ask DNS servers directly and would group by
 * addresses the crawl may never use. Its cost: getaddrinfo runs on libuv's thread pool (4 threads by default)
 * and cannot be cancelled, so a lookup past its bound is reported as a timeout and left to finish on its own.
 *
 * Hosts named by `--resolve` (AddressOverrides) get their addresses without DNS; an IP-literal seed is its own
 * address.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { canonicalAddress, hostnameOf } from '../core/servers/address';
import { literalAddress } from '../core/servers/groups';
import { AddressOverrides } from '../core/servers/overrides';

/** How addresses are looked up: the bound per host and how many at once. */
export const RESOLVE_DEFAULTS = {
  timeoutMs: 5_000,
  concurrency: 16,
} as const;

/** One host's addresses, or why it has none. */
export type HostResolution =
  | { host: string; addresses: string[]; source: 'override' | 'literal' | 'dns' }
  | { host: string; error: string; code?: string };

/** A name → its addresses (any order, either family); rejects when there are none. Tests pass their own. */
export type LookupAll = (hostname: string) => Promise<readonly string[]>;

const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface ResolverOptions {
  overrides?: AddressOverrides;
  timeoutMs?: number;
  concurrency?: number;
  lookup?: LookupAll;
}

export interface Resolver {
  /** One seed host (`URL.host`: a port allowed); cached for the run, so a host is looked up once. */
  resolve(host: string): Promise<HostResolution>;
  /** Every host, at most `concurrency` DNS lookups at once; in the order given. */
  resolveAll(hosts: readonly string[]): Promise<HostResolution[]>;
  /** DNS lookups started so far (cache hits, overrides and literals are not). */
  readonly lookups: number;
}

/** A resolver for one run (its cache lives as long as it does). */
export function createResolver(options: ResolverOptions = {}): Resolver {
  const overrides = options.overrides ?? new AddressOverrides();
  const timeoutMs = options.timeoutMs ?? RESOLVE_DEFAULTS.timeoutMs;
  const concurrency = Math.max(1, options.concurrency ?? RESOLVE_DEFAULTS.concurrency);
  const lookupAll = options.lookup ?? systemLookup;
  const cache = new Map<string, Promise<Omit<HostResolution, 'host'>>>();
  let active = 0;
  let lookups = 0;
  const waiting: Array<() => void> = [];

  const slot = async (): Promise<void> => {
    if (active < concurrency) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  const lookupName = async (hostname: string): Promise<Omit<HostResolution, 'host'>> => {
    await slot();
    lookups++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEOUT' })),
          timeoutMs,
        );
      });
      const found = await Promise.race([lookupAll(hostname), timeout]);
      const addresses = [...new Set(found.map((a) => canonicalAddress(a)).filter((a): a is string => a !== undefined))];
      if (addresses.length === 0) return { error: 'no A or AAAA address', code: 'ENODATA' };
      return { addresses, source: 'dns' as const };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const text = typeof code === 'string' ? code : undefined;
      return {
        error:
          text === 'ETIMEOUT' ? (err as Error).message : text === 'ENOTFOUND' ? 'no such host' : (err as Error).message,
        ...(text ? { code: text } : {}),
      };
    } finally {
      clearTimeout(timer);
      release();
    }
  };

  const resolve = async (host: string): Promise<HostResolution> => {
    const literal = literalAddress(host);
    if (literal !== undefined) return { host, addresses: [literal], source: 'literal' };
    const hostname = hostnameOf(host).toLowerCase().replace(/\.$/, '');
    const portText = host.startsWith('[') ? '' : host.slice(hostname.length + 1);
    const overridden = overrides.addressesFor(hostname, portText === '' ? null : Number(portText));
    if (overridden !== undefined) return { host, addresses: [...overridden], source: 'override' };
    let pending = cache.get(hostname);
    if (pending === undefined) cache.set(hostname, (pending = lookupName(hostname)));
    return { host, ...(await pending) } as HostResolution;
  };

  return {
    resolve,
    resolveAll: (hosts) => Promise.all(hosts.map(resolve)),
    get lookups() {
      return lookups;
    },
  };
}

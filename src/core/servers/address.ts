/**
 * IP addresses as the shared-server findings read them (docs/planning.md#shared-servers): one canonical text
 * per address (so that two spellings of one address are one address), and its class: loopback, private
 * (RFC 1918, the shared 100.64/10, IPv6 unique local), link-local, unspecified, a CDN edge from the shipped
 * list (cdnRanges.ts), or public. The local classes are seedHygiene.ts's (one rule for "local").
 */
import { localAddressKind, type LocalAddressKind } from '../seedHygiene';
import { CDN_RANGES } from './cdnRanges';

export type AddressClass = LocalAddressKind | 'cdn' | 'public';

export interface AddressInfo {
  address: string;
  class: AddressClass;
  /** For `cdn`: the provider. */
  provider?: string;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The canonical text of an IP address (IPv4 dotted, IPv6 compressed in lower case without brackets, an
 * IPv4-mapped IPv6 address as its IPv4 address), or undefined when `text` is not an IP address. Read by the
 * WHATWG URL parser, as seed hosts are.
 */
export function canonicalAddress(text: string): string | undefined {
  const t = text.trim();
  const v4 = IPV4.exec(t);
  if (v4 !== null) return v4.slice(1).every((o) => Number(o) <= 255) ? v4.slice(1).map(Number).join('.') : undefined;
  const inner = t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t;
  if (!inner.includes(':') || !/^[0-9a-fA-F:.]+$/.test(inner)) return undefined;
  let host: string;
  try {
    host = new URL(`http://[${inner}]/`).hostname;
  } catch {
    return undefined;
  }
  const v6 = host.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped !== null) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return v6;
}

/** The address as a bit string of 32 (IPv4) or 128 (IPv6) bits. `address` must be canonical. */
function bits(address: string): { v6: boolean; value: bigint } {
  if (!address.includes(':')) {
    const value = address.split('.').reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
    return { v6: false, value };
  }
  const halves = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  // The URL parser writes an embedded IPv4 tail in hex, so every group is hex here.
  const groups = [...head, ...new Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return { v6: true, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

interface Range {
  v6: boolean;
  network: bigint;
  prefix: number;
  provider: string;
}

/** A CIDR range "a.b.c.d/n" or "x::/n"; throws for a malformed one (the shipped list is tested). */
export function parseCidr(cidr: string, provider = ''): Range {
  const [addr, len] = cidr.split('/');
  const canonical = canonicalAddress(addr ?? '');
  const prefix = Number(len);
  if (canonical === undefined || !Number.isInteger(prefix)) throw new Error(`not a CIDR range: ${cidr}`);
  const { v6, value } = bits(canonical);
  const width = v6 ? 128 : 32;
  if (prefix < 0 || prefix > width) throw new Error(`not a CIDR range: ${cidr}`);
  return { v6, network: value >> BigInt(width - prefix), prefix, provider };
}

function inRange(range: Range, address: { v6: boolean; value: bigint }): boolean {
  if (range.v6 !== address.v6) return false;
  const width = range.v6 ? 128 : 32;
  return address.value >> BigInt(width - range.prefix) === range.network;
}

let cdnRanges: Range[] | undefined;

/** The CDN provider whose shipped ranges hold `address` (canonical), or undefined. */
export function cdnProvider(address: string): string | undefined {
  cdnRanges ??= CDN_RANGES.flatMap((list) => list.ranges.map((r) => parseCidr(r, list.provider)));
  const b = bits(address);
  return cdnRanges.find((r) => inRange(r, b))?.provider;
}

/** The class of an address (canonical, see {@link canonicalAddress}). */
export function classifyAddress(address: string): AddressInfo {
  const local = localAddressKind(address.includes(':') ? `[${address}]` : address);
  if (local !== undefined) return { address, class: local };
  const provider = cdnProvider(address);
  return provider !== undefined ? { address, class: 'cdn', provider } : { address, class: 'public' };
}

/** "a.example:8080" → "a.example", "[::1]:80" → "::1": the name or address a seed host connects to. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(1, end);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

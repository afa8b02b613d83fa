/**
 * `--resolve` and the `crawlPlanner.resolve` setting (docs/network.md#resolution): addresses given for a host
 * name, so that it is never looked up in DNS and every connection to it goes to that address (the Host header
 * and TLS SNI stay the name). Curl's meaning and forms: `HOST=IP` (every port; also `HOST=IP,IP`) and curl's
 * own `HOST:PORT:IP` (that port only). One reading for the CLI and the extension.
 */
import { canonicalAddress } from './address';

export interface AddressOverride {
  /** Lower case, without a trailing dot. */
  hostname: string;
  /** The port it applies to, or null for every port. */
  port: number | null;
  /** Canonical addresses, at least one. */
  addresses: string[];
}

const NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** One `HOST=IP[,IP…]` or `HOST:PORT:IP[,IP…]`, or why it is not one. */
export function parseAddressOverride(text: string): AddressOverride | { problem: string } {
  const t = text.trim();
  let hostText: string;
  let portText: string | undefined;
  let addressText: string;
  const eq = t.indexOf('=');
  if (eq >= 0) {
    hostText = t.slice(0, eq);
    addressText = t.slice(eq + 1);
  } else {
    const m = /^([^:]+):(\d+):(.+)$/.exec(t);
    if (m === null) return { problem: 'must be HOST=IP or HOST:PORT:IP' };
    [, hostText, portText, addressText] = m as unknown as [string, string, string, string];
  }
  const hostname = hostText.trim().toLowerCase().replace(/\.$/, '');
  if (!NAME.test(hostname) || canonicalAddress(hostname) !== undefined)
    return { problem: `"${hostText.trim()}" is not a host name` };
  let port: number | null = null;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { problem: `port ${portText} is not 1-65535` };
  }
  const addresses: string[] = [];
  for (const part of addressText.split(',')) {
    const address = canonicalAddress(part.trim());
    if (address === undefined) return { problem: `"${part.trim()}" is not an IP address` };
    if (!addresses.includes(address)) addresses.push(address);
  }
  return { hostname, port, addresses };
}

/**
 * The overrides as a lookup: a port-specific entry wins over an every-port one; a later entry for the same
 * host and port replaces an earlier one (curl's rule).
 */
export class AddressOverrides {
  private readonly byKey = new Map<string, string[]>();
  constructor(entries: readonly AddressOverride[] = []) {
    for (const e of entries) this.byKey.set(`${e.hostname}:${e.port ?? '*'}`, e.addresses);
  }
  get size(): number {
    return this.byKey.size;
  }
  /**
   * The addresses for a host name on a port, or undefined when it is not overridden. `port` null (a seed
   * host without a port, whose scheme is not known here): an every-port entry, else one for 443, else 80.
   */
  addressesFor(hostname: string, port: number | null): readonly string[] | undefined {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const any = this.byKey.get(`${name}:*`);
    if (port !== null) return this.byKey.get(`${name}:${port}`) ?? any;
    return any ?? this.byKey.get(`${name}:443`) ?? this.byKey.get(`${name}:80`);
  }
  /** Every entry, for a document. */
  entries(): AddressOverride[] {
    return [...this.byKey].map(([key, addresses]) => {
      const colon = key.lastIndexOf(':');
      const port = key.slice(colon + 1);
      return { hostname: key.slice(0, colon), port: port === '*' ? null : Number(port), addresses };
    });
  }
}

/**
 * Seed hygiene: what a seed line may hide from the person who typed it, found once for the CLI and the
 * sidebar (docs/cli.md §Seed notes, docs/extension.md §What it shows). Pure text functions:
 *
 * - credentials in a URL (`http://user:pass@host/`), which would go into every request, report and log;
 * - IP literals written in another form (`0x7f.1`, `2130706433`, `0177.0.0.1`), shown normalised;
 * - hosts on this machine or a private network (loopback, RFC 1918, link-local, unique local);
 * - bidi controls and other invisible characters, which can make a line read as something else
 *   ("Trojan Source"), shown escaped.
 *
 * `validateSeeds` (seeds.ts) applies them to every line.
 */

/**
 * Characters that draw nothing or reorder what is drawn: C0 and C1 controls (a tab too: the URL parser drops
 * it silently), the soft hyphen, the Arabic letter mark, the Hangul and Mongolian fillers, zero-width spaces
 * and joiners, the bidi marks, embeddings, overrides and isolates, the invisible operators, the byte-order
 * mark, the interlinear annotation controls and the tag characters.
 */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/** Names of the invisible characters met most, for messages ("U+202E right-to-left override"). */
const INVISIBLE_NAMES: Readonly<Record<number, string>> = {
  0x09: 'tab',
  0xad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
};

function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether `text` holds a character that draws nothing or reorders the text around it. */
export function hasInvisibleCharacters(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}

/** The distinct invisible characters of `text`, in order, as "U+202E (right-to-left override)". */
export function invisibleCharacters(text: string): string[] {
  const found = new Set<number>();
  for (const m of text.matchAll(INVISIBLE)) found.add(m[0].codePointAt(0)!);
  return [...found].map((cp) =>
    INVISIBLE_NAMES[cp] === undefined ? codePointLabel(cp) : `${codePointLabel(cp)} (${INVISIBLE_NAMES[cp]})`,
  );
}

/**
 * `text` with every invisible character written out as an escape, `\u202E` (or `\u{E0041}` above the BMP),
 * so that what is shown is what is there. A backslash is left alone: the escapes are for reading, not parsing.
 */
export function escapeInvisible(text: string): string {
  if (!HAS_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff
      ? `\\u{${cp.toString(16).toUpperCase()}}`
      : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/** The authority's start: a scheme and the slashes (or backslashes, which special schemes read as slashes). */
const AUTHORITY = /^([a-z][a-z0-9+.-]*:)([/\\]*)([^/\\?#]*)/i;
/** The schemes whose URLs always have an authority, with or without slashes (the WHATWG "special" ones). */
const SPECIAL = /^(https?|wss?|ftp|file):$/i;

/** [scheme and slashes, authority] of a URL's text, or null when it has none (`mailto:a@b` has none). */
function authority(text: string): [string, string] | null {
  const m = AUTHORITY.exec(text);
  if (m === null || (m[2] === '' && !SPECIAL.test(m[1]!)) || (m[2] !== '' && !SPECIAL.test(m[1]!) && m[2] !== '//'))
    return null;
  return [m[1]! + m[2]!, m[3]!];
}

/**
 * `text` (a URL, valid or not) without the user name and password of its authority:
 * `http://user:pass@host/x` → `http://host/x`. Anything else is left as it is.
 */
export function redactCredentials(text: string): string {
  const m = authority(text);
  if (m === null) return text;
  const at = m[1].lastIndexOf('@');
  return at < 0 ? text : m[0] + text.slice(m[0].length + at + 1);
}

/**
 * The host as written in `text` (trimmed, lower case, without user info, port or a trailing dot), before
 * the URL parser normalises it; undefined when there is no authority.
 */
export function writtenHost(text: string): string | undefined {
  const m = authority(text.trim());
  if (m === null) return undefined;
  let host = m[1];
  host = host.slice(host.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end < 0 ? host : host.slice(0, end + 1);
  } else {
    host = host.replace(/:[^:]*$/, '');
  }
  return host.toLowerCase().replace(/\.$/, '');
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Whether a parsed host name (`URL.hostname`) is an IP literal: dotted-quad IPv4 or bracketed IPv6. */
export function isIpLiteral(hostname: string): boolean {
  return IPV4.test(hostname) || hostname.startsWith('[');
}

/** Where an address points when it is not the public Internet. */
export type LocalAddressKind = 'loopback' | 'unspecified' | 'private' | 'link-local';

/** The reading of each {@link LocalAddressKind}, for messages. */
export const LOCAL_ADDRESS_MESSAGES: Readonly<Record<LocalAddressKind, string>> = {
  loopback: 'a loopback address: this machine',
  unspecified: 'an unspecified address: this machine',
  private: 'a private network address',
  'link-local': 'a link-local address',
};

function ipv4Kind(a: number, b: number): LocalAddressKind | undefined {
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
    return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return undefined;
}

/** The 16-bit groups of a bracketed IPv6 literal as the URL parser writes it (compressed, lower case). */
function ipv6Groups(literal: string): number[] | undefined {
  const inner = literal.slice(1, -1);
  const halves = inner.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff) ? undefined : groups;
}

/**
 * Whether a parsed host name (`URL.hostname`: IPv4 dotted, IPv6 in brackets, names in lower case) is on this
 * machine or a private network: loopback (127.0.0.0/8, ::1, `localhost` and its subdomains), unspecified
 * (0.0.0.0/8, ::), private (10/8, 172.16/12, 192.168/16, the shared 100.64/10, IPv6 fc00::/7, the `.internal`
 * and `.home.arpa` names), link-local (169.254/16, fe80::/10, mDNS `.local` names). IPv4-mapped IPv6
 * addresses are read as their IPv4 address. Undefined for anything else.
 */
export function localAddressKind(hostname: string): LocalAddressKind | undefined {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  const v4 = IPV4.exec(h);
  if (v4 !== null) return ipv4Kind(Number(v4[1]), Number(v4[2]));
  if (h.startsWith('[') && h.endsWith(']')) {
    const g = ipv6Groups(h);
    if (g === undefined) return undefined;
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return ipv4Kind(g[6]! >> 8, g[6]! & 0xff);
    if (g.slice(0, 7).every((x) => x === 0)) return g[7] === 1 ? 'loopback' : g[7] === 0 ? 'unspecified' : undefined;
    if ((g[0]! & 0xfe00) === 0xfc00) return 'private';
    if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
    return undefined;
  }
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  if (h.endsWith('.local')) return 'link-local';
  if (h.endsWith('.internal') || h === 'home.arpa' || h.endsWith('.home.arpa')) return 'private';
  return undefined;
}

/**
 * Product tokens (RFC 9309 §2.2.1): the crawler's name as matched against `User-agent:` lines, `[a-zA-Z_-]+`,
 * compared case-insensitively. Gap G1: robots-parser cuts whatever it is given at the first `/`, so a full
 * `Mozilla/5.0 (compatible; ExampleBot/0.1)` header selected the `mozilla` group and never `ExampleBot`.
 */

const TOKEN = /^[a-zA-Z_-]+$/;

/** undefined when `token` is a valid product token; otherwise a one-line error citing the rule. */
export function validateProductToken(token: string): string | undefined {
  if (token === '') return 'The product token is empty: it must match [a-zA-Z_-]+ (RFC 9309 §2.2.1).';
  if (TOKEN.test(token)) return undefined;
  const hint = /[/\s(]/.test(token)
    ? ' Give the bare product token (for example "ExampleBot"), not a version or a full User-Agent header.'
    : '';
  return `"${token}" is not a valid product token: it must match [a-zA-Z_-]+, letters, "_" and "-" only (RFC 9309 §2.2.1).${hint}`;
}

/** How `resolveProductToken` read its input. */
export type ProductTokenSource = 'token' | 'token-with-version' | 'user-agent-header';

export interface ProductTokenResolution {
  /** The product token to match, as written (matching is case-insensitive). Absent when none was found. */
  token?: string;
  source?: ProductTokenSource;
  /** Why no token could be used; only the `*` group can apply then. */
  problem?: string;
}

/**
 * Names in User-Agent headers that are never a crawler's product token (browser engines, platforms,
 * `compatible`). Compared lower-case.
 */
const GENERIC_PRODUCTS = new Set([
  'mozilla',
  'compatible',
  'applewebkit',
  'khtml',
  'like',
  'gecko',
  'chrome',
  'chromium',
  'crios',
  'safari',
  'firefox',
  'edg',
  'edge',
  'opera',
  'opr',
  'version',
  'mobile',
  'linux',
  'android',
  'windows',
  'macintosh',
  'iphone',
  'ipad',
  'cpu',
  'x',
  'u',
  'trident',
  'msie',
  'wow',
  'ubuntu',
  'fedora',
  'cros',
  'headlesschrome',
]);

/**
 * The product token to match for a configured value that is either a product token or a whole User-Agent
 * header:
 *
 * 1. `ExampleBot` → `ExampleBot`.
 * 2. `ExampleBot/1.0` → `ExampleBot` (a product with its version, RFC 9110 §10.1.5).
 * 3. Anything holding `/` or `(` is read as a User-Agent header: its products and the `;`-separated items
 *    of its comments are taken in order, each cut at `/`, and the first that is a valid token and not a
 *    generic browser/platform name (`Mozilla`, `compatible`, `AppleWebKit`, `Chrome`, …) is the token.
 *    `Mozilla/5.0 (compatible; ExampleBot/0.1; +https://example.com/bot)` → `ExampleBot`.
 * 4. Otherwise (for example `Foo Bar`, or empty) there is no token: the caller applies only the `*` group,
 *    which is also what Google's matcher does with an invalid token (GoogleOnly_AcceptUserAgentUpToFirstSpace).
 */
export function resolveProductToken(input: string): ProductTokenResolution {
  const value = input.trim();
  if (TOKEN.test(value)) return { token: value, source: 'token' };
  const withVersion = /^([a-zA-Z_-]+)\/\S*$/.exec(value);
  if (withVersion) return { token: withVersion[1] as string, source: 'token-with-version' };
  if (/[/(]/.test(value)) {
    for (const item of headerItems(value)) {
      const name = item.split('/')[0] as string;
      if (TOKEN.test(name) && !GENERIC_PRODUCTS.has(name.toLowerCase()))
        return { token: name, source: 'user-agent-header' };
    }
    return {
      problem: `No product token found in the User-Agent header "${value}": configure the crawler's product token (RFC 9309 §2.2.1).`,
    };
  }
  return { problem: validateProductToken(input) };
}

/** Products (outside parentheses, split at whitespace) and comment items (split at `;`), in order. */
function headerItems(header: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  const push = (): void => {
    const t = current.trim();
    if (t) items.push(t);
    current = '';
  };
  for (const ch of header) {
    if (ch === '(') {
      push();
      depth++;
    } else if (ch === ')') {
      push();
      depth = Math.max(0, depth - 1);
    } else if (depth > 0 ? ch === ';' || ch === ',' : /\s/.test(ch)) {
      push();
    } else {
      current += ch;
    }
  }
  push();
  return items;
}

/** How a `User-agent:` value in a robots.txt file is read (gap G7). */
export interface UserAgentValue {
  /** Lower-case product token to compare with, `''` when the value holds none (it then matches no crawler). */
  token: string;
  /** True for `*`, and for `*` followed by whitespace and anything (Google's rule). */
  global: boolean;
  /** What of the value was not used: `''` when it was exactly a token or `*`. */
  rest: string;
}

/**
 * Google's reading (followed here, decision G7): `*` alone or followed by whitespace is the global agent;
 * otherwise the leading `[a-zA-Z_-]+` is the token (`FOO BAR` → `foo`, `ExampleBot/1.0` → `examplebot`,
 * `ExampleBot*` → `examplebot`) and the rest is ignored.
 */
export function readUserAgentValue(value: string): UserAgentValue {
  if (value.startsWith('*') && (value.length === 1 || /\s/.test(value[1] as string))) {
    return { token: '*', global: true, rest: value.slice(1).trim() };
  }
  const m = /^[a-zA-Z_-]*/.exec(value) as RegExpExecArray;
  return { token: m[0].toLowerCase(), global: false, rest: value.slice(m[0].length) };
}

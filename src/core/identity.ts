/**
 * How the crawler identifies itself to the sites it visits, and when it must say who runs it.
 *
 * Every request sends a `User-Agent` header (src/net/userAgent.ts): the product token that robots.txt
 * groups are matched against, Crawl Planner's version and, when the user gives one, a contact, as
 * `FooBot/0.1.0 (+https://ops.example/bot)`. There is no default contact: a URL of ours would send site
 * operators to someone who does not run the crawl. Polite crawlers name their operator (Heritrix will not
 * start a job without `operatorContactUrl`, Nutch will not fetch without `http.agent.name`), so the CLI
 * and the extension ask for one before a crawl or a robots.txt fetch reaches a real host without it.
 * A real host is any host but this machine's: loopback, `localhost` names, and the demo hosts (which
 * listen on loopback only).
 */

import { localAddressKind } from './seedHygiene';

declare const __VERSION__: string | undefined;

/** Crawl Planner's version, from package.json (esbuild.js defines it); '0.0.0-dev' when run from source. */
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

/** The product token when the user names none (CLI `--user-agent`, setting `crawlPlanner.userAgent`). */
export const DEFAULT_PRODUCT_TOKEN = 'CrawlPlanner';

/** The longest contact accepted (the `crawlPlanner.contactUrl` setting declares the same `maxLength`). */
export const CONTACT_MAX_LENGTH = 2048;

/**
 * undefined when `contact` (trimmed) can go in the header: an absolute http(s) URL with a host, or one
 * `mailto:` address, with no spaces, parentheses or control characters (it is written inside `(+…)`).
 * Otherwise a one-line reason. The empty string is no contact, which the caller decides about.
 */
export function contactProblem(contact: string): string | undefined {
  const text = contact.trim();
  if (text === '') return `the contact is empty: ${RULE}`;
  if (text.length > CONTACT_MAX_LENGTH) return `the contact is longer than ${CONTACT_MAX_LENGTH} characters`;
  const must = `${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)} must be ${RULE}`;
  if (/[\s()\u0000-\u001f\u007f]/.test(text))
    return `${must}, without spaces, parentheses or control characters (it goes inside "(+…)" in the header)`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${must}: a page or an address that says who runs the crawler`;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:')
    return url.hostname === '' ? `${must}: it has no host` : undefined;
  if (url.protocol === 'mailto:')
    return /^[^@,;<>"]+@[^@,;<>"]+$/.test(url.pathname)
      ? undefined
      : `${must}: mailto: takes one address, as in mailto:ops@example.com`;
  return `${must}: ${url.protocol} is neither`;
}

const RULE = 'an absolute http(s) URL or a mailto: address';

/**
 * Whether a URL host name (`URL.hostname`, IPv6 in brackets) is this machine: loopback (127.0.0.0/8,
 * ::1 and its IPv4-mapped form), the unspecified address a connection to which reaches this machine
 * (0.0.0.0/8, ::), and `localhost` with its subdomains (RFC 6761 §6.3).
 */
export function isLocalHostname(hostname: string): boolean {
  const kind = localAddressKind(hostname);
  return kind === 'loopback' || kind === 'unspecified';
}

/**
 * The distinct hosts (`URL.host`) of the http(s) URLs that are not this machine's, in first-seen order.
 * Text that is not an http(s) URL is skipped: nothing is fetched for it.
 */
export function realHosts(urls: Iterable<string>): string[] {
  const hosts = new Set<string>();
  for (const text of urls) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !isLocalHostname(url.hostname)) hosts.add(url.host);
  }
  return [...hosts];
}

/** "a.example", "a.example and b.example", "a.example, b.example and 3 more hosts": for messages. */
export function hostList(hosts: readonly string[], shown = 2): string {
  if (hosts.length <= shown) return hosts.join(' and ');
  const rest = hosts.length - shown;
  return `${hosts.slice(0, shown).join(', ')} and ${rest} more host${rest === 1 ? '' : 's'}`;
}

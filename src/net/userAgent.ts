/**
 * The User-Agent header every request sends: the product token that robots.txt rules are matched against
 * (RFC 9309 §2.2.1), a version, and a contact URL so that site operators can reach the crawl's owner.
 */
import { validateProductToken } from '../core/robots';

export const DEFAULT_PRODUCT_TOKEN = 'CrawlPlanner';
export const DEFAULT_CONTACT_URL = 'https://github.com/crawl-planner/crawl-planner';

declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.1';

/** Throws a TypeError naming the rule when the token is invalid; returns the header otherwise. */
export function userAgentHeader(productToken: string, contactUrl: string = DEFAULT_CONTACT_URL): string {
  const problem = validateProductToken(productToken);
  if (problem !== undefined) throw new TypeError(problem);
  const contact = contactUrl.replace(/[\r\n()]/g, '').trim();
  return `${productToken}/${VERSION}${contact ? ` (+${contact})` : ''}`;
}

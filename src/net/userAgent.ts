/**
 * The User-Agent header every request sends (docs/identity.md):
 * `<token>/<version>` without a contact, `<token>/<version> (+<contact>)` with one. The token is what
 * robots.txt groups are matched against (RFC 9309 §2.2.1); the contact lets site operators reach whoever
 * runs the crawl. There is no default contact (src/core/identity.ts says why).
 */
import { contactProblem, DEFAULT_PRODUCT_TOKEN, VERSION } from '../core/identity';
import { validateProductToken } from '../core/robots/token';

export { DEFAULT_PRODUCT_TOKEN };

/**
 * The header for a product token and an optional contact (undefined or '' for none). Throws a TypeError
 * naming the rule when the token or the contact is invalid.
 */
export function userAgentHeader(productToken: string, contact?: string): string {
  const problem = validateProductToken(productToken);
  if (problem !== undefined) throw new TypeError(problem);
  const text = contact?.trim() ?? '';
  if (text === '') return `${productToken}/${VERSION}`;
  const bad = contactProblem(text);
  if (bad !== undefined) throw new TypeError(bad);
  return `${productToken}/${VERSION} (+${text})`;
}

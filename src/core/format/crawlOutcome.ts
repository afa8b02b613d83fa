/**
 * How a crawl ended and what it left, as text, for the terminal summary, its final line and the sidebar:
 * the end reason, and the URLs it met and did not request because of its scope or limits ("not
 * followed"), counted by reason with the hosts named. Host names come from pages and redirects, so they
 * are passed through `sanitizeText`. Pure.
 */
import type { CrawlSummary, NotFollowed, NotFollowedReason } from '../crawl/events';
import { formatNumber } from './duration';
import { sanitizeText } from './table';

/** How each end reason is named for people. */
export const END_REASONS: Readonly<Record<CrawlSummary['endReason'], string>> = {
  complete: 'complete (all work done)',
  'max-pages': 'page limit reached',
  stopped: 'stopped',
  'hosts-dropped': 'every host dropped',
};

/** How each not-followed reason is named for people. */
export const NOT_FOLLOWED_LABELS: Readonly<Record<NotFollowedReason, string>> = {
  'other-host': 'other host',
  'robots-disallowed': 'robots.txt disallow',
  depth: 'depth limit',
  'max-pages': 'page limit',
  'host-pages': "host's page budget",
  'redirect-limit': 'redirect limit',
};

/** URLs not followed, over all reasons. */
export function notFollowedTotal(notFollowed: readonly NotFollowed[]): number {
  return notFollowed.reduce((n, r) => n + r.urls, 0);
}

/** "8 URLs not followed", or undefined when there are none. */
export function notFollowedHeadline(notFollowed: readonly NotFollowed[]): string | undefined {
  const total = notFollowedTotal(notFollowed);
  return total === 0 ? undefined : `${formatNumber(total)} URL${total === 1 ? '' : 's'} not followed`;
}

/** "b.test 6, c.test 2, +3 more hosts". */
export function notFollowedHosts(r: NotFollowed): string {
  const named = r.hosts.map((h) => `${sanitizeText(h.host)} ${formatNumber(h.urls)}`);
  if (r.moreHosts > 0) named.push(`+${formatNumber(r.moreHosts)} more host${r.moreHosts === 1 ? '' : 's'}`);
  return named.join(', ');
}

/** One reason: "other host 8 (b.test 6, c.test 2)". */
export function formatNotFollowedReason(r: NotFollowed): string {
  return `${NOT_FOLLOWED_LABELS[r.reason] ?? sanitizeText(String(r.reason))} ${formatNumber(r.urls)} (${notFollowedHosts(r)})`;
}

/** Every reason on one line: "other host 8 (b.test 8) · page limit 5 (a.test 5)"; '' when none. */
export function formatNotFollowed(notFollowed: readonly NotFollowed[]): string {
  return notFollowed.map(formatNotFollowedReason).join(' · ');
}

/**
 * "Not followed": the URLs a crawl met and did not request because of its scope or limits (another
 * host, robots.txt, depth, the page limit, the redirect limit), counted by reason and host for the
 * summary, the final line, the report and the sidebar. Pure.
 */
import { NOT_FOLLOWED_HOSTS_NAMED, NOT_FOLLOWED_REASONS, type NotFollowed, type NotFollowedReason } from './events';
import type { UrlOutcome } from './types';

/** What is read of a URL's outcome (the engine's records and the report's `UrlReport`s both fit). */
export interface UrlLike {
  host: string;
  outcome?: UrlOutcome;
  detail?: string;
}

/** The reason a URL was left out by the crawl's scope or limits, or undefined for anything else. */
export function notFollowedReason(rec: UrlLike): NotFollowedReason | undefined {
  switch (rec.outcome) {
    case 'robots-disallowed':
      return 'robots-disallowed';
    case 'out-of-scope':
      return rec.detail === 'other-host' || rec.detail === 'depth' || rec.detail === 'redirect-limit'
        ? rec.detail
        : undefined;
    case 'not-started':
      return rec.detail === 'max-pages' || rec.detail === 'host-pages' ? rec.detail : undefined;
    default:
      return undefined;
  }
}

/** URLs not followed, counted by reason and host (see NotFollowed). */
export function summarizeNotFollowed(records: Iterable<UrlLike>): NotFollowed[] {
  const byReason = new Map<NotFollowedReason, Map<string, number>>();
  for (const rec of records) {
    const reason = notFollowedReason(rec);
    if (reason === undefined) continue;
    let hosts = byReason.get(reason);
    if (!hosts) byReason.set(reason, (hosts = new Map()));
    hosts.set(rec.host, (hosts.get(rec.host) ?? 0) + 1);
  }
  const out: NotFollowed[] = [];
  for (const reason of NOT_FOLLOWED_REASONS) {
    const hosts = byReason.get(reason);
    if (!hosts) continue;
    const sorted = [...hosts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.push({
      reason,
      urls: sorted.reduce((n, [, count]) => n + count, 0),
      hosts: sorted.slice(0, NOT_FOLLOWED_HOSTS_NAMED).map(([host, urls]) => ({ host, urls })),
      moreHosts: Math.max(0, sorted.length - NOT_FOLLOWED_HOSTS_NAMED),
    });
  }
  return out;
}

/** The last test crawl in this window, as the sidebar says it: how it ended, and what it did not follow. */
import { END_REASONS, formatNotFollowedReason, notFollowedHeadline } from '../../core/format/crawlOutcome';
import { formatDuration } from '../../core/format/duration';
import { plural } from '../../core/format/text';
import type { CrawlResultView } from '../../shared/planner/viewModel';

export interface CrawlResultModel {
  /** "test crawl: demo hosts: page limit reached · 60 pages · 67 requests · 41 s" */
  headline: string;
  /** "8 URLs not followed:" or "Everything it met was followed." */
  notFollowedHeadline: string;
  /** One item per reason: "other host 8 (b.example 8)". */
  notFollowed: string[];
  /** True when it ran to its end (exit code 0). */
  ok: boolean;
}

export function crawlResultModel(crawl: CrawlResultView): CrawlResultModel {
  const ended = END_REASONS[crawl.endReason] ?? crawl.endReason;
  const left = notFollowedHeadline(crawl.notFollowed);
  return {
    headline: `${crawl.name}: ${ended} · ${plural(crawl.pages, 'page')} · ${plural(crawl.requests, 'request')} · ${formatDuration(crawl.elapsedSeconds)}`,
    notFollowedHeadline:
      left === undefined ? 'Everything it met was followed (within its hosts and limits).' : `${left}:`,
    notFollowed: crawl.notFollowed.map(formatNotFollowedReason),
    ok: crawl.exitCode === 0,
  };
}

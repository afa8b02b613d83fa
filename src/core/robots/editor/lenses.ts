/**
 * codeLenses(file, ctx, options): "Test URLs…" above each group, the cost of each Crawl-delay, and
 * "Compare with live robots.txt" when the file's origin is known.
 */
import { formatSeconds } from '../../format/duration';
import type { OriginHint } from '../lint';
import { largestCrawlDelay } from '../crawlDelay';
import type { RobotsFile } from '../robotsFile';
import { crawlDelayEstimate, crawlDelayLensTitle, rate, type EditorContext } from './crawlDelayCost';
import { tokenForGroup } from './urlChecks';

export type LensKind = 'test-urls' | 'crawl-delay' | 'compare-live';

export interface LensSpec {
  /** 1-based line the lens stands above. */
  line: number;
  title: string;
  kind: LensKind;
  /** The group's index (test-urls above a group). */
  group?: number;
  /** compare-live: the origin to fetch. */
  origin?: string;
  tooltip?: string;
}

export interface LensOptions {
  /** Where the live file is: given only when the origin is known (see originFromText / originFromPath). */
  liveOrigin?: OriginHint;
}

const ORIGIN_SOURCE_TEXT: Record<OriginHint['from'], string> = {
  option: 'the document',
  comment: 'a comment in the file',
  folder: 'the folder name',
  sitemap: 'the Sitemap URLs',
};

export function codeLenses(file: RobotsFile, ctx: EditorContext, options: LensOptions = {}): LensSpec[] {
  const lenses: LensSpec[] = [];
  if (options.liveOrigin && file.lines.length > 0) {
    const o = options.liveOrigin;
    lenses.push({
      line: 1,
      kind: 'compare-live',
      title: `Compare with live robots.txt (${o.origin})`,
      origin: o.origin,
      tooltip: `Diff this buffer against ${o.origin}/robots.txt as fetched now (origin from ${ORIGIN_SOURCE_TEXT[o.from]}).`,
    });
  }
  if (file.groups.length === 0 && file.lines.length > 0) {
    lenses.push({
      line: 1,
      kind: 'test-urls',
      title: 'Test URLs…',
      tooltip: 'Test URLs against this robots.txt (it has no groups: everything is allowed).',
    });
  }
  // Files can have thousands of groups with the same few Crawl-delay values: format each value once.
  const texts = new Map<number, { title: string; tooltip: string }>();
  for (const group of file.groups) {
    const token = tokenForGroup(file, group.index, ctx.productToken ?? 'CrawlPlanner');
    lenses.push({
      line: group.line,
      kind: 'test-urls',
      title: 'Test URLs…',
      group: group.index,
      tooltip: `Test URLs against this group (as ${token}), using the unsaved text.`,
    });
  }
  for (const record of file.records) {
    const used = largestCrawlDelay(record.crawlDelays);
    if (used) {
      const seconds = used.seconds;
      let text = texts.get(seconds);
      if (!text) {
        const est = crawlDelayEstimate(seconds, ctx);
        text = {
          title: crawlDelayLensTitle(est, ctx),
          tooltip: `Effective interval ${formatSeconds(est.decision.seconds)} from Crawl-delay ${formatSeconds(seconds)} and your settings; pages/day ${rate(est.pagesPerDay)}.`,
        };
        texts.set(seconds, text);
      }
      lenses.push({
        line: used.line,
        kind: 'crawl-delay',
        title: text.title,
        group: record.group,
        tooltip: text.tooltip,
      });
    }
  }
  return lenses.sort((a, b) => a.line - b.line);
}

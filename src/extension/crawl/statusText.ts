/**
 * The crawl status bar item's text and tooltip (statusBar.ts), pure so that it is tested without VS Code:
 * pages done of planned, the recent rate and the ETA, and, while a host looks like it is blocking the crawl
 * (docs/crawl-engine.md#blocking-suspected), a warning with the host and the numbers in words.
 */
import { formatDuration, formatNumber } from '../../core/format/duration';
import { sanitizeText } from '../../core/format/table';
import type { RunningCrawl } from './runningCrawls';

const ACTION_WORDS = { warned: 'warned only', slowed: 'slowed ×2', dropped: 'dropped' } as const;

/** The item's text and tooltip for the running crawls, and whether it warns (a host blocking the crawl). */
export function crawlStatusText(runs: readonly RunningCrawl[]): { text: string; tooltip: string; warning: boolean } {
  // With several runs, the newest one is shown and the count says there are more.
  const run = runs[runs.length - 1]!;
  const p = run.progress;
  const more = runs.length > 1 ? ` (+${runs.length - 1})` : '';
  const blocking = run.blocking ?? [];
  const warning = blocking.length > 0;
  const mark = warning ? ' $(warning)' : '';
  const blocked = blocking
    .map((b) => `${sanitizeText(b.host)} (${sanitizeText(b.text)}; ${ACTION_WORDS[b.action] ?? b.action})`)
    .join(', ');
  const warn = warning ? ` Blocking suspected on ${blocked}.` : '';
  if (!p) {
    return {
      text: `$(sync~spin) Crawling…${mark}${more}`,
      tooltip: `${run.name}: starting.${warn} Click to stop.`,
      warning,
    };
  }
  const planned = p.planned > 0 ? p.planned : run.maxPages;
  const rate = `${formatNumber(p.ratePerSecond, p.ratePerSecond < 10 ? 2 : 1)}/s`;
  const eta = p.etaSeconds !== undefined ? formatDuration(p.etaSeconds, 2) : '—';
  return {
    text: `$(sync~spin) ${formatNumber(p.done)}/${formatNumber(planned)} pages · ${rate} · ETA ${eta}${mark}${more}`,
    tooltip:
      `${run.name}: ${formatNumber(p.done)} of ${formatNumber(planned)} pages, ${rate} pages per second, ` +
      `${formatNumber(p.queued)} queued, ${formatNumber(p.inFlight)} in flight.${warn} Click to stop.`,
    warning,
  };
}

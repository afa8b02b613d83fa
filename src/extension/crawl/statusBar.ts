/**
 * A status bar item while a test crawl runs: pages done of planned, the recent rate and the ETA, from
 * the crawl's progress events. Clicking it stops the crawl. Hidden when nothing runs.
 */
import * as vscode from 'vscode';
import { formatDuration, formatNumber } from '../../core/format/duration';
import { COMMANDS, CRAWL_STATUS_ITEM } from '../ids';
import type { RunningCrawl, RunningCrawls } from './runningCrawls';

export interface CrawlStatusDeps {
  runs: RunningCrawls;
}

export function registerCrawlStatusBar(context: vscode.ExtensionContext, deps: CrawlStatusDeps): void {
  const item = vscode.window.createStatusBarItem(CRAWL_STATUS_ITEM, vscode.StatusBarAlignment.Left, 50);
  item.name = 'Crawl Planner: test crawl';
  item.command = COMMANDS.stopTestCrawl;
  const render = () => {
    const runs = deps.runs.active;
    if (runs.length === 0) {
      item.hide();
      return;
    }
    const { text, tooltip } = crawlStatusText(runs);
    item.text = text;
    item.tooltip = tooltip;
    item.show();
  };
  context.subscriptions.push(item, deps.runs.onDidChange(render));
  render();
}

/** The item's text and tooltip for the running crawls (exported for tests). */
export function crawlStatusText(runs: readonly RunningCrawl[]): { text: string; tooltip: string } {
  // With several runs, the newest one is shown and the count says there are more.
  const run = runs[runs.length - 1]!;
  const p = run.progress;
  const more = runs.length > 1 ? ` (+${runs.length - 1})` : '';
  if (!p) {
    return { text: `$(sync~spin) Crawling…${more}`, tooltip: `${run.name}: starting. Click to stop.` };
  }
  const planned = p.planned > 0 ? p.planned : run.maxPages;
  const rate = `${formatNumber(p.ratePerSecond, p.ratePerSecond < 10 ? 2 : 1)}/s`;
  const eta = p.etaSeconds !== undefined ? formatDuration(p.etaSeconds, 2) : '—';
  return {
    text: `$(sync~spin) ${formatNumber(p.done)}/${formatNumber(planned)} pages · ${rate} · ETA ${eta}${more}`,
    tooltip:
      `${run.name}: ${formatNumber(p.done)} of ${formatNumber(planned)} pages, ${rate} pages per second, ` +
      `${formatNumber(p.queued)} queued, ${formatNumber(p.inFlight)} in flight. Click to stop.`,
  };
}

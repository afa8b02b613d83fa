/**
 * A status bar item while a test crawl runs: pages done of planned, the recent rate and the ETA, from
 * the crawl's progress events, and a warning (its background and a ⚠) while a host looks like it is
 * blocking the crawl (statusText.ts). Clicking it stops the crawl. Hidden when nothing runs.
 */
import * as vscode from 'vscode';
import { COMMANDS, CRAWL_STATUS_ITEM } from '../ids';
import type { RunningCrawls } from './runningCrawls';
import { crawlStatusText } from './statusText';

export { crawlStatusText } from './statusText';

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
    const { text, tooltip, warning } = crawlStatusText(runs);
    item.text = text;
    item.tooltip = tooltip;
    item.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  context.subscriptions.push(item, deps.runs.onDidChange(render));
  render();
}

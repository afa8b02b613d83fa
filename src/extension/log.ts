/**
 * The "Crawl Planner" log: a LogOutputChannel (VS Code adds the time and level, and the user picks the
 * level shown). Crawl events go in as the same NDJSON lines the CLI's `--log` writes, one per event,
 * at a level that fits them.
 */
import * as vscode from 'vscode';
import type { CrawlEvent } from '../core/crawl/events';
import { eventToJsonLine } from '../core/format/safeJson';

export type Log = vscode.LogOutputChannel;

export function createLog(context: vscode.ExtensionContext): Log {
  const log = vscode.window.createOutputChannel('Crawl Planner', { log: true });
  context.subscriptions.push(log);
  return log;
}

export type LogLevelName = 'debug' | 'info' | 'warn';

/**
 * Scheduling detail is debug, what the crawl did is info, what went wrong or made it slow down is warn.
 */
export function crawlEventLevel(event: CrawlEvent): LogLevelName {
  switch (event.type) {
    case 'queued':
    case 'request-start':
    case 'progress':
      return 'debug';
    case 'response':
      return event.status >= 400 ? 'warn' : 'info';
    case 'robots-skip':
    case 'done':
      return 'info';
    case 'retry-scheduled':
    case 'host-paused':
    case 'host-dropped':
    case 'blocking-suspected':
      return 'warn';
    case 'error':
      return 'warn';
    default: {
      const unknown: never = event;
      void unknown;
      return 'info';
    }
  }
}

/** Writes one crawl event to the log as an NDJSON line. */
export function logCrawlEvent(log: Pick<Log, LogLevelName>, event: CrawlEvent): void {
  log[crawlEventLevel(event)](eventToJsonLine(event));
}

export { errorMessage } from '../core/format/text';

/**
 * The test crawls running in this window: who is running, their latest progress, and how to stop
 * them. The status bar item and the Stop Test Crawl command read it; the `crawlRunning` context key
 * follows it. One instance, created in activate() and disposed with the extension (which stops every
 * crawl still running).
 */
import * as vscode from 'vscode';
import type { BlockingSuspectedEvent, CrawlSummary, ProgressEvent } from '../../core/crawl/events';
import type { CrawlReport } from '../../core/crawl/crawlReport';
import { CONTEXT_KEYS } from '../ids';

export interface RunningCrawl {
  readonly id: number;
  /** The task or terminal name. */
  readonly name: string;
  readonly startedAt: number;
  /** Pages the run may fetch at most. */
  readonly maxPages: number;
  /** The latest progress event, when one has arrived. */
  readonly progress: ProgressEvent | undefined;
  /** The hosts that look like they are blocking the crawl (docs/crawl-engine.md#blocking-suspected): each one's latest signal. */
  readonly blocking: readonly BlockingSuspectedEvent[];
}

export interface CrawlEnd {
  id: number;
  name: string;
  exitCode: number;
  /** The report's location, when one was written. */
  reportUri?: vscode.Uri;
  /** The crawl's summary, when it ran. */
  summary?: CrawlSummary;
  /** The report it wrote (the same object as the file), when it ran: the planner calibrates from it. */
  report?: CrawlReport;
}

export interface RunningCrawlHandle {
  readonly id: number;
  progress(event: ProgressEvent): void;
  /** A host looks like it is blocking the crawl: the status bar warns. */
  blocking(event: BlockingSuspectedEvent): void;
  end(result: { exitCode: number; reportUri?: vscode.Uri; summary?: CrawlSummary; report?: CrawlReport }): void;
}

interface Entry {
  info: RunningCrawl;
  stop: () => void;
}

export class RunningCrawls implements vscode.Disposable {
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly ended = new vscode.EventEmitter<CrawlEnd>();
  /** Fires when a run starts, ends or reports progress. */
  readonly onDidChange = this.changed.event;
  readonly onDidEnd = this.ended.event;

  get active(): readonly RunningCrawl[] {
    return [...this.entries.values()].map((e) => e.info);
  }

  /** Registers a starting run; `stop` asks it to stop (it ends later, through the handle). */
  begin(name: string, maxPages: number, stop: () => void): RunningCrawlHandle {
    const id = this.nextId++;
    this.entries.set(id, {
      info: { id, name, maxPages, startedAt: Date.now(), progress: undefined, blocking: [] },
      stop,
    });
    this.update();
    return {
      id,
      progress: (event) => {
        const entry = this.entries.get(id);
        if (!entry) return;
        entry.info = { ...entry.info, progress: event };
        this.changed.fire();
      },
      blocking: (event) => {
        const entry = this.entries.get(id);
        if (!entry) return;
        const others = entry.info.blocking.filter((b) => b.host !== event.host);
        entry.info = { ...entry.info, blocking: [...others, event] };
        this.changed.fire();
      },
      end: ({ exitCode, reportUri, summary, report }) => {
        if (!this.entries.delete(id)) return;
        this.update();
        this.ended.fire({
          id,
          name,
          exitCode,
          ...(reportUri ? { reportUri } : {}),
          ...(summary ? { summary } : {}),
          ...(report ? { report } : {}),
        });
      },
    };
  }

  /** Asks every running crawl to stop; returns how many were asked. */
  stopAll(): number {
    const entries = [...this.entries.values()];
    for (const e of entries) e.stop();
    return entries.length;
  }

  private update(): void {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.crawlRunning, this.entries.size > 0);
    this.changed.fire();
  }

  dispose(): void {
    this.stopAll();
    this.entries.clear();
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.crawlRunning, false);
    this.changed.dispose();
    this.ended.dispose();
  }
}

export function registerRunningCrawls(context: vscode.ExtensionContext): RunningCrawls {
  const runs = new RunningCrawls();
  context.subscriptions.push(runs);
  return runs;
}

/**
 * The Pseudoterminal of a test crawl: a thin adapter over startTerminalCrawl (ARCHITECTURE.md §Data flow: a crawl). The crawl
 * starts in open(); anything written before that is buffered; Ctrl+C (handleInput '\x03') and close()
 * stop it; onDidClose fires with the exit code after the last line has been written.
 */
import * as vscode from 'vscode';
import { colors } from '../../core/format/ansi';
import { errorMessage } from '../log';
import type { TerminalCrawl, TerminalCrawlOutcome, TerminalSink } from './terminalCrawl';

export type StartCrawl = (sink: TerminalSink) => TerminalCrawl;

export class CrawlPseudoterminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  private opened = false;
  private closed = false;
  private pending: string[] = [];
  private columns: number | undefined;
  private exitCode = 0;
  private run: TerminalCrawl | undefined;

  /**
   * `onDone` hears the outcome once, whether the crawl ran, failed or was refused. `closeOnExit`: a
   * task terminal closes with the exit code (VS Code keeps it open and shows the code); a plain
   * extension terminal would vanish with its output, so it waits for a key first.
   */
  constructor(
    private readonly start: StartCrawl,
    private readonly options: { onDone?: (outcome: TerminalCrawlOutcome) => void; closeOnExit?: boolean } = {},
  ) {}

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    if (this.opened) return;
    this.opened = true;
    this.columns = initialDimensions?.columns;
    for (const text of this.pending.splice(0)) this.writeEmitter.fire(text);
    if (this.closed) return; // closed before it was opened: nothing to run
    const sink: TerminalSink = { write: (text) => this.write(text), columns: () => this.columns };
    try {
      this.run = this.start(sink);
    } catch (err) {
      this.write(`The test crawl could not start: ${errorMessage(err)}\r\n`);
      this.finish({ exitCode: 1 });
      return;
    }
    this.run.done.then(
      (outcome) => this.finish(outcome),
      (err: unknown) => {
        this.write(`The test crawl failed: ${errorMessage(err)}\r\n`);
        this.finish({ exitCode: 1 });
      },
    );
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.columns = dimensions.columns;
  }

  handleInput(data: string): void {
    if (this.closed) {
      // Ended and waiting for a key (extension terminal only).
      if (this.options.closeOnExit === false) this.closeEmitter.fire(this.exitCode);
      return;
    }
    if (data.includes('\x03')) {
      this.write('^C\r\n');
      this.run?.stop();
    }
  }

  /** The terminal was closed by the user (or the task terminated): stop the crawl. */
  close(): void {
    if (!this.run) {
      // Not started yet: make sure it never starts, and report it as stopped.
      if (!this.closed) this.finish({ exitCode: 1 });
      return;
    }
    this.run.stop();
  }

  private write(text: string): void {
    if (this.opened) this.writeEmitter.fire(text);
    else this.pending.push(text);
  }

  private finish(outcome: TerminalCrawlOutcome): void {
    if (this.closed) return;
    this.closed = true;
    this.exitCode = outcome.exitCode;
    this.options.onDone?.(outcome);
    if (!this.opened) return;
    if (this.options.closeOnExit === false) {
      this.write(
        `\r\n${colors(true).dim(`The test crawl ended (exit code ${outcome.exitCode}). Press any key to close this terminal.`)}\r\n`,
      );
      return;
    }
    // Every line was fired above, in order, before this: the terminal shows them all, then the exit code.
    this.closeEmitter.fire(outcome.exitCode);
  }
}

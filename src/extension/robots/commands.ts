/**
 * Crawl Planner: Inspect robots.txt for URL, and Open robots.txt.
 *
 * `crawlPlanner.inspectRobots(url | urls[] | { urls, userAgent?, show? })` fetches each origin's
 * robots.txt (RFC 9309, through the cache), explains every URL, opens the read-only document with the
 * verdicts, and returns the inspection. Without arguments it asks for the URL(s).
 *
 * `crawlPlanner.openRobotsTxt(originOrUrl, line?)` (or `{ origin, line }`) opens an origin's robots.txt,
 * fetched through the cache, selecting `line` (1-based, a line of the file). Without arguments it asks.
 *
 * The URLs come from the user or the planner, never from workspace files, so both work in Restricted
 * Mode; the user agent and delays come from the settings (workspace values ignored there).
 */
import * as vscode from 'vscode';
import type { RobotsInspection } from '../../net/robotsInspect';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import type { RobotsService } from './service';
import { argObject, checkUrls, CommandArgumentError, optionalBoolean, optionalNumber, urlList } from '../commandArgs';
import { askUrls } from '../urlInput';
import { runCommand } from '../commandRun';
import { PRODUCT_TOKEN } from '../config';
import { ROBOTS_LINE_LIMIT } from '../../shared/planner/limits';

export interface RobotsCommandsDeps {
  robots: RobotsService;
  log: Log;
}

function inspectArgs(arg: unknown): { urls: string[]; userAgent?: string; show: boolean } {
  if (typeof arg === 'string' || Array.isArray(arg)) return { urls: urlList('urls', arg), show: true };
  const o = argObject(COMMANDS.inspectRobots, arg);
  const urls = urlList('urls', o.urls ?? o.url);
  const userAgent = o.userAgent;
  if (userAgent !== undefined && (typeof userAgent !== 'string' || !PRODUCT_TOKEN.test(userAgent))) {
    throw new CommandArgumentError('userAgent: a product token, [a-zA-Z_-]+');
  }
  return {
    urls,
    ...(typeof userAgent === 'string' ? { userAgent } : {}),
    show: optionalBoolean('show', o.show) !== false,
  };
}

function openArgs(first: unknown, second: unknown): { origin: string; line?: number } {
  let target: unknown = first;
  let line: unknown = second;
  if (typeof first === 'object' && first !== null && !Array.isArray(first)) {
    const o = first as Record<string, unknown>;
    target = o.origin ?? o.url;
    line = o.line;
  }
  if (typeof target !== 'string') throw new CommandArgumentError('origin: give an http(s) origin or URL');
  const checked = checkUrls([target]);
  if ('problem' in checked) throw new CommandArgumentError(`origin: ${checked.problem}`);
  const n = optionalNumber('line', line, ROBOTS_LINE_LIMIT);
  return { origin: checked.seeds[0]!.origin, ...(n !== undefined ? { line: n } : {}) };
}

const VERDICT_ICON: Record<string, string> = {
  allowed: '$(pass)',
  disallowed: '$(circle-slash)',
  'not-applicable': '$(question)',
};

export function registerRobotsCommands(context: vscode.ExtensionContext, deps: RobotsCommandsDeps): void {
  let lastUrl = '';

  const askFor = async (title: string, prompt: string): Promise<string[] | undefined> => {
    const typed = await askUrls({ title, prompt, placeHolder: 'https://www.example.com/some/page', value: lastUrl });
    if (typed === undefined) return undefined;
    lastUrl = typed.text;
    return typed.urls;
  };

  /** One origin: open it. Several: pick one (each shows its outcome and verdicts). */
  const present = async (inspection: RobotsInspection): Promise<void> => {
    if (inspection.origins.length === 0) {
      const why = inspection.invalid[0]?.reason ?? 'no valid URL';
      void vscode.window.showWarningMessage(`Nothing to inspect: ${why}`);
      return;
    }
    let origin = inspection.origins[0]!.origin;
    if (inspection.origins.length > 1) {
      const items = inspection.origins.map((o) => {
        const verdicts = inspection.results.filter((r) => r.origin === o.origin);
        return {
          label: o.origin,
          description: `${o.outcome}${o.status !== null ? ` (${o.status})` : ''}${o.crawlDelaySeconds !== null ? ` · Crawl-delay ${o.crawlDelaySeconds} s` : ''}`,
          detail: verdicts.map((r) => `${VERDICT_ICON[r.verdict] ?? ''} ${new URL(r.url).pathname}`).join('   '),
        };
      });
      const picked = await vscode.window.showQuickPick(items, {
        title: 'robots.txt: open which origin?',
        matchOnDetail: true,
      });
      if (!picked) return;
      origin = picked.label;
    }
    const firstRule = inspection.results.find((r) => r.origin === origin && r.line !== null)?.line ?? undefined;
    await deps.robots.show(inspection, origin, firstRule);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.inspectRobots, (arg?: unknown) =>
      runCommand(deps.log, 'Inspect robots.txt', async () => {
        let request: { urls: string[]; userAgent?: string; show: boolean };
        if (arg === undefined) {
          const urls = await askFor(
            'Inspect robots.txt for URL',
            "URL(s) to check against their hosts' robots.txt, separated by commas or spaces",
          );
          if (!urls) return undefined;
          request = { urls, show: true };
        } else {
          request = inspectArgs(arg);
        }
        const inspection = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Fetching robots.txt…', cancellable: true },
          (_progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            return deps.robots.inspect({
              urls: request.urls,
              signal: abort.signal,
              ...(request.userAgent ? { productToken: request.userAgent } : {}),
            });
          },
        );
        if (request.show) await present(inspection);
        return inspection;
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.openRobotsTxt, (first?: unknown, second?: unknown) =>
      runCommand(deps.log, 'Open robots.txt', async () => {
        let target: { origin: string; line?: number };
        if (first === undefined) {
          const urls = await askFor('Open robots.txt', 'A URL or origin whose robots.txt to open');
          if (!urls || urls.length === 0) return undefined;
          target = openArgs(urls[0], undefined);
        } else {
          target = openArgs(first, second);
        }
        const editor = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: `robots.txt of ${target.origin}` },
          () => deps.robots.open(target.origin, target.line),
        );
        return editor.document.uri.toString();
      }),
    ),
  );
}

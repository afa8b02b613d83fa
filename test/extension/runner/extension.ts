/**
 * The entry of the test-runner extension that the e2e harness installs into code-server next to the
 * product (manifest: test/e2e/runner-extension/package.json; bundled with every suite by
 * test/e2e/lib/build.js). code-server rejects `--extensionDevelopmentPath` and `--extensionTestsPath`,
 * so this extension plays their part: when it activates (`onStartupFinished`, after Crawl Planner, which
 * it depends on), it runs every test that ../suite/index.ts registers, with the same harness that
 * `npm run test:extension` uses, writes the results to a JSON file, and then stays idle.
 *
 * The file is the environment variable CRAWL_PLANNER_TEST_RESULTS, else the setting
 * `crawlPlannerTestRunner.resultsFile`; with neither, it runs nothing. While the tests run,
 * `<file>.progress` gets a first line when they start and then one JSON line per finished test, so a
 * harness that gives up can say how far they got. The results file is written once, at the end
 * (written to `<file>.tmp`, then renamed): `{ passed, failed, skipped, results: [{ name, ok, ms, error? }],
 * vscodeVersion }`. A window reload does not run them twice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runAll, type RunSummary } from '../suite/harness';
// Registers every suite (the same list `--extensionTestsPath` runs).
import '../suite/index';

export const RESULTS_ENV = 'CRAWL_PLANNER_TEST_RESULTS';
export const RESULTS_SETTING = 'crawlPlannerTestRunner.resultsFile';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Crawl Planner Tests');
  context.subscriptions.push(log);
  const file = process.env[RESULTS_ENV] || vscode.workspace.getConfiguration().get<string>(RESULTS_SETTING) || '';
  if (!file) {
    log.appendLine(`No results file (${RESULTS_ENV} or the setting ${RESULTS_SETTING}): running nothing.`);
    return;
  }
  const progress = `${file}.progress`;
  if (fs.existsSync(file) || fs.existsSync(progress)) {
    log.appendLine(
      `${progress} exists: the tests already ran (or are running) for this results file; running nothing.`,
    );
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    progress,
    `${JSON.stringify({ started: new Date().toISOString(), vscodeVersion: vscode.version, pid: process.pid })}\n`,
  );
  // Not inside activate(): the tests use the workbench, which waits for activations to settle.
  setTimeout(() => void run(file, progress, log), 0);
}

async function run(file: string, progress: string, log: vscode.OutputChannel): Promise<void> {
  log.appendLine(`Running the extension-host suites in VS Code ${vscode.version}; results to ${file}`);
  let summary: RunSummary;
  try {
    summary = await runAll((result) => {
      fs.appendFileSync(progress, `${JSON.stringify(result)}\n`);
      log.appendLine(
        `${result.ok ? 'PASS' : 'FAIL'} ${result.name} (${result.ms} ms)${result.error ? `\n${result.error}` : ''}`,
      );
    });
  } catch (err) {
    // runAll() catches each test's failure; this is the runner itself breaking.
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    summary = { passed: 0, failed: 1, skipped: 0, results: [{ name: 'the test runner', ok: false, ms: 0, error }] };
  }
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ ...summary, vscodeVersion: vscode.version }, null, 2));
  fs.renameSync(tmp, file);
  log.appendLine(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
}

export function deactivate(): void {
  // Nothing to stop: the suites clean up after themselves (demo hosts, editors, settings).
}

'use strict';
/**
 * x. The extension-host suites (test/extension/suite: activation, commands, the planner view, the task
 * and commands against the demo hosts, the robots.txt language features) run inside code-server's real
 * extension host, through the API, as `npm run test:extension` runs them in a desktop VS Code.
 *
 * code-server rejects `--extensionDevelopmentPath`, so the harness installs a test-runner extension
 * (test/e2e/runner-extension, built with the suites bundled in) next to the packaged product, in a
 * profile of its own (trust off, like `trusted`), so the other scenarios see the product alone. The
 * workspace is a copy of test/extension/fixture, the folder the suites expect (its settings say
 * `crawlPlanner.maxPages: 12`). The user setting `crawlPlannerTestRunner.resultsFile` tells the runner
 * where to write; the runner starts on `onStartupFinished` once the workbench is open, runs every test,
 * writes the file and stays idle. This scenario waits for the file (bounded), prints each test as a
 * PASS/FAIL line, and fails when any test failed or none ran.
 *
 * The task suite starts the extension's own demo hosts (Start Demo Hosts: 127.0.0.11–15 on port 8470,
 * or ephemeral ports when 8470 is taken) and uses the hosts the command returns; the harness's demo
 * hosts are on 127.0.0.31 and up, on ephemeral ports, so they never compete for it.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../lib/paths');
const { check } = require('../lib/assert');
const { poll } = require('../lib/proc');

const RESULTS_SETTING = 'crawlPlannerTestRunner.resultsFile';
/** The runner must have started (written its progress file) this long after the workbench opened. */
const START_TIMEOUT_MS = 90_000;
/** All the tests together (today they take about a minute). */
const RUN_TIMEOUT_MS = 360_000;

function readProgress(file) {
  if (!fs.existsSync(file)) return undefined;
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const parsed = [];
  for (const line of lines) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      /* a line being written */
    }
  }
  const [header, ...results] = parsed;
  return { header, results };
}

function firstLines(text, n) {
  return String(text ?? '')
    .split('\n')
    .slice(0, n)
    .map((l) => l.trimEnd());
}

module.exports = {
  id: 'x-extension-host',
  title:
    "the extension-host suites (test/extension/suite) in code-server's extension host, through a test-runner extension",
  profile: 'extension-host',
  extraExtensions: ['runner'],
  fixture: path.join(ROOT, 'test', 'extension', 'fixture'),
  timeoutMs: START_TIMEOUT_MS + RUN_TIMEOUT_MS + 30_000,
  async prepare(ctx) {
    ctx.resultsFile = `${ctx.workspace}-extension-host-results.json`;
    for (const f of [ctx.resultsFile, `${ctx.resultsFile}.progress`, `${ctx.resultsFile}.tmp`])
      fs.rmSync(f, { force: true });
    ctx.codeServer.writeSettings({
      [RESULTS_SETTING]: ctx.resultsFile,
      // The harness's profiles turn task auto-detection off (quiet workbench), which also stops VS Code
      // from asking any extension's TaskProvider (vscode.tasks.fetchTasks returns none): the task suite
      // needs VS Code's default.
      'task.autoDetect': 'on',
    });
    // "Copy Plan as JSON" goes through the browser's clipboard: allow reading and writing it.
    await ctx.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.codeServer.url });
  },
  async run(ctx) {
    const file = ctx.resultsFile;
    const progressFile = `${file}.progress`;
    const opened = Date.now();

    const started = await poll(
      'the test-runner extension to start (its progress file)',
      () => readProgress(progressFile)?.header,
      {
        timeoutMs: START_TIMEOUT_MS,
        intervalMs: 250,
      },
    ).catch((err) => {
      throw new Error(`${err.message}: the runner extension did not activate; see code-server-extension-host.log`);
    });
    ctx.note(
      `runner started ${((Date.now() - opened) / 1000).toFixed(1)} s after the workbench opened, in VS Code ${started.vscodeVersion}`,
    );

    let summary;
    try {
      summary = await poll(
        'the extension-host tests to finish (the results file)',
        () => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined),
        {
          timeoutMs: RUN_TIMEOUT_MS,
          intervalMs: 500,
        },
      );
    } catch (err) {
      // Say how far they got.
      const done = readProgress(progressFile)?.results ?? [];
      for (const r of done) ctx.note(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.ms} ms)`);
      throw new Error(
        `${err.message}: ${done.length} tests finished, the last: ${done.length ? JSON.stringify(done[done.length - 1].name) : 'none'}`,
      );
    }

    const results = Array.isArray(summary.results) ? summary.results : [];
    for (const r of results) {
      ctx.note(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.ms} ms)`);
      if (!r.ok) for (const line of firstLines(r.error, 6)) ctx.note(`       ${line}`);
    }
    ctx.note(
      `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped in the extension host (VS Code ${summary.vscodeVersion})`,
    );
    await ctx.screenshot('', 'dark');

    check(results.length > 0, 'the runner wrote results with no test in them: no suite registered a test');
    check(
      summary.passed + summary.failed + summary.skipped === results.length,
      `the counts (${summary.passed}/${summary.failed}/${summary.skipped}) do not add up to the ${results.length} results`,
    );
    const failed = results.filter((r) => !r.ok);
    check(
      failed.length === 0,
      `${failed.length} of ${results.length} extension-host tests failed: ${failed.map((r) => r.name).join('; ')}`,
    );
  },
};

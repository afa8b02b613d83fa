#!/usr/bin/env node
'use strict';
/**
 * The e2e harness: the Crawl Planner extension in a real VS Code (code-server on loopback), driven by
 * Chromium through playwright-core. It builds the .vsix, starts the demo hosts and a hostile robots.txt
 * server in this process, starts code-server with a fresh profile and a copy of a fixture workspace,
 * and runs each scenario in a fresh browser context with a time bound. Each scenario asserts what a
 * person sees, and saves screenshots in a dark and a light theme under test-output/e2e/.
 *
 *   node run.js [--only id,id] [--list]
 *
 * Prints one line per scenario and closes with `N passed, N failed, N skipped`; exits 1 on any failure.
 * Everything it starts (code-server and its children, the servers, Chromium) is stopped at the end,
 * on failure, on Ctrl+C and on SIGTERM.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { CHROMIUM, CODE_SERVER_ENTRY, FIXTURES, NODE24_BIN, OUTPUT, ROOT } = require('./lib/paths');
const { own, stopAll, withTimeout } = require('./lib/proc');
const { packageExtension, bundleDemo, buildRunnerExtension, extensionManifest } = require('./lib/build');
const { startDemo, startHostile } = require('./lib/servers');
const { CodeServer } = require('./lib/codeServer');
const { Workbench, newContext, CHROMIUM_ARGS } = require('./lib/workbench');
const { Skip } = require('./lib/assert');

const SCENARIOS = [
  require('./scenarios/smoke'),
  require('./scenarios/a-plan'),
  require('./scenarios/b-robots'),
  require('./scenarios/c-task'),
  require('./scenarios/d-diagnostics'),
  require('./scenarios/e-hostile'),
  require('./scenarios/f-trust'),
  require('./scenarios/g-legibility'),
  require('./scenarios/h-scale'),
  require('./scenarios/i-report'),
  require('./scenarios/j-servers'),
  require('./scenarios/x-extension-host'),
];

/** The whole run is bounded too: past this, everything is stopped and the run fails. */
const RUN_DEADLINE_MS = Number(process.env.E2E_DEADLINE_MS || 20 * 60_000);
const THEMES = ['dark', 'light'];

function parseArgs(argv) {
  const args = { only: undefined, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--list') args.list = true;
    else if (a === '--only')
      args.only = String(argv[++i] ?? '')
        .split(',')
        .filter(Boolean);
    else if (a.startsWith('--only=')) args.only = a.slice(7).split(',').filter(Boolean);
    else throw new Error(`unknown argument: ${a} (use --only id,id or --list)`);
  }
  return args;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function say(line) {
  if (closed) return; // nothing after the closing line
  process.stdout.write(`${line}\n`);
}

/** The closing line is printed once, by whoever ends the run (the run itself, the deadline, a signal). */
let closed = false;
function closingLine(passed, failed, skipped) {
  say(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  closed = true;
}

function copyDir(from, to) {
  fs.cpSync(from, to, { recursive: true });
  return to;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.list) {
    for (const s of SCENARIOS) say(`${s.id}\t${s.title}`);
    return 0;
  }
  const selected = args.only
    ? SCENARIOS.filter((s) => args.only.some((o) => s.id === o || s.id.startsWith(`${o}-`)))
    : SCENARIOS;
  if (args.only && selected.length === 0)
    throw new Error(`--only ${args.only.join(',')}: no such scenario (see --list)`);

  // Preflight: say plainly what is missing.
  for (const [what, file, hint] of [
    ['Chromium', CHROMIUM, 'apt-get install -y chromium (or set E2E_CHROMIUM)'],
    ['code-server', CODE_SERVER_ENTRY, 'install the harness: bash scripts/ci-e2e.sh --install-only'],
    ['Node 24', path.join(NODE24_BIN, 'node'), 'install the harness: bash scripts/ci-e2e.sh --install-only'],
  ]) {
    if (!fs.existsSync(file)) throw new Error(`${what} is not at ${file}: ${hint}`);
  }

  const started = Date.now();
  fs.mkdirSync(OUTPUT, { recursive: true });
  for (const f of fs.readdirSync(OUTPUT))
    if (/\.(png|json|log|txt)$/.test(f)) fs.rmSync(path.join(OUTPUT, f), { force: true });
  const buildLog = path.join(OUTPUT, 'build.log');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-planner-e2e-'));
  own('temp folder', async () => {
    if (!process.env.E2E_KEEP) fs.rmSync(work, { recursive: true, force: true });
  });

  const timings = {};
  const t0 = Date.now();
  const { vsix } = packageExtension(buildLog);
  timings.packageMs = Date.now() - t0;
  const t1 = Date.now();
  const demoBundle = bundleDemo(buildLog);
  timings.bundleMs = Date.now() - t1;
  say(
    `built ${path.relative(ROOT, vsix)} in ${seconds(timings.packageMs)}, demo bundle in ${seconds(timings.bundleMs)}`,
  );

  const demo = await startDemo(demoBundle.module);
  const hostile = await startHostile();
  fs.writeFileSync(path.join(OUTPUT, 'demo-hosts.txt'), demo.listing);

  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 60_000,
  });
  own('chromium', () => browser.close());

  const blocked = [];
  const results = [];
  const env = {
    root: ROOT,
    manifest: extensionManifest(),
    demo,
    hostile,
    fixtures: FIXTURES,
    output: OUTPUT,
  };

  const profiles = [...new Set(selected.map((s) => s.profile))];
  for (const profile of profiles) {
    const scenarios = selected.filter((s) => s.profile === profile);
    const toRun = [];
    for (const s of scenarios) {
      const why = s.skipReason ? s.skipReason(env) : undefined;
      if (why) {
        results.push({ id: s.id, title: s.title, status: 'skipped', reason: why, ms: 0 });
        say(`SKIP ${s.id}: ${why}`);
      } else toRun.push(s);
    }
    if (toRun.length === 0) continue;

    const dir = path.join(work, profile);
    fs.mkdirSync(dir, { recursive: true });
    // Extensions some scenarios install next to the product (x-extension-host: the test runner), built
    // only when such a scenario runs; such scenarios have a profile of their own.
    const extraVsix = [];
    if (toRun.some((s) => (s.extraExtensions ?? []).includes('runner'))) {
      const t = Date.now();
      const runner = buildRunnerExtension(buildLog);
      timings.runnerExtensionMs = Date.now() - t;
      say(
        `built ${path.relative(ROOT, runner.vsix)} (the extension-host suites) in ${seconds(timings.runnerExtensionMs)}`,
      );
      extraVsix.push(runner.vsix);
    }
    const cs = new CodeServer({ name: profile, dir, trustEnabled: profile === 'restricted', vsix, extraVsix });
    const tInstall = Date.now();
    cs.install();
    const startMs = await cs.start(dir);
    say(
      `code-server (${profile}) installed the extension and listens on ${cs.url} (${seconds(Date.now() - tInstall)}, start ${seconds(startMs)})`,
    );

    for (const s of toRun) {
      const workspace = path.join(dir, `ws-${s.id}`);
      // `fixture`: a folder under test/e2e/fixtures, or an absolute path (x-extension-host: test/extension/fixture).
      copyDir(path.resolve(FIXTURES, s.fixture ?? 'workspace'), workspace);
      const result = await runScenario(s, { browser, cs, env, workspace, blocked });
      results.push(result);
      const extra = result.reason ? `: ${result.reason}` : '';
      say(
        `${result.status === 'passed' ? 'PASS' : result.status === 'skipped' ? 'SKIP' : 'FAIL'} ${s.id} (${seconds(result.ms)})${extra}`,
      );
      for (const note of result.notes) say(`     ${note}`);
    }
    fs.copyFileSync(cs.logFile, path.join(OUTPUT, `code-server-${profile}.log`));
    await cs.stop();
  }

  if (blocked.length > 0) {
    say(
      `note: the browser tried to leave loopback ${blocked.length} times (blocked): ${[...new Set(blocked.map((u) => new URL(u).host))].join(', ')}`,
    );
  }
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  fs.writeFileSync(
    path.join(OUTPUT, 'results.json'),
    JSON.stringify({ totalMs: Date.now() - started, timings, results, blockedRequests: blocked }, null, 2),
  );
  say(`screenshots and logs: ${path.relative(ROOT, OUTPUT) || OUTPUT}/ (total ${seconds(Date.now() - started)})`);
  closingLine(passed, failed, skipped);
  return failed > 0 ? 1 : 0;
}

/** One scenario in a fresh browser context, bounded by its timeout; screenshots on failure. */
async function runScenario(s, { browser, cs, env, workspace, blocked }) {
  const started = Date.now();
  const notes = [];
  const context = await newContext(browser, { blocked });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  const wb = new Workbench(page, cs);
  const shots = [];
  const ctx = {
    ...env,
    wb,
    page,
    codeServer: cs,
    workspace,
    note: (text) => notes.push(text),
    /** One screenshot as the screen is now, named for the theme it is in (no switching). */
    async screenshot(label, theme) {
      const file = path.join(env.output, `${s.id}${label ? `-${label}` : ''}-${theme}.png`);
      await wb.screenshot(file);
      shots.push(path.relative(env.root, file));
    },
    /** Screenshots of the screen as it is now, in the dark and the light theme (then back to dark). */
    async screenshots(label = '', { each } = {}) {
      for (const theme of THEMES) {
        await wb.setTheme(theme);
        if (each) await each(theme);
        const file = path.join(env.output, `${s.id}${label ? `-${label}` : ''}-${theme}.png`);
        await wb.screenshot(file);
        shots.push(path.relative(env.root, file));
      }
      await wb.setTheme('dark');
    },
  };
  let status = 'passed';
  let reason;
  try {
    await withTimeout(
      (async () => {
        if (s.prepare) await s.prepare(ctx);
        await wb.open(workspace);
        if (process.env.E2E_DEBUG) say(`  workbench open after ${Date.now() - started} ms`);
        await s.run(ctx);
      })(),
      s.timeoutMs ?? 120_000,
      `scenario ${s.id}`,
    );
  } catch (err) {
    if (err instanceof Skip) {
      status = 'skipped';
      reason = err.message;
    } else {
      status = 'failed';
      const lines = err && err.message ? err.message.split('\n') : [String(err)];
      reason = lines[0];
      // A multi-line message (a list of problems) goes under the result line, one per line.
      for (const line of lines.slice(1, 30))
        if (line.trim() && !/^\s*-? ?waiting for|Call log/.test(line))
          notes.push(line.replace(/\u001b\[[0-9;]*m/g, ''));
      try {
        const file = path.join(env.output, `${s.id}-FAILED.png`);
        await withTimeout(page.screenshot({ path: file }), 10_000, 'failure screenshot');
        notes.push(`screen at failure: ${path.relative(env.root, file)}`);
      } catch {
        /* the page may be gone */
      }
    }
  } finally {
    await withTimeout(context.close(), 15_000, 'closing the browser context').catch(() => undefined);
    // Anything the scenario registered for its own cleanup (a second code-server) is stopped by it.
  }
  if (status === 'failed' && consoleErrors.length > 0) notes.push(...consoleErrors.slice(0, 3));
  return { id: s.id, title: s.title, status, reason, ms: Date.now() - started, screenshots: shots, notes };
}

let exitCode = 1;
const deadline = setTimeout(() => {
  say(`the run took longer than ${seconds(RUN_DEADLINE_MS)} (E2E_DEADLINE_MS): stopping everything`);
  closingLine(0, 1, 0);
  void stopAll().finally(() => process.exit(1));
}, RUN_DEADLINE_MS);
deadline.unref();

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    say(`${signal}: stopping everything`);
    closingLine(0, 1, 0);
    void stopAll().finally(() => process.exit(130));
  });
}

main()
  .then((code) => {
    exitCode = code;
  })
  .catch((err) => {
    say(`e2e harness error: ${err && err.stack ? err.stack : err}`);
    closingLine(0, 1, 0);
    exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    clearTimeout(deadline);
    process.exit(exitCode);
  });

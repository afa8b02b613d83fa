'use strict';
/**
 * c. "Crawl Planner: Run Test Crawl" from the command palette starts a task whose terminal shows live
 * request lines; the JSON report appears in the workspace (in the Explorer and on disk); and the demo
 * servers' own arrival logs confirm each host's interval held (1 s for `fast`, Crawl-delay 2 s for
 * `polite`) with never more than one request in flight per host.
 */
const fs = require('node:fs');
const path = require('node:path');
const { check, contains } = require('../lib/assert');
const { poll, sleep } = require('../lib/proc');
const { checkIntervals, checkWire, describe } = require('../lib/politeness');

const MAX_PAGES = 10; // the harness's user setting crawlPlanner.maxPages

module.exports = {
  id: 'c-task',
  title: 'Run Test Crawl: live lines in the task terminal, a report in the workspace, intervals held at the servers',
  profile: 'trusted',
  timeoutMs: 150_000,
  async run(ctx) {
    const { wb, demo, workspace } = ctx;
    const fast = demo.byName('fast');
    const polite = demo.byName('polite');
    const fastHost = new URL(fast.origin).host;
    const politeHost = new URL(polite.origin).host;
    const reportDir = path.join(workspace, '.crawl-planner', 'reports');
    const since = Date.now();

    // Let the extension activate (its view), then go through the command palette as a person does.
    await wb.openPlanner();
    await demo.resetLag();
    await wb.runCommand('Crawl Planner: Run Test Crawl');
    await wb.pick('Enter seed URLs');
    await wb.typeInput(`${fast.baseUrl} ${polite.baseUrl}`);

    // The task's terminal: request lines arrive while the crawl runs, then the report line.
    const snapshots = [];
    const text = await poll(
      'the terminal to show the report line',
      async () => {
        const t = await wb.terminalText();
        if (t.trim()) snapshots.push({ at: Date.now(), text: t });
        return /Report: /.test(t) ? t : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 300 },
    );
    const requestLine = new RegExp(`${fastHost.replace(/\./g, '\\.')}\\s+GET /\\S*\\s+200`);
    const liveBeforeEnd = snapshots.some((s) => requestLine.test(s.text) && !/Report: /.test(s.text));
    check(liveBeforeEnd, 'no request line was on screen before the crawl ended (lines not live?)');
    // The terminal keeps only what fits on screen in the page; everything shown over time counts.
    const seen = snapshots.map((s) => s.text).join('\n');
    contains(
      seen,
      [
        requestLine,
        new RegExp(`${politeHost.replace(/\./g, '\\.')}\\s+GET /\\S*\\s+200`),
        /Report: \.crawl-planner\/reports\/crawl-[^\s]+\.json/,
      ],
      'the task terminal (all it showed)',
    );
    // The end's summary can be taller than the page's terminal: its first line may sit just above the screen
    // when the report line shows. A person scrolls up a page to read it; so does the test.
    const end = await wb.terminalWithPageAbove(`${seen}\n${text}`, /Crawl finished/);
    contains(end, [/Crawl finished/], 'the task terminal at the end');
    // Scrolled to the top, as a person would: the crawl's first line.
    await wb.runCommand('Terminal: Scroll to Top');
    const top = await poll(
      'the terminal to scroll to the top',
      async () => {
        const t = await wb.terminalText();
        return /Crawl Planner test crawl/.test(t) ? t : undefined;
      },
      { timeoutMs: 10_000 },
    );
    contains(
      top,
      ['Crawl Planner test crawl: 2 seeds on 2 hosts', `at most ${MAX_PAGES} pages`],
      'the top of the task terminal',
    );
    await wb.runCommand('Terminal: Scroll to Bottom');
    ctx.note(`terminal: ${new Set(seen.split('\n').filter((l) => /GET /.test(l))).size} request lines seen`);

    // The report: in the Explorer and on disk.
    const files = await poll(
      'a report file in .crawl-planner/reports',
      () => {
        const list = fs.existsSync(reportDir)
          ? fs.readdirSync(reportDir).filter((f) => /^crawl-.*\.json$/.test(f))
          : [];
        return list.length > 0 ? list : undefined;
      },
      { timeoutMs: 10_000 },
    );
    check(files.length === 1, `expected one report, found ${files.join(', ')}`);
    const report = JSON.parse(fs.readFileSync(path.join(reportDir, files[0]), 'utf8'));
    check(Array.isArray(report.requests) && report.requests.length > 0, 'the report has no request records');

    await ctx.screenshots('terminal');

    // The whole run on one screen (the picture in the docs): the panel maximized, scrolled to the top, so
    // the header, the plan and the request lines show together.
    await wb.runCommand('View: Toggle Maximized Panel');
    const scrollTop = () => wb.runCommand('Terminal: Scroll to Top');
    await scrollTop();
    const whole = await poll(
      'the maximized terminal to show the header and request lines',
      async () => {
        const t = await wb.terminalText();
        return /Crawl Planner test crawl/.test(t) && requestLine.test(t) ? t : undefined;
      },
      { timeoutMs: 10_000 },
    );
    contains(whole, ['Crawl Planner test crawl: 2 seeds on 2 hosts', requestLine], 'the maximized task terminal');
    await ctx.screenshots('terminal-whole', { each: scrollTop });
    await wb.runCommand('View: Toggle Maximized Panel');

    await wb.activityItem('Explorer').click();
    // Unfold .crawl-planner (shown compact as ".crawl-planner / reports"): the report's row is under it.
    const explorer = wb.page.locator('.explorer-folders-view');
    const folderRow = explorer.locator('.monaco-list-row', { hasText: '.crawl-planner' }).first();
    await folderRow.waitFor({ timeout: 15_000 });
    if ((await folderRow.getAttribute('aria-expanded')) !== 'true') await folderRow.click();
    const reportsRow = explorer
      .locator('.monaco-list-row[aria-expanded="false"]', { hasText: /^\s*reports\s*$/ })
      .first();
    if (await reportsRow.isVisible().catch(() => false)) await reportsRow.click();
    await explorer.locator('.monaco-list-row', { hasText: files[0] }).first().waitFor({ timeout: 15_000 });
    await ctx.screenshots('explorer');

    // The servers' view: what arrived, how far apart, how many at once.
    await sleep(200);
    const snap = await demo.snapshot();
    const checks = checkIntervals(snap, { fast: 1, polite: 2 }, since);
    for (const c of checks)
      ctx.note(`at the server: ${describe(c)} (the servers' event-loop delay was up to ${Math.ceil(snap.lagMs)} ms)`);
    const wire = checkWire(report, { [fastHost]: 1, [politeHost]: 2 });
    for (const w of wire) ctx.note(`on the wire (report sentAt): ${describe(w)}`);
    check(
      wire.every((w) => w.ok),
      `the report's wire times break an interval: ${wire.map(describe).join('; ')}`,
    );
    // Requests counted at the servers include robots.txt when the crawl fetched it (not when the
    // extension's cache already held it), as the report does.
    const requests = checks.reduce((n, c) => n + c.requests, 0);
    const pageRequests = ['fast', 'polite'].reduce((n, name) => n + snap.pageArrivals(name, since).length, 0);
    check(
      ['fast', 'polite'].every((name) => snap.pageArrivals(name, since).length >= 2),
      `each host should have seen at least two page requests: ${checks.map(describe).join('; ')}`,
    );
    check(
      checks.every((c) => c.ok),
      `an interval did not hold at the server: ${checks.map(describe).join('; ')}`,
    );
    check(pageRequests <= MAX_PAGES + 4, `the servers saw ${pageRequests} page requests for a ${MAX_PAGES}-page crawl`);
    const reported = report.requests.filter((r) => r.host === fastHost || r.host === politeHost).length;
    check(reported === requests, `the report lists ${reported} requests, the servers saw ${requests}`);
    const privateHits = snap.pageArrivals('polite', since).filter((a) => a.path.startsWith('/private'));
    check(
      privateHits.length === 0,
      `the crawl fetched ${privateHits.map((a) => a.path).join(', ')} (disallowed by robots.txt)`,
    );
  },
};

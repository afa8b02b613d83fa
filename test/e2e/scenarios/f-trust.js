'use strict';
/**
 * f. Workspace trust ON (a profile without the trust override): a crawl task the workspace supplies
 * (`.vscode/tasks.json`, type `crawlPlanner`) does not crawl while the folder is not trusted; the
 * screen says why and the demo hosts see no page request. After the folder is trusted (Manage
 * Workspace Trust → Trust), the same task runs and the host sees its requests.
 */
const fs = require('node:fs');
const path = require('node:path');
const { check, contains } = require('../lib/assert');
const { poll, sleep } = require('../lib/proc');

const TASK_LABEL = 'crawl the polite demo host';

module.exports = {
  id: 'f-trust',
  title: 'with workspace trust on, a tasks.json crawl does not run until the folder is trusted, then it does',
  profile: 'restricted',
  timeoutMs: 180_000,
  prepare(ctx) {
    const polite = ctx.demo.byName('polite');
    fs.mkdirSync(path.join(ctx.workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ctx.workspace, '.vscode', 'tasks.json'),
      JSON.stringify(
        {
          version: '2.0.0',
          tasks: [
            { type: 'crawlPlanner', label: TASK_LABEL, seeds: [polite.baseUrl], maxPages: 3, problemMatcher: [] },
          ],
        },
        null,
        2,
      ),
    );
  },
  async run(ctx) {
    const { wb, demo } = ctx;
    const since = Date.now();
    const polite = demo.byName('polite');
    const politeHost = new URL(polite.origin).host;

    // The folder opens with the trust question: answer No, as a careful person would.
    await wb.dialog.waitFor({ timeout: 30_000 });
    contains(await wb.dialog.innerText(), ['Do you trust the authors'], 'the startup trust dialog');
    await wb.dialog.getByRole('button', { name: /No, I don't trust/ }).click();
    await wb.dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 15_000 });

    // The planner says what Restricted Mode means for it, and offers no crawl.
    const frame = await wb.openPlanner();
    const note = frame.locator('#trust-note');
    check(await note.isVisible(), 'the planner shows no note that the workspace is not trusted');
    contains(await note.innerText(), ['not trusted'], 'the planner trust note');
    check(
      await frame.locator('#run-crawl').isDisabled(),
      "the planner's Run test crawl button is enabled in Restricted Mode",
    );

    // Run the workspace's task (once per theme, for the pictures): VS Code stops and says why, before
    // anything is fetched; Cancel.
    const before = Date.now();
    for (const theme of ['dark', 'light']) {
      await wb.setTheme(theme);
      await wb.runCommand('Tasks: Run Task');
      await wb.dialog.waitFor({ timeout: 15_000 });
      const why = await wb.dialog.innerText();
      contains(why, ['Do you trust the authors', /running tasks requires/i], 'the dialog shown when the task is run');
      await ctx.screenshot('blocked', theme);
      await wb.dialog.getByRole('button', { name: 'Cancel' }).click();
      await wb.dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    }
    await wb.setTheme('dark');
    await sleep(3000);
    const untrustedSnap = await demo.snapshot();
    const blockedHits = untrustedSnap.pageArrivals('polite', before);
    check(
      blockedHits.length === 0,
      `the polite demo host saw ${blockedHits.length} page requests while the folder was not trusted`,
    );
    const robotsHits = untrustedSnap.arrivals('polite').filter((a) => a.at >= since && a.path === '/robots.txt');
    check(robotsHits.length === 0, 'the polite demo host saw a robots.txt request while the folder was not trusted');
    const terminalBefore = await wb.terminalText();
    check(!/GET \//.test(terminalBefore), 'a terminal shows request lines while the folder is not trusted');
    ctx.note(
      'untrusted: Tasks: Run Task was stopped by VS Code\'s trust dialog ("Listing and running tasks requires …"); the host saw no request',
    );

    // Trust the folder: Manage Workspace Trust, then Trust.
    await wb.runCommand('Workspaces: Manage Workspace Trust');
    const trustButton = wb.page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
    await trustButton.waitFor({ timeout: 15_000 });
    await trustButton.click();
    // The trust editor stays open (a modal editor in this VS Code): close it as a person would.
    const trustEditor = wb.page.locator('.workspace-trust-editor');
    await wb.page.keyboard.press('Escape');
    if (await trustEditor.isVisible().catch(() => false)) {
      await wb.page
        .locator('.modal-editor-part, .editor-group-container.active')
        .getByRole('button', { name: /^Close/ })
        .first()
        .click()
        .catch(() => undefined);
      await wb.runCommand('View: Close Editor').catch(() => undefined);
    }
    await trustEditor.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.page
      .locator('.statusbar-item', { hasText: 'Restricted Mode' })
      .first()
      .waitFor({ state: 'hidden', timeout: 15_000 });
    await poll('the planner to drop its trust note', async () => !(await note.isVisible()), { timeoutMs: 15_000 });

    // The same task now runs: request lines in its terminal, requests at the host.
    const trustedAt = Date.now();
    await wb.runCommand('Tasks: Run Task');
    await wb.pick(TASK_LABEL);
    const requestLine = new RegExp(`${politeHost.replace(/\./g, '\\.')}\\s+GET /\\S*\\s+200`);
    const snapshots = [];
    const text = await poll(
      'the task terminal to show a finished crawl',
      async () => {
        const t = await wb.terminalText();
        snapshots.push(t);
        return /Report: /.test(t) ? t : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 300 },
    );
    check(
      snapshots.some((t) => requestLine.test(t)),
      `no request line for ${politeHost} appeared in the task terminal`,
    );
    const hits = (await demo.snapshot()).pageArrivals('polite', trustedAt);
    check(hits.length >= 1, 'the polite demo host saw no page request after the folder was trusted');
    // The end's summary can be taller than the page's terminal: its first line may sit just above the screen
    // when the report line shows. A person scrolls up a page to read it; so does the test.
    const end = await wb.terminalWithPageAbove(`${snapshots.join('\n')}\n${text}`, /Crawl finished/);
    contains(end, [/Crawl finished/], 'the task terminal after trusting');
    ctx.note(`trusted: the task ran; polite saw ${hits.length} page requests`);
    await ctx.screenshots('trusted');
  },
};

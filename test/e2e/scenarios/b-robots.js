'use strict';
/**
 * b. robots.txt results: the `polite` demo host's Crawl-delay (2 s) and the effective interval are
 * shown; the seed `<polite>/private/` is marked disallowed with the deciding line, and clicking that
 * line opens robots.txt in an editor with the cursor on it, where the Crawl-delay's hover prices the
 * plan's 20 pages.
 */
const { check, contains } = require('../lib/assert');
const { poll } = require('../lib/proc');

module.exports = {
  id: 'b-robots',
  title: 'robots.txt: Crawl-delay and interval shown; a disallowed seed links to its deciding line in the editor',
  profile: 'trusted',
  timeoutMs: 100_000,
  async run(ctx) {
    const { wb, demo } = ctx;
    const polite = demo.byName('polite');
    const host = new URL(polite.origin).host;
    const privateSeed = `${polite.origin}/private/`;
    const robotsLines = polite.robotsTxt.split('\n');
    const ruleLine = robotsLines.findIndex((l) => /^Disallow:\s*\/private\s*$/i.test(l.trim())) + 1;
    check(ruleLine > 0, `the polite demo host's robots.txt has no "Disallow: /private" line:\n${polite.robotsTxt}`);

    const frame = await wb.openPlanner();
    await frame.locator('#seeds').fill(`${polite.baseUrl}\n${privateSeed}`);
    await frame.locator('#pages').fill('20');
    await frame.locator('#use-robots').check();

    // The card of the polite origin: read, Crawl-delay 2 s, the plan's interval.
    const card = frame.locator(`#robots section.robots-origin[data-origin="${polite.origin}"]`);
    await card.waitFor({ timeout: 30_000 });
    const cardText = await poll(
      'the robots.txt card to show the plan interval',
      async () => {
        const t = await card.innerText();
        return /Interval in the plan/.test(t) ? t : undefined;
      },
      { timeoutMs: 15_000 },
    );
    contains(
      cardText,
      [/read \(HTTP 200\)/, 'Crawl-delay: 2 s', /Interval in the plan: 2 s \(Crawl-delay\)/],
      `the robots.txt card of ${polite.origin}`,
    );
    // The table agrees: the host's interval is set by Crawl-delay.
    const row = frame.locator(`#host-table tbody tr[data-host="${host}"]`);
    contains(await row.innerText(), [/2 s\s+Crawl-delay/], `the table row of ${host}`);
    check(
      (await row.getAttribute('data-source')) === 'crawl-delay',
      `the interval of ${host} is not set by Crawl-delay`,
    );

    // The disallowed seed, with its deciding line.
    const verdict = card.locator('li[data-verdict="disallowed"]', { hasText: '/private/' });
    await verdict.waitFor({ timeout: 10_000 });
    contains(await verdict.innerText(), ['disallowed', privateSeed], 'the verdict of the /private/ seed');
    const link = verdict.locator('button.rule-link');
    const label = await link.innerText();
    contains(label, [`L${ruleLine}`, /Disallow: \/private/], 'the deciding-line link');
    check(
      (await link.getAttribute('data-line')) === String(ruleLine),
      `the link opens line ${await link.getAttribute('data-line')}, not ${ruleLine}`,
    );
    const allowed = card.locator('li[data-verdict="allowed"]');
    check((await allowed.count()) >= 1, 'the home page seed is not shown as allowed');
    // The plan, then the robots.txt card under it (docs/images/sidebar-dark.png).
    await frame.locator('#plan-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('sidebar');

    // Click it: robots.txt opens in an editor, the cursor on the deciding line.
    await link.click();
    // The editor opens first and the selection follows: wait until the cursor's line is the rule.
    let seen = { position: undefined, tab: undefined, lineText: undefined };
    await poll(
      'the editor to open robots.txt with the cursor on the rule',
      async () => {
        const position = await wb.cursorPosition().catch(() => undefined);
        const tab = await wb.activeTabLabel().catch(() => undefined);
        const lineText = position && position.line ? await wb.editorLineText(position.line) : undefined;
        seen = { position, tab, lineText };
        return tab && /robots\.txt/.test(tab) && lineText !== undefined && /^Disallow: \/private\s*$/.test(lineText);
      },
      { timeoutMs: 20_000 },
    ).catch((err) => {
      throw new Error(
        `${err.message}; saw tab ${JSON.stringify(seen.tab)}, status bar ${JSON.stringify(seen.position?.text)}, line text ${JSON.stringify(seen.lineText)}`,
      );
    });
    const { position, tab, lineText } = seen;
    check(/selected/.test(position.text), `the deciding line is not selected (status bar "${position.text}")`);
    ctx.note(
      `deciding line: robots.txt L${ruleLine}; editor tab "${tab}", status bar "${position.text}", line text "${lineText.trim()}"`,
    );
    await ctx.screenshots('editor');

    // The hover of the Crawl-delay line: whose it is and what it costs in time (the picture in the docs).
    const crawlDelayLine = wb.page
      .locator('.editor-group-container.active .view-lines .view-line', { hasText: /^Crawl-delay:\s*2\s*$/ })
      .first();
    const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: 'pages/hour' }).first();
    const showHover = async () => {
      await wb.page.mouse.move(0, 0);
      await crawlDelayLine.locator('span').first().hover();
      await hover.waitFor({ state: 'visible', timeout: 10_000 });
    };
    await showHover();
    // "Time for N pages" takes N from the Planner's plan while it has one: the 20 pages typed above.
    contains(
      await hover.innerText(),
      [/Crawl-delay/, /2 s/, /pages\/hour/i, /20 pages/],
      'the hover of the Crawl-delay line',
    );
    await ctx.screenshots('hover', { each: showHover });
  },
};

'use strict';
/**
 * a. The Crawl Planner icon in the activity bar opens the sidebar; typing two demo-host seeds and a
 * page count shows the per-host table (a row per host: two hosts alike stay two rows), the total and the chart.
 * Then "Size from sitemaps" gives each host its sitemap's URL count (shown per host, with the lastmod
 * summary), a deadline of 10 s shows what meets it, and applying the first option meets it. Simulate shows
 * the p10–p90 band, and the plan report draws it with one timeline per host.
 */
const { check, contains } = require('../lib/assert');
const { poll } = require('../lib/proc');

module.exports = {
  id: 'a-plan',
  title: 'activity bar icon opens the planner; two seeds and a page count show the table, total and chart',
  profile: 'trusted',
  timeoutMs: 150_000,
  async run(ctx) {
    const { wb, demo } = ctx;
    const fast = demo.byName('fast');
    const polite = demo.byName('polite');
    const hosts = [new URL(fast.origin).host, new URL(polite.origin).host];

    const frame = await wb.openPlanner();
    await frame.locator('#seeds').click();
    await frame.locator('#seeds').pressSequentially(`${fast.baseUrl}\n${polite.baseUrl}`, { delay: 5 });
    await frame.locator('#pages').fill('');
    await frame.locator('#pages').pressSequentially('200', { delay: 20 });
    await frame.locator('#delay').fill('2');

    // The total: 200 pages over 2 hosts, with a duration. (The seeds are planned as soon as they are typed,
    // with the pages and delay there were; wait for the plan of what was typed.)
    const total = await poll('the total to show 200 pages', async () => {
      const t = await frame.locator('#total').innerText();
      return /200 pages over 2 hosts/.test(t) ? t : undefined;
    });

    // One row per host, in the per-host table: the host, its 100 pages, the 2 s delay.
    for (const host of hosts) {
      const row = frame.locator(`#host-table tbody tr[data-host="${host}"]`);
      await row.waitFor({ timeout: 15_000 });
      const text = await poll(`the row of ${host} with the 2 s delay`, async () => {
        const t = await row.innerText();
        return /2 s/.test(t) ? t : undefined;
      });
      contains(text, [host, /\t100\t2 s\t/], `the table row of ${host}`);
      check(
        (await row.getAttribute('data-source')) === 'configured',
        `the interval of ${host} is not set by the delay`,
      );
    }
    check(await frame.locator('#host-table').isVisible(), 'the per-host table is not visible');
    check((await frame.locator('#host-table tbody tr').count()) === 2, 'the table does not have exactly two rows');
    contains(total, [/\d+ (s|m|h)/], '#total');
    const binding = await frame.locator('#binding').innerText();
    check(binding.trim().length > 0, '#binding (what limits the crawl) is empty');

    // The chart: a bar per host, with a visible width, and an accessible summary.
    const bars = frame.locator('#chart .bar[data-kind="host"]');
    check((await bars.count()) === 2, `the chart has ${await bars.count()} host bars, not 2`);
    for (const host of hosts) {
      const bar = frame.locator(`#chart .bar[data-host="${host}"]`);
      check(await bar.isVisible(), `no visible chart bar for ${host}`);
      const box = await bar.locator('.bar-fill').boundingBox();
      check(
        box && box.width > 2 && box.height > 2,
        `the chart bar of ${host} has no visible fill (${JSON.stringify(box)})`,
      );
    }
    const summary = await frame.locator('#chart').getAttribute('aria-label');
    contains(summary ?? '', ['Crawl duration'], 'the chart summary');
    ctx.note(`total: ${total}; binding: ${binding}`);

    // Put the results in view for the screenshots.
    await frame.locator('#plan-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots();

    // Size from sitemaps: both demo hosts serve one; each gets its URL count as its pages.
    await frame.locator('#size-sitemaps').click();
    for (const host of hosts) {
      const card = frame.locator(`#sitemaps .sitemap-host[data-host="${host}"]`);
      await card.waitFor({ timeout: 30_000 });
      const pagesText = await card.locator('.sitemap-pages').innerText();
      const m = /^Pages: ([\d,]+)$/.exec(pagesText.trim());
      check(m !== null, `the sitemap card of ${host} says no pages: ${pagesText}`);
      contains(
        await card.innerText(),
        [/URLs · \d+ disallowed · \d+ on other hosts · \d+ files?/],
        `the sitemap card of ${host}`,
      );
      const row = frame.locator(`#host-table tbody tr[data-host="${host}"]`);
      await poll(`the row of ${host} with its sitemap's ${m[1]} pages`, async () =>
        (await row.innerText()).includes(`\t${m[1]}\t`) ? true : undefined,
      );
    }
    check((await frame.locator('#pages-mode').inputValue()) === 'byHost', 'the pages are not by host after sizing');
    ctx.note(`sitemaps: ${await frame.locator('#sitemaps-status').innerText()}`);

    // A deadline it misses: what meets it, and the first option applied.
    await frame.locator('#deadline').fill('10s');
    await frame.locator('#deadline-section[data-met="false"]').waitFor({ timeout: 15_000 });
    const option = frame.locator('#deadline-options li[data-kind] button').first();
    await option.waitFor({ timeout: 15_000 });
    const optionText = await frame.locator('#deadline-options li[data-kind] .deadline-option-text').first().innerText();
    await option.click();
    await frame.locator('#deadline-section[data-met="true"]').waitFor({ timeout: 15_000 });
    ctx.note(`deadline: applied "${optionText}"; ${await frame.locator('#deadline-verdict').innerText()}`);

    // Simulate: the band under the total; the plan report draws it and one timeline per host (SVG, in Chromium).
    await frame.locator('#simulate').check();
    await frame.locator('#band[data-state="done"]').waitFor({ timeout: 60_000 });
    const band = await frame.locator('#band').innerText();
    contains(band, [/^Simulated: /, /runs, seed \d+/], 'the band under the total');
    await frame.locator('#open-report').click();
    const report = await wb.reportFrame();
    await report.locator(`#timeline[data-hosts="${hosts.length}"]`).waitFor({ timeout: 30_000 });
    check(
      (await report.locator('#timeline').getAttribute('data-method')) === 'engine',
      'two hosts are simulated request by request',
    );
    const rows = report.locator('#timeline .trow');
    check(
      (await rows.count()) === hosts.length,
      `the timeline has ${await rows.count()} rows for ${hosts.length} hosts`,
    );
    for (const host of hosts) {
      const line = report.locator(`#timeline .trow[data-host="${host}"] svg`);
      check((await line.count()) === 1, `no timeline drawn for ${host}`);
      const box = await line.boundingBox();
      check(
        box !== null && box.width > 50 && box.height > 4,
        `the timeline of ${host} is not visible (${JSON.stringify(box)})`,
      );
    }
    check((await report.locator('#band-chart svg').count()) === 1, 'no band chart in the report');
    const bandLabel = (await report.locator('#band-chart').getAttribute('aria-label')) ?? '';
    check(bandLabel !== '' && bandLabel !== 'No simulation yet', `the band chart's label: ${bandLabel}`);
    ctx.note(`simulation: ${band}`);
    await report.locator('#simulation-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('report');
  },
};

'use strict';
/**
 * i. The plan report's simulation, calibrated by a real test crawl: the sidebar's Run test crawl against the
 * `limited` (429 with Retry-After below 1.5 s apart) and `flaky` (503 outages) demo hosts, "Plan with what the
 * test crawl measured", Simulate, Open Plan Report. The report draws the band as a histogram of the runs'
 * makespans with p10, p50, p90 and the plan marked, and each host's timeline with a tick per request, the 429s
 * and 503s in their own colour, and the Retry-After pauses shaded (docs/extension.md#calibration-and-simulation).
 */
const { check, contains } = require('../lib/assert');
const { poll } = require('../lib/proc');

const RUNS = 200; // the planner's default runs

module.exports = {
  id: 'i-report',
  title: 'a calibrated simulation in the plan report: a histogram of the runs, a tick per request, 429/503 apart',
  profile: 'trusted',
  timeoutMs: 240_000,
  async run(ctx) {
    const { wb, demo } = ctx;
    const limited = demo.byName('limited');
    const flaky = demo.byName('flaky');
    const hosts = [new URL(limited.origin).host, new URL(flaky.origin).host];

    const frame = await wb.openPlanner();
    await frame.locator('#seeds').click();
    await frame.locator('#seeds').pressSequentially(`${limited.baseUrl}\n${flaky.baseUrl}`, { delay: 5 });
    await frame.locator('#pages').fill('');
    await frame.locator('#pages').pressSequentially('60', { delay: 20 });
    await frame.locator('#delay').fill('1');
    await poll('the total to show 60 pages over 2 hosts', async () =>
      /60 pages over 2 hosts/.test(await frame.locator('#total').innerText()) ? true : undefined,
    );

    // A real test crawl of both hosts (at most crawlPlanner.maxPages pages); its end offers its measurements.
    await frame.locator('#run-crawl').click();
    await frame.locator('#use-calibration:enabled').waitFor({ timeout: 150_000 });
    await frame.locator('#use-calibration').check();
    await frame.locator('#calibration:not([hidden])').waitFor({ timeout: 15_000 });
    ctx.note(`calibration: ${(await frame.locator('#calibration-source').innerText()).trim()}`);
    await frame.locator('#simulate').check();
    await frame.locator('#band[data-state="done"]').waitFor({ timeout: 60_000 });
    const band = await frame.locator('#band').innerText();
    contains(band, [/^Simulated: /, new RegExp(`${RUNS} runs, seed \\d+`)], 'the band under the total');

    await frame.locator('#open-report').click();
    const report = await wb.reportFrame();
    await report.locator(`#timeline[data-hosts="${hosts.length}"]`).waitFor({ timeout: 30_000 });

    // The histogram: every run in a bin, bars drawn, p10 ≤ p50 ≤ p90 marked and labelled, and the plan.
    const histogram = report.locator('#histogram');
    await histogram.waitFor({ state: 'visible', timeout: 15_000 });
    check((await histogram.getAttribute('data-runs')) === String(RUNS), `the histogram holds ${RUNS} runs`);
    const bins = Number(await histogram.getAttribute('data-bins'));
    const bars = report.locator('#histogram-chart .hist-bar');
    check(
      bins >= 1 && (await bars.count()) >= 1 && (await bars.count()) <= bins,
      `${await bars.count()} bars, ${bins} bins`,
    );
    const tallest = await bars.evaluateAll((list) => Math.max(...list.map((b) => b.getBoundingClientRect().height)));
    check(tallest > 20, `the tallest bar is ${tallest} px high`);
    contains(
      await bars.first().locator('title').textContent(),
      [/^\d+ runs? ended between .+ and .+$/],
      'a bar tooltip',
    );
    const markX = {};
    for (const mark of ['p10', 'p50', 'p90', 'plan']) {
      const line = report.locator(`#histogram-chart line[data-mark="${mark}"]`);
      check((await line.count()) === 1, `no ${mark} line on the histogram`);
      markX[mark] = Number(await line.getAttribute('x1'));
      // Its label (marks that read alike share one: "p50 = plan 2 m 12 s").
      const label = report.locator(`#histogram-marks .hist-label[data-marks~="${mark}"]`);
      check((await label.count()) === 1 && (await label.isVisible()), `the ${mark} label is not visible`);
      contains(await label.innerText(), [new RegExp(`(^|= )${mark}( =| \\d)`)], `the ${mark} label`);
    }
    check(markX.p10 <= markX.p50 && markX.p50 <= markX.p90, `p10, p50, p90 out of order: ${JSON.stringify(markX)}`);

    // The timeline: a tick per request on each host's row; the limited host's 429s in red with its pauses shaded.
    let refusedSeen = 0;
    for (const host of hosts) {
      const row = report.locator(`#timeline .trow[data-host="${host}"]`);
      await row.waitFor({ timeout: 15_000 });
      const ticks = Number(await row.getAttribute('data-ticks'));
      check(ticks >= 6, `${host}: ${ticks} ticks (its robots.txt and at least 5 pages)`);
      // The ticks run from its robots.txt (at the span's start) to its last request: most of its span.
      const box = await row.locator('path.tl-tick-ok').boundingBox();
      const span = await row.locator('rect.tl-span').boundingBox();
      check(
        box !== null &&
          span !== null &&
          box.height > 4 &&
          box.width >= span.width * 0.5 &&
          Math.abs(box.x - span.x) <= 4,
        `the ticks of ${host} are not visible over its span (${JSON.stringify({ box, span })})`,
      );
      const refused = Number(await row.getAttribute('data-refused'));
      refusedSeen += refused;
      if (refused > 0) {
        const red = await row.locator('path.tl-tick-refused').boundingBox();
        check(red !== null && red.height > 10, `the 429/503 ticks of ${host} are not visible`);
      }
      contains(await row.locator('.tl-host').getAttribute('title'), [/\d+ requests/], `the row title of ${host}`);
      ctx.note(`${host}: ${ticks} ticks, ${refused} refused, ${await row.getAttribute('data-pauses')} pauses`);
    }
    const limitedRow = report.locator(`#timeline .trow[data-host="${hosts[0]}"]`);
    check(
      Number(await limitedRow.getAttribute('data-refused')) > 0,
      'the limited host has no 429 tick in the run drawn',
    );
    check((await limitedRow.locator('rect.tl-pause').count()) > 0, 'the limited host has no Retry-After pause shaded');
    check(refusedSeen > 0, 'no refused request drawn');

    ctx.note(`simulation: ${band}`);
    // The picture: the report with the terminal's panel out of the way, scrolled to the simulation.
    await wb.runCommand('View: Hide Panel').catch(() => wb.runCommand('View: Close Panel'));
    await poll('the panel to close', async () =>
      (await ctx.page.locator('.part.panel').isVisible()) ? undefined : true,
    );
    await report.locator('#simulation-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('report');
  },
};

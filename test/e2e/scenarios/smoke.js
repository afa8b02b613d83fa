'use strict';
/**
 * Smoke: the workbench loads with the extension installed, the activity bar has "Crawl Planner", and
 * opening it shows the planner, whose form is filled by the extension (so the extension activated and
 * the webview handshake worked).
 */
const { check } = require('../lib/assert');

module.exports = {
  id: 'smoke',
  title: 'workbench loads; Crawl Planner is in the activity bar and its view comes up',
  profile: 'trusted',
  timeoutMs: 90_000,
  async run(ctx) {
    const { wb } = ctx;
    const item = wb.activityItem('Crawl Planner');
    await item.waitFor({ timeout: 30_000 });
    check(
      (await item.getAttribute('aria-label'))?.startsWith('Crawl Planner'),
      'the activity bar item is not labelled "Crawl Planner"',
    );
    const frame = await wb.openPlanner();
    // The extension posted its first state: the settings' user agent is the placeholder.
    const ua = await frame.locator('#user-agent').getAttribute('placeholder');
    check(ua === 'CrawlPlanner', `the user agent field shows ${JSON.stringify(ua)}, not the setting's CrawlPlanner`);
    const title = await wb.page.locator('.sidebar .composite.title').innerText();
    check(/Crawl Planner/i.test(title), `the sidebar title reads ${JSON.stringify(title)}`);
    await ctx.screenshots();
  },
};

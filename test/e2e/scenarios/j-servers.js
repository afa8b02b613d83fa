'use strict';
/**
 * j. Hosts that share a server, in the sidebar (docs/extension.md#shared-servers): `crawlPlanner.resolve` in the
 * workspace's settings maps shop.example and blog.example onto 127.0.0.9 and solo.example onto 127.0.0.10 (and
 * holds one bad entry); with seeds on the three, "Check shared servers" on looks them up (the setting answers:
 * no DNS, no request) and the findings area shows the group "2 hosts on 127.0.0.9 (loopback)" with its hosts and
 * the finding's sentence, once; the bad entry is named in the status line. Off, the group goes; choosing the
 * `ip` politeness unit turns the check on again.
 */
const fs = require('node:fs');
const path = require('node:path');
const { check, contains } = require('../lib/assert');
const { poll } = require('../lib/proc');

const SHARED = '127.0.0.9';
const BAD_ENTRY = 'not an entry';

module.exports = {
  id: 'j-servers',
  title: 'Check shared servers: two names on one address (crawlPlanner.resolve) are one group, with its finding',
  profile: 'trusted',
  timeoutMs: 120_000,
  prepare(ctx) {
    fs.mkdirSync(path.join(ctx.workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ctx.workspace, '.vscode', 'settings.json'),
      JSON.stringify(
        {
          'crawlPlanner.resolve': [
            `shop.example=${SHARED}`,
            `blog.example=${SHARED}`,
            'solo.example=127.0.0.10',
            BAD_ENTRY,
          ],
        },
        null,
        2,
      ),
    );
  },
  async run(ctx) {
    const { wb } = ctx;
    const frame = await wb.openPlanner();
    await frame.locator('#seeds').fill('https://shop.example/\nhttps://blog.example/\nhttps://solo.example/');
    await frame.locator('#pages').fill('300');
    await frame.locator('#pages-mode').selectOption('total');
    await frame.locator('#total').filter({ hasText: 'over 3 hosts' }).waitFor({ timeout: 20_000 });
    check(
      (await frame.locator('#shared-servers li').count()) === 0,
      'a shared-server group is shown before "Check shared servers" is on',
    );

    await frame.locator('#check-servers').check();
    const group = frame.locator(`#shared-servers li.shared-group[data-kind="address"][data-key="${SHARED}"]`);
    await group.waitFor({ timeout: 20_000 });
    contains(
      await group.locator('.shared-heading').innerText(),
      [`2 hosts on ${SHARED} (loopback)`],
      'the group heading',
    );
    const hosts = await group.locator('.shared-hosts li').allInnerTexts();
    check(
      JSON.stringify(hosts) === JSON.stringify(['shop.example', 'blog.example']),
      `the group lists ${JSON.stringify(hosts)}, not shop.example and blog.example`,
    );
    // 100 pages each at the 1 s default delay: each host queue sends 1 a second, so the address gets 2.
    const finding = await group.locator('.shared-text').innerText();
    contains(
      finding,
      [`${SHARED} gets up to 2 requests per 1 s from 2 host queues`, /2× what one host is allowed/],
      'the finding',
    );
    check((await frame.locator('#shared-servers li.shared-group').count()) === 1, 'solo.example is not alone');
    const warnings = await frame.locator('#warnings').innerText();
    check(!warnings.includes(`on ${SHARED}`), `the finding is listed twice: ${JSON.stringify(warnings.slice(0, 300))}`);
    const status = await poll(
      'the status line to say the hosts were looked up',
      async () => {
        const t = await frame.locator('#servers-status').innerText();
        return /looked up/.test(t) ? t : undefined;
      },
      { timeoutMs: 10_000 },
    );
    contains(
      status,
      ['3 seed hosts looked up.', `crawlPlanner.resolve: entry "${BAD_ENTRY}"`, 'ignored'],
      'the status line',
    );
    ctx.note(`status: ${status}`);
    ctx.note(`finding: ${finding}`);
    await group.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await ctx.screenshots('group');

    // Off: the plan no longer has the addresses.
    await frame.locator('#check-servers').uncheck();
    await poll('the group to go', async () => (await frame.locator('#shared-servers li').count()) === 0, {
      timeoutMs: 10_000,
    });
    // The ip unit groups by the addresses: choosing it turns the check on again.
    await frame.locator('#politeness-by').selectOption('ip');
    check(await frame.locator('#check-servers').isChecked(), 'choosing the ip unit did not turn the check on');
    await group.waitFor({ timeout: 20_000 });
  },
};

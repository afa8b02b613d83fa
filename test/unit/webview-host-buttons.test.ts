/**
 * The planner's buttons (buttons.ts and the router): Run test crawl, Copy plan as JSON, a robots.txt link
 * (seed origins only), the origin search, Open plan report and Export plan….
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settings, SEEDS, form, harness, settle, seedList } from '../helpers/plannerHost';

test("runTestCrawl passes the valid seeds, the delay, a page cap and each host's planned pages as its budget; refused when untrusted", async () => {
  const h = harness({ seeds: SEEDS, form: { ...form, delaySeconds: 2, delayFrom: 'end' } });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.deepEqual(h.crawls, [
    [
      ['https://a.example/', 'https://b.example/private/x'],
      {
        userAgent: settings.userAgent,
        delaySeconds: 2,
        delayFrom: 'end',
        maxPages: 50,
        // The plan's pages per host (the crawl cuts them to a share of maxPages each).
        pagesFor: { 'a.example': 100, 'b.example': 100 },
      },
    ],
  ]);
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 3 } });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal(h.crawls[1]![1].maxPages, 3);
  assert.deepEqual(h.crawls[1]![1].pagesFor, { 'a.example': 2, 'b.example': 1 }, 'a total of 3 spread over 2 hosts');
  // A crawl of one page gets one seed: the first.
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 1 } });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.deepEqual(h.crawls[2], [
    ['https://a.example/'],
    {
      userAgent: settings.userAgent,
      delaySeconds: 1,
      delayFrom: 'start',
      maxPages: 1,
      pagesFor: { 'a.example': 1, 'b.example': 0 },
    },
  ]);

  h.setTrusted(false);
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal(h.crawls.length, 3);
  assert.equal(h.last('notice')!.level, 'error');
});

test("runTestCrawl passes the planner's politeness unit, and none for host", () => {
  const h = harness({ seeds: SEEDS, form: { ...form, politenessBy: 'domain' } });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal(h.crawls[0]![1].politenessBy, 'domain');
  h.controller.receive({ type: 'formChanged', form: { ...form, politenessBy: 'host' } });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal('politenessBy' in h.crawls[1]![1], false);
});

test('copyPlan writes the estimate --json document; without a plan it says why', async () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'copyPlan' });
  await settle();
  const doc = JSON.parse(h.clipboard[0]!);
  assert.equal(doc.schemaVersion, 1);
  assert.equal(doc.hosts.length, 2);
  assert.equal(doc.invalidSeeds.length, 1);
  assert.deepEqual(doc.seedNotes, []);
  assert.equal(doc.duplicateSeeds, 0);
  assert.equal(h.clipboard[0], h.controller.currentPlanJson());
  assert.deepEqual(h.last('notice'), { type: 'notice', level: 'info', message: 'Plan copied as JSON (2 hosts).' });

  h.controller.receive({ type: 'seedsChanged', text: '' });
  h.controller.receive({ type: 'copyPlan' });
  await settle();
  assert.equal(h.clipboard.length, 1);
  assert.match(h.last('notice')!.message, /^Nothing to copy: Enter at least one seed URL/);
  assert.equal(h.controller.currentPlanJson(), undefined);
});

test('openRobots only for the seeds’ origins', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'openRobots', origin: 'https://b.example', line: 3 });
  h.controller.receive({ type: 'openRobots', origin: 'https://a.example' });
  h.controller.receive({ type: 'openRobots', origin: 'https://evil.example' });
  assert.deepEqual(h.opened, [
    ['https://b.example', 3],
    ['https://a.example', undefined],
  ]);
  assert.ok(h.logs.some((l) => l.includes('evil.example')));
});

test('findOrigins searches every seed origin; openReport asks for the report', () => {
  const h = harness({ seeds: `${seedList(300)}https://special.example/\n` });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'findOrigins', query: 'SPECIAL' });
  assert.deepEqual(h.last('origins'), {
    type: 'origins',
    query: 'SPECIAL',
    origins: ['https://special.example'],
    total: 1,
  });
  h.controller.receive({ type: 'findOrigins', query: 'host-0002' });
  assert.equal(h.last('origins')!.total, 100);
  assert.equal(h.last('origins')!.origins.length, 50);
  assert.equal(h.last('state')!.result.originCount, 301);
  h.controller.receive({ type: 'openRobots', origin: 'https://special.example' });
  assert.deepEqual(
    h.opened,
    [['https://special.example', undefined]],
    'an origin past the first 50 is still a seed origin',
  );
  h.controller.receive({ type: 'openReport' });
  assert.equal(h.reports(), 1);
});

test('Export plan… in the sidebar runs the command; without a plan the command is told why', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'exportPlan' });
  assert.equal(h.exports(), 1);
  const input = h.controller.exportInput();
  assert.ok(!('problem' in input));
  assert.equal(input.productToken, settings.userAgent, 'the setting, as the form names none');
  assert.equal(input.plan.totalPages, 200);
  h.controller.receive({ type: 'seedsChanged', text: '' });
  assert.deepEqual(h.controller.exportInput(), { problem: 'Enter at least one seed URL (http or https).' });
});

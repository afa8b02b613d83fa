/**
 * Hosts whose pages are unknown (issue 24, item 6): a sizing that could not read a host's sitemaps (src/core/sitemaps
 * `sizedPages`, `sizingPages`) gives it no count, and the plan (`pages.unknown`, src/core/plan/pages.ts) leaves it out
 * of every total instead of planning 0 pages: `complete: false`, `unknownHosts`, the `pages-unknown` warning, and
 * `pages: null` with why in the estimate document. What a deadline, machines and the simulation make of such a host,
 * and the text (`estimate`, the sidebar's summary) that says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyPlanChange,
  estimateDocument,
  plan,
  validatePlanInput,
  type PagesUnknown,
  type PlanInput,
} from '../../src/core/plan';
import { effectiveUnknown, unknownPagesOf } from '../../src/core/plan/pages';
import { formatPlanText } from '../../src/core/format/planText';
import { formatSimulationText } from '../../src/core/format/calibrationText';
import { hostRowText, totalText } from '../../src/core/format/planSummary';
import { simulate, simulatedHosts } from '../../src/core/simulate/simulate';
import {
  sizedPages,
  sizingPages,
  type SitemapError,
  type SitemapFileReport,
  type SitemapHostReport,
} from '../../src/core/sitemaps';
import { DEFAULT_QUERY } from '../../src/webview/planReport/model';
import { ReportTable, reportRow } from '../../src/extension/planReport/table';
import { exportShards } from '../../src/core/export/hosts';
import { checkSeedText, computePlan, pagesTarget } from '../../src/extension/planner/planning';
import { defaultForm } from '../../src/extension/planner/savedState';
import { settings } from '../helpers/plannerHost';
import { calibration, hostCalibration } from '../helpers/calibration';

const hosts = (...names: string[]) => names.map((host) => ({ host }));
const THROTTLED: PagesUnknown = { code: 'http-status', reason: '429: the sitemap was not served; 3 attempts' };
const NONE: PagesUnknown = { code: 'no-sitemap', reason: 'robots.txt names no sitemap, and /sitemap.xml answered 404' };

/** a.example 100 pages and b.example 50 from their sitemaps; c.example and d.example could not be read. */
const INPUT: PlanInput = {
  seeds: hosts('a.example', 'b.example', 'c.example', 'd.example'),
  pages: {
    byHost: { 'a.example': 100, 'b.example': 50 },
    unknown: { 'c.example': THROTTLED, 'd.example': NONE },
  },
};
/** The same plan without the two unknown hosts. */
const KNOWN: PlanInput = {
  seeds: hosts('a.example', 'b.example'),
  pages: { byHost: { 'a.example': 100, 'b.example': 50 } },
};

test('a host whose pages are unknown is in no total: complete false, unknownHosts, its pages 0 in the plan and null in the JSON', () => {
  const p = plan(INPUT);
  const known = plan(KNOWN);
  assert.equal(p.complete, false);
  assert.deepEqual(p.unknownHosts, ['c.example', 'd.example']);
  assert.deepEqual(
    p.hosts.map((h) => [h.host, h.pages, h.seconds, h.requests, h.pagesUnknown ?? null]),
    [
      ['a.example', 100, known.hosts[0]!.seconds, 101, null],
      ['b.example', 50, known.hosts[1]!.seconds, 51, null],
      ['c.example', 0, 0, 0, THROTTLED],
      ['d.example', 0, 0, 0, NONE],
    ],
  );
  // Every total is the known hosts' alone: never as if the unknown hosts had 0 pages planned into them.
  for (const key of ['totalSeconds', 'totalPages', 'bindingConstraint', 'bindingHost', 'bounds'] as const)
    assert.deepEqual(p[key], known[key], key);
  assert.equal(p.bindingDescription, known.bindingDescription);
  assert.deepEqual([known.complete, known.unknownHosts], [true, []]);

  const doc = estimateDocument(p);
  assert.deepEqual(
    doc.hosts.map((h) => [h.host, h.pages, h.pagesUnknown?.code ?? null]),
    [
      ['a.example', 100, null],
      ['b.example', 50, null],
      ['c.example', null, 'http-status'],
      ['d.example', null, 'no-sitemap'],
    ],
  );
  assert.deepEqual([doc.complete, doc.unknownHosts, doc.totalPages], [false, ['c.example', 'd.example'], 150]);
  assert.deepEqual(doc.settings.pages, {
    byHost: { 'a.example': 100, 'b.example': 50 },
    otherwise: 0,
    unknown: { 'c.example': THROTTLED, 'd.example': NONE },
  });
  // A complete plan's document is as it was: no `unknown` in its settings, the hosts as the plan has them.
  const plain = estimateDocument(known);
  assert.deepEqual(plain.settings.pages, { byHost: { 'a.example': 100, 'b.example': 50 }, otherwise: 0 });
  assert.equal(plain.hosts[0], known.hosts[0]);
  assert.ok(!('pagesUnknown' in plain.hosts[0]!));
});

test('the rule, once: a number of its own wins, then a number for the other hosts, then unknown, then 0', () => {
  const target = {
    byHost: { 'c.example': 7 },
    unknown: { 'c.example': THROTTLED, 'd.example': NONE },
  };
  assert.equal(unknownPagesOf(target, 'c.example'), undefined, '--pages-for keeps its number');
  assert.deepEqual(unknownPagesOf(target, 'd.example'), NONE);
  assert.equal(unknownPagesOf(target, 'e.example'), undefined);
  assert.deepEqual(effectiveUnknown(target), { 'd.example': NONE });
  assert.deepEqual(
    effectiveUnknown({ ...target, otherwise: 3 }),
    {},
    '--pages-per-host gives every such host a number',
  );

  const typed = plan({
    ...INPUT,
    pages: { ...INPUT.pages, byHost: { 'a.example': 100, 'b.example': 50, 'c.example': 9 } },
  });
  assert.deepEqual(
    typed.hosts.map((h) => [h.pages, h.pagesUnknown?.code ?? null]),
    [
      [100, null],
      [50, null],
      [9, null],
      [0, 'no-sitemap'],
    ],
  );
  assert.deepEqual(typed.unknownHosts, ['d.example']);
  const fallback = plan({ ...INPUT, pages: { ...INPUT.pages, otherwise: 20 } });
  assert.deepEqual(
    fallback.hosts.map((h) => h.pages),
    [100, 50, 20, 20],
  );
  assert.deepEqual([fallback.complete, fallback.warnings.some((w) => w.code === 'pages-unknown')], [true, false]);
  // Hosts are matched without regard to case; a host that is no seed's is not planned (nor unknown).
  const cased = plan({
    seeds: hosts('a.example'),
    pages: { byHost: {}, unknown: { 'A.Example': NONE, 'gone.example': THROTTLED } },
  });
  assert.deepEqual([cased.unknownHosts, cased.hosts[0]!.pagesUnknown], [['a.example'], NONE]);
});

test('a skipped host keeps why its pages are unknown but is in no total anyway: the plan is complete', () => {
  const p = plan({
    seeds: hosts('a.example', 'slow.example'),
    pages: { byHost: { 'a.example': 10 }, unknown: { 'slow.example': NONE } },
    crawlDelayByHost: { 'slow.example': 600 },
    crawlDelayPolicy: 'skip',
  });
  assert.deepEqual([p.hosts[1]!.skipped, p.hosts[1]!.pagesUnknown, p.complete, p.unknownHosts], [true, NONE, true, []]);
});

test('warnings: pages-unknown names the hosts with why; hosts-without-pages is not raised for them', () => {
  const p = plan(INPUT);
  const codes = p.warnings.map((w) => w.code);
  assert.ok(codes.includes('pages-unknown'));
  assert.ok(!codes.includes('hosts-without-pages'), codes.join());
  // A host given 0 pages still is "without pages".
  const zero = plan({ ...INPUT, pages: { ...INPUT.pages, byHost: { 'a.example': 100, 'b.example': 0 } } });
  assert.match(zero.warnings.find((w) => w.code === 'hosts-without-pages')!.message, /^1 of 4 hosts gets no pages/);
  const many = plan({
    seeds: hosts('a.example', 'h1.example', 'h2.example', 'h3.example', 'h4.example'),
    pages: {
      byHost: { 'a.example': 1 },
      unknown: Object.fromEntries(['h1', 'h2', 'h3', 'h4'].map((h) => [`${h}.example`, NONE])),
    },
  });
  assert.match(
    many.warnings.find((w) => w.code === 'pages-unknown')!.message,
    /^4 hosts' pages are unknown: h1\.example \(.*\), h2\.example \(.*\), h3\.example \(.*\) and 1 more\. They are left out of the plan: its total is a lower bound, for the other host only\./,
  );
  // Every host unknown: nothing to crawl yet, and it says why.
  const none = plan({ seeds: hosts('c.example'), pages: { byHost: {}, unknown: { 'c.example': THROTTLED } } });
  assert.deepEqual([none.totalSeconds, none.bindingConstraint, none.complete], [0, 'none', false]);
  assert.equal(
    none.bindingDescription,
    'Nothing to crawl yet: the pages of 1 host are unknown, and no other host has pages.',
  );
  assert.match(none.warnings.find((w) => w.code === 'pages-unknown')!.message, /nothing to crawl until it has pages/);
});

test('input: pages.unknown must map hosts to { code, reason }', () => {
  const bad = (unknown: unknown) =>
    validatePlanInput({ seeds: hosts('a.example'), pages: { byHost: {}, unknown } as PlanInput['pages'] });
  assert.deepEqual(bad({ 'a.example': THROTTLED }), []);
  assert.deepEqual(
    bad({ 'a.example': { code: 1 } }).map((p) => p.field),
    ['pages.unknown[a.example]'],
  );
  assert.deepEqual(
    bad('nope').map((p) => p.field),
    ['pages.unknown'],
  );
  assert.throws(() =>
    plan({ seeds: hosts('a.example'), pages: { byHost: {}, unknown: { 'a.example': null as never } } }),
  );
});

test("--deadline: the verdict is the known hosts' (a miss stays a miss, a met one may not be); each unknown host gets the pages it fits by the deadline", () => {
  const known = plan({ ...KNOWN, deadlineSeconds: 1000 });
  const p = plan({ ...INPUT, deadlineSeconds: 1000 });
  assert.deepEqual(
    [p.deadline!.met, p.deadline!.marginSeconds, p.deadline!.earliestSeconds],
    [known.deadline!.met, known.deadline!.marginSeconds, known.deadline!.earliestSeconds],
  );
  assert.equal(p.deadline!.met, true);
  // An unknown host could give at most this many pages by the deadline: what `--pages-for HOST=N` may be.
  const fits = p.deadline!.pagesByHost['c.example']!;
  assert.equal(fits, p.deadline!.pagesByHost['a.example'], 'the same interval, so the same pages by the deadline');
  assert.ok(fits > 100);
  const text = formatPlanText(p, 0, false);
  assert.match(
    text,
    new RegExp(
      `^Deadline: 16 m 40 s, met with .* to spare by the hosts whose pages are known; 2 hosts' pages unknown, so it may not be: each fits alone only with at most the pages it gives by the deadline at its own interval \\(c\\.example ${fits.toLocaleString('en-US')}, d\\.example ${fits.toLocaleString('en-US')}\\)$`,
      'm',
    ),
  );
  // With the unknown host given that many pages the deadline still holds; one more and it does not.
  const at = (n: number) =>
    plan({
      ...INPUT,
      pages: { ...INPUT.pages, byHost: { 'a.example': 100, 'b.example': 50, 'c.example': n } },
      deadlineSeconds: 1000,
    });
  assert.equal(at(fits).deadline!.met, true);
  assert.equal(at(fits + 1).deadline!.met, false);

  // Missed by the known hosts alone: missed; the options re-plan with the unknown hosts still unknown.
  const missed = plan({ ...INPUT, deadlineSeconds: 60 });
  assert.equal(missed.deadline!.met, false);
  assert.match(
    formatPlanText(missed, 0, false),
    /^Deadline: 1 m, missed by .* by the hosts whose pages are known alone \(2 hosts' pages unknown\)$/m,
  );
  assert.ok(missed.deadline!.options.length > 0);
  for (const o of missed.deadline!.options) {
    assert.ok(!o.hosts.includes('c.example') && !o.hosts.includes('d.example'), 'no cap or drop of an unknown host');
    const changed = plan(applyPlanChange(INPUT, o.change));
    assert.deepEqual(changed.unknownHosts, ['c.example', 'd.example'], o.kind);
    assert.ok(changed.totalSeconds <= 60, o.kind);
  }
});

test('applyPlanChange keeps unknown hosts unknown: a cap gives one a number, a drop removes it', () => {
  const capped = plan(applyPlanChange(INPUT, { pagesByHost: { 'c.example': 5 } }));
  assert.deepEqual(capped.unknownHosts, ['d.example']);
  assert.equal(capped.hosts[2]!.pages, 5);
  const dropped = applyPlanChange(INPUT, { dropHosts: ['D.example'] });
  assert.deepEqual(dropped.pages, {
    byHost: { 'a.example': 100, 'b.example': 50 },
    unknown: { 'c.example': THROTTLED },
  });
  assert.deepEqual(plan(dropped).unknownHosts, ['c.example']);
  // A change that names no host leaves the target as it was (otherwise stays unset: the unknown stay unknown).
  assert.deepEqual(plan(applyPlanChange(INPUT, { workers: 2 })).unknownHosts, ['c.example', 'd.example']);
});

test('--machines: an unknown host is still assigned its machine, whose pages and time leave it out; the text says so', () => {
  const p = plan({ ...INPUT, machines: 3 });
  const known = plan({ ...KNOWN, machines: 3 });
  for (const h of p.hosts) assert.equal(typeof h.machine, 'number', h.host);
  const s = p.sharding!;
  assert.deepEqual(
    s.perMachine.map((m) => [m.pages, m.seconds]),
    known.sharding!.perMachine.map((m) => [m.pages, m.seconds]),
  );
  assert.deepEqual(s.perMachine.flatMap((m) => m.hosts).sort(), ['a.example', 'b.example', 'c.example', 'd.example']);
  const machinesOf = [...new Set(p.hosts.filter((h) => h.pagesUnknown).map((h) => h.machine!))].sort();
  assert.match(
    formatPlanText(p, 0, false),
    new RegExp(
      `^ {2}Hosts whose pages are unknown are assigned \\(by the hash\\) to machines? ${machinesOf.join(', ')}, whose pages and time leave them out\\.$`,
      'm',
    ),
  );
});

test("--simulate: the unknown hosts are not run; the band is the known hosts' and the text says it leaves them out", () => {
  const measured = calibration([
    hostCalibration('a.example', { samples: [0.1, 0.2, 0.3, 0.5], rate429: 0.05 }),
    hostCalibration('c.example', { samples: [0.1, 0.2] }),
  ]);
  const p = plan({ ...INPUT, calibration: measured });
  const known = plan({ ...KNOWN, calibration: measured });
  assert.deepEqual(
    simulatedHosts(p).map((h) => h.host),
    ['a.example', 'b.example'],
  );
  const sim = simulate(p, { runs: 20, seed: 7 });
  const simKnown = simulate(known, { runs: 20, seed: 7 });
  assert.deepEqual(
    [sim.p10Seconds, sim.p50Seconds, sim.p90Seconds],
    [simKnown.p10Seconds, simKnown.p50Seconds, simKnown.p90Seconds],
  );
  assert.deepEqual(
    sim.hosts.map((h) => h.host),
    ['a.example', 'b.example'],
  );
  assert.match(
    formatSimulationText(sim, p, false),
    /; like the plan, the band leaves out the 2 hosts whose pages are unknown\n$/,
  );
  assert.doesNotMatch(formatSimulationText(simKnown, known, false), /unknown/);
});

test('estimate text: the table says unknown, the total is a lower bound, the hosts are listed with why and the flag to set', () => {
  const text = formatPlanText(plan(INPUT), 0, false);
  assert.match(text, /^c\.example\s+unknown\s+1 s \(configured\)\s+1 s\s+3,600\s+—$/m);
  assert.match(text, /^Total: .* for 150 pages on 2 hosts; a lower bound: 2 hosts' pages unknown \(below\)$/m);
  assert.ok(
    text.includes(
      [
        "Pages unknown: 2 hosts' pages unknown; the total covers the other hosts only (2 hosts):",
        '  c.example: 429: the sitemap was not served; 3 attempts',
        '  d.example: robots.txt names no sitemap, and /sitemap.xml answered 404',
        '  Set them with --pages-for c.example=N --pages-for d.example=N, or --pages-per-host N for every host without a count.',
      ].join('\n'),
    ),
    text,
  );
  // The Transfer line's "unknown" is about bytes (no page size given), not pages.
  assert.doesNotMatch(formatPlanText(plan(KNOWN), 0, false).replace(/^Transfer: .*$/m, ''), /unknown|lower bound/);
});

test('the sidebar summary: the total says it leaves them out, and the host row says pages unknown with why', () => {
  const p = plan(INPUT);
  assert.match(totalText(p), /^at least .* for 150 pages over 2 hosts; leaves out 2 hosts whose pages are unknown$/);
  assert.doesNotMatch(totalText(plan(KNOWN)), /unknown|at least/);
  const row = hostRowText(p.hosts[2]!, false);
  assert.deepEqual(
    [row.pages, row.duration, row.detail],
    ['unknown', '—', 'pages unknown (429: the sitemap was not served; 3 attempts), left out of the total'],
  );
});

// ---- The sizing → the plan's input: which hosts are counted, which are unknown and why. ----

function file(format: SitemapFileReport['format'], patch: Partial<SitemapFileReport> = {}): SitemapFileReport {
  return {
    url: 'https://x.example/s.xml',
    via: 'robots.txt',
    depth: 0,
    status: format === null ? 429 : 200,
    redirects: [],
    format,
    gzip: false,
    entries: 0,
    bytes: 0,
    error: null,
    ...patch,
  };
}
const err = (code: SitemapError['code'], message: string, url: string | null = null): SitemapError => ({
  code,
  url,
  message,
});
function host(
  name: string,
  sitemaps: SitemapFileReport[],
  errors: SitemapError[] = [],
  urls = 0,
): Pick<SitemapHostReport, 'host' | 'urls' | 'changedSince' | 'sitemaps' | 'errors'> {
  return { host: name, urls, changedSince: urls > 0 ? 2 : null, sitemaps, errors };
}

test('sizedPages: counted once a file that lists pages was read; else unknown, with the error that decided it', () => {
  assert.deepEqual(sizedPages(host('a', [file('urlset')], [], 40), false), { pages: 40 });
  assert.deepEqual(sizedPages(host('a', [file('urlset')], [], 40), true), { pages: 2 }, 'a recrawl: changed since');
  assert.deepEqual(sizedPages(host('a', [file('text')]), false), { pages: 0 }, 'an empty list is 0 pages, known');
  // An index read, every child refused after its retries: not 0 pages, unknown.
  const refused = err('http-status', '429: the sitemap was not served; 3 attempts', 'https://x.example/c1.xml');
  assert.deepEqual(sizedPages(host('a', [file('sitemapindex'), file(null)], [refused]), false), {
    unknown: { code: 'http-status', reason: '429: the sitemap was not served; 3 attempts' },
  });
  const unreachable = err('robots-unreachable', '503: no sitemap of https://x.example is fetched');
  assert.deepEqual(sizedPages(host('a', [], [unreachable]), false), {
    unknown: { code: 'robots-unreachable', reason: '503: no sitemap of https://x.example is fetched' },
  });
  // The Retry-After above the cap decides before the file it left.
  const left = err('retry-after', 'x.example asked to wait 3600 s (Retry-After: 3600), above the cap of 300 s');
  assert.equal(
    (sizedPages(host('a', [file(null)], [refused, left]), false) as { unknown: PagesUnknown }).unknown.code,
    'retry-after',
  );
  const none = err('no-sitemap', 'robots.txt names no sitemap, and https://x.example/sitemap.xml answered 404');
  assert.deepEqual(sizedPages(host('a', [file(null, { via: 'fallback', status: 404 })], [none]), false), {
    unknown: { code: 'no-sitemap', reason: none.message },
  });
  assert.deepEqual(sizedPages(host('a', [file('feed')], [err('feed', 'an RSS feed')]), false), {
    unknown: { code: 'feed', reason: 'an RSS feed' },
  });
  assert.deepEqual(sizedPages(host('a', [file('sitemapindex')]), false), {
    unknown: { code: 'not-read', reason: 'its sitemaps list no page' },
  });
  assert.deepEqual(sizedPages(host('a', []), false), { unknown: { code: 'not-read', reason: 'no sitemap was read' } });

  const mapped = sizingPages({
    changedSince: null,
    hosts: [host('a.example', [file('urlset')], [], 12), host('b.example', [], [unreachable])] as SitemapHostReport[],
  });
  assert.deepEqual(mapped, {
    counts: { 'a.example': 12 },
    unknown: { 'b.example': { code: 'robots-unreachable', reason: unreachable.message } },
  });
});

test('the plan report: the row says unknown, and the CSV leaves its pages and time empty (never 0)', () => {
  const table = new ReportTable(plan(INPUT));
  const row = reportRow(table.plan.hosts[2]!, table.plan);
  assert.deepEqual([row.pages, row.duration], ['unknown', 'pages unknown']);
  const csv = [...table.csv(DEFAULT_QUERY, 10)].join('').split('\r\n');
  assert.equal(csv[3], 'c.example,1,,1,configured,1,3600,,pages unknown,false,false');
  assert.match(csv[1]!, /^a\.example,1,100,/);
});

test('an export leaves a host whose pages are unknown out, and says why (not "no pages")', () => {
  const shards = exportShards(
    plan(INPUT),
    ['a', 'b', 'c', 'd'].map((h) => ({ url: `https://${h}.example/`, host: `${h}.example` })),
  );
  assert.deepEqual(
    shards.hosts.map((h) => h.host),
    ['a.example', 'b.example'],
  );
  assert.deepEqual([shards.hostsPagesUnknown, shards.hostsWithoutPages], [['c.example', 'd.example'], []]);
});

test("the sidebar's form → the plan's target: its hosts a sizing could not count are unknown unless the form gives them a number", () => {
  const form = { ...defaultForm(settings), pagesMode: 'byHost' as const, pages: null, pagesByHost: { 'a.example': 4 } };
  const seeds = new Set(['a.example', 'b.example', 'c.example']);
  const unknown = { 'b.example': NONE, 'c.example': THROTTLED, 'gone.example': NONE };
  const target = pagesTarget(form, seeds, unknown);
  assert.deepEqual(target, {
    byHost: { 'a.example': 4 },
    unknown: { 'b.example': NONE, 'c.example': THROTTLED },
  });
  const c = computePlan(
    form,
    checkSeedText('https://a.example/\nhttps://b.example/\nhttps://c.example/'),
    settings,
    {},
    [],
    undefined,
    unknown,
  );
  assert.deepEqual(c.plan!.unknownHosts, ['b.example', 'c.example']);
  // A number for the other hosts ("per host" before the sizing) plans them: none unknown.
  const others = computePlan(
    { ...form, pages: 9 },
    checkSeedText('https://a.example/\nhttps://b.example/'),
    settings,
    {},
    [],
    undefined,
    unknown,
  );
  assert.deepEqual([others.plan!.complete, others.plan!.hosts.map((h) => h.pages)], [true, [4, 9]]);
  // "In total" or "per host": no host's pages are unknown.
  assert.deepEqual(pagesTarget({ ...form, pagesMode: 'total', pages: 10 }, seeds, unknown), { total: 10 });
  // A dropped host is not unknown: it is not planned.
  const dropped = computePlan(
    form,
    checkSeedText('https://a.example/\nhttps://b.example/\nhttps://c.example/'),
    settings,
    {},
    ['c.example'],
    undefined,
    unknown,
  );
  assert.deepEqual(dropped.plan!.unknownHosts, ['b.example']);
});

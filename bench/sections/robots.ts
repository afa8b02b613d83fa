/**
 * robots.txt verdicts (issue 14): verdict() and explain() on a 108 KB real-world file, robots-parser alone
 * for comparison, the hostile case, and the CLI's bulk mode with 100,000 URLs. Prints the targets beside
 * the figures; never asserts.
 *
 * The file is IPWatchdog's robots.txt as kept in texting_robots' test data (1,336 lines, 1,328 rules in its
 * `*` group; see test/fixtures/robotstxt-real-world/NOTICE.md). The URLs are bench/lib/robotsUrls.ts's
 * deterministic sample: a quarter of them built from the file's own rule paths, the rest blog-like.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import robotsParser from 'robots-parser';
import { formatNumber } from '../../src/core/format/duration';
import { explain, groupFor, loadRobotsFile, verdict, type RobotsFile } from '../../src/core/robots';
import { robotsParserSteps } from '../../test/helpers/robotsParserOracle';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';
import { median } from '../lib/median';
import { sampleUrls } from '../lib/robotsUrls';

const FIXTURE = 'test/fixtures/robotstxt-real-world/ipwatchdog.robots.txt';
const ORIGIN = 'https://ipwatchdog.com';
const TOKEN = 'BobBot';

const TARGET_VERDICT = 100_000;
const TARGET_EXPLAIN = 20_000;
const TARGET_CLI_MS = 2_000;
/** robots-parser is slow: it is timed on this many of the URLs. */
const PARSER_URLS = 10_000;

const perSecond = (n: number, ms: number): number => Math.round((n / ms) * 1000);
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : formatNumber(Math.round(x)));
const verdictOf = (target: number, got: number, higherIsBetter = true): string =>
  (higherIsBetter ? got >= target : got <= target) ? 'met' : 'MISSED';

function throughput(ctx: BenchContext, text: string, urls: readonly string[], reps: number): BenchTable {
  const robotsUrl = `${ORIGIN}/robots.txt`;
  const load = median(reps, () => loadRobotsFile(text, { robotsUrl }));
  const file: RobotsFile = loadRobotsFile(text, { robotsUrl });
  const compile = median(reps, () => {
    file.selections.clear(); // what the first verdict for a crawler builds: its groups and compiled rules
    verdict(file, urls[0] as string, TOKEN);
  });
  let disallowed = 0;
  const tVerdict = median(reps, () => {
    disallowed = 0;
    for (const u of urls) if (verdict(file, u, TOKEN).verdict === 'disallowed') disallowed++;
  });
  const tExplain = median(reps, () => {
    for (const u of urls) explain(file, u, TOKEN);
  });
  // robots-parser alone, on the file as it is (its own parse and matcher), isAllowed only; on at most
  // 10,000 of the URLs, as it is slow.
  const parser = robotsParser(robotsUrl, text);
  const few = urls.slice(0, PARSER_URLS);
  const tParser = median(reps, () => {
    for (const u of few) parser.isAllowed(u, TOKEN);
  });
  ctx.log(`${urls.length} URLs, ${disallowed} disallowed`);
  const rules = groupFor(file, TOKEN).rules.length;
  const n = urls.length;
  const row = (what: string, t: number, target?: number, count = n) => [
    what,
    formatNumber(count),
    ms(t),
    formatNumber(perSecond(count, t)),
    ms((t * 1000) / count),
    target === undefined ? '' : `≥ ${formatNumber(target)}/s`,
    target === undefined ? '' : verdictOf(target, perSecond(n, t)),
  ];
  return {
    title: `robots.txt verdicts on a real-world file of ${formatNumber(Buffer.byteLength(text))} bytes (${formatNumber(rules)} rules in the * group)`,
    columns: [
      { header: 'what' },
      { header: 'URLs', align: 'right' },
      { header: 'ms', align: 'right' },
      { header: 'URLs/s', align: 'right' },
      { header: 'µs/URL', align: 'right' },
      { header: 'target' },
      { header: '' },
    ],
    rows: [
      row('verdict()', tVerdict, TARGET_VERDICT),
      row('explain()', tExplain, TARGET_EXPLAIN),
      row('robots-parser isAllowed alone', tParser, undefined, few.length),
    ],
    notes: [
      `${formatNumber(disallowed)} of ${formatNumber(n)} URLs disallowed; median of ${reps} runs over the same URLs.`,
      `Once per file: decode + parse ${ms(load)} ms; the crawler's groups chosen and compiled on its first verdict ${ms(compile)} ms.`,
      'Before the compiled matcher (measured once, on an earlier machine, 2,000 of these URLs): explain() ≈ 3,900 URLs/s.',
    ],
  };
}

function hostile(reps: number): BenchTable {
  const pattern = '/' + '*a'.repeat(1998) + '*ab';
  const body = 'User-agent: *\n' + `Disallow: ${pattern}\n`.repeat(120);
  const url = 'http://a.test/' + 'a'.repeat(8000);
  const file = loadRobotsFile(body, { robotsUrl: 'http://a.test/robots.txt' });
  verdict(file, url, TOKEN);
  const tAllowed = median(reps, () => verdict(file, url, TOKEN));
  const tDisallowed = median(reps, () => verdict(file, `${url}b`, TOKEN));
  const tExplain = median(reps, () => explain(file, url, TOKEN));
  // robots-parser on ONE of the 120 rules; all 120 would take about 120 times as long.
  const one = robotsParser('http://a.test/robots.txt', `User-agent: *\nDisallow: ${pattern}\n`);
  const tOne = median(1, () => one.isAllowed(url, TOKEN));
  const steps = robotsParserSteps(groupFor(file, TOKEN).rules, 8001);
  return {
    title: `The hostile case: 120 rules of /*a*a…*ab (${formatNumber(pattern.length)} characters each) against an 8,000-character URL`,
    columns: [{ header: 'what' }, { header: 'ms per URL', align: 'right' }, { header: 'target' }],
    rows: [
      ['verdict(), no rule matches (every rule tried)', ms(tAllowed), 'bounded'],
      ['verdict(), the last character matches', ms(tDisallowed), 'bounded'],
      ['explain(), no rule matches', ms(tExplain), 'bounded'],
      ['robots-parser isAllowed, 1 of the 120 rules', ms(tOne), ''],
      ['robots-parser isAllowed, all 120 (× 120, not run)', formatNumber(Math.round(tOne * 120)), ''],
    ],
    notes: [
      `Linear matcher: O(|pattern| + |path|) string searches per rule; robots-parser's bound here is ${formatNumber(steps)} steps.`,
    ],
  };
}

function cli(ctx: BenchContext, count: number, reps: number): BenchTable {
  const fixture = path.join(ctx.root, FIXTURE);
  const text = fs.readFileSync(fixture, 'utf8');
  const list = path.join(ctx.tmp, 'urls.txt');
  fs.writeFileSync(list, `${sampleUrls(ORIGIN, text, count, 2).join('\n')}\n`);
  const cliJs = path.join(ctx.root, 'dist/cli.js');
  if (!fs.existsSync(cliJs)) execFileSync(process.execPath, ['esbuild.js'], { cwd: ctx.root });
  const run = (json: boolean): number => {
    const args = [cliJs, 'robots', '--file', fixture, '--urls-file', list, ...(json ? ['--json'] : [])];
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1' } });
    const t = performance.now() - t0;
    if (r.status !== 0) throw new Error(`crawl-planner robots exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
    return t;
  };
  const row = (json: boolean) => {
    const t = median(reps, () => run(json));
    return [
      `robots --file F --urls-file U${json ? ' --json' : ''}`,
      formatNumber(count),
      formatNumber(Math.round(t)),
      `< ${formatNumber(TARGET_CLI_MS)} ms`,
      verdictOf(TARGET_CLI_MS, t, false),
    ];
  };
  return {
    title: `The CLI in bulk mode on the same file: ${formatNumber(count)} URLs, wall time of the whole process`,
    columns: [
      { header: 'command' },
      { header: 'URLs', align: 'right' },
      { header: 'ms', align: 'right' },
      { header: 'target' },
      { header: '' },
    ],
    rows: [row(false), row(true)],
    notes: [
      `Median of ${reps} run${reps === 1 ? '' : 's'} of the built dist/cli.js, output to a pipe; Node start-up included.`,
      ...(count < 100_000 ? ['The target is for 100,000 URLs (a full run, without --quick).'] : []),
    ],
  };
}

export const robotsSection: BenchSection = {
  id: 'robots',
  title: 'robots.txt: verdicts per second, the hostile case, the CLI in bulk',
  async run(ctx) {
    const text = fs.readFileSync(path.join(ctx.root, FIXTURE), 'utf8');
    const count = ctx.quick ? 20_000 : 100_000;
    const reps = ctx.quick ? 3 : 5;
    const urls = sampleUrls(ORIGIN, text, count);
    return [
      throughput(ctx, text, urls, reps),
      hostile(reps),
      cli(ctx, ctx.quick ? 20_000 : 100_000, ctx.quick ? 1 : 3),
    ];
  },
};

/**
 * Sitemap sizing (issue 19): how fast a 50,000-URL sitemap (the sitemaps.org maximum) is read, plain and
 * gzip; how fast its URLs are counted with a robots.txt verdict each; and the whole path over loopback HTTP
 * (robots.txt, the file, inflating, parsing, counting). Prints the figures; never asserts.
 *
 * The URLs are bench/lib/robotsUrls.ts's deterministic sample for IPWatchdog's robots.txt (the real-world
 * file of the robots section: 1,328 rules in its `*` group), each with a lastmod, changefreq and priority,
 * as generators write them.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { formatNumber } from '../../src/core/format/duration';
import { loadRobotsFile } from '../../src/core/robots';
import { SITEMAP_MAX_URLS_PER_FILE, SitemapReader, SitemapTally, type OriginRobots } from '../../src/core/sitemaps';
import { sizeFromSitemaps } from '../../src/net/sitemaps';
import { median, medianAsync } from '../lib/median';
import { sampleUrls } from '../lib/robotsUrls';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';

const FIXTURE = 'test/fixtures/robotstxt-real-world/ipwatchdog.robots.txt';
const ORIGIN = 'https://ipwatchdog.com';
const TOKEN = 'BobBot';
const CHUNK = 64 * 1024;
/** The counting target: the verdict path is built for at least this many URLs per second. */
const TARGET_COUNT = 100_000;

const MB = 1_000_000;
const perSecond = (n: number, ms: number): number => Math.round((n / ms) * 1000);
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : formatNumber(Math.round(x)));
const mbps = (bytes: number, t: number): string => formatNumber(bytes / MB / (t / 1000), 1);

function sitemapXml(urls: readonly string[]): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  urls.forEach((u, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + (i % 12)).padStart(2, '0');
    const loc = u.replace(/&/g, '&amp;');
    parts.push(
      `  <url>\n    <loc>${loc}</loc>\n    <lastmod>2024-${month}-${day}T10:00:00+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.5</priority>\n  </url>\n`,
    );
  });
  parts.push('</urlset>\n');
  return parts.join('');
}

function readPlain(body: Buffer): number {
  let n = 0;
  const reader = new SitemapReader({ url: () => n++, sitemap: () => {} });
  for (let i = 0; i < body.length; i += CHUNK) reader.write(body.subarray(i, i + CHUNK));
  reader.end();
  return n;
}

async function readGzip(gz: Buffer): Promise<number> {
  let n = 0;
  const reader = new SitemapReader({ url: () => n++, sitemap: () => {} });
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      reader.write(chunk);
      cb();
    },
  });
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < gz.length; i += CHUNK) yield gz.subarray(i, i + CHUNK);
    })(),
  );
  await pipeline(source, zlib.createGunzip(), sink);
  reader.end();
  return n;
}

async function parsing(ctx: BenchContext, urls: readonly string[], reps: number): Promise<BenchTable> {
  const body = Buffer.from(sitemapXml(urls));
  const gz = zlib.gzipSync(body);
  readPlain(body);
  const tPlain = median(reps, () => readPlain(body));
  const tGzip = await medianAsync(reps, () => readGzip(gz));
  const tInflate = await medianAsync(reps, () =>
    pipeline(Readable.from([gz]), zlib.createGunzip(), new Writable({ write: (_c, _e, cb) => cb() })),
  );
  ctx.log(`${urls.length} URLs, ${body.length} bytes, ${gz.length} gzip`);
  const n = urls.length;
  return {
    title: `Reading one ${formatNumber(n)}-URL sitemap (${formatNumber(body.length / MB, 1)} MB, ${formatNumber(gz.length / MB, 2)} MB gzip) with SitemapReader`,
    columns: [
      { header: 'what' },
      { header: 'ms', align: 'right' },
      { header: 'URLs/s', align: 'right' },
      { header: 'MB/s (uncompressed)', align: 'right' },
    ],
    rows: [
      ['plain XML, 64 KiB chunks', ms(tPlain), formatNumber(perSecond(n, tPlain)), mbps(body.length, tPlain)],
      ['gzip: inflate as it streams + read', ms(tGzip), formatNumber(perSecond(n, tGzip)), mbps(body.length, tGzip)],
      ['  of which inflating alone', ms(tInflate), '', mbps(body.length, tInflate)],
    ],
    notes: [
      `Median of ${reps} runs; URLs handed to a counter that does nothing. htmlparser2 in XML mode, UTF-8 decoded with TextDecoder.`,
      'For the choice of parser (htmlparser2 against saxes and sax on the same file) see docs/sitemaps.md#reading-a-sitemap.',
    ],
  };
}

function counting(ctx: BenchContext, urls: readonly string[], robotsText: string, reps: number): BenchTable {
  const robotsUrl = `${ORIGIN}/robots.txt`;
  const host = new URL(ORIGIN).host;
  const accepting = new Set([host]);
  const real = loadRobotsFile(robotsText, { robotsUrl });
  const small = loadRobotsFile(
    'User-agent: *\nDisallow: /wp-admin/\nDisallow: /feed/\nAllow: /wp-admin/admin-ajax.php\n',
    { robotsUrl },
  );
  const now = Date.parse('2024-12-31T00:00:00Z');
  const lastmods = urls.map(
    (_, i) => `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00+00:00`,
  );
  let disallowed = 0;
  const run = (rules: OriginRobots | undefined, late?: OriginRobots) => {
    let known = rules;
    const tally = new SitemapTally([host], { productToken: TOKEN, now, robots: () => known });
    for (let i = 0; i < urls.length; i++) tally.add(host, accepting, urls[i]!, lastmods[i]);
    if (late) known = late;
    disallowed = tally.counts()[0]!.disallowed;
  };
  const smallRules: OriginRobots = { outcome: 'ok', file: small, robotsUrl };
  const realRules: OriginRobots = { outcome: 'ok', file: real, robotsUrl };
  run(realRules);
  const tSmall = median(reps, () => run(smallRules));
  const tReal = median(reps, () => run(realRules));
  const dReal = disallowed;
  const tLate = median(reps, () => run(undefined, realRules));
  const tNone = median(reps, () => run({ outcome: 'unavailable', robotsUrl }));
  ctx.log(`${dReal} of ${urls.length} disallowed by the real-world file`);
  const n = urls.length;
  const row = (what: string, t: number) => [
    what,
    ms(t),
    formatNumber(perSecond(n, t)),
    `≥ ${formatNumber(TARGET_COUNT)}/s`,
    perSecond(n, t) >= TARGET_COUNT ? 'met' : 'MISSED',
  ];
  return {
    title: `Counting the same ${formatNumber(n)} URLs (SitemapTally: parse, dedupe, robots.txt verdict, lastmod; then the summary)`,
    columns: [
      { header: 'robots.txt' },
      { header: 'ms', align: 'right' },
      { header: 'URLs/s', align: 'right' },
      { header: 'target' },
      { header: '' },
    ],
    rows: [
      row('unavailable (no verdict to take)', tNone),
      row('3 rules', tSmall),
      row(`real-world file, ${formatNumber(real.groups.reduce((s, g) => s + g.rules.length, 0))} rules`, tReal),
      row('real-world file, known only at the end (pending, decided in counts())', tLate),
    ],
    notes: [
      `${formatNumber(dReal)} of ${formatNumber(n)} URLs disallowed by the real-world file; median of ${reps} runs, each with a new tally.`,
    ],
  };
}

async function endToEnd(ctx: BenchContext, sample: readonly string[], reps: number): Promise<BenchTable> {
  let body = Buffer.alloc(0);
  let gz = Buffer.alloc(0);
  let gzip = false;
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`User-agent: *\nDisallow: /wp-admin/\nSitemap: http://${req.headers.host}/sitemap.xml\n`);
    }
    if (req.url === '/sitemap.xml') {
      res.writeHead(200, {
        'content-type': gzip ? 'application/gzip' : 'application/xml',
        'content-length': gzip ? gz.length : body.length,
      });
      return void res.end(gzip ? gz : body);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The same paths on the loopback host, so that they count for it.
  const urls = sample.map((u) => origin + u.slice(ORIGIN.length));
  body = Buffer.from(sitemapXml(urls));
  gz = zlib.gzipSync(body);
  const size = async () => {
    const s = await sizeFromSitemaps([origin], {
      productToken: TOKEN,
      userAgentHeader: `${TOKEN}/bench`,
      delaySeconds: 0,
    });
    return s.hosts[0]!.urls + s.hosts[0]!.disallowed;
  };
  try {
    await size();
    const tPlain = await medianAsync(reps, size);
    gzip = true;
    const counted = await size();
    const tGzip = await medianAsync(reps, size);
    ctx.log(`end to end: ${counted} URLs counted`);
    const n = urls.length;
    return {
      title: `The whole path over loopback HTTP: sizeFromSitemaps on one host (robots.txt + one ${formatNumber(n)}-URL file)`,
      columns: [
        { header: 'file' },
        { header: 'bytes on the wire', align: 'right' },
        { header: 'ms', align: 'right' },
        { header: 'URLs/s', align: 'right' },
        { header: 'MB/s (uncompressed)', align: 'right' },
      ],
      rows: [
        [
          '/sitemap.xml',
          formatNumber(body.length),
          ms(tPlain),
          formatNumber(perSecond(n, tPlain)),
          mbps(body.length, tPlain),
        ],
        [
          '/sitemap.xml as a .gz file',
          formatNumber(gz.length),
          ms(tGzip),
          formatNumber(perSecond(n, tGzip)),
          mbps(body.length, tGzip),
        ],
      ],
      notes: [
        `Median of ${reps} runs, --delay 0, the server in the same process; both requests, inflating, parsing, counting with verdicts and the report.`,
      ],
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export const sitemapsSection: BenchSection = {
  id: 'sitemaps',
  title: 'Sitemap sizing: reading a 50,000-URL file, plain and gzip; counting with robots.txt verdicts',
  async run(ctx) {
    const robotsText = fs.readFileSync(path.join(ctx.root, FIXTURE), 'utf8');
    const urls = [...new Set(sampleUrls(ORIGIN, robotsText, 2 * SITEMAP_MAX_URLS_PER_FILE))].slice(
      0,
      SITEMAP_MAX_URLS_PER_FILE,
    );
    const reps = ctx.quick ? 3 : 7;
    return [
      await parsing(ctx, urls, reps),
      counting(ctx, urls, robotsText, reps),
      await endToEnd(ctx, urls, ctx.quick ? 2 : 5),
    ];
  },
};

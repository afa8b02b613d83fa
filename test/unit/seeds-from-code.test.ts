/**
 * Seeds from the code being written (src/core/seedsFromCode): start URLs and settings read from real spider
 * files written for these tests (test/fixtures/spiders/: a Scrapy project with settings.py, Crawlee scripts in
 * TypeScript and CommonJS), what cannot be resolved statically counted as skipped, hostile text, and the URLs of
 * any text for "Plan URLs in Selection".
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  codeSeeds,
  crawleeScript,
  formFromSettings,
  scrapySettingsModule,
  scrapySpiders,
  SEEDS_FROM_CODE_LIMITS,
  seedsTextOf,
  skippedText,
  urlsInText,
  type CodeSeeds,
} from '../../src/core/seedsFromCode';
import { seedLinesFromText, validateSeeds } from '../../src/core/seeds';

const SPIDERS = join(__dirname, '..', 'fixtures', 'spiders');
const read = (path: string): string => readFileSync(join(SPIDERS, path), 'utf8');
const SETTINGS = { label: 'bookshop/settings.py', reads: scrapySettingsModule(read('bookshop/bookshop/settings.py')) };

function settingsOf(seeds: CodeSeeds): Record<string, string> {
  return Object.fromEntries(
    seeds.settings.map((s) => [
      s.read.name,
      'value' in s.read ? `${s.read.value} @ ${s.where}` : `${s.read.notRead} @ ${s.where}`,
    ]),
  );
}

test('Scrapy: a multi-line start_urls list with comments, adjacent literals, an f-string and a concatenation', () => {
  const [books, ...rest] = codeSeeds(read('bookshop/bookshop/spiders/books.py'), 'python', 'books.py', SETTINGS);
  assert.equal(rest.length, 0);
  assert.equal(books!.block.name, 'start_urls');
  assert.equal(books!.block.owner, 'BooksSpider');
  assert.equal(books!.block.line, 16, 'the CodeLens goes above `start_urls =`');
  assert.deepEqual(books!.urls, [
    'https://books.toscrape.com/',
    'https://books.toscrape.com/catalogue/category/books/mystery_3/index.html',
    'https://shop.example.org/new?sort=date&page=1',
    'https://shop.example.org/used/',
  ]);
  assert.equal(books!.block.urls.length, 5, 'the repeat is in the block, not in the seeds');
  assert.equal(books!.hosts, 2);
  assert.equal(books!.title, 'Plan 4 URLs · 2 hosts');
  // The commented-out URL is not an entry at all; the f-string and the concatenation are skipped, not guessed.
  assert.deepEqual(books!.block.skipped, [
    { line: 23, reason: 'not-literal' },
    { line: 24, reason: 'not-literal' },
    { line: 25, reason: 'not-http' },
  ]);
  assert.equal(
    skippedText(books!.block.skipped),
    '3 entries not read: line 23 (an expression, not resolved), line 24 (an expression, not resolved), line 25 (not an http(s) URL)',
  );
});

test('Scrapy: custom_settings win over settings.py, name by name; CONCURRENT_REQUESTS_PER_DOMAIN is said, not taken', () => {
  const [books] = codeSeeds(read('bookshop/bookshop/spiders/books.py'), 'python', 'books.py', SETTINGS);
  assert.deepEqual(settingsOf(books!), {
    DOWNLOAD_DELAY: '3 @ books.py:12',
    CONCURRENT_REQUESTS_PER_DOMAIN: '1 @ books.py:13',
    CONCURRENT_REQUESTS: '8 @ bookshop/settings.py:10',
  });
  const form = formFromSettings(books!.settings);
  assert.deepEqual(form.form, { delaySeconds: 3, workers: 8 });
  assert.deepEqual(form.taken, [
    'DOWNLOAD_DELAY = 3 (books.py:12) → delay 3 s',
    'CONCURRENT_REQUESTS = 8 (bookshop/settings.py:10) → workers 8',
  ]);
  assert.equal(form.notTaken.length, 1);
  assert.match(
    form.notTaken[0]!,
    /^CONCURRENT_REQUESTS_PER_DOMAIN = 1 \(books\.py:13\): not used, the planner keeps one request in flight per host/,
  );
});

test('Scrapy: a tuple of start URLs with no custom_settings takes settings.py (the last assignment, comments ignored)', () => {
  const [quotes] = codeSeeds(read('bookshop/bookshop/spiders/quotes.py'), 'python', 'quotes.py', SETTINGS);
  assert.equal(quotes!.title, 'Plan 3 URLs · 2 hosts');
  assert.deepEqual(quotes!.urls, [
    'https://quotes.toscrape.com/page/1/',
    'https://quotes.toscrape.com/page/2/',
    'http://quotes.example.net/tag/humor/',
  ]);
  assert.deepEqual(formFromSettings(quotes!.settings).form, { delaySeconds: 1.5, workers: 8 });
  // Without a settings.py nothing is set.
  const [alone] = codeSeeds(read('bookshop/bookshop/spiders/quotes.py'), 'python', 'quotes.py');
  assert.deepEqual(alone!.settings, []);
});

test('Scrapy hostile: other schemes, bytes, names, %-formatting and a string left open are skipped; nothing after the broken line is lost', () => {
  const [hostile, notASpider] = codeSeeds(read('bookshop/bookshop/spiders/hostile.py'), 'python', 'hostile.py');
  assert.deepEqual(hostile!.urls, ["https://ok.example.org/it's-fine", 'https://ok.example.org/after-the-broken-line']);
  assert.deepEqual(
    hostile!.block.skipped.map((s) => `${s.line} ${s.reason}`),
    [
      '13 not-http',
      '14 not-http',
      '15 not-http',
      '16 not-http',
      '17 not-literal',
      '18 not-literal',
      '19 not-literal',
      '21 unterminated',
    ],
  );
  // DOWNLOAD_DELAY = float(os.environ…) is an expression: said, not taken, and never evaluated.
  const form = formFromSettings(hostile!.settings);
  assert.deepEqual(form.form, { workers: 4 });
  assert.deepEqual(form.notTaken, ['DOWNLOAD_DELAY (hostile.py:9): not a literal number, not read']);
  // `start_urls = "https://…"` is a string (Scrapy would iterate its characters): no seed, one skipped entry.
  assert.equal(notASpider!.block.owner, 'NotASpider');
  assert.deepEqual(notASpider!.urls, []);
  assert.deepEqual(notASpider!.block.skipped, [{ line: 27, reason: 'not-a-list' }]);
  assert.equal(notASpider!.title, 'No URL to plan in start_urls');
});

test('Scrapy: comprehensions, names, a parenthesised string, start_requests literals, conditional settings', () => {
  const source = [
    'import scrapy',
    'class A(scrapy.Spider):',
    '    start_urls = [f"https://a.example/{i}" for i in range(3)]',
    'class B(scrapy.Spider):',
    '    start_urls = ("https://b.example/")',
    'class C(scrapy.Spider):',
    '    start_urls = URLS',
    'class D(scrapy.Spider):',
    '    def start_requests(self):',
    '        yield scrapy.Request("https://d.example/one", callback=self.parse)',
    '        for url in ["https://d.example/two", "https://e.example/three"]:',
    '            yield scrapy.Request(url=url)',
    '        yield scrapy.Request(self.base + "/x")',
    'class E(scrapy.Spider):',
    "    start_urls = ['https://e.example/a', 'https://e.example/b',]",
    "    start_urls = ['https://e.example/last']",
  ].join('\n');
  const spiders = scrapySpiders(source);
  const byClass = Object.fromEntries(spiders.map((s) => [s.className, s.blocks]));
  assert.deepEqual(byClass.A![0]!.skipped, [{ line: 3, reason: 'not-literal' }]);
  assert.deepEqual(byClass.B![0]!.skipped, [{ line: 5, reason: 'not-a-list' }]);
  assert.deepEqual(byClass.C![0]!.skipped, [{ line: 7, reason: 'not-literal' }]);
  assert.equal(byClass.D![0]!.name, 'start_requests');
  assert.deepEqual(
    byClass.D![0]!.urls.map((u) => u.url),
    ['https://d.example/one', 'https://d.example/two', 'https://e.example/three'],
  );
  assert.deepEqual(byClass.D![0]!.skipped, [{ line: 13, reason: 'not-literal' }]);
  assert.equal(byClass.E!.length, 1, 'assigned twice: the last assignment is the attribute');
  assert.deepEqual(
    byClass.E![0]!.urls.map((u) => u.url),
    ['https://e.example/last'],
  );

  const module = scrapySettingsModule(
    [
      'import os',
      'DOWNLOAD_DELAY = 2',
      'if os.environ.get("FAST"):',
      '    DOWNLOAD_DELAY = 0',
      'CONCURRENT_REQUESTS = 1_000',
      'def f():',
      '    CONCURRENT_REQUESTS = 1',
    ].join('\n'),
  );
  assert.deepEqual(module, {
    DOWNLOAD_DELAY: { name: 'DOWNLOAD_DELAY', line: 4, notRead: 'conditional' },
    CONCURRENT_REQUESTS: { name: 'CONCURRENT_REQUESTS', line: 5, value: 1000 },
  });
});

test('Crawlee TypeScript: addRequests with strings and {url} objects, run([...]), options from the crawler', () => {
  const [add, run] = codeSeeds(read('crawlee/main.ts'), 'javascript', 'main.ts');
  assert.equal(add!.block.name, 'crawler.addRequests');
  assert.equal(add!.block.line, 18);
  assert.deepEqual(add!.urls, [
    'https://crawlee.dev/docs/quick-start',
    'https://crawlee.dev/api/core',
    'https://shop.example.org/list?page=1',
    'https://shop.example.org/sale',
  ]);
  assert.deepEqual(add!.block.skipped, [
    { line: 23, reason: 'not-literal' },
    { line: 24, reason: 'not-literal' },
  ]);
  assert.equal(add!.title, 'Plan 4 URLs · 2 hosts');
  assert.equal(run!.block.name, 'crawler.run');
  assert.deepEqual(
    run!.urls,
    ['https://crawlee.dev/', 'https://news.example.com/feed'],
    'URLs in comments are not entries',
  );
  const form = formFromSettings(run!.settings);
  assert.deepEqual(form.form, { delaySeconds: 2.5, workers: 8, pages: 500 });
  assert.deepEqual(form.taken, [
    'sameDomainDelaySecs = 2.5 (main.ts:8) → delay 2.5 s',
    'maxConcurrency = 8 (main.ts:9) → workers 8',
    'maxRequestsPerCrawl = 500 (main.ts:10) → pages 500 in total',
  ]);
});

test('Crawlee CommonJS: run(CONST) resolves a const array bound once and never changed', () => {
  const [run] = codeSeeds(read('crawlee/main.js'), 'javascript', 'main.js');
  assert.equal(run!.title, 'Plan 3 URLs · 2 hosts');
  assert.equal(run!.block.line, 18);
  assert.deepEqual(formFromSettings(run!.settings).form, { delaySeconds: 0.5, workers: 3 });
  // The same array pushed to later is not resolved.
  const pushed = crawleeScript(
    "const crawler = new CheerioCrawler({});\nconst START = ['https://a.example/'];\nSTART.push(other);\nawait crawler.run(START);",
  );
  assert.deepEqual(pushed.blocks[0]!.urls, []);
  assert.deepEqual(pushed.blocks[0]!.skipped, [{ line: 4, reason: 'not-literal' }]);
});

test('Crawlee hostile: a string left open costs its own entry; a template that never ends; options that are expressions', () => {
  const [run] = codeSeeds(read('crawlee/unterminated.ts'), 'javascript', 'unterminated.ts');
  assert.deepEqual(run!.urls, ['https://ok.example.org/one', 'https://ok.example.org/two']);
  assert.deepEqual(run!.block.skipped, [
    { line: 8, reason: 'unterminated' },
    { line: 10, reason: 'not-http' },
  ]);
  const form = formFromSettings(run!.settings);
  assert.deepEqual(form.form, { delaySeconds: 1 });
  assert.deepEqual(form.notTaken, ['maxConcurrency (unterminated.ts:4): not a literal number, not read']);
  // A spread after the options may replace them; a file that does not import crawlee only counts receivers named like a crawler.
  const spread = crawleeScript(
    "import { CheerioCrawler } from 'crawlee';\nconst crawler = new CheerioCrawler({ maxConcurrency: 2, ...defaults });\nawait crawler.run(['https://a.example/']);",
  );
  assert.equal(spread.crawlers[0]!.options.maxConcurrency!.line, 2);
  assert.ok('notRead' in spread.crawlers[0]!.options.maxConcurrency!);
  assert.equal(crawleeScript("app.run(['https://a.example/'])").blocks.length, 0);
  assert.equal(crawleeScript("myCrawler.run(['https://a.example/'])").blocks.length, 1);
});

test('Settings the plan refuses are said, not taken; 0 pages is no limit', () => {
  const form = formFromSettings([
    { where: 'a.py:1', read: { name: 'DOWNLOAD_DELAY', line: 1, value: -1 } },
    { where: 'a.py:2', read: { name: 'CONCURRENT_REQUESTS', line: 2, value: 0 } },
    { where: 'a.py:3', read: { name: 'CLOSESPIDER_PAGECOUNT', line: 3, value: 0 } },
    { where: 'a.js:4', read: { name: 'maxRequestsPerMinute', line: 4, value: 120 } },
  ]);
  assert.deepEqual(form.form, { rate: 2 });
  assert.equal(form.notTaken.length, 3);
  assert.match(form.notTaken[0]!, /^DOWNLOAD_DELAY = -1 \(a\.py:1\): /);
  assert.match(form.notTaken[1]!, /^CONCURRENT_REQUESTS = 0 \(a\.py:2\): /);
  assert.equal(form.notTaken[2], 'CLOSESPIDER_PAGECOUNT = 0 (a.py:3): 0 means no limit');
});

test('Hostile text: a file over the limit gets no blocks; deep brackets and long runs end, without recursion', () => {
  const big = `class S:\n    start_urls = ["https://a.example/"]\n${'#'.repeat(SEEDS_FROM_CODE_LIMITS.codeChars)}`;
  assert.deepEqual(codeSeeds(big, 'python', 'big.py'), []);
  const deepPy = `class S:\n    start_urls = ${'['.repeat(100_000)}`;
  assert.deepEqual(codeSeeds(deepPy, 'python', 'deep.py')[0]!.block.skipped, [{ line: 2, reason: 'unterminated' }]);
  const deepJs = `crawler.run(${'['.repeat(100_000)}'https://a.example/'`;
  assert.equal(codeSeeds(deepJs, 'javascript', 'deep.js')[0]!.urls.length, 0);
  const unterminatedTriple = `class S:\n    start_urls = ["https://a.example/"]\n    doc = """never closed\n${'x\n'.repeat(100_000)}`;
  assert.deepEqual(codeSeeds(unterminatedTriple, 'python', 't.py')[0]!.urls, ['https://a.example/']);
  // One million "https://" without a host: each is left out, in one pass.
  const runs = urlsInText('https:// '.repeat(1_000_000));
  assert.deepEqual(runs.urls, []);
  assert.equal(runs.leftOut, 1_000_000);
});

test('URLs in any text: sitemap XML with entities, CSV fields, JSON escapes; comments are taken, templates and other schemes are not', () => {
  const sitemap =
    '<?xml version="1.0"?><urlset><url><loc>https://a.example/p?x=1&amp;y=2</loc></url><url><loc><![CDATA[https://b.example/q]]></loc></url></urlset>';
  assert.deepEqual(urlsInText(sitemap).urls, ['https://a.example/p?x=1&y=2', 'https://b.example/q']);
  const csv =
    'url,title\nhttps://a.example/1,"One, with a comma"\n"https://b.example/2?q=a,b",Two\nftp://c.example/,Three\n';
  assert.deepEqual(urlsInText(csv, { format: 'csv' }).urls, ['https://a.example/1', 'https://b.example/2?q=a,b']);
  assert.deepEqual(urlsInText('{"start": ["https:\\/\\/a.example\\/x?a=1\\u0026b=2"]}').urls, [
    'https://a.example/x?a=1&b=2',
  ]);
  const text = [
    '# https://commented.example/ is in a comment: the selection is what you chose, so it is taken',
    'See https://a.example/page. And (https://b.example/x).',
    'f"https://t.example/{page}" `https://${host}/` "https://p.example/%s"',
    'javascript:alert(1) file:///etc/passwd mailto:x@y.example',
    'https://a.example/page again',
  ].join('\n');
  const found = urlsInText(text);
  assert.deepEqual(found.urls, ['https://commented.example/', 'https://a.example/page', 'https://b.example/x']);
  assert.equal(found.repeats, 1);
  assert.equal(found.leftOut, 3, 'the three templates');
});

test('The seeds text: a comment, then one URL a line; a URL with a line break stays one seed and goes through seed hygiene', () => {
  const text = seedsTextOf(
    ['https://a.example/', 'https://user:pw@b.example/x y', 'https://c.example/\nq'],
    'from books.py\n(BooksSpider)',
  );
  assert.equal(
    text,
    '# from books.py (BooksSpider)\nhttps://a.example/\nhttps://user:pw@b.example/x%20y\nhttps://c.example/%0Aq\n',
  );
  const checked = validateSeeds(seedLinesFromText(text));
  assert.equal(checked.seeds.length, 3);
  assert.ok(
    checked.notes.some((n) => n.code === 'credentials'),
    "credentials are found by the planner's hygiene",
  );
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks, scanLinks, DEFAULT_MAX_LINKS } from '../../src/core/html/links';

const PAGE = 'https://example.com/dir/page.html';

interface Case {
  name: string;
  html: string;
  url?: string;
  want: string[];
}

const cases: Case[] = [
  { name: 'absolute path', html: '<a href="/a">a</a>', want: ['https://example.com/a'] },
  { name: 'relative path', html: '<a href="b.html">b</a>', want: ['https://example.com/dir/b.html'] },
  { name: 'dot segments', html: '<a href="../up/./x/../y">y</a>', want: ['https://example.com/up/y'] },
  { name: 'query only', html: '<a href="?q=1">q</a>', want: ['https://example.com/dir/page.html?q=1'] },
  { name: 'scheme-relative', html: '<a href="//other.test/p">p</a>', want: ['https://other.test/p'] },
  { name: 'absolute http kept', html: '<a href="http://Other.TEST:80/P">p</a>', want: ['http://other.test/P'] },
  {
    name: 'area elements',
    html: '<map><area href="/map1" shape="rect"><area nohref></map>',
    want: ['https://example.com/map1'],
  },
  { name: 'a without href', html: '<a name="top">top</a><a>none</a>', want: [] },
  {
    name: 'named and numeric entities in hrefs',
    html: '<a href="/s?a=1&amp;b=2">1</a><a href="/x&#47;y">2</a><a href="/caf&eacute;">3</a>',
    want: ['https://example.com/s?a=1&b=2', 'https://example.com/x/y', 'https://example.com/caf%C3%A9'],
  },
  {
    name: 'legacy entity without semicolon is left alone in attributes (HTML attribute rule)',
    html: '<a href="/s?a=1&copy=2">c</a>',
    want: ['https://example.com/s?a=1&copy=2'],
  },
  {
    name: 'whitespace around and inside hrefs',
    html: '<a href="  /trim  ">1</a><a href="\n/new\nline\t">2</a><a href="/sp ace">3</a>',
    want: ['https://example.com/trim', 'https://example.com/newline', 'https://example.com/sp%20ace'],
  },
  {
    name: 'uppercase and mixed-case tags and attributes',
    html: '<HTML><BODY><A HREF="/UP">u</A><Area HrEf="/mixed"></BODY></HTML>',
    want: ['https://example.com/UP', 'https://example.com/mixed'],
  },
  {
    name: 'unquoted and single-quoted attributes',
    html: "<a href=/unq>u</a><a href='/single'>s</a>",
    want: ['https://example.com/unq', 'https://example.com/single'],
  },
  {
    name: 'non-http schemes are skipped',
    html: [
      '<a href="javascript:alert(1)">j</a>',
      '<a href=" JavaScript:void(0)">j2</a>',
      '<a href="java\tscript:x">j3</a>',
      '<a href="mailto:a@b.test">m</a>',
      '<a href="data:text/html,hi">d</a>',
      '<a href="tel:+1">t</a>',
      '<a href="ftp://f.test/x">f</a>',
      '<a href="/ok">ok</a>',
    ].join(''),
    want: ['https://example.com/ok'],
  },
  {
    name: 'fragments dropped, duplicates collapsed in first-seen order',
    html: '<a href="/b#one">1</a><a href="/a">2</a><a href="/b#two">3</a><a href="https://example.com/a">4</a>',
    want: ['https://example.com/b', 'https://example.com/a'],
  },
  {
    name: 'links to the page itself are dropped',
    html: '<a href="#top">t</a><a href="">e</a><a href="page.html">p</a><a href="page.html?x">x</a>',
    want: ['https://example.com/dir/page.html?x'],
  },
  {
    name: '<base href> applies to links before and after it; only the first base counts',
    html: '<a href="one">1</a><base href="https://cdn.test/root/"><base href="https://ignored.test/"><a href="two">2</a>',
    want: ['https://cdn.test/root/one', 'https://cdn.test/root/two'],
  },
  {
    name: 'relative <base href> resolves against the page URL',
    html: '<base href="/sub/"><a href="x">x</a>',
    want: ['https://example.com/sub/x'],
  },
  {
    name: 'a base without href does not stop a later one',
    html: '<base target="_blank"><base href="/b/"><a href="x">x</a>',
    want: ['https://example.com/b/x'],
  },
  {
    name: 'javascript: and data: bases are ignored (HTML frozen base URL rule)',
    html: '<base href="javascript:void(0)"><a href="x">x</a>',
    want: ['https://example.com/dir/x'],
  },
  {
    name: 'an unparsable base falls back to the page URL',
    html: '<base href="http://[bad"><a href="x">x</a>',
    want: ['https://example.com/dir/x'],
  },
  {
    name: 'rel=nofollow (any case, among other tokens) is skipped; ugc and sponsored are followed',
    html: '<a href="/n" rel="NoFollow noopener">n</a><a href="/u" rel="ugc">u</a><a href="/s" rel="sponsored">s</a>',
    want: ['https://example.com/u', 'https://example.com/s'],
  },
  {
    name: 'links in comments, scripts, styles, titles and textareas are not links',
    html:
      '<title><a href="/t"></title><!-- <a href="/c"> --><script>var s = "<a href=/s>";</script>' +
      '<style>/* <a href=/st> */</style><textarea><a href="/ta"></textarea><a href="/real">r</a>',
    want: ['https://example.com/real'],
  },
  {
    name: 'malformed HTML: unclosed tags, stray quotes, broken nesting',
    html: '<div><a href="/one"><p>unclosed <a href="/two" <a href=/three>x</b></i><a href="/four"',
    want: ['https://example.com/one', 'https://example.com/two'],
  },
  {
    name: 'duplicate href attribute: the first wins (HTML)',
    html: '<a href="/first" href="/second">x</a>',
    want: ['https://example.com/first'],
  },
  {
    name: '<link> is not followed by default',
    html: '<link rel="next" href="/p2"><link rel="stylesheet" href="/s.css">',
    want: [],
  },
  {
    name: 'invalid URLs are skipped',
    html: '<a href="http://exa mple.com/">x</a><a href="https://[::1">y</a>',
    want: [],
  },
  { name: 'empty document', html: '', want: [] },
  { name: 'non-HTML text', html: 'just some text with /paths and http://x.test/ in it', want: [] },
];

describe('extractLinks', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(extractLinks(c.html, c.url ?? PAGE), c.want);
    });
  }

  it('throws a TypeError for a relative page URL', () => {
    assert.throws(() => extractLinks('<a href="/x">', '/relative'), TypeError);
  });

  it('follows <link rel> tokens only when asked, and alternates only when they are HTML', () => {
    const html =
      '<link rel="next" href="/p2"><link rel="PREV" href="/p0"><link rel="stylesheet" href="/s.css">' +
      '<link rel="alternate" hreflang="de" href="/de/"><link rel="alternate" type="application/rss+xml" href="/feed">' +
      '<link rel="alternate" type="text/html; charset=utf-8" href="/html-alt"><link rel="next nofollow" href="/nf">';
    assert.deepEqual(extractLinks(html, PAGE, { linkRels: ['next', 'prev', 'alternate'] }), [
      'https://example.com/p2',
      'https://example.com/p0',
      'https://example.com/de/',
      'https://example.com/html-alt',
    ]);
  });

  it('keeps nofollow links when respectNofollow is false', () => {
    const html = '<a href="/n" rel="nofollow">n</a><meta name="robots" content="nofollow">';
    assert.deepEqual(extractLinks(html, PAGE, { respectNofollow: false }), ['https://example.com/n']);
  });
});

describe('scanLinks', () => {
  it('counts why candidates were skipped', () => {
    const html =
      '<a href="/a">1</a><a href="/a#x">2</a><a href="/a">3</a><a href="mailto:x@y.test">4</a>' +
      '<a href="#top">5</a><a href="/n" rel="nofollow">6</a><a href="http://[bad">7</a>';
    const scan = scanLinks(html, PAGE);
    assert.deepEqual(scan.links, ['https://example.com/a']);
    assert.deepEqual(scan.skipped, { nofollow: 1, scheme: 1, invalid: 1, tooLong: 0, duplicate: 2, self: 1 });
    assert.equal(scan.base, PAGE);
    assert.equal(scan.inputTruncated, false);
    assert.equal(scan.linksTruncated, false);
  });

  it('reports the effective base', () => {
    assert.equal(scanLinks('<base href="/b/">', PAGE).base, 'https://example.com/b/');
  });

  for (const content of ['noindex, nofollow', 'NONE', ' NoFollow ']) {
    it(`<meta name=robots content="${content}"> means no links, wherever it appears`, () => {
      const scan = scanLinks(`<a href="/a">a</a><meta name="Robots" content="${content}"><a href="/b">b</a>`, PAGE);
      assert.equal(scan.metaNofollow, true);
      assert.deepEqual(scan.links, []);
    });
  }

  it('a meta robots noindex alone keeps the links', () => {
    const scan = scanLinks('<meta name="robots" content="noindex"><a href="/a">a</a>', PAGE);
    assert.equal(scan.metaNofollow, false);
    assert.deepEqual(scan.links, ['https://example.com/a']);
  });
});

describe('hostile pages', () => {
  it('caps the number of links (default and configured)', () => {
    const html = Array.from({ length: DEFAULT_MAX_LINKS + 50 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    const all = scanLinks(html, PAGE);
    assert.equal(all.links.length, DEFAULT_MAX_LINKS);
    assert.equal(all.linksTruncated, true);
    assert.equal(all.links[0], 'https://example.com/p0');

    const few = scanLinks(html, PAGE, { maxLinks: 3 });
    assert.deepEqual(few.links, ['https://example.com/p0', 'https://example.com/p1', 'https://example.com/p2']);
    assert.equal(few.linksTruncated, true);
  });

  it('exactly maxLinks links is not truncation', () => {
    const scan = scanLinks('<a href="/1"></a><a href="/2"></a>', PAGE, { maxLinks: 2 });
    assert.equal(scan.links.length, 2);
    assert.equal(scan.linksTruncated, false);
  });

  it('scans only the first maxInputChars characters', () => {
    const head = '<a href="/early">e</a>';
    const html = head + 'x'.repeat(10_000) + '<a href="/late">l</a>';
    const scan = scanLinks(html, PAGE, { maxInputChars: head.length + 100 });
    assert.deepEqual(scan.links, ['https://example.com/early']);
    assert.equal(scan.inputTruncated, true);
  });

  it('a huge page with many repeated links stays bounded and finishes', () => {
    const chunk = '<div><a href="/same">s</a><a href="/same#f">t</a><p>filler text &amp; more</p></div>';
    const html = chunk.repeat(Math.ceil(5_000_000 / chunk.length));
    const scan = scanLinks(html, PAGE);
    assert.equal(scan.inputTruncated, true);
    assert.deepEqual(scan.links, ['https://example.com/same']);
  });

  it('skips hrefs longer than maxUrlLength, before or after resolution', () => {
    const long = '/' + 'a'.repeat(3000);
    const scan = scanLinks(`<a href="${long}">l</a><a href="${'b'.repeat(40)}">b</a><a href="/ok">o</a>`, PAGE, {
      maxUrlLength: 60,
    });
    assert.deepEqual(scan.links, ['https://example.com/ok']);
    assert.equal(scan.skipped.tooLong, 2);
  });

  it('an unterminated tag or comment at the end does not throw', () => {
    assert.deepEqual(extractLinks('<a href="/a">a</a><!-- never closed <a href="/b">', PAGE), [
      'https://example.com/a',
    ]);
    assert.deepEqual(extractLinks('<a href="/a">a</a><a href="/b', PAGE), ['https://example.com/a']);
  });

  it('deep unclosed nesting and stray end tags stay linear (near the 2 MB cap)', () => {
    // htmlparser2's Parser is quadratic here (its open-element stack); the extractor uses the tokenizer.
    const nested = '<div>'.repeat(350_000) + '<a href="/deep">d</a>';
    assert.deepEqual(extractLinks(nested, PAGE), ['https://example.com/deep']);
    const stray = '<span>'.repeat(150_000) + '</b>'.repeat(150_000) + '<a href="/after">a</a>';
    assert.deepEqual(extractLinks(stray, PAGE), ['https://example.com/after']);
  });
});

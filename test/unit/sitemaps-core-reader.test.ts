/**
 * The streaming sitemap reader (src/core/sitemaps): the formats (urlset, index, extension elements, text,
 * feeds and other roots), malformed XML read on or repaired and reported, and the sitemaps.org limits of
 * entries and bytes, at every chunk size a token can be split at.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  SitemapReader,
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_URLS_PER_FILE,
  type SitemapReadResult,
} from '../../src/core/sitemaps';

interface Read {
  urls: Array<[string, string | undefined]>;
  sitemaps: Array<[string, string | undefined]>;
  result: SitemapReadResult;
  /** How many write() calls were accepted before one returned false (all of them when none did). */
  accepted: number;
}

/** Reads `body` in chunks of `size` bytes (1 byte: every boundary a token can be split at). */
function read(body: string | Uint8Array, size = 7, options: ConstructorParameters<typeof SitemapReader>[1] = {}): Read {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const urls: Read['urls'] = [];
  const sitemaps: Read['sitemaps'] = [];
  const reader = new SitemapReader(
    { url: (l, m) => urls.push([l, m]), sitemap: (l, m) => sitemaps.push([l, m]) },
    options,
  );
  let accepted = 0;
  for (let i = 0; i < bytes.length; i += size) {
    if (!reader.write(bytes.subarray(i, i + size))) break;
    accepted++;
  }
  return { urls, sitemaps, result: reader.end(), accepted };
}

const urlset = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${inner}</urlset>\n`;

const url = (loc: string, lastmod?: string) =>
  `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;

describe('SitemapReader: formats', () => {
  it('a urlset: loc and lastmod per url, trimmed, entities and CDATA decoded, at any chunk size', () => {
    const body = urlset(
      url(' https://a.example/1 ', '2024-05-01') +
        '<url>\n  <loc>https://a.example/s?a=1&amp;b=2</loc>\n  <changefreq>daily</changefreq>\n</url>' +
        '<url><loc><![CDATA[https://a.example/c?x=1&y=2]]></loc></url>' +
        '<url><loc>https://a.example/caf&#xE9;</loc></url>',
    );
    for (const size of [1, 3, 64, 1 << 20]) {
      const r = read(body, size);
      assert.deepEqual(
        r.urls,
        [
          ['https://a.example/1', '2024-05-01'],
          ['https://a.example/s?a=1&b=2', undefined],
          ['https://a.example/c?x=1&y=2', undefined],
          ['https://a.example/café', undefined],
        ],
        `chunks of ${size}`,
      );
      assert.equal(r.result.format, 'urlset');
      assert.equal(r.result.entries, 4);
      assert.equal(r.result.bytes, Buffer.byteLength(body));
      assert.equal(r.result.malformed, undefined);
    }
  });

  it('a sitemap index: children with their lastmod; a prefixed namespace works too', () => {
    const r = read(
      '<sitemapindex><sitemap><loc>https://a.example/s1.xml.gz</loc><lastmod>2024-01-02</lastmod></sitemap><sitemap><loc>https://a.example/s2.xml</loc></sitemap></sitemapindex>',
    );
    assert.equal(r.result.format, 'sitemapindex');
    assert.deepEqual(r.sitemaps, [
      ['https://a.example/s1.xml.gz', '2024-01-02'],
      ['https://a.example/s2.xml', undefined],
    ]);
    assert.deepEqual(r.urls, []);
    const p = read(
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://a.example/p</s:loc></s:url></s:urlset>',
    );
    assert.deepEqual(p.urls, [['https://a.example/p', undefined]]);
  });

  it('extension elements never count: image:loc, xhtml:link, news', () => {
    const r = read(
      urlset(
        '<url><loc>https://a.example/page</loc><image:image><image:loc>https://cdn.example/i.jpg</image:loc></image:image>' +
          '<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/page"/><news:news><news:title>t</news:title></news:news></url>',
      ),
    );
    assert.deepEqual(r.urls, [['https://a.example/page', undefined]]);
  });

  it('a BOM, comments and a DOCTYPE are skipped; entities it defines are not expanded', () => {
    const r = read(
      '\uFEFF<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "AAAA"><!ENTITY b "&a;&a;&a;">]><!-- ' +
        url('https://a.example/hidden') +
        ' -->' +
        urlset(url('https://a.example/&b;')),
    );
    assert.deepEqual(r.urls, [['https://a.example/&b;', undefined]]);
  });

  it('a plain text sitemap: one URL per line, blank lines skipped, CRLF too', () => {
    const r = read('https://a.example/1\r\n\r\n  https://a.example/2  \nhttps://a.example/3', 2);
    assert.equal(r.result.format, 'text');
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'],
    );
  });

  it('feeds and other roots are recognised and not read; reading stops', () => {
    const feed = read(
      '<?xml version="1.0"?><rss version="2.0"><channel><item><link>https://a.example/x</link></item></channel></rss>' +
        ' '.repeat(5000),
      100,
    );
    assert.equal(feed.result.format, 'feed');
    assert.equal(feed.result.root, 'rss');
    assert.ok(feed.accepted < 10, 'stops at the root element');
    const atom = read(
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://a.example/y"/></entry></feed>',
    );
    assert.equal(atom.result.format, 'feed');
    const html = read('<!DOCTYPE html><html><head><title>Not found</title></head><body><p>Oops<br></body></html>');
    assert.equal(html.result.format, 'other');
    assert.equal(html.result.root, 'html');
    assert.deepEqual(html.urls, []);
    assert.equal(html.result.malformed, undefined, 'what is not a sitemap is not called malformed');
    const upper = read('<URLSET><URL><LOC>https://a.example/U</LOC></URL></URLSET>');
    assert.equal(upper.result.format, 'other', 'XML names are case-sensitive');
  });

  it('an empty body, and one with only white space or an XML declaration, is empty', () => {
    for (const body of ['', '   \n', '<?xml version="1.0"?>'])
      assert.equal(read(body).result.format, 'empty', JSON.stringify(body));
  });
});

describe('SitemapReader: malformed XML', () => {
  it('an unescaped & reads on (counted), as real sitemaps need', () => {
    const r = read(urlset(url('https://a.example/?a=1&b=2') + url('https://a.example/2')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/?a=1&b=2', 'https://a.example/2'],
    );
  });

  it('a mismatched close tag is repaired and reported', () => {
    const r = read(urlset('<url><loc>https://a.example/1</lox></url>' + url('https://a.example/2')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1', 'https://a.example/2'],
    );
    assert.equal(r.result.malformed?.first, '<loc> was not closed');
  });

  it('a document cut off: the entry it cuts is not counted, and it is reported', () => {
    const r = read('<urlset>' + url('https://a.example/1') + '<url><loc>https://a.exa');
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1'],
    );
    assert.match(r.result.malformed?.first ?? '', /^the document ends inside <loc>$/);
    assert.equal(r.result.malformed?.count, 3);
    const afterLoc = read('<urlset>' + '<url><loc>https://a.example/1</loc>');
    assert.deepEqual(afterLoc.urls, [], 'a <url> without its close tag at the end is not counted');
  });

  it('a <url> without <loc> is reported, not counted', () => {
    const r = read(urlset('<url><lastmod>2024-01-01</lastmod></url>' + url('https://a.example/ok')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/ok'],
    );
    assert.equal(r.result.malformed?.first, 'a <url> without <loc>');
  });

  it('a <loc> longer than a URL may be is not handed out, and its text is not held', () => {
    const long = 'https://a.example/' + 'x'.repeat(3000);
    const r = read(urlset(url(long) + url('https://a.example/short')), 512);
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/short'],
    );
    assert.equal(r.result.tooLong, 1);
  });
});

describe('SitemapReader: the sitemaps.org limits', () => {
  it(`${SITEMAP_MAX_URLS_PER_FILE.toLocaleString('en-US')} entries are read; one more stops the file`, () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => url(`https://a.example/p${i}`)).join('');
    const at = read(urlset(entries(SITEMAP_MAX_URLS_PER_FILE)), 65_536);
    assert.equal(at.urls.length, SITEMAP_MAX_URLS_PER_FILE);
    assert.equal(at.result.stopped, undefined);
    const over = read(urlset(entries(SITEMAP_MAX_URLS_PER_FILE + 1000)), 65_536);
    assert.equal(over.urls.length, SITEMAP_MAX_URLS_PER_FILE);
    assert.equal(over.result.stopped, 'max-entries');
    assert.equal(over.result.malformed, undefined, 'stopping is not a malformation');
  });

  it('a smaller entry limit applies to indexes and text as well', () => {
    const idx = read(
      '<sitemapindex>' + '<sitemap><loc>https://a.example/s.xml</loc></sitemap>'.repeat(5) + '</sitemapindex>',
      7,
      { maxEntries: 3 },
    );
    assert.equal(idx.sitemaps.length, 3);
    assert.equal(idx.result.stopped, 'max-entries');
    const txt = read('https://a.example/1\nhttps://a.example/2\nhttps://a.example/3\n', 7, { maxEntries: 2 });
    assert.equal(txt.urls.length, 2);
    assert.equal(txt.result.stopped, 'max-entries');
  });

  it(`bytes past ${SITEMAP_MAX_BYTES_PER_FILE.toLocaleString('en-US')} are not read; what came before counts`, () => {
    const entry = url('https://a.example/page-with-a-fairly-long-path/0123456789', '2024-01-01');
    const n = Math.ceil((SITEMAP_MAX_BYTES_PER_FILE + 5 * 1024 * 1024) / entry.length);
    const body = Buffer.from(urlset(entry.repeat(n)));
    // Chunks that do not divide 50 MiB: the limit falls inside one, whose entries before it still count.
    for (const size of [1_000_000, 65_536]) {
      const r = read(body, size, { maxEntries: Number.MAX_SAFE_INTEGER });
      assert.equal(r.result.stopped, 'max-bytes');
      assert.equal(r.result.bytes, SITEMAP_MAX_BYTES_PER_FILE);
      const whole = Math.floor((SITEMAP_MAX_BYTES_PER_FILE - urlset('').indexOf('</urlset>')) / entry.length);
      assert.equal(r.urls.length, whole, `chunks of ${size}`);
    }
  });
});

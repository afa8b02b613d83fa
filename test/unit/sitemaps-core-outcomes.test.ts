/**
 * What a sitemap file's outcome means and what the report says (src/core/sitemaps: fileErrors.ts, report.ts):
 * redirects, final statuses, an index's children, a body's errors and the caps on a run, and a host's roots.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  capReached,
  hostRoots,
  indexChildren,
  newFileReport,
  readErrors,
  redirectStep,
  statusError,
} from '../../src/core/sitemaps';

describe('what a file outcome means (fileErrors.ts)', () => {
  const hops = new Set(['https://a.example/s.xml', 'https://a.example/t.xml']);
  const step = (o: Partial<Parameters<typeof redirectStep>[0]>) =>
    redirectStep({
      status: 301,
      from: 'https://a.example/t.xml',
      location: 'https://a.example/u.xml#top',
      raw: '/u.xml#top',
      followed: true,
      hops,
      redirects: 1,
      ...o,
    });

  it('a redirect is followed (fragment dropped) unless it loops, goes past five, or has no usable target', () => {
    assert.deepEqual(step({}), { follow: 'https://a.example/u.xml' });
    const message = (o: Partial<Parameters<typeof redirectStep>[0]>) => {
      const r = step(o);
      assert.ok('error' in r);
      assert.equal(r.error.code, 'redirect');
      return r.error.message;
    };
    assert.equal(message({ location: undefined, raw: undefined }), '301 with no Location header');
    assert.equal(message({ location: undefined, raw: 'http://[x' }), '301 with an unusable Location "http://[x"');
    assert.equal(message({ location: 'ftp://a.example/x' }), '301 to ftp://a.example/x, which is not http(s)');
    assert.equal(
      message({ location: 'https://a.example/s.xml', status: 302 }),
      'redirect loop: 302 from https://a.example/t.xml back to https://a.example/s.xml',
    );
    assert.equal(
      message({ redirects: 5, status: 307 }),
      'more than 5 redirects (the next was 307 to https://a.example/u.xml)',
    );
    assert.match(
      message({ status: 300, followed: false }),
      /^300 to https:\/\/a\.example\/u\.xml: a status that is not followed/,
    );
  });

  it('a final status: no-sitemap for the /sitemap.xml fallback answering 4xx, else http-status with redirects and attempts', () => {
    const listed = { ...newFileReport('https://a.example/s.xml', 'robots.txt', 0) };
    const fallback = { ...newFileReport('https://a.example/sitemap.xml', 'fallback', 0) };
    assert.deepEqual(statusError(fallback, 404, 1), {
      code: 'no-sitemap',
      message: 'robots.txt names no sitemap, and https://a.example/sitemap.xml answered 404',
    });
    assert.equal(statusError(fallback, 429, 3).code, 'http-status', 'a 429 is not "no sitemap"');
    assert.equal(statusError(listed, 404, 1).message, '404: the sitemap was not served');
    assert.equal(statusError(listed, 503, 3).message, '503: the sitemap was not served; 3 attempts');
    const moved = { ...listed, redirects: [{ status: 301, to: 'https://a.example/t.xml' }] };
    assert.equal(statusError(moved, 500, 1).message, '500: the sitemap was not served (after 1 redirect)');
  });

  it("an index's children: in order, once, the loop and the too deep apart, not-URLs counted", () => {
    const r = indexChildren(
      [
        'https://a.example/1.xml',
        'https://a.example/1.xml#x',
        'https://a.example/top.xml',
        'not a url',
        'https://a.example/2.xml',
      ],
      { chain: ['https://a.example/mid.xml', 'https://a.example/top.xml'], depth: 1 },
    );
    assert.deepEqual(r.follow, ['https://a.example/1.xml', 'https://a.example/2.xml']);
    assert.deepEqual(
      r.errors.map((e) => e.code),
      ['loop', 'malformed'],
    );
    const deep = indexChildren(['https://a.example/1.xml', 'https://a.example/2.xml'], { chain: ['x'], depth: 2 });
    assert.deepEqual(deep.follow, []);
    assert.match(deep.errors[0]!.message, /^2 child sitemaps not followed: sitemaps are followed at most 2 levels/);
  });

  it('a body read: its errors, and whether a cap on the run was reached in it', () => {
    const totals = { bytes: 1000, urls: 10 };
    const base = { format: 'urlset' as const, entries: 3, bytes: 100, tooLong: 0 };
    assert.deepEqual(readErrors(base, { gzipError: undefined, tallyFull: false, totals }), {
      errors: [],
      capped: false,
    });
    const full = readErrors(base, { gzipError: undefined, tallyFull: true, totals });
    assert.equal(full.capped, true);
    assert.match(full.errors[0]!.message, /^the cap of 10 URLs per run was reached in this file/);
    const bytes = readErrors({ ...base, stopped: 'max-bytes' }, { gzipError: undefined, tallyFull: false, totals });
    assert.deepEqual([bytes.capped, bytes.errors[0]!.code], [true, 'limit']);
    const html = readErrors(
      { ...base, format: 'other', root: 'html' },
      { gzipError: 'incorrect header check', tallyFull: false, totals },
    );
    assert.deepEqual(
      html.errors.map((e) => e.code),
      ['bad-gzip', 'not-a-sitemap'],
    );
  });
});

describe('the report (report.ts)', () => {
  const robots = (origin: string, outcome: 'ok' | 'unavailable' | 'unreachable', sitemaps: string[] = []) => ({
    origin,
    outcome,
    status: null,
    sitemaps,
    crawlDelaySeconds: null,
  });

  it("a host's roots: its robots.txt Sitemap lines, else /sitemap.xml of each reachable origin, else none", () => {
    assert.deepEqual(
      hostRoots([robots('https://a.example', 'ok', ['https://cdn.example/s.xml']), robots('http://a.example', 'ok')]),
      { source: 'robots.txt', files: [{ url: 'https://cdn.example/s.xml', via: 'robots.txt' }] },
    );
    assert.deepEqual(
      hostRoots([robots('https://a.example', 'unavailable'), robots('http://a.example', 'unreachable')]),
      {
        source: 'fallback',
        files: [{ url: 'https://a.example/sitemap.xml', via: 'fallback' }],
      },
    );
    assert.deepEqual(hostRoots([robots('https://a.example', 'unreachable', ['https://a.example/s.xml'])]), {
      source: 'none',
      files: [],
    });
  });

  it('the caps on the run, in the order they are checked', () => {
    const totals = { files: 2, urls: 10, bytes: 100 };
    assert.equal(capReached({ filesStarted: 1, bytesRead: 0, tallyFull: false }, totals), undefined);
    assert.equal(capReached({ filesStarted: 2, bytesRead: 0, tallyFull: false }, totals), 'the cap of 2 files per run');
    assert.equal(
      capReached({ filesStarted: 2, bytesRead: 100, tallyFull: false }, totals),
      'the cap of 100 bytes per run',
    );
    assert.equal(
      capReached({ filesStarted: 2, bytesRead: 100, tallyFull: true }, totals),
      'the cap of 10 URLs per run',
    );
  });
});

/**
 * Loopback sitemap servers and a sizing run, for the sitemaps-*.test.ts files (src/net/sitemaps.ts over real
 * servers): `server` starts one (on 127.0.0.N when this machine routes it, else 127.0.0.1, each server on its own
 * port), the handlers and bodies the tests serve (XML, gzip, a urlset, an index, a robots.txt), `size` with a short
 * delay, and readers of a host's report. Call `useSitemapServers()` once at the top of a test file: it checks the
 * addresses before the file's tests and closes every server after them.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { sizeFromSitemaps, type SitemapSizingOptions } from '../../src/net/sitemaps';
import type { SitemapHostReport, SitemapSizing } from '../../src/core/sitemaps';
import { canListenOn, startLoopback, text, type LoopbackHandler, type LoopbackServer } from './loopback';

/** Each test's time limit. */
export const T = { timeout: 60_000 };
const FAST: Partial<SitemapSizingOptions> = { delaySeconds: 0.01 };

let loopbackHosts = false;
const servers: LoopbackServer[] = [];

/** Checks for 127.0.0.N before the calling file's tests; closes every server `server` started after them. */
export function useSitemapServers(): void {
  before(async () => {
    loopbackHosts = await canListenOn('127.0.0.22');
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
}

/** 127.0.0.N when this machine routes it (Linux), else 127.0.0.1 for all (each server its own port). */
export function hostsAvailable(): boolean {
  return loopbackHosts;
}

/** A loopback server on `host` (127.0.0.1 when 127.0.0.N is not routed), closed after the file's tests. */
export async function server(
  host = '127.0.0.1',
  routes: Record<string, LoopbackHandler> = {},
): Promise<LoopbackServer> {
  const srv = await startLoopback({ host: loopbackHosts ? host : '127.0.0.1', routes });
  servers.push(srv);
  return srv;
}

export const xml = (body: string, headers: Record<string, string> = {}): LoopbackHandler =>
  text(200, body, { 'content-type': 'application/xml', ...headers });
export const gz = (body: string, headers: Record<string, string> = {}): LoopbackHandler =>
  text(200, zlib.gzipSync(body), { 'content-type': 'application/gzip', ...headers });
export const urlset = (locs: readonly string[], lastmod?: (i: number) => string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((l, i) => `<url><loc>${l}</loc>${lastmod ? `<lastmod>${lastmod(i)}</lastmod>` : ''}</url>`)
    .join('\n')}\n</urlset>\n`;
export const index = (locs: readonly string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
export const robots = (...lines: string[]) => text(200, ['User-agent: *', ...lines, ''].join('\n'));

/** Sizes `inputs` from their sitemaps as SizeBot, 10 ms between requests to a host unless `options` say otherwise. */
export function size(inputs: string[], options: Partial<SitemapSizingOptions> = {}): Promise<SitemapSizing> {
  return sizeFromSitemaps(inputs, { productToken: 'SizeBot', userAgentHeader: 'SizeBot/1.0', ...FAST, ...options });
}

/** The report of `srv`'s host (asserting there is one). */
export function hostOf(s: SitemapSizing, srv: LoopbackServer): SitemapHostReport {
  const h = s.hosts.find((x) => x.host === new URL(srv.origin).host);
  assert.ok(h, `no report for ${srv.origin}`);
  return h;
}

export const codes = (h: SitemapHostReport) => h.errors.map((e) => e.code);
export const pages = (srv: LoopbackServer, prefix: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => srv.url(`${prefix}${from + i}`));

/**
 * Sitemap sizing for the planner view ("Size from sitemaps", docs/extension.md §Pages from sitemaps): which
 * seed URLs to size, each host's pages from the `SitemapSizing` the injected `sizeFromSitemaps` returns
 * (src/net/sitemaps.ts), and the sizing as the webview is sent it, trimmed. Pure.
 */
import type { PagesUnknown } from '../../core/plan/types';
import type { SitemapSizing } from '../../core/sitemaps/sizing';
import type { RobotsCache } from '../../net/robotsCache';
import type { SitemapSizingOptions } from '../../net/sitemaps';
import type { SitemapHostView, SitemapsView } from '../../shared/planner/viewModel';
import type { SizeSitemapsOptions } from './deps';
import { cut, MAX_TEXT, MAX_URL } from './robotsResults';

/** Origins sized at most per request (a seeds list may name a thousand hosts; each costs polite requests). */
export const MAX_SITEMAP_ORIGINS = 50;
/** Errors listed per host (the count says how many there are). */
export const MAX_SITEMAP_ERRORS_SHOWN = 5;

/**
 * The URLs to size: one seed URL per origin (each stands for its origin), of the first
 * {@link MAX_SITEMAP_ORIGINS} origins whose host is not dropped, and how many origins were left out.
 */
export function sitemapTargets(
  seeds: ReadonlyArray<{ url: string; origin: string; host: string }>,
  dropped: readonly string[] = [],
): { urls: string[]; omittedOrigins: number } {
  const skip = new Set(dropped);
  const first = new Map<string, string>();
  for (const s of seeds) if (!skip.has(s.host) && !first.has(s.origin)) first.set(s.origin, s.url);
  const urls = [...first.values()];
  return { urls: urls.slice(0, MAX_SITEMAP_ORIGINS), omittedOrigins: Math.max(0, urls.length - MAX_SITEMAP_ORIGINS) };
}

/**
 * The options `sizeFromSitemaps` (src/net/sitemaps.ts) gets for the planner's request: the form's product
 * token and delay, the settings' Crawl-delay policy, the header with the contact, the robots.txt timeout
 * setting, the robots.txt cache the planner's check fills, and the progress callback.
 */
export function sitemapSizingOptions(
  options: Omit<SizeSitemapsOptions, 'signal'>,
  context: {
    userAgentHeader: string;
    robotsTimeoutSeconds: number;
    cache?: RobotsCache;
    /** The HTTP options of every fetch (`crawlPlanner.resolve`). */
    http?: SitemapSizingOptions['http'];
  },
): SitemapSizingOptions {
  return {
    productToken: options.userAgent,
    userAgentHeader: context.userAgentHeader,
    delaySeconds: options.delaySeconds,
    crawlDelayPolicy: options.crawlDelayPolicy,
    maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
    ...(options.changedSince !== undefined ? { changedSince: options.changedSince } : {}),
    timeouts: { robotsSeconds: context.robotsTimeoutSeconds },
    ...(context.cache !== undefined ? { cache: context.cache } : {}),
    ...(context.http?.resolve !== undefined ? { http: context.http } : {}),
    onFile: options.onFile,
  };
}

/**
 * The sizing as the webview is sent it: plain data, errors and texts cut. `pages` is what the form gives each
 * host after the sizing (its count, or a number it already had); `unknown` why a host's sizing gave no count
 * (sizingPages, src/core/sitemaps/sizing.ts).
 */
export function toSitemapsView(
  sizing: SitemapSizing,
  pages: Readonly<Record<string, number>>,
  omittedOrigins = 0,
  unknown: Readonly<Record<string, PagesUnknown>> = {},
): SitemapsView {
  return {
    userAgent: cut(sizing.productToken, MAX_TEXT),
    changedSince: sizing.changedSince,
    complete: sizing.complete,
    requests: sizing.requests,
    omittedOrigins,
    hosts: sizing.hosts.map((h): SitemapHostView => ({
      host: cut(h.host, MAX_URL),
      urls: h.urls,
      disallowed: h.disallowed,
      otherHostUrls: h.otherHosts.urls,
      files: h.files,
      source: h.source,
      intervalSeconds: h.intervalSeconds,
      lastmod: {
        newest: h.lastmod.newest,
        oldest: h.lastmod.oldest,
        last7d: h.lastmod.last7d,
        last30d: h.lastmod.last30d,
        last365d: h.lastmod.last365d,
        undated: h.lastmod.undated,
      },
      changedSince: h.changedSince,
      pages: Object.hasOwn(pages, h.host) ? pages[h.host]! : null,
      unknown: Object.hasOwn(unknown, h.host)
        ? { code: cut(unknown[h.host]!.code, MAX_TEXT), reason: cut(unknown[h.host]!.reason, MAX_TEXT) }
        : null,
      errors: h.errors.slice(0, MAX_SITEMAP_ERRORS_SHOWN).map((e) => ({
        code: e.code,
        url: e.url === null ? null : cut(e.url, MAX_URL),
        message: cut(e.message, MAX_TEXT),
      })),
      errorCount: h.errors.length,
    })),
  };
}

/**
 * Sitemap sizing, the pure half: reading sitemap files as they stream in (parse.ts), `<lastmod>` dates
 * (lastmod.ts), counting URLs per host with robots.txt verdicts (tally.ts), the limits (limits.ts), the
 * report's shape (sizing.ts), what a file's outcome means as an error (fileErrors.ts) and the report put
 * together (report.ts). src/net/sitemaps.ts (and src/net/sitemapSizing/) fetches the files through the crawl engine. See
 * docs/sitemaps.md.
 */
export * from './limits';
export { parseChangedSince, parseLastmod } from './lastmod';
export {
  SitemapReader,
  type SitemapFormat,
  type SitemapReadResult,
  type SitemapReaderOptions,
  type SitemapSink,
} from './parse';
export {
  acceptingHosts,
  OTHER_HOSTS_SHOWN,
  SitemapTally,
  type AddOutcome,
  type LastmodSummary,
  type OriginRobots,
  type SitemapHostCounts,
  type TallyOptions,
} from './tally';
export * from './sizing';
export * from './fileErrors';
export * from './report';

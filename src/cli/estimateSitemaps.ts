/**
 * `estimate --sitemaps`: each seed host's pages from its sitemaps (src/net/sitemaps.ts), a typed number
 * (`--pages-for HOST=N`) overriding one host's count, `--pages-per-host N` for the hosts whose sitemaps could
 * not be read, and with `--changed-since D` only the URLs whose lastmod is on or after D (a recrawl).
 * Kept apart from planFromOptions.ts, which only calls `sitemapsStep` and prints `formatSitemapsSection`.
 */
import { formatNumber } from '../core/format/duration';
import { sanitizeText } from '../core/format/table';
import { unknownPagesOf, type ByHostTarget } from '../core/plan/pages';
import type { PagesUnknown } from '../core/plan/types';
import { sizingPages, type SitemapSizing } from '../core/sitemaps';
import { UsageError } from './args';
import { colors } from '../core/format/ansi';
import { sitemapNotes, sitemapTable, sizingOptions, type SizingArgs } from './sitemaps';

/** Where a host's page count came from; `none`: nowhere, its pages are unknown. */
export type PagesFrom = 'sitemaps' | 'changed-since' | 'pages-for' | 'pages-per-host' | 'none';

export interface HostPages {
  host: string;
  /** Its pages; null when they are unknown (`from: 'none'`). */
  pages: number | null;
  from: PagesFrom;
  /** Only when its pages are unknown: why (the plan's `pagesUnknown`). */
  unknown?: PagesUnknown;
}

/** The `sitemaps` section of the estimate document (null without --sitemaps). */
export interface EstimateSitemapsSection {
  /** ISO 8601, or null: with it, a host's pages are its URLs whose lastmod is on or after it. */
  changedSince: string | null;
  /** Each planned host's pages and where they came from, in host order. */
  pages: HostPages[];
  /** The sizing itself (the `crawl-planner sitemaps --json` document). */
  sizing: SitemapSizing;
}

export interface SitemapsStepOptions extends SizingArgs {
  /** Typed counts (`--pages-for`), lower-case hosts. */
  typed: Readonly<Record<string, number>>;
  /** `--pages-per-host`: for the hosts whose sitemaps could not be read. */
  fallback?: number | undefined;
}

/**
 * Sizes the seed hosts from their sitemaps and decides each one's pages: the section, and the plan's page target
 * (the counts, the typed numbers, `--pages-per-host`, and the hosts whose pages are unknown, which the plan
 * leaves out of its totals).
 */
export async function sitemapsStep(
  seeds: ReadonlyArray<{ url: string; host: string }>,
  o: SitemapsStepOptions,
): Promise<{ section: EstimateSitemapsSection; target: ByHostTarget }> {
  const { sizeFromSitemaps } = await import('../net/sitemaps.js');
  const sizing = await sizeFromSitemaps(
    seeds.map((s) => s.url),
    sizingOptions(o),
  );
  const { counts, unknown } = sizingPages(sizing);
  // The typed numbers of the hosts sized (a typed host that is no seed's, robots.txt left out, say, is not planned).
  const typed = Object.fromEntries(
    sizing.hosts.filter((h) => Object.hasOwn(o.typed, h.host)).map((h) => [h.host, o.typed[h.host]!]),
  );
  const target: ByHostTarget = {
    byHost: { ...counts, ...typed },
    ...(o.fallback !== undefined ? { otherwise: o.fallback } : {}),
    unknown,
  };
  const from = (host: string): PagesFrom =>
    Object.hasOwn(o.typed, host)
      ? 'pages-for'
      : Object.hasOwn(counts, host)
        ? o.changedSince !== undefined
          ? 'changed-since'
          : 'sitemaps'
        : 'pages-per-host';
  const pages: HostPages[] = sizing.hosts.map((h) => {
    const why = unknownPagesOf(target, h.host);
    if (why !== undefined) return { host: h.host, pages: null, from: 'none', unknown: why };
    return { host: h.host, pages: target.byHost[h.host] ?? target.otherwise ?? 0, from: from(h.host) };
  });
  return { section: { changedSince: sizing.changedSince, pages, sizing }, target };
}

/** The section printed before the plan table: the sizing, then where each host's pages come from. */
export function formatSitemapsSection(section: EstimateSitemapsSection, color: boolean): string {
  const s = colors(color);
  const { sizing } = section;
  const lines = [
    `${s.bold('Sitemaps')} for ${sanitizeText(sizing.productToken)} (User-Agent: ${sanitizeText(sizing.userAgent)})`,
  ];
  lines.push(...sitemapTable(sizing, s, '  '));
  for (const h of sizing.hosts) lines.push(...sitemapNotes(h, s, '  '));
  const since = section.changedSince?.slice(0, 10);
  lines.push(
    since !== undefined
      ? `  Pages: each host's URLs changed since ${since} by their lastmod (a recrawl); URLs without lastmod are not counted.`
      : "  Pages: each host's sitemap URLs that robots.txt allows.",
  );
  for (const p of section.pages) {
    if (p.from === 'pages-for')
      lines.push(`  ${sanitizeText(p.host)}: ${formatNumber(p.pages ?? 0)} pages as typed (--pages-for)`);
    else if (p.from === 'pages-per-host')
      lines.push(`  ${sanitizeText(p.host)}: no sitemap read, ${formatNumber(p.pages ?? 0)} pages (--pages-per-host)`);
    else if (p.from === 'none')
      lines.push(
        `  ${s.yellow(sanitizeText(p.host))}: pages unknown (${sanitizeText(p.unknown?.reason ?? 'no sitemap read')}); set them with --pages-for ${sanitizeText(p.host)}=N or --pages-per-host N`,
      );
  }
  if (!sizing.complete) lines.push(`  ${s.yellow('A cap on the sizing was reached: these counts are lower bounds.')}`);
  return lines.join('\n') + '\n\n';
}

/** --pages with --sitemaps is ambiguous; --changed-since needs the sitemaps; --pages-for needs a default. */
export function checkPagesOptions(v: {
  sitemaps?: boolean;
  pages?: string;
  'pages-per-host'?: string;
  'pages-for'?: string[];
  'changed-since'?: string;
}): void {
  if (v['changed-since'] !== undefined && !v.sitemaps)
    throw new UsageError('--changed-since: only with --sitemaps (it reads the lastmod of each sitemap URL)');
  if (v['pages-for'] !== undefined && v.pages !== undefined)
    throw new UsageError('--pages-for: not with --pages (a total is spread evenly; use --pages-per-host)');
  if (v.sitemaps && v.pages !== undefined)
    throw new UsageError(
      "--pages: not with --sitemaps (the sitemaps give each host's pages; type one host's with --pages-for HOST=N)",
    );
  if (v['pages-for'] !== undefined && !v.sitemaps && v['pages-per-host'] === undefined) {
    throw new UsageError('--pages-for: needs --sitemaps or --pages-per-host for the other hosts');
  }
}

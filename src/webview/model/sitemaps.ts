/**
 * Pages from sitemaps as pure functions: the "Changed since" field (what it offers, why a text cannot be
 * read), the line above the sizing's results, a card per host, and whether the sizing can start.
 */
import { formatNumber } from '../../core/format/duration';
import { plural } from '../../core/format/text';
import { parseChangedSince } from '../../core/sitemaps/lastmod';
import { assertNever } from '../../shared/messageChecks';
import type { SitemapHostView, SitemapsState, SitemapsView } from '../../shared/planner/viewModel';

/** The choices the "Changed since" field offers (anything parseChangedSince reads may be typed). */
export const CHANGED_SINCE_CHOICES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '7d', label: 'changed in the last 7 days' },
  { value: '30d', label: 'changed in the last 30 days' },
  { value: '365d', label: 'changed in the last 365 days' },
];

/** Why the "Changed since" text cannot be read (as `--changed-since` reads it), or undefined ('' is every URL). */
export function changedSinceProblem(text: string, now: number): string | undefined {
  if (text.trim() === '') return undefined;
  const read = parseChangedSince(text, now);
  return 'problem' in read ? read.problem : undefined;
}

/** The line above the sizing's results: under way, done, failed. */
export function sitemapsStatusText(state: SitemapsState): string {
  switch (state.state) {
    case 'off':
      return '';
    case 'loading':
      return `Reading the sitemaps of ${plural(state.origins, 'origin')}… ${plural(state.files, 'file')}, ${plural(state.urls, 'URL')} so far.`;
    case 'error':
      return state.message;
    case 'done': {
      const s = state.sitemaps;
      const sized = s.hosts.filter((h) => h.unknown === null).length;
      const unknown = s.hosts.filter((h) => h.unknown !== null && h.pages === null).length;
      let text = `Sized ${plural(sized, 'host')} of ${formatNumber(s.hosts.length)} from their sitemaps (${plural(s.requests, 'request')}, as “${s.userAgent}”).`;
      if (unknown > 0)
        text += ` ${unknown === 1 ? "1 host's pages are" : `${formatNumber(unknown)} hosts' pages are`} unknown: the plan leaves ${unknown === 1 ? 'it' : 'them'} out until ${unknown === 1 ? 'it has' : 'they have'} a number.`;
      if (s.changedSince !== null) text += ` Pages: the URLs changed since ${s.changedSince.slice(0, 10)} (a recrawl).`;
      if (!s.complete) text += ' A cap on the run was reached: the counts are lower bounds.';
      if (s.omittedOrigins > 0)
        text += ` ${plural(s.omittedOrigins, 'more origin was', 'more origins were')} not sized (limit per run).`;
      return text;
    }
    default:
      return assertNever(state);
  }
}

export interface SitemapHostItem {
  host: string;
  /**
   * "Pages: 1,200"; for a host the sizing could not count, "Pages unknown: <why>. <what to do>" or, when the form
   * already gives it a number, that it keeps it.
   */
  pagesText: string;
  /** The sizing gave no count for the host and the form gives it none: its pages are unknown. */
  pagesUnknown: boolean;
  /** "1,250 URLs · 50 disallowed · 3 on other hosts · 2 files (from robots.txt)" */
  countsText: string;
  /** "lastmod 2023-01-02 to 2024-05-01 · 10 in the last 7 days, 50 in 30, 200 in 365 · 4 undated", or none. */
  lastmodText?: string;
  /** "120 changed since 2024-05-01" */
  changedText?: string;
  /** One line per error (untrusted: rendered as text), and how many are not listed. */
  errors: Array<{ code: string; text: string; url: string | null }>;
  errorsMore?: string;
}

const SOURCE_TEXT: Readonly<Record<SitemapHostView['source'], string>> = {
  'robots.txt': 'named in robots.txt',
  fallback: '/sitemap.xml',
  none: 'no sitemap found',
};

/** What the card says of a host's pages: its count, or why there is none and what then. */
function pagesText(h: SitemapHostView): string {
  if (h.unknown === null) return h.pages === null ? 'No sitemap read.' : `Pages: ${formatNumber(h.pages)}`;
  const why = h.unknown.reason.replace(/[.\s]+$/, '');
  if (h.pages !== null) return `No count (${why}): it keeps the ${plural(h.pages, 'page')} the form gives it.`;
  return `Pages unknown: ${why}. Type its pages under Pages by host (or a number for the other hosts); until then the plan leaves it out of the total.`;
}

export function sitemapHostItems(view: SitemapsView): SitemapHostItem[] {
  return view.hosts.map((h) => {
    const counts = [
      plural(h.urls, 'URL'),
      `${formatNumber(h.disallowed)} disallowed`,
      `${formatNumber(h.otherHostUrls)} on other hosts`,
      `${plural(h.files, 'file')} (${SOURCE_TEXT[h.source]})`,
    ];
    const item: SitemapHostItem = {
      host: h.host,
      pagesText: pagesText(h),
      pagesUnknown: h.unknown !== null && h.pages === null,
      countsText: counts.join(' · '),
      errors: h.errors.map((e) => ({ code: e.code, text: e.message, url: e.url })),
    };
    const l = h.lastmod;
    if (l.newest !== null && l.oldest !== null) {
      const parts = [
        `lastmod ${l.oldest.slice(0, 10)} to ${l.newest.slice(0, 10)}`,
        `${formatNumber(l.last7d)} in the last 7 days, ${formatNumber(l.last30d)} in 30, ${formatNumber(l.last365d)} in 365`,
      ];
      if (l.undated > 0) parts.push(`${formatNumber(l.undated)} undated`);
      item.lastmodText = parts.join(' · ');
    } else if (h.urls > 0) item.lastmodText = 'No lastmod dates.';
    if (h.changedSince !== null && view.changedSince !== null)
      item.changedText = `${formatNumber(h.changedSince)} changed since ${view.changedSince.slice(0, 10)}`;
    const more = h.errorCount - h.errors.length;
    if (more > 0) item.errorsMore = `and ${plural(more, 'more error')} (in the log)`;
    return item;
  });
}

/** Whether "Size from sitemaps" is off: in an untrusted workspace, with a "Changed since" it cannot read, or no valid seed. */
export function sizeSitemapsDisabled(trusted: boolean, changedSince: string | undefined, validSeeds: number): boolean {
  return !trusted || changedSince !== undefined || validSeeds === 0;
}

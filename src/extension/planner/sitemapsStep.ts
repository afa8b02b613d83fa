/**
 * The planner's sitemaps step (Size from sitemaps): the seed hosts sized from their sitemaps through the injected
 * `sizeFromSitemaps`, each sized host's count becoming its pages, and the hosts whose sizing gave no count kept
 * with why (`unknownPages`): the plan leaves such a host out (its pages are unknown) until the form gives it a
 * number. A newer sizing supersedes the one running (aborted, its result dropped); Cancel stops it and keeps the
 * form.
 */
import type { PlannerForm } from '../../shared/planner/form';
import { MAX_PAGES_BY_HOST } from '../../shared/planner/limits';
import type { SitemapsState } from '../../shared/planner/viewModel';
import type { PagesUnknown } from '../../core/plan/types';
import { sizingPages, type SitemapSizing } from '../../core/sitemaps/sizing';
import { parseChangedSince } from '../../core/sitemaps/lastmod';
import { CancellableRun } from './cancellableRun';
import type { StepHost } from './deps';
import { errorText } from './deliver';
import { effectiveDelay, effectiveUserAgent } from './planning';
import { sitemapTargets, toSitemapsView } from './sitemapsResults';

/** Sitemap sizing progress is posted at most this often. */
const SITEMAP_PROGRESS_MS = 200;

/**
 * The form with each sized host's count as its pages: the form goes to `byHost`, each sized host gets its number
 * (a host whose sitemaps could not be read keeps what it had). Over the form's limit, the numbers of hosts that
 * are no longer seeds make room first, then the oldest.
 */
export function formWithSitemapPages(
  form: PlannerForm,
  pages: Readonly<Record<string, number>>,
  seedHosts: ReadonlySet<string>,
): PlannerForm {
  const pagesByHost = form.pagesMode === 'byHost' ? { ...form.pagesByHost, ...pages } : { ...pages };
  let over = Object.keys(pagesByHost).length - MAX_PAGES_BY_HOST;
  for (const any of [false, true]) {
    for (const host of Object.keys(pagesByHost)) {
      if (over <= 0 || Object.hasOwn(pages, host) || (!any && seedHosts.has(host))) continue;
      delete pagesByHost[host];
      over--;
    }
  }
  // From "in total", the hosts without a sitemap get none (as estimate --sitemaps); "per host" stays their number.
  const others = form.pagesMode === 'byHost' ? form.pages : form.pagesMode === 'perHost' ? form.pages : null;
  return { ...form, pagesMode: 'byHost', pagesByHost, pages: others };
}

/** What the form gives `host` after a sizing: its own number, else the one for the other hosts, else none. */
function formPages(form: PlannerForm, host: string): number | null {
  if (form.pagesMode !== 'byHost') return form.pages;
  return Object.hasOwn(form.pagesByHost, host) ? form.pagesByHost[host]! : form.pages;
}

export class SitemapsStep {
  private sitemaps: SitemapsState = { state: 'off' };
  private readonly run = new CancellableRun();
  /** The hosts the last sizing gave no count for, and why (saved with the planner). */
  private unknown: Record<string, PagesUnknown> = {};

  constructor(private readonly host: StepHost) {}

  /** Where the step stands, as the webview is sent it. */
  get state(): SitemapsState {
    return this.sitemaps;
  }

  /**
   * The hosts the last sizing could not count, with why: the plan's `pages.unknown` (a host the form gives a
   * number keeps it; src/core/plan/pages.ts decides).
   */
  unknownPages(): Readonly<Record<string, PagesUnknown>> {
    return this.unknown;
  }

  /** The hosts a saved planner had no count for (from its last sizing). */
  restore(unknown: Readonly<Record<string, PagesUnknown>>): void {
    this.unknown = { ...unknown };
  }

  /** Cancel: the sizing running stops and the pages stay as they were. */
  cancel(): void {
    if (!this.run.running) return;
    this.run.cancel();
    this.set({ state: 'off' });
    this.host.notice('info', 'Sitemap sizing stopped; the pages are as they were.');
  }

  /**
   * Sizes the seed hosts from their sitemaps (the first origins; dropped hosts' not) and makes each one's count
   * its pages (the webview is sent the new fields, `formSet`, and the counts); resolves to how it ended.
   */
  start(changedSinceText: string): Promise<SitemapsState> {
    const failed = (message: string): Promise<SitemapsState> => {
      this.set({ state: 'error', message });
      return Promise.resolve(this.sitemaps);
    };
    const { deps } = this.host;
    const sizeFromSitemaps = deps.sizeFromSitemaps;
    if (sizeFromSitemaps === undefined) return failed('Sitemap sizing is not available here.');
    if (!deps.isTrusted())
      return failed('Sitemaps are fetched only in a trusted workspace. Trust this workspace to size from sitemaps.');
    let changedSince: number | undefined;
    if (changedSinceText.trim() !== '') {
      const read = parseChangedSince(changedSinceText, Date.now());
      if ('problem' in read) return failed(`Changed since: ${read.problem}`);
      changedSince = read.ms;
    }
    const { urls, omittedOrigins } = sitemapTargets(this.host.current().seeds.validation.seeds, this.host.dropped());
    if (urls.length === 0) return failed('No valid seed URL to size from sitemaps.');
    const run = this.run.start();
    const form = this.host.form();
    const settings = deps.getSettings();
    const progress = { state: 'loading' as const, origins: urls.length, files: 0, urls: 0 };
    this.set({ ...progress });
    let lastPost = 0;
    let pending: PromiseLike<SitemapSizing>;
    try {
      pending = sizeFromSitemaps(urls, {
        userAgent: effectiveUserAgent(form, settings),
        delaySeconds: effectiveDelay(form, settings),
        crawlDelayPolicy: settings.crawlDelayPolicy,
        maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
        ...(changedSince !== undefined ? { changedSince } : {}),
        signal: run.signal,
        onFile: (file) => {
          if (!run.current) return;
          progress.files++;
          if (file.format !== 'sitemapindex') progress.urls += file.entries;
          // A progress line at most every 200 ms: an index of a thousand files is a thousand callbacks.
          const now = Date.now();
          if (now - lastPost >= SITEMAP_PROGRESS_MS) {
            lastPost = now;
            this.set({ ...progress });
          }
        },
      });
    } catch (err) {
      pending = Promise.reject(err);
    }
    return Promise.resolve(pending).then(
      (sizing) => {
        if (!run.finish() || this.host.isDisposed()) return this.sitemaps;
        this.sized(sizing, omittedOrigins);
        return this.sitemaps;
      },
      (err: unknown) => {
        if (!run.finish() || this.host.isDisposed()) return this.sitemaps;
        this.host.log(`sitemap sizing failed: ${errorText(err)}`);
        this.set({ state: 'error', message: `Sitemap sizing failed: ${errorText(err)}` });
        return this.sitemaps;
      },
    );
  }

  dispose(): void {
    this.run.dispose();
  }

  private set(state: SitemapsState): void {
    this.sitemaps = state;
    this.host.send({ type: 'sitemapsState', sitemaps: state });
  }

  private sized(sizing: SitemapSizing, omittedOrigins: number): void {
    // One reading of a sizing for the CLI and the sidebar: each host's count, or why its pages are unknown.
    const { counts, unknown } = sizingPages(sizing);
    const sized = Object.keys(counts).length;
    this.unknown = unknown;
    // Saved with the form (changeForm saves).
    if (sized > 0)
      this.host.changeForm(formWithSitemapPages(this.host.form(), counts, new Set(this.host.current().seeds.hosts)));
    else {
      // The form is as it was, but a host it gives no number now has unknown pages: plan again.
      this.host.invalidate();
      this.host.save();
      this.host.postPlan();
    }
    for (const h of sizing.hosts)
      this.host.log(`sitemaps of ${h.host}: ${h.urls} URLs, ${h.files} files, ${h.errors.length} errors`);
    const form = this.host.form();
    const pages: Record<string, number> = {};
    for (const h of sizing.hosts) {
      const n = formPages(form, h.host);
      if (n !== null) pages[h.host] = n;
    }
    this.set({ state: 'done', sitemaps: toSitemapsView(sizing, pages, omittedOrigins, unknown) });
    if (sized === 0) this.host.notice('error', 'No sitemap could be read: the pages are as they were.');
  }
}

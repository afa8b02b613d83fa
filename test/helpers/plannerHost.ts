/**
 * Fakes for the planner's host side (PlannerController): settings, a form and seeds, robots.txt inspections,
 * seeds files on a fake disk, and `harness`, a controller wired to a fake webview, store, clipboard and deps
 * that records what it posts, saves, logs and asks for. Used by test/unit/webview-host-*.test.ts.
 */
import { PlannerController } from '../../src/extension/planner/controller';
import type {
  InspectRobotsOptions,
  LookedUpAddresses,
  LookUpAddressesOptions,
  PlannerViewDeps,
  SeedFileRead,
  SeedFileRef,
  SeedFiles,
  SizeSitemapsOptions,
  TestCrawlRequest,
} from '../../src/extension/planner/deps';
import { defaultForm, type SavedPlanner } from '../../src/extension/planner/savedState';
import type { SitemapSizing } from '../../src/core/sitemaps/sizing';
import type { InspectedOrigin, RobotsInspection, RobotsUrlResult } from '../../src/net/robotsInspect';
import { type CrawlResultView, type PlannerViewSettings } from '../../src/shared/planner/viewModel';
import type { HostToWebview } from '../../src/shared/planner/messages';
import type { PlannerForm } from '../../src/shared/planner/form';

export const settings: PlannerViewSettings = {
  userAgent: 'CrawlPlanner/0.1 (+https://example.com/bot)',
  defaultDelaySeconds: 1,
  delayFrom: 'start',
  maxCrawlDelaySeconds: 30,
  crawlDelayPolicy: 'cap',
  maxPages: 50,
};

/** The seeds box's text: two valid seeds, a comment, a blank line and an invalid line (line 5). */
export const SEEDS = 'https://a.example/\nhttps://b.example/private/x\n# a comment\n\nnot a url';

export const form: PlannerForm = {
  pagesMode: 'perHost',
  pages: 100,
  pagesByHost: {},
  rate: null,
  workers: null,
  machines: null,
  deadlineSeconds: null,
  delaySeconds: null,
  delayFrom: 'start',
  latencySeconds: null,
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
};

/**
 * A real-shaped RobotsInspection (as src/net/robotsInspect.ts returns it): every field present, null where
 * absent; each origin and result states only what differs from an ok file with no group or Crawl-delay.
 */
export function robotsInspection(
  origins: Array<Partial<InspectedOrigin> & Pick<InspectedOrigin, 'origin'>>,
  results: Array<Partial<RobotsUrlResult> & Pick<RobotsUrlResult, 'url'>> = [],
): RobotsInspection {
  return {
    productToken: 'ExampleBot',
    origins: origins.map((o) => ({
      robotsUrl: `${o.origin}/robots.txt`,
      outcome: 'ok',
      from: 'network',
      status: null,
      redirects: [],
      bytes: null,
      truncated: false,
      fetchedAt: null,
      group: null,
      crawlDelaySeconds: null,
      crawlDelayLine: null,
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      skipped: false,
      crawlDelayAboveCap: null,
      sitemaps: [],
      findings: [],
      reason: '',
      ...o,
    })),
    results: results.map((r) => ({
      origin: new URL(r.url).origin,
      verdict: 'allowed',
      line: null,
      rule: null,
      reason: '',
      ...r,
    })),
    invalid: [],
  };
}

export function inspection(urls: string[]): RobotsInspection {
  const origins = [...new Set(urls.map((u) => new URL(u).origin))];
  return robotsInspection(
    origins.map((origin) => ({
      origin,
      status: 200,
      bytes: 50,
      fetchedAt: 0,
      group: { line: 1, lines: [1, 2, 3], userAgents: ['*'], matchedBy: 'star' },
      ...(origin === 'https://b.example' ? { crawlDelaySeconds: 10, crawlDelayLine: 2 } : {}),
      effectiveIntervalSeconds: origin === 'https://b.example' ? 10 : 1,
      intervalSource: origin === 'https://b.example' ? 'crawl-delay' : 'configured',
      sitemaps: [`${origin}/sitemap.xml`],
      reason: 'robots.txt read (HTTP 200).',
      text: 'User-agent: *\nCrawl-delay: 10\nDisallow: /private',
    })),
    urls.map((url) =>
      url.includes('/private')
        ? { url, verdict: 'disallowed', line: 3, rule: 'Disallow: /private', reason: 'Disallowed by line 3.' }
        : { url, verdict: 'allowed', reason: 'No rule matches.' },
    ),
  );
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A seeds file on a fake disk: its text (undefined: gone) and modification time. */
export interface FakeFile {
  text?: string;
  mtime: number;
}

/** SeedFiles over a map of fake files; `picked` is what the Open dialog returns. */
export function fakeFiles(disk: Map<string, FakeFile>, picked?: SeedFileRef) {
  const reads: string[] = [];
  const opened: Array<[string, number | undefined]> = [];
  const watchers = new Map<string, () => void>();
  const files: SeedFiles = {
    pick: async () => picked,
    findWorkspaceSeeds: async () =>
      [...disk.keys()]
        .filter((k) => k.endsWith('seeds.txt'))
        .map((uri) => ({ uri, label: uri.replace(/^file:\/\/\/ws\//, '') })),
    choose: async (list) => list[list.length - 1],
    read: async (ref, maxBytes): Promise<SeedFileRead> => {
      reads.push(ref.uri);
      const f = disk.get(ref.uri);
      if (f?.text === undefined) return { problem: `Cannot read ${ref.label}: the file is gone (moved or deleted?).` };
      const bytes = Buffer.byteLength(f.text);
      if (bytes > maxBytes) return { problem: `${ref.label} is too big` };
      return { text: f.text, bytes, mtime: f.mtime };
    },
    stat: async (ref) => {
      const f = disk.get(ref.uri);
      return f?.text === undefined ? undefined : { bytes: Buffer.byteLength(f.text), mtime: f.mtime };
    },
    open: async (ref, line) => void opened.push([ref.uri, line]),
    watch: (ref, changed) => {
      watchers.set(ref.uri, changed);
      return { dispose: () => watchers.delete(ref.uri) };
    },
  };
  return { files, reads, opened, watchers };
}

export function harness(
  options: {
    trusted?: boolean;
    stored?: unknown;
    /** Seeds saved by an earlier session (the box's text). */
    seeds?: string;
    /** The form saved by an earlier session. */
    form?: PlannerForm;
    inspect?: (urls: string[], o: InspectRobotsOptions) => PromiseLike<RobotsInspection>;
    /** Sitemap sizing (absent: the planner cannot size). */
    size?: (urls: string[], o: SizeSitemapsOptions) => PromiseLike<SitemapSizing>;
    files?: SeedFiles;
    /** "Check shared servers": the seed hosts looked up (absent: the planner cannot check). */
    lookUp?: (hosts: string[], o: LookUpAddressesOptions) => PromiseLike<LookedUpAddresses>;
    /** What the lookups depend on in the settings (crawlPlanner.resolve as a text). */
    addressSettings?: () => string;
    defer?: (work: () => void) => void;
    expectedLocalHosts?: ReadonlySet<string>;
  } = {},
) {
  const posted: HostToWebview[] = [];
  const logs: string[] = [];
  const saved: SavedPlanner[] = [];
  const clipboard: string[] = [];
  const crawls: Array<[string[], TestCrawlRequest]> = [];
  const opened: Array<[string, number | undefined]> = [];
  const inspections: Array<[string[], InspectRobotsOptions]> = [];
  const sizings: Array<[string[], SizeSitemapsOptions]> = [];
  const lookups: string[][] = [];
  let reports = 0;
  let exports = 0;
  let settingsListener: (() => void) | undefined;
  let crawlListener: ((crawl: CrawlResultView) => void) | undefined;
  let trusted = options.trusted ?? true;
  const deps: PlannerViewDeps = {
    getSettings: () => settings,
    isTrusted: () => trusted,
    inspectRobots: (urls, o) => {
      inspections.push([urls, o]);
      return options.inspect ? options.inspect(urls, o) : Promise.resolve(inspection(urls));
    },
    runTestCrawl: (seeds, o) => {
      crawls.push([seeds, o]);
      return Promise.resolve();
    },
    openRobots: (origin, line) => {
      opened.push([origin, line]);
    },
    openReport: () => void reports++,
    exportPlan: () => void exports++,
    ...(options.size
      ? {
          sizeFromSitemaps: (urls: string[], o: SizeSitemapsOptions) => {
            sizings.push([urls, o]);
            return options.size!(urls, o);
          },
        }
      : {}),
    ...(options.lookUp
      ? {
          lookUpAddresses: (hosts: string[], o: LookUpAddressesOptions) => {
            lookups.push(hosts);
            return options.lookUp!(hosts, o);
          },
        }
      : {}),
    ...(options.addressSettings ? { addressSettings: options.addressSettings } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.defer ? { defer: options.defer } : {}),
    ...(options.expectedLocalHosts ? { expectedLocalHosts: () => options.expectedLocalHosts! } : {}),
    log: (m) => logs.push(m),
    onDidChangeSettings: (listener) => {
      settingsListener = listener;
      return { dispose: () => (settingsListener = undefined) };
    },
    onDidEndCrawl: (listener) => {
      crawlListener = listener;
      return { dispose: () => (crawlListener = undefined) };
    },
  };
  const stored =
    options.stored ??
    (options.seeds !== undefined || options.form !== undefined
      ? { v: 2, form: options.form ?? defaultForm(settings), seedsText: options.seeds ?? '' }
      : undefined);
  const controller = new PlannerController(deps, {
    store: { load: () => stored, save: async (state) => void saved.push(structuredClone(state)) },
    writeClipboard: async (text) => void clipboard.push(text),
  });
  controller.attach((m) => {
    posted.push(structuredClone(m));
    return Promise.resolve(true);
  });
  return {
    controller,
    posted,
    logs,
    saved,
    clipboard,
    crawls,
    opened,
    inspections,
    sizings,
    lookups,
    reports: () => reports,
    exports: () => exports,
    setTrusted: (t: boolean) => (trusted = t),
    fireSettings: () => settingsListener?.(),
    endCrawl: (crawl: CrawlResultView) => crawlListener?.(crawl),
    types: () => posted.map((m) => m.type),
    last: <T extends HostToWebview['type']>(type: T) =>
      posted.filter((m) => m.type === type).at(-1) as Extract<HostToWebview, { type: T }> | undefined,
  };
}

export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `n` seed lines on `n` hosts, one per line, with a final newline (as a file copy has it). */
export const seedList = (n: number, prefix = 'host') =>
  Array.from({ length: n }, (_, i) => `https://${prefix}-${String(i).padStart(6, '0')}.example.com/`).join('\n') + '\n';

/**
 * The robots.txt service: the robots.txt caches the planner, the commands, the test crawls and the
 * editor's "Compare with live robots.txt" read from (one per User-Agent header), inspection of URLs
 * through them, and the fetched files as read-only documents (scheme ROBOTS_SCHEME; their text is
 * document.ts's).
 *
 * The cache (RFC 9309 §2.4: at most 24 h) is kept in globalState between sessions. The network modules
 * are loaded on first use, so activation stays cheap and does no I/O.
 */
import * as vscode from 'vscode';
import type { RobotsCache } from '../../net/robotsCache';
import type { RobotsInspection } from '../../net/robotsInspect';
import { sanitizeText } from '../../core/format/table';
import { resolveHttpOptions, type ConfigAccess, type CrawlPlannerSettings } from '../config';
import type { ContactGuard } from '../contact';
import { ROBOTS_SCHEME } from '../ids';
import { errorMessage, type Log } from '../log';
import { renderRobotsDocument, type RenderedRobotsDocument } from './document';

/** globalState key of the saved cache. */
export const ROBOTS_CACHE_STATE_KEY = 'crawlPlanner.robotsCache';
/** A saved cache larger than this is not kept (globalState is not for big blobs). */
const MAX_SAVED_CACHE_CHARS = 2_000_000;
/** Caches kept at once (one per User-Agent header in use). */
const MAX_CACHES = 4;

export interface InspectRequest {
  urls: string[];
  /** Defaults: the settings' user agent, delay, Crawl-delay policy and cap. */
  productToken?: string;
  configuredDelaySeconds?: number;
  crawlDelayPolicy?: CrawlPlannerSettings['crawlDelayPolicy'];
  maxCrawlDelaySeconds?: number;
  signal?: AbortSignal;
}

export interface RobotsService {
  /** Fetches (through the cache) and explains robots.txt for the URLs. */
  inspect(request: InspectRequest): Promise<RobotsInspection>;
  /** The cache whose fetches send `userAgentHeader` (one per header, kept while in use). */
  cacheFor(userAgentHeader: string): Promise<RobotsCache>;
  /** Opens one origin's document from an inspection; `line` is a line of robots.txt (1-based). */
  show(inspection: RobotsInspection, origin: string, line?: number): Promise<vscode.TextEditor>;
  /** Fetches (through the cache) the robots.txt of `originOrUrl` and opens it, at `line` if given. */
  open(originOrUrl: string, line?: number): Promise<vscode.TextEditor>;
}

export interface RobotsServiceDeps {
  config: ConfigAccess;
  /** Asks for a contact before a fetch reaches a real host without one. */
  contact: ContactGuard;
  log: Log;
}

/** The document for an origin: `crawl-planner-robots:/a.example:8080/robots.txt?https%3A%2F%2Fa.example%3A8080`. */
export function robotsDocumentUri(origin: string): vscode.Uri {
  const host = new URL(origin).host;
  return vscode.Uri.from({ scheme: ROBOTS_SCHEME, path: `/${host}/robots.txt`, query: origin });
}

export function registerRobotsService(context: vscode.ExtensionContext, deps: RobotsServiceDeps): RobotsService {
  const documents = new Map<string, RenderedRobotsDocument>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  /** One cache per User-Agent header (the settings', a task's, the planner form's), newest last. */
  const caches = new Map<string, Promise<RobotsCache>>();

  const settings = () => deps.config.read().settings;

  const headerFor = async (s: CrawlPlannerSettings, productToken = s.userAgent): Promise<string> => {
    const { userAgentHeader } = await import('../../net/userAgent.js');
    return userAgentHeader(productToken, s.contactUrl);
  };

  const makeCache = async (header: string, saved: unknown): Promise<RobotsCache> => {
    const [{ RobotsCache: Cache }, { fetchRobots }] = await Promise.all([
      import('../../net/robotsCache.js'),
      import('../../net/robotsFetch.js'),
    ]);
    const s = settings();
    const totalMs = s.robotsTxtTimeoutSeconds * 1000;
    const timeouts = {
      connectMs: Math.min(totalMs, s.connectTimeoutSeconds * 1000),
      headersMs: totalMs,
      bodyMs: totalMs,
      totalMs,
    };
    // Each fetch connects as crawlPlanner.resolve says at the time it is made (docs/extension.md#settings).
    return Cache.fromJSON(saved ?? null, {
      fetch: (origin) => fetchRobots(origin, { userAgent: header, timeouts, http: resolveHttpOptions(settings()) }),
    });
  };

  const cacheFor = (header: string): Promise<RobotsCache> => {
    let cache = caches.get(header);
    if (cache) {
      caches.delete(header); // re-inserted below as the newest
    } else {
      // A new cache starts from what was saved for the same header (entries past 24 h are dropped).
      const saved = context.globalState.get<{ header?: unknown; cache?: unknown }>(ROBOTS_CACHE_STATE_KEY);
      cache = makeCache(header, saved?.header === header ? saved.cache : undefined);
    }
    caches.set(header, cache);
    while (caches.size > MAX_CACHES) caches.delete(caches.keys().next().value!);
    return cache;
  };

  /** Keeps the cache of the settings' header for the next session. */
  const save = async () => {
    try {
      const header = await headerFor(settings());
      const cache = caches.get(header);
      if (!cache) return;
      const json = (await cache).toJSON();
      const size = JSON.stringify(json).length;
      if (size > MAX_SAVED_CACHE_CHARS) {
        deps.log.debug(`robots.txt cache not saved: ${size} characters is over the limit`);
        return;
      }
      await context.globalState.update(ROBOTS_CACHE_STATE_KEY, { header, cache: json });
    } catch (err) {
      deps.log.warn(`robots.txt cache not saved: ${errorMessage(err)}`);
    }
  };

  const inspect = async (request: InspectRequest): Promise<RobotsInspection> => {
    const s = settings();
    const productToken = request.productToken ?? s.userAgent;
    await deps.contact.check(request.urls, 'robots.txt fetch');
    const header = await headerFor(s, productToken);
    const cache = await cacheFor(header);
    const { inspectRobots } = await import('../../net/robotsInspect.js');
    deps.log.info(`robots.txt: inspecting ${request.urls.length} URL(s) as ${productToken}`);
    const inspection = await inspectRobots(request.urls, {
      productToken,
      userAgentHeader: header,
      configuredDelaySeconds: request.configuredDelaySeconds ?? s.defaultDelaySeconds,
      crawlDelayPolicy: request.crawlDelayPolicy ?? s.crawlDelayPolicy,
      maxCrawlDelaySeconds: request.maxCrawlDelaySeconds ?? s.maxCrawlDelaySeconds,
      cache,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    for (const o of inspection.origins) deps.log.info(`robots.txt ${o.robotsUrl}: ${o.outcome} (${o.reason})`);
    void save();
    // Every document of an inspected origin shows the newest fetch.
    for (const o of inspection.origins) {
      const uri = robotsDocumentUri(o.origin);
      documents.set(uri.toString(), renderRobotsDocument(o, inspection));
      changed.fire(uri);
    }
    return inspection;
  };

  const reveal = async (uri: vscode.Uri, line: number | undefined): Promise<vscode.TextEditor> => {
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: true });
    const rendered = documents.get(uri.toString());
    if (line !== undefined && Number.isInteger(line) && line >= 1 && rendered) {
      const target = Math.min(document.lineCount - 1, rendered.offset + line - 1);
      const range = document.lineAt(target).range;
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    return editor;
  };

  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri, token) {
      const known = documents.get(uri.toString());
      if (known) return known.text;
      // A document restored from the last session (or opened by URI): fetch it again.
      const origin = uri.query;
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        await inspect({ urls: [`${origin}/`], signal: abort.signal });
        return documents.get(uri.toString())?.text ?? `# robots.txt for ${sanitizeText(origin)} could not be shown.\n`;
      } catch (err) {
        return `# robots.txt for ${sanitizeText(origin)} could not be fetched: ${sanitizeText(errorMessage(err))}\n`;
      } finally {
        sub.dispose();
      }
    },
  };

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(ROBOTS_SCHEME, provider),
    changed,
    // Forget a document's text when its editor is closed for good.
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === ROBOTS_SCHEME) documents.delete(d.uri.toString());
    }),
    { dispose: () => void save() },
  );

  return {
    inspect,
    cacheFor,
    show: async (inspection, origin, line) => {
      const o = inspection.origins.find((x) => x.origin === origin);
      if (!o) throw new Error(`${origin} is not in this inspection`);
      const uri = robotsDocumentUri(o.origin);
      documents.set(uri.toString(), renderRobotsDocument(o, inspection));
      changed.fire(uri);
      return reveal(uri, line);
    },
    open: async (originOrUrl, line) => {
      const origin = new URL(originOrUrl).origin;
      const uri = robotsDocumentUri(origin);
      if (!documents.has(uri.toString())) await inspect({ urls: [`${origin}/`] });
      return reveal(uri, line);
    },
  };
}

/**
 * One lint per document version: the diagnostics, hovers, CodeLens and quick fixes all read the same
 * parse of the buffer (`document.getText()`, saved or not). Documents of our read-only schemes are
 * parsed against their own origin; files in a workspace take the origin from the folder name, a comment
 * or the Sitemap lines when they can (see lint.ts), and otherwise leave it unknown.
 */
import * as vscode from 'vscode';
import type { EditorContext } from '../../core/robots/editor';
import { lintRobotsText, originFromPath, type OriginHint, type RobotsLint } from '../../core/robots/lint';
import { ROBOTS_LIVE_SCHEME, ROBOTS_SCHEME, ROBOTS_TXT_LANGUAGE_ID } from '../ids';
import type { RobotsTxtSettings } from './settings';

export interface DocumentAnalysis {
  lint: RobotsLint;
  /** The origin for "Compare with live robots.txt": known, and the document is not itself a fetched copy. */
  liveOrigin?: OriginHint;
}

/** True for the documents the robots.txt features serve. */
export function isRobotsTxt(document: vscode.TextDocument): boolean {
  return document.languageId === ROBOTS_TXT_LANGUAGE_ID;
}

/** Our own read-only documents: fetched copies, never edited. */
export function isReadOnlyCopy(uri: vscode.Uri): boolean {
  return uri.scheme === ROBOTS_SCHEME || uri.scheme === ROBOTS_LIVE_SCHEME;
}

/** The robots.txt URL of a fetched copy (its query is the origin), else undefined. */
function fetchedRobotsUrl(uri: vscode.Uri): string | undefined {
  if (!isReadOnlyCopy(uri)) return undefined;
  try {
    const u = new URL(uri.query);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.origin}/robots.txt` : undefined;
  } catch {
    return undefined;
  }
}

export function editorContext(s: RobotsTxtSettings): EditorContext {
  return {
    configuredDelaySeconds: s.configuredDelaySeconds,
    maxCrawlDelaySeconds: s.maxCrawlDelaySeconds,
    crawlDelayPolicy: s.crawlDelayPolicy,
    pagesForEstimate: s.pagesForEstimate,
    productToken: s.userAgent,
  };
}

/** Lints `text` as the document `uri` (the "Test URLs" command may pass another robots.txt URL). */
export function analyseText(
  uri: vscode.Uri,
  text: string,
  maxCrawlDelaySeconds: number,
  robotsUrl?: string,
): DocumentAnalysis {
  const fixed = robotsUrl ?? fetchedRobotsUrl(uri);
  const hint = fixed === undefined && uri.scheme !== 'untitled' ? originFromPath(uri.path) : undefined;
  const lint = lintRobotsText(text, {
    maxCrawlDelaySeconds,
    ...(fixed !== undefined ? { robotsUrl: fixed } : {}),
    ...(hint ? { originHint: hint } : {}),
  });
  return !isReadOnlyCopy(uri) && lint.origin && lint.origin.from !== 'option'
    ? { lint, liveOrigin: lint.origin }
    : { lint };
}

/** A cache of analyses keyed by document and version (and the cap, which changes the findings). */
export class AnalysisCache implements vscode.Disposable {
  private readonly entries = new Map<string, { version: number; cap: number; analysis: DocumentAnalysis }>();

  constructor(private readonly settings: () => RobotsTxtSettings) {}

  get(document: vscode.TextDocument): DocumentAnalysis {
    const key = document.uri.toString();
    const cap = this.settings().maxCrawlDelaySeconds;
    const hit = this.entries.get(key);
    if (hit && hit.version === document.version && hit.cap === cap) return hit.analysis;
    const analysis = analyseText(document.uri, document.getText(), cap);
    this.entries.set(key, { version: document.version, cap, analysis });
    return analysis;
  }

  forget(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }

  dispose(): void {
    this.entries.clear();
  }
}

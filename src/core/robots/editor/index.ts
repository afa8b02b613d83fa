/**
 * robots.txt in the editor, as pure position-based functions the VS Code adapter
 * (src/extension/robotsTxtEditor) turns into hovers, CodeLens, quick fixes and the "Test URLs" command.
 * One file per job: knowledge.ts (directives and well-known crawlers), crawlDelayCost.ts, hover.ts,
 * lenses.ts, quickFixes.ts, urlChecks.ts, and text.ts (line and Markdown helpers).
 *
 * Lines are 1-based and columns 0-based UTF-16 offsets, as in findings.ts.
 */
export { crawlDelayEstimate, crawlDelayLensTitle, type CrawlDelayEstimate, type EditorContext } from './crawlDelayCost';
export { hoverAt } from './hover';
export {
  crawlersCaughtBy,
  DIRECTIVES,
  directiveInfo,
  knownCrawler,
  KNOWN_CRAWLERS,
  type DirectiveInfo,
  type GroupCatch,
  type GroupCatches,
  type KnownCrawler,
} from './knowledge';
export { codeLenses, type LensKind, type LensOptions, type LensSpec } from './lenses';
export { quickFixes, type QuickFixSpec, type TextEditSpec } from './quickFixes';
export {
  robotsUrlForInputs,
  splitUrlInput,
  checkUrlsAgainstRobots,
  tokenForGroup,
  verdictMarks,
  type UrlCheck,
  type VerdictMark,
} from './urlChecks';

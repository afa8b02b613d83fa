/**
 * robots.txt core: decode (RFC 9309 §2.5 limit, BOMs), parse (lines, groups, Crawl-delay records, sitemaps,
 * findings), and verdicts (verdict() bare, explain() with the reason) from rules compiled once per file,
 * closing robots-parser's fail-open gaps. See docs/robots-txt.md.
 */
export {
  decodeRobotsBody,
  notTextReasons,
  ROBOTS_FETCH_TIMEOUT_SECONDS,
  ROBOTS_MAX_BYTES,
  type DecodedRobots,
} from './decode';
export { matchablePath, normalizeForMatch, pathAndQuery, type MatchSide } from './percentEncoding';
export {
  explain,
  explainWithOutcome,
  briefReason,
  verdict,
  verdictWithOutcome,
  groupFor,
  crawlDelayFor,
  sitemaps,
  robotsUrlFor,
  type GroupMatch,
  type GroupSelection,
  type OutcomeContext,
  type RobotsExplanation,
  type RobotsOutcome,
  type RobotsVerdict,
  type RobotsVerdictResult,
  type VerdictBasis,
} from './explain';
export {
  ROBOTS_FINDING_CODES,
  MAX_FINDINGS_PER_CODE,
  type FindingSeverity,
  type RobotsFinding,
  type RobotsFindingCode,
} from './findings';
export { loadRobotsFile, type LoadOptions } from './load';
export {
  bestMatch,
  compilePattern,
  compileRules,
  linearLongestMatch,
  linearMatch,
  matchPattern,
  type CompiledRules,
  type MatchRule,
} from './match';
export { parseRobots, type ParseOptions } from './parse';
export { largestCrawlDelay, readCrawlDelay, type CrawlDelayReading } from './crawlDelay';
export { splitRobotsLines, GOOGLE_MAX_LINE_BYTES } from './lineSyntax';
export type {
  ColumnRange,
  RobotsBodyInfo,
  RobotsCrawlDelay,
  RobotsFile,
  RobotsGroup,
  RobotsLine,
  RobotsLineKind,
  RobotsRecord,
  RobotsRule,
  RobotsSitemap,
  RobotsUserAgent,
  RuleDirective,
} from './robotsFile';
export {
  readUserAgentValue,
  resolveProductToken,
  validateProductToken,
  type ProductTokenResolution,
  type ProductTokenSource,
  type UserAgentValue,
} from './token';
export {
  inspectOrigin,
  urlResult,
  type RobotsSettings,
  type RobotsSource,
  type RobotsOriginInspection,
  type RobotsUrlResult,
} from './originInspection';

/**
 * robots.txt core: decode (RFC 9309 §2.5 limit, BOMs), parse (lines, groups, Crawl-delay, sitemaps,
 * findings), and explain (verdict + deciding line) on top of robots-parser, closing its fail-open gaps.
 * See README.md.
 */
export { decodeRobotsBody, ROBOTS_MAX_BYTES, type DecodedRobots } from './decode';
export { normalizeForMatch, type MatchSide } from './encoding';
export {
  explain,
  explainWithOutcome,
  groupFor,
  crawlDelayFor,
  sitemaps,
  robotsUrlFor,
  robotsParserInput,
  type ExplainOptions,
  type GroupMatch,
  type GroupSelection,
  type OutcomeContext,
  type RobotsExplanation,
  type RobotsOutcome,
  type RobotsVerdict,
} from './explain';
export { ROBOTS_FINDING_CODES, MAX_FINDINGS_PER_CODE, type FindingSeverity, type RobotsFinding, type RobotsFindingCode } from './findings';
export { loadRobotsFile, type LoadOptions } from './load';
export { MATCH_STEP_BUDGET, linearMatch, linearLongestMatch, robotsParserSteps, type MatchRule } from './match';
export {
  parseRobots,
  readCrawlDelay,
  splitRobotsLines,
  DEFAULT_MAX_CRAWL_DELAY_SECONDS,
  GOOGLE_MAX_LINE_BYTES,
  type ColumnRange,
  type CrawlDelayReading,
  type ParseOptions,
  type RobotsBodyInfo,
  type RobotsCrawlDelay,
  type RobotsFile,
  type RobotsGroup,
  type RobotsLine,
  type RobotsLineKind,
  type RobotsParserInstance,
  type RobotsRule,
  type RobotsSitemap,
  type RobotsUserAgent,
  type RuleDirective,
} from './parse';
export {
  readUserAgentValue,
  resolveProductToken,
  validateProductToken,
  type ProductTokenResolution,
  type ProductTokenSource,
  type UserAgentValue,
} from './token';
export { originReport, urlResult, type RobotsSettings, type RobotsSource, type RobotsOriginReport, type RobotsUrlResult } from './inspect';

/**
 * Findings: everything the robots.txt reader noticed and ignored, adjusted or distrusted, as plain data with
 * a stable kebab-case code and a 1-based line. The editor linter (diagnostics, hovers, quick fixes) builds
 * on these codes, so a code is never renamed or reused; new codes are added at the end of the list.
 */
import type { ColumnRange } from './robotsFile';

export type FindingSeverity = 'error' | 'warning' | 'info';

/** Every finding code, in a fixed order (the linter may enumerate them, e.g. for settings). */
export const ROBOTS_FINDING_CODES = [
  // Body / decoding (decodeRobotsBody)
  'utf8-bom',
  'partial-bom',
  'invalid-utf8',
  'nul-byte',
  'truncated',
  // Line syntax
  'invalid-line',
  'missing-colon',
  'directive-typo',
  'unknown-directive',
  'unsupported-directive',
  'line-too-long',
  // Groups and rules
  'rule-outside-group',
  'rule-path-not-absolute',
  'empty-allow',
  'empty-user-agent',
  'user-agent-not-a-token',
  'empty-group',
  // Crawl-delay
  'crawl-delay-outside-group',
  'crawl-delay-invalid',
  'crawl-delay-exponent',
  'crawl-delay-above-cap',
  'crawl-delay-duplicate',
  // Sitemap
  'sitemap-invalid',
  'sitemap-relative',
  'sitemap-duplicate',
  // Editor lint (lint.ts): checks on top of the parse, see docs/robots-txt-editor.md §Finding codes
  'crawl-delay-ignored-by-google',
  'rule-duplicate',
  'rule-contradictory',
  'bom-in-line',
  'replacement-character',
  // Added later (codes are only ever appended)
  'crawl-delay-scope',
  'not-text',
] as const;

export type RobotsFindingCode = (typeof ROBOTS_FINDING_CODES)[number];

export interface RobotsFinding {
  code: RobotsFindingCode;
  severity: FindingSeverity;
  /** 1-based line number in the decoded text (the BOM does not count as a line). */
  line: number;
  /**
   * 0-based start column (UTF-16 code units in the decoded line), when the finding concerns part of the
   * line: the key for directive problems, the value for value problems. Absent: the whole line.
   */
  column?: number;
  /** 0-based end column, exclusive. Present whenever `column` is. */
  endColumn?: number;
  /** One human sentence; may quote the line. */
  message: string;
}

/** At most this many findings of one code are reported; the last one says that more were left out. */
export const MAX_FINDINGS_PER_CODE = 100;

/**
 * Collects findings with the per-code cap. Hostile input (a binary body, 100k junk lines) must not turn into
 * 100k diagnostics.
 */
export class FindingSink {
  readonly list: RobotsFinding[] = [];
  private readonly counts = new Map<RobotsFindingCode, number>();

  add(finding: RobotsFinding): void {
    const n = (this.counts.get(finding.code) ?? 0) + 1;
    this.counts.set(finding.code, n);
    if (n < MAX_FINDINGS_PER_CODE) this.list.push(finding);
    else if (n === MAX_FINDINGS_PER_CODE) {
      this.list.push({
        ...finding,
        message: `${finding.message} (further "${finding.code}" findings are not reported)`,
      });
    }
  }

  /** Adds a finding on `line`: on its columns `range` when given, else on the whole line. */
  addAt(code: RobotsFindingCode, severity: FindingSeverity, line: number, message: string, range?: ColumnRange): void {
    this.add(
      range
        ? { code, severity, line, column: range.start, endColumn: range.end, message }
        : { code, severity, line, message },
    );
  }
}

/** Sorts by line, then column (whole-line findings first); stable for equal positions. */
export function sortFindings(findings: readonly RobotsFinding[]): RobotsFinding[] {
  return [...findings].sort((a, b) => a.line - b.line || (a.column ?? -1) - (b.column ?? -1));
}

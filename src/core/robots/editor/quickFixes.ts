/** quickFixes(file, finding): text edits for the findings that have one obvious repair. */
import type { RobotsFinding } from '../findings';
import { originUnknown, suggestDirective } from '../lint';
import { readCrawlDelay } from '../crawlDelay';
import type { RobotsFile, RobotsLine, RobotsUserAgent } from '../robotsFile';
import { readUserAgentValue } from '../token';
import { KIND_CANONICAL } from './knowledge';
import { clip } from '../../format/text';
import { lineText, recordOfLine, safeUrl } from './text';

export interface TextEditSpec {
  /** 1-based start line. */
  line: number;
  startColumn: number;
  /** 1-based end line when it differs from `line` (deleting a whole line). */
  endLine?: number;
  endColumn: number;
  /** Line breaks are written `\n`; the adapter uses the document's own. */
  newText: string;
}

export interface QuickFixSpec {
  title: string;
  edits: TextEditSpec[];
  isPreferred: boolean;
}

function replaceRange(line: number, range: { start: number; end: number }, newText: string): TextEditSpec {
  return { line, startColumn: range.start, endColumn: range.end, newText };
}

function deleteLine(file: RobotsFile, line: number): TextEditSpec {
  if (line < file.lines.length) return { line, startColumn: 0, endLine: line + 1, endColumn: 0, newText: '' };
  const prev = file.lines[line - 2];
  if (prev)
    return {
      line: line - 1,
      startColumn: prev.raw.length,
      endLine: line,
      endColumn: (file.lines[line - 1] as RobotsLine).raw.length,
      newText: '',
    };
  return { line, startColumn: 0, endColumn: (file.lines[line - 1] as RobotsLine).raw.length, newText: '' };
}

/** The quick fixes for one finding of `file` (from lintRobotsText); empty when there is no obvious repair. */
export function quickFixes(file: RobotsFile, finding: RobotsFinding): QuickFixSpec[] {
  const l = file.lines[finding.line - 1];
  if (!l) return [];
  const key = l.key ?? '';
  switch (finding.code) {
    case 'directive-typo': {
      const canonical = KIND_CANONICAL[l.kind];
      if (!canonical || !l.keyRange) return [];
      return [
        {
          title: `Change "${key}" to "${canonical}"`,
          edits: [replaceRange(l.line, l.keyRange, canonical)],
          isPreferred: true,
        },
      ];
    }
    case 'unknown-directive': {
      const suggestion = suggestDirective(key);
      if (!suggestion || !l.keyRange) return [];
      return [
        {
          title: `Change "${clip(key, 60)}" to "${suggestion}"`,
          edits: [replaceRange(l.line, l.keyRange, suggestion)],
          isPreferred: true,
        },
      ];
    }
    case 'missing-colon': {
      if (!l.keyRange) return [];
      const canonical = KIND_CANONICAL[l.kind];
      const typo = canonical !== undefined && key.toLowerCase() !== canonical.toLowerCase();
      return [
        {
          title: typo ? `Write "${canonical}:"` : `Add ":" after "${key}"`,
          edits: [
            typo
              ? replaceRange(l.line, l.keyRange, `${canonical}:`)
              : replaceRange(l.line, { start: l.keyRange.end, end: l.keyRange.end }, ':'),
          ],
          isPreferred: true,
        },
      ];
    }
    case 'rule-outside-group':
    case 'crawl-delay-outside-group': {
      const first = file.lines.find((x) => x.kind === 'allow' || x.kind === 'disallow' || x.kind === 'crawl-delay');
      if (!first || first.line > finding.line) return [];
      return [
        {
          title: `Add "User-agent: *" above line ${first.line}`,
          edits: [{ line: first.line, startColumn: 0, endColumn: 0, newText: 'User-agent: *\n' }],
          isPreferred: true,
        },
      ];
    }
    case 'sitemap-relative': {
      if (originUnknown(file) || !l.valueRange) return [];
      const href = safeUrl(l.value ?? '', file.robotsUrl);
      if (!href) return [];
      return [
        {
          title: `Make the Sitemap URL absolute: ${href}`,
          edits: [replaceRange(l.line, l.valueRange, href)],
          isPreferred: true,
        },
      ];
    }
    case 'rule-path-not-absolute': {
      if (!l.valueRange || !l.value) return [];
      return [
        {
          title: `Start the path with "/": /${clip(l.value, 60)}`,
          edits: [replaceRange(l.line, { start: l.valueRange.start, end: l.valueRange.start }, '/')],
          isPreferred: true,
        },
      ];
    }
    case 'user-agent-not-a-token': {
      const ua = readUserAgentValue(l.value ?? '');
      if (!l.valueRange || ua.global || ua.token === '') return [];
      const token = (l.value ?? '').slice(0, (l.value ?? '').length - ua.rest.length);
      return [
        {
          title: `Use the product token "${token}"`,
          edits: [replaceRange(l.line, l.valueRange, token)],
          isPreferred: true,
        },
      ];
    }
    case 'bom-in-line': {
      if (finding.column === undefined || finding.endColumn === undefined) return [];
      return [
        {
          title: 'Remove the invisible byte order mark (U+FEFF)',
          edits: [replaceRange(l.line, { start: finding.column, end: finding.endColumn }, '')],
          isPreferred: true,
        },
      ];
    }
    case 'rule-duplicate':
      return [{ title: 'Remove the duplicate rule', edits: [deleteLine(file, l.line)], isPreferred: true }];
    case 'crawl-delay-duplicate':
      return [
        {
          title: 'Remove this Crawl-delay line (a larger one is used)',
          edits: [deleteLine(file, l.line)],
          isPreferred: false,
        },
      ];
    case 'crawl-delay-scope': {
      // For the reading "the whole group shares it": repeat the line after every run of user-agent lines of
      // the group that has no Crawl-delay of its own.
      const record = recordOfLine(file, l.line);
      if (!record) return [];
      const bare = file.records.filter((r) => r.group === record.group && r !== record && r.crawlDelays.length === 0);
      if (bare.length === 0) return [];
      const text = lineText(l);
      const agents = bare.flatMap((r) => r.userAgents.map((ua) => ua.value || '""'));
      return [
        {
          title: `Give ${clip(agents.join(', '), 60)} the same Crawl-delay`,
          edits: bare.map((r): TextEditSpec => {
            const last = r.userAgents[r.userAgents.length - 1] as RobotsUserAgent;
            if (last.line < file.lines.length)
              return { line: last.line + 1, startColumn: 0, endColumn: 0, newText: `${text}\n` };
            const end = (file.lines[last.line - 1] as RobotsLine).raw.length;
            return { line: last.line, startColumn: end, endColumn: end, newText: `\n${text}` };
          }),
          isPreferred: false,
        },
      ];
    }
    case 'crawl-delay-exponent': {
      const reading = readCrawlDelay(l.value ?? '');
      if (!l.valueRange || reading.seconds === undefined) return [];
      const plain = plainNumber(reading.seconds);
      return plain
        ? [{ title: `Write "${plain}"`, edits: [replaceRange(l.line, l.valueRange, plain)], isPreferred: true }]
        : [];
    }
    case 'crawl-delay-invalid': {
      const m = /^\+?(\d+(?:\.\d*)?|\.\d+)\s*(?:s|secs?|seconds?)?$/i.exec(l.value ?? '');
      if (!l.valueRange || !m || m[1] === l.value) return [];
      return [
        {
          title: `Write "${m[1]}" (seconds)`,
          edits: [replaceRange(l.line, l.valueRange, m[1] as string)],
          isPreferred: true,
        },
      ];
    }
    default:
      return [];
  }
}

function plainNumber(n: number): string | undefined {
  if (!Number.isFinite(n) || n > 1e15) return undefined;
  const s = n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  return /e/i.test(s) ? undefined : s;
}

/**
 * Our own parse of robots.txt: the lines (each read by lineSyntax.ts) in order into the groups, the
 * Crawl-delay records and the sitemaps of a RobotsFile (robotsFile.ts, where groups and records are defined),
 * and a finding for every line that was ignored or read leniently. The rules of each group carry canonical
 * patterns (percentEncoding.ts), which explain.ts compiles for matching (match.ts), so the group structure and
 * the encoding are ours (robots-parser's gaps G2, G3/G4, G7, G8 cannot arise).
 */
import { clip } from '../format/text';
import { largestCrawlDelay, readCrawlDelay } from './crawlDelay';
import { FindingSink, sortFindings } from './findings';
import { GOOGLE_MAX_LINE_BYTES, parseLine, splitRobotsLines, utf8Length } from './lineSyntax';
import { normalizeForMatch } from './percentEncoding';
import type { RobotsFile, RobotsGroup, RobotsLine, RobotsRecord, RobotsSitemap, RobotsUserAgent } from './robotsFile';
import { readUserAgentValue } from './token';
import { PACING_DEFAULTS } from '../politeness/pacing';

export interface ParseOptions {
  /** The original robots.txt URL (http or https). */
  robotsUrl: string;
  /** Crawl-delay values above this are reported (`crawl-delay-above-cap`). Default: PACING_DEFAULTS.maxCrawlDelaySeconds. */
  maxCrawlDelaySeconds?: number;
}

function checkRobotsUrl(robotsUrl: string): URL {
  let u: URL;
  try {
    u = new URL(robotsUrl);
  } catch {
    throw new TypeError(`robotsUrl "${robotsUrl}" is not an absolute URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TypeError(`robotsUrl "${robotsUrl}" is not an http(s) URL`);
  return u;
}

interface MutableGroup extends RobotsGroup {
  /** An allow/disallow line was seen: the next user-agent line starts a new group. */
  closed: boolean;
}

interface MutableRecord extends RobotsRecord {
  /** A `key: value` line of another kind was seen: the next user-agent line starts a new record. */
  closed: boolean;
}

/**
 * Parses robots.txt text (already decoded; see decodeRobotsBody / loadRobotsFile). Never throws for any
 * text; throws TypeError only for a `robotsUrl` that is not an absolute http(s) URL.
 */
export function parseRobots(text: string, options: ParseOptions): RobotsFile {
  const base = checkRobotsUrl(options.robotsUrl);
  const maxCrawlDelaySeconds = options.maxCrawlDelaySeconds ?? PACING_DEFAULTS.maxCrawlDelaySeconds;
  const sink = new FindingSink();
  const add = sink.addAt.bind(sink);

  const lines: RobotsLine[] = [];
  const groups: MutableGroup[] = [];
  const sitemaps: RobotsSitemap[] = [];
  const seenSitemaps = new Map<string, number>();
  let current: MutableGroup | undefined;
  const records: MutableRecord[] = [];
  let record: MutableRecord | undefined;

  const raws = splitRobotsLines(text);
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i] as string;
    const n = i + 1;
    const { line, missingColon, info, content } = parseLine(raw, n);
    lines.push(line);

    if (raw.length * 3 > GOOGLE_MAX_LINE_BYTES && utf8Length(raw) > GOOGLE_MAX_LINE_BYTES) {
      add(
        'line-too-long',
        'warning',
        n,
        `This line is ${utf8Length(raw).toLocaleString('en-US')} bytes. Crawl Planner reads it whole, but Google reads only the first ` +
          `${GOOGLE_MAX_LINE_BYTES.toLocaleString('en-US')} bytes of a line, so other crawlers may see a different rule.`,
      );
    }

    const key = line.key ?? '';
    const value = line.value ?? '';
    const keyRange = line.keyRange;
    const valueRange = line.valueRange;
    if (line.kind === 'invalid') {
      add(
        'invalid-line',
        'warning',
        n,
        `Ignored: "${clip(raw.slice(content.start, content.end), 80)}" is not a "key: value" line.`,
        content,
      );
      continue;
    }
    // Any `key: value` line but a user-agent line ends the record's run of user-agent lines (as in
    // robots-parser); blank lines, comments and lines that are not `key: value` do not, and neither does a
    // Crawl-delay that cannot be read: it is ignored, so the user-agent lines around it are one record and
    // share the next Crawl-delay (RFC 9309 §2.3.1.5, use what is parseable; texting_robots' delay04).
    const unreadableDelay = line.kind === 'crawl-delay' && readCrawlDelay(value).seconds === undefined;
    if (record && line.kind !== 'user-agent' && line.kind !== 'blank' && line.kind !== 'comment' && !unreadableDelay)
      record.closed = true;
    if (missingColon && info) {
      add(
        'missing-colon',
        'warning',
        n,
        `The colon after "${key}" is missing; read as "${info.canonical}: ${clip(value, 80)}", as Google does.`,
        keyRange,
      );
    } else if (info?.typo) {
      add(
        'directive-typo',
        'warning',
        n,
        `"${key}" is read as "${info.canonical}" (a frequent typo Google also accepts).`,
        keyRange,
      );
    }

    switch (line.kind) {
      case 'blank':
      case 'comment':
        break;
      case 'unknown':
        add('unknown-directive', 'warning', n, `Unknown directive "${clip(key, 80)}"; the line is ignored.`, keyRange);
        break;
      case 'unsupported':
        add(
          'unsupported-directive',
          'info',
          n,
          `"${key}" is not part of RFC 9309; Crawl Planner ignores it.`,
          keyRange,
        );
        break;
      case 'user-agent': {
        if (!current || current.closed) {
          current = { index: groups.length, line: n, endLine: n, userAgents: [], rules: [], closed: false };
          groups.push(current);
        }
        if (!record || record.closed) {
          record = {
            index: records.length,
            line: n,
            endLine: n,
            userAgents: [],
            crawlDelays: [],
            group: current.index,
            closed: false,
          };
          records.push(record);
        }
        const ua = readUserAgentValue(value);
        const agent: RobotsUserAgent = { line: n, value, token: ua.token, global: ua.global };
        current.userAgents.push(agent);
        record.userAgents.push(agent);
        if (value === '') {
          add('empty-user-agent', 'warning', n, 'This user-agent line has no value; it matches no crawler.', keyRange);
        } else if (ua.token === '') {
          add(
            'user-agent-not-a-token',
            'warning',
            n,
            `"${clip(value, 80)}" does not start with a product token ([a-zA-Z_-]+); it matches no crawler.`,
            valueRange,
          );
        } else if (ua.rest !== '') {
          const versionOnly = !ua.global && /^\/\S*$/.test(ua.rest);
          add(
            'user-agent-not-a-token',
            versionOnly ? 'info' : 'warning',
            n,
            versionOnly
              ? `The version "${clip(ua.rest, 80)}" is ignored; this line matches the product token "${value.slice(0, value.length - ua.rest.length)}".`
              : `"${clip(value, 80)}" is not a product token; it is read as "${ua.global ? '*' : value.slice(0, value.length - ua.rest.length)}", as Google does.`,
            valueRange,
          );
        }
        break;
      }
      case 'allow':
      case 'disallow': {
        const directive = line.kind;
        if (!current) {
          add(
            'rule-outside-group',
            'warning',
            n,
            `This ${info?.canonical ?? key} line comes before any user-agent line; it is ignored.`,
            keyRange,
          );
          break;
        }
        current.closed = true;
        const ruleText = raw.slice(content.start, content.end);
        current.rules.push({ line: n, directive, value, pattern: normalizeForMatch(value, 'pattern'), text: ruleText });
        if (value === '') {
          if (directive === 'allow') add('empty-allow', 'info', n, 'An empty Allow has no effect.', keyRange);
        } else if (value[0] !== '/' && value[0] !== '*') {
          add(
            'rule-path-not-absolute',
            'warning',
            n,
            `The path "${clip(value, 80)}" does not start with "/" or "*", so it never matches a URL.`,
            valueRange,
          );
        }
        break;
      }
      case 'crawl-delay': {
        const reading = readCrawlDelay(value);
        if (!current) {
          add(
            'crawl-delay-outside-group',
            'warning',
            n,
            'This Crawl-delay line comes before any user-agent line; it is ignored.',
            keyRange,
          );
          break;
        }
        if (reading.seconds === undefined) {
          add('crawl-delay-invalid', 'error', n, `${reading.problem} The line is ignored.`, valueRange ?? keyRange);
          break;
        }
        if (reading.exponent) {
          add(
            'crawl-delay-exponent',
            'warning',
            n,
            `"${value}" is read as ${fmtSeconds(reading.seconds)}; write the number of seconds in plain digits.`,
            valueRange,
          );
        }
        if (reading.seconds > maxCrawlDelaySeconds) {
          add(
            'crawl-delay-above-cap',
            'warning',
            n,
            `Crawl-delay ${fmtSeconds(reading.seconds)} is above the cap of ${fmtSeconds(maxCrawlDelaySeconds)}; the Crawl-delay policy (cap, skip or obey) decides what happens.`,
            valueRange,
          );
        }
        (record as MutableRecord).crawlDelays.push({ seconds: reading.seconds, line: n });
        break;
      }
      case 'sitemap': {
        let url: URL | undefined;
        let relative = false;
        try {
          url = new URL(value);
        } catch {
          try {
            if (value !== '') {
              url = new URL(value, base);
              relative = true;
            }
          } catch {
            url = undefined;
          }
        }
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          const why =
            value === ''
              ? 'The Sitemap value is empty'
              : url
                ? `"${clip(value, 80)}" is not an http(s) URL`
                : `"${clip(value, 80)}" is not a URL`;
          add('sitemap-invalid', 'error', n, `${why}; it is ignored.`, valueRange ?? keyRange);
          break;
        }
        if (relative)
          add(
            'sitemap-relative',
            'warning',
            n,
            `Sitemap URLs should be absolute; "${clip(value, 80)}" is read as ${url.href}.`,
            valueRange,
          );
        const seen = seenSitemaps.get(url.href);
        if (seen !== undefined) {
          add('sitemap-duplicate', 'info', n, `The sitemap ${url.href} is already listed on line ${seen}.`, valueRange);
          break;
        }
        seenSitemaps.set(url.href, n);
        sitemaps.push({ url: url.href, value, line: n });
        break;
      }
    }
  }

  const finished: RobotsGroup[] = groups.map((g, i) => {
    const next = groups[i + 1];
    if (g.rules.length === 0) {
      add(
        'empty-group',
        'info',
        g.line,
        `The group for ${g.userAgents.map((u) => u.value || '""').join(', ')} has no rules, so these crawlers may fetch everything (RFC 9309 §2.1).`,
      );
    }
    return {
      index: g.index,
      line: g.line,
      endLine: next ? next.line - 1 : lines.length,
      userAgents: g.userAgents,
      rules: g.rules,
    };
  });

  const finishedRecords: RobotsRecord[] = records.map((r, i) => {
    const next = records[i + 1];
    const used = largestCrawlDelay(r.crawlDelays);
    if (used && r.crawlDelays.length > 1) {
      for (const d of r.crawlDelays) {
        if (d === used) continue;
        add(
          'crawl-delay-duplicate',
          'warning',
          d.line,
          `Several Crawl-delay lines apply to the same user agents; the largest, ${fmtSeconds(used.seconds)} on line ${used.line}, is used (a Crawl-delay is a minimum wait, so the largest respects them all).`,
        );
      }
    }
    const group = finished[r.group] as RobotsGroup;
    // Reported only where the two readings differ: some record of the group ends with another Crawl-delay
    // (or none), so reading the whole group as one unit would give its agents a different one.
    const siblings = records.filter((o) => o.group === r.group);
    const disagree = siblings.some((o) => largestCrawlDelay(o.crawlDelays)?.seconds !== used?.seconds);
    if (used && disagree) {
      const others = group.userAgents.filter((ua) => !r.userAgents.includes(ua));
      for (const d of r.crawlDelays) {
        const l = lines[d.line - 1] as RobotsLine;
        add(
          'crawl-delay-scope',
          'warning',
          d.line,
          `This Crawl-delay belongs to the user-agent lines just before it, ${agentList(r.userAgents)}, not to ${agentList(others)}, ` +
            'although RFC 9309 puts them in one group; robots-parser, urllib.robotparser and crawler-commons read it this way too. ' +
            'To give every agent of the group a Crawl-delay, put one after each run of user-agent lines.',
          l.keyRange,
        );
      }
    }
    return {
      index: r.index,
      line: r.line,
      endLine: next ? next.line - 1 : lines.length,
      userAgents: r.userAgents,
      crawlDelays: r.crawlDelays,
      group: r.group,
    };
  });

  return {
    robotsUrl: base.href,
    origin: base.origin,
    lines,
    groups: finished,
    records: finishedRecords,
    sitemaps,
    findings: sortFindings(sink.list),
    maxCrawlDelaySeconds,
    selections: new Map(),
  };
}

/** `A, B (lines 3, 5)`: agents as written, for messages. */
function agentList(agents: readonly RobotsUserAgent[]): string {
  const names = [...new Set(agents.map((a) => a.value || '""'))];
  const shown =
    names.length > 4
      ? [...names.slice(0, 4).map((v) => clip(v, 40)), `${names.length - 4} more`]
      : names.map((v) => clip(v, 40));
  const at = agents.map((a) => a.line);
  return `${shown.join(', ')} (line${at.length > 1 ? 's' : ''} ${at.length > 4 ? `${at.slice(0, 4).join(', ')}, …` : at.join(', ')})`;
}

function fmtSeconds(s: number): string {
  return `${s} s`;
}

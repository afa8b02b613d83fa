/**
 * hoverAt(file, line, column, ctx): Markdown for the line under the cursor: what a directive means and
 * which major crawlers honour it; for Crawl-delay, the effective interval once merged with the configured
 * delay, pages/hour, pages/day and the time for N pages; for User-agent, which crawlers the group catches.
 */
import { formatDuration, formatNumber, formatSeconds } from '../../format/duration';
import { groupFor } from '../explain';
import { originUnknown, suggestDirective } from '../lint';
import { largestCrawlDelay, readCrawlDelay } from '../crawlDelay';
import type { RobotsFile, RobotsGroup, RobotsLine } from '../robotsFile';
import { readUserAgentValue } from '../token';
import { crawlDelayEstimate, pagesText, rate, type CrawlDelayEstimate, type EditorContext } from './crawlDelayCost';
import {
  crawlersCaughtBy,
  DIRECTIVES,
  directiveInfo,
  KIND_CANONICAL,
  type DirectiveInfo,
  type KnownCrawler,
} from './knowledge';
import {
  agentsText,
  code,
  directiveSection,
  escapeMd,
  groupOfLine,
  lineText,
  recordAgentsText,
  recordOfLine,
  safeUrl,
} from './text';

/**
 * Markdown for the hover at (line, column), or undefined for blank lines, comments, the comment part of a
 * line, and lines that are not directives.
 */
export function hoverAt(file: RobotsFile, line: number, column: number, ctx: EditorContext): string | undefined {
  const l = file.lines[line - 1];
  if (!l || l.kind === 'blank' || l.kind === 'comment' || l.kind === 'invalid') return undefined;
  const hash = l.raw.indexOf('#');
  if (hash >= 0 && column >= hash) return undefined;
  switch (l.kind) {
    case 'user-agent':
      return userAgentHover(file, l, ctx);
    case 'allow':
    case 'disallow':
      return ruleHover(file, l);
    case 'crawl-delay':
      return crawlDelayHover(file, l, ctx);
    case 'sitemap':
      return sitemapHover(file, l);
    case 'unsupported': {
      const info = directiveInfo(l);
      return info ? directiveSection(info) : undefined;
    }
    case 'unknown': {
      const suggestion = suggestDirective(l.key ?? '');
      return [
        `**Unknown directive** ${code(l.key ?? '')}: crawlers ignore this line.`,
        suggestion
          ? `Did you mean **${suggestion}**?`
          : 'The directives of RFC 9309 are User-agent, Allow and Disallow; Sitemap and Crawl-delay are common extensions.',
      ].join('\n\n');
    }
  }
}

function userAgentHover(file: RobotsFile, l: RobotsLine, ctx: EditorContext): string {
  const group = groupOfLine(file, l.line);
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  if (!group) return [...parts, directiveSection(DIRECTIVES['user-agent'] as DirectiveInfo)].join('\n\n');
  const ua = readUserAgentValue(l.value ?? '');
  const ruleCount = group.rules.filter((r) => r.value !== '').length;
  parts.push(
    `Group at lines ${group.line}–${group.endLine}: ${ruleCount} ${ruleCount === 1 ? 'rule' : 'rules'}. Agents: ${agentsText(group)}.`,
  );
  const record = recordOfLine(file, l.line);
  const delay = record ? largestCrawlDelay(record.crawlDelays) : undefined;
  if (record && delay) {
    parts.push(`Crawl-delay for ${recordAgentsText(record)}: ${formatSeconds(delay.seconds)} (line ${delay.line}).`);
  }
  if (!ua.global && ua.token === '')
    parts.push('This value holds no product token (`[a-zA-Z_-]+`), so it names no crawler.');
  if (ctx.productToken) parts.push(yourCrawler(file, group, ctx.productToken));

  const catches = crawlersCaughtBy(file, group.index);
  const named = catches.caught.filter((c) => c.how === 'named');
  const fallback = catches.caught.filter((c) => c.how === 'fallback');
  const star = catches.caught.filter((c) => c.how === 'star');
  const list: string[] = [];
  for (const c of named)
    list.push(`- **${escapeMd(c.crawler.token)}** (${escapeMd(c.crawler.operator)}): ${describePurpose(c.crawler)}`);
  for (const c of fallback) {
    list.push(
      `- **${escapeMd(c.crawler.token)}** (${escapeMd(c.crawler.operator)}): no group names it, and ${escapeMd(c.crawler.operator)}'s documentation says it then follows the ${code(c.via ?? '')} group`,
    );
  }
  for (const other of catches.otherAgents)
    list.push(`- ${code(other)}: caught by its product token (not in Crawl Planner's list of well-known crawlers)`);
  if (list.length > 0) parts.push(`**This group catches:**\n\n${list.join('\n')}`);
  if (star.length > 0) {
    parts.push(
      `**As the \`*\` group, it also catches** every crawler that no group names, for example: ${star.map((c) => escapeMd(c.crawler.token)).join(', ')}.`,
    );
  }
  if (catches.ignoringStar.length > 0) {
    parts.push(
      `**Not caught by \`*\`:** ${catches.ignoringStar.map((c) => escapeMd(c.token)).join(', ')}. Google's documentation says these ignore \`User-agent: *\`; name them to address them.`,
    );
  }
  const mergedWith = file.groups.filter(
    (g) =>
      g !== group &&
      g.userAgents.some((a) => (ua.global ? a.global : !a.global && a.token !== '' && a.token === ua.token)),
  );
  if (mergedWith.length > 0) {
    parts.push(
      `${code(l.value ?? '')} is also named by the group at line${mergedWith.length > 1 ? 's' : ''} ${mergedWith.map((g) => g.line).join(', ')}: the groups are merged (RFC 9309 §2.2.1).`,
    );
  }
  parts.push('---', directiveSection(DIRECTIVES['user-agent'] as DirectiveInfo));
  return parts.join('\n\n');
}

function describePurpose(c: KnownCrawler): string {
  if (c.controlToken) return `a control token for ${escapeMd(c.purpose)}; it fetches nothing itself`;
  return `crawls for ${escapeMd(c.purpose)}`;
}

function yourCrawler(file: RobotsFile, group: RobotsGroup, token: string): string {
  const sel = groupFor(file, token);
  const who = `Your crawler (${code(token)})`;
  if (sel.groups.includes(group))
    return `${who} uses this group${sel.groups.length > 1 ? ` (merged with lines ${sel.lines.filter((n) => n !== group.line).join(', ')})` : ''}.`;
  if (sel.matchedBy === 'none') return `${who} uses no group here: no group names it and there is no \`*\` group.`;
  return `${who} uses the group at line ${sel.lines.join(', ')}, not this one.`;
}

/** "`Disalow` is read as Disallow", for the typos parse.ts accepts. */
function typoNote(l: RobotsLine): string[] {
  const canonical = KIND_CANONICAL[l.kind];
  if (!canonical || !l.key || l.key.toLowerCase() === canonical.toLowerCase()) return [];
  return [`${code(l.key)} is read as **${canonical}**, a frequent typo Google also accepts.`];
}

function patternNotes(value: string): string[] {
  const notes: string[] = [];
  if (value.includes('*')) notes.push('`*` matches any run of characters, including none.');
  if (value.endsWith('$')) notes.push('The final `$` means the URL must end right there.');
  if (value.includes('?')) notes.push('The pattern includes a query string, which is matched too.');
  return notes;
}

function ruleHover(file: RobotsFile, l: RobotsLine): string {
  const group = groupOfLine(file, l.line);
  const rule = group?.rules.find((r) => r.line === l.line);
  const value = l.value ?? '';
  const allow = l.kind === 'allow';
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  if (!group || !rule) {
    parts.push('This rule comes before any User-agent line, so no crawler applies it.');
  } else if (value === '') {
    parts.push(allow ? 'An empty Allow has no effect.' : 'An empty Disallow blocks nothing: it allows everything.');
  } else if (value[0] !== '/' && value[0] !== '*') {
    parts.push(
      'The pattern starts with neither `/` nor `*`, and every URL path starts with `/`, so this rule never matches.',
    );
  } else {
    const core = value.replace(/\$$/, '');
    const verb = allow ? 'Allows' : 'Blocks';
    if (core.includes('*')) parts.push(`${verb} every URL whose path and query match ${code(value)}.`);
    else if (value.endsWith('$')) parts.push(`${verb} exactly the URL path (and query) ${code(core)}.`);
    else parts.push(`${verb} every URL whose path (and query) starts with ${code(core)}.`);
    parts.push(...patternNotes(value));
    if (rule.pattern !== value)
      parts.push(`Compared as ${code(rule.pattern)} after percent-encoding (RFC 9309 §2.2.2).`);
    parts.push(
      `Specificity: ${rule.pattern.length} characters. The longest matching rule in the group wins; on a tie Allow wins.`,
    );
  }
  if (group) parts.push(`In the group at line ${group.line} for ${agentsText(group)}.`);
  parts.push('---', directiveSection(DIRECTIVES[l.kind] as DirectiveInfo));
  return parts.join('\n\n');
}

function crawlDelayHover(file: RobotsFile, l: RobotsLine, ctx: EditorContext): string {
  const record = recordOfLine(file, l.line);
  const reading = readCrawlDelay(l.value ?? '');
  const title = `**${code(lineText(l))}**`;
  const parts: string[] = [];
  if (!record) {
    parts.push(title, 'This line comes before any User-agent line, so it belongs to no group and is not used.');
  } else if (reading.seconds === undefined) {
    parts.push(title, `Not used: ${escapeMd(reading.problem ?? 'not a number of seconds')}`);
  } else {
    const group = file.groups[record.group] as RobotsGroup;
    parts.push(
      `${title} for ${recordAgentsText(record)}: the user-agent line${record.userAgents.length > 1 ? 's' : ''} just before it (line${record.userAgents.length > 1 ? 's' : ''} ${record.userAgents.map((ua) => ua.line).join(', ')})`,
    );
    const others = group.userAgents.filter((ua) => !record.userAgents.includes(ua));
    if (others.length > 0) {
      parts.push(
        `Not for ${others.map((ua) => code(ua.value || '(empty)')).join(', ')}: RFC 9309 puts them in the same group (line ${group.line}), ` +
          'but a Crawl-delay belongs to the user-agent lines just before it, as robots-parser, urllib.robotparser and crawler-commons read it.',
      );
    }
    parts.push(estimateSection(crawlDelayEstimate(reading.seconds, ctx), ctx));
    const used = largestCrawlDelay(record.crawlDelays);
    if (used && used.line !== l.line) {
      parts.push(
        `Several Crawl-delay lines follow these user-agent lines; the largest, ${formatSeconds(used.seconds)} on line ${used.line}, is the one used: ` +
          'a Crawl-delay is a minimum wait, so the largest respects them all.',
      );
    }
    if (ctx.productToken) parts.push(yourCrawlDelay(file, l.line, ctx.productToken));
  }
  parts.push('---', directiveSection(DIRECTIVES['crawl-delay'] as DirectiveInfo));
  return parts.join('\n\n');
}

/** Which Crawl-delay line your crawler uses, said from the point of view of `line`. */
function yourCrawlDelay(file: RobotsFile, line: number, token: string): string {
  const sel = groupFor(file, token);
  const who = `Your crawler (${code(token)})`;
  const used = sel.crawlDelay;
  if (!used) {
    return sel.matchedBy === 'product-token'
      ? `${who} is named in this file but no Crawl-delay follows its user-agent lines, so it has none (the \`*\` value does not apply).`
      : `${who} gets no Crawl-delay from this file.`;
  }
  if (used.line === line) return `${who} uses this Crawl-delay.`;
  return `${who} uses the Crawl-delay on line ${used.line} (${formatSeconds(used.seconds)}), not this one.`;
}

function estimateSection(est: CrawlDelayEstimate, ctx: EditorContext): string {
  const d = est.decision;
  const settings = `your delay ${formatSeconds(ctx.configuredDelaySeconds)}, cap ${formatSeconds(ctx.maxCrawlDelaySeconds)}, policy "${ctx.crawlDelayPolicy}"`;
  if (d.skipped) {
    return `With your settings (${settings}), Crawl Planner **skips this host**: its Crawl-delay is above the cap. Obeying it would mean one request every ${formatDuration(est.crawlDelaySeconds)}.`;
  }
  let why: string;
  if (d.crawlDelayAboveCap) why = `the Crawl-delay is above your cap, so the cap (${formatSeconds(d.seconds)}) is used`;
  else if (d.source === 'crawl-delay') why = 'the Crawl-delay is longer than your delay';
  else if (ctx.configuredDelaySeconds > est.crawlDelaySeconds) why = 'your delay is longer than the Crawl-delay';
  else why = 'your delay and the Crawl-delay are equal';
  if (d.seconds <= 0) {
    return `With your settings (${settings}), the effective interval is **0 s**: the rate is set by response times and your rate limit, not by a delay.`;
  }
  const total = `≈ ${formatDuration(est.totalSeconds)}${est.totalSeconds >= 2 * 86_400 ? ` (${formatNumber(est.totalSeconds / 86_400, 1)} days)` : ''}`;
  // One short table first: the hover is small, and these are the numbers people hover for.
  return [
    [
      `| Interval | Pages/hour | Pages/day | ${pagesText(est.pages)} |`,
      '|---|---|---|---|',
      `| ${formatSeconds(d.seconds)} | ${rate(est.pagesPerHour)} | ${rate(est.pagesPerDay)} | ${total} |`,
    ].join('\n'),
    `With your settings (${settings}), one request every **${formatSeconds(d.seconds)}** to this host: ${why}. ` +
      "One request per interval, response times not counted; N is the pages of the Planner's plan, or `crawlPlanner.robotsTxt.pagesForEstimate` while it has none.",
  ].join('\n\n');
}

function sitemapHover(file: RobotsFile, l: RobotsLine): string {
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  const kept = file.sitemaps.find((s) => s.line === l.line);
  if (kept) {
    if (kept.value !== kept.url) {
      parts.push(
        originUnknown(file) ? 'A relative URL: crawlers need the full https:// URL.' : `Read as ${code(kept.url)}.`,
      );
    } else parts.push('An absolute URL: crawlers can fetch it as written.');
  } else if (file.sitemaps.some((s) => s.url === safeUrl(l.value ?? '', file.robotsUrl))) {
    parts.push('The same sitemap is listed earlier in the file.');
  } else {
    parts.push('Not used: the value is not an absolute http(s) URL.');
  }
  parts.push('---', directiveSection(DIRECTIVES.sitemap as DirectiveInfo));
  return parts.join('\n\n');
}

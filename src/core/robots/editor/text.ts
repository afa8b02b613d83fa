/**
 * Shared by the hover, the lenses and the quick fixes: a line's text and the group or record it belongs
 * to, and Markdown from untrusted file content (everything from the file is escaped or fenced).
 */
import type { RobotsFile, RobotsGroup, RobotsLine, RobotsRecord } from '../robotsFile';
import type { DirectiveInfo } from './knowledge';

export function escapeMd(s: string): string {
  // Values from the file go through code(); this is for the few other strings (never at a line start).
  return s.replace(/[\\`*_[\]<>|~]/g, '\\$&');
}

export function code(s: string, max = 120): string {
  const text = (s.length > max ? `${s.slice(0, max - 1)}…` : s).replace(/[\r\n]/g, ' ');
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function lineText(line: RobotsLine): string {
  const hash = line.raw.indexOf('#');
  return (hash < 0 ? line.raw : line.raw.slice(0, hash)).trim();
}

export function groupOfLine(file: RobotsFile, n: number): RobotsGroup | undefined {
  return file.groups.find((g) => g.line <= n && n <= g.endLine);
}

export function recordOfLine(file: RobotsFile, n: number): RobotsRecord | undefined {
  return file.records.find((r) => r.line <= n && n <= r.endLine);
}

export function recordAgentsText(record: RobotsRecord): string {
  return record.userAgents.map((ua) => code(ua.value || '(empty)')).join(', ');
}

export function agentsText(group: RobotsGroup): string {
  return group.userAgents.map((ua) => code(ua.value || '(empty)')).join(', ');
}

export function directiveSection(info: DirectiveInfo): string {
  return [
    `**${escapeMd(info.name)}** · ${escapeMd(info.standard)}`,
    info.meaning,
    `*Crawlers:* ${info.support}`,
    `*Crawl Planner:* ${info.crawlPlanner}`,
  ].join('\n\n');
}

export function safeUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

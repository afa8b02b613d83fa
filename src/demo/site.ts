/**
 * The content of one demo host, as plain data and strings: the link graph (deterministic from the seed),
 * the pages' HTML, robots.txt and the sitemap. No I/O; `hosts.ts` serves it.
 */
import type { DemoHostConfig, LinkGraphConfig, RobotsTxtConfig } from './config';
import { deriveSeed, mulberry32 } from './random';

export const PRIVATE_PREFIX = '/private/';
export const MISSING_PREFIX = '/missing/';

/** A link on a demo page, before it is written as an href. */
export type SiteLink =
  | { kind: 'page'; to: number }
  | { kind: 'cross-host'; host: string }
  | { kind: 'private'; path: string }
  | { kind: 'broken'; path: string }
  /** Redirect chain start, hanging path, big page: linked from the home page. */
  | { kind: 'special'; path: string; label: string };

export interface SiteModel {
  name: string;
  description: string;
  pageCount: number;
  /** Links per page index, in the order they appear on the page. */
  links: SiteLink[][];
}

export function pagePath(index: number): string {
  return index === 0 ? '/' : `/page/${index}`;
}

/** The page index of a path, or undefined when it is not a page of a host with `pageCount` pages. */
export function pageIndexOf(pathname: string, pageCount: number): number | undefined {
  if (pathname === '/') return 0;
  const m = /^\/page\/([1-9][0-9]{0,8})$/.exec(pathname);
  if (!m) return undefined;
  const i = Number(m[1]);
  return i < pageCount ? i : undefined;
}

/** A stable default seed from a host name (FNV-1a). */
export function seedFromName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function graphTargets(graph: LinkGraphConfig, index: number, n: number, random: () => number): number[] {
  const fanOut = Math.max(1, Math.floor(graph.fanOut));
  const out: number[] = [];
  const add = (j: number): void => {
    if (j !== index && j >= 0 && j < n && !out.includes(j)) out.push(j);
  };
  if (graph.kind === 'tree') {
    for (let c = 1; c <= fanOut; c++) add(index * fanOut + c);
    if (index > 0) {
      add(Math.floor((index - 1) / fanOut));
      add(0);
    }
  } else {
    add((index + 1) % n);
    // f − 1 extra targets; bounded attempts so tiny sites cannot loop.
    const want = Math.min(fanOut, n - 1);
    for (let tries = 0; out.length < want && tries < 20 * fanOut; tries++) add(Math.floor(random() * n));
  }
  return out;
}

/** Page indices in a PRNG order, preferring pages other than the home page. */
function placement(n: number, random: () => number): number[] {
  const order = n > 1 ? Array.from({ length: n - 1 }, (_, i) => i + 1) : [0];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/** Puts `count` links made by `make(k)` on pages in PRNG order, cycling when count > pages. */
function place(
  links: SiteLink[][],
  count: number | undefined,
  random: () => number,
  make: (k: number) => SiteLink,
): void {
  const order = placement(links.length, random);
  for (let k = 0; k < Math.max(0, Math.floor(count ?? 0)); k++) {
    links[order[k % order.length] as number]?.push(make(k));
  }
}

/**
 * The link graph of a host. `otherHosts` are the names of the other demo hosts, in set order; `hostIndex`
 * is this host's position, so cross-host links spread over different targets.
 */
export function buildSite(config: DemoHostConfig, otherHosts: readonly string[] = [], hostIndex = 0): SiteModel {
  const n = Math.max(1, Math.floor(config.pages));
  const seed = config.seed ?? seedFromName(config.name);
  const graph = config.graph ?? { kind: 'ring', fanOut: 3 };
  const graphRandom = mulberry32(deriveSeed(seed, 'graph'));
  const links: SiteLink[][] = Array.from({ length: n }, (_, i) =>
    graphTargets(graph, i, n, graphRandom).map((to): SiteLink => ({ kind: 'page', to })),
  );

  if (otherHosts.length > 0) {
    place(links, config.crossHostLinks, mulberry32(deriveSeed(seed, 'cross')), (k) => ({
      kind: 'cross-host',
      host: otherHosts[(hostIndex + k) % otherHosts.length] as string,
    }));
  }
  place(links, config.privateLinks, mulberry32(deriveSeed(seed, 'private')), (k) => ({
    kind: 'private',
    path: `${PRIVATE_PREFIX}${k + 1}`,
  }));
  place(links, config.brokenLinks, mulberry32(deriveSeed(seed, 'broken')), (k) => ({
    kind: 'broken',
    path: `${MISSING_PREFIX}${k + 1}`,
  }));

  const home = links[0] as SiteLink[];
  const chain = config.redirectChain ?? [];
  if (chain.length >= 2) home.push({ kind: 'special', path: chain[0] as string, label: 'an old address (redirects)' });
  for (const path of config.hangPaths ?? []) home.push({ kind: 'special', path, label: 'a page that never loads' });
  if (config.bigPage) {
    const label = Number.isFinite(config.bigPage.bytes) ? 'a very big page' : 'a page that never ends';
    home.push({ kind: 'special', path: config.bigPage.path, label });
  }
  return { name: config.name, description: config.description, pageCount: n, links };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A link to another page of the same host, written in one of three forms (chosen by the pair), so that
 * crawlers resolve absolute paths, relative paths (including `../`) and absolute URLs.
 */
function pageHref(from: number, to: number, origin: string): string {
  switch ((from + to) % 3) {
    case 0:
      return pagePath(to);
    case 1:
      if (from === 0) return to === 0 ? './' : `page/${to}`;
      return to === 0 ? '../' : String(to);
    default:
      return origin + pagePath(to);
  }
}

export interface RenderContext {
  /** This host's origin, e.g. `http://127.0.0.11:8470`. */
  origin: string;
  /** The base URL of another demo host by name, or undefined when it is not (yet) known. */
  baseUrlOf(name: string): string | undefined;
}

function document(title: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${body}</body>\n</html>\n`
  );
}

export function renderPage(site: SiteModel, index: number, ctx: RenderContext): string {
  const title = index === 0 ? `${site.name} · home` : `${site.name} · page ${index}`;
  const items: string[] = [];
  for (const link of site.links[index] ?? []) {
    let href: string | undefined;
    let label: string;
    switch (link.kind) {
      case 'page':
        href = pageHref(index, link.to, ctx.origin);
        label = link.to === 0 ? 'home' : `page ${link.to}`;
        break;
      case 'cross-host':
        href = ctx.baseUrlOf(link.host);
        label = `the ${link.host} host`;
        break;
      case 'private':
        href = link.path;
        label = 'members only';
        break;
      case 'broken':
        href = link.path;
        label = 'a page that was removed';
        break;
      case 'special':
        href = link.path;
        label = link.label;
        break;
    }
    if (href !== undefined) items.push(`<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>\n`);
  }
  let body = `<h1 id="top">${escapeHtml(title)}</h1>\n<p>${escapeHtml(site.description)}</p>\n<ul>\n${items.join('')}</ul>\n`;
  if (index === 0) {
    // Links a crawler must not follow: a fragment of this page and a mail address.
    body += '<p><a href="#top">top</a> · <a href="mailto:webmaster@example.invalid">webmaster</a></p>\n';
  }
  return document(title, body);
}

export function renderPrivatePage(site: SiteModel, pathname: string): string {
  return document(
    `${site.name} · private`,
    `<h1>Private: ${escapeHtml(pathname)}</h1>\n<p>robots.txt asks crawlers to stay out of here.</p>\n<p><a href="/">home</a></p>\n`,
  );
}

export function renderStatusPage(status: number, text: string): string {
  return document(`${status} ${text}`, `<h1>${status} ${escapeHtml(text)}</h1>\n<p><a href="/">home</a></p>\n`);
}

/** robots.txt as served: status 200 and a body, or another status and no robots.txt. */
export function renderRobotsTxt(config: DemoHostConfig, origin: string): { status: number; body: string } {
  const robots: RobotsTxtConfig = config.robotsTxt ?? { kind: 'rules' };
  switch (robots.kind) {
    case 'status':
      return { status: robots.status, body: '' };
    case 'text':
      return { status: 200, body: robots.text.replaceAll('{origin}', origin) };
    case 'rules': {
      const lines = [`# ${config.name}: a Crawl Planner demo host`, 'User-agent: *'];
      if (robots.crawlDelay !== undefined) lines.push(`Crawl-delay: ${robots.crawlDelay}`);
      const disallow = robots.disallow ?? [];
      const allow = robots.allow ?? [];
      for (const p of disallow) lines.push(`Disallow: ${p}`);
      for (const p of allow) lines.push(`Allow: ${p}`);
      if (disallow.length === 0 && allow.length === 0) lines.push('Disallow:');
      let text = lines.join('\n') + '\n';
      if (robots.extraGroups) text += '\n' + robots.extraGroups.replaceAll('{origin}', origin).replace(/\n?$/, '\n');
      if (config.sitemap) text += `\nSitemap: ${origin}/sitemap.xml\n`;
      return { status: 200, body: text };
    }
  }
}

export function renderSitemap(site: SiteModel, origin: string): string {
  const urls = Array.from(
    { length: site.pageCount },
    (_, i) => `  <url><loc>${escapeHtml(origin + pagePath(i))}</loc></url>\n`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.join('') +
    '</urlset>\n'
  );
}

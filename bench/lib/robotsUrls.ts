/**
 * A deterministic sample of URLs for robots.txt benches: what a crawler of a news blog discovers. Same
 * seed, same URLs, on every machine.
 *
 * - 25 %: a path taken from one of the file's Allow/Disallow lines (wildcards and `$` removed), sometimes
 *   with a page, a query or a file name after it, so many of these hit a rule;
 * - 45 %: dated article URLs (`/2014/06/19/some-words-here/id=51234/`), a fifth of them with a query
 *   (`?replytocom=…`, `?amp`, `?utm_source=…`) or a trailing `amp/` or `feed/`;
 * - 15 %: tag, category and author archives, some paged (`/tag/patent-reform/page/3/`);
 * - 15 %: uploads, feeds and scripts (`/wp-content/uploads/2013/05/chart-1.png`, `/feed/`, `/?s=words`).
 */
import { mulberry32 } from '../../src/demo/random';

const WORDS = (
  'patent court federal circuit supreme claim invention prior art reform software office examiner trademark copyright ' +
  'license trial board appeal infringement damages injunction inventor startup pharma biotech generic drug design ' +
  'utility review inter partes obviousness eligibility abstract idea alice mayo myriad litigation troll innovation ' +
  'congress senate bill act director uspto epo wipo china europe japan korea filing fee application continuation'
).split(' ');

/** Paths from the file's Allow/Disallow lines, with `*` and a final `$` removed (what a URL would contain). */
export function rulePaths(robotsTxt: string): string[] {
  const out: string[] = [];
  for (const line of robotsTxt.split(/\r\n|\r|\n/)) {
    const m = /^\s*(?:dis)?allow\s*:\s*([^#\s]+)/i.exec(line);
    if (!m) continue;
    const path = (m[1] as string).replace(/\$$/, '').replace(/\*/g, 'x');
    if (path.startsWith('/')) out.push(path);
  }
  return out;
}

export function sampleUrls(origin: string, robotsTxt: string, count: number, seed = 1): string[] {
  const rnd = mulberry32(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const slug = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join('-');
  const pad = (n: number): string => String(n).padStart(2, '0');
  const date = (): string => `${2006 + int(19)}/${pad(1 + int(12))}/${pad(1 + int(28))}`;
  const rules = rulePaths(robotsTxt);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = rnd();
    let path: string;
    if (r < 0.25 && rules.length > 0) {
      path = pick(rules);
      const t = rnd();
      if (t < 0.2) path += path.endsWith('/') ? 'page/2/' : '/page/2/';
      else if (t < 0.35) path += `?replytocom=${int(100_000)}`;
      else if (t < 0.45) path += `${path.endsWith('/') ? '' : '/'}${pick(WORDS)}.html`;
    } else if (r < 0.7) {
      path = `/${date()}/${slug(3 + int(6))}/id=${int(120_000)}/`;
      const t = rnd();
      if (t < 0.08) path += `?replytocom=${int(500_000)}`;
      else if (t < 0.12) path += '?amp';
      else if (t < 0.16) path += `?utm_source=${pick(WORDS)}&utm_medium=email`;
      else if (t < 0.18) path += 'amp/';
      else if (t < 0.2) path += 'feed/';
    } else if (r < 0.85) {
      const kind = pick(['tag', 'category', 'author']);
      path = `/${kind}/${slug(1 + int(3))}/`;
      if (rnd() < 0.3) path += `page/${2 + int(40)}/`;
    } else {
      const t = rnd();
      if (t < 0.5)
        path = `/wp-content/uploads/${date().slice(0, 7)}/${slug(2)}-${int(10)}.${pick(['png', 'jpg', 'pdf'])}`;
      else if (t < 0.7) path = pick(['/feed/', '/comments/feed/', '/wp-json/', '/xmlrpc.php', '/wp-login.php']);
      else if (t < 0.85) path = `/?s=${slug(1 + int(3)).replace(/-/g, '+')}`;
      else path = `/wp-includes/js/${pick(WORDS)}.min.js?ver=${1 + int(6)}.${int(10)}`;
    }
    urls.push(origin + path);
  }
  return urls;
}

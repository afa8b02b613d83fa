/**
 * Links a crawler may follow from one HTML page, found with htmlparser2's streaming tokenizer (no regexes,
 * no DOM). Pure: the page text and its URL come in, absolute http(s) URLs go out.
 *
 * Decisions:
 * - Followed elements: `<a href>` and `<area href>`. `<link>` only when its `rel` holds one of
 *   `opts.linkRels` (default none): `next`/`prev` are navigational, `alternate` is followed only without a
 *   `type` or with an HTML `type` (feeds are not pages). `<iframe>`, `<img>`, `<script>`, `<form>` are not links.
 * - `<base href>`: the first `base` element with an `href` sets the base for every link in the page, even
 *   links before it (HTML's document base URL). A base that does not parse, or is `data:`/`javascript:`,
 *   is ignored (HTML's "frozen base URL" rule); hrefs are resolved after the whole page is read.
 * - `rel=nofollow` is honoured by default (`respectNofollow`): such links are skipped, and
 *   `<meta name="robots" content="nofollow">` (or `none`) anywhere in the page means no links at all.
 *   `ugc`/`sponsored` are hints for ranking, not for crawling, and are followed.
 * - Only http: and https: results are kept; `javascript:`, `mailto:`, `data:`, `tel:`, `ftp:` ... fall out
 *   after WHATWG URL parsing (which also strips the whitespace, tabs and newlines browsers strip, so
 *   `java\tscript:` is caught too). Fragments are dropped, then duplicates (first occurrence wins), then
 *   the page's own URL (a `#top` link is not a new page).
 * - Hostile pages: only the first `maxInputChars` characters are scanned, hrefs longer than `maxUrlLength`
 *   are skipped, and at most `maxLinks` links are returned.
 */
// htmlparser2 12 is ESM-only; tsconfig's `module: node20` lets this CommonJS build import it (Node ≥ 20.19
// and esbuild both load it).
import { Tokenizer } from 'htmlparser2';

export const DEFAULT_MAX_LINKS = 1000;
export const DEFAULT_MAX_INPUT_CHARS = 2_000_000;
export const DEFAULT_MAX_URL_LENGTH = 2048;

export interface LinkExtractOptions {
  /** At most this many links are returned (default 1000). */
  maxLinks?: number;
  /** Only this many characters of the page are scanned (default 2 000 000). */
  maxInputChars?: number;
  /** Hrefs longer than this, before or after resolution, are skipped (default 2048). */
  maxUrlLength?: number;
  /** Skip `rel=nofollow` links and honour `<meta name=robots content=nofollow|none>` (default true). */
  respectNofollow?: boolean;
  /** `<link rel>` tokens to follow, e.g. `['next', 'prev', 'alternate']` (default none). Case-insensitive. */
  linkRels?: readonly string[];
}

/** Why a candidate href did not become a link. */
export interface LinkSkipCounts {
  /** `rel=nofollow` on the element. */
  nofollow: number;
  /** Not http(s) after resolution: javascript:, mailto:, data:, tel:, ftp: ... */
  scheme: number;
  /** Did not parse as a URL against the base. */
  invalid: number;
  /** Longer than `maxUrlLength`. */
  tooLong: number;
  /** Resolved to a URL already returned (fragments dropped). */
  duplicate: number;
  /** Resolved to the page itself. */
  self: number;
}

export interface LinkScan {
  links: string[];
  /** The base the hrefs were resolved against: the page URL, or the first valid `<base href>`. */
  base: string;
  /** The page was longer than `maxInputChars` and only its start was scanned. */
  inputTruncated: boolean;
  /** More links than `maxLinks` were found; the rest were dropped. */
  linksTruncated: boolean;
  /** `<meta name=robots>` said nofollow/none, so no links were returned (with `respectNofollow`). */
  metaNofollow: boolean;
  skipped: LinkSkipCounts;
}

const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

function tokens(value: string | undefined, separator: RegExp): string[] {
  if (!value) return [];
  return value
    .toLowerCase()
    .split(separator)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

function isHtmlType(type: string | undefined): boolean {
  if (type === undefined) return true;
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === '' || essence === 'text/html' || essence === 'application/xhtml+xml';
}

function withoutFragment(url: URL): string {
  url.hash = '';
  return url.href;
}

type Attributes = Partial<Record<AttributeName, string>>;
type AttributeName = 'href' | 'rel' | 'type' | 'name' | 'content';
const TAGS = new Set(['a', 'area', 'link', 'base', 'meta']);
const ATTRIBUTES = new Set<string>(['href', 'rel', 'type', 'name', 'content']);

function codePointToString(cp: number): string {
  return cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
}

/**
 * Runs htmlparser2's tokenizer over `text` and reports the start tags we care about with their
 * (entity-decoded, first-wins, lower-cased-name) attributes. The tokenizer, not htmlparser2's Parser:
 * the Parser keeps open elements in an array it shifts at the front, which is quadratic in nesting
 * depth (200 000 unclosed <div>s take seconds); links need no tree. The tokenizer still knows the
 * HTML text-only elements, so markup inside <script>, <style>, <title>, <textarea>, comments and after
 * <plaintext> is not mistaken for tags.
 */
function tokenize(text: string, onTag: (name: string, attrs: Attributes) => void): void {
  let tag: string | undefined;
  let attrs: Attributes | undefined;
  let attrName: AttributeName | undefined;
  let attrValue = '';
  const endTag = (): void => {
    if (tag !== undefined && attrs !== undefined) onTag(tag, attrs);
    tag = undefined;
    attrs = undefined;
    attrName = undefined;
  };
  const noop = (): void => {};
  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        const name = text.slice(start, end).toLowerCase();
        tag = TAGS.has(name) ? name : undefined;
        attrs = tag === undefined ? undefined : {};
        attrName = undefined;
      },
      onattribname(start, end) {
        if (attrs === undefined) return;
        const name = text.slice(start, end).toLowerCase();
        attrName = ATTRIBUTES.has(name) ? (name as AttributeName) : undefined;
        attrValue = '';
      },
      onattribdata(start, end) {
        if (attrName !== undefined) attrValue += text.slice(start, end);
      },
      onattribentity(cp) {
        if (attrName !== undefined) attrValue += codePointToString(cp);
      },
      onattribend() {
        // HTML keeps the first of duplicate attributes.
        if (attrs !== undefined && attrName !== undefined && attrs[attrName] === undefined) attrs[attrName] = attrValue;
        attrName = undefined;
        attrValue = '';
      },
      onopentagend: endTag,
      onselfclosingtag: endTag,
      onclosetag: noop,
      ontext: noop,
      ontextentity: noop,
      oncomment: noop,
      oncdata: noop,
      ondeclaration: noop,
      onprocessinginstruction: noop,
      onend: noop,
    },
  );
  tokenizer.write(text);
  tokenizer.end();
}

/** Links with their bookkeeping: why candidates were skipped, whether limits cut the scan short. */
export function scanLinks(html: string, pageUrl: string, opts: LinkExtractOptions = {}): LinkScan {
  const maxLinks = Math.max(0, Math.floor(opts.maxLinks ?? DEFAULT_MAX_LINKS));
  const maxInputChars = Math.max(0, Math.floor(opts.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS));
  const maxUrlLength = Math.max(1, Math.floor(opts.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH));
  const respectNofollow = opts.respectNofollow ?? true;
  const linkRels = new Set((opts.linkRels ?? []).map((r) => r.toLowerCase()));

  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    throw new TypeError(`scanLinks: the page URL is not an absolute URL: ${pageUrl}`);
  }

  const skipped: LinkSkipCounts = { nofollow: 0, scheme: 0, invalid: 0, tooLong: 0, duplicate: 0, self: 0 };
  // Raw hrefs in document order; resolution waits for the end because a later <base> applies to all.
  const raw: string[] = [];
  let baseHref: string | undefined;
  let metaNofollow = false;

  const handleTag = (name: string, attrs: Attributes): void => {
    switch (name) {
      case 'a':
      case 'area': {
        const href = attrs.href;
        if (href === undefined) return;
        if (respectNofollow && tokens(attrs.rel, ASCII_WHITESPACE).includes('nofollow')) {
          skipped.nofollow++;
          return;
        }
        raw.push(href);
        return;
      }
      case 'link': {
        const href = attrs.href;
        if (href === undefined || linkRels.size === 0) return;
        const rels = tokens(attrs.rel, ASCII_WHITESPACE);
        const wanted = rels.filter((r) => linkRels.has(r));
        if (wanted.length === 0) return;
        if (respectNofollow && rels.includes('nofollow')) {
          skipped.nofollow++;
          return;
        }
        // An alternate that is a feed or another media type is not a page.
        if (wanted.every((r) => r === 'alternate') && !isHtmlType(attrs.type)) return;
        raw.push(href);
        return;
      }
      case 'base':
        if (baseHref === undefined && attrs.href !== undefined) baseHref = attrs.href;
        return;
      case 'meta':
        if (attrs.name?.trim().toLowerCase() === 'robots') {
          const directives = tokens(attrs.content, /,/);
          if (directives.includes('nofollow') || directives.includes('none')) metaNofollow = true;
        }
        return;
    }
  };

  const inputTruncated = html.length > maxInputChars;
  const text = inputTruncated ? html.slice(0, maxInputChars) : html;
  tokenize(text, handleTag);

  // HTML's frozen base URL: a base that fails to parse or is data:/javascript: falls back to the page URL.
  let base = page;
  if (baseHref !== undefined) {
    try {
      const b = new URL(baseHref, page);
      if (b.protocol !== 'data:' && b.protocol !== 'javascript:') base = b;
    } catch {
      // keep the page URL
    }
  }

  const result: LinkScan = {
    links: [],
    base: base.href,
    inputTruncated,
    linksTruncated: false,
    metaNofollow: respectNofollow && metaNofollow,
    skipped,
  };
  if (result.metaNofollow) return result;

  const self = withoutFragment(new URL(page.href));
  const seen = new Set<string>();
  const seenRaw = new Set<string>();
  for (const href of raw) {
    if (href.length > maxUrlLength) {
      skipped.tooLong++;
      continue;
    }
    // The same raw text always resolves the same way: skip the URL parser for repeats.
    if (seenRaw.has(href)) {
      skipped.duplicate++;
      continue;
    }
    seenRaw.add(href);
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      skipped.invalid++;
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      skipped.scheme++;
      continue;
    }
    const link = withoutFragment(url);
    if (link.length > maxUrlLength) {
      skipped.tooLong++;
      continue;
    }
    if (link === self) {
      skipped.self++;
      continue;
    }
    if (seen.has(link)) {
      skipped.duplicate++;
      continue;
    }
    if (result.links.length >= maxLinks) {
      result.linksTruncated = true;
      break;
    }
    seen.add(link);
    result.links.push(link);
  }
  return result;
}

/**
 * The absolute http(s) URLs, without fragments, deduplicated in document order, that a polite crawler may
 * follow from `html` fetched at `pageUrl` (after redirects). Throws a TypeError when `pageUrl` is not an
 * absolute URL. See the module comment for what counts as a link.
 */
export function extractLinks(html: string, pageUrl: string, opts?: LinkExtractOptions): string[] {
  return scanLinks(html, pageUrl, opts).links;
}

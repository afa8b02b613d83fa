/**
 * One sitemap file, read as it streams in: bytes go in chunk by chunk (already un-gzipped by the caller),
 * entries come out through a sink, and nothing but the current element's text is held. Pure: no I/O.
 *
 * Formats (sitemaps.org):
 * - XML `<urlset>`: each `<url>`'s `<loc>` (and `<lastmod>`) is a page entry;
 * - XML `<sitemapindex>`: each `<sitemap>`'s `<loc>` (and `<lastmod>`) is a child sitemap;
 * - plain text: one URL per line (a body whose first character, after a BOM and white space, is not `<`);
 * - RSS and Atom feeds (`<rss>`, `<feed>`, `<rdf:RDF>`) are recognised and not read: a feed lists its
 *   latest URLs, not the site, so it says nothing about the site's size;
 * - any other root element (an HTML "soft 404", say) is not a sitemap.
 *
 * Elements are matched by local name, so a prefixed `<s:urlset>` works too; `<loc>` counts only as a child
 * of `<url>` or `<sitemap>` with the same prefix, so extensions such as `<image:loc>` never count.
 *
 * The XML is read by htmlparser2 in XML mode: a streaming tokenizer that is already the project's HTML
 * parser, and lenient where sitemaps in the wild are sloppy (an unescaped `&` in a URL, a mismatched close
 * tag), reading on where a strict parser gives up. What it had to repair is still reported (`malformed`):
 * a close tag that closed other elements, or a document cut off inside an element. An entry that the end
 * of the data cuts off is not counted. No DTD is read and no entity but XML's five and character
 * references is expanded, so neither external entities nor entity bombs can do anything. See
 * docs/sitemaps.md#reading-a-sitemap for the measurements behind the choice.
 *
 * Limits (sitemaps.org): at most `maxEntries` entries (50,000) and `maxBytes` bytes (50 MiB) per file.
 * Past either, `write` returns false, the caller stops reading, and `stopped` says which.
 */
import { Parser } from 'htmlparser2';
import { SITEMAP_MAX_BYTES_PER_FILE, SITEMAP_MAX_URL_LENGTH, SITEMAP_MAX_URLS_PER_FILE } from './limits';

export type SitemapFormat = 'urlset' | 'sitemapindex' | 'text' | 'feed' | 'other' | 'empty';

export interface SitemapSink {
  /** A page entry: `<url><loc>` (trimmed) and `<lastmod>` (trimmed, undefined when absent). */
  url(loc: string, lastmod: string | undefined): void;
  /** A child sitemap of an index. */
  sitemap(loc: string, lastmod: string | undefined): void;
}

export interface SitemapReadResult {
  format: SitemapFormat;
  /** The root element's name as written (for `other` and `feed`), else undefined. */
  root?: string;
  /** Entries handed to the sink. */
  entries: number;
  /** Uncompressed bytes read (up to the limit). */
  bytes: number;
  /** Why reading stopped before the end: more than `maxEntries` entries, or more than `maxBytes` bytes. */
  stopped?: 'max-entries' | 'max-bytes';
  /** XML that had to be repaired: how many repairs, and the first one in words. */
  malformed?: { count: number; first: string };
  /** `<loc>` values longer than a URL may be (sitemaps.org: under 2,048 characters), not handed out. */
  tooLong: number;
}

export interface SitemapReaderOptions {
  maxEntries?: number;
  maxBytes?: number;
}

const FEED_ROOTS = new Set(['rss', 'feed', 'RDF']);

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
}

/** What the `<url>` or `<sitemap>` being read holds so far. */
interface Open {
  /** 'url' or 'sitemap'. */
  kind: 'url' | 'sitemap';
  prefix: string;
  loc: string | undefined;
  lastmod: string | undefined;
}

export class SitemapReader {
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly decoder = new TextDecoder('utf-8');
  private format: SitemapFormat | undefined;
  private root: string | undefined;
  private entries = 0;
  private bytes = 0;
  private stopped: SitemapReadResult['stopped'];
  private malformedCount = 0;
  private malformedFirst = '';
  private tooLong = 0;
  private ending = false;
  private done = false;
  // XML state.
  private parser: Parser | undefined;
  private depth = 0;
  private open: Open | undefined;
  /** The child of `open` whose text is being collected ('loc' or 'lastmod'), at `depth`. */
  private field: { name: 'loc' | 'lastmod'; tag: string; depth: number } | undefined;
  private text = '';
  // Text state: the unfinished last line.
  private line = '';

  constructor(
    private readonly sink: SitemapSink,
    options: SitemapReaderOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? SITEMAP_MAX_URLS_PER_FILE;
    this.maxBytes = options.maxBytes ?? SITEMAP_MAX_BYTES_PER_FILE;
  }

  /** Reads a chunk. false: stop reading (a limit was reached, or the body is not a sitemap). */
  write(chunk: Uint8Array): boolean {
    if (this.done) return false;
    const room = this.maxBytes - this.bytes;
    const over = chunk.byteLength > room;
    const part = over ? chunk.subarray(0, room) : chunk;
    this.bytes += part.byteLength;
    this.feed(this.decoder.decode(part, { stream: true }));
    // Entries completed inside the last part still count; the limit stops what comes after.
    if (over) this.stopped ??= 'max-bytes';
    if (this.stopped !== undefined || this.format === 'feed' || this.format === 'other') this.done = true;
    return !this.done;
  }

  /** Ends the file (whether it was read to its end or stopped) and says what was in it. */
  end(): SitemapReadResult {
    if (!this.done) this.feed(this.decoder.decode());
    this.done = true;
    this.ending = true;
    if (this.parser) this.parser.end();
    if (this.format === 'text' && this.line !== '') {
      this.textLine(this.line);
      this.line = '';
    }
    return {
      format: this.format ?? 'empty',
      ...(this.root !== undefined && (this.format === 'other' || this.format === 'feed') ? { root: this.root } : {}),
      entries: this.entries,
      bytes: this.bytes,
      ...(this.stopped !== undefined ? { stopped: this.stopped } : {}),
      ...(this.malformedCount > 0 ? { malformed: { count: this.malformedCount, first: this.malformedFirst } } : {}),
      tooLong: this.tooLong,
    };
  }

  private feed(text: string): void {
    if (text === '') return;
    if (this.format === undefined && this.parser === undefined) {
      // XML or text, from the first character that is not white space (TextDecoder drops the BOM).
      const first = text.search(/\S/);
      if (first < 0) return; // white space only so far
      if (text[first] === '<') this.startXml();
      else this.format = 'text';
    }
    this.dispatch(text);
  }

  private dispatch(text: string): void {
    if (this.parser) this.parser.write(text);
    else if (this.format === 'text') this.readText(text);
  }

  // ------------------------------------------------------------------------------------------------
  // Plain text

  private readText(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.textLine(this.line + text.slice(start, nl));
      this.line = '';
      start = nl + 1;
      if (this.stopped !== undefined) return;
    }
    this.line += text.slice(start);
    // A "line" that never ends is not a URL: keep only what could still become one.
    if (this.line.length > SITEMAP_MAX_URL_LENGTH + 2) this.line = this.line.slice(0, SITEMAP_MAX_URL_LENGTH + 2);
  }

  private textLine(raw: string): void {
    const loc = raw.trim();
    if (loc !== '') this.emit('url', loc, undefined);
  }

  // ------------------------------------------------------------------------------------------------
  // XML

  private startXml(): void {
    this.parser = new Parser(
      {
        onopentagname: (name) => this.openTag(name),
        ontext: (text) => this.onText(text),
        onclosetag: (name, implied) => this.closeTag(name, implied),
      },
      { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
    );
  }

  private repaired(what: string): void {
    if (this.malformedCount++ === 0) this.malformedFirst = what;
  }

  private openTag(name: string): void {
    this.depth++;
    if (this.stopped !== undefined || this.format === 'feed' || this.format === 'other') return;
    const local = localName(name);
    if (this.depth === 1) {
      if (this.format !== undefined) {
        this.repaired(`a second root element <${name}>`);
        return;
      }
      if (local === 'urlset') this.format = 'urlset';
      else if (local === 'sitemapindex') this.format = 'sitemapindex';
      else {
        this.format = FEED_ROOTS.has(local) ? 'feed' : 'other';
        this.root = name;
      }
      return;
    }
    if (this.depth === 2) {
      const want = this.format === 'urlset' ? 'url' : this.format === 'sitemapindex' ? 'sitemap' : undefined;
      if (want !== undefined && local === want)
        this.open = { kind: want, prefix: prefixOf(name), loc: undefined, lastmod: undefined };
      return;
    }
    if (
      this.depth === 3 &&
      this.open &&
      prefixOf(name) === this.open.prefix &&
      (local === 'loc' || local === 'lastmod')
    ) {
      this.field = { name: local, tag: name, depth: 3 };
      this.text = '';
    }
  }

  private onText(text: string): void {
    if (!this.field) return;
    // Keep no more than a URL can hold (plus one character, to tell "too long").
    if (this.text.length <= SITEMAP_MAX_URL_LENGTH)
      this.text += text.slice(0, SITEMAP_MAX_URL_LENGTH + 1 - this.text.length);
  }

  private closeTag(name: string, implied: boolean): void {
    if (this.depth === 0) return;
    // htmlparser2 closes the elements a mismatched close tag skips, and every open one at the end.
    if (implied) {
      if (this.ending) {
        if (this.stopped === undefined && this.format !== 'feed' && this.format !== 'other')
          this.repaired(`the document ends inside <${name}>`);
      } else this.repaired(`<${name}> was not closed`);
    }
    const depth = this.depth--;
    if (this.field && depth === this.field.depth) {
      // A field cut off by the end of the data keeps nothing.
      if (!(implied && this.ending) && this.open) this.open[this.field.name] = this.text.trim();
      this.field = undefined;
      this.text = '';
      return;
    }
    if (depth === 2 && this.open) {
      const open = this.open;
      this.open = undefined;
      if (implied && this.ending) return;
      if (open.loc === undefined || open.loc === '') {
        this.repaired(`a <${open.kind}> without <loc>`);
        return;
      }
      this.emit(open.kind, open.loc, open.lastmod);
    }
  }

  private emit(kind: 'url' | 'sitemap', loc: string, lastmod: string | undefined): void {
    if (this.stopped !== undefined) return;
    if (this.entries >= this.maxEntries) {
      this.stopped = 'max-entries';
      return;
    }
    if (loc.length > SITEMAP_MAX_URL_LENGTH) {
      this.tooLong++;
      return;
    }
    this.entries++;
    if (kind === 'url') this.sink.url(loc, lastmod);
    else this.sink.sitemap(loc, lastmod);
  }
}

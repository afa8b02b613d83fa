/**
 * The body of one sitemap file, streamed from the HTTP client's `onChunk` into the core's SitemapReader,
 * gzip inflated on the way (see BodyPipe). node:zlib is loaded on the first gzip file only.
 */
import type { Gunzip } from 'node:zlib';
import type { SitemapReader, SitemapReadResult } from '../../core/sitemaps';

let zlibModule: typeof import('node:zlib') | undefined;
function zlib(): typeof import('node:zlib') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first gzip sitemap only
  return (zlibModule ??= require('node:zlib') as typeof import('node:zlib'));
}

/**
 * A sitemap body on its way to the reader: gzip data (a `.gz` file, recognised by its magic bytes after any
 * Content-Encoding was decoded) is inflated as it streams, and the reader's byte limit applies to what comes
 * out, so a gzip bomb stops at 50 MiB. `write` resolves to false when reading should stop.
 */
export class BodyPipe {
  gzip = false;
  gzipError: string | undefined;
  private decided = false;
  private head: Uint8Array | undefined;
  private gunzip: Gunzip | undefined;
  private stopped = false;
  private pending: ((more: boolean) => void) | undefined;

  constructor(
    private readonly reader: SitemapReader,
    private readonly full: () => boolean,
  ) {}

  write(chunk: Uint8Array): boolean | Promise<boolean> {
    if (this.stopped) return false;
    if (!this.decided) {
      const bytes = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      if (bytes.byteLength < 2) {
        this.head = bytes;
        return true;
      }
      this.head = undefined;
      this.decided = true;
      this.gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
      if (this.gzip) this.startGunzip();
      chunk = bytes;
    }
    if (!this.gunzip) return this.push(chunk);
    const gunzip = this.gunzip;
    return new Promise<boolean>((resolve) => {
      this.pending = resolve;
      gunzip.write(chunk, (err) => {
        if (this.pending !== resolve) return;
        this.pending = undefined;
        resolve(!err && !this.stopped);
      });
    });
  }

  private push(chunk: Uint8Array): boolean {
    if (this.stopped) return false;
    if (!this.reader.write(chunk) || this.full()) this.stop();
    return !this.stopped;
  }

  private stop(): void {
    this.stopped = true;
    if (this.gunzip) {
      this.gunzip.destroy();
      this.pending?.(false);
      this.pending = undefined;
    }
  }

  private startGunzip(): void {
    const z = zlib();
    const gunzip = z.createGunzip({ chunkSize: 64 * 1024 });
    gunzip.on('data', (d: Buffer) => this.push(d));
    gunzip.on('error', (e) => {
      if (this.stopped) return;
      this.gzipError = e.message;
      this.stop();
    });
    this.gunzip = gunzip;
  }

  /** The body ended (or was stopped): flushes the inflater and ends the reader. */
  async end(): Promise<SitemapReadResult> {
    if (!this.decided && this.head) {
      this.decided = true;
      this.push(this.head);
    }
    const gunzip = this.gunzip;
    if (gunzip && !this.stopped) {
      await new Promise<void>((resolve) => {
        gunzip.once('end', resolve);
        gunzip.once('close', resolve);
        gunzip.end();
      });
    }
    return this.reader.end();
  }
}

/**
 * A response body as the HTTP layer reads it: decoded (gzip, deflate with or without its zlib wrapper,
 * brotli) and cut at a byte cap, so that a gzip bomb never inflates much past it. node:zlib is loaded on
 * first use.
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import type * as Zlib from 'node:zlib';

let zlibModule: typeof Zlib | undefined;

function zlib(): typeof Zlib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy, synchronous load
  return (zlibModule ??= require('node:zlib') as typeof Zlib);
}

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

interface ReadResult {
  body: Uint8Array;
  bytes: number;
  wireBytes: number;
  truncated: boolean;
}

/**
 * Reads decoded chunks until the end or `maxBytes`. At the cap the pipeline is destroyed, so a gzip bomb
 * never inflates more than about one zlib chunk past it. A body of exactly maxBytes counts as truncated
 * unless an identity Content-Length says it is complete (we stop as soon as the cap is reached rather than
 * wait to see whether more comes). With `sink`, chunks go to it instead of being kept (`body` is then
 * empty); it is awaited, and returning false stops the read (`truncated`).
 */
export async function readCapped(
  body: Readable,
  decoders: Transform[],
  maxBytes: number,
  identityLength: number | undefined,
  sink?: (chunk: Uint8Array) => boolean | void | Promise<boolean | void>,
): Promise<ReadResult> {
  let wireBytes = 0;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;

  let source: AsyncIterable<Buffer>;
  let stop: () => void;
  if (decoders.length === 0) {
    source = body as AsyncIterable<Buffer>;
    stop = () => body.destroy();
  } else {
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        wireBytes += chunk.length;
        cb(null, chunk);
      },
    });
    let decodeError: Error | undefined;
    for (const d of decoders) d.once('error', (e) => (decodeError ??= e));
    const last = decoders[decoders.length - 1] as Transform;
    pipeline([body, counter, ...decoders], () => {});
    source = (async function* () {
      try {
        for await (const chunk of last) yield chunk as Buffer;
      } catch (err) {
        // A decoder error only counts when the wire itself was fine (the body error wins otherwise).
        if (decodeError && !body.errored) throw new DecodeError(decodeError.message);
        throw body.errored ?? err;
      }
    })();
    stop = () => {
      last.destroy();
      body.destroy();
    };
  }

  if (maxBytes === 0) {
    truncated = identityLength !== 0;
    stop();
    return { body: new Uint8Array(0), bytes: 0, wireBytes, truncated };
  }

  const take = (piece: Buffer): boolean | void | Promise<boolean | void> =>
    sink ? sink(piece) : void chunks.push(piece);
  for await (const chunk of source) {
    if (decoders.length === 0) wireBytes += chunk.length;
    const room = maxBytes - bytes;
    if (chunk.length >= room) {
      const more = await take(chunk.length === room ? chunk : chunk.subarray(0, room));
      bytes += room;
      const complete = chunk.length === room && identityLength === bytes;
      if (!complete || more === false) {
        truncated = true;
        stop();
        break;
      }
      continue;
    }
    bytes += chunk.length;
    if ((await take(chunk)) === false) {
      truncated = true;
      stop();
      break;
    }
  }
  const buf = Buffer.concat(chunks, bytes);
  return { body: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), bytes, wireBytes, truncated };
}

/** Decoders for a Content-Encoding list, outermost last on the wire, so applied in reverse order. */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        // Lenient like browsers: tolerate a missing trailer at the end of the stream.
        return zlib().createGunzip({
          flush: zlib().constants.Z_SYNC_FLUSH,
          finishFlush: zlib().constants.Z_SYNC_FLUSH,
        });
      case 'deflate':
        return new AutoInflate();
      case 'br':
        return zlib().createBrotliDecompress();
      default:
        throw new Error(`unsupported Content-Encoding "${coding}"`);
    }
  });
}

/**
 * "deflate" is meant to be zlib-wrapped (RFC 9110 §8.4.1.2) but some servers send raw deflate. Look at the
 * first byte (a zlib header has compression method 8 in its low nibble) and pick the decoder.
 */
class AutoInflate extends Transform {
  private inner: Zlib.Inflate | Zlib.InflateRaw | undefined;
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (!this.inner) {
      const first = chunk[0];
      const opts = { flush: zlib().constants.Z_SYNC_FLUSH, finishFlush: zlib().constants.Z_SYNC_FLUSH };
      const inner =
        first !== undefined && (first & 0x0f) === 8 ? zlib().createInflate(opts) : zlib().createInflateRaw(opts);
      inner.on('data', (d: Buffer) => this.push(d));
      inner.on('error', (e) => this.destroy(e));
      this.inner = inner;
    }
    this.inner.write(chunk, () => cb());
  }
  override _flush(cb: TransformCallback): void {
    if (!this.inner) return cb();
    this.inner.once('end', () => cb());
    this.inner.end();
  }
  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    this.inner?.destroy();
    cb(err);
  }
}

export function parseContentLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

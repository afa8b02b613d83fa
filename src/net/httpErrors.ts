/** Naming what went wrong with a request: an error from undici, node:net, node:tls, node:dns or node:zlib as an ErrorKind, and a message for it. */
import type { ErrorKind } from '../core/crawl/events';

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EAI_SERVICE',
  'EAI_ADDRFAMILY',
]);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'EACCES',
  'EPERM',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'ERR_STREAM_PREMATURE_CLOSE']);
const TLS_CODES = new Set([
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

export function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return undefined;
}

/** Maps an error from undici, node:net, node:tls, node:dns or node:zlib to an ErrorKind. Looks through
 * `cause` and AggregateError members (happy-eyeballs connects) for a code it knows. */
export function classifyError(err: unknown): ErrorKind {
  return classifyInner(err, 0) ?? 'other';
}

function classifyInner(err: unknown, depth: number): ErrorKind | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'connect-timeout';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'headers-timeout';
    case 'UND_ERR_BODY_TIMEOUT':
      return 'body-timeout';
    case 'UND_ERR_HEADERS_OVERFLOW':
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return 'too-large';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_INFO':
      return 'bad-response';
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return 'aborted';
  }
  if (code === 'UND_ERR_SOCKET' && /^bad (response|upgrade)/.test(message)) return 'bad-response';
  if (DNS_CODES.has(code)) return 'dns';
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || /^ERR_OSSL/.test(code))
    return 'tls';
  if (CONNECT_CODES.has(code)) return 'connect';
  if (RESET_CODES.has(code)) return 'reset';
  if (name === 'HTTPParserError' || code.startsWith('HPE_')) return 'bad-response';
  if (code.startsWith('Z_') || code.startsWith('ERR__ERROR_')) return 'bad-response';
  if (name === 'AbortError') return 'aborted';
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const k = classifyInner(inner, depth + 1);
      if (k) return k;
    }
  }
  return classifyInner(e.cause, depth + 1);
}

export function describeError(kind: ErrorKind, err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const code = errorCode(err);
  const detail = code && !raw.includes(code) ? `${raw} (${code})` : raw;
  switch (kind) {
    case 'dns':
      return `DNS lookup failed: ${detail}`;
    case 'connect':
      return `cannot connect: ${detail}`;
    case 'connect-timeout':
      return `connect timed out: ${detail}`;
    case 'headers-timeout':
      return `no response headers in time: ${detail}`;
    case 'body-timeout':
      return `the body stalled: ${detail}`;
    case 'reset':
      return `the connection was closed mid-response: ${detail}`;
    case 'tls':
      return `TLS failed: ${detail}`;
    case 'bad-response':
      return `malformed response: ${detail}`;
    case 'too-large':
      return `response too large: ${detail}`;
    default:
      return detail;
  }
}

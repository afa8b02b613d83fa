/**
 * What to retry, and what tells us a host is struggling (seed "Rate limiting and backoff": "Retry only
 * what can succeed on a retry: connection errors, timeouts, 429, and most 5xx. Do not retry 400, 401,
 * 403, or 404 unchanged. A 403 is a decision, not a transient failure.").
 */
import type { ErrorKind } from '../crawl/events';

/** Statuses retried with backoff (and Retry-After for 429/503). 501 and 505 are answers about the
 * request, not the load, so they are final; so is every 4xx other than 429. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

/** Transport failures that a later attempt can get past. `dns`, `tls`, `too-large`, `bad-response`,
 * `aborted` and `other` are final: the next attempt would fail the same way (or we stopped it). */
export const RETRYABLE_ERRORS: readonly ErrorKind[] = [
  'connect',
  'connect-timeout',
  'headers-timeout',
  'body-timeout',
  'timeout',
  'reset',
];

/** Statuses whose Retry-After header the engine reads: the refusals ("not now"), from which the host's
 * limit is also learned (docs/crawl-engine.md#the-learned-limit). */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.includes(status);
}

export function isRetryableError(kind: ErrorKind): boolean {
  return RETRYABLE_ERRORS.includes(kind);
}

/** 429 and every 5xx say the host is overloaded (or failing): the host's interval goes up at once. */
export function isThrottleStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Retryable transport failures (timeouts, refused or reset connections) also push the rate down. */
export function isThrottleError(kind: ErrorKind): boolean {
  return isRetryableError(kind);
}

export function readsRetryAfter(status: number): boolean {
  return RETRY_AFTER_STATUSES.includes(status);
}

/** 429 and 503 refuse a request for now (a rate limiter's answers): HostRate learns the host's limit. */
export function isRefusalStatus(status: number): boolean {
  return RETRY_AFTER_STATUSES.includes(status);
}

/** 3xx statuses that the crawler follows when they carry a Location. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.includes(status);
}

/** A host as a flag names it (--pages-for, --latency-for, --window-for…): one reading for every flag. */
import { sanitizeText } from '../core/format/table';
import { parseSeedUrl } from '../core/seeds';
import { UsageError } from './args';

/** A host (lower-cased), or the host of an http(s) URL. */
export function parseHost(name: string, hostText: string): string {
  let host = hostText.toLowerCase();
  if (hostText.includes('://')) {
    const parsed = parseSeedUrl(hostText);
    if ('problem' in parsed)
      throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host or http(s) URL`);
    host = parsed.host;
  } else if (!/^[^\s/?#@]+$/.test(host)) {
    throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host name`);
  }
  return host;
}

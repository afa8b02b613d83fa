/**
 * `--contact` and `--require-contact`, shared by `robots`, `estimate --robots` and `crawl`: who runs the
 * crawl, sent in the User-Agent header (src/net/userAgent.ts). There is no default contact; before a
 * command's first request to a real host without one it prints one warning line, or with
 * `--require-contact` refuses to start (exit 2). Loopback and the demo hosts are not real hosts
 * (src/core/identity.ts).
 */
import { sanitizeText } from '../core/format/table';
import { contactProblem, hostList } from '../core/identity';
import { UsageError, type Io } from './args';

/** The warning, after `crawl-planner <command>: warning: `. */
export const NO_CONTACT_WARNING = 'no contact set: site operators cannot reach you; pass --contact URL';

/** `--contact`: an absolute http(s) URL or a mailto: address, trimmed; '' when not given (or given empty). */
export function contactOption(raw: string | undefined): string {
  const text = raw?.trim() ?? '';
  if (text === '') return '';
  const problem = contactProblem(text);
  if (problem !== undefined) throw new UsageError(`--contact: ${sanitizeText(problem)}`);
  return text;
}

/**
 * Call once the options are checked and before the first request. Without a contact and with real hosts
 * to reach (`'any'`: the command may reach hosts not known yet, a crawl that follows links off the seed
 * hosts) it writes the warning line to stderr, or with `requireContact` throws a UsageError naming them.
 */
export function checkContact(
  command: string,
  contact: string,
  realHosts: readonly string[] | 'any',
  requireContact: boolean,
  io: Io,
): void {
  if (contact !== '' || (realHosts !== 'any' && realHosts.length === 0)) return;
  if (requireContact) {
    const where =
      realHosts === 'any'
        ? 'the crawl may follow links to any host'
        : `this would reach ${sanitizeText(hostList(realHosts))}`;
    throw new UsageError(`--require-contact: no contact set (${where}); pass --contact URL`);
  }
  io.err(`crawl-planner ${command}: warning: ${NO_CONTACT_WARNING}\n`);
}

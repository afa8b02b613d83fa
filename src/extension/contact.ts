/**
 * Asking for a contact before the extension reaches a real host without one (docs/identity.md). With `crawlPlanner.contactUrl` empty, the first test crawl or robots.txt
 * fetch that would reach a host other than this machine's (loopback, the demo hosts: see
 * src/core/identity.ts) shows a warning with two actions:
 *
 * - "Set Contact URL" opens the setting; this request does not go ahead;
 * - "Crawl Anyway" lets it go ahead without a contact.
 *
 * Once either is chosen the workspace remembers it (workspaceState) and does not ask again: later requests
 * go ahead, each with a line in the log. A notification closed without a choice is asked again next time
 * (and this request does not go ahead). Requests waiting at the same time share one notification.
 *
 * Only types come from `vscode`: the notification, the settings editor and the state are injected, so the
 * rules are unit-tested (test/unit/contact.test.ts) and the real notification in the extension host
 * (test/extension/suite/contact.test.ts).
 */
import type * as vscode from 'vscode';
import { hostList, realHosts } from '../core/identity';
import type { Log } from './log';

/** workspaceState key: true once the question was answered in this workspace. */
export const CONTACT_ANSWERED_STATE_KEY = 'crawlPlanner.contactQuestionAnswered';

export const SET_CONTACT = 'Set Contact URL';
export const CRAWL_ANYWAY = 'Crawl Anyway';

/** Thrown (or reported) when a request did not go ahead for want of a contact. */
export class ContactRequiredError extends Error {
  override readonly name = 'ContactRequiredError';
}

export interface ContactGuardDeps {
  /** The `crawlPlanner.contactUrl` setting as it applies now ('' or undefined: none). */
  contact(): string | undefined;
  state: Pick<vscode.Memento, 'get' | 'update'>;
  /** Shows the warning with its actions (vscode.window.showWarningMessage). */
  ask(message: string, ...actions: string[]): Thenable<string | undefined>;
  /** Opens the `crawlPlanner.contactUrl` setting. */
  openSetting(): Thenable<unknown>;
  log: Pick<Log, 'info' | 'warn'>;
}

export interface ContactGuard {
  /**
   * Resolves when the request for `urls` may go ahead; rejects with a ContactRequiredError when it may not.
   * `what` names the request in the log and the error ("robots.txt for a.example").
   */
  check(urls: readonly string[], what: string): Promise<void>;
}

export function createContactGuard(deps: ContactGuardDeps): ContactGuard {
  /** The notification on screen, shared by the requests that wait for it; resolves to the answer once it is acted on. */
  let pending: Promise<string | undefined> | undefined;

  const question = (hosts: readonly string[]): Promise<string | undefined> => {
    pending ??= (async () => {
      const answer = await deps.ask(
        `Crawl Planner: no contact URL is set, so the operators of ${hostList(hosts)} cannot reach you. ` +
          'Set crawlPlanner.contactUrl to a page or a mailto: address that says who runs this crawl; it goes in the User-Agent header.',
        SET_CONTACT,
        CRAWL_ANYWAY,
      );
      if (answer === CRAWL_ANYWAY || answer === SET_CONTACT) await deps.state.update(CONTACT_ANSWERED_STATE_KEY, true);
      if (answer === SET_CONTACT) await deps.openSetting();
      return answer;
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  return {
    async check(urls, what) {
      if ((deps.contact() ?? '').trim() !== '') return;
      const hosts = realHosts(urls);
      if (hosts.length === 0) return;
      if (deps.state.get<boolean>(CONTACT_ANSWERED_STATE_KEY) === true) {
        deps.log.warn(
          `${what}: no contact URL set (crawlPlanner.contactUrl); going ahead, as answered once in this workspace`,
        );
        return;
      }
      const answer = await question(hosts);
      if (answer === CRAWL_ANYWAY) {
        deps.log.warn(`${what}: no contact URL set; going ahead (${CRAWL_ANYWAY})`);
        return;
      }
      deps.log.info(
        `${what}: not started: no contact URL set (${answer === SET_CONTACT ? 'the setting was opened' : 'the question was closed'})`,
      );
      throw new ContactRequiredError(
        `${what} not started: set a contact URL (crawlPlanner.contactUrl), or choose ${CRAWL_ANYWAY}`,
      );
    },
  };
}

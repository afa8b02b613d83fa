/**
 * The planner's webview as the controller sees it: the one attached (nothing is posted until it says `ready`),
 * how many `ready` messages were answered with a state it received, and posting, notices and guarded actions.
 */
import type { NoticeLevel } from '../../shared/planner/viewModel';
import type { HostToWebview } from '../../shared/planner/messages';
import { deliver, errorText } from './deliver';

export type Post = (message: HostToWebview) => PromiseLike<unknown> | void;

export class WebviewLink {
  private post: Post | undefined;
  private ready = false;
  /** How many `ready` messages were answered with a state the webview received. */
  private answers = 0;
  private waiters: Array<() => void> = [];

  /** `log` writes one line after "Planner view: ". */
  constructor(private readonly log: (message: string) => void) {}

  /** A (new) webview is showing the planner; nothing is posted until it says `ready`. */
  attach(post: Post): void {
    this.post = post;
    this.ready = false;
  }

  /** The webview is gone. */
  detach(): void {
    this.post = undefined;
    this.ready = false;
  }

  /** A webview has said `ready` and been posted the state since it was attached. */
  get isReady(): boolean {
    return this.ready;
  }

  /** How many `ready` messages were answered so far. */
  get answeredReadies(): number {
    return this.answers;
  }

  /** Resolves once a `ready` is answered after `answeredReadies` was `count` (at once if one already was). */
  readyAnswered(count: number): Promise<void> {
    if (this.answers > count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The webview said `ready`: `postState` answers it, and a state it received counts as an answer. */
  answerReady(postState: () => Promise<boolean>): void {
    this.ready = true;
    void postState().then((delivered) => {
      if (!delivered) return;
      this.answers++;
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  /** Posts `message` once the webview is ready; resolves to whether it was delivered (a post that fails is logged). */
  send(message: HostToWebview): Promise<boolean> {
    if (!this.ready || this.post === undefined) return Promise.resolve(false);
    return deliver(this.post, message, (why) => this.log(why));
  }

  /** A notice in the sidebar; an error is logged too. */
  notice(level: NoticeLevel, message: string): void {
    if (level === 'error') this.log(message);
    this.send({ type: 'notice', level, message });
  }

  /** Runs `action`; a throw or a rejection becomes an error notice ("Could not <what>: …"). */
  guard(what: string, action: () => PromiseLike<unknown> | void): void {
    try {
      Promise.resolve(action()).catch((err: unknown) => this.notice('error', `Could not ${what}: ${errorText(err)}`));
    } catch (err) {
      this.notice('error', `Could not ${what}: ${errorText(err)}`);
    }
  }
}

/**
 * Posting to a webview (the planner's, the plan report's): `webview.postMessage` resolves to false when the
 * webview could not take the message (it is not live) and may throw; either way the caller learns whether it
 * was delivered, and a failure is logged, never thrown.
 */

/** Posts `message` with `post`; resolves to whether it was delivered. `fail` hears why it was not. */
export function deliver<M extends { type: string }>(
  post: (message: M) => PromiseLike<unknown> | void,
  message: M,
  fail: (why: string) => void,
): Promise<boolean> {
  const failed = (err: unknown): false => {
    fail(`could not post ${message.type}: ${errorText(err)}`);
    return false;
  };
  try {
    return Promise.resolve(post(message)).then((delivered) => delivered !== false, failed);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
}

/** An error in one line for people: its message, at most 300 characters. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

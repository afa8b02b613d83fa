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
    const text = err instanceof Error ? err.message : String(err);
    fail(`could not post ${message.type}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`);
    return false;
  };
  try {
    return Promise.resolve(post(message)).then((delivered) => delivered !== false, failed);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
}

/** The real Clock for the engine: wall time and timers that are cleared when aborted. */
import { MAX_TIMER_MS, type Clock } from '../core/clock';

export const systemClock: Clock = {
  now: () => Date.now(),
  /**
   * Resolves no earlier than `ms` after the call by Date.now(): Node timers may fire up to a
   * millisecond early against the wall clock, and a politeness interval must never be shortened, so the
   * timer is re-armed for any remainder.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const abortReason = () => signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
      if (signal?.aborted) {
        reject(abortReason());
        return;
      }
      const target = Date.now() + Math.max(0, ms);
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason());
      };
      const arm = () => {
        const left = target - Date.now();
        if (left <= 0) {
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return;
        }
        timer = setTimeout(arm, Math.min(Math.ceil(left), MAX_TIMER_MS));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (ms <= 0) timer = setTimeout(arm, 0);
      else arm();
    });
  },
};

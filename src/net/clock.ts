/** The real Clock for the engine: wall time and timers that are cleared when aborted. */
import type { Clock } from '../core/clock';

/** setTimeout fires after 1 ms for anything above 2^31−1 ms; longer sleeps are chained. */
const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
        return;
      }
      let remaining = Math.max(0, ms);
      let timer: NodeJS.Timeout;
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      };
      const arm = () => {
        const step = Math.min(remaining, MAX_TIMER_MS);
        remaining -= step;
        timer = setTimeout(() => {
          if (remaining > 0) return arm();
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, step);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
    });
  },
};

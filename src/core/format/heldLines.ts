/**
 * A test crawl's live lines held until its plan is printed. The crawl starts before its plan is known (the
 * plan waits for every seed's robots.txt, the crawl does not), yet the plan is printed first: lines written
 * before it are held, and written in order right after it; from then on they go straight through. Shared by
 * `crawl-planner crawl` (src/cli/crawl.ts) and the extension's terminal crawl, so both print the same order.
 *
 * Two steps, because the crawl's event handler (which writes) must exist before the crawl, and so before the
 * promise of its plan: `holdLinesUntilPlan(write)` for the handler, then `printPlan(plan, print)` once the crawl
 * has started.
 */

export interface HeldLines<T> {
  /** Writes `lines` now once the plan is printed (or failed), else holds them until then. */
  write(lines: T): void;
  /**
   * Prints the plan when `plan` resolves (nothing when it rejects), then writes the held lines in order. The
   * promise settles after that; it rejects only when `print` throws (the held lines are written all the same).
   */
  printPlan<P>(plan: Promise<P>, print: (plan: P) => void): Promise<void>;
}

export function holdLinesUntilPlan<T>(write: (lines: T) => void): HeldLines<T> {
  let held: T[] | undefined = [];
  return {
    write(lines) {
      if (held) held.push(lines);
      else write(lines);
    },
    printPlan(plan, print) {
      return plan
        .then(print, () => undefined)
        .finally(() => {
          for (const lines of held ?? []) write(lines);
          held = undefined;
        });
    },
  };
}

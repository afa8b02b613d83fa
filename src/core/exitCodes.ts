/**
 * How a run ends, as a process exit code: the CLI's commands and the extension's test-crawl terminal (the
 * task's exit code) use the same three.
 */

/** It ran to its end (for a crawl: all work done, or the page limit reached). */
export const EXIT_OK = 0;
/** It failed, or (a crawl) stopped early or dropped hosts. */
export const EXIT_FAILED = 1;
/** Bad input: nothing ran (one line on stderr says why). */
export const EXIT_USAGE = 2;

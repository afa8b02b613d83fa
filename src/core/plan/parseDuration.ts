/** Durations as people type them, parsed to seconds: "90", "90s", "45m", "36h", "2d", "1w", "1d12h", "1.5 h" (format/duration.ts writes them). */

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86_400, day: 86_400, days: 86_400,
  w: 604_800, week: 604_800, weeks: 604_800,
};

/**
 * Seconds for a duration text: a plain number is seconds; otherwise one or more number+unit parts
 * (s, m, h, d, w and their long forms), added up. Returns undefined when the text is not a duration.
 * A bare number may only stand alone ("1d12" is refused).
 */
export function parseDurationText(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  const part = /(\d+(?:\.\d*)?|\.\d+)\s*([a-z]+)?\s*/y;
  let total = 0;
  let parts = 0;
  let bare = false;
  while (part.lastIndex < t.length) {
    const m = part.exec(t);
    if (!m) return undefined;
    const [, num, unit] = m;
    if (unit === undefined) {
      bare = true;
      total += Number(num);
    } else {
      if (!Object.hasOwn(UNIT_SECONDS, unit)) return undefined;
      total += Number(num) * UNIT_SECONDS[unit]!;
    }
    parts++;
  }
  if (bare && parts > 1) return undefined;
  return Number.isFinite(total) ? total : undefined;
}

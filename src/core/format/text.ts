/** Small text helpers used across the product: a count with its noun, a text clipped to a length, the message of a thrown value. */
import { formatNumber } from './duration';

/** "1 page", "2 pages", "1,000 pages" (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** `text` cut to at most `max` characters, the last one an ellipsis when it was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The one line to show for a thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

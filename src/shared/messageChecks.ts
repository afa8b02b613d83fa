/**
 * The checks every webview message goes through on the extension side (the planner's and the plan
 * report's): an object, a string `type`, no unknown fields. Pure: bundled into both sides.
 */

/** For the `default:` of an exhaustive switch. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

export type Invalid = { error: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function unknownKeys(record: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  return Object.keys(record).find((key) => !allowed.includes(key));
}

/**
 * The start of every message check (this protocol's and the plan report's): an object with a string `type`,
 * and `only(...keys)`, which says which field is not one of `keys` (and `type`), if any.
 */
export function messageHead(
  raw: unknown,
): { raw: Record<string, unknown>; type: string; only: (...keys: string[]) => string | undefined } | Invalid {
  if (!isRecord(raw)) return { error: 'message: not an object' };
  const type = raw.type;
  if (typeof type !== 'string') return { error: 'message: no type' };
  const only = (...keys: string[]): string | undefined => {
    const extra = unknownKeys(raw, ['type', ...keys]);
    return extra === undefined ? undefined : `${type}: unknown field ${JSON.stringify(extra.slice(0, 40))}`;
  };
  return { raw, type, only };
}

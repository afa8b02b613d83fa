/**
 * The checks every webview message goes through (the planner's and the plan report's): on the extension side an
 * object, a string `type`, no unknown fields; on the webview side a known `type`. Pure: bundled into both sides.
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

/** A message of `type` that carries no field but its type (`ready`, a button's message), or why not. */
export function fieldless<T extends string>(type: T, extra: string | undefined): { type: T } | Invalid {
  return extra === undefined ? { type } : { error: extra };
}

/** The `default:` of a message check's switch: at compile time every type has a case; at run time `type` may be any string. */
export function unknownType(type: never): Invalid {
  return { error: `message: unknown type ${JSON.stringify(String(type).slice(0, 40))}` };
}

/**
 * A webview's guard on incoming messages: an object whose `type` is one of `types` (every type of the protocol,
 * checked at compile time where the set is written). The host is trusted; this catches bugs.
 */
export function hasKnownType<T extends { type: string }>(
  raw: unknown,
  types: Readonly<Record<T['type'], true>>,
): raw is T {
  return isRecord(raw) && typeof raw.type === 'string' && Object.hasOwn(types, raw.type);
}

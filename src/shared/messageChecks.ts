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

/** The fields (besides `type`) that each message of a protocol `M` may carry, by type. */
export type MessageFields<M extends { type: string }> = {
  readonly [T in M['type']]: readonly Exclude<keyof Extract<M, { type: T }>, 'type'>[];
};

/** A message that has passed `checkMessage`'s checks: its type is one of `M`'s, and it carries only that type's fields. */
export type MessageHead<M extends { type: string }> = Record<string, unknown> & { type: M['type'] };

/**
 * Every message check (the planner's and the plan report's): an object, with a string `type` that `fields`
 * knows, and no field but that type's; then `check`, the type's own checks of its fields.
 */
export function checkMessage<M extends { type: string }>(
  input: unknown,
  fields: MessageFields<M>,
  check: (raw: MessageHead<M>) => M | Invalid,
): M | Invalid {
  if (!isRecord(input)) return { error: 'message: not an object' };
  const type = input.type;
  if (typeof type !== 'string') return { error: 'message: no type' };
  if (!Object.hasOwn(fields, type)) return { error: `message: unknown type ${JSON.stringify(type.slice(0, 40))}` };
  const extra = unknownKeys(input, ['type', ...(fields[type as M['type']] as readonly string[])]);
  if (extra !== undefined) return { error: `${type}: unknown field ${JSON.stringify(extra.slice(0, 40))}` };
  return check(input as MessageHead<M>);
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

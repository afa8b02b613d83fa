/**
 * Sharding by host (seed: "Assign each host to one worker, using a hash of the host name"): every
 * host's politeness state lives on exactly one machine, so no coordination between machines is needed.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of the UTF-8 bytes of `text`, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** The machine (0-based) that owns `host`: fnv1a32(host) mod machines. `host` is used as given (lower-case it first). */
export function machineForHost(host: string, machines: number): number {
  return fnv1a32(host) % machines;
}

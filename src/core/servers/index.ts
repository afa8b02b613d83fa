/** Hosts that share a server: addresses, their classes and the groups (docs/planning.md#shared-servers). */
export * from './address';
export * from './cdnRanges';
export * from './groups';
export * from './overrides';
export * from './units';

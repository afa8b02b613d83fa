/** The crawl plan engine: `plan()` and its data. See docs/planning.md for the conventions. */
export { plan } from './plan';
export { planHost, tidy } from './host';
export { resolvePlanInput, validatePlanInput } from './input';
export { HOST_DOMINATES_RATIO, HOST_DOMINATES_SHARE, SHARD_IMBALANCE_THRESHOLD } from './warnings';
export { spreadPages } from './pages';
export { applyPlanChange, cliChange, pagesByDeadline, type PlanInputOf } from './deadline';
export { fnv1a32, machineForHost } from './hash';
export { parseDeadlineText, parseDurationText } from './parseDuration';
export { parseByteSizeText } from './parseByteSize';
export { estimateDocument, ESTIMATE_SCHEMA_VERSION, type EstimateDocument } from './document';
export * from './types';

/** The crawl plan engine: `plan()` and its data. See README.md for the conventions. */
export {
  plan,
  planHost,
  resolvePlanInput,
  validatePlanInput,
  tidy,
  HOST_DOMINATES_RATIO,
  HOST_DOMINATES_SHARE,
  SHARD_IMBALANCE_THRESHOLD,
} from './plan';
export { spreadPages } from './pages';
export { fnv1a32, machineForHost } from './hash';
export { parseDurationText } from './parseDuration';
export { estimateDocument, ESTIMATE_SCHEMA_VERSION, type EstimateDocument } from './document';
export * from './types';

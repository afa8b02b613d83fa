/** Crawl windows: when a crawl may run, in which time zone, and where that puts its finish (docs/planning.md#crawl-windows). */
export * from './spec';
export * from './zone';
export * from './calendar';

/** Signs that a crawl is being blocked (docs/crawl-engine.md#blocking-suspected): block markers and the trend detector. */
export * from './markers';
export * from './detector';

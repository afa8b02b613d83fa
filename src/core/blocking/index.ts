/** Signs that a crawl is being blocked: block markers and the trend detector. */
export * from './markers';
export * from './detector';

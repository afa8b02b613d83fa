/**
 * What the planner shows, as pure functions of what the extension posts and what is typed, a module per
 * section (src/webview/model/). No DOM, so they are unit-tested in node; the sections (src/webview/sections/)
 * only turn them into elements (textContent). The plan's own text (total, rows, chart) is made by the
 * extension (src/core/format/planSummary.ts).
 */
export * from './model/calibration';
export * from './model/crawl';
export * from './model/deadline';
export * from './model/fields';
export * from './model/origins';
export * from './model/plan';
export * from './model/robots';
export * from './model/seeds';
export * from './model/sitemaps';

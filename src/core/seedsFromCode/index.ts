/**
 * Seeds from the code being written (docs/extension.md §Seeds from code): URLs from any text, start URLs and
 * settings from Scrapy spiders and Crawlee scripts. Everything is read with tokenizers written for it (Python,
 * JavaScript/TypeScript); nothing is run or evaluated. Pure.
 */
export type {
  BlockKind,
  CodeUrl,
  NotReadReason,
  SettingRead,
  SettingReads,
  SkippedEntry,
  SkipReason,
  StartUrlsBlock,
} from './types';
export { urlsInText, type TextUrlOptions, type TextUrls } from './urlsInText';
export {
  scrapySettingsModule,
  scrapySpiders,
  SCRAPY_SETTING_NAMES,
  type CustomSettings,
  type ScrapySpider,
} from './scrapy';
export { crawleeScript, crawlerOf, CRAWLEE_OPTION_NAMES, type CrawleeCrawler, type CrawleeScript } from './crawlee';
export {
  resolveSettings,
  settingMeaning,
  SETTING_MEANINGS,
  type PlannerQuantity,
  type SettingMeaning,
} from './settings';
export {
  blockSeeds,
  formFromSettings,
  lensTitle,
  skippedText,
  type FormFromCode,
  type FormNumbersFromCode,
  type PlacedSetting,
} from './fromCode';
export { seedLineOf, seedsTextOf } from './seedsText';
export { codeSeeds, SEEDS_FROM_CODE_LIMITS, type CodeLanguage, type CodeSeeds, type SettingsModule } from './code';

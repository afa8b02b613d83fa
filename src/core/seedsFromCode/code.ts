/**
 * The blocks of start URLs in a source file, by language, each with its seeds, its title and the settings that
 * apply to it, from where (docs/extension.md §Seeds from code). The one entry point for the editor. Pure: the
 * adapter reads the files (the source, a settings.py next to it) and passes their text.
 */
import { crawleeScript, crawlerOf, CRAWLEE_OPTION_NAMES } from './crawlee';
import { blockSeeds, lensTitle, type PlacedSetting } from './fromCode';
import { scrapySpiders, SCRAPY_SETTING_NAMES, type ScrapySpider } from './scrapy';
import { resolveSettings } from './settings';
import type { SettingReads, StartUrlsBlock } from './types';

export type CodeLanguage = 'python' | 'javascript';

/** How much is read (docs/extension.md §Seeds from code). */
export const SEEDS_FROM_CODE_LIMITS = {
  /** Characters of a source file that get CodeLenses (a spider is a few KB; a larger file is not one). */
  codeChars: 2 * 1024 * 1024,
  /** Characters of text "Plan URLs in Selection" reads (a CSV, a sitemap, a log). */
  textChars: 64 * 1024 * 1024,
  /** Bytes of a settings.py that are read. */
  settingsBytes: 1024 * 1024,
} as const;

/**
 * Text a file needs before it can hold a block: the readers only make one from a name token `start_urls`,
 * `start_requests` or `start` (Python) or `run` / `addRequests` (JavaScript), matched as written (no escapes or
 * normalisation in names). A file without it is not tokenised: the CodeLens asks again on every edit of every
 * Python, JavaScript and TypeScript file, and tokenising costs about 0.3 ms per KB.
 */
const BLOCK_NAMES: Record<CodeLanguage, RegExp> = {
  python: /start/,
  javascript: /\brun\b|\baddRequests\b/,
};

/** A Scrapy project's settings module, read: its name for people ("bookshop/settings.py") and what it sets. */
export interface SettingsModule {
  label: string;
  reads: SettingReads;
}

/** One block of start URLs with what the planner takes from it. */
export interface CodeSeeds {
  block: StartUrlsBlock;
  /** The URLs without repeats, in the order written. */
  urls: string[];
  hosts: number;
  /** "Plan 4 URLs · 2 hosts". */
  title: string;
  /** The settings that apply, one per name, from the place that wins. */
  settings: PlacedSetting[];
}

function placed(label: string, reads: SettingReads): Array<{ source: string; reads: SettingReads }> {
  return [{ source: label, reads }];
}

/** custom_settings that is not a dict display: every setting is unknown (settings.py may not apply). */
function unknownReads(names: readonly string[], line: number): SettingReads {
  return Object.fromEntries(names.map((name) => [name, { name, line, notRead: 'expression' as const }]));
}

function scrapySettings(spider: ScrapySpider, fileLabel: string, module: SettingsModule | undefined): PlacedSetting[] {
  const custom = spider.customSettings;
  const layers = [
    ...(custom === undefined
      ? []
      : placed(fileLabel, custom.notLiteral ? unknownReads(SCRAPY_SETTING_NAMES, custom.line) : custom.reads)),
    ...(module === undefined ? [] : placed(module.label, module.reads)),
  ];
  return resolveSettings(layers).map(({ source, read }) => ({ where: `${source}:${read.line}`, read }));
}

function withSeeds(block: StartUrlsBlock, settings: PlacedSetting[]): CodeSeeds {
  return { block, ...blockSeeds(block), title: lensTitle(block), settings };
}

/**
 * The start-URL blocks of a Python (Scrapy) or JavaScript/TypeScript (Crawlee) file, in line order. `fileLabel`
 * names the file in the settings' `where`; `settingsModule` is the project's settings.py, when there is one.
 */
export function codeSeeds(
  text: string,
  language: CodeLanguage,
  fileLabel: string,
  settingsModule?: SettingsModule,
): CodeSeeds[] {
  if (text.length > SEEDS_FROM_CODE_LIMITS.codeChars || !BLOCK_NAMES[language].test(text)) return [];
  if (language === 'python') {
    return scrapySpiders(text).flatMap((spider) => {
      const settings = scrapySettings(spider, fileLabel, settingsModule);
      return spider.blocks.map((block) => withSeeds(block, settings));
    });
  }
  const script = crawleeScript(text);
  return script.blocks.map((block) => {
    const crawler = crawlerOf(script, block);
    const reads =
      crawler === undefined
        ? {}
        : crawler.optionsNotLiteral
          ? unknownReads(CRAWLEE_OPTION_NAMES, crawler.line)
          : crawler.options;
    return withSeeds(
      block,
      resolveSettings(placed(fileLabel, reads)).map(({ source, read }) => ({ where: `${source}:${read.line}`, read })),
    );
  });
}

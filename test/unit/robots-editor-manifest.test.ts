/**
 * The robots.txt editor's contributions in package.json agree with src/extension/ids.ts, the settings
 * reader and the manifest rules; the language assets exist and are packaged; the grammar's directive
 * patterns catch the lines they should.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORY, COMMANDS, ROBOTS_TXT_LANGUAGE_ID, SETTINGS } from '../../src/extension/ids';
import { SETTING_LIMITS } from '../../src/extension/config';
import { readRobotsTxtSettings, ROBOTS_TXT_DEFAULTS } from '../../src/extension/robotsTxtEditor/settings';

const root = join(__dirname, '..', '..');

interface Contributes {
  languages: Array<{
    id: string;
    filenames?: string[];
    extensions?: string[];
    configuration?: string;
    aliases?: string[];
  }>;
  grammars: Array<{ language: string; scopeName: string; path: string }>;
  commands: Array<{ command: string; title: string; category?: string }>;
  menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
  configuration: {
    properties: Record<
      string,
      {
        type: string;
        default: unknown;
        minimum?: number;
        maximum?: number;
        scope?: string;
        markdownDescription?: string;
        description?: string;
      }
    >;
  };
}

/** The robots.txt editor's part of package.json's `contributes`. */
function snippet(): Contributes {
  const c = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: Contributes }).contributes;
  const mine = (command: string) => (MY_COMMANDS as readonly string[]).includes(command);
  return {
    languages: c.languages.filter((l) => l.id === ROBOTS_TXT_LANGUAGE_ID),
    grammars: c.grammars.filter((g) => g.language === ROBOTS_TXT_LANGUAGE_ID),
    commands: c.commands.filter((x) => mine(x.command)),
    menus: Object.fromEntries(
      Object.entries(c.menus)
        .map(([menu, items]) => [menu, items.filter((i) => mine(i.command))])
        .filter(([, items]) => (items?.length ?? 0) > 0),
    ),
    configuration: {
      properties: Object.fromEntries(
        Object.entries(c.configuration.properties).filter(([key]) => (MY_SETTINGS as readonly string[]).includes(key)),
      ),
    },
  };
}

const MY_COMMANDS = [COMMANDS.testRobotsTxtUrls, COMMANDS.compareLiveRobotsTxt];
const MY_SETTINGS = [
  SETTINGS.robotsTxtDiagnostics,
  SETTINGS.robotsTxtHovers,
  SETTINGS.robotsTxtCodeLens,
  SETTINGS.robotsTxtQuickFixes,
  SETTINGS.robotsTxtPagesForEstimate,
];

describe('the robots.txt contributions in package.json', () => {
  const c = snippet();

  it('the language: robots-txt by file name only, with its configuration and grammar', () => {
    assert.equal(c.languages.length, 1);
    const [language] = c.languages;
    assert.equal(language?.id, ROBOTS_TXT_LANGUAGE_ID);
    assert.deepEqual(language?.filenames, ['robots.txt']);
    assert.equal(language?.extensions, undefined, 'not by extension: other .txt files stay plain text');
    assert.ok(existsSync(join(root, language?.configuration ?? 'missing')));
    const [grammar] = c.grammars;
    assert.equal(grammar?.language, ROBOTS_TXT_LANGUAGE_ID);
    const tm = JSON.parse(readFileSync(join(root, grammar?.path ?? 'missing'), 'utf8')) as { scopeName: string };
    assert.equal(tm.scopeName, grammar?.scopeName);
    const configuration = JSON.parse(readFileSync(join(root, 'language-configuration.json'), 'utf8')) as {
      comments: { lineComment: string };
    };
    assert.equal(configuration.comments.lineComment, '#');
  });

  it('commands: exactly the new ids, category "Crawl Planner"', () => {
    assert.deepEqual(c.commands.map((x) => x.command).sort(), [...MY_COMMANDS].sort());
    for (const command of c.commands) {
      assert.equal(command.category, CATEGORY);
      assert.ok(!command.title.startsWith(CATEGORY));
    }
    assert.equal(
      c.commands.find((x) => x.command === COMMANDS.testRobotsTxtUrls)?.title,
      'Test URLs against this robots.txt',
    );
    assert.equal(
      c.commands.find((x) => x.command === COMMANDS.compareLiveRobotsTxt)?.title,
      'Compare with live robots.txt',
    );
  });

  it('menus: only these commands, only in robots-txt editors', () => {
    for (const [menu, items] of Object.entries(c.menus)) {
      for (const item of items) {
        assert.ok((MY_COMMANDS as string[]).includes(item.command), `${menu}: ${item.command}`);
        assert.equal(item.when, `editorLangId == ${ROBOTS_TXT_LANGUAGE_ID}`);
      }
    }
    assert.ok(c.menus['editor/title']?.some((i) => i.command === COMMANDS.testRobotsTxtUrls));
  });

  it('settings: exactly the robotsTxt keys, defaults the code falls back to, manifest hygiene', () => {
    const props = c.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), [...MY_SETTINGS].sort());
    for (const key of [
      SETTINGS.robotsTxtDiagnostics,
      SETTINGS.robotsTxtHovers,
      SETTINGS.robotsTxtCodeLens,
      SETTINGS.robotsTxtQuickFixes,
    ]) {
      assert.equal(props[key]?.type, 'boolean');
      assert.equal(props[key]?.default, true);
    }
    const pages = props[SETTINGS.robotsTxtPagesForEstimate];
    assert.equal(pages?.type, 'integer');
    assert.equal(pages?.default, ROBOTS_TXT_DEFAULTS.pagesForEstimate);
    assert.equal(pages?.minimum, 1);
    assert.equal(pages?.maximum, SETTING_LIMITS[SETTINGS.robotsTxtPagesForEstimate].max);
    for (const [key, s] of Object.entries(props)) {
      assert.ok(typeof s.markdownDescription === 'string' && s.markdownDescription.length > 20, key);
      assert.equal(s.description, undefined, key);
      assert.ok(
        ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'].includes(
          s.scope ?? '',
        ),
        key,
      );
      for (const ref of s.markdownDescription?.match(/#crawlPlanner\.[a-zA-Z.]+#/g) ?? []) {
        assert.ok((Object.values(SETTINGS) as string[]).includes(ref.slice(1, -1)), `${key} links to ${ref}`);
      }
    }
  });

  it('the language assets are packaged (.vscodeignore allow-list)', () => {
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!syntaxes/**'));
    assert.ok(ignore.includes('!language-configuration.json'));
  });
});

describe('readRobotsTxtSettings', () => {
  const planner = {
    maxCrawlDelaySeconds: 30,
    crawlDelayPolicy: 'cap' as const,
    defaultDelaySeconds: 1,
    userAgent: 'CrawlPlanner',
  };
  const config = (values: Record<string, unknown>) => ({
    get: <T>(key: string): T | undefined => values[`crawlPlanner.${key}`] as T | undefined,
  });

  it('defaults: every feature on, N = 1,000,000 (no plan), the planner settings passed through', () => {
    assert.deepEqual(readRobotsTxtSettings(config({}), planner, undefined), {
      maxCrawlDelaySeconds: 30,
      crawlDelayPolicy: 'cap',
      configuredDelaySeconds: 1,
      pagesForEstimate: 1_000_000,
      userAgent: 'CrawlPlanner',
      features: { diagnostics: true, hovers: true, codeLens: true, quickFixes: true },
    });
  });

  it('switches off only for false; N from the setting, the plan winning; junk falls back', () => {
    const s = readRobotsTxtSettings(
      config({
        [SETTINGS.robotsTxtDiagnostics]: false,
        [SETTINGS.robotsTxtHovers]: 'no',
        [SETTINGS.robotsTxtPagesForEstimate]: 5000,
      }),
      planner,
      undefined,
    );
    assert.deepEqual(s.features, { diagnostics: false, hovers: true, codeLens: true, quickFixes: true });
    assert.equal(s.pagesForEstimate, 5000);
    assert.equal(
      readRobotsTxtSettings(config({ [SETTINGS.robotsTxtPagesForEstimate]: 5000 }), planner, 42).pagesForEstimate,
      42,
    );
    for (const junk of [0, -1, 1.5, '100', 1e13, Number.NaN, null]) {
      assert.equal(
        readRobotsTxtSettings(config({ [SETTINGS.robotsTxtPagesForEstimate]: junk }), planner, junk as never)
          .pagesForEstimate,
        1_000_000,
        String(junk),
      );
    }
  });
});

describe('the grammar', () => {
  const grammar = JSON.parse(readFileSync(join(root, 'syntaxes', 'robots-txt.tmLanguage.json'), 'utf8')) as {
    repository: Record<string, { begin?: string }>;
  };
  /** Oniguruma's `(?i:…)` as a JavaScript regex with the `i` flag (enough for these patterns). */
  const begin = (name: string): RegExp =>
    new RegExp((grammar.repository[name]?.begin ?? '').replace(/\(\?i:/g, '(?:'), 'i');
  const ORDER = ['user-agent', 'rule', 'crawl-delay', 'sitemap', 'nonstandard', 'unknown'];
  const first = (line: string) => ORDER.find((name) => begin(name).test(line));
  const table: [string, string | undefined][] = [
    ['User-agent: *', 'user-agent'],
    ['useragent Googlebot', 'user-agent'],
    ['  Disallow: /a*b$', 'rule'],
    ['disallow /x', 'rule'],
    ['Disalow: /x', 'rule'],
    ['Allowance: x', 'unknown'],
    ['Crawl-delay: 10', 'crawl-delay'],
    ['Sitemap: https://a.example/s.xml', 'sitemap'],
    ['Host: a.example', 'nonstandard'],
    ['Noindexer: x', 'unknown'],
    ['# comment', undefined],
    ['just words', undefined],
  ];
  for (const [line, expected] of table)
    it(`${JSON.stringify(line)} → ${expected}`, () => assert.equal(first(line), expected));
});

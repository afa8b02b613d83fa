/**
 * Manifest hygiene (CONTRIBUTING.md §How to add, §Packaging): settings with type, default, range, markdownDescription and scope;
 * the defaults the code assumes; workspace-trust declarations; the task schema; activation; packaging.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SAMPLE_CRAWL_DEFAULTS,
  SAMPLE_CRAWL_LIMITS,
  type SampleCrawlOptions,
} from '../../src/core/crawl/sampleCrawlOptions';
import { CONTACT_MAX_LENGTH, contactProblem } from '../../src/core/identity';
import type { NumberLimit } from '../../src/core/limits';
import { PLAN_LIMITS } from '../../src/core/plan/types';
import { PACING_DEFAULTS } from '../../src/core/politeness/pacing';
import { RESTRICTED_SETTINGS, SETTING_DEFAULTS, SETTING_LIMITS, SETTING_MAX_LENGTHS } from '../../src/extension/config';
import { SETTINGS, TASK_TYPE } from '../../src/extension/ids';
import { ROBOTS_TXT_DEFAULTS } from '../../src/extension/robotsTxtEditor/settings';
import { resolveCrawlTask, TASK_PROPERTIES } from '../../src/extension/crawl/definition';

const root = join(__dirname, '..', '..');

interface Setting {
  type: string;
  default: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
  enumDescriptions?: string[];
  markdownEnumDescriptions?: string[];
  markdownDescription?: string;
  description?: string;
  scope?: string;
  items?: { type: string };
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  icon: string;
  engines: { vscode: string };
  activationEvents: string[];
  extensionKind?: string[];
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  capabilities: {
    untrustedWorkspaces: { supported: boolean | 'limited'; restrictedConfigurations?: string[]; description?: string };
    virtualWorkspaces: boolean | { supported: boolean };
  };
  contributes: {
    configuration: { title: string; properties: Record<string, Setting> };
    viewsContainers: { activitybar: Array<{ icon: string }> };
    taskDefinitions: Array<{
      type: string;
      required?: string[];
      when?: string;
      properties: Record<string, Setting & { items?: { type: string } }>;
    }>;
  };
};
const settings = manifest.contributes.configuration.properties;
const SCOPES = ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'];

for (const [key, s] of Object.entries(settings)) {
  test(`setting ${key}: type, default, markdownDescription, scope`, () => {
    assert.ok(['string', 'number', 'integer', 'boolean', 'array'].includes(s.type), `type ${s.type}`);
    if (s.type === 'array') assert.ok(s.items !== undefined, 'an array says what its items are');
    assert.ok('default' in s, 'has a default');
    assert.ok(typeof s.markdownDescription === 'string' && s.markdownDescription.length > 20, 'markdownDescription');
    assert.equal(s.description, undefined, 'markdownDescription only');
    assert.ok(s.scope !== undefined && SCOPES.includes(s.scope), `scope ${s.scope}`);
  });

  if (s.type === 'number' || s.type === 'integer') {
    test(`setting ${key}: minimum ≤ default ≤ maximum`, () => {
      assert.equal(typeof s.minimum, 'number');
      assert.equal(typeof s.maximum, 'number');
      assert.equal(typeof s.default, 'number');
      assert.ok(s.minimum! <= (s.default as number) && (s.default as number) <= s.maximum!);
      if (s.type === 'integer') assert.ok(Number.isInteger(s.default));
    });
  }
  if (s.enum) {
    test(`setting ${key}: every choice is described and the default is one`, () => {
      assert.equal((s.markdownEnumDescriptions ?? s.enumDescriptions)?.length, s.enum!.length);
      assert.ok(s.enum!.includes(s.default as string));
    });
  }
  if (s.pattern) {
    test(`setting ${key}: the default matches its pattern`, () => {
      assert.match(s.default as string, new RegExp(s.pattern!));
    });
  }
}

test("every setting's default is the one the code falls back to (SETTING_DEFAULTS, from the core's tables)", () => {
  const expected: Record<string, unknown> = {
    [SETTINGS.userAgent]: SETTING_DEFAULTS.userAgent,
    [SETTINGS.contactUrl]: SETTING_DEFAULTS.contactUrl ?? '',
    [SETTINGS.defaultDelay]: SETTING_DEFAULTS.defaultDelaySeconds,
    [SETTINGS.delayFrom]: SETTING_DEFAULTS.delayFrom,
    [SETTINGS.maxCrawlDelay]: SETTING_DEFAULTS.maxCrawlDelaySeconds,
    [SETTINGS.crawlDelayPolicy]: SETTING_DEFAULTS.crawlDelayPolicy,
    [SETTINGS.connectTimeout]: SETTING_DEFAULTS.connectTimeoutSeconds,
    [SETTINGS.requestTimeout]: SETTING_DEFAULTS.requestTimeoutSeconds,
    [SETTINGS.robotsTxtTimeout]: SETTING_DEFAULTS.robotsTxtTimeoutSeconds,
    [SETTINGS.maxPages]: SETTING_DEFAULTS.maxPages,
    [SETTINGS.reportFolder]: SETTING_DEFAULTS.reportFolder,
    [SETTINGS.resolve]: SETTING_DEFAULTS.resolve,
    // The robots.txt editor's: the feature switches are on unless set to false, and N for "time for N pages".
    [SETTINGS.robotsTxtDiagnostics]: true,
    [SETTINGS.robotsTxtHovers]: true,
    [SETTINGS.robotsTxtCodeLens]: true,
    [SETTINGS.robotsTxtQuickFixes]: true,
    [SETTINGS.robotsTxtPagesForEstimate]: ROBOTS_TXT_DEFAULTS.pagesForEstimate,
    // Seeds from code: on unless set to false.
    [SETTINGS.seedsFromCodeEnabled]: true,
  };
  assert.deepEqual(
    Object.keys(settings).sort(),
    Object.keys(expected).sort(),
    'every contributed setting has its default checked here',
  );
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(settings[key]?.default, value, key);
  // The same values as the CLI's and the engine's.
  assert.equal(SETTING_DEFAULTS.defaultDelaySeconds, PACING_DEFAULTS.delaySeconds);
  assert.equal(SETTING_DEFAULTS.maxCrawlDelaySeconds, PACING_DEFAULTS.maxCrawlDelaySeconds);
  assert.equal(SETTING_DEFAULTS.maxPages, SAMPLE_CRAWL_DEFAULTS.maxPages);
  assert.equal(SETTING_DEFAULTS.requestTimeoutSeconds, SAMPLE_CRAWL_DEFAULTS.timeoutSeconds);
});

test("every numeric setting's range is the one the code checks (SETTING_LIMITS)", () => {
  const numeric = Object.entries(settings).filter(([, s]) => s.type === 'number' || s.type === 'integer');
  assert.deepEqual(numeric.map(([key]) => key).sort(), Object.keys(SETTING_LIMITS).sort());
  for (const [key, s] of numeric) {
    const limit: NumberLimit = SETTING_LIMITS[key as keyof typeof SETTING_LIMITS];
    assert.deepEqual([s.minimum, s.maximum, s.type === 'integer'], [limit.min, limit.max, limit.integer === true], key);
  }
  for (const [key, max] of Object.entries(SETTING_MAX_LENGTHS)) assert.equal(settings[key]?.maxLength, max, key);
});

/** The task property → the test-crawl option it sets. */
const TASK_OPTION: Record<string, keyof SampleCrawlOptions> = {
  maxPages: 'maxPages',
  maxDepth: 'maxDepth',
  delay: 'delaySeconds',
  delayFrom: 'delayFrom',
  concurrency: 'concurrency',
  timeout: 'timeoutSeconds',
  userAgent: 'userAgent',
};

test('task definition: each default it states is the one the code uses (a setting, or SAMPLE_CRAWL_DEFAULTS)', () => {
  const [definition] = manifest.contributes.taskDefinitions;
  // Settings unlike every default, so a property that falls back to one shows it.
  const custom = {
    ...SETTING_DEFAULTS,
    maxPages: 7,
    defaultDelaySeconds: 3,
    delayFrom: 'end' as const,
    requestTimeoutSeconds: 9,
    userAgent: 'TaskBot',
  };
  const options = resolveCrawlTask({ type: TASK_TYPE, seeds: ['https://a.example/'] }, custom).options;
  const settingFields: Record<string, keyof typeof custom> = {
    [SETTINGS.maxPages]: 'maxPages',
    [SETTINGS.defaultDelay]: 'defaultDelaySeconds',
    [SETTINGS.delayFrom]: 'delayFrom',
    [SETTINGS.requestTimeout]: 'requestTimeoutSeconds',
    [SETTINGS.userAgent]: 'userAgent',
  };
  for (const [property, option] of Object.entries(TASK_OPTION)) {
    const stated = /Default: `([^`]+)`/.exec(definition!.properties[property]!.markdownDescription ?? '')?.[1];
    assert.ok(stated !== undefined, `${property} states its default`);
    const setting = /^#(crawlPlanner\.[a-zA-Z.]+)#$/.exec(stated)?.[1];
    if (setting !== undefined) {
      assert.ok(setting in settingFields, `${property}: ${setting}`);
      assert.deepEqual(options[option], custom[settingFields[setting]!], `${property} falls back to ${setting}`);
    } else {
      assert.equal(stated, String(SAMPLE_CRAWL_DEFAULTS[option as keyof typeof SAMPLE_CRAWL_DEFAULTS]), property);
      assert.deepEqual(options[option], SAMPLE_CRAWL_DEFAULTS[option as keyof typeof SAMPLE_CRAWL_DEFAULTS], property);
    }
  }
});

test("task definition: each numeric property's range is the code's (the setting it overrides, else the test crawl's)", () => {
  const [definition] = manifest.contributes.taskDefinitions;
  const limits: Record<string, NumberLimit> = {
    maxPages: SETTING_LIMITS[SETTINGS.maxPages],
    pagesPerHost: PLAN_LIMITS.pages,
    maxDepth: SAMPLE_CRAWL_LIMITS.maxDepth,
    delay: SETTING_LIMITS[SETTINGS.defaultDelay],
    concurrency: SAMPLE_CRAWL_LIMITS.concurrency,
    timeout: SETTING_LIMITS[SETTINGS.requestTimeout],
  };
  const numeric = Object.entries(definition!.properties).filter(([, p]) => p.type === 'number' || p.type === 'integer');
  assert.deepEqual(numeric.map(([key]) => key).sort(), Object.keys(limits).sort());
  for (const [key, p] of numeric) {
    const limit = limits[key]!;
    assert.deepEqual([p.minimum, p.maximum, p.type === 'integer'], [limit.min, limit.max, limit.integer === true], key);
  }
});

test("task definition: pagesPerHost and pagesFor are the crawl's page budgets; maxPages then defaults to their total", () => {
  const [definition] = manifest.contributes.taskDefinitions;
  const budget = definition!.properties.pagesFor as unknown as { additionalProperties: Setting };
  const limit = SAMPLE_CRAWL_LIMITS.pageBudget;
  assert.deepEqual([budget.additionalProperties.minimum, budget.additionalProperties.maximum], [limit.min, limit.max]);
  const seeds = ['https://a.example/', 'https://b.example/'];
  const o = resolveCrawlTask(
    { type: TASK_TYPE, seeds, pagesPerHost: 4, pagesFor: { 'b.example': 9 } },
    SETTING_DEFAULTS,
  ).options;
  assert.deepEqual(o.pageBudgets, { byHost: { 'b.example': 9 }, otherwise: 4 });
  assert.equal(o.maxPages, 13);
  const capped = resolveCrawlTask(
    { type: TASK_TYPE, seeds, maxPages: 4, pagesFor: { 'a.example': 9, 'b.example': 1 } },
    SETTING_DEFAULTS,
  ).options;
  assert.deepEqual(capped.pageBudgets, { byHost: { 'a.example': 3, 'b.example': 1 }, otherwise: 0 });
  assert.throws(
    () => resolveCrawlTask({ type: TASK_TYPE, seeds, pagesPerHost: 0 }, SETTING_DEFAULTS),
    /pagesPerHost: 0 must be at least 1/,
  );
  assert.throws(
    () => resolveCrawlTask({ type: TASK_TYPE, seeds, pagesFor: { 'a.example': -2 } }, SETTING_DEFAULTS),
    /pagesFor: a\.example: -2 must be at least 0/,
  );
});

test("a task's politenessBy reaches the crawl's options; a bad one names the property", () => {
  const seeds = ['https://a.example/'];
  assert.equal(
    resolveCrawlTask({ type: TASK_TYPE, seeds, politenessBy: 'ip' }, SETTING_DEFAULTS).options.politenessBy,
    'ip',
  );
  assert.equal(resolveCrawlTask({ type: TASK_TYPE, seeds }, SETTING_DEFAULTS).options.politenessBy, undefined);
  assert.throws(
    () => resolveCrawlTask({ type: TASK_TYPE, seeds, politenessBy: 'asn' }, SETTING_DEFAULTS),
    /politenessBy/,
  );
});

test('the user agent is a product token (RFC 9309 §2.2.1)', () => {
  assert.equal(settings[SETTINGS.userAgent]!.pattern, '^[a-zA-Z_-]+$');
  const re = new RegExp(settings[SETTINGS.userAgent]!.pattern!);
  for (const ok of ['CrawlPlanner', 'my-bot', 'a_b']) assert.match(ok, re);
  for (const bad of ['', 'Bot/1.0', 'two words', 'bot2']) assert.doesNotMatch(bad, re);
});

test('the contact URL setting accepts what the header accepts: http(s) URLs and mailto: addresses', () => {
  const contact = settings[SETTINGS.contactUrl]!;
  assert.equal(contact.maxLength, CONTACT_MAX_LENGTH);
  const re = new RegExp(contact.pattern!);
  for (const ok of ['', 'https://ops.example/bot', 'HTTP://ops.example/', 'mailto:ops@example.com']) {
    assert.match(ok, re);
    assert.ok(ok === '' || contactProblem(ok) === undefined, ok);
  }
  for (const bad of ['ops.example', 'ftp://ops.example/', 'https://ops.example/a (b)', 'javascript:alert(1)']) {
    assert.doesNotMatch(bad, re);
    assert.notEqual(contactProblem(bad), undefined, bad);
  }
});

test('report folder default is .crawl-planner/reports', () => {
  assert.equal(settings[SETTINGS.reportFolder]!.default, '.crawl-planner/reports');
});

test('workspace trust: limited, with the restricted settings the code also enforces', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.ok(trust.description && trust.description.length > 40);
  assert.deepEqual([...(trust.restrictedConfigurations ?? [])].sort(), [...RESTRICTED_SETTINGS].sort());
  for (const key of trust.restrictedConfigurations ?? []) assert.ok(key in settings, `${key} is a contributed setting`);
  // What a workspace could use to change who the crawler says it is, how hard it hits hosts, or where it writes.
  for (const key of [
    SETTINGS.userAgent,
    SETTINGS.contactUrl,
    SETTINGS.defaultDelay,
    SETTINGS.crawlDelayPolicy,
    SETTINGS.maxCrawlDelay,
    SETTINGS.maxPages,
    SETTINGS.reportFolder,
  ]) {
    assert.ok(RESTRICTED_SETTINGS.includes(key), `${key} is restricted`);
  }
  assert.equal(manifest.capabilities.virtualWorkspaces, false);
});

test('activation: implied by the contributions; main is the bundle', () => {
  // Seeds from code: the CodeLens over start URLs needs the extension active in Python and JavaScript/TypeScript files.
  assert.deepEqual(manifest.activationEvents, ['onLanguage:python', 'onLanguage:javascript', 'onLanguage:typescript']);
  assert.equal(manifest.main, './dist/extension.js');
  assert.equal(manifest.engines.vscode, '^1.90.0');
  assert.equal(manifest.devDependencies['@types/vscode'], '1.90.0');
});

test('task definition: the schema lists the properties the code reads; seeds required', () => {
  const [definition] = manifest.contributes.taskDefinitions;
  assert.equal(definition!.type, TASK_TYPE);
  assert.deepEqual(definition!.required, ['seeds']);
  assert.equal(definition!.when, 'customExecutionSupported');
  assert.deepEqual(Object.keys(definition!.properties), [...TASK_PROPERTIES]);
  assert.equal(definition!.properties.seeds!.type, 'array');
  assert.equal(definition!.properties.seeds!.items!.type, 'string');
  assert.deepEqual(definition!.properties.delayFrom!.enum, ['start', 'end']);
  for (const [key, p] of Object.entries(definition!.properties)) {
    assert.ok(
      typeof p.markdownDescription === 'string' && p.markdownDescription.length > 10,
      `${key}: markdownDescription`,
    );
    if (p.type === 'number' || p.type === 'integer')
      assert.ok(typeof p.minimum === 'number' && typeof p.maximum === 'number', `${key}: range`);
  }
});

test('icons: the Marketplace icon is a PNG, the activity bar icon an SVG, both present', () => {
  assert.match(manifest.icon, /\.png$/);
  const png = readFileSync(join(root, manifest.icon));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.readUInt32BE(16), 128, 'width');
  assert.equal(png.readUInt32BE(20), 128, 'height');
  for (const c of manifest.contributes.viewsContainers.activitybar) {
    assert.match(c.icon, /\.svg$/);
    assert.ok(existsSync(join(root, c.icon)), c.icon);
  }
});

test('packaging: production build first, the bundle without node_modules, an allow-list .vscodeignore', () => {
  assert.match(manifest.scripts.package!, /^node esbuild\.js --production && vsce package --no-dependencies\b/);
  assert.equal(manifest.scripts['test:extension'], 'node scripts/test-extension.js');
  const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  assert.equal(ignore[0], '**', 'ignore everything first');
  assert.ok(
    ignore.slice(1).every((l) => l.startsWith('!')),
    'then only let files back in',
  );
  assert.ok(ignore.includes('!dist/extension.js') && ignore.includes('!dist/webview.js'));
  assert.deepEqual(manifest.extensionKind, ['workspace']);
});

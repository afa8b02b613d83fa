/**
 * How the extension reads its settings (src/extension/config.ts): out-of-range or mistyped values fall
 * back to the default and are reported; in Restricted Mode the workspace and folder values of the
 * restricted settings are ignored, so a workspace cannot change how the crawler identifies itself, how
 * hard it hits a host, or where it writes reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addressOverrides,
  isContactUrl,
  readSettings,
  RESTRICTED_SETTINGS,
  SETTING_DEFAULTS,
  type InspectedValue,
} from '../../src/extension/config';
import { SETTINGS } from '../../src/extension/ids';

const read = (values: Record<string, InspectedValue>, trusted = true) => readSettings((key) => values[key], trusted);

test('no values: the defaults, no problems', () => {
  const r = read({});
  assert.deepEqual(r.settings, SETTING_DEFAULTS);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.ignoredWorkspaceValues, []);
});

test('folder beats workspace beats user, as VS Code does', () => {
  const r = read({
    [SETTINGS.defaultDelay]: { globalValue: 2, workspaceValue: 3, workspaceFolderValue: 4 },
    [SETTINGS.maxPages]: { globalValue: 20, workspaceValue: 30 },
    [SETTINGS.userAgent]: { globalValue: 'MyBot' },
  });
  assert.equal(r.settings.defaultDelaySeconds, 4);
  assert.equal(r.settings.maxPages, 30);
  assert.equal(r.settings.userAgent, 'MyBot');
});

const refused: Array<[string, unknown, string]> = [
  [SETTINGS.userAgent, 'Bot/1.0', 'userAgent'],
  [SETTINGS.userAgent, 42, 'userAgent'],
  [SETTINGS.contactUrl, 'ftp://example.com/bot', 'contactUrl'],
  [SETTINGS.contactUrl, 'mailto:nobody', 'contactUrl'],
  [SETTINGS.contactUrl, 'https://example.com/a (b)', 'contactUrl'],
  [SETTINGS.defaultDelay, -1, 'defaultDelaySeconds'],
  [SETTINGS.defaultDelay, '1', 'defaultDelaySeconds'],
  [SETTINGS.defaultDelay, Number.NaN, 'defaultDelaySeconds'],
  [SETTINGS.delayFrom, 'middle', 'delayFrom'],
  [SETTINGS.crawlDelayPolicy, 'ignore', 'crawlDelayPolicy'],
  [SETTINGS.maxCrawlDelay, 1e9, 'maxCrawlDelaySeconds'],
  [SETTINGS.connectTimeout, 0, 'connectTimeoutSeconds'],
  [SETTINGS.requestTimeout, 601, 'requestTimeoutSeconds'],
  [SETTINGS.robotsTxtTimeout, 0, 'robotsTxtTimeoutSeconds'],
  [SETTINGS.maxPages, 2.5, 'maxPages'],
  [SETTINGS.maxPages, 0, 'maxPages'],
  [SETTINGS.reportFolder, '', 'reportFolder'],
  [SETTINGS.resolve, 'a.example=127.0.0.5', 'resolve'],
];
for (const [key, value, field] of refused) {
  test(`${key} = ${JSON.stringify(value)} is refused: the default, and a problem naming the key`, () => {
    const r = read({ [key]: { globalValue: value } });
    assert.deepEqual(
      r.settings[field as keyof typeof r.settings],
      SETTING_DEFAULTS[field as keyof typeof SETTING_DEFAULTS],
    );
    assert.equal(r.problems.length, 1);
    assert.ok(r.problems[0]!.startsWith(`${key}: `), r.problems[0]);
  });
}

test('accepted values are kept (trimmed)', () => {
  const r = read({
    [SETTINGS.userAgent]: { globalValue: ' My_Bot-x ' },
    [SETTINGS.contactUrl]: { globalValue: 'https://example.com/bot' },
    [SETTINGS.delayFrom]: { globalValue: 'end' },
    [SETTINGS.crawlDelayPolicy]: { globalValue: 'obey' },
    [SETTINGS.reportFolder]: { globalValue: '/tmp/reports' },
    [SETTINGS.defaultDelay]: { globalValue: 0 },
  });
  assert.deepEqual(r.problems, []);
  assert.equal(r.settings.userAgent, 'My_Bot-x');
  assert.equal(r.settings.contactUrl, 'https://example.com/bot');
  assert.equal(r.settings.delayFrom, 'end');
  assert.equal(r.settings.crawlDelayPolicy, 'obey');
  assert.equal(r.settings.reportFolder, '/tmp/reports');
  assert.equal(r.settings.defaultDelaySeconds, 0);
});

test('Restricted Mode: workspace and folder values of restricted settings are ignored, user values kept', () => {
  const values: Record<string, InspectedValue> = {
    [SETTINGS.userAgent]: { globalValue: 'MyBot', workspaceValue: 'Googlebot' },
    [SETTINGS.defaultDelay]: { workspaceFolderValue: 0 },
    [SETTINGS.reportFolder]: { workspaceValue: '/home/someone/.ssh' },
    [SETTINGS.crawlDelayPolicy]: { workspaceValue: 'skip' },
    [SETTINGS.requestTimeout]: { workspaceValue: 5 },
  };
  const untrusted = read(values, false);
  assert.equal(untrusted.settings.userAgent, 'MyBot');
  assert.equal(untrusted.settings.defaultDelaySeconds, SETTING_DEFAULTS.defaultDelaySeconds);
  assert.equal(untrusted.settings.reportFolder, SETTING_DEFAULTS.reportFolder);
  assert.equal(untrusted.settings.crawlDelayPolicy, SETTING_DEFAULTS.crawlDelayPolicy);
  // Not restricted: a timeout only decides how long we wait.
  assert.equal(untrusted.settings.requestTimeoutSeconds, 5);
  assert.deepEqual(
    untrusted.ignoredWorkspaceValues.sort(),
    [SETTINGS.crawlDelayPolicy, SETTINGS.defaultDelay, SETTINGS.reportFolder, SETTINGS.userAgent].sort(),
  );

  const trusted = read(values, true);
  assert.equal(trusted.settings.userAgent, 'Googlebot');
  assert.equal(trusted.settings.defaultDelaySeconds, 0);
  assert.deepEqual(trusted.ignoredWorkspaceValues, []);
});

test('every restricted setting is ignored from the workspace in Restricted Mode', () => {
  for (const key of RESTRICTED_SETTINGS) {
    const r = read({ [key]: { workspaceValue: 'x' } }, false);
    assert.deepEqual(r.ignoredWorkspaceValues, [key]);
    assert.deepEqual(r.problems, [], `${key}: the ignored value is not even checked`);
  }
});

test('a mailto: contact is kept', () => {
  const r = read({ [SETTINGS.contactUrl]: { globalValue: ' mailto:ops@example.com ' } });
  assert.deepEqual(r.problems, []);
  assert.equal(r.settings.contactUrl, 'mailto:ops@example.com');
});

test('contact URLs', () => {
  assert.ok(isContactUrl('https://example.com/'));
  assert.ok(isContactUrl('http://example.com/about-our-bot'));
  assert.ok(isContactUrl('mailto:ops@example.com'));
  assert.ok(!isContactUrl('mailto:ops'));
  assert.ok(!isContactUrl('ftp://example.com/'));
  assert.ok(!isContactUrl('example.com'));
  assert.ok(!isContactUrl('https://exa mple.com/'));
  assert.ok(!isContactUrl('javascript:alert(1)'));
});

test('crawlPlanner.resolve: each entry read as --resolve reads it; a bad one is named and ignored, the others kept', () => {
  const r = read({
    [SETTINGS.resolve]: {
      globalValue: [
        'shop.example=127.0.0.5',
        'not an entry',
        'blog.example=127.0.0.5',
        'x.example=999.1.1.1',
        7,
        'api.example:8080:127.0.0.6',
      ],
    },
  });
  assert.deepEqual(r.settings.resolve, [
    { hostname: 'shop.example', port: null, addresses: ['127.0.0.5'] },
    { hostname: 'blog.example', port: null, addresses: ['127.0.0.5'] },
    { hostname: 'api.example', port: 8080, addresses: ['127.0.0.6'] },
  ]);
  assert.deepEqual(r.problems, [
    'crawlPlanner.resolve: entry "not an entry": must be HOST=IP or HOST:PORT:IP; ignored',
    'crawlPlanner.resolve: entry "x.example=999.1.1.1": "999.1.1.1" is not an IP address; ignored',
    'crawlPlanner.resolve: entry 7 is not a "HOST=IP" text; ignored',
  ]);
  const overrides = addressOverrides(r.settings);
  assert.deepEqual(overrides.addressesFor('shop.example', 443), ['127.0.0.5']);
  assert.deepEqual(overrides.addressesFor('api.example', 8080), ['127.0.0.6']);
  assert.equal(overrides.addressesFor('api.example', 80), undefined);
});

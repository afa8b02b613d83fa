/**
 * package.json and src/extension/ids.ts agree, both ways (ARCHITECTURE.md §The id registry): every contributed command,
 * view, setting and task type is in the registry, and everything in the registry is contributed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CATEGORY,
  COMMANDS,
  CONTEXT_KEYS,
  CRAWL_STATUS_ITEM,
  EXTENSION_ID,
  ROBOTS_SCHEME,
  SETTINGS,
  TASK_TYPE,
  VIEWS,
} from '../../src/extension/ids';

interface Manifest {
  name: string;
  publisher: string;
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; enablement?: string }>;
    viewsContainers: { activitybar: Array<{ id: string; title: string }> };
    views: Record<string, Array<{ id: string; type?: string }>>;
    menus?: Record<string, Array<{ command: string; when?: string }>>;
    taskDefinitions: Array<{ type: string }>;
    configuration: { properties: Record<string, unknown> };
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const c = manifest.contributes;
const sorted = (values: Iterable<string>) => [...values].sort();

test('the extension id is publisher.name', () => {
  assert.equal(EXTENSION_ID, `${manifest.publisher}.${manifest.name}`);
});

test('contributed commands are exactly COMMANDS', () => {
  assert.deepEqual(sorted(c.commands.map((x) => x.command)), sorted(Object.values(COMMANDS)));
});

test('each command id is crawlPlanner.<its name in COMMANDS>', () => {
  for (const [name, id] of Object.entries(COMMANDS)) assert.equal(id, `crawlPlanner.${name}`);
});

test('every command has the category "Crawl Planner" and a title', () => {
  for (const command of c.commands) {
    assert.equal(command.category, CATEGORY, command.command);
    assert.ok(command.title.trim().length > 0, command.command);
    assert.ok(
      !command.title.startsWith(CATEGORY),
      `${command.command}: the category is shown already, the title must not repeat it`,
    );
  }
});

test('every id is in the crawlPlanner namespace', () => {
  for (const id of [...Object.values(COMMANDS), ...Object.values(CONTEXT_KEYS), VIEWS.planner, CRAWL_STATUS_ITEM])
    assert.match(id, /^crawlPlanner\.[a-zA-Z]+$/);
  for (const [key, id] of Object.entries(SETTINGS)) {
    if (key === 'section') assert.equal(id, 'crawlPlanner');
    else assert.match(id, /^crawlPlanner\.[a-zA-Z.]+$/);
  }
  assert.equal(TASK_TYPE, 'crawlPlanner');
  assert.equal(VIEWS.container, 'crawlPlanner');
  assert.match(ROBOTS_SCHEME, /^[a-z][a-z0-9+.-]*$/, 'a valid URI scheme');
});

test('the activity bar container and the view are VIEWS', () => {
  assert.deepEqual(
    c.viewsContainers.activitybar.map((x) => x.id),
    [VIEWS.container],
  );
  assert.deepEqual(Object.keys(c.views), [VIEWS.container]);
  const views = c.views[VIEWS.container]!;
  assert.deepEqual(
    views.map((v) => v.id),
    [VIEWS.planner],
  );
  assert.equal(views[0]!.type, 'webview');
});

test('contributed settings are exactly SETTINGS', () => {
  const ids = Object.entries(SETTINGS)
    .filter(([key]) => key !== 'section')
    .map(([, id]) => id);
  assert.deepEqual(sorted(Object.keys(c.configuration.properties)), sorted(ids));
});

test('the task type is TASK_TYPE', () => {
  assert.deepEqual(
    c.taskDefinitions.map((t) => t.type),
    [TASK_TYPE],
  );
});

test('when clauses and enablement name only known context keys and views', () => {
  const known = new Set<string>([...Object.values(CONTEXT_KEYS), VIEWS.planner]);
  const clauses = [
    ...c.commands.flatMap((x) => (x.enablement ? [x.enablement] : [])),
    ...Object.values(c.menus ?? {}).flatMap((items) => items.flatMap((i) => (i.when ? [i.when] : []))),
  ];
  for (const clause of clauses) {
    for (const id of clause.match(/(?:config\.)?crawlPlanner\.[a-zA-Z.]+/g) ?? []) {
      // `config.crawlPlanner.…` is a setting: one of the registry's.
      if (id.startsWith('config.'))
        assert.ok((Object.values(SETTINGS) as string[]).includes(id.slice('config.'.length)), `${id} in "${clause}"`);
      else assert.ok(known.has(id), `${id} in "${clause}"`);
    }
  }
  // Both context keys are used.
  for (const key of Object.values(CONTEXT_KEYS))
    assert.ok(
      clauses.some((w) => w.includes(key)),
      `${key} is used in package.json`,
    );
});

test('menus name only contributed commands', () => {
  const commands = new Set(Object.values(COMMANDS) as string[]);
  for (const [menu, items] of Object.entries(c.menus ?? {})) {
    for (const item of items) assert.ok(commands.has(item.command), `${menu}: ${item.command}`);
  }
});

test('Stop Test Crawl is enabled only while a crawl runs', () => {
  const stop = c.commands.find((x) => x.command === COMMANDS.stopTestCrawl)!;
  assert.equal(stop.enablement, CONTEXT_KEYS.crawlRunning);
});

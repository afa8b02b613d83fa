/**
 * ARCHITECTURE.md and the code say the same thing: its Layers table is the lint's (LAYERS in
 * eslint.config.mjs), and every file or folder it names exists, so a newcomer who follows it finds what
 * it promises.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

interface Layer {
  folder: string;
  imports: string[];
  lazy?: string[];
  node: boolean;
  vscode: boolean;
  undici: boolean;
}

/** The section under `## title`, up to the next `## `. */
function section(title: string): string {
  const start = architecture.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `ARCHITECTURE.md has a section "${title}"`);
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end < 0 ? undefined : end);
}

test('ARCHITECTURE.md has the sections other documents cite', () => {
  for (const title of [
    'Layers',
    'Composition root',
    'The id registry',
    'The webview protocol',
    'Build',
    'Data flow: a crawl',
    'Data flow: a plan',
    'Where each feature lives',
  ]) {
    section(title);
  }
});

test("the Layers table is the lint's (eslint.config.mjs LAYERS)", async () => {
  const config = join(root, 'eslint.config.mjs'); // a plain ES module, without types for tsc
  const { LAYERS } = (await import(config)) as { LAYERS: Record<string, Layer> };
  const rows = section('Layers')
    .split('\n')
    .filter((l) => /^\| [a-z]+ \| `src\//.test(l))
    .map((l) => l.split('|').map((c) => c.trim()));
  const documented = Object.fromEntries(
    rows.map(([, name, folder, , imports]) => [name!, { folder: folder!.replace(/`/g, ''), imports: imports! }]),
  );
  assert.deepEqual(Object.keys(documented).sort(), Object.keys(LAYERS).sort(), 'one row per layer');
  for (const [name, layer] of Object.entries(LAYERS)) {
    const doc = documented[name]!;
    assert.equal(doc.folder, layer.folder, name);
    const items = doc.imports === '—' ? [] : doc.imports.split(',').map((s) => s.trim());
    const expected = [
      ...layer.imports.map((l) => ((layer.lazy ?? []).includes(l) ? `${l}\\*` : l)),
      ...(layer.node ? ['node'] : []),
      ...(layer.undici ? ['undici'] : []),
      ...(layer.vscode ? ['vscode'] : []),
    ];
    assert.deepEqual(items.sort(), expected.sort(), `${name} may import`);
  }
});

test('every file and folder ARCHITECTURE.md names exists', () => {
  const named = new Set<string>();
  for (const m of architecture.matchAll(
    /`((?:src|test|bench|media|syntaxes|scripts)\/[^`\s]*|[a-zA-Z.-]+\.(?:json|mjs|js|md))`/g,
  ))
    named.add(m[1]!);
  // Bare file names in the feature table (`httpBody.ts`) belong to the folder named before them in the cell.
  for (const row of section('Where each feature lives')
    .split('\n')
    .filter((l) => l.startsWith('| '))) {
    let folder: string | undefined;
    for (const m of row.matchAll(/`([^`]+)`/g)) {
      const name = m[1]!;
      if (/^src\//.test(name)) folder = name.endsWith('/') ? name : name.slice(0, name.lastIndexOf('/') + 1);
      else if (/^[a-zA-Z]+\.ts$/.test(name) && folder !== undefined) named.add(folder + name);
    }
  }
  assert.ok(named.size > 50, `${named.size} paths found`);
  const missing = [...named].filter((p) => !existsSync(join(root, p)));
  assert.deepEqual(missing, [], 'named in ARCHITECTURE.md but not in the repository');
});

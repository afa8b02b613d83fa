/**
 * The .vsix holds exactly what the extension needs at run time: the manifest, README, CHANGELOG,
 * LICENSE, the three bundles and media/. No sources, no source maps, no tests, no node_modules.
 *
 * Packs with `vsce package --no-dependencies` into a temporary folder (the bundles in dist/ are built
 * first when missing) and reads the archive's central directory. The README's pictures and its links to
 * docs/ stay relative and out of the package (CONTRIBUTING.md, "Packaging"): they are for the Marketplace
 * page, which vsce points at the repository once package.json names one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinModules } from 'node:module';
import { inflateRawSync } from 'node:zlib';

const root = join(__dirname, '..', '..');
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The entries of a zip archive, from its central directory. */
function zipEntries(zip: Buffer): ZipEntry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, 'end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function entryText(zip: Buffer, e: ZipEntry): string {
  const start = e.offset + 30 + zip.readUInt16LE(e.offset + 26) + zip.readUInt16LE(e.offset + 28);
  const data = zip.subarray(start, start + e.compressedSize);
  return (e.method === 8 ? inflateRawSync(data) : data).toString('utf8');
}

test('the .vsix holds exactly the run-time files', { timeout: 180_000 }, () => {
  if (
    !existsSync(join(root, 'dist', 'extension.js')) ||
    !existsSync(join(root, 'dist', 'webview.js')) ||
    !existsSync(join(root, 'dist', 'planReport.js')) ||
    !existsSync(join(root, 'dist', 'simulate.js'))
  ) {
    execFileSync(process.execPath, [join(root, 'esbuild.js')], { cwd: root, stdio: 'pipe' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'crawl-planner-vsix-'));
  try {
    const out = join(dir, 'crawl-planner.vsix');
    execFileSync(
      process.execPath,
      [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out],
      { cwd: root, stdio: 'pipe' },
    );
    const zip = readFileSync(out);
    const entries = zipEntries(zip);
    const names = entries.map((e) => e.name).sort();

    const required = [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/dist/webview.js',
      'extension/dist/planReport.js',
      'extension/dist/simulate.js',
      'extension/media/icon.png',
      'extension/media/activity.svg',
      // The robots.txt language: its grammar and its language configuration.
      'extension/syntaxes/robots-txt.tmLanguage.json',
      'extension/language-configuration.json',
    ];
    for (const name of required) assert.ok(names.includes(name), `${name} is packaged`);
    const extra = names.filter((n) => !required.includes(n) && !/^extension\/media\/[^/]+(\/[^/]+)*$/.test(n));
    assert.deepEqual(extra, [], 'nothing but the run-time files and media/');
    for (const n of names) {
      assert.doesNotMatch(n, /\.map$/, `${n}: no source maps`);
      assert.doesNotMatch(n, /\.ts$/, `${n}: no TypeScript`);
      assert.doesNotMatch(
        n,
        /(^|\/)(src|test|node_modules|scripts|bench|docs)\//,
        `${n}: no sources, tests or node_modules`,
      );
    }

    // The packaged manifest is ours, with the bundle as main.
    const pkg = JSON.parse(
      entryText(
        zip,
        entries.find((e) => e.name === 'extension/package.json')!,
      ),
    ) as { main: string; name: string };
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.name, 'crawl-planner');

    // The bundle does not import anything the .vsix does not carry: only vscode and Node built-ins
    // (`node:`-only ones such as node:sqlite, which undici loads lazily, included).
    const bundle = entryText(
      zip,
      entries.find((e) => e.name === 'extension/dist/extension.js')!,
    );
    const required_ = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const builtin = new Set(builtinModules);
    for (const id of required_) {
      assert.ok(id === 'vscode' || id.startsWith('node:') || builtin.has(id), `the bundle requires "${id}"`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

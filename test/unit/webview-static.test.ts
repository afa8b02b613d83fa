/**
 * A static check of the webview's security rule (docs/extension.md §Decisions): the webview never parses HTML from a string. Everything it shows is
 * built with createElement + textContent / setAttribute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

const FORBIDDEN: Array<[string, RegExp]> = [
  ['innerHTML', /\binnerHTML\b/],
  ['outerHTML', /\bouterHTML\b/],
  ['insertAdjacentHTML', /\binsertAdjacentHTML\b/],
  ['document.write', /\bdocument\s*\.\s*write(ln)?\b/],
  ['createContextualFragment', /\bcreateContextualFragment\b/],
  ['DOMParser', /\bDOMParser\b/],
  ['srcdoc', /\bsrcdoc\b/],
  ['eval', /\beval\s*\(/],
  ['new Function', /\bnew\s+Function\b/],
  ['a style attribute', /setAttribute\(\s*['"]style['"]/],
  ['an href or src from data', /setAttribute\(\s*['"](href|src|action|formaction)['"]/],
];

const files = sources(join(ROOT, 'src', 'webview'));

test('there are webview sources to check', () => {
  assert.ok(files.some((f) => f.endsWith('main.ts')));
});

for (const file of files) {
  test(`${file.slice(ROOT.length + 1)} builds DOM without parsing HTML`, () => {
    const text = readFileSync(file, 'utf8')
      // Comments may name the forbidden APIs to say they are not used.
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:])\/\/.*$/gm, '$1');
    for (const [name, pattern] of FORBIDDEN) assert.doesNotMatch(text, pattern, `${name} in ${file}`);
  });
}

#!/usr/bin/env node
// Bundles the extension-host tests (test/extension/suite/*.ts) into out/test/extension/suite/index.js,
// the module `--extensionTestsPath` loads. `vscode` stays external: the extension host provides it.
// (esbuild.js builds the product; this builds only the tests.)
'use strict';
const esbuild = require('esbuild');
const path = require('node:path');

const root = path.join(__dirname, '..');

async function main() {
  await esbuild.build({
    entryPoints: [path.join(root, 'test/extension/suite/index.ts')],
    outfile: path.join(root, 'out/test/extension/suite/index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    // The fixture spiders (test/fixtures/spiders/*.py) are imported as text and written into the workspace.
    loader: { '.py': 'text' },
    logLevel: 'warning',
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// One build script, several targets (ARCHITECTURE.md §Build): the extension and the CLI run on Node (cjs),
// the webview runs in the browser (iife). Type-checking is separate (`npm run typecheck`).
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const version = require('./package.json').version;
const node = {
  define: { __VERSION__: JSON.stringify(version) },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];
if (fs.existsSync(path.join(__dirname, 'src/extension/extension.ts'))) {
  targets.push({ ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] });
}
if (fs.existsSync(path.join(__dirname, 'src/webview/main.ts'))) {
  targets.push({
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', sourcemap: !production, minify: production,
    logLevel: 'warning', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js',
  });
}

async function main() {
  if (watch) {
    for (const t of targets) await (await esbuild.context(t)).watch();
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
  fs.chmodSync(path.join(__dirname, 'dist/cli.js'), 0o755);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// One build script, several targets (ARCHITECTURE.md §Build): the extension and the CLI run on Node (cjs),
// the webview runs in the browser (iife). Type-checking is separate (`npm run typecheck`).
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
/** `--outdir=DIR`: build into DIR instead of dist/ (the bench measures a production build this way). */
const outdir = (process.argv.find((a) => a.startsWith('--outdir=')) ?? '--outdir=dist').slice('--outdir='.length);
const out = (file) => path.join(outdir, file);

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

/**
 * The CLI is two files: dist/cli.js (our code, about 0.4 MB) and dist/undici.js (undici, about 1 MB), which
 * dist/cli.js requires only when a request is about to be sent (src/net/http.ts loads undici on first use).
 * Node compiles a whole file when it loads it, so undici inside dist/cli.js would cost every command
 * about 10 ms even unused (`estimate`, `--help`); CLI start-up must stay within 1.5 × `node -e 0`
 * (bench/sections/scale.ts measures it). The commands themselves stay in one file: each is a lazily
 * initialised module there (`import()` in src/cli/main.ts), they share modules (one UsageError class for
 * `instanceof`), and our code alone compiles in a few milliseconds.
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/**
 * tldts (the Public Suffix List, about 150 KB minified: src/core/servers/groups.ts) declares no
 * `sideEffects`, so esbuild would keep it in every bundle that reaches src/core/plan, even one that never
 * groups hosts by domain (the webviews). It has none at import: marked so, it is left out where unused.
 */
const tldtsPure = {
  name: 'tldts-pure',
  setup(build) {
    build.onResolve({ filter: /^tldts(-core)?$/ }, async (args) => {
      if (args.pluginData === 'tldts-pure') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'tldts-pure',
      });
      return { ...resolved, sideEffects: false };
    });
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: out('cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    plugins: [undiciApart, tldtsPure],
  },
  { ...node, entryPoints: ['undici'], outfile: out('undici.js') },
];
if (fs.existsSync(path.join(__dirname, 'src/extension/extension.ts'))) {
  targets.push({
    ...node,
    entryPoints: ['src/extension/extension.ts'],
    outfile: out('extension.js'),
    external: ['vscode'],
    plugins: [tldtsPure],
  });
  // The simulation's worker thread (src/extension/planner/simulateRunner.ts): the crawl engine stays out of extension.js.
  targets.push({ ...node, entryPoints: ['src/extension/planner/simulateWorker.ts'], outfile: out('simulate.js') });
}
// The browser bundles: the sidebar planner and the plan report (each webview loads one).
for (const [entry, file] of [
  ['src/webview/main.ts', 'webview.js'],
  ['src/webview/planReport/main.ts', 'planReport.js'],
]) {
  if (!fs.existsSync(path.join(__dirname, entry))) continue;
  targets.push({
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: [entry],
    outfile: out(file),
    plugins: [tldtsPure],
  });
}

async function main() {
  if (watch) {
    for (const t of targets) await (await esbuild.context(t)).watch();
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
  fs.chmodSync(path.resolve(__dirname, out('cli.js')), 0o755);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

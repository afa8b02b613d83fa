'use strict';
/**
 * What the harness builds from the repo before a run: the extension's .vsix (root `npm run package`,
 * a production build then `vsce package --no-dependencies`), a bundle of src/demo, so the harness
 * runs the demo hosts in a child process of its own and reads their arrival logs directly, and (only when
 * scenario x-extension-host runs) the test-runner extension's .vsix: test/e2e/runner-extension's
 * manifest with the extension-host suites bundled in.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, CACHE } = require('./paths');
const { runStep } = require('./proc');

function npmCommand() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/** Root `npm run package`, written to the build folder. Uses the root's own node_modules (root `npm ci`). */
function packageExtension(logFile) {
  fs.mkdirSync(CACHE, { recursive: true });
  const vsix = path.join(CACHE, 'crawl-planner.vsix');
  fs.rmSync(vsix, { force: true });
  if (!fs.existsSync(path.join(ROOT, 'node_modules', '.bin', 'vsce'))) {
    throw new Error('the root has no node_modules/.bin/vsce: run `npm ci` in the repository root first');
  }
  const r = runStep('npm run package', npmCommand(), ['run', 'package', '--', '--out', vsix], {
    cwd: ROOT,
    logFile,
    timeoutMs: 300_000,
  });
  if (!fs.existsSync(vsix)) throw new Error(`npm run package wrote no ${vsix}`);
  return { vsix, ms: r.ms };
}

/** src/demo bundled with the root's esbuild into one CommonJS file. */
function bundleDemo(logFile) {
  const out = path.join(CACHE, 'demo.cjs');
  const esbuild = path.join(ROOT, 'node_modules', '.bin', 'esbuild');
  const r = runStep(
    'bundle src/demo',
    esbuild,
    [
      path.join('src', 'demo', 'index.ts'),
      '--bundle',
      '--platform=node',
      '--format=cjs',
      '--target=node20',
      `--outfile=${out}`,
      '--log-level=warning',
    ],
    { cwd: ROOT, logFile, timeoutMs: 120_000 },
  );
  return { module: out, ms: r.ms };
}

const RUNNER_MANIFEST_DIR = path.join(ROOT, 'test', 'e2e', 'runner-extension');
const RUNNER_ENTRY = path.join(ROOT, 'test', 'extension', 'runner', 'extension.ts');

/**
 * The test-runner extension (test/e2e/runner-extension/README.md): its manifest, the root LICENSE, and
 * test/extension/runner/extension.ts bundled with every suite (test/extension/suite) into dist/runner.js
 * by the root's esbuild (`vscode` external), packaged by the root's vsce.
 */
function buildRunnerExtension(logFile) {
  const dir = path.join(CACHE, 'runner-extension');
  const vsix = path.join(CACHE, 'crawl-planner-test-runner.vsix');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(vsix, { force: true });
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(RUNNER_MANIFEST_DIR, 'package.json'), path.join(dir, 'package.json'));
  fs.copyFileSync(path.join(RUNNER_MANIFEST_DIR, 'README.md'), path.join(dir, 'README.md'));
  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(dir, 'LICENSE'));
  const started = Date.now();
  runStep(
    'bundle the extension-host suites',
    path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      RUNNER_ENTRY,
      '--bundle',
      '--platform=node',
      '--format=cjs',
      '--target=node20',
      '--external:vscode',
      '--sourcemap=inline',
      '--loader:.py=text',
      `--outfile=${path.join(dir, 'dist', 'runner.js')}`,
      '--log-level=warning',
    ],
    { cwd: ROOT, logFile, timeoutMs: 120_000 },
  );
  runStep(
    'vsce package (test runner)',
    path.join(ROOT, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--out', vsix],
    { cwd: dir, logFile, timeoutMs: 120_000 },
  );
  if (!fs.existsSync(vsix)) throw new Error(`vsce wrote no ${vsix}`);
  return { vsix, ms: Date.now() - started };
}

/** What the extension's package.json contributes (read fresh: the scenarios adapt to what has landed). */
function extensionManifest() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

module.exports = { packageExtension, bundleDemo, buildRunnerExtension, extensionManifest };

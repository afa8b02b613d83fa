'use strict';
/** Where things are: the repo, the harness, its install (the cache folder), its build output and its screenshots. */
const path = require('node:path');

const E2E_DIR = path.resolve(__dirname, '..');
const ROOT = path.resolve(E2E_DIR, '..', '..');
/** The harness's own install (code-server, Node 24, playwright-core): the cache folder CI keeps between runs. */
const NODE_MODULES = path.join(E2E_DIR, 'node_modules');
const NODE24_BIN = path.join(NODE_MODULES, 'node', 'bin');
const CODE_SERVER_ENTRY = path.join(NODE_MODULES, 'code-server', 'out', 'node', 'entry.js');
/** Build output of the harness (the .vsix, the demo-host bundle): rebuilt every run, git-ignored. */
const CACHE = process.env.E2E_BUILD_DIR ? path.resolve(process.env.E2E_BUILD_DIR) : path.join(E2E_DIR, '.cache');
/** Screenshots, logs and results: root-relative test-output/e2e (git-ignored with test-output/). */
const OUTPUT = process.env.E2E_OUTPUT ? path.resolve(process.env.E2E_OUTPUT) : path.join(ROOT, 'test-output', 'e2e');
const FIXTURES = path.join(E2E_DIR, 'fixtures');
const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

module.exports = { E2E_DIR, ROOT, NODE_MODULES, NODE24_BIN, CODE_SERVER_ENTRY, CACHE, OUTPUT, FIXTURES, CHROMIUM };

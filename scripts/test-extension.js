#!/usr/bin/env node
// Runs the extension-host tests (test/extension/suite) in a real VS Code with @vscode/test-electron.
//
// VS Code cannot be downloaded on every machine (not on this project's build machines), so the binary
// is never downloaded here: set VSCODE_EXECUTABLE_PATH to a VS Code executable (e.g.
// "/Applications/Visual Studio Code.app/Contents/MacOS/Electron", or the `code` binary of an unpacked
// VS Code for Linux). Without it the tests are skipped, and the script says so and exits 0: the same
// suites then run inside code-server, through a test-runner extension, in the e2e harness
// (`npm run test:e2e`, scenario x-extension-host; see CONTRIBUTING.md, "End-to-end tests").
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');

async function main() {
  const executable = process.env.VSCODE_EXECUTABLE_PATH;
  if (!executable) {
    console.log(
      'SKIPPED extension-host tests here: no VS Code binary (set VSCODE_EXECUTABLE_PATH; VS Code cannot be downloaded on this machine). ' +
        'The same suites run inside code-server in `npm run test:e2e` (scenario x-extension-host; alone: bash scripts/ci-e2e.sh --only x)',
    );
    return 0;
  }
  if (!fs.existsSync(executable)) {
    console.error(`VSCODE_EXECUTABLE_PATH does not exist: ${executable}`);
    return 1;
  }

  // The product bundle and the test bundle.
  execFileSync(process.execPath, [path.join(root, 'esbuild.js')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(__dirname, 'build-extension-tests.js')], { cwd: root, stdio: 'inherit' });

  // A fresh copy of the fixture workspace, so the reports the tests write stay out of the repository.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-planner-ext-test-'));
  fs.cpSync(path.join(root, 'test/extension/fixture'), workspace, { recursive: true });

  const { runTests } = require('@vscode/test-electron');
  try {
    await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out/test/extension/suite/index.js'),
      extensionTestsEnv: { CRAWL_PLANNER_TEST_WORKSPACE: workspace },
      // A trusted workspace (tasks run only there), and no other extensions.
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    });
    return 0;
  } catch (err) {
    console.error(`Extension-host tests failed: ${err && err.message ? err.message : err}`);
    return 1;
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);

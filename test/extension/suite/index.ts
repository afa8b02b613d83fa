/**
 * The extension-host test entry (`--extensionTestsPath`): loads every suite, then runs them. Built by
 * scripts/build-extension-tests.js; run by scripts/test-extension.js (`npm run test:extension`).
 */
import { runRegistered } from './harness';
import './activation.test';
import './commands.test';
import './view.test';
import './task.test';
import './robotsTxt.test';
import './contact.test';
import './planner.test';
import './calibration.test';
import './seedsFromCode.test';
import './sidebarActions.test';
import './resolve.test';

export function run(): Promise<void> {
  return runRegistered();
}

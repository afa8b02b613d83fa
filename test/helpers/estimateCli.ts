/**
 * `crawl-planner estimate` as a user runs it, for the cli-estimate-*.test.ts files: the BUILT dist/cli.js in a
 * child process, run synchronously (estimate never fetches anything), and a scratch folder for seed files and
 * reports. Call `useEstimateCli()` once at the top of a test file: it builds dist/ and makes the folder before
 * the file's tests, and removes the folder after them.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, CLI, ROOT } from './cli';

let dir = '';

/** Builds dist/ and makes the scratch folder before the calling file's tests; removes it after them. */
export function useEstimateCli(): void {
  before(() => {
    buildCli();
    dir = mkdtempSync(path.join(tmpdir(), 'crawl-planner-estimate-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/** The scratch folder of the calling file (made by useEstimateCli's `before` hook). */
export function scratchDir(): string {
  return dir;
}

export interface EstimateRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `crawl-planner estimate ...args`, without colour. */
export function estimate(...args: string[]): EstimateRun {
  const r = spawnSync(process.execPath, [CLI, 'estimate', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The document of `crawl-planner estimate ...args --json` (asserting exit 0). */
export function estimateJson(...args: string[]): EstimateDocument {
  const r = estimate(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as EstimateDocument;
}

/** A file of that name and content in the scratch folder; its path. */
export function seedsFile(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

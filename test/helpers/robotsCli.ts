/**
 * `crawl-planner robots` as a user runs it, for the cli-robots-*.test.ts files: the BUILT dist/cli.js in a child
 * process against loopback servers the tests start (never the network), a scratch folder for robots.txt and URL
 * files, and a second loopback address for cross-host redirects where this machine routes one. Call
 * `useRobotsCli()` once at the top of a test file: it builds dist/ and makes the folder before the file's tests,
 * and removes the folder after them.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RobotsCliDocument } from '../../src/cli/robots';
import { canListenOn, startLoopback, type LoopbackHandler, type LoopbackServer } from './loopback';
import { buildCli, runCli } from './cli';

/** Each test's time limit: time is only asserted as a generous upper bound. */
export const T = { timeout: 30_000 };

let dir = '';
let secondHost = '127.0.0.1';

/** Builds dist/, makes the scratch folder and finds a second loopback address before the calling file's tests. */
export function useRobotsCli(): void {
  before(async () => {
    buildCli();
    dir = mkdtempSync(path.join(tmpdir(), 'crawl-planner-robots-'));
    if (await canListenOn('127.0.0.2')) secondHost = '127.0.0.2';
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/** The scratch folder of the calling file (made by useRobotsCli's `before` hook). */
export function scratchDir(): string {
  return dir;
}

/** 127.0.0.2 when this machine routes it (Linux), else 127.0.0.1 (each server on its own port). */
export function otherHost(): string {
  return secondHost;
}

/** `crawl-planner robots ...args`. */
export const robots = (...args: string[]) => runCli(['robots', ...args]);

/** The document of `crawl-planner robots ...args --json` (asserting exit 0). */
export async function robotsJson(...args: string[]): Promise<RobotsCliDocument> {
  const r = await robots(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as RobotsCliDocument;
}

/** A fresh server with `/robots.txt` answered by `handler`; closed after `fn`. */
export async function withRobots<R>(
  handler: LoopbackHandler,
  fn: (srv: LoopbackServer) => Promise<R>,
  host = '127.0.0.1',
): Promise<R> {
  const srv = await startLoopback({ host, routes: { '/robots.txt': handler } });
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

/** A file of that name and content in the scratch folder; its path. */
export function file(name: string, content: string | Uint8Array): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** A robots.txt with a FooBot group (Disallow, Crawl-delay 10, Allow), a `*` group that disallows all, a Sitemap. */
export const FOO = [
  'User-agent: FooBot',
  'Disallow: /private',
  'Crawl-delay: 10',
  'Allow: /private/ok',
  '',
  'User-agent: *',
  'Disallow: /',
  'Sitemap: https://example.com/sitemap.xml',
  '',
].join('\n');

/** `s` with the characters a RegExp reads escaped. */
export function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

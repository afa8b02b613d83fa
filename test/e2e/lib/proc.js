'use strict';
/**
 * Processes and servers the harness starts, and the one place that stops them. Every child is spawned
 * in its own process group (detached) so that stopping it also stops what it started (code-server's
 * extension host, its terminals, the extension's own demo hosts). `stopAll()` runs on success, on
 * failure, on SIGINT/SIGTERM and on an uncaught error.
 */
const { spawn, spawnSync } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');

/** @type {Array<{ name: string, stop: () => Promise<void> }>} */
const owned = [];

/** Registers something to stop at the end (last registered, first stopped). Returns an unregister function. */
function own(name, stop) {
  const entry = { name, stop };
  owned.push(entry);
  return () => {
    const i = owned.indexOf(entry);
    if (i >= 0) owned.splice(i, 1);
  };
}

let stopping;
/** Stops everything registered, newest first, each bounded in time. Safe to call more than once. */
function stopAll() {
  stopping ??= (async () => {
    while (owned.length > 0) {
      const entry = owned.pop();
      try {
        await withTimeout(entry.stop(), 15_000, `stopping ${entry.name}`);
      } catch (err) {
        process.stderr.write(`cleanup: ${entry.name}: ${err && err.message ? err.message : err}\n`);
      }
    }
  })().finally(() => {
    stopping = undefined;
  });
  return stopping;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: timed out after ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the process group, then SIGKILL after `graceMs` if anything in it is still alive. */
async function killGroup(pid, graceMs = 3000) {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + graceMs;
  while (Date.now() < until) {
    if (!groupAlive(pid)) return;
    await sleep(100);
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/**
 * Starts a long-running child in its own process group, output to `logFile`, registered for cleanup.
 * Returns { child, pid, exited: Promise<number|null>, stop() }.
 */
function startProcess(name, command, args, { env, cwd, logFile } = {}) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal));
    child.on('error', () => resolve(-1));
  });
  const stop = async () => {
    await killGroup(child.pid);
    await withTimeout(exited, 5000, `${name} exit`).catch(() => undefined);
  };
  const unown = own(name, stop);
  return {
    child,
    pid: child.pid,
    exited,
    stop: async () => {
      unown();
      await stop();
    },
  };
}

/** Runs a command to its end (bounded), output to the log file; throws on a non-zero exit. */
function runStep(what, command, args, { env, cwd, logFile, timeoutMs = 600_000 } = {}) {
  const started = Date.now();
  const r = spawnSync(command, args, { env, cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (logFile) fs.appendFileSync(logFile, `\n$ ${command} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${what}: exit code ${r.status}\n${tail}`);
  }
  return { ms: Date.now() - started, stdout: r.stdout };
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` (sync or async) until it returns a truthy value, or throws after `timeoutMs`. */
async function poll(what, check, { timeoutMs = 10_000, intervalMs = 200 } = {}) {
  const until = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${last ? ` (last error: ${last.message})` : ''}`,
      );
    await sleep(intervalMs);
  }
}

module.exports = { own, stopAll, startProcess, runStep, killGroup, freePort, sleep, poll, withTimeout };

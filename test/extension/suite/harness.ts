/**
 * A small test runner for the extension host (no mocha): suites call `test()` when they are loaded,
 * `run()` runs them in order, prints one line each, and throws when any failed, as
 * `--extensionTestsPath` expects. `runAll()` runs them the same way and returns the results instead of
 * throwing: the e2e harness's runner extension (test/e2e/runner-extension) writes them to a file.
 */
export type TestBody = () => Promise<void> | void;

interface Entry {
  name: string;
  body: TestBody;
  timeoutMs: number;
}

/** One test's outcome. */
export interface TestResult {
  name: string;
  ok: boolean;
  ms: number;
  /** The failure's stack (or message), when `ok` is false. */
  error?: string;
}

/** Every registered test's outcome. (`skipped` stays 0: this harness has no skipping.) */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  results: TestResult[];
}

const registered: Entry[] = [];

export function test(name: string, body: TestBody, timeoutMs = 60_000): void {
  registered.push({ name, body, timeoutMs });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every registered test in order, printing one line each; `onResult` hears each as it ends. */
export async function runAll(onResult?: (result: TestResult) => void): Promise<RunSummary> {
  const results: TestResult[] = [];
  for (const t of registered) {
    const started = Date.now();
    let result: TestResult;
    try {
      await withTimeout(Promise.resolve().then(t.body), t.timeoutMs, t.name);
      result = { name: t.name, ok: true, ms: Date.now() - started };
      console.log(`  ✓ ${t.name} (${result.ms} ms)`);
    } catch (err) {
      result = {
        name: t.name,
        ok: false,
        ms: Date.now() - started,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      };
      console.log(`  ✗ ${t.name}\n${result.error}`);
    }
    results.push(result);
    onResult?.(result);
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return { passed: results.length - failed, failed, skipped: 0, results };
}

export async function runRegistered(): Promise<void> {
  const summary = await runAll();
  const failures = summary.results.filter((r) => !r.ok).map((r) => r.name);
  if (failures.length > 0) throw new Error(`${failures.length} extension-host test(s) failed: ${failures.join('; ')}`);
}

/** Polls `check` until it returns a truthy value (never a fixed sleep). */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

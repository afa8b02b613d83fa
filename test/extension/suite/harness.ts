/**
 * A small test runner for the extension host (no mocha): suites call `test()` when they are loaded,
 * `run()` runs them in order, prints one line each, and throws when any failed, as
 * `--extensionTestsPath` expects.
 */
export type TestBody = () => Promise<void> | void;

interface Entry {
  name: string;
  body: TestBody;
  timeoutMs: number;
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

export async function runRegistered(): Promise<void> {
  const failures: string[] = [];
  for (const t of registered) {
    const started = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.body), t.timeoutMs, t.name);
      console.log(`  ✓ ${t.name} (${Date.now() - started} ms)`);
    } catch (err) {
      failures.push(t.name);
      console.log(`  ✗ ${t.name}\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
  console.log(`${registered.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(`${failures.length} extension-host test(s) failed: ${failures.join('; ')}`);
}

/** Polls `check` until it returns a truthy value (never a fixed sleep). */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

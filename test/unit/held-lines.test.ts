/** A test crawl's live lines held until its plan is printed (src/core/format/heldLines.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdLinesUntilPlan } from '../../src/core/format/heldLines';

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('holdLinesUntilPlan', () => {
  it('holds the lines written before the plan, prints the plan, then writes them in order; later lines go straight out', async () => {
    const written: string[] = [];
    const live = holdLinesUntilPlan((line: string) => written.push(line));
    live.write('a');
    const plan = deferred<number>();
    const printed = live.printPlan(plan.promise, (p) => written.push(`plan ${p}`));
    live.write('b');
    await Promise.resolve();
    assert.deepEqual(written, []);
    plan.resolve(7);
    await printed;
    assert.deepEqual(written, ['plan 7', 'a', 'b']);
    live.write('c');
    assert.deepEqual(written, ['plan 7', 'a', 'b', 'c']);
  });

  it('keeps each write whole (an event’s lines stay one write)', async () => {
    const written: string[][] = [];
    const live = holdLinesUntilPlan((lines: string[]) => written.push(lines));
    live.write(['one', 'two']);
    live.write(['three']);
    await live.printPlan(Promise.resolve('p'), () => undefined);
    assert.deepEqual(written, [['one', 'two'], ['three']]);
  });

  it('writes the held lines without a plan when the plan fails, and settles', async () => {
    const written: string[] = [];
    const live = holdLinesUntilPlan((line: string) => written.push(line));
    live.write('a');
    let printed = false;
    await live.printPlan(Promise.reject(new Error('no plan')), () => (printed = true));
    assert.equal(printed, false);
    assert.deepEqual(written, ['a']);
    live.write('b');
    assert.deepEqual(written, ['a', 'b']);
  });

  it('rejects when printing throws, after writing the held lines', async () => {
    const written: string[] = [];
    const live = holdLinesUntilPlan((line: string) => written.push(line));
    live.write('a');
    await assert.rejects(
      live.printPlan(Promise.resolve(1), () => {
        throw new Error('cannot print');
      }),
      /cannot print/,
    );
    assert.deepEqual(written, ['a']);
  });
});

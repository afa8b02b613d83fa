/**
 * The planner's one cancellable run (src/extension/planner/cancellableRun.ts), which the robots.txt, sitemaps and
 * simulation steps share: a new run supersedes the one before (aborted, its result stale), cancel and dispose
 * make every run so far stale, and a finished run is no longer in progress.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellableRun, started } from '../../src/extension/planner/cancellableRun';

test('a new run supersedes the one before: aborted, and its result is stale', () => {
  const runs = new CancellableRun();
  assert.equal(runs.running, false);
  const first = runs.start();
  assert.equal(runs.running, true);
  assert.equal(first.current, true);
  const second = runs.start();
  assert.equal(first.signal.aborted, true, 'the older run is aborted');
  assert.equal(first.current, false);
  assert.equal(first.finish(), false, "the older run's result is ignored");
  assert.equal(runs.running, true, 'a stale result does not end the newer run');
  assert.equal(second.finish(), true);
  assert.equal(runs.running, false, 'a finished run is no longer in progress');
  assert.equal(second.signal.aborted, false, 'finishing does not abort');
  assert.equal(second.finish(), true, 'the latest run stays current until another starts');
});

test('cancel aborts the run in progress and says whether there was one; dispose ends every run for good', () => {
  const runs = new CancellableRun();
  assert.equal(runs.cancel(), false, 'nothing in progress');
  const run = runs.start();
  assert.equal(runs.cancel(), true);
  assert.equal(run.signal.aborted, true);
  assert.equal(run.finish(), false);
  assert.equal(runs.running, false);
  const done = runs.start();
  assert.equal(done.finish(), true);
  assert.equal(runs.cancel(), false, 'a finished run is not cancelled');
  assert.equal(done.current, false, 'but its result, were it to come again, is stale');
  const last = runs.start();
  runs.dispose();
  assert.equal(last.signal.aborted, true);
  assert.equal(runs.start().current, false, 'no run after dispose is current');
});

test('started turns a throw into a rejection', async () => {
  assert.equal(await started(() => Promise.resolve(3)), 3);
  await assert.rejects(
    started(() => {
      throw new Error('no');
    }),
    /no/,
  );
});

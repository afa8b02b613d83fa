/**
 * What meets the deadline in the planner (deadline.ts): the options are posted with the plan, and applying one
 * sets the form (workers, caps by host) or drops hosts until they are planned again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlannerForm } from '../../src/shared/planner/form';
import { form, harness } from '../helpers/plannerHost';

const DEADLINE_SEEDS = 'https://a.example/\nhttps://b.example/x\nhttps://c.example/';

test('What meets the deadline: the facts and options are posted; applying "workers" sets the field and the plan meets it', () => {
  const h = harness({ seeds: DEADLINE_SEEDS, form: { ...form, pages: 30, workers: 1, deadlineSeconds: 40 } });
  h.controller.receive({ type: 'ready' });
  const d = h.last('state')!.result.deadline!;
  assert.equal(d.met, false);
  assert.match(d.verdict, /missed by/);
  assert.match(d.earliest, /^Earliest finish possible/);
  assert.deepEqual(
    d.options.map((o) => o.kind),
    ['workers', 'machines'],
  );
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 0 });
  const set = h.last('formSet')!;
  assert.equal(set.form.workers, 2);
  assert.equal(set.fields.workers, '2');
  assert.equal(set.fields.deadline, '40', 'the other fields as they were');
  const after = h.last('planResult')!.result.deadline!;
  assert.equal(after.met, true);
  assert.deepEqual(after.options, []);
  assert.match(h.last('notice')!.message, /^Applied: Raise the workers from 1 to 2/);
  // The option of a plan that is no longer shown is refused.
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 1 });
  assert.match(h.last('notice')!.message, /The plan changed since these options were shown/);
  assert.equal(h.last('formSet')!.form.machines, null);
});

test('A "cap" option gives each host its pages (by host); a "drop" option leaves the host out until it is planned again', () => {
  const capForm: PlannerForm = {
    ...form,
    pagesMode: 'byHost',
    pages: 0,
    pagesByHost: { 'a.example': 1000, 'b.example': 10 },
    deadlineSeconds: 300,
  };
  const h = harness({ seeds: 'https://a.example/\nhttps://b.example/x', form: capForm });
  h.controller.receive({ type: 'ready' });
  const d = h.last('state')!.result.deadline!;
  assert.deepEqual(d.blockingHosts, ['a.example']);
  assert.deepEqual(
    d.options.map((o) => [o.kind, o.hosts]),
    [
      ['cap', ['a.example']],
      ['drop', ['a.example']],
    ],
  );
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 0 });
  // robots.txt opens the host's timeline; page n starts at n × (1 s + REQUEST_OVERHEAD 1.3 ms) and its answer
  // takes 0.5 s: 299 pages end at 299.889 s, 300 would end at 300.89 s.
  assert.deepEqual(h.last('formSet')!.form.pagesByHost, { 'a.example': 299, 'b.example': 10 });
  assert.equal(h.last('planResult')!.result.deadline!.met, true);

  const dropper = harness({ seeds: 'https://a.example/\nhttps://b.example/x', form: capForm });
  dropper.controller.receive({ type: 'ready' });
  const dd = dropper.last('state')!.result.deadline!;
  dropper.controller.receive({ type: 'applyDeadlineOption', plan: dd.plan, index: 1 });
  let result = dropper.last('planResult')!.result;
  assert.deepEqual([result.dropped, result.droppedCount, result.deadline!.met], [['a.example'], 1, true]);
  assert.deepEqual(
    dropper.controller.currentSeeds(),
    ['https://b.example/x'],
    "the test crawl and the export take the plan's seeds",
  );
  const exported = dropper.controller.exportInput();
  assert.ok(!('problem' in exported));
  assert.deepEqual(exported.seeds, [{ url: 'https://b.example/x', host: 'b.example' }]);
  assert.deepEqual(
    exported.plan.hosts.map((x) => x.host),
    ['b.example'],
  );
  assert.deepEqual(dropper.saved.at(-1)!.dropHosts, ['a.example']);
  // A reloaded planner keeps it dropped.
  const reloaded = harness({ stored: dropper.saved.at(-1) });
  reloaded.controller.receive({ type: 'ready' });
  assert.deepEqual(reloaded.last('state')!.result.dropped, ['a.example']);
  dropper.controller.receive({ type: 'restoreHosts', host: 'a.example' });
  result = dropper.last('planResult')!.result;
  assert.deepEqual([result.dropped, result.deadline!.met], [[], false]);
  assert.equal(dropper.saved.at(-1)!.dropHosts, undefined);
});

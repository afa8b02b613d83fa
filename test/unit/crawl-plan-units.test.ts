/**
 * `crawl --plan` keeps the plan's politeness unit (docs/how-it-works.md#politeness-units): an estimate document
 * whose settings say `politenessBy` runs the crawl by it; a different --politeness-by beside it is refused, and
 * so is a value that is not a unit. A document written before units (no `politenessBy`) is a plan by host.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { UsageError, type Io } from '../../src/cli/args';
import { crawlOptionsFromFlags } from '../../src/cli/crawl';
import { readPlanToRun } from '../../src/cli/crawlPlan';
import { estimateDocument, plan } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';

const dir = mkdtempSync(join(tmpdir(), 'plan-units-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const io: Io = { out: () => undefined, err: () => undefined, color: false } as unknown as Io;

function planFile(politenessBy?: unknown, drop = false): string {
  const { seeds } = validateSeeds(['http://a.test/', 'http://b.test/'].map((text, i) => ({ text, line: i + 1 })));
  const doc = JSON.parse(JSON.stringify(estimateDocument(plan({ seeds, pages: { byHost: {}, otherwise: 2 } }))));
  if (politenessBy !== undefined) doc.settings.politenessBy = politenessBy;
  if (drop) delete doc.settings.politenessBy;
  const path = join(dir, `plan-${String(politenessBy)}-${drop}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

describe('crawl --plan and politeness units', () => {
  it("runs by the plan's unit", () => {
    const { run, values } = readPlanToRun(planFile('ip'), {}, [], io);
    assert.equal(values['politeness-by'], 'ip');
    assert.equal(crawlOptionsFromFlags(values, run.seeds, run).politenessBy, 'ip');
  });

  it('a plan made by host, or written before units, runs by host; --politeness-by host beside it is allowed', () => {
    for (const file of [planFile(), planFile(undefined, true)]) {
      const { run, values } = readPlanToRun(file, { 'politeness-by': 'host' }, [], io);
      assert.equal(values['politeness-by'], 'host');
      assert.equal(run.politenessBy, 'host');
      assert.throws(
        () => readPlanToRun(file, { 'politeness-by': 'domain' }, [], io),
        /the plan keeps politeness by host/,
      );
    }
  });

  it('refuses another unit beside the plan, and a unit that is not one', () => {
    assert.throws(
      () => readPlanToRun(planFile('ip'), { 'politeness-by': 'host' }, [], io),
      (err: unknown) =>
        err instanceof UsageError &&
        /--politeness-by: not with --plan \(the plan keeps politeness by ip\)/.test(err.message),
    );
    assert.throws(
      () => readPlanToRun(planFile('server'), {}, [], io),
      (err: unknown) =>
        err instanceof UsageError &&
        /--plan: .*settings\.politenessBy: "server" is not one of host, ip, domain/.test(err.message),
    );
  });
});

/**
 * `crawl --plan` keeps the plan's politeness unit (docs/how-it-works.md#politeness-units): an estimate document
 * whose settings say `politenessBy` runs the crawl by it; a different --politeness-by beside it is refused, and
 * so is a value that is not a unit. A document without one leaves the flag (or the default) in charge.
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

function planFile(politenessBy?: unknown): string {
  const { seeds } = validateSeeds(['http://a.test/', 'http://b.test/'].map((text, i) => ({ text, line: i + 1 })));
  const doc = JSON.parse(JSON.stringify(estimateDocument(plan({ seeds, pages: { byHost: {}, otherwise: 2 } }))));
  if (politenessBy !== undefined) doc.settings.politenessBy = politenessBy;
  const path = join(dir, `plan-${String(politenessBy)}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

describe('crawl --plan and politeness units', () => {
  it("runs by the plan's unit", () => {
    const { run, values } = readPlanToRun(planFile('ip'), {}, [], io);
    assert.equal(values['politeness-by'], 'ip');
    assert.equal(crawlOptionsFromFlags(values, run.seeds, run).politenessBy, 'ip');
  });

  it('a plan without one leaves --politeness-by in charge (host by default)', () => {
    const { run, values } = readPlanToRun(planFile(), { 'politeness-by': 'domain' }, [], io);
    assert.equal(crawlOptionsFromFlags(values, run.seeds, run).politenessBy, 'domain');
    const plain = readPlanToRun(planFile(), {}, [], io);
    assert.equal(crawlOptionsFromFlags(plain.values, plain.run.seeds, plain.run).politenessBy, undefined);
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
        /settings\.politenessBy: "server" must be one of host, ip, domain/.test(err.message),
    );
  });
});

/**
 * The CLI's command table (src/cli/main.ts): the usage lists every command, and a name that is not one is
 * refused with the usage, whatever Object's prototype holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXIT_USAGE, type Io } from '../../src/cli/args';
import { main } from '../../src/cli/main';

function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => {
      out += t;
      return true;
    },
    drain: () => Promise.resolve(),
    err: (t) => {
      err += t;
    },
    color: false,
  };
  return main(argv, io).then((code) => ({ code, out, err }));
}

test('--help lists every command with its summary', async () => {
  const { code, out } = await run(['--help']);
  assert.equal(code, 0);
  for (const name of ['estimate', 'export', 'robots', 'sitemaps', 'crawl', 'demo'])
    assert.match(out, new RegExp(`^  ${name} +\\S`, 'm'), name);
});

test('an unknown command is refused with the usage', async () => {
  for (const name of ['nope', 'toString', 'constructor', '__proto__']) {
    const { code, err } = await run([name]);
    assert.equal(code, EXIT_USAGE, name);
    assert.ok(err.startsWith(`crawl-planner: unknown command "${name}"\nUsage: crawl-planner`), `${name}: ${err}`);
  }
});

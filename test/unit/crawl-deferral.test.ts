/**
 * createDeferral (src/net/crawlSession.ts): the engine's `defer` on real I/O. Deferred work waits for the
 * requests started before it to be handed to their connections, and no more than two event-loop turns;
 * with none waiting it runs on the next turn. Order only, never durations.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDeferral } from '../../src/net/crawlSession';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createDeferral', () => {
  it('with no request waiting, runs deferred work on the next turn, in order', async () => {
    const d = createDeferral();
    const seen: string[] = [];
    d.defer(() => seen.push('a'));
    d.defer(() => seen.push('b'));
    seen.push('sync');
    await turn();
    assert.deepEqual(seen, ['sync', 'a', 'b']);
  });

  it('waits for a started request to be sent, then runs right after (not on the first turn)', async () => {
    const d = createDeferral();
    const seen: string[] = [];
    const sent = d.track();
    d.defer(() => seen.push('read'));
    setImmediate(() => {
      seen.push('first turn');
      sent();
      seen.push('written');
    });
    await turn();
    await Promise.resolve();
    assert.deepEqual(seen, ['first turn', 'written', 'read']);
    sent(); // a second call (the request ended) changes nothing
    await turn();
    assert.deepEqual(seen, ['first turn', 'written', 'read']);
  });

  it('does not wait more than two turns for a request that is not sent (a new connection, say)', async () => {
    const d = createDeferral();
    const seen: string[] = [];
    d.track();
    d.defer(() => seen.push('read'));
    await turn();
    assert.deepEqual(seen, []);
    await turn();
    await turn();
    assert.deepEqual(seen, ['read']);
  });

  it('a fallback left from earlier work does not run later work early', async () => {
    const d = createDeferral();
    const seen: string[] = [];
    const first = d.track();
    d.defer(() => seen.push('first read'));
    first();
    await Promise.resolve();
    assert.deepEqual(seen, ['first read']);
    await turn(); // the first fallback's outer turn
    d.track();
    d.defer(() => seen.push('second read'));
    await turn(); // the first fallback's inner turn: it must leave the second read alone
    assert.deepEqual(seen, ['first read']);
    await turn();
    await turn();
    assert.deepEqual(seen, ['first read', 'second read'], "the second read's own fallback");
  });
});

/**
 * The extension's question before a request reaches a real host without a contact (src/extension/contact.ts),
 * with the notification, the settings editor and the workspace state injected. The real notification in the
 * extension host: test/extension/suite/contact.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONTACT_ANSWERED_STATE_KEY,
  ContactRequiredError,
  createContactGuard,
  CRAWL_ANYWAY,
  SET_CONTACT,
  type ContactGuardDeps,
} from '../../src/extension/contact';

function fixture(answers: Array<string | undefined>, contact?: string) {
  const state = new Map<string, unknown>();
  const asked: Array<{ message: string; actions: string[] }> = [];
  let settingsOpened = 0;
  const logged: string[] = [];
  const pendingAnswers: Array<(answer: string | undefined) => void> = [];
  const deps: ContactGuardDeps = {
    contact: () => contact,
    state: {
      get: <T>(key: string) => state.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void state.set(key, value),
    } as ContactGuardDeps['state'],
    ask: (message, ...actions) => {
      asked.push({ message, actions });
      const answer = answers.shift();
      // 'wait': the test answers later, through `answer()`.
      return answer === 'wait' ? new Promise((resolve) => pendingAnswers.push(resolve)) : Promise.resolve(answer);
    },
    openSetting: async () => void settingsOpened++,
    log: {
      info: (m: string) => void logged.push(m),
      warn: (m: string) => void logged.push(m),
    } as ContactGuardDeps['log'],
  };
  return {
    guard: createContactGuard(deps),
    state,
    asked,
    logged,
    settingsOpened: () => settingsOpened,
    answer: (a: string | undefined) => pendingAnswers.shift()!(a),
  };
}

const REAL = ['https://a.example/x', 'https://b.example/', 'http://127.0.0.11:8470/'];

describe('the contact question (extension)', () => {
  it("a contact set, or only this machine's hosts (loopback, demo hosts): no question", async () => {
    const withContact = fixture([], 'mailto:ops@example.com');
    await withContact.guard.check(REAL, 'test crawl');
    const local = fixture([]);
    await local.guard.check(['http://127.0.0.11:8470/', 'http://localhost:3000/', 'http://[::1]/'], 'test crawl');
    assert.equal(withContact.asked.length + local.asked.length, 0);
  });

  it('asks, naming the real hosts and offering Set Contact URL and Crawl Anyway', async () => {
    const f = fixture([CRAWL_ANYWAY]);
    await f.guard.check(REAL, 'test crawl');
    assert.equal(f.asked.length, 1);
    assert.deepEqual(f.asked[0]!.actions, [SET_CONTACT, CRAWL_ANYWAY]);
    assert.match(
      f.asked[0]!.message,
      /no contact URL is set, so the operators of a\.example and b\.example cannot reach you/,
    );
    assert.doesNotMatch(f.asked[0]!.message, /127\.0\.0\.11/);
  });

  it('Crawl Anyway: the request goes ahead, and the workspace is not asked again', async () => {
    const f = fixture([CRAWL_ANYWAY]);
    await f.guard.check(REAL, 'test crawl');
    assert.equal(f.state.get(CONTACT_ANSWERED_STATE_KEY), true);
    await f.guard.check(['https://c.example/'], 'robots.txt fetch');
    assert.equal(f.asked.length, 1, 'asked once');
    assert.ok(
      f.logged.some((l) => /robots\.txt fetch: no contact URL set .*going ahead/.test(l)),
      f.logged.join('\n'),
    );
  });

  it('Set Contact URL: opens the setting, the request does not go ahead; the workspace is not asked again', async () => {
    const f = fixture([SET_CONTACT]);
    await assert.rejects(
      f.guard.check(REAL, 'test crawl'),
      (e: Error) => e instanceof ContactRequiredError && /test crawl not started: set a contact URL/.test(e.message),
    );
    assert.equal(f.settingsOpened(), 1);
    assert.equal(f.state.get(CONTACT_ANSWERED_STATE_KEY), true);
    await f.guard.check(REAL, 'test crawl');
    assert.equal(f.asked.length, 1);
  });

  it('closed without an answer: the request does not go ahead, and the question comes again', async () => {
    const f = fixture([undefined, CRAWL_ANYWAY]);
    await assert.rejects(f.guard.check(REAL, 'test crawl'), ContactRequiredError);
    assert.equal(f.settingsOpened(), 0);
    assert.equal(f.state.has(CONTACT_ANSWERED_STATE_KEY), false);
    await f.guard.check(REAL, 'test crawl');
    assert.equal(f.asked.length, 2);
  });

  it('requests waiting at the same time share one notification and its answer', async () => {
    const f = fixture(['wait']);
    const first = f.guard.check(REAL, 'planner robots.txt');
    const second = f.guard.check(['https://c.example/'], 'test crawl');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(f.asked.length, 1);
    f.answer(SET_CONTACT);
    await assert.rejects(first, ContactRequiredError);
    await assert.rejects(second, ContactRequiredError);
    assert.equal(f.settingsOpened(), 1, 'the setting opens once');
  });
});

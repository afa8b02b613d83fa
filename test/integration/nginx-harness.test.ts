/**
 * The nginx harness (test/helpers/nginx.ts) is what the rate-limiter tests stand on: Debian's nginx on
 * loopback with a generated config, `limit_req` refusing early requests with the chosen status and a
 * Retry-After on refusals only, exempt paths left alone, and each request's start read from its access log.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startNginx, type NginxServer } from '../helpers/nginx';

const T = { timeout: 30_000 };
const servers: NginxServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('nginx harness', () => {
  it(
    'limit_req refuses early requests with 429 and Retry-After; robots.txt exempt; the log gives each start',
    T,
    async () => {
      const nginx = await startNginx([
        {
          host: '127.0.0.61',
          files: { '/robots.txt': 'User-agent: *\nAllow: /\n', '/a.html': '<p>a</p>' },
          limit: { rate: '2r/s', status: 429, retryAfter: '1', exempt: ['/robots.txt'] },
        },
        { host: '127.0.0.62', files: { '/b.html': '<p>b</p>' } },
      ]);
      servers.push(nginx);
      const [limited, open] = nginx.sites;
      const statuses: Array<[number, string | null]> = [];
      for (let i = 0; i < 4; i++) {
        const r = await fetch(limited!.url('/a.html'));
        await r.arrayBuffer();
        statuses.push([r.status, r.headers.get('retry-after')]);
      }
      const robots = await fetch(limited!.url('/robots.txt'));
      assert.equal(robots.status, 200);
      assert.equal(robots.headers.get('retry-after'), null, 'no Retry-After on an answer that is not a refusal');
      assert.deepEqual(statuses[0], [200, null]);
      assert.ok(
        statuses.slice(1).every(([s, ra]) => s === 429 && ra === '1'),
        `back-to-back requests refused: ${JSON.stringify(statuses)}`,
      );
      const other = await fetch(open!.url('/b.html'));
      assert.equal(other.status, 200, 'a site without a limiter is its own host');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logged = nginx.arrivalsOf(limited!);
      assert.deepEqual(
        logged.map((a) => [a.path, a.status]),
        [
          ['/a.html', 200],
          ['/a.html', 429],
          ['/a.html', 429],
          ['/a.html', 429],
          ['/robots.txt', 200],
        ],
      );
      for (let i = 1; i < logged.length; i++) assert.ok(logged[i]!.at >= logged[i - 1]!.at);
      assert.ok(logged.every((a) => a.endedAt >= a.at));
    },
  );
});

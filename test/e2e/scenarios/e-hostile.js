'use strict';
/**
 * e. A hostile robots.txt (markup and <script> in paths, comments, the sitemap URL) served from
 * loopback shows in the planner as TEXT, and nothing of it runs: `window.__pwned` (which every payload
 * would set) stays undefined in the webview, its parent and the workbench; no element of the payloads
 * exists in the webview's DOM; and the webview reports no Content-Security-Policy violation (so
 * nothing was even injected for the CSP to stop).
 */
const { check, contains } = require('../lib/assert');

const PAYLOAD = '<img src=x onerror=window.__pwned=1>';

module.exports = {
  id: 'e-hostile',
  title: 'hostile robots.txt content shows as text in the planner and runs no script',
  profile: 'trusted',
  timeoutMs: 90_000,
  async run(ctx) {
    const { wb, hostile, page } = ctx;
    const consoleCsp = [];
    page.on('console', (m) => {
      // Only the webview's frames (the workbench has CSP messages of its own, e.g. its blocked gallery).
      const from = m.location()?.url ?? '';
      if (/webview/.test(from) && /Content Security Policy|Refused to (execute|load|apply)/i.test(m.text()))
        consoleCsp.push(m.text().slice(0, 200));
    });

    const frame = await wb.openPlanner();
    const inner = await wb.plannerFrameHandle();
    // Listen for CSP violations inside the webview before anything hostile arrives.
    await inner.evaluate(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });

    const hostileSeed = `${hostile.origin}/${PAYLOAD}`;
    await frame.locator('#seeds').fill(`${hostile.origin}/\n${hostileSeed}`);
    await frame.locator('#pages').fill('10');
    await frame.locator('#use-robots').check();

    const card = frame.locator(`#robots section.robots-origin[data-origin="${hostile.origin}"]`);
    await card.waitFor({ timeout: 30_000 });
    const link = card.locator('button.rule-link').first();
    await link.waitFor({ timeout: 15_000 });

    // The payload is on screen, as the characters of the file.
    const linkText = await link.innerText();
    contains(
      linkText,
      ['Disallow: /<img src=x onerror=window.__pwned=1>'],
      'the deciding-line link of the hostile seed',
    );
    const cardText = await card.innerText();
    contains(cardText, ['disallowed', 'Crawl-delay: 1 s'], 'the hostile origin card');
    const sitemaps = card.locator('details');
    if ((await sitemaps.count()) > 0) {
      await sitemaps.first().locator('summary').click();
      contains(await sitemaps.first().innerText(), ['<b>bold</b>'], 'the sitemap list');
    }

    // E2E_SELFTEST_INJECT=1 does what an escaping bug would (innerHTML of the rule), to see this test fail.
    if (process.env.E2E_SELFTEST_INJECT)
      await inner.evaluate((html) => document.querySelector('#robots').insertAdjacentHTML('beforeend', html), PAYLOAD);

    // Nothing ran and nothing was parsed as markup.
    await page.waitForTimeout(1000);
    const inside = await inner.evaluate(() => ({
      pwned: typeof window.__pwned,
      parentPwned: (() => {
        try {
          return typeof window.parent.__pwned;
        } catch {
          return 'unreachable';
        }
      })(),
      scripts: [...document.querySelectorAll('script')].map(
        (e) => `${e.src || 'inline'}${e.nonce ? ' (nonce)' : ''} in ${e.parentElement?.tagName}`,
      ),
      injected: [
        ...document.querySelectorAll('#planner img, #planner iframe, #planner b, #planner script, #planner [onerror]'),
      ].map((e) => e.outerHTML.slice(0, 80)),
      csp: window.__cspViolations,
    }));
    const top = await page.evaluate(() => typeof window.__pwned);
    check(inside.pwned === 'undefined', `window.__pwned is ${inside.pwned} in the webview: a payload ran`);
    check(inside.parentPwned !== 'number', 'window.__pwned was set in the webview host frame: a payload ran');
    check(top === 'undefined', 'window.__pwned was set in the workbench: a payload ran');
    check(inside.injected.length === 0, `payload elements exist in the webview DOM: ${inside.injected.join(' | ')}`);
    // VS Code injects one script into the webview's head; the page's own is the nonce'd bundle.
    const bodyScripts = inside.scripts.filter((x) => / in BODY$/.test(x));
    check(
      bodyScripts.length === 1 && /dist\/webview\.js \(nonce\)/.test(bodyScripts[0]),
      `unexpected scripts in the webview body: ${bodyScripts.join('; ')}`,
    );
    check(inside.csp.length === 0, `CSP violations in the webview: ${inside.csp.join('; ')}`);
    check(consoleCsp.length === 0, `CSP messages in the console: ${consoleCsp.join('; ')}`);
    check(
      hostile.requests.every((u) => u === '/robots.txt'),
      `the hostile server saw requests other than /robots.txt: ${hostile.requests.join(', ')}`,
    );
    ctx.note(`shown as text: "${linkText}"`);

    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots();
  },
};

'use strict';
/**
 * d. A robots.txt with mistakes, opened from the workspace, shows diagnostics in the Problems panel
 * (and squiggles in the editor). It needs the editor support step (a `robots-txt` language in the
 * extension's package.json); until that lands the scenario is skipped and says so.
 */
const { check } = require('../lib/assert');
const { poll } = require('../lib/proc');

const FILE = 'robots-with-mistakes/robots.txt';
/** Lines of the fixture that carry a mistake (1-based), and what is wrong on each. */
const MISTAKES = {
  2: 'a rule before any User-agent line',
  4: 'Dissalow: a misspelt directive',
  5: 'Crawl-delay: not a number',
  6: 'Allow: a path that does not start with /',
  7: 'Sitemap: a relative URL',
};

module.exports = {
  id: 'd-diagnostics',
  title: 'a robots.txt with mistakes shows diagnostics in the Problems panel',
  profile: 'trusted',
  timeoutMs: 90_000,
  skipReason(env) {
    const languages = env.manifest.contributes?.languages ?? [];
    if (!languages.some((l) => l.id === 'robots-txt')) {
      return 'the extension contributes no robots-txt language yet (package.json contributes.languages): robots.txt diagnostics arrive with the editor-support step';
    }
    return undefined;
  },
  async run(ctx) {
    const { wb, page } = ctx;
    // Open the file as a person does: Quick Open, type the path, Enter.
    await wb.dismissQuickInput();
    await page.keyboard.press('Control+P');
    const input = wb.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(FILE);
    await wb.quickInput.locator('.monaco-list-row', { hasText: 'robots.txt' }).first().click({ timeout: 15_000 });
    await poll(
      'robots.txt to open in the editor',
      async () => /robots\.txt/.test((await wb.activeTabLabel().catch(() => '')) ?? ''),
      { timeoutMs: 15_000 },
    );

    // The language mode in the status bar is the extension's.
    const mode = await page
      .locator('#status\\.editor\\.mode')
      .innerText({ timeout: 10_000 })
      .catch(() => '');
    ctx.note(`language mode: ${mode}`);

    await wb
      .runCommand('View: Focus Problems (Errors, Warnings, Infos)')
      .catch(async () => wb.runCommand('Problems: Focus on Problems View'));
    const rows = page.locator('.markers-panel .monaco-list-row');
    const labels = await poll(
      'problems for robots.txt in the Problems panel',
      async () => {
        const all = await rows.evaluateAll((els) =>
          els.map((e) => e.getAttribute('aria-label') || e.textContent || ''),
        );
        const problems = all.filter((l) => !/robots\.txt$/i.test(l.trim()) && !/^robots-with-mistakes/.test(l.trim()));
        return problems.length >= 3 ? all : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const joined = labels.join('\n');
    const lines = [...joined.matchAll(/line (\d+)|\[Ln (\d+)/gi)].map((m) => Number(m[1] ?? m[2]));
    const covered = Object.keys(MISTAKES)
      .map(Number)
      .filter((n) => lines.includes(n));
    ctx.note(`Problems panel: ${labels.length} rows; mistake lines with a problem: ${covered.join(', ')}`);
    check(
      covered.length === Object.keys(MISTAKES).length,
      `the Problems panel marks only lines ${covered.join(', ') || 'none'} of the mistakes on lines ${Object.keys(MISTAKES).join(', ')}:\n${joined}`,
    );
    check(/Dissalow/i.test(joined) || lines.includes(4), 'the misspelt Dissalow line has no problem');

    // The editor draws its squiggles on its own schedule: wait for one per mistake.
    const squiggleLocator = page.locator('.editor-group-container.active .monaco-editor .cdr[class*="squiggly-"]');
    const squiggles = await poll(
      'a squiggle under each mistake',
      async () => {
        const n = await squiggleLocator.count();
        return n >= Object.keys(MISTAKES).length ? n : undefined;
      },
      { timeoutMs: 10_000 },
    ).catch(async () => squiggleLocator.count());
    check(
      squiggles >= Object.keys(MISTAKES).length,
      `the editor shows ${squiggles} squiggles (expected one per mistake)`,
    );
    await ctx.screenshots();
  },
};

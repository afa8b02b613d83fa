'use strict';
/**
 * g. What the planner looks like, checked rather than only photographed: in the default sidebar width
 * and in both themes, its text and its chart bars have enough contrast against what they are drawn on
 * (WCAG: 4.5:1 for text, 3:1 for large text and for the bars), no text is squeezed into a column one
 * letter wide, a host name in the chart is not broken across lines, and nothing overflows sideways.
 *
 * E2E_LEGIBILITY=warn turns its failures into notes (for a branch that waits on a styling fix).
 */
const { check } = require('../lib/assert');
const { auditPlanner } = require('../lib/contrast');

module.exports = {
  id: 'g-legibility',
  title:
    'the planner is legible in the sidebar: contrast, no letter-wide columns, no broken host names, no sideways overflow',
  profile: 'trusted',
  timeoutMs: 120_000,
  async run(ctx) {
    const { wb, demo } = ctx;
    const fast = demo.byName('fast');
    const polite = demo.byName('polite');
    const frame = await wb.openPlanner();
    await frame.locator('#seeds').fill(`${fast.baseUrl}\n${polite.baseUrl}\n${polite.origin}/private/`);
    await frame.locator('#pages').fill('500');
    await frame.locator('#use-robots').check();
    await frame
      .locator(`#robots section.robots-origin[data-origin="${polite.origin}"] li[data-verdict="disallowed"]`)
      .waitFor({ timeout: 30_000 });
    await frame.locator('#chart .bar.binding').waitFor({ timeout: 10_000 });
    const inner = await wb.plannerFrameHandle();

    const problems = [];
    const vars = await inner.evaluate(() =>
      ['--vscode-charts-orange', '--vscode-charts-blue', '--vscode-testing-iconPassed', '--vscode-testing-iconFailed']
        .map((v) => `${v}: ${getComputedStyle(document.documentElement).getPropertyValue(v).trim()}`)
        .join(', '),
    );
    if (process.env.E2E_DEBUG) ctx.note(`theme colours used: ${vars}`);
    await frame.locator('#plan-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('', {
      each: async (theme) => {
        for (const line of await auditPlanner(inner, theme)) {
          if (/LOW/.test(line)) problems.push(`contrast: ${line}`);
          else if (process.env.E2E_DEBUG) ctx.note(`colour: ${line}`);
        }
      },
    });

    const layout = await inner.evaluate(() => {
      const found = [];
      const lineHeight = (el) =>
        parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.4;
      // Screen-reader-only content (clipped to 1 px) is not on screen.
      const hidden = (el) => {
        for (let n = el; n && n !== document.body; n = n.parentElement) {
          const st = getComputedStyle(n);
          const r = n.getBoundingClientRect();
          if (
            (st.clipPath && st.clipPath !== 'none') ||
            (st.clip && st.clip !== 'auto') ||
            (r.width <= 1 && r.height <= 1)
          )
            return true;
        }
        return false;
      };
      // Text squeezed to a column about one character wide.
      for (const el of document.querySelectorAll(
        '#planner caption, #planner h2, #planner h3, #planner label, #planner p, #planner li, #planner th, #planner td, #planner span, #planner button',
      )) {
        const text = (el.textContent || '').trim();
        if (text.length < 4 || el.offsetParent === null || hidden(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.width < parseFloat(getComputedStyle(el).fontSize) * 1.6 && r.height > lineHeight(el) * 3) {
          found.push(
            `"${text.slice(0, 30)}" (${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}) is ${Math.round(r.width)} px wide and ${Math.round(r.height)} px tall: one letter per line`,
          );
        }
      }
      // Host names in the chart on one line (a host name broken in two reads as two hosts).
      for (const label of document.querySelectorAll('#chart .bar[data-kind="host"] .bar-label')) {
        const r = label.getBoundingClientRect();
        if (r.height > lineHeight(label) * 1.5)
          found.push(
            `the chart label "${label.textContent}" is broken over ${Math.round(r.height / lineHeight(label))} lines`,
          );
      }
      // Nothing wider than the view.
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth + 1)
        found.push(`the planner is ${doc.scrollWidth} px wide in a ${doc.clientWidth} px view (sideways scrolling)`);
      return { found, width: doc.clientWidth };
    });
    ctx.note(`sidebar webview width: ${layout.width} px`);
    problems.push(...layout.found.map((f) => `layout: ${f}`));

    if (problems.length > 0 && process.env.E2E_LEGIBILITY === 'warn') {
      for (const p of problems) ctx.note(`(warn) ${p}`);
      return;
    }
    check(problems.length === 0, `${problems.length} legibility problems:\n${problems.join('\n')}`);
  },
};

'use strict';
/**
 * h. The planner at real sizes (issue 15). A paste of 1,000 seeds (set as the box's value with an `input`
 * event, as a paste ends up: Playwright's fill() of many lines is quadratic in Chromium) is planned in under
 * 2 s; a paste of 50,000 lines is refused before it reaches the box, with its size, the limit and what to do,
 * and the old line errors go; the box's text and a number typed after it survive hide/show; 1.57 MB of text
 * typed past the limits is kept exactly across hide/show and a window reload; the workspace's seeds.txt of
 * 50,000 seeds is planned in under 2 s and stays the source across hide/show; the plan report shows all 50,000
 * hosts (its row count), sorts and searches them; 10,000 and 100,000 seeds come through VS Code's own Open
 * dialog (100,000 in under 2 s) and the report follows; a window reload keeps the file. Meanwhile the
 * workbench's main thread is watched: the longest time it could not run a 10 ms timer while the planner
 * planned is noted and bounded (while the report opened, noted).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { check, contains } = require('../lib/assert');
const { poll } = require('../lib/proc');

const PASTED = 1000;
const FILE_SEEDS = 50_000;
/** Lists loaded with "Load seeds from file…" for the figures (docs/benchmarks.md): 10,000 and 100,000 seeds. */
const MEASURED = [10_000, 100_000];
/** What "plans in under 2 s" means here: from the paste (or the click) to the total on screen. */
const PLAN_MS = 2000;
/**
 * The longest the workbench's main thread may be held while the planner plans (issue 15: 100 ms): the longest
 * task on it (the Long Tasks API; the webviews share its renderer and event loop). The 10 ms heartbeat is noted
 * too: it also counts the time the OS gave the renderer no core, which on these 2-core machines, with code-server
 * and the extension host busy planning beside it, can exceed 100 ms with no long task at all.
 */
const BLOCK_MS = 100;

const list = (n, prefix) =>
  Array.from({ length: n }, (_, i) => `https://${prefix}-${String(i).padStart(6, '0')}.example.com/`).join('\n') + '\n';

/** A 32-bit FNV-1a of a text; the same source runs in the page, so 1.2 MB are compared without sending them back. */
function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Watches the workbench's main thread: the longest gap between two runs of a 10 ms timer, minus 10 ms. */
async function startHeartbeat(page) {
  await page.evaluate(() => {
    const beat = { last: performance.now(), max: 0, task: 0 };
    window.__plannerBeat = beat;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // Where it ran: the workbench itself, or a webview's frame ("cross-origin-descendant", an iframe).
        if (entry.duration > beat.task)
          beat.where = (entry.attribution || []).map((a) => `${a.name} ${a.containerType}`.trim()).join(', ');
        beat.task = Math.max(beat.task, entry.duration);
      }
    }).observe({ type: 'longtask' });
    const tick = () => {
      const now = performance.now();
      beat.max = Math.max(beat.max, now - beat.last - 10);
      beat.last = now;
      setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  });
}

async function resetBeat(page) {
  await page.evaluate(() => {
    window.__plannerBeat.max = 0;
    window.__plannerBeat.task = 0;
    window.__plannerBeat.where = '';
    window.__plannerBeat.last = performance.now();
  });
}

/** The heartbeat's longest gap, in ms; `taskMax` the longest task (ms) and where it ran, both since the last reset. */
async function beatMax(page) {
  return page.evaluate(() => Math.round(window.__plannerBeat.max));
}

async function taskMax(page) {
  return page.evaluate(() => ({ ms: Math.round(window.__plannerBeat.task), where: window.__plannerBeat.where }));
}

/**
 * Does `act` in the planner's frame and resolves to the milliseconds until #total matches `pattern`,
 * measured in the page (a MutationObserver on #total).
 */
async function timeToTotal(inner, act, pattern, timeoutMs = 20_000) {
  return inner.evaluate(
    async ({ act, pattern, timeoutMs }) => {
      const total = document.getElementById('total');
      const re = new RegExp(pattern);
      const start = performance.now();
      const shown = new Promise((resolve, reject) => {
        const observer = new MutationObserver(() => {
          if (re.test(total.textContent)) {
            observer.disconnect();
            resolve(performance.now() - start);
          }
        });
        observer.observe(total, { childList: true, characterData: true, subtree: true });
        setTimeout(() => {
          observer.disconnect();
          reject(new Error(`#total still reads "${total.textContent}" after ${timeoutMs} ms`));
        }, timeoutMs);
      });
      if (act.paste !== undefined) {
        const box = document.getElementById('seeds');
        box.value = act.paste;
        box.dispatchEvent(new Event('input', { bubbles: true }));
      } else {
        document.getElementById(act.click).click();
      }
      return Math.round(await shown);
    },
    { act, pattern, timeoutMs },
  );
}

/**
 * Memory in use: the workbench page's JavaScript heap (Chromium's performance.memory; the webviews run in
 * the same renderer) and the extension host's resident set (its process, found by its command line).
 */
async function memory(page) {
  const heap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : 0));
  let host = 'unknown';
  try {
    const ps = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' });
    const line = ps.split('\n').find((l) => /extensionHost|bootstrap-fork.*--type=extensionHost/.test(l));
    if (line) host = `${Math.round(Number(line.trim().split(/\s+/)[0]) / 1024)} MB`;
  } catch {
    /* no ps: say unknown */
  }
  return `workbench JS heap ${Math.round(heap / 1048576)} MB, extension host RSS ${host}`;
}

/** Hides the planner (Explorer) and shows it again; resolves to the new webview's frame and its handle. */
async function hideAndShow(wb) {
  await wb.activityItem('Explorer').click();
  await wb.page.locator('.sidebar .composite.title', { hasText: /Explorer/i }).waitFor({ timeout: 15_000 });
  const frame = await wb.openPlanner();
  await wb.page.mouse.move(900, 600); // no activity bar tooltip in the pictures
  return { frame, inner: await wb.plannerFrameHandle() };
}

/** The box's text as its length and hash. */
async function seedsText(inner) {
  return inner.evaluate(
    `(() => { const value = document.getElementById('seeds').value; return { length: value.length, hash: (${fnv.toString()})(value) }; })()`,
  );
}

module.exports = {
  id: 'h-scale',
  title:
    'the planner at real sizes: 1,000 pasted and 50,000 from seeds.txt planned in < 2 s, nothing lost across hide/show and reload, the report has every host',
  profile: 'trusted',
  timeoutMs: 360_000,
  prepare(ctx) {
    fs.mkdirSync(path.join(ctx.workspace, 'lists'), { recursive: true });
    fs.writeFileSync(
      path.join(ctx.workspace, 'seeds.txt'),
      `# ${FILE_SEEDS} hosts for the planner\n${list(FILE_SEEDS, 'host')}`,
    );
    for (const n of MEASURED)
      fs.writeFileSync(path.join(ctx.workspace, 'lists', `seeds-${n}.txt`), list(n, `h${n}`), { flag: 'w' });
  },
  async run(ctx) {
    const { wb, page } = ctx;
    let frame = await wb.openPlanner();
    await page.mouse.move(900, 600);
    let inner = await wb.plannerFrameHandle();
    await startHeartbeat(page);
    ctx.note(`memory before: ${await memory(page)}`);
    const blocks = {};
    /** The longest task on the workbench's main thread per step, and where it ran (the check); `blocks` is the heartbeat's. */
    const tasks = {};

    // --- 1,000 seeds pasted (and one bad line), a million pages: planned in under 2 s.
    await frame.locator('#pages').fill('1000000');
    const pasted = `${list(PASTED, 'paste')}not a url\n`;
    await resetBeat(page);
    const pasteMs = await timeToTotal(
      inner,
      { paste: pasted },
      `for 1,000,000 pages over ${PASTED.toLocaleString('en-US')} hosts`,
    );
    tasks.paste = await taskMax(page);
    blocks.paste = await beatMax(page);
    check(pasteMs < PLAN_MS, `1,000 pasted seeds took ${pasteMs} ms to plan (more than ${PLAN_MS} ms)`);
    contains(await frame.locator('#seed-errors').innerText(), ['Line 1001: not a URL'], 'the line errors of the paste');
    contains(
      await frame.locator('#seeds-count').innerText(),
      ['1,001 seed lines'],
      'the count under the box (the bad line counts as a seed line)',
    );
    const firstRow = frame.locator('#host-table tbody tr').first();
    // 1,000 pages at 1 s: robots.txt, then 1,000 × 1.0013 s + 0.50005 s (REQUEST_OVERHEAD) = 1,001.8 s.
    contains(
      await firstRow.innerText(),
      ['1,000 ×', 'paste-000000.example.com', '\t1,000\t1 s\t16 m 42 s'],
      'the grouped row of the host table',
    );
    contains(
      (await firstRow.locator('th').getAttribute('title')) ?? '',
      ['1,000 hosts like paste-000000.example.com: 1,000 pages each'],
      "the grouped row's title",
    );
    check((await frame.locator('#host-table tbody tr').count()) === 1, 'hosts alike are not one row');
    ctx.note(`1,000 pasted seeds planned in ${pasteMs} ms; the workbench's longest block meanwhile ${blocks.paste} ms`);
    await frame.locator('#plan-heading').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('paste');

    // --- A paste of 50,000 lines is refused: the box keeps its text, the message says size, limit and what to do.
    const big = list(FILE_SEEDS, 'big');
    const refused = await inner.evaluate((text) => {
      const box = document.getElementById('seeds');
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
      const data = new DataTransfer();
      data.setData('text/plain', text);
      const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
      box.dispatchEvent(event);
      return { prevented: event.defaultPrevented, length: box.value.length };
    }, big);
    check(refused.prevented, 'the 50,000-line paste was not stopped before the box');
    check(refused.length === pasted.length, `the box changed: ${refused.length} characters, not ${pasted.length}`);
    const refusal = await frame.locator('#seeds-error').innerText();
    contains(
      refusal,
      [
        /^Not pasted: 50,000 seed lines \(1\.\d MB\)\. The box plans at most 5,000 seed lines \(512 KB\)\./,
        'Load seeds from file',
        'seeds.txt',
      ],
      'the refusal',
    );
    check(
      (await frame.locator('#seed-errors li').count()) === 0,
      'the old line errors are still listed after the refused paste',
    );
    await frame.locator('#seeds-field').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('refused');

    // --- A number typed after the paste, then hide and show: the box's text and the number are back.
    await frame.locator('#pages').fill('500000');
    await poll(
      'the plan for 500,000 pages',
      async () => /for 500,000 pages/.test(await frame.locator('#total').innerText()),
      { timeoutMs: 10_000 },
    );
    ({ frame, inner } = await hideAndShow(wb));
    await poll('the seeds back in the box', async () => (await seedsText(inner)).length === pasted.length, {
      timeoutMs: 15_000,
    });
    const back = await seedsText(inner);
    check(back.hash === fnv(pasted), 'the box holds other text than the paste after hide/show');
    check(
      (await frame.locator('#pages').inputValue()) === '500000',
      `#pages reads ${await frame.locator('#pages').inputValue()} after hide/show, not 500000`,
    );
    ctx.note('hide/show: the 1,001 lines and the pages typed after them are back');

    // --- 1.2 MB typed past the limits (set as the value): kept, not planned; exact after hide/show and a reload.
    const overText = list(FILE_SEEDS, 'kept');
    await inner.evaluate((text) => {
      const box = document.getElementById('seeds');
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.blur();
    }, overText);
    contains(
      await frame.locator('#seeds-error').innerText(),
      [/^50,000 seed lines \(1\.\d MB\): the box plans at most 5,000 seed lines/],
      'the box over its limits',
    );
    await poll(
      'the plan to say why the seeds are not planned',
      async () => /the box plans at most/.test(await frame.locator('#problems').innerText()),
      { timeoutMs: 15_000 },
    );
    ({ frame, inner } = await hideAndShow(wb));
    await poll('1.2 MB back in the box', async () => (await seedsText(inner)).length === overText.length, {
      timeoutMs: 20_000,
    });
    check((await seedsText(inner)).hash === fnv(overText), 'the 1.2 MB in the box differ after hide/show');
    await page.reload();
    await wb.open(ctx.workspace);
    frame = await wb.openPlanner();
    inner = await wb.plannerFrameHandle();
    await poll(
      '1.2 MB back in the box after a reload',
      async () => (await seedsText(inner)).length === overText.length,
      { timeoutMs: 30_000 },
    );
    check((await seedsText(inner)).hash === fnv(overText), 'the 1.2 MB in the box differ after a window reload');
    check((await frame.locator('#pages').inputValue()) === '500000', 'the pages typed are lost after a window reload');
    ctx.note(
      `${(Buffer.byteLength(overText) / 1048576).toFixed(2)} MB of seeds kept exactly across hide/show and a window reload`,
    );
    await startHeartbeat(page);

    // --- The workspace's seeds.txt, 50,000 seeds: planned in under 2 s, the file stays the source.
    await frame.locator('#pages').fill('1000000');
    await resetBeat(page);
    const fileMs = await timeToTotal(inner, { click: 'use-workspace-seeds' }, 'for 1,000,000 pages over 50,000 hosts');
    tasks.file = await taskMax(page);
    blocks.file = await beatMax(page);
    check(fileMs < PLAN_MS, `50,000 seeds from seeds.txt took ${fileMs} ms to plan (more than ${PLAN_MS} ms)`);
    contains(
      await frame.locator('#seeds-file').innerText(),
      [
        'seeds.txt',
        /50,000 seed lines · 1\.\d MB/,
        'https://host-000000.example.com/',
        'Open file',
        'Use the box instead',
      ],
      'the seeds file in place of the box',
    );
    check(!(await frame.locator('#seeds').isVisible()), 'the box is still shown with a file as the source');
    contains(
      await frame.locator('#host-table tbody tr').first().innerText(),
      ['50,000 ×', 'host-000000.example.com', '20'],
      'the grouped row of 50,000 hosts',
    );
    ctx.note(
      `50,000 seeds from seeds.txt planned in ${fileMs} ms; the workbench's longest block meanwhile ${blocks.file} ms`,
    );
    await frame.locator('#seeds-field').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await ctx.screenshots('file');
    ({ frame, inner } = await hideAndShow(wb));
    await poll(
      'the seeds file after hide/show',
      async () => /50,000 seed lines/.test(await frame.locator('#seeds-file').innerText()),
      { timeoutMs: 15_000 },
    );
    await poll(
      'the plan of 50,000 hosts after hide/show',
      async () => /over 50,000 hosts/.test(await frame.locator('#total').innerText()),
      { timeoutMs: 15_000 },
    );

    // --- The plan report: every host, in a table drawn a window at a time; sorted and searched by the extension.
    await resetBeat(page);
    await frame.locator('#open-report').click();
    const report = await wb.reportFrame();
    await report.locator('main#report:not([aria-busy])').waitFor({ timeout: 30_000 });
    await report.locator('#grid[data-rows="50000"]').waitFor({ timeout: 20_000 });
    blocks.report = await beatMax(page);
    check(
      (await report.locator('#grid').getAttribute('aria-rowcount')) === '50001',
      'the table does not say it has 50,000 rows and a heading',
    );
    contains(await report.locator('#row-count').innerText(), ['50,000 hosts'], 'the row count');
    contains(
      await report.locator('#total').innerText(),
      ['for 1,000,000 pages over 50,000 hosts'],
      "the report's total",
    );
    const drawn = await report.locator('#sizer .row').count();
    check(drawn > 10 && drawn < 200, `${drawn} rows are drawn for 50,000 hosts (a window, not every row)`);
    contains(await report.locator('#sizer .row').first().innerText(), ['host-000000.example.com'], 'the first row');
    // Sorted by host, Z to A: the last host comes first.
    await report.locator('button.sort[data-sort="host"]').click();
    await report.locator('button.sort[data-sort="host"]').click();
    await poll(
      'the rows sorted by host, Z to A',
      async () => /host-049999/.test(await report.locator('#sizer .row').first().innerText()),
      { timeoutMs: 10_000 },
    );
    // Searched: ten hosts.
    await report.locator('#search').fill('host-01234');
    await poll(
      'ten rows for the search',
      async () => (await report.locator('#grid').getAttribute('data-rows')) === '10',
      { timeoutMs: 10_000 },
    );
    contains(
      await report.locator('#row-count').innerText(),
      ['Showing 10 of 50,000 hosts'],
      'the row count of the search',
    );
    await report.locator('#search').fill('');
    await poll('all rows again', async () => (await report.locator('#grid').getAttribute('data-rows')) === '50000', {
      timeoutMs: 10_000,
    });
    // Scrolled to the end: the last rows are drawn.
    await report.locator('#viewport').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await poll(
      'the last row after scrolling to the end',
      async () => (await report.locator('#sizer .row[aria-rowindex="50001"]').count()) === 1,
      { timeoutMs: 10_000 },
    );
    await report.locator('#viewport').evaluate((el) => {
      el.scrollTop = 0;
    });
    ctx.note(
      `the report: 50,000 rows (aria-rowcount 50001), ${drawn} drawn at a time; the workbench's longest block while it opened ${blocks.report} ms`,
    );

    // --- "Load seeds from file…" (VS Code's own file dialog): 10,000 and then 100,000 seeds, timed; the report follows.
    for (const n of MEASURED) {
      const file = path.join(ctx.workspace, 'lists', `seeds-${n}.txt`);
      await frame.locator('#load-seeds-file').click();
      // VS Code's own Open dialog (a quick input in code-server): the path, then its "Use as seeds" button.
      const input = wb.quickInput.locator('input.input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      // The dialog fills in the workspace folder first; type the path after it has.
      await poll('the Open dialog to show a folder', async () => /\/$/.test(await input.inputValue()), {
        timeoutMs: 15_000,
      });
      // The dialog may still rewrite its value once after that (a busy machine: its folder prefixed to what was
      // typed), so fill until the value stays ours and the file's row is listed.
      const folder = `${path.dirname(file)}/`;
      const row = wb.quickInput.locator('.monaco-list-row', { hasText: path.basename(file) }).first();
      await poll(
        `the Open dialog to list ${path.basename(file)}`,
        async () => {
          if ((await input.inputValue()) !== folder) await input.fill(folder);
          return (await row.isVisible()) && (await input.inputValue()) === folder;
        },
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      // A click on a file takes it (the dialog closes): from here to the plan on screen is the planner's time.
      await resetBeat(page);
      const started = Date.now();
      await row.click();
      await wb.quickInput.waitFor({ state: 'hidden', timeout: 15_000 });
      await poll(
        `the plan of ${n.toLocaleString('en-US')} hosts`,
        async () =>
          new RegExp(`over ${n.toLocaleString('en-US')} hosts`).test(await frame.locator('#total').innerText()),
        {
          timeoutMs: 30_000,
          intervalMs: 20,
        },
      );
      const ms = Date.now() - started;
      tasks[`load ${n}`] = await taskMax(page);
      const block = await beatMax(page);
      blocks[`load ${n}`] = block;
      contains(
        await frame.locator('#seeds-file').innerText(),
        [`seeds-${n}.txt`, `${n.toLocaleString('en-US')} seed lines`],
        `the seeds file of ${n} lines`,
      );
      ctx.note(
        `${n.toLocaleString('en-US')} seeds with Load seeds from file…: the plan on screen ${ms} ms after the dialog was answered; the workbench's longest block ${block} ms`,
      );
      if (n === 100_000) check(ms < PLAN_MS, `100,000 seeds took ${ms} ms to plan (more than ${PLAN_MS} ms)`);
    }
    await report.locator('#grid[data-rows="100000"]').waitFor({ timeout: 20_000 });
    contains(
      await report.locator('#total').innerText(),
      ['over 100,000 hosts'],
      'the report after the planner changed',
    );
    check(
      (await report.locator('#grid').getAttribute('aria-rowcount')) === '100001',
      'the report does not say it has 100,000 rows',
    );
    ctx.note(`memory with 100,000 hosts planned and the report open: ${await memory(page)}`);
    await page.mouse.move(900, 600);
    await ctx.screenshots('report');

    // --- A window reload: the seeds file is still the source, and the plan of 100,000 hosts comes back.
    await page.reload();
    await wb.open(ctx.workspace);
    frame = await wb.openPlanner();
    await poll(
      'the seeds file after a reload',
      async () => /100,000 seed lines/.test(await frame.locator('#seeds-file').innerText()),
      { timeoutMs: 30_000 },
    );
    await poll(
      'the plan of 100,000 hosts after a reload',
      async () => /over 100,000 hosts/.test(await frame.locator('#total').innerText()),
      { timeoutMs: 30_000 },
    );
    ctx.note('window reload: lists/seeds-100000.txt is still the source, planned again');

    // Planning is the planner's work; opening the report is mostly VS Code's (a new editor and webview): noted only.
    const planning = Object.entries(blocks).filter(([k]) => k !== 'report');
    const longest = Math.max(...planning.map(([, v]) => v));
    ctx.note(
      `the workbench's longest block while planning (10 ms heartbeat): ${longest} ms (${planning.map(([k, v]) => `${k} ${v}`).join(', ')}); while the report opened: ${blocks.report} ms`,
    );
    const [longestStep, longestTask] = Object.entries(tasks).reduce((a, b) => (b[1].ms > a[1].ms ? b : a));
    ctx.note(
      `the longest task on the workbench's main thread while planning: ${longestTask.ms} ms (${Object.entries(tasks)
        .map(([k, v]) => `${k} ${v.ms}`)
        .join(', ')}; 0: none over 50 ms)`,
    );
    check(
      longestTask.ms <= BLOCK_MS,
      `a task held the workbench's main thread for ${longestTask.ms} ms (more than ${BLOCK_MS} ms) while the planner planned (${longestStep}; it ran in: ${longestTask.where || 'unknown'})`,
    );
  },
};

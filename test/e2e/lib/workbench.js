'use strict';
/**
 * Driving the VS Code workbench in Chromium the way a person does: the activity bar, the command
 * palette, quick picks and input boxes, the sidebar webview (two nested iframes), the terminal, the
 * status bar, notifications, dialogs; plus theme switching and screenshots.
 */
const fs = require('node:fs');
const path = require('node:path');
const { poll, sleep } = require('./proc');

const EXTENSION_ID = 'crawl-planner.crawl-planner';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Nothing but loopback: every host name that is not a loopback name resolves to nothing.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

const WEBVIEW_IFRAME = `iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`;

/** The inner frame (iframe#active-frame) of our `index`-th outer webview iframe, as a Frame. */
async function innerFrame(page, index, what) {
  const inner = page.frameLocator(WEBVIEW_IFRAME).nth(index).locator('iframe#active-frame');
  const handle = await inner.elementHandle({ timeout: 20_000 });
  const frame = await handle.contentFrame();
  if (!frame) throw new Error(`${what} has no content frame`);
  return frame;
}

function isLoopbackUrl(url) {
  try {
    const u = new URL(url);
    if (!/^(https?|wss?):$/.test(u.protocol)) return true; // data:, blob:, vscode-*: never leave the page
    return u.hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(u.hostname) || u.hostname === '[::1]';
  } catch {
    return true;
  }
}

/** A browser context whose page traffic can only reach loopback; anything else is aborted and recorded. */
async function newContext(browser, { blocked }) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  await context.route(
    (url) => !isLoopbackUrl(url.toString()),
    (route) => {
      blocked.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return context;
}

class Workbench {
  /**
   * @param {import('playwright-core').Page} page
   * @param {import('./codeServer').CodeServer} codeServer
   */
  constructor(page, codeServer) {
    this.page = page;
    this.cs = codeServer;
  }

  /** Opens the workbench on a folder and waits for the activity bar. */
  async open(folder, { timeoutMs = 60_000 } = {}) {
    await this.page.goto(this.cs.folderUrl(folder), { timeout: timeoutMs });
    await this.page.locator('.monaco-workbench .activitybar').waitFor({ timeout: timeoutMs });
    await this.page.locator('.monaco-workbench .statusbar').waitFor({ timeout: timeoutMs });
  }

  /** The activity bar item with this label (aria-label, without the keybinding suffix). */
  activityItem(label) {
    return this.page
      .locator(
        `.activitybar .action-item a.action-label[aria-label="${label}"], .activitybar .action-item a.action-label[aria-label^="${label} ("]`,
      )
      .first();
  }

  // -------------------------------------------------------------------------------------------
  // The sidebar webview

  /**
   * Our extension's webviews are outer iframe.webview elements (the sidebar planner and the plan report, in
   * the order they were created) each holding an inner iframe#active-frame. Which is which is told by the
   * page inside (main#planner, main#report): the outer iframe's src does not say it reliably (a view shown
   * again loses its `purpose`). Resolves to the index of the one whose page has `main#<id>`.
   */
  async findWebview(id, { timeoutMs = 30_000 } = {}) {
    return poll(
      `the webview with main#${id}`,
      async () => {
        const n = await this.page.locator(WEBVIEW_IFRAME).count();
        for (let i = 0; i < n; i++) {
          const inner = this.page.frameLocator(WEBVIEW_IFRAME).nth(i).frameLocator('iframe#active-frame');
          if (
            (await inner
              .locator(`main#${id}`)
              .count()
              .catch(() => 0)) > 0
          )
            return { index: i };
        }
        return undefined;
      },
      { timeoutMs, intervalMs: 100 },
    ).then((found) => found.index);
  }

  /** The planner webview (as found by the last openPlanner()): its inner frame, for locators. */
  plannerFrame() {
    return this.page
      .frameLocator(WEBVIEW_IFRAME)
      .nth(this.plannerIndex ?? 0)
      .frameLocator('iframe#active-frame');
  }

  /** The planner's inner frame as a Frame, for evaluate(). */
  async plannerFrameHandle() {
    return innerFrame(this.page, this.plannerIndex ?? 0, 'the planner webview');
  }

  /** The plan report (an editor tab of our extension): its inner frame, once it has loaded. */
  async reportFrame() {
    this.reportIndex = await this.findWebview('report');
    return this.page.frameLocator(WEBVIEW_IFRAME).nth(this.reportIndex).frameLocator('iframe#active-frame');
  }

  /** The report's inner frame as a Frame, for evaluate() (after reportFrame()). */
  async reportFrameHandle() {
    return innerFrame(this.page, this.reportIndex ?? (await this.findWebview('report')), 'the plan report webview');
  }

  /** Opens the Crawl Planner sidebar from the activity bar and waits for the webview to say it is ready. */
  async openPlanner() {
    const item = this.activityItem('Crawl Planner');
    await item.waitFor({ timeout: 30_000 });
    const checked = await item
      .locator('xpath=..')
      .getAttribute('aria-selected')
      .catch(() => null);
    const container = this.page.locator('.sidebar .composite.title', { hasText: 'Crawl Planner' });
    if (!(await container.isVisible().catch(() => false)) || checked === 'false') await item.click();
    await container.waitFor({ timeout: 15_000 });
    this.plannerIndex = await this.findWebview('planner', { timeoutMs: 45_000 });
    const frame = this.plannerFrame();
    // aria-busy goes away when the extension has posted its first state (the extension is active).
    await frame.locator('main#planner:not([aria-busy])').waitFor({ timeout: 45_000 });
    return frame;
  }

  // -------------------------------------------------------------------------------------------
  // Quick input: the command palette, quick picks, input boxes

  get quickInput() {
    return this.page.locator('.quick-input-widget');
  }

  /** Runs a command by its palette label ("Crawl Planner: Run Test Crawl"). */
  async runCommand(label) {
    await this.dismissQuickInput();
    await this.page.keyboard.press('F1');
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${label}`);
    const row = this.quickInput.locator('.monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 10_000 });
    // The exact label must be the highlighted row: press Enter on it.
    await row.click();
  }

  async dismissQuickInput() {
    if (await this.quickInput.isVisible().catch(() => false)) {
      await this.page.keyboard.press('Escape');
      await this.quickInput.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    }
  }

  /** Picks the quick pick row containing `text`. */
  async pick(text, { timeoutMs = 15_000 } = {}) {
    const row = this.quickInput.locator('.monaco-list-row', { hasText: text }).first();
    await row.waitFor({ timeout: timeoutMs });
    await row.click();
  }

  /** Types into an open input box and accepts it. */
  async typeInput(text, { timeoutMs = 15_000 } = {}) {
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: timeoutMs });
    await input.fill(text);
    await input.press('Enter');
  }

  // -------------------------------------------------------------------------------------------
  // Editor, status bar, terminal, notifications, dialogs

  /** "Ln 4, Col 1" from the status bar, as { line, column }. */
  async cursorPosition() {
    const text = await this.page.locator('#status\\.editor\\.selection').innerText({ timeout: 5000 });
    const m = /Ln (\d+), Col (\d+)/.exec(text);
    return m ? { line: Number(m[1]), column: Number(m[2]), text } : { text };
  }

  /**
   * The text of line `n` (1-based) of the active editor as it is drawn: the line-number gutter entry
   * for `n` and the view line at the same height. Undefined when that line is not on screen.
   */
  async editorLineText(n) {
    return this.page.evaluate((line) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return undefined;
      const number = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].find(
        (el) => el.textContent.trim() === String(line),
      );
      if (!number) return undefined;
      const top = number.closest('div[style*="top"]')?.style.top ?? number.parentElement?.style.top;
      const view = [...editor.querySelectorAll('.view-lines .view-line')].find((el) => el.style.top === top);
      return view ? view.textContent.replace(/\u00a0/g, ' ') : undefined;
    }, n);
  }

  /** The active editor tab's label. */
  async activeTabLabel() {
    const tab = this.page.locator('.editor-group-container.active .tab.active').first();
    return (await tab.getAttribute('aria-label', { timeout: 5000 })) ?? (await tab.innerText());
  }

  /** The visible text of the terminal(s) in the panel (DOM renderer rows). */
  async terminalText() {
    const rows = this.page.locator('.panel .terminal-wrapper.active .xterm-rows, .panel .xterm-rows');
    const n = await rows.count();
    const texts = [];
    for (let i = 0; i < n; i++)
      texts.push(
        await rows
          .nth(i)
          .innerText()
          .catch(() => ''),
      );
    return texts.join('\n').replace(/\u00a0/g, ' ');
  }

  /**
   * `shown` (what the terminal showed) and, when `wanted` is not in it, the page above the screen too (scrolled up
   * one page and back to the bottom, as a person reading the end of a tall summary would).
   */
  async terminalWithPageAbove(shown, wanted) {
    if (wanted.test(shown)) return shown;
    await this.runCommand('Terminal: Scroll Up (Page)');
    const above = await this.terminalText();
    await this.runCommand('Terminal: Scroll to Bottom');
    return `${shown}\n${above}`;
  }

  /** Texts of the visible notification toasts and the notification center. */
  async notifications() {
    return this.page
      .locator(
        '.notification-toast .notification-list-item-message, .notifications-center .notification-list-item-message',
      )
      .allInnerTexts();
  }

  /** The modal dialog, when one is open. */
  get dialog() {
    return this.page.locator('.monaco-dialog-box');
  }

  // -------------------------------------------------------------------------------------------
  // Themes and screenshots

  /**
   * Switches the colour theme as a person does (Preferences: Color Theme, then the theme's row) and
   * waits until the workbench shows it. (code-server's workbench did not pick up a settings.json
   * rewritten from outside while it was open, so the theme is switched through the UI.)
   */
  async setTheme(theme) {
    const { THEMES } = require('./codeServer');
    const cls = theme === 'dark' ? 'vs-dark' : 'vs';
    const isOn = () =>
      this.page.evaluate((c) => document.querySelector('.monaco-workbench')?.classList.contains(c) ?? false, cls);
    if (await isOn()) return;
    await this.runCommand('Preferences: Color Theme');
    const input = this.quickInput.locator('input.input');
    await input.fill(THEMES[theme]);
    await this.quickInput
      .locator(`.monaco-list-row[aria-label^="${THEMES[theme]}"]`)
      .first()
      .click({ timeout: 10_000 });
    await poll(`the ${theme} theme`, isOn, { timeoutMs: 15_000 });
    await this.quickInput.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await sleep(700); // webviews restyle from the theme's CSS variables a moment later
  }

  async screenshot(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // No half-faded command palette in the picture.
    await this.quickInput.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await sleep(250);
    await this.page.screenshot({ path: file });
    return file;
  }
}

module.exports = { Workbench, newContext, CHROMIUM_ARGS, isLoopbackUrl, EXTENSION_ID };

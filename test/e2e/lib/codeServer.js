'use strict';
/**
 * code-server (VS Code in a browser) on loopback: a fresh user-data-dir and extensions dir per profile,
 * the extension installed from the .vsix, user settings written before start (and rewritten to switch
 * the theme), run with Node 24 first on PATH. `--auth none` is safe only because it binds 127.0.0.1.
 */
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { CODE_SERVER_ENTRY, NODE24_BIN } = require('./paths');
const { freePort, poll, runStep, startProcess } = require('./proc');

/** VS Code 1.139 names them "Dark Modern" and "Light Modern" (older releases: "Default Dark Modern", "Default Light Modern"). */
const THEMES = { dark: 'Dark Modern', light: 'Light Modern' };

/** Settings that keep the workbench quiet and predictable for screenshots. */
function baseSettings({ trustEnabled, theme }) {
  return {
    'workbench.colorTheme': THEMES[theme],
    'security.workspace.trust.enabled': trustEnabled,
    // With trust on: ask once at startup (the default), so the test can answer.
    'security.workspace.trust.startupPrompt': 'always',
    'security.workspace.trust.untrustedFiles': 'open',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'chat.commandCenter.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'npm.autoDetect': 'off',
    'typescript.tsc.autoDetect': 'off',
    'task.autoDetect': 'off',
    // The DOM renderer, so the terminal's text is in the page (.xterm-rows) as well as on screen.
    'terminal.integrated.gpuAcceleration': 'off',
    'terminal.integrated.enablePersistentSessions': false,
    'editor.minimap.enabled': false,
    'window.dialogStyle': 'custom',
    'files.autoSave': 'off',
    // Small, quick test crawls.
    'crawlPlanner.maxPages': 10,
  };
}

/**
 * code-server asks its extension gallery (open-vsx) for updates and recommendations. There is no
 * network here and the tests need no gallery: point it at a closed loopback port so nothing leaves.
 */
const NO_GALLERY = JSON.stringify({
  serviceUrl: 'http://127.0.0.1:9/gallery',
  itemUrl: 'http://127.0.0.1:9/item',
  resourceUrlTemplate: 'http://127.0.0.1:9/resource/{publisher}/{name}/{version}/{path}',
});

function sanitizedEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VSCODE_|ELECTRON_)/.test(k)) continue;
    env[k] = v;
  }
  env.PATH = `${NODE24_BIN}${path.delimiter}${process.env.PATH ?? ''}`;
  return { ...env, ...extra };
}

class CodeServer {
  /**
   * @param {{ name: string, dir: string, trustEnabled: boolean, theme?: 'dark'|'light', vsix: string, extraVsix?: string[] }} opts
   *   `extraVsix`: more extensions to install next to the product (the test-runner extension)
   */
  constructor(opts) {
    this.name = opts.name;
    this.dir = opts.dir;
    this.dataDir = path.join(opts.dir, 'data');
    this.extDir = path.join(opts.dir, 'extensions');
    this.logFile = path.join(opts.dir, 'code-server.log');
    this.configFile = path.join(opts.dir, 'config.yaml');
    this.trustEnabled = opts.trustEnabled;
    this.vsix = opts.vsix;
    this.extraVsix = opts.extraVsix ?? [];
    this.settings = baseSettings({ trustEnabled: opts.trustEnabled, theme: opts.theme ?? 'dark' });
    this.process = undefined;
    this.url = undefined;
  }

  get settingsFile() {
    return path.join(this.dataDir, 'User', 'settings.json');
  }

  writeSettings(patch = {}) {
    this.settings = { ...this.settings, ...patch };
    fs.mkdirSync(path.dirname(this.settingsFile), { recursive: true });
    fs.writeFileSync(this.settingsFile, JSON.stringify(this.settings, null, 2));
  }

  /** Installs the .vsix (and any extra ones) into this profile's fresh extensions dir. */
  install() {
    fs.mkdirSync(this.extDir, { recursive: true });
    fs.writeFileSync(this.configFile, 'auth: none\ncert: false\n');
    const all = [this.vsix, ...this.extraVsix];
    const r = runStep(
      `install ${all.map((v) => path.basename(v)).join(', ')} into code-server`,
      process.execPath.startsWith(NODE24_BIN) ? process.execPath : path.join(NODE24_BIN, 'node'),
      [
        CODE_SERVER_ENTRY,
        '--config',
        this.configFile,
        '--user-data-dir',
        this.dataDir,
        '--extensions-dir',
        this.extDir,
        ...all.flatMap((v) => ['--install-extension', v]),
      ],
      { env: sanitizedEnv(), logFile: this.logFile, timeoutMs: 120_000 },
    );
    const dirs = fs.readdirSync(this.extDir);
    const installed = dirs.filter(
      (d) => d.startsWith('crawl-planner.crawl-planner-') && !d.startsWith('crawl-planner.crawl-planner-test-runner-'),
    );
    if (installed.length !== 1) throw new Error(`the extension is not in ${this.extDir} after --install-extension`);
    const folders = dirs.filter((d) => fs.statSync(path.join(this.extDir, d)).isDirectory());
    if (folders.length !== all.length)
      throw new Error(
        `${all.length} extensions were to be installed; ${this.extDir} has ${folders.join(', ') || 'none'}`,
      );
    return r.ms;
  }

  /** Starts code-server on a free loopback port and waits until it answers /healthz. */
  async start(folder) {
    this.writeSettings();
    const port = await freePort();
    const args = [
      CODE_SERVER_ENTRY,
      '--config',
      this.configFile,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--user-data-dir',
      this.dataDir,
      '--extensions-dir',
      this.extDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      folder,
    ];
    const started = Date.now();
    this.process = startProcess(`code-server (${this.name})`, path.join(NODE24_BIN, 'node'), args, {
      env: sanitizedEnv({ SHELL: '/bin/bash', EXTENSIONS_GALLERY: NO_GALLERY }),
      logFile: this.logFile,
    });
    this.url = `http://127.0.0.1:${port}`;
    let exited = false;
    void this.process.exited.then(() => (exited = true));
    await poll(
      `code-server (${this.name}) to answer on ${this.url}`,
      async () => {
        if (exited) throw new Error(`code-server exited; see ${this.logFile}`);
        return (await httpStatus(`${this.url}/healthz`)) === 200;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    return Date.now() - started;
  }

  /** The workbench URL for a folder. */
  folderUrl(folder) {
    return `${this.url}/?folder=${encodeURIComponent(folder)}`;
  }

  async stop() {
    if (this.process) await this.process.stop();
    this.process = undefined;
  }
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

module.exports = { CodeServer, THEMES, sanitizedEnv };

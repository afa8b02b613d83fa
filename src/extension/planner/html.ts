/**
 * The planner webview's HTML: a static skeleton with stable element ids (the e2e tests and
 * docs/extension.md §The sidebar planner name them), one external script by nonce and one external stylesheet. No inline
 * script, no inline style, no event handler attributes; the only interpolated values are the CSP
 * source, the nonce, the two resource URIs and the politeness unit's choices (constants), all attribute-escaped. Pure (no vscode at run time).
 */
import { randomBytes } from 'node:crypto';
import { POLITENESS_BY } from '../../core/servers/units';
import { POLITENESS_BY_LABELS } from '../../shared/planner/form';

/** The parts of `vscode.Webview` the HTML needs. */
export interface WebviewLike<U> {
  readonly cspSource: string;
  asWebviewUri(uri: U): { toString(): string };
}

/** 128 random bits, base64: a fresh nonce for every HTML document. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

export function escapeAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** The Content-Security-Policy of the planner: nothing by default, our styles, our nonce'd script. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

/**
 * A webview page (the planner's, the plan report's): the CSP with `nonce`, one stylesheet, `body` and one
 * script by nonce. `body` is static markup of ours; the only interpolated values are the CSP source, the
 * nonce and the two resource URIs, all attribute-escaped.
 */
export function webviewPage<U>(
  webview: WebviewLike<U>,
  nonce: string,
  resources: { script: U; style: U },
  title: string,
  body: string,
): string {
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(nonce)) throw new Error('webviewPage: the nonce must be base64');
  const csp = escapeAttr(contentSecurityPolicy(webview.cspSource, nonce));
  const script = escapeAttr(webview.asWebviewUri(resources.script).toString());
  const style = escapeAttr(webview.asWebviewUri(resources.style).toString());
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${escapeAttr(title)}</title>
</head>
<body>
${body}<script nonce="${escapeAttr(nonce)}" src="${script}"></script>
</body>
</html>
`;
}

export function getHtml<U>(webview: WebviewLike<U>, nonce: string, resources: { script: U; style: U }): string {
  return webviewPage(webview, nonce, resources, 'Crawl Planner', PLANNER_BODY);
}

/** The planner's markup. */
const PLANNER_BODY = `<main id="planner" aria-busy="true">
  <p id="trust-note" class="note" hidden>This workspace is not trusted, so this sidebar plans but does not fetch robots.txt or start test crawls. You can still do both yourself from the Command Palette: “Crawl Planner: Inspect robots.txt for URL” and “Crawl Planner: Run Test Crawl”.</p>

  <form id="plan-form" novalidate>
    <div class="field" id="seeds-field">
      <label for="seeds" id="seeds-label">Seed URLs <span class="hint">one per line</span></label>
      <div id="seeds-box" class="seeds-box">
        <textarea id="seeds" rows="5" spellcheck="false" autocomplete="off" wrap="off" readonly aria-describedby="seeds-help seeds-count seeds-error seed-errors" placeholder="https://example.com/"></textarea>
        <p id="seeds-count" class="hint" aria-live="polite"></p>
      </div>
      <div id="seeds-file" class="seeds-file" role="group" aria-labelledby="seeds-label" hidden>
        <p class="seeds-file-head"><span class="hint">From file</span> <code id="seeds-file-name"></code></p>
        <p id="seeds-file-count" class="hint"></p>
        <ol id="seeds-file-lines" class="seeds-file-lines" aria-label="The file's first seed lines"></ol>
        <p id="seeds-file-problem" class="field-error" role="alert"></p>
        <div class="actions">
          <button id="open-seeds-file" type="button" class="secondary">Open file</button>
          <button id="use-seeds-text" type="button" class="secondary">Use the box instead</button>
        </div>
      </div>
      <div class="actions seeds-actions">
        <button id="load-seeds-file" type="button" class="secondary" title="Plan the URLs of a file, one per line; the file stays the source">Load seeds from file…</button>
        <button id="use-workspace-seeds" type="button" class="secondary" title="Plan the workspace's seeds.txt; the file stays the source">Use seeds.txt</button>
      </div>
      <p id="seeds-help" class="hint">http and https only; blank lines and # comments are skipped.</p>
      <p id="seeds-error" class="field-error" role="alert"></p>
      <ul id="seed-errors" class="seed-errors" aria-label="Invalid seed lines"></ul>
      <div id="seed-notes" class="seed-notes" aria-label="What the seeds hide"></div>
    </div>

    <div class="field">
      <label for="pages">Pages</label>
      <div class="inline">
        <input id="pages" type="text" inputmode="numeric" autocomplete="off" aria-describedby="pages-error">
        <select id="pages-mode" aria-label="Count pages">
          <option value="total">in total</option>
          <option value="perHost">per host</option>
          <option value="byHost">by host</option>
        </select>
      </div>
      <p id="pages-error" class="field-error"></p>
      <div id="pages-by-host" class="pages-by-host" hidden>
        <p class="hint">Each host's own pages (Size from sitemaps fills them); a host left empty takes the number above.</p>
        <ul id="pages-by-host-list" class="pages-by-host-list" aria-label="Pages by host"></ul>
        <p id="pages-by-host-more" class="hint"></p>
        <p id="pages-by-host-other" class="hint"></p>
        <p id="pages-by-host-error" class="field-error"></p>
      </div>
    </div>

    <div class="grid">
      <div class="field">
        <label for="rate">Target rate <span class="hint">req/s</span></label>
        <input id="rate" type="text" inputmode="decimal" autocomplete="off" title="Requests per second over all hosts together; empty: no limit" aria-describedby="rate-error">
        <p id="rate-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="workers">Workers</label>
        <input id="workers" type="text" inputmode="numeric" autocomplete="off" aria-describedby="workers-error">
        <p id="workers-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="delay">Delay per host <span class="hint">s</span></label>
        <input id="delay" type="text" inputmode="decimal" autocomplete="off" aria-describedby="delay-error">
        <p id="delay-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="delay-from">Delay measured</label>
        <select id="delay-from">
          <option value="start">start to start</option>
          <option value="end">from end of response</option>
        </select>
      </div>
      <div class="field">
        <label for="latency">Expected latency <span class="hint">s</span></label>
        <input id="latency" type="text" inputmode="decimal" autocomplete="off" aria-describedby="latency-error">
        <p id="latency-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="machines">Machines</label>
        <input id="machines" type="text" inputmode="numeric" autocomplete="off" title="Shard the hosts over this many machines; empty: one" aria-describedby="machines-error">
        <p id="machines-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="deadline">Deadline</label>
        <input id="deadline" type="text" autocomplete="off" spellcheck="false" title="Seconds, or a duration: 36h, 2d, 1w; empty: none" aria-describedby="deadline-error">
        <p id="deadline-error" class="field-error"></p>
      </div>
    </div>

    <div class="field">
      <label for="user-agent">User agent</label>
      <input id="user-agent" type="text" autocomplete="off" spellcheck="false" aria-describedby="user-agent-error">
      <p id="user-agent-error" class="field-error"></p>
    </div>

    <div class="field check">
      <input id="use-robots" type="checkbox" aria-describedby="use-robots-help">
      <label for="use-robots">Use robots.txt</label>
      <p id="use-robots-help" class="hint">Off: nothing is fetched. On: each seed origin's robots.txt is fetched; its Crawl-delay feeds the plan.</p>
    </div>

    <div class="field check">
      <input id="check-servers" type="checkbox" aria-describedby="check-servers-help servers-status">
      <label for="check-servers">Check shared servers</label>
      <p id="check-servers-help" class="hint">Off: no host is looked up. On: each seed host's addresses are looked up (crawlPlanner.resolve first), so that hosts on one server are found.</p>
      <p id="servers-status" class="status" aria-live="polite"></p>
      <button id="cancel-servers" type="button" class="secondary" hidden>Cancel</button>
    </div>

    <div class="field">
      <label for="politeness-by">Politeness unit</label>
      <select id="politeness-by" aria-describedby="politeness-by-help">
${POLITENESS_BY.map((by) => `        <option value="${escapeAttr(by)}">${escapeAttr(POLITENESS_BY_LABELS[by])}</option>`).join('\n')}
      </select>
      <p id="politeness-by-help" class="hint">What one queue, one request in flight and one interval are kept for.</p>
    </div>

    <section class="sitemaps-section" aria-labelledby="sitemaps-heading">
      <h2 id="sitemaps-heading">Pages from sitemaps</h2>
      <div class="field">
        <label for="changed-since">Changed since <span class="hint">empty: every URL</span></label>
        <input id="changed-since" type="text" list="changed-since-choices" autocomplete="off" spellcheck="false" placeholder="every URL" title="A date (2024-05-01) or a duration back from now (30d): the pages are then the URLs changed since, a recrawl" aria-describedby="changed-since-error">
        <datalist id="changed-since-choices"></datalist>
        <p id="changed-since-error" class="field-error"></p>
      </div>
      <div class="actions">
        <button id="size-sitemaps" type="button" class="secondary" title="Read each seed host's sitemaps (politely, as the user agent above) and make their URL counts its pages">Size from sitemaps</button>
        <button id="cancel-sitemaps" type="button" class="secondary" hidden>Cancel</button>
      </div>
      <p id="sitemaps-status" class="status" aria-live="polite"></p>
      <div id="sitemaps" class="sitemaps-hosts"></div>
    </section>
  </form>

  <div class="actions">
    <button id="run-crawl" type="button">Run test crawl</button>
    <button id="copy-plan" type="button" class="secondary">Copy plan as JSON</button>
    <button id="export-plan" type="button" class="secondary" title="Write the plan as files for Scrapy, Crawlee, Nutch or StormCrawler">Export plan…</button>
  </div>
  <p id="status" class="status" role="status" aria-live="polite"></p>

  <section class="results" aria-labelledby="plan-heading">
    <h2 id="plan-heading">Plan</h2>
    <p id="plan-status" class="status" aria-live="polite"></p>
    <p id="stale" class="note" hidden>Showing the plan for the last valid form: fix the fields marked above to update it.</p>
    <p id="total" class="total"></p>
    <p id="binding" class="binding"></p>
    <p id="band" class="band" aria-live="polite" hidden></p>
    <ul id="problems" class="problems" aria-label="Why there is no plan"></ul>
    <div id="dropped" class="dropped" hidden>
      <p id="dropped-head"></p>
      <ul id="dropped-list" class="dropped-list" aria-label="Hosts left out of the plan"></ul>
      <p id="dropped-more" class="hint"></p>
      <button id="restore-all" type="button" class="secondary">Plan them all again</button>
    </div>
    <section id="deadline-section" class="deadline-section" aria-labelledby="deadline-heading" hidden>
      <h3 id="deadline-heading">What meets the deadline</h3>
      <p id="deadline-verdict" class="deadline-verdict"></p>
      <p id="deadline-earliest"></p>
      <p id="deadline-blocking" class="hint"></p>
      <ul id="deadline-options" class="deadline-options" aria-label="Options that meet the deadline"></ul>
    </section>
    <ul id="shared-servers" class="warnings shared-servers" aria-label="Hosts that share a server"></ul>
    <p id="shared-servers-more" class="hint"></p>
    <ul id="warnings" class="warnings" aria-label="Warnings"></ul>
    <p id="warnings-more" class="hint"></p>
    <div id="chart" class="chart" role="img" aria-label="No plan yet"></div>
    <p id="chart-more" class="hint"></p>
    <div class="table-wrap">
      <table id="host-table" class="host-table">
        <caption>Per host <span class="hint">(hosts alike share a row; click a heading to sort)</span></caption>
        <thead>
          <tr>
            <th scope="col" data-sort="host" aria-sort="none"><button type="button" class="sort" data-sort="host">Host</button></th>
            <th scope="col" data-sort="pages" aria-sort="none"><button type="button" class="sort" data-sort="pages">Pages</button></th>
            <th scope="col" data-sort="interval" aria-sort="none"><button type="button" class="sort" data-sort="interval">Interval</button></th>
            <th scope="col" data-sort="duration" aria-sort="none"><button type="button" class="sort" data-sort="duration" title="Duration: how long the host's pages take">Time</button></th>
          </tr>
        </thead>
        <tbody></tbody>
      </table>
    </div>
    <p id="table-more" class="hint"></p>
    <div class="actions">
      <button id="open-report" type="button" class="secondary" disabled>Open Plan Report</button>
    </div>
  </section>

  <section class="robots-section" aria-labelledby="robots-heading">
    <h2 id="robots-heading">robots.txt</h2>
    <p id="robots-status" class="status" aria-live="polite"></p>
    <div class="robots-actions">
      <div class="combo">
        <input id="robots-origin" type="search" role="combobox" autocomplete="off" spellcheck="false" aria-expanded="false" aria-autocomplete="list" aria-controls="robots-origin-list" aria-label="Origin whose robots.txt to open (type to search)" placeholder="Search the seed origins">
        <ul id="robots-origin-list" class="combo-list" role="listbox" aria-label="Seed origins" hidden></ul>
        <p id="robots-origin-count" class="hint"></p>
      </div>
      <div class="actions">
        <button id="open-robots" type="button" class="secondary">Open robots.txt</button>
        <button id="check-robots" type="button" class="secondary">Check robots.txt</button>
      </div>
    </div>
    <div id="robots" class="robots"></div>
  </section>

  <section id="estimate-section" class="estimate-section" aria-labelledby="estimate-heading">
    <h2 id="estimate-heading">Measured and simulated</h2>
    <div class="field check">
      <input id="use-calibration" type="checkbox" aria-describedby="calibration-help" disabled>
      <label for="use-calibration">Plan with what the test crawl measured</label>
      <p id="calibration-help" class="hint"></p>
    </div>
    <div class="actions">
      <button id="choose-report" type="button" class="secondary" title="Plan with what a crawl report measured (one a test crawl or crawl-planner crawl --report wrote)">Choose a crawl report…</button>
      <button id="calibration-off" type="button" class="secondary" hidden>Use typed values</button>
    </div>
    <div id="calibration" class="calibration" hidden>
      <p id="calibration-source"></p>
      <ul id="calibration-hosts" class="calibration-hosts" aria-label="What the test crawl measured, per host, and what the plan took"></ul>
      <p id="calibration-more" class="hint"></p>
      <p id="calibration-unseen" class="hint"></p>
    </div>
    <div class="field check">
      <input id="simulate" type="checkbox" aria-describedby="simulation-status">
      <label for="simulate">Simulate</label>
    </div>
    <div class="grid">
      <div class="field">
        <label for="sim-runs">Runs</label>
        <input id="sim-runs" type="text" inputmode="numeric" autocomplete="off" aria-describedby="sim-runs-error">
        <p id="sim-runs-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="sim-seed">Seed</label>
        <input id="sim-seed" type="text" inputmode="numeric" autocomplete="off" aria-describedby="sim-seed-error">
        <p id="sim-seed-error" class="field-error"></p>
      </div>
    </div>
    <p id="simulation-status" class="hint" aria-live="polite"></p>
  </section>

  <section id="crawl-section" class="crawl-section" aria-labelledby="crawl-heading" hidden>
    <h2 id="crawl-heading">Last test crawl</h2>
    <p id="crawl-result" class="total"></p>
    <p id="crawl-not-followed-head"></p>
    <ul id="crawl-not-followed" class="warnings" aria-label="Not followed, by reason"></ul>
  </section>
</main>
`;

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, getHtml, makeNonce, type WebviewLike } from '../../src/extension/planner/html';

const webview: WebviewLike<string> = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  asWebviewUri: (path) => ({ toString: () => `https://file+.vscode-resource.vscode-cdn.net/ext/${path}` }),
};
const nonce = 'AbCdEf0123456789+/xyzQ==';
const html = getHtml(webview, nonce, { script: 'dist/webview.js', style: 'media/planner.css' });

/** The stable ids the e2e tests and docs/extension.md rely on. */
const IDS = [
  'seeds',
  'pages',
  'pages-mode',
  'rate',
  'workers',
  'delay',
  'delay-from',
  'latency',
  'user-agent',
  'use-robots',
  'check-servers',
  'servers-status',
  'cancel-servers',
  'politeness-by',
  'shared-servers',
  'seed-errors',
  'host-table',
  'total',
  'binding',
  'warnings',
  'problems',
  'robots',
  'robots-status',
  'robots-origin',
  'chart',
  'run-crawl',
  'copy-plan',
  'open-robots',
  'check-robots',
  'status',
  'crawl-section',
  'crawl-result',
  'crawl-not-followed',
];

function cspOf(document: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(document);
  assert.ok(match, 'a CSP meta tag');
  return match[1]!.replace(/&#39;/g, "'");
}

test('the CSP starts from default-src none and allows only our styles and the nonce script', () => {
  const csp = cspOf(html);
  assert.equal(csp, contentSecurityPolicy(webview.cspSource, nonce));
  const directives = csp.split(';').map((d) => d.trim());
  assert.equal(directives[0], "default-src 'none'");
  assert.ok(directives.includes(`style-src ${webview.cspSource}`));
  assert.ok(directives.includes(`script-src 'nonce-${nonce}'`));
  assert.ok(directives.includes(`img-src ${webview.cspSource} data:`));
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
});

test('exactly one script, external, with the nonce; no inline script, no handlers, no inline styles', () => {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  assert.equal(scripts.length, 1);
  const [, attrs, body] = scripts[0]!;
  assert.match(attrs!, new RegExp(`nonce="${nonce.replace(/[+/]/g, '\\$&')}"`));
  assert.match(attrs!, /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"/);
  assert.equal(body!.trim(), '', 'no inline script');
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no event handler attributes');
  assert.doesNotMatch(html, /\sstyle\s*=/i, 'no inline style attributes');
  assert.doesNotMatch(html, /<style\b/i, 'no style elements');
  assert.doesNotMatch(html, /javascript:/i);
  assert.match(
    html,
    /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/planner\.css">/,
  );
});

test('every stable id is there exactly once', () => {
  for (const id of IDS) {
    const count = html.split(`id="${id}"`).length - 1;
    assert.equal(count, 1, `#${id}`);
  }
});

test('every input has a label; every button is a button with a type', () => {
  const inputs = [...html.matchAll(/<(input|textarea|select)\b[^>]*\bid="([^"]+)"[^>]*>/g)];
  assert.ok(inputs.length >= 10);
  for (const [tag, , id] of inputs) {
    const labelled = html.includes(`for="${id}"`) || /aria-label="[^"]+"/.test(tag!);
    assert.ok(labelled, `#${id} has a label`);
  }
  for (const [button] of html.matchAll(/<button\b[^>]*>/g)) assert.match(button, /type="button"/);
  assert.match(html, /id="chart" class="chart" role="img" aria-label=/);
});

test('the interpolated values are escaped; a nonce that is not base64 is refused', () => {
  const hostile: WebviewLike<string> = {
    cspSource: 'x" onload="alert(1)',
    asWebviewUri: () => ({ toString: () => '"><script>alert(1)</script>' }),
  };
  const out = getHtml(hostile, nonce, { script: 's', style: 'c' });
  assert.doesNotMatch(out, /"><script>alert/);
  assert.doesNotMatch(out, /" onload="/);
  assert.throws(() => getHtml(webview, `x"><script>`, { script: 's', style: 'c' }), /nonce/);
});

test('makeNonce gives 128 random bits, different every time', () => {
  const a = makeNonce();
  const b = makeNonce();
  assert.match(a, /^[A-Za-z0-9+/]{22}==$/);
  assert.notEqual(a, b);
  assert.equal(Buffer.from(a, 'base64').length, 16);
});

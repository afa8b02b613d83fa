'use strict';
/**
 * A colour audit of the planner webview, run in its frame: the WCAG contrast ratio of text against the
 * background it is drawn on, and of the chart's bars against their track. It reports; the scenarios
 * print the results as notes (CONTRIBUTING.md, scenario g-legibility, says what the numbers mean). 4.5:1 is WCAG AA for body
 * text, 3:1 for large text and for graphics that carry meaning (a chart bar).
 */

/** Runs in the webview frame. `targets`: [{ name, selector, pseudo?, kind: 'text' | 'fill' }]. */
function auditInFrame(targets) {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const [r, g, b, a = '1'] = m[1].split(/[ ,/]+/).filter(Boolean);
    return { r: +r, g: +g, b: +b, a: +a };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // The page background: the webview's body is transparent over the side bar colour (html background).
  const pageBg = () => {
    for (const el of [document.body, document.documentElement]) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c && c.a > 0) return c;
    }
    const v = getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background').trim();
    const probe = document.createElement('span');
    probe.style.color = v || '#000';
    document.body.append(probe);
    const c = parse(getComputedStyle(probe).color);
    probe.remove();
    return c ?? { r: 0, g: 0, b: 0, a: 1 };
  };
  const backgroundOf = (el) => {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c.a > 0) layers.push(c);
      if (c && c.a >= 1) break;
    }
    let bg = pageBg();
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const hex = ({ r, g, b }) => `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const out = [];
  for (const t of targets) {
    const el = document.querySelector(t.selector);
    if (!el) continue;
    if (t.kind === 'fill') {
      const fill = parse(getComputedStyle(el).backgroundColor);
      const track = backgroundOf(el.parentElement);
      if (!fill) continue;
      const f = over(fill, track);
      out.push({ name: t.name, fg: hex(f), bg: hex(track), ratio: Math.round(ratio(f, track) * 100) / 100, min: 3 });
    } else {
      const style = getComputedStyle(el, t.pseudo ?? null);
      const fg = parse(style.color);
      if (!fg) continue;
      const bg = backgroundOf(el);
      const f = over(fg, bg);
      const large =
        parseFloat(style.fontSize) >= 18.66 || (parseFloat(style.fontSize) >= 14 && +style.fontWeight >= 700);
      out.push({
        name: t.name,
        fg: hex(f),
        bg: hex(bg),
        ratio: Math.round(ratio(f, bg) * 100) / 100,
        min: large ? 3 : 4.5,
      });
    }
  }
  return out;
}

const PLANNER_TARGETS = [
  { name: 'label', selector: 'label[for="seeds"]', kind: 'text' },
  { name: 'hint', selector: '#seeds-help', kind: 'text' },
  { name: 'input value', selector: '#pages', kind: 'text' },
  { name: 'placeholder', selector: '#workers', pseudo: '::placeholder', kind: 'text' },
  { name: 'total', selector: '#total', kind: 'text' },
  { name: 'chart value', selector: '#chart .bar:not(.binding) .bar-value', kind: 'text' },
  { name: 'chart bar', selector: '#chart .bar:not(.binding) .bar-fill', kind: 'fill' },
  { name: 'chart bar (limits the crawl)', selector: '#chart .bar.binding .bar-fill', kind: 'fill' },
  { name: 'table detail', selector: '#host-table .host-detail', kind: 'text' },
  { name: 'warning', selector: '#warnings li', kind: 'text' },
  { name: 'verdict: allowed', selector: '#robots .verdict-allowed', kind: 'text' },
  { name: 'verdict: disallowed', selector: '#robots .verdict-disallowed', kind: 'text' },
  { name: 'robots outcome', selector: '#robots .outcome', kind: 'text' },
  { name: 'rule link', selector: '#robots .rule-link', kind: 'text' },
  { name: 'trust note', selector: '#trust-note:not([hidden])', kind: 'text' },
  { name: 'disabled button', selector: 'button:disabled', kind: 'text' },
];

/** The audit as short note lines; entries under their minimum are marked LOW. */
async function auditPlanner(frame, theme) {
  const results = await frame.evaluate(auditInFrame, PLANNER_TARGETS);
  return results.map(
    (r) => `${theme} ${r.name}: ${r.ratio}:1 (${r.fg} on ${r.bg})${r.ratio < r.min ? ` LOW, below ${r.min}:1` : ''}`,
  );
}

module.exports = { auditPlanner, auditInFrame, PLANNER_TARGETS };

/**
 * Hosts, URLs and the User-Agent header are data in every export: they are escaped into string literals
 * (Python, JavaScript, YAML, XML) that read back as exactly the same text, kept out of code altogether where
 * they can be (plan.json, seed lists), and never end a comment. Hostile hosts and URLs (quotes, backticks,
 * `${…}`, `</script>`, `-->`, line breaks, U+2028, bidi controls) go through every format; each file is
 * parsed back by a real parser (Node for JavaScript and JSON; Python's ast, json, yaml and ElementTree when
 * /usr/bin/python3 is there).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import fc from 'fast-check';
import {
  commentBlock,
  commentLine,
  exportPlan,
  EXPORT_FORMATS,
  jsString,
  pyString,
  xmlText,
  yamlString,
  type ExportResult,
  type PlanData,
} from '../../src/core/export';
import { plan } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';

const PYTHON = '/usr/bin/python3';
const hasPython = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import json, ast, xml.etree.ElementTree'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const hasYaml =
  hasPython &&
  (() => {
    try {
      execFileSync(PYTHON, ['-c', 'import yaml'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

/** Runs a Python snippet with `data` (JSON) on stdin; returns its stdout parsed as JSON. */
function python(code: string, data: unknown): unknown {
  const out = execFileSync(PYTHON, ['-c', `import json, sys\ndata = json.load(sys.stdin)\n${code}`], {
    input: JSON.stringify(data),
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** Valid URLs whose hosts and paths carry what would break out of a careless literal or comment. */
const HOSTILE_URLS = [
  'http://a"b\'c.example/',
  'http://x${globalThis.process.exit(1)}.example/',
  'http://back`tick{1}.example/start',
  'http://semi;colon&amp=x.example/',
  'http://dash--dash.example/x-->',
  'http://q.example/p?x=${process.exit(1)}&y="\';</script><!--&z=\\',
  'http://a!b(c)*d,e.example:8080/',
  'http://[::1]:8081/ipv6',
];

/** Hosts no URL can have, given straight to the plan (an adapter's bug must not become code either). */
const IMPOSSIBLE_HOSTS = [
  'evil\n-->\nimport os',
  'line\u2028sep\u2029para',
  'bidi\u202eoverride\u2066',
  'nul\u0000and\u001bescape',
  'constructor',
  '__proto__',
];

const HEADER = 'Hostile/1.0 (+https://ops.example/"\\${a}`;</script>--)';
const CONTACT = 'https://ops.example/a"b#c:d\'e${x}`--';

function hostileExport(format: (typeof EXPORT_FORMATS)[number], machines?: number): ExportResult {
  const seeds = validateSeeds(HOSTILE_URLS.map((text, i) => ({ text, line: i + 1 }))).seeds;
  assert.equal(seeds.length, HOSTILE_URLS.length, 'every hostile URL is a valid seed');
  const crawlDelayByHost = Object.fromEntries(
    [...seeds.map((s) => s.host), ...IMPOSSIBLE_HOSTS].map((h, i) => [h, 2 + i]),
  );
  const p = plan({
    seeds: [...seeds, ...IMPOSSIBLE_HOSTS.map((host) => ({ host }))],
    pages: { perHost: 4 },
    crawlDelayByHost,
    ...(machines !== undefined ? { machines } : {}),
  });
  return exportPlan(format, p, { seeds, productToken: 'Hostile', userAgentHeader: HEADER, contact: CONTACT });
}

function isData(file: string): boolean {
  return (
    file.endsWith('plan.json') ||
    /seeds?(\/machine-\d+)?(\.txt|\/seed\.txt)$/.test(file) ||
    /(^|\/)seed\.txt$/.test(file)
  );
}

/** The file without its comments: whole `#` or `//` lines, and XML's `<!-- … -->` blocks (the exports write no other kind). */
function code(file: string, content: string): string {
  if (file.endsWith('.xml')) return content.replace(/<!--[\s\S]*?-->/g, '');
  return content
    .split('\n')
    .filter((line) => !/^\s*(#|\/\/)/.test(line))
    .join('\n');
}

function writeAll(result: ExportResult): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-hostile-'));
  for (const f of result.files) {
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), f.content);
  }
  return dir;
}

describe('literals read back as exactly the text given', () => {
  const awkward = [
    '',
    '"',
    "'",
    '\\',
    '${x}',
    '`',
    '</script>',
    '-->',
    '\n\r\t',
    '\u2028\u2029',
    '\u202e',
    '\u0000\u007f\u0085',
    'é漢字😀',
    '\ud800',
    'a\udc00b',
  ];
  it('JavaScript: any string, evaluated in an empty context', () => {
    const check = (s: string) => assert.equal(vm.runInNewContext(jsString(s), Object.create(null)), s);
    for (const s of awkward) check(s);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => check(s)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => /^"[\x20-\x7e]*"$/.test(jsString(s))),
      { numRuns: 300 },
    );
  });

  it('YAML: a JSON string, so JSON.parse reads it; a lone surrogate is refused', () => {
    for (const s of awkward.filter((x) => !/[\ud800-\udfff]/.test(x) || /[\ud800-\udbff][\udc00-\udfff]/.test(x)))
      assert.equal(JSON.parse(yamlString(s)), s);
    assert.throws(() => yamlString('\ud800'), /lone surrogate/);
  });

  it('Python: ASCII literals that ast.literal_eval reads back', { skip: !hasPython && 'no /usr/bin/python3' }, () => {
    const samples = [...awkward, ...fc.sample(fc.string({ unit: 'binary' }), 200)];
    for (const s of samples) assert.match(pyString(s), /^"[\x20-\x7e]*"$/);
    // Sent as literals and as JSON (with surrogates as \\u escapes, which both read the same).
    const back = python(
      'import ast\nprint(json.dumps([ast.literal_eval(l) == s for l, s in data]))',
      samples.map((s) => [pyString(s), s]),
    ) as boolean[];
    assert.deepEqual(
      back,
      samples.map(() => true),
    );
  });

  it('XML: entities and character references; characters XML cannot hold are refused', () => {
    const decode = (t: string) =>
      t.replace(/&#x([0-9a-f]+);|&(amp|lt|gt|quot|apos);/g, (_, hex: string | undefined, name: string | undefined) =>
        hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name!]!,
      );
    for (const s of ['', '&<>"\'', '-->', ']]>', 'é漢字😀', '\t\n\r', '\u2028']) assert.equal(decode(xmlText(s)), s);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        let text: string;
        try {
          text = xmlText(s);
        } catch {
          return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/.test(s);
        }
        return decode(text) === s && /^[\x20-\x7e]*$/.test(text);
      }),
      { numRuns: 300 },
    );
    for (const bad of ['\u0000', '\u001b', '\ud800', '\uffff']) assert.throws(() => xmlText(bad), /XML 1\.0/);
  });

  it('a comment line never holds a line break, a control or bidi character, nor "--" in XML', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        for (const style of ['python', 'js', 'yaml', 'xml'] as const) {
          const line = commentLine(s, style);
          if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(line)) return false;
          if (style === 'xml' && (line.includes('--') || line.endsWith('-'))) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
    const block = commentBlock(['a', 'b\nc --> d', ''], 'xml');
    assert.equal(block.match(/-->/g)?.length, 1, 'the block ends exactly once');
  });
});

describe('hostile hosts and URLs in every format', () => {
  for (const format of EXPORT_FORMATS) {
    it(`${format}: outside comments, no file but the data files holds a hostile host or URL as written`, () => {
      const r = hostileExport(format);
      const seeds = validateSeeds(HOSTILE_URLS.map((text, i) => ({ text, line: i + 1 }))).seeds;
      const hostile = [
        ...seeds.map((s) => s.url),
        ...seeds.map((s) => s.host).filter((h) => /["'`$\\;&!(]/.test(h)),
        ...IMPOSSIBLE_HOSTS.filter((h) => /[^a-z_]/.test(h)),
      ];
      for (const f of r.files) {
        if (isData(f.path)) continue;
        const text = code(f.path, f.content);
        for (const h of hostile) assert.ok(!text.includes(h), `${f.path} holds ${JSON.stringify(h)} outside a comment`);
        // In comments too: nothing that ends a line or a comment, or reorders how the file reads.
        assert.doesNotMatch(
          f.content,
          /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u0085\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
          `${f.path}: a control character`,
        );
        if (f.path.endsWith('.xml'))
          assert.equal(f.content.match(/-->/g)?.length, 1, `${f.path}: one comment, ended once`);
      }
      const lists = r.files.filter((f) => isData(f.path) && !f.path.endsWith('plan.json'));
      const written = lists.flatMap((f) => f.content.split('\n').filter(Boolean));
      assert.deepEqual(written.sort(), seeds.map((s) => s.url).sort());
    });
  }

  it('plan.json reads back to every host as the plan has it, the impossible ones too', () => {
    for (const format of ['scrapy', 'crawlee'] as const) {
      const r = hostileExport(format);
      const data = JSON.parse(r.files.find((f) => f.path.endsWith('plan.json'))!.content) as PlanData;
      for (const h of IMPOSSIBLE_HOSTS)
        assert.ok(
          data.hosts.some((x) => x.host === h),
          JSON.stringify(h),
        );
      assert.equal(data.userAgent, HEADER);
      assert.ok(Array.isArray(data.hosts), 'hosts are a list, so "__proto__" and "constructor" stay plain values');
    }
  });

  it('crawl.mjs: valid JavaScript, and every line before the code is a comment', () => {
    const r = hostileExport('crawlee', 3);
    const dir = writeAll(r);
    try {
      execFileSync(process.execPath, ['--check', path.join(dir, 'crawl.mjs')], { stdio: 'pipe' });
      const text = r.files.find((f) => f.path === 'crawl.mjs')!.content;
      const head = text.slice(0, text.indexOf('import '));
      for (const line of head.split('\n').filter(Boolean)) assert.match(line, /^\/\//);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'scrapy: Python parses every file, the comments stay comments, and the settings read back',
    { skip: !hasPython && 'no /usr/bin/python3' },
    () => {
      const r = hostileExport('scrapy', 3);
      const dir = writeAll(r);
      try {
        const settings = r.files.find((f) => f.path === 'planned/settings.py')!.content;
        const head = settings.slice(0, settings.indexOf('BOT_NAME'));
        for (const line of head.split('\n').filter(Boolean)) assert.match(line, /^#/);
        const files = r.files.filter((f) => f.path.endsWith('.py')).map((f) => path.join(dir, f.path));
        const got = python(
          'import ast\nfor f in data["files"]: ast.parse(open(f, encoding="utf-8").read(), f)\n' +
            'tree = ast.parse(open(data["settings"], encoding="utf-8").read())\n' +
            'values = {t.id: ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}\n' +
            'plan = json.load(open(data["plan"], encoding="utf-8"))\n' +
            'print(json.dumps({"ua": values["USER_AGENT"], "token": values["ROBOTSTXT_USER_AGENT"], "hosts": [h["host"] for h in plan["hosts"]]}))',
          { files, settings: path.join(dir, 'planned/settings.py'), plan: path.join(dir, 'planned/plan.json') },
        ) as { ua: string; token: string; hosts: string[] };
        assert.equal(got.ua, HEADER);
        assert.equal(got.token, 'Hostile');
        for (const h of IMPOSSIBLE_HOSTS) assert.ok(got.hosts.includes(h), JSON.stringify(h));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    'nutch: the XML parses, with one comment and exactly the properties written',
    { skip: !hasPython && 'no /usr/bin/python3' },
    () => {
      const r = hostileExport('nutch');
      const dir = writeAll(r);
      try {
        const got = python(
          'import xml.etree.ElementTree as ET\nroot = ET.parse(data).getroot()\n' +
            'print(json.dumps({p.findtext("name"): p.findtext("value") for p in root.findall("property")}))',
          path.join(dir, 'conf/nutch-site.xml'),
        ) as Record<string, string>;
        assert.equal(got['http.agent.url'], CONTACT);
        assert.equal(got['http.agent.name'], 'Hostile');
        const xml = r.files[0]!.content;
        assert.equal(xml.match(/<!--/g)?.length, 1);
        assert.equal(xml.match(/-->/g)?.length, 1);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    'stormcrawler: the YAML parses to exactly the values written',
    { skip: !hasYaml && 'no python3 with yaml' },
    () => {
      const r = hostileExport('stormcrawler');
      const got = python('import yaml\nprint(json.dumps(yaml.safe_load(data)))', r.files[0]!.content) as {
        config: Record<string, unknown>;
      };
      assert.equal(got.config['http.agent.url'], CONTACT);
      assert.equal(got.config['http.agent.name'], 'Hostile');
      assert.equal(got.config['fetcher.server.delay.force'], true);
    },
  );
});

// @ts-check
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ and what each may import: the same table as ARCHITECTURE.md §Layers
 * (test/unit/architecture.test.ts holds the two equal). A layer may import only the layers it names;
 * `node`: Node's built-in modules; `vscode`: the VS Code API; `undici`: the HTTP client. `lazy` layers may
 * be imported for their types only: their code is loaded with `import()` on first use, so that activation
 * stays cheap and does no I/O.
 */
export const LAYERS = {
  core: { folder: 'src/core', imports: [], node: false, vscode: false, undici: false },
  shared: { folder: 'src/shared', imports: ['core'], node: false, vscode: false, undici: false },
  webview: { folder: 'src/webview', imports: ['core', 'shared'], node: false, vscode: false, undici: false },
  net: { folder: 'src/net', imports: ['core'], node: true, vscode: false, undici: true },
  demo: { folder: 'src/demo', imports: ['core'], node: true, vscode: false, undici: false },
  cli: { folder: 'src/cli', imports: ['core', 'net', 'demo'], node: true, vscode: false, undici: false },
  extension: {
    folder: 'src/extension',
    imports: ['core', 'shared', 'net', 'demo'],
    lazy: ['net', 'demo'],
    node: true,
    vscode: true,
    undici: false,
  },
};

/** Every built-in module by its exact name, with and without `node:` (exact: `events` must not catch ../crawl/events). */
const nodeBuiltins = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '')))].flatMap((m) => [m, `node:${m}`]);
const why = 'see ARCHITECTURE.md §Layers';

/** The import restrictions of one layer, from LAYERS. */
function layerRules(name) {
  const layer = LAYERS[name];
  const others = Object.keys(LAYERS).filter((other) => other !== name && !layer.imports.includes(other));
  const paths = [];
  if (!layer.vscode)
    paths.push({
      name: 'vscode',
      message: `src/${name} must not import vscode: only src/extension talks to VS Code (${why}).`,
    });
  if (!layer.undici)
    paths.push({ name: 'undici', message: `src/${name} must not import undici: HTTP is src/net's (${why}).` });
  const patterns = [];
  if (others.length > 0) {
    patterns.push({
      group: others
        .flatMap((other) => [`**/${other}`, `**/${other}/**`])
        .filter((p) => !(name === 'extension' && p === '**/demo')),
      message: `src/${name} may import only ${layer.imports.length > 0 ? layer.imports.map((l) => `src/${l}`).join(', ') : 'src/core'} (${why}).`,
    });
  }
  if (!layer.node) {
    const message = `src/${name} runs without Node's I/O: pass data in, or put the code in src/net, src/cli or src/extension (${why}).`;
    for (const builtin of nodeBuiltins) paths.push({ name: builtin, message });
  }
  for (const lazy of layer.lazy ?? []) {
    patterns.push({
      group: [`**/${lazy}/**`, `../${lazy}`, `../../${lazy}`],
      allowTypeImports: true,
      message: `src/${name} imports src/${lazy} for its types only; load its code with import() on first use, so activation stays cheap (${why}).`,
    });
  }
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      'test/e2e/node_modules/**',
      'test/e2e/.cache/**',
      '.vscode-test/**',
      'esbuild.js',
      'test/fixtures/spiders/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain CommonJS scripts (build, CI and the e2e harness) load modules with require().
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...Object.entries(LAYERS).map(([name, layer]) => ({ files: [`${layer.folder}/**/*.ts`], rules: layerRules(name) })),
  {
    // Pure code (ARCHITECTURE.md §Layers): the core and the protocol it shares with the webview have no
    // timers, clock, randomness, environment or DOM of their own.
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'setTimeout',
          message: 'Pure code has no timers of its own: use the injected Clock (ARCHITECTURE.md §Layers).',
        },
        {
          name: 'setInterval',
          message: 'Pure code has no timers of its own: use the injected Clock (ARCHITECTURE.md §Layers).',
        },
        {
          name: 'setImmediate',
          message:
            'Pure code has no timers of its own: take a callback, as CrawlOptions.defer (ARCHITECTURE.md §Layers).',
        },
        { name: 'fetch', message: 'Pure code does no I/O: src/net does (ARCHITECTURE.md §Layers).' },
        { name: 'document', message: 'Pure code has no DOM: src/webview does (ARCHITECTURE.md §Layers).' },
        { name: 'window', message: 'Pure code has no DOM: src/webview does (ARCHITECTURE.md §Layers).' },
        { name: 'process', message: 'Pure code reads no environment: pass data in (ARCHITECTURE.md §Layers).' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'Pure code reads time from the injected Clock (ARCHITECTURE.md §Layers).',
        },
        {
          object: 'Math',
          property: 'random',
          message: 'Pure code takes randomness as an injected function (ARCHITECTURE.md §Layers).',
        },
      ],
    },
  },
);

// @ts-check
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'http', 'https', 'net', 'tls', 'dns', 'child_process', 'os', 'zlib', 'stream', 'timers', 'worker_threads', 'crypto', 'readline', 'process'];
const noIo = nodeBuiltins.flatMap((m) => [m, `node:${m}`, `${m}/*`, `node:${m}/*`]);

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/e2e/node_modules/**', 'test/e2e/.cache/**', '.vscode-test/**', 'esbuild.js'] },
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
  {
    // The core boundary (ARCHITECTURE.md §Layers): pure logic, no vscode, no DOM, no I/O, no timers of its own.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core must not import vscode: put the adapter in src/extension.' },
          { name: 'undici', message: 'src/core does no I/O: put network code in src/net.' },
        ],
        patterns: [
          { group: noIo, message: 'src/core does no I/O: pass data in, or put the code in src/net / src/cli.' },
          { group: ['**/net/**', '**/extension/**', '**/cli/**', '**/demo/**', '**/webview/**'], message: 'src/core must not depend on adapters.' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'src/core has no timers of its own: use the injected Clock.' },
        { name: 'setInterval', message: 'src/core has no timers of its own: use the injected Clock.' },
        { name: 'fetch', message: 'src/core does no I/O.' },
        { name: 'document', message: 'src/core has no DOM.' },
        { name: 'window', message: 'src/core has no DOM.' },
      ],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'src/core reads time from the injected Clock.' },
        { object: 'Math', property: 'random', message: 'src/core takes randomness as an injected function.' },
      ],
    },
  },
  {
    files: ['src/net/**/*.ts', 'src/demo/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }] }],
    },
  },
);

'use strict';
/**
 * Preloaded with `node --require` by test/integration/cli-startup.test.ts: when the process exits, writes
 * to the file named by LOADED_MODULES_FILE which files were require()d and which Node built-ins were
 * loaded, as JSON `{ files, builtins }`.
 */
const fs = require('node:fs');

const file = process.env.LOADED_MODULES_FILE;
if (file) {
  process.on('exit', () => {
    const builtins = (process.moduleLoadList ?? [])
      .filter((m) => m.startsWith('NativeModule '))
      .map((m) => m.slice('NativeModule '.length));
    fs.writeFileSync(file, JSON.stringify({ files: Object.keys(require.cache), builtins }));
  });
}

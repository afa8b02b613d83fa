'use strict';
/**
 * Bench-only: times loading the extension bundle and its activate(), outside VS Code.
 *
 *   node bench/lib/activation.cjs <dist/extension.js> <package.json>
 *
 * prints one JSON line: `requireMs` (require() of the bundle: reading and compiling it and running its
 * top-level code), `activateMs` (the synchronous activate(context) call) and `subscriptions` (what
 * activate registered, to show it ran). `vscode` is a stub: every API call returns at once (a Proxy that
 * answers any member), settings read as unset (so their defaults apply), the workspace is trusted and
 * has no folder. So this measures our own code's cost of activation; it leaves out what VS Code does
 * around it (starting the extension host, reading the manifest, creating the real objects the API
 * returns) and anything the extension does later, on first use (the network and demo modules, the view).
 */
const Module = require('node:module');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const [bundle, manifestPath] = process.argv.slice(2);
const manifest = JSON.parse(require('node:fs').readFileSync(manifestPath, 'utf8'));

/** A stand-in for any API member: callable, constructible, every property another stand-in (or what was assigned). */
function standIn(name) {
  const target = function () {};
  const assigned = new Map();
  return new Proxy(target, {
    set(_t, prop, value) {
      assigned.set(prop, value);
      return true;
    },
    get(_t, prop) {
      if (assigned.has(prop)) return assigned.get(prop);
      if (prop === 'then') return undefined; // not a promise: `await` gives it back
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'toString') return () => name;
      if (prop === 'length') return 0;
      if (prop === 'dispose') return () => undefined;
      return standIn(`${name}.${String(prop)}`);
    },
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`),
  });
}

/** The stand-in, with settings that read as unset and a trusted workspace without folders. */
function withOverrides(base, overrides) {
  return new Proxy(base, { get: (t, prop) => (prop in overrides ? overrides[prop] : t[prop]) });
}

const configuration = {
  get: (_key, fallback) => fallback,
  inspect: () => undefined,
  has: () => false,
  update: async () => undefined,
};
const api = withOverrides(standIn('vscode'), {
  workspace: withOverrides(standIn('vscode.workspace'), {
    getConfiguration: () => configuration,
    isTrusted: true,
    workspaceFolders: undefined,
    textDocuments: [],
  }),
});
// The bundle reads `vscode` through esbuild's namespace copy (`__toESM`), which copies own properties
// and inherits the rest from the module's prototype: so the module is an object whose prototype answers
// every member from the stand-in.
const vscode = Object.create(new Proxy({}, { get: (_t, prop) => api[prop] }));

const memento = () => {
  const values = new Map();
  return {
    get: (k, d) => (values.has(k) ? values.get(k) : d),
    update: async (k, v) => void values.set(k, v),
    keys: () => [...values.keys()],
    setKeysForSync: () => undefined,
  };
};
const context = withOverrides(standIn('context'), {
  subscriptions: [],
  workspaceState: memento(),
  globalState: memento(),
  extension: {
    id: `${manifest.publisher}.${manifest.name}`,
    packageJSON: manifest,
    extensionPath: path.dirname(path.resolve(manifestPath)),
  },
  extensionPath: path.dirname(path.resolve(manifestPath)),
  asAbsolutePath: (p) => path.join(path.dirname(path.resolve(manifestPath)), p),
});

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const t0 = performance.now();
const extension = require(path.resolve(bundle));
const t1 = performance.now();
extension.activate(context);
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, subscriptions: context.subscriptions.length })}\n`,
);

/** The fixture spiders, imported as text (esbuild's text loader: scripts/build-extension-tests.js, test/e2e/lib/build.js). */
declare module '*.py' {
  const text: string;
  export default text;
}

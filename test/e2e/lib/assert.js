'use strict';
/** Small assertions with messages that say what a person would have seen instead. */

class Skip extends Error {}

function skip(reason) {
  throw new Skip(reason);
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Asserts that `text` contains every one of `parts` (strings or regexps). */
function contains(text, parts, where) {
  for (const p of parts) {
    const ok = p instanceof RegExp ? p.test(text) : text.includes(p);
    if (!ok)
      throw new Error(
        `${where}: expected ${p instanceof RegExp ? p : JSON.stringify(p)} in ${JSON.stringify(text.slice(0, 400))}`,
      );
  }
}

module.exports = { Skip, skip, check, contains };

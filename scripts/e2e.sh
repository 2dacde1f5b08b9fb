#!/usr/bin/env bash
# End-to-end tests of `sprague serve` in a real browser (CI runs this after the tests): installs
# Debian's chromium when missing and playwright-core from the npm registry (tests/e2e/
# package-lock.json), builds the release binary and the serve_views example (the demo games
# of the heaps, graph and text views), then runs tests/e2e/serve.test.mjs with node's test
# runner. Screenshots land in tests/e2e/screenshots/. Skips (exit 0, loudly) only when
# Chromium is missing and cannot be installed (not root, or no apt-get), or without node/npm.
# Usage: scripts/e2e.sh
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "################ SKIPPED: e2e.sh: $* ################" >&2; exit 0; }
start=$SECONDS
chromium=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
  [[ $(id -u) == 0 ]] || skip "needs root to install Debian's chromium"
  command -v apt-get >/dev/null || skip "needs apt-get to install chromium"
  echo "e2e: installing chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null || skip "needs node and npm (or root and apt-get to install them)"
  echo "e2e: installing nodejs and npm"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
(cd tests/e2e && { [[ -d node_modules/playwright-core ]] || npm ci --no-audit --no-fund --loglevel=error; })
installed=$SECONDS
# E2E_BUILT=1 (.ci/run): the binary and the example `cargo test --release` just built are used
# as they are (a plain `cargo build` resolves the dependencies' features without the
# dev-dependencies' and would compile the crate a second time).
if [[ ${E2E_BUILT:-} != 1 ]]; then
  cargo build --release --quiet --bin sprague --example serve_views
fi
for built in target/release/sprague target/release/examples/serve_views; do
  [[ -x $built ]] || { echo "e2e.sh: $built is missing (unset E2E_BUILT to build it)" >&2; exit 2; }
done
built=$SECONDS
export SPRAGUE=$PWD/target/release/sprague SERVE_VIEWS=$PWD/target/release/examples/serve_views
(cd tests/e2e && CHROMIUM=$chromium npm test --silent)
echo "e2e: passed (install $((installed - start)) s, build $((built - installed)) s, tests $((SECONDS - built)) s; screenshots in tests/e2e/screenshots/)"

#!/usr/bin/env bash
# Builds the browser page into OUT (default target/page): the gametrace core compiled to
# WebAssembly (crates/gametrace-web, profile `web`), embedded base64 in gametrace-wasm.js so the
# page works opened from a file (browsers do not fetch a .wasm from file://), beside the page's
# HTML, CSS and JavaScript (docs/src/play/, which mdBook also copies into the guide). The
# .wasm is copied too, to measure.
#   scripts/build-web.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/page}"
if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
  echo "== installing the wasm32-unknown-unknown target (rustup target add)" >&2
  rustup target add wasm32-unknown-unknown >&2
fi
# A target folder of its own: the page can be built while `cargo test` holds target/.
target="${GAMETRACE_WEB_TARGET:-target/wasm}"
CARGO_TARGET_DIR="$target" cargo build --quiet --locked -p gametrace-web \
  --target wasm32-unknown-unknown --profile web
wasm="$target/wasm32-unknown-unknown/web/gametrace_web.wasm"
# Binaryen's optimiser takes the module from 3.3 MB to 2.8 MB (`wasm-opt -Oz`); from the npm
# registry (pinned) when it is not on PATH. Without npm the page is built unoptimised.
opt="$(command -v wasm-opt || true)"
if [ -z "$opt" ] && command -v npm >/dev/null 2>&1; then
  tools="$target/binaryen"
  if [ ! -x "$tools/node_modules/.bin/wasm-opt" ]; then
    echo "== installing binaryen 132 (npm) for wasm-opt" >&2
    npm install --silent --prefix "$tools" binaryen@132.0.0 >&2
  fi
  opt="$tools/node_modules/.bin/wasm-opt"
fi
if [ -n "$opt" ]; then
  "$opt" "${GAMETRACE_WASM_OPT:--Oz}" --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int "$wasm" -o "$target/gametrace_web.opt.wasm"
  wasm="$target/gametrace_web.opt.wasm"
else
  echo "note: no wasm-opt and no npm: the page's module is not size-optimised" >&2
fi
mkdir -p "$out"
cp docs/src/play/index.html docs/src/play/gametrace.css docs/src/play/gametrace.js "$out/"
cp "$wasm" "$out/gametrace.wasm"
# Written whole, then moved: a page never loads half a module.
{
  printf '// The gametrace core as WebAssembly, base64 (scripts/build-web.sh writes this file).\n'
  printf 'const GAMETRACE_WASM = "'
  base64 -w0 "$wasm"
  printf '";\n'
} > "$out/gametrace-wasm.js.part"
mv "$out/gametrace-wasm.js.part" "$out/gametrace-wasm.js"
echo "$out"

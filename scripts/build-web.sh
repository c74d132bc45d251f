#!/usr/bin/env bash
# Builds the browser page into OUT (default target/page): the gametrace core compiled to
# WebAssembly (crates/gametrace-web, profile `web`), embedded base64 in gametrace-wasm.js so the
# page works opened from a file (browsers do not fetch a .wasm from file://), beside the page's
# HTML, CSS and JavaScript (docs/src/play/, which mdBook also copies into the guide). The
# .wasm is copied too, to measure. The "Run my code" view's Python: Pyodide from the npm
# registry (pinned; its files copied into OUT/pyodide, never fetched from a CDN), the worker
# that runs it (gametrace-python.js) and the repository's Python drivers as one script
# (gametrace-drivers.js); the page loads them only when a student opens that view.
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
[ -n "$opt" ] || echo "note: no wasm-opt and no npm: the page's modules are not size-optimised" >&2
# The page's engine, and the same with check-game in it for the Python worker (a student's
# game checked in the page), which only the worker loads. Built by one cargo call: two calls
# each built the core with their own features (4 minutes more of CI's time), one builds it
# once and links the two modules side by side.
CARGO_TARGET_DIR="$target" cargo build --quiet --locked -p gametrace-web -p gametrace-web-games \
  --target wasm32-unknown-unknown --profile web
built="$target/wasm32-unknown-unknown/web"
# The engine through wasm-opt, once per build of it (a minute on this machine), not once per
# call. The worker's module is not (3.9 MB instead of 3.3, loaded only to check a game;
# wasm-opt takes a minute of CI's time on it).
if [ -n "$opt" ] && [ "$target/gametrace_web.wasm" -nt "$built/gametrace_web.wasm" ] &&
  [ -f "$target/gametrace_web.built" ] && cmp -s "$built/gametrace_web.wasm" "$target/gametrace_web.built"; then
  :
else
  cp "$built/gametrace_web.wasm" "$target/gametrace_web.built"
  if [ -n "$opt" ]; then
    "$opt" "${GAMETRACE_WASM_OPT:--Oz}" --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
      --enable-nontrapping-float-to-int "$built/gametrace_web.wasm" -o "$target/gametrace_web.wasm"
  else
    cp "$built/gametrace_web.wasm" "$target/gametrace_web.wasm"
  fi
fi
cp "$built/gametrace_web_games.wasm" "$target/gametrace_web_games.wasm"
wasm="$target/gametrace_web.wasm"
mkdir -p "$out"
cp docs/src/play/index.html docs/src/play/gametrace.css docs/src/play/gametrace.js \
  docs/src/play/gametrace-python.js "$out/"
# Pyodide, pinned (the version is in docs/src/browser.md); only the files it loads at start.
pyodide_version=314.0.7
pyodide="$target/pyodide/node_modules/pyodide"
if [ ! -f "$pyodide/pyodide.asm.wasm" ] || ! grep -q "\"version\": \"$pyodide_version\"" "$pyodide/package.json"; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "error: the page's Python runtime (Pyodide $pyodide_version) comes from the npm registry: install npm" >&2
    exit 1
  fi
  echo "== installing pyodide $pyodide_version (npm) for the page's Python" >&2
  npm install --silent --no-audit --no-fund --prefix "$target/pyodide" "pyodide@$pyodide_version" >&2
fi
mkdir -p "$out/pyodide"
for f in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json package.json; do
  cp "$pyodide/$f" "$out/pyodide/$f"
done
# The drivers, as a module the worker imports: its text files by path under /gametrace.
python3 - "$out/gametrace-drivers.js.part" <<'PY'
import json, pathlib, sys
root = pathlib.Path("python/gametrace/drivers")
files = {}
for p in sorted(root.rglob("*.py")):
    if "__pycache__" not in p.parts:
        files["adapters/python/" + p.relative_to(root).as_posix()] = p.read_text(encoding="utf-8")
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write("// The repository's Python drivers (python/gametrace/drivers), for the page's Python\n")
    out.write("// worker; scripts/build-web.sh writes this file.\n")
    out.write("export const DRIVERS = %s;\n" % json.dumps(files, indent=0, ensure_ascii=True))
PY
mv "$out/gametrace-drivers.js.part" "$out/gametrace-drivers.js"
cp "$wasm" "$out/gametrace.wasm"
# Written whole, then moved: a page never loads half a module.
{
  printf '// The gametrace core as WebAssembly, base64 (scripts/build-web.sh writes this file).\n'
  printf 'const GAMETRACE_WASM = "'
  base64 -w0 "$wasm"
  printf '";\n'
} > "$out/gametrace-wasm.js.part"
mv "$out/gametrace-wasm.js.part" "$out/gametrace-wasm.js"
# The games build, as a module the worker imports (it is never fetched: no fetch anywhere).
{
  printf '// The gametrace core with check-game, as WebAssembly, base64 (scripts/build-web.sh writes this file).\n'
  printf 'export const GAMETRACE_GAMES_WASM = "'
  base64 -w0 "$target/gametrace_web_games.wasm"
  printf '";\n'
} > "$out/gametrace-games.js.part"
mv "$out/gametrace-games.js.part" "$out/gametrace-games.js"
echo "$out"

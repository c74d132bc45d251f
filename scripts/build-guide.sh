#!/usr/bin/env bash
# Builds the guide with its browser page into docs/book (then open docs/book/index.html):
# `mdbook build docs`, then the page's engine into docs/book/play (scripts/build-web.sh).
# It says first what it will download, and downloads only what is missing.
#   scripts/build-guide.sh
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v mdbook >/dev/null 2>&1 || need+=("mdBook from crates.io (cargo install mdbook --locked: about 1 min of downloads and 3 to 6 min of compiling)")
rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' ||
  need+=("rustup's wasm32-unknown-unknown standard library (about 91 MB installed)")
if ! command -v wasm-opt >/dev/null 2>&1 && [ ! -x target/wasm/binaryen/node_modules/.bin/wasm-opt ]; then
  if command -v npm >/dev/null 2>&1; then
    need+=("Binaryen 132 from npm, for wasm-opt (about 104 MB installed, under target/wasm)")
  else
    need+=("nothing for wasm-opt: npm is missing, so the page's module is left unoptimised (3.3 MB, not 2.8)")
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "build-guide: this downloads:" >&2
  printf '  - %s\n' "${need[@]}" >&2
  echo "  and the crates of crates/gametrace-web (in Cargo.lock) if cargo has not fetched them; the wasm build takes about 0.3 GB under target/wasm" >&2
fi
command -v mdbook >/dev/null 2>&1 || cargo install mdbook --locked --quiet
mdbook build docs
bash scripts/build-web.sh docs/book/play >/dev/null
echo "the guide, with its page: docs/book/index.html (the page: docs/book/play/index.html)"

#!/usr/bin/env bash
# Builds autograder.zip for Gradescope: setup.sh, run_autograder, the course's specs and a
# release build of gametrace. Usage, from the gametrace checkout:
#   docs/autograders/gradescope/make-zip.sh SPECS_DIR [OUT.zip]
set -euo pipefail
specs="${1:?usage: make-zip.sh SPECS_DIR [OUT.zip]}"
out="${2:-autograder.zip}"
here="$(cd "$(dirname "$0")" && pwd)"
cargo build --release --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$work/"
cp target/release/gametrace "$work/"
cp -r "$specs" "$work/specs"
gametrace_bin="$work/gametrace"
# Every spec must load before students submit against it.
"$gametrace_bin" validate "$work/specs"
(cd "$work" && zip -qr - .) > "$out"
echo "wrote $out"

#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the project's own inputs: every spec under specs/ and
# tests/fixtures, the expected traces and transcripts, and the SML values the task specs hold.
# The corpora live in fuzz/corpus/ (not committed); seeding again adds, never removes.
set -euo pipefail
cd "$(dirname "$0")/.."
seed() { # target, files...
  local dir="fuzz/corpus/$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    cp "$f" "$dir/$(printf '%s' "$f" | tr '/' '_')"
  done
}
mapfile -t specs < <(find specs tests/fixtures -name '*.yaml' -size -64k | sort)
mapfile -t traces < <(find expected tests/fixtures -type f \( -name '*.trace' -o -name '*.txt' \) -size -64k | sort)
seed spec_load "${specs[@]}"
seed validate "${specs[@]}"
seed spec_run "${specs[@]}"
seed yaml_fast_path "${specs[@]}"
seed spec_fast_tree "${specs[@]}"
seed transcript_check "${traces[@]}"
seed diff "${traces[@]}"
# SML values: the `args:` and `expect:` lines of the task specs, one file each.
mkdir -p fuzz/corpus/sml_notation
grep -rhoE '(expect|args): .*' specs/graphs specs/sequences 2>/dev/null | sed -E 's/^(expect|args): //' |
  sort -u | head -500 | while IFS= read -r v; do
    printf '%s' "$v" > "fuzz/corpus/sml_notation/$(printf '%s' "$v" | cksum | cut -d' ' -f1)"
  done
echo "seeded: $(for d in fuzz/corpus/*; do printf '%s %s  ' "$(basename "$d")" "$(ls "$d" | wc -l)"; done)"

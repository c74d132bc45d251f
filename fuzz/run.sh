#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 10) with cargo-fuzz on a nightly toolchain,
# seeded from the project's specs and traces. A crash stops the run with the failing input in
# fuzz/artifacts/<target>/ and exit code 1; so does a target that cannot run (its log is
# fuzz/artifacts/<target>.log). Usage: fuzz/run.sh [SECONDS] [TARGET...]
# FUZZ_DEV=1 builds the targets unoptimised (3 minutes instead of 10 here, slower runs): CI's
# short smoke run uses it; a campaign should not. FUZZ_SEEDS=N starts each target from N of its
# seeds only (a smoke run: libFuzzer runs every seed before its clock starts, and 115 seeds of
# transcript_check took 2 minutes unoptimised).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"; shift || true
targets=("$@")
profile=()
[ -z "${FUZZ_DEV:-}" ] || profile=(--dev)
[ ${#targets[@]} -gt 0 ] || targets=(spec_load spec_run validate transcript_check sml_notation diff yaml_fast_path spec_fast_tree)
bash fuzz/seed.sh
# Built first, so that a build failure shows in full and fails the run.
(cd fuzz && cargo +nightly fuzz build "${profile[@]}" 2>&1 | tail -n 3)
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${seconds}s"
  rm -rf "fuzz/artifacts/$t"
  # -rss_limit_mb: a target that needs more is itself a finding.
  log="fuzz/artifacts/$t.log"
  mkdir -p fuzz/artifacts
  corpus="fuzz/corpus/$t"
  if [ -n "${FUZZ_SEEDS:-}" ]; then
    corpus="fuzz/corpus-smoke/$t"
    rm -rf "$corpus" && mkdir -p "$corpus"
    # Every k-th seed, so that the few kept still come from every kind of input.
    mapfile -t seeds < <(find "fuzz/corpus/$t" -type f | sort)
    step=$(( (${#seeds[@]} + FUZZ_SEEDS - 1) / FUZZ_SEEDS ))
    for ((i = 0; i < ${#seeds[@]}; i += (step > 0 ? step : 1))); do cp "${seeds[$i]}" "$corpus/"; done
  fi
  status=0
  cargo +nightly fuzz run "${profile[@]}" "$t" "$corpus" -- \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|Done )|panicked|Test unit written' "$log" || true
  if [ "$status" != 0 ]; then
    if compgen -G "fuzz/artifacts/$t/*-*" >/dev/null; then
      echo "fuzz: $t found a failing input: $(ls "fuzz/artifacts/$t")" >&2
    else
      echo "fuzz: $t did not run (exit $status); the end of $log:" >&2
      tail -n 20 "$log" >&2
    fi
    exit 1
  fi
done

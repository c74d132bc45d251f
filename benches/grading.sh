#!/usr/bin/env bash
# The speed-up of grading in parallel (`--jobs`), measured on this machine: `test --against`
# with the SML/NJ and Python fixtures over the handout specs, and `grade` over a class of 50
# generated submissions (20 correct, 10 buggy, 5 crashing, 5 looping, 5 flooding, 3 empty, 2
# that leave a process behind; --timeout 1). Each command is run RUNS times per job count;
# the median wall time is printed, and the reports of every job count are compared byte for
# byte. Usage, from the checkout: bash benches/grading.sh [RUNS]
set -euo pipefail
runs="${1:-5}"
cargo build --release --quiet
bin="$PWD/target/release/gametrace"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { # label, jobs, command...
  local label="$1" jobs="$2"; shift 2
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" > "$work/out-$jobs" 2>/dev/null || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | median | xargs printf '%-40s jobs %s: %6.2f s\n' "$label" "$jobs"
}

for jobs in 1 2; do
  timed "test --against, SML/NJ (16 cases)" "$jobs" "$bin" test specs/15150-s14/handout-small.yaml \
    specs/15150-s14/handout-big.yaml --jobs "$jobs" --format json \
    --against 'sml tests/fixtures/sml/alphabeta.sml tests/fixtures/sml/small.sml'
  cp "$work/out-$jobs" "$work/sml-$jobs"
done
cmp -s "$work/sml-1" "$work/sml-2" && echo "  reports identical"

for jobs in 1 2; do
  timed "test --against, Python (S12 cases)" "$jobs" "$bin" test specs/15150-s12 --jobs "$jobs" \
    --format json --against 'python3 tests/fixtures/python/alphabeta_s12.py {tree_json}'
  cp "$work/out-$jobs" "$work/py-$jobs"
done
cmp -s "$work/py-1" "$work/py-2" && echo "  reports identical"

# The class: the Python fixtures and broken programs, as tests/cli_class.rs makes it.
class="$work/class"
mkdir -p "$class/specs"
cp specs/15150-s12/handout-small.yaml "$class/specs/"
fx="$PWD/tests/fixtures/python"
n=0
make() { # kind count
  for _ in $(seq "$2"); do
    local d; d="$class/subs/$(printf 's%02d' $n)-$1"; n=$((n + 1))
    mkdir -p "$d"
    case "$1" in
      correct) cp "$fx/alphabeta_s12.py" "$d/alphabeta.py" ;;
      buggy) cp "$fx/alphabeta_s12_buggy.py" "$d/alphabeta.py" ;;
      crash) echo "raise RuntimeError('boom')" > "$d/alphabeta.py" ;;
      loop) printf 'while True:\n    pass\n' > "$d/alphabeta.py" ;;
      flood) printf "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n" > "$d/alphabeta.py" ;;
      spawner) { echo "import subprocess"; echo "subprocess.Popen(['sleep', '600'])"; cat "$fx/alphabeta_s12.py"; } > "$d/alphabeta.py" ;;
      empty) ;;
    esac
  done
}
make correct 20; make buggy 10; make crash 5; make loop 5; make flood 5; make empty 3; make spawner 2
cd "$class"
for jobs in 1 2 4; do
  timed "grade, 50 submissions" "$jobs" "$bin" grade subs --against 'python3 alphabeta.py {tree_json}' \
    --specs specs --timeout 1 --jobs "$jobs" --out "grades-$jobs"
done
diff -r grades-1/reports grades-2/reports >/dev/null && cmp -s grades-1/gradebook.csv grades-4/gradebook.csv \
  && echo "  reports and gradebooks identical"

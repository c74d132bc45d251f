#!/usr/bin/env bash
# Builds the `pip install gametrace` wheel with maturin, installs it into a fresh virtualenv,
# and grades a CSC148 strategy and a CS188 multiAgents.py with it with no Rust toolchain on
# PATH: what a CSC148 or CS188 TA does.
# Usage: scripts/wheel-check.sh [WORKDIR]   (CI runs it; WORKDIR defaults to a temporary one)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
python=$(command -v python3)

# manylinux2014 (glibc 2.17): the wheel installs on every Linux a course uses, linked by zig
# (from the Python package index) against that old glibc. GAMETRACE_WHEEL_TARGET builds for
# another system, built only, as it cannot run here: aarch64-unknown-linux-gnu,
# x86_64-apple-darwin and aarch64-apple-darwin (linked by zig too), x86_64-pc-windows-gnu
# (linked by mingw-w64, Debian's gcc-mingw-w64-x86-64).
target=${GAMETRACE_WHEEL_TARGET:-x86_64-unknown-linux-gnu}
case $target in
  *-linux-gnu) link=(--zig --compatibility manylinux2014); tag='*manylinux_2_17*' ;;
  *-apple-darwin) link=(--zig); tag='*macosx_*' ;;
  *-windows-gnu) link=(); tag='*win_amd64*' ;;
  *) echo "wheel-check: no recipe for $target" >&2; exit 2 ;;
esac
echo "== building the wheel (maturin, bindings = \"bin\", $target)"
"$python" -m venv "$work/build-venv"
"$work/build-venv/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2' 'ziglang>=0.11'
if ! rustup target list --installed 2>/dev/null | grep -q "^$target\$"; then
  rustup target add "$target"
fi
rm -rf "$work/dist"
# GAMETRACE_WHEEL_PROFILE=dev builds faster, to check that a target builds and links (CI).
profile=(--release)
[ "${GAMETRACE_WHEEL_PROFILE:-release}" = release ] || profile=(--profile "$GAMETRACE_WHEEL_PROFILE")
PATH="$work/build-venv/bin:$PATH" "$work/build-venv/bin/maturin" build "${profile[@]}" --quiet --locked \
  "${link[@]}" --target "$target" --out "$work/dist"
wheel=$(ls "$work"/dist/gametrace-*.whl)
echo "built $(basename "$wheel")"
# shellcheck disable=SC2053
if [[ $(basename "$wheel") != $tag ]]; then
  echo "wheel-check: the wheel is not tagged for $target: $(basename "$wheel")" >&2
  exit 1
fi
if [ "$target" != x86_64-unknown-linux-gnu ]; then
  echo "wheel-check: built for $target; it cannot be installed and run on this machine"
  exit 0
fi

echo "== installing it into a fresh virtualenv"
rm -rf "$work/venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"

# A TA's shell: the virtualenv first, the system's tools, no Rust toolchain (~/.cargo/bin is
# left out, and we make sure no cargo or rustc is reachable).
export PATH="$work/venv/bin:/usr/local/bin:/usr/bin:/bin"
unset CARGO_HOME RUSTUP_HOME CARGO_TARGET_DIR
if command -v cargo >/dev/null 2>&1 || command -v rustc >/dev/null 2>&1; then
  echo "wheel-check: a Rust toolchain is still on PATH ($(command -v cargo rustc))" >&2
  exit 2
fi
test "$(command -v gametrace)" = "$work/venv/bin/gametrace"

fail() { echo "wheel-check: $*" >&2; exit 1; }
expect() { # expect CODE CMD...: run CMD, which must exit CODE; its output is kept in $out
  local code=$1; shift
  set +e; out=$("$@" 2>&1); local got=$?; set -e
  echo "$out"
  [ "$got" = "$code" ] || fail "\`$*\` exited $got, expected $code"
}

echo "== the binary, directly and through python -m gametrace"
expect 0 gametrace --version
expect 0 python3 -m gametrace --version
expect 0 python3 -c 'import gametrace, os; assert os.path.isfile(gametrace.csc148_adapter()); assert os.path.isfile(gametrace.game_driver()); assert os.path.isfile(gametrace.cs188_driver()); print(gametrace.find_gametrace_bin())'

# A TA's folder: the students' files and nothing of a checkout (no specs/, no adapters/):
# the specs are the ones built into the binary.
ta="$work/ta"
rm -rf "$ta"
mkdir -p "$ta/students"
cp tests/fixtures/python/csc148/strategy_minimax_*.py "$ta/students/"
cp -r tests/fixtures/python/csc148/games/tippy "$ta/students/tippy"
cd "$ta"
test ! -e specs && test ! -e adapters

echo "== the built-in specs"
expect 0 gametrace specs csc148
case $out in *"csc148/subtract-square-grading"*) ;; *) fail "the CSC148 specs are not built in" ;; esac
echo "== gametrace test: every built-in spec, by the release build the wheel ships"
set +e; out=$(gametrace test --color never 2>&1); got=$?; set -e
echo "$out" | tail -n 1
[ "$got" = 0 ] || { echo "$out" | grep -v '^PASS' >&2; fail "the built-in suite exited $got"; }

echo "== grading a CSC148 strategy with the installed adapter (the CSC148 chapter)"
spec=csc148/subtract-square-grading
expect 0 gametrace check "$spec" --case prune-expands-6 \
  --cmd "python3 -m gametrace.csc148 strategy students/strategy_minimax_prune.py StrategyMinimaxPrune {position_json}"
case $out in *"PASS: visited"*) ;; *) fail "the right strategy did not pass" ;; esac
expect 1 gametrace check "$spec" --case prune-expands-6 \
  --cmd "python3 -m gametrace.csc148 strategy students/strategy_minimax_prune_strict.py StrategyMinimaxPrune {position_json}"
case $out in *"with the mistake prune-strict"*) ;; *) fail "the strict prune was not named" ;; esac
expect 0 gametrace test "$spec" \
  --against "python3 -m gametrace.csc148 strategy students/strategy_minimax_memoize.py StrategyMinimaxMemoize {position_json}"
case $out in *"score 4 / 4"*) ;; *) fail "a memoize strategy was not graded on its own cases" ;; esac

echo "== checking a student's Tippy with the installed game driver"
expect 0 gametrace check-game csc148/tippy-rules \
  --cmd "python3 -m gametrace.game students/tippy/tippy_game_state.py TippyGameState"

echo "== grading a CS188 multiAgents.py with python3 -m gametrace.cs188 (the CS188 chapter)"
# The course's folder as a TA has it: test_cases/ and the student's file (gametrace's own
# trees and student here), and the project's modules (the stand-ins, copied as the course's
# would be) for --project.
mkdir -p cs188
cp -r "$root/tests/fixtures/cs188/test_cases" cs188/test_cases
cp "$root/tests/fixtures/cs188/multiAgents.py" cs188/multiAgents.py
cp -rL "$root/adapters/python/cs188" cs188/multiagent
cd cs188
expect 0 gametrace test test_cases/q2 --against 'python3 -m gametrace.cs188 multiAgents.py {tree_json}'
# CS188's points: a question's weight (its CONFIG: 5) when every test of it passes.
case $out in *"6 passed, 0 failed; score 5 / 5"*) ;; *) fail "a right CS188 student did not pass q2" ;; esac
expect 0 gametrace test test_cases/q3 \
  --against 'python3 -m gametrace.cs188 multiAgents.py {tree_json} --project multiagent'
case $out in *"7 passed, 0 failed; score 5 / 5"*) ;; *) fail "a right CS188 student did not pass q3 with --project" ;; esac
# Any Python 3, not only the wheel's: the system's, with no gametrace package importable.
if /usr/bin/python3 -c 'import gametrace' 2>/dev/null; then
  fail "the system's python3 imports gametrace: the check below would prove nothing"
fi
expect 0 gametrace test test_cases/q4 --against '/usr/bin/python3 -m gametrace.cs188 multiAgents.py {tree_json}'
# And the module the wheel installs, run by the wheel's own Python as a TA may type it.
expect 0 python3 -m gametrace.cs188 --help
cd "$ta"

echo "== editing a spec: copied out, then used from disk"
expect 0 gametrace specs copy csc148/subtract-square-grading course
test -f course/specs/csc148/subtract-square-grading.yaml || fail "specs copy wrote nothing"
expect 0 gametrace test course/specs/csc148/subtract-square-grading.yaml \
  --against "python3 -m gametrace.csc148 strategy students/strategy_minimax_memoize.py StrategyMinimaxMemoize {position_json}"

echo "wheel-check: the wheel installs without Rust and grades CSC148 and CS188 students from a folder with no checkout"

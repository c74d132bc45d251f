#!/usr/bin/env bash
# Writes what the release binary prints for every spec under specs/ into OUT_DIR, one file a
# command (stdout, then a line `exit N`; stderr beside it in .err), so that two builds can be
# compared byte for byte (issue 70: a refactor changes no output):
#
#     scripts/outputs.sh /tmp/before     # on the old commit
#     scripts/outputs.sh /tmp/after      # on the new one
#     diff -r /tmp/before /tmp/after
#
# It runs `test` over specs/, and for each spec `cases`, `stats` (table and JSON), and for
# each of its cases `run` (trace and JSON), `show` (the terminal drawing; SVG for the first
# case of each tree spec), `bugs`, and `check` of the case against the next case's expected
# trace (a failure, diagnosed: the catalogue's variants searched and printed). Nothing
# depends on the clock: the searches run with no limit but a case's own `time_limit:`, and
# `stats` counts a game-state tree up to 200000 positions with an hour to do it.
#
# GAMETRACE names the binary (default target/release/gametrace, built by `cargo build
# --release`). Needs only bash and the binary.
set -u
out=${1:?usage: scripts/outputs.sh OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${GAMETRACE:-$root/target/release/gametrace}
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release)" >&2; exit 2; }
mkdir -p "$out"
cd "$root"
export NO_COLOR=1

# run NAME ARGS...: the binary's stdout in NAME, its exit code on a last line, stderr in NAME.err.
run() {
    local name=$1
    shift
    mkdir -p "$(dirname "$out/$name")"
    "$bin" "$@" >"$out/$name" 2>"$out/$name.err"
    echo "exit $?" >>"$out/$name"
}

run test.txt test --color never
for spec in $(find specs -name '*.yaml' | LC_ALL=C sort); do
    base=${spec%.yaml}
    run "$base/cases.txt" cases "$spec"
    counting=(--max-positions 200000 --time-limit 3600)
    run "$base/stats.txt" stats "$spec" "${counting[@]}"
    run "$base/stats.json" stats "$spec" --format json "${counting[@]}"
    names=$(sed -n 's/^  \([^ ]*\).*/\1/p' "$out/$base/cases.txt")
    first=$(echo "$names" | head -n 1)
    expected=expected/${base#specs/}
    for case in $names; do
        run "$base/$case/run.trace" run "$spec" --case "$case"
        run "$base/$case/run.json" run "$spec" --case "$case" --format json
        run "$base/$case/show.txt" show "$spec" --case "$case" --color never
        run "$base/$case/bugs.txt" bugs "$spec" --case "$case"
        # The next case's expected trace (the first's for the last), checked as this case's
        # output: a failure whose diagnosis runs the catalogue's variants.
        next=$(echo "$names" | sed -n "/^$case\$/{n;p;}")
        other=$expected/${next:-$first}.trace
        if [ -f "$other" ]; then
            run "$base/$case/check.txt" check "$spec" --case "$case" --actual "$other"
        fi
    done
    if [ -n "$first" ] && grep -q '^tree:' "$spec"; then
        run "$base/$first/show.svg.txt" show "$spec" --case "$first" --svg "$out/$base/$first/show.svg"
    fi
done

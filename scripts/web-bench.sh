#!/usr/bin/env bash
# The browser page's figures, measured in headless Chromium on this machine: the page's
# loading time from disk (to ready), the module's size (raw and gzipped), and the time to
# check a trace of about 10,000 lines, passing and failing (with the diagnosis), in the page's
# engine; then "Run my code" (the Python runtime's size, its first start, a student's programs
# checked: see the end). Builds the page first (scripts/build-web.sh) and gametrace for the
# traces.
#   scripts/web-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
page="$(bash scripts/build-web.sh target/page | tail -1)"
cargo build --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chrome="$(command -v chromium || command -v chromium-browser || command -v google-chrome)"
browse() { timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$work/profile-$RANDOM" --dump-dom "$1" 2>/dev/null; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $($chrome --version 2>/dev/null | head -1)"
echo "module: $(stat -c %s "$page/gametrace.wasm") bytes, $(gzip -9 -c "$page/gametrace.wasm" | wc -c) gzipped"
for i in 1 2 3 4 5; do
  browse "file://$PWD/$page/index.html" | grep -o 'data-ready-ms="[0-9]*"' | tr -dc '0-9'
  echo
done | sort -n | awk '{a[NR]=$1} END {print "page ready from disk (ms, 5 loads): median " a[3] ", max " a[5]}'

# A generated tree whose minimax trace is about 10,000 lines (4^6 leaves), and that trace
# with its last result line changed.
cat > "$work/big.yaml" <<'SPEC'
title: 10,000 lines
tree: {generate: {branching: 4, depth: 6, seed: 11}}
cases:
  minimax: {algorithm: minimax, depth: 6}
SPEC
./target/debug/gametrace run "$work/big.yaml" --case minimax > "$work/pass.txt"
python3 - "$work" <<'PY'
import json, sys, pathlib
w = pathlib.Path(sys.argv[1])
ok = (w / "pass.txt").read_text()
lines = ok.splitlines(keepends=True)
i = max(k for k, l in enumerate(lines) if l.startswith("Result of"))
lines[i] = lines[i].replace("Result of", "Result for", 1)
(w / "data.js").write_text("const SPEC = %s;\nconst PASS = %s;\nconst FAIL = %s;\n" % (
    json.dumps((w / "big.yaml").read_text()), json.dumps(ok), json.dumps("".join(lines))))
print("trace: %d lines" % len(ok.splitlines()))
PY
cat > "$work/bench.html" <<HTML
<!doctype html><meta charset="utf-8"><body><pre id="result"></pre>
<script src="file://$PWD/$page/gametrace-wasm.js"></script>
<script src="file://$PWD/$page/gametrace.js"></script>
<script src="data.js"></script>
<script>
(async () => {
  await gametrace.load();
  const time = (output) => {
    const runs = [];
    let status;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      status = gametrace.call({ op: "check", spec: SPEC, path: "big.yaml", case: "minimax", output }).status;
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    return status + " median " + runs[3].toFixed(0) + " ms, min " + runs[0].toFixed(0) + " ms";
  };
  document.getElementById("result").textContent =
    "check, 7 runs each: passing " + time(PASS) + "; failing (with the diagnosis) " + time(FAIL);
})();
</script>
HTML
browse "file://$work/bench.html" | grep -o 'check, 7 runs[^<]*' | head -1

# "Run my code": the Python runtime's download and first start, a first CSC148 check, a CS188
# question's checks (every case of specs/cs188/two-ghosts) and a Tippy's check-game, in
# headless Chromium driving the page served by `python3 -m http.server` (as a student serves a
# downloaded folder), through playwright-core (npm, under target/playwright).
echo "python runtime: $(cat "$page"/pyodide/* | wc -c) bytes, $(for f in "$page"/pyodide/*; do gzip -9 -c "$f"; done | wc -c) gzipped (pyodide/), the worker and drivers $(cat "$page"/gametrace-python.js "$page"/gametrace-drivers.js | wc -c) bytes, the games engine $(stat -c %s "$page/gametrace-games.js") bytes ($(gzip -9 -c "$page/gametrace-games.js" | wc -c) gzipped)"
echo "the page without it: $(cat "$page"/index.html "$page"/gametrace.css "$page"/gametrace.js "$page"/gametrace-wasm.js | wc -c) bytes"
pw=target/playwright
[ -f "$pw/node_modules/playwright-core/package.json" ] ||
  npm install --silent --no-audit --no-fund --prefix "$pw" playwright-core@1.65.1 >&2
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$page" > "$work/server.txt" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q port "$work/server.txt" && break; sleep 0.1; done
port="$(grep -o 'port [0-9]*' "$work/server.txt" | cut -d' ' -f2)"
F="$PWD/tests/fixtures"
cat > "$work/scenarios.json" <<JSON
[
 {"name": "first CSC148 check (prune-expands-6)", "course": "csc148", "files": ["$F/python/csc148/strategy_minimax_prune.py"],
  "class": "StrategyMinimaxPrune", "spec": "csc148/subtract-square-grading", "case": "prune-expands-6"},
 {"name": "the same again", "course": "csc148", "files": ["$F/python/csc148/strategy_minimax_prune.py"],
  "class": "StrategyMinimaxPrune", "spec": "csc148/subtract-square-grading", "case": "prune-expands-6"},
 {"name": "a memoize strategy, all its cases", "course": "csc148", "files": ["$F/python/csc148/strategy_minimax_memoize.py"],
  "class": "StrategyMinimaxMemoize", "spec": "csc148/subtract-square-grading", "case": "*"},
 {"name": "a CS188 question's checks (cs188/two-ghosts, every case)", "course": "cs188", "files": ["$F/cs188/multiAgents.py"],
  "spec": "cs188/two-ghosts", "case": "*"},
 {"name": "a Tippy's check-game (tippy-rules)", "course": "csc148-game",
  "files": ["$F/python/csc148/games/tippy_rowcol/tippy_game_state.py", "$F/python/csc148/games/tippy_rowcol/tippy_move.py"],
  "module": "tippy_game_state.py", "class": "TippyGameState", "spec": "csc148/tippy-rules"}
]
JSON
node tests/browser/run-page.mjs "$PWD/$pw" "http://127.0.0.1:$port/" "$work/scenarios.json" "$work/out.json" "$work/shot.png"
python3 - "$work/out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("page ready (served, playwright): %d ms" % r["pageReadyMs"])
for run in r["runs"]:
    cases = ", ".join("%s %s %d ms" % (v["case"], v["status"], v["runMs"]) for v in run["verdicts"][:6])
    print("%s: %d ms from the click (Python started in %d ms, first time only); %s" % (
        run["name"], run["wall"], run["pythonReadyMs"], cases))
PY

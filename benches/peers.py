"""gametrace side by side with its peers: the same positions searched to the same depth by
gametrace, by OpenSpiel (its Python minimax module over pyspiel's C++ games) and by a pure-Python
search written from AIMA's pseudocode; every answer checked against gametrace's before a time
is reported. Run through benches/peers.sh, which builds gametrace and installs open_spiel.

Usage: python3 benches/peers.py GAMETRACE_BINARY [REPEATS]

Times are the best of REPEATS (default 5) wall-clock runs on this machine. gametrace's time
is its whole process (start, spec load, search, JSON out); a peer's is its search alone (the
last row: its YAML load and search), measured in-process after Python and the library are
loaded, so the ratios favour the peers.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GAMETRACE = sys.argv[1]
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def best_of(f):
    """The fastest of REPEATS runs of f, and f's answer (the same every run)."""
    times, answer = [], None
    for _ in range(REPEATS):
        t = time.perf_counter()
        answer = f()
        times.append(time.perf_counter() - t)
    return min(times), answer


def gametrace_json(spec_text, case):
    """gametrace run --format json on a spec: the case's result and the best process time."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(spec_text)
        path = f.name
    try:
        def once():
            out = subprocess.run(
                [GAMETRACE, "run", "--format", "json", "--case", case, path],
                check=True, capture_output=True, text=True).stdout
            return json.loads(out)["cases"][0]
        return best_of(once)
    finally:
        os.unlink(path)


def guess(value):
    """gametrace's value as a number: `Guess: 16` → 16, a draw → 0, a win → ±inf."""
    if value.startswith("Guess: "):
        return int(value[len("Guess: "):].replace("~", "-"))
    return {"Maxie wins!": float("inf"), "Minnie wins!": float("-inf"),
            "It's a draw!": 0}[value]


def load_fixture(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rows = []


def ratio(r):
    """A ratio as the guide prints it: two significant digits, never in exponent form."""
    return f"{r:.0f}" if r >= 10 else f"{r:.2g}"


def row(what, gt_time, gt_answer, peer, peer_time, peer_answer, agree, note=""):
    rows.append((what, gt_time, peer, peer_time, agree, note))
    mark = "same answer" if agree else "ANSWERS DIFFER"
    print(f"{what}: gametrace {gt_time * 1000:.1f} ms ({gt_answer}); {peer} "
          f"{peer_time * 1000:.1f} ms ({peer_answer}); {mark} {note}", flush=True)


# --- tic-tac-toe, whole game, from the empty board ------------------------------------------
TTT = """game: tictactoe
cases:
  minimax: {algorithm: minimax}
  alphabeta: {algorithm: alphabeta}
"""
aima = load_fixture("ttt_aima", os.path.join(ROOT, "tests/fixtures/textbooks/ttt_aima.py"))


def aima_run(prune):
    aima.counts.update(calls=0, evaluations=0)
    aima.seen.clear()
    v, _ = aima.decide(("...", "...", "..."), prune)
    return v, aima.counts["calls"]


gt = {}
for case in ("minimax", "alphabeta"):
    t, r = gametrace_json(TTT, case)
    gt[case] = (t, r)
    pt, (v, calls) = best_of(lambda: aima_run(case == "alphabeta"))
    agree = v == guess(r["value"]) and calls == r["counts"]["aima_expanded_nodes"]
    row(f"tic-tac-toe {case}, empty board", t,
        f"value {r['value']}, {r['counts']['aima_expanded_nodes']} AIMA nodes",
        "pure Python (AIMA pseudocode)", pt, f"value {v}, {calls} nodes", agree)

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax
    have_openspiel = True
except ImportError as e:  # said in the output, and the rows are left out
    print(f"OpenSpiel is not installed ({e}); its rows are left out", flush=True)
    have_openspiel = False

if have_openspiel:
    ttt = pyspiel.load_game("tic_tac_toe")
    pt, (v, a) = best_of(lambda: os_minimax.alpha_beta_search(ttt))
    t, r = gt["alphabeta"]
    row("tic-tac-toe alphabeta, empty board", t, f"value {r['value']}",
        "OpenSpiel alpha_beta_search", pt, f"value {v}", v == guess(r["value"]))
    pt, (v, a) = best_of(
        lambda: os_minimax.expectiminimax(ttt.new_initial_state(), 9, None, 0))
    t, r = gt["minimax"]
    row("tic-tac-toe minimax, empty board", t, f"value {r['value']}",
        "OpenSpiel expectiminimax", pt, f"value {v}", v == guess(r["value"]))

    # --- Connect Four, depth 8 from the empty 7x6 board, the S12 handout's estimator ---------
    def runs(cells, mark, length):
        """Maximal runs of exactly `length` of `mark` in the four directions."""
        count = 0
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for x in range(7):
                for y in range(6):
                    if cells.get((x, y)) != mark or cells.get((x - dx, y - dy)) == mark:
                        continue
                    n = 0
                    while cells.get((x + n * dx, y + n * dy)) == mark:
                        n += 1
                    count += n == length
        return count

    def naive(state):
        """16 a run of two, 64 a run of three, X's (player 0's) positive; scaled into (-1, 1)
        so OpenSpiel's ±1 for a won game ranks above every estimate, as gametrace's wins do."""
        lines = str(state).strip().split("\n")
        cells = {}
        for i, line in enumerate(lines):
            for x, ch in enumerate(line):
                if ch in "xo":
                    cells[(x, len(lines) - 1 - i)] = ch
        def score(m):
            return 16 * runs(cells, m, 2) + 64 * runs(cells, m, 3)
        return (score("x") - score("o")) / 10000

    c4 = pyspiel.load_game("connect_four")
    C4 = """game: connect4
cases:
  alphabeta: {algorithm: alphabeta, depth: 8}
"""
    t, r = gametrace_json(C4, "alphabeta")
    pt, (v, a) = best_of(lambda: os_minimax.alpha_beta_search(
        c4, value_function=naive, maximum_depth=8))
    agree = round(v * 10000) == guess(r["value"])
    row("Connect Four alphabeta depth 8, empty board", t,
        f"value {r['value']}, move {r['best_move']}",
        "OpenSpiel alpha_beta_search", pt, f"value {round(v * 10000)}, move {a}", agree,
        "(the estimator is Python in OpenSpiel's run)")

# --- an explicit tree: a `gametrace new` random tree, branching 6, depth 6 -------------------
spec = subprocess.run([GAMETRACE, "new", "--branching", "6", "--depth", "6", "--seed", "3"],
                      check=True, capture_output=True, text=True).stdout
with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    f.write(spec)
    spec_path = f.name
tree = json.loads(subprocess.run([GAMETRACE, "export", "--to", "json", "--case", "alphabeta",
                                  spec_path], check=True, capture_output=True,
                                 text=True).stdout)["tree"]
os.unlink(spec_path)


def ab_tree(node, maxie, alpha, beta, count):
    """AIMA's alpha-beta on an explicit tree, counting the leaves it evaluates."""
    if "value" in node:
        count[0] += 1
        return node["value"]
    if maxie:
        v = float("-inf")
        for c in node["children"]:
            v = max(v, ab_tree(c, False, alpha, beta, count))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = float("inf")
    for c in node["children"]:
        v = min(v, ab_tree(c, True, alpha, beta, count))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def python_tree():
    count = [0]
    return ab_tree(tree, True, float("-inf"), float("inf"), count), count[0]


t, r = gametrace_json(spec, "alphabeta")
pt, (v, leaves) = best_of(python_tree)
row("explicit tree b6d6 (55 987 nodes) alphabeta", t,
    f"value {r['value']}, {r['terminals_visited']} leaves",
    "pure Python (AIMA alpha-beta), tree already in memory", pt,
    f"value {v}, {leaves} leaves",
    v == guess(r["value"]), "(gametrace's time includes loading the 600 KB YAML spec)")


def as_tree(name, value):
    """A spec's `name: value` as the exported JSON's node: leaves carry `value`."""
    if isinstance(value, dict):
        return {"name": name, "children": [as_tree(k, v) for k, v in value.items()]}
    return {"name": name, "value": value}


try:
    import yaml  # PyYAML, with libyaml's C parser where it is built with it
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def python_load_and_search():
        [(root, children)] = yaml.load(spec, Loader=loader)["tree"].items()
        count = [0]
        return ab_tree(as_tree(root, children), True, float("-inf"), float("inf"), count), count[0]

    pt, (v, leaves) = best_of(python_load_and_search)
    row("explicit tree b6d6, load the spec and alphabeta", t,
        f"value {r['value']}, {r['terminals_visited']} leaves",
        f"PyYAML ({loader.__name__}) and the same Python alpha-beta", pt,
        f"value {v}, {leaves} leaves", v == guess(r["value"]),
        "(both load the same 600 KB YAML text)")

    # The same tree as a teacher's generator script writes it: PyYAML's own dump, its flow
    # mappings wrapped at 80 columns (the shape gametrace's fast path reads since 2026-11-26).
    wrapped = yaml.dump(yaml.load(spec, Loader=loader), Dumper=getattr(yaml, "CSafeDumper",
                        yaml.SafeDumper), sort_keys=False, default_flow_style=None)
    tw, rw = gametrace_json(wrapped, "alphabeta")
    spec = wrapped
    pt, (v, leaves) = best_of(python_load_and_search)
    row("explicit tree b6d6 as yaml.dump writes it, load the spec and alphabeta", tw,
        f"value {rw['value']}, {rw['terminals_visited']} leaves",
        f"PyYAML ({loader.__name__}) and the same Python alpha-beta", pt,
        f"value {v}, {leaves} leaves", v == guess(rw["value"]) and rw == r,
        f"(both load the same {len(wrapped) // 1000} KB YAML text)")
except ImportError as e:
    print(f"PyYAML is not installed ({e}); the load-and-search row is left out", flush=True)

print()
print("| search | gametrace (whole process) | peer | peer's time | peer / gametrace | answers |")
print("|---|---|---|---|---|---|")
for what, t, peer, pt, agree, note in rows:
    print(f"| {what} | {t * 1000:.1f} ms | {peer} | {pt * 1000:.1f} ms | {ratio(pt / t)}× | "
          f"{'same' if agree else 'DIFFER'} |")
if not all(r[4] for r in rows):
    sys.exit(1)

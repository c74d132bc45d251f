#!/usr/bin/env python3
"""Run a CSC148 student's strategy or game_state_tree module on a position from gametrace,
and print what gametrace's `check` reads.

    gametrace check SPEC --case NAME --cmd \
      'python3 adapters/python/gametrace_csc148.py strategy STUDENT.py CLASS {position_json}'
    gametrace check SPEC --case NAME --cmd \
      'python3 adapters/python/gametrace_csc148.py tree game_state_tree.py {position_json}'

`{position_json}` is the case's position and settings, which gametrace fills in:
{"game": "subtract_square", "next_player": "p1", "current_total": 6,
 "case": {"strategy": "StrategyMinimaxPrune", "depth": null, "functions": [...],
          "check": "visited"}}
(Tippy: "size" and "rows", top row first, of ".", "X" and "O").

The student's module imports the course's classes (game_state, subtract_square_state,
tippy_game_state, strategy, ...); it gets gametrace's copies in csc148/ beside this file,
instrumented, whatever copies sit beside it.

strategy: builds the state, calls CLASS().suggest_move(state) and prints (a myopic strategy
gets the case's depth as the student's code takes it: its constructor's argument, an
attribute its search reads, a helper's default; where it cannot be given, `Depth: N (...)`
says the strategy's own, and gametrace grades at that depth)

    Searching p2:5: p2 to move         (--trace: each position the strategy expanded,
                                        that is, called apply_move on; in the order it did)
    Suggested move: 4

tree: builds the state, GameStateNode(state).grow(), calls each function the case names
and prints `node_count: 13`, ... (the value's repr) and `game_description: ...` per game.

Exit status: 0 when the student's code returned; 1 when it raised (the traceback goes to
stderr, so gametrace reports CRASHED with it); 2 for a bad command line. Anything the
student's code prints is passed through: gametrace ignores lines it does not recognise.
Loops are gametrace's to stop (check --timeout).
"""

import argparse
import ast
import importlib.util
import inspect
import json
import os
import re
import sys
import textwrap
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE = os.path.join(HERE, "csc148")


def load_module(path, name):
    """Import the student's file as a module, with the course's classes importable."""
    folder = os.path.dirname(os.path.abspath(path))
    # gametrace's course modules first: the student's own copies must not replace them.
    for p in (folder, COURSE):
        if p in sys.path:
            sys.path.remove(p)
    sys.path.insert(0, folder)
    sys.path.insert(0, COURSE)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise SystemExit("gametrace_csc148: cannot import {}".format(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def build_state(position, base):
    """The course's state object for gametrace's position."""
    game = position.get("game")
    player = position["next_player"]
    if game == "subtract_square":
        import subtract_square_state
        order = position.get("square_order", "largest_first")
        subtract_square_state.SMALLEST_FIRST = order == "smallest_first"
        return subtract_square_state.SubtractSquareState(
            player, current_total=int(position["current_total"]))
    if game == "tippy":
        import tippy_game_state
        tippy_game_state.BASE = base
        rows = [list(r) for r in position["rows"]]
        return tippy_game_state.TippyGameState(
            player, board_size=int(position["size"]), board=rows)
    raise SystemExit("gametrace_csc148: no driver for game {!r}".format(game))


def move_text(move, base):
    """A move as gametrace writes it: `4`, or `(x,y)` counted from 1."""
    if hasattr(move, "amount"):
        return str(move.amount)
    if hasattr(move, "x") and hasattr(move, "y"):
        shift = 1 - base
        return "({},{})".format(move.x + shift, move.y + shift)
    return str(move)


def watch_expansions(out):
    """Prints `Searching <state>: <player> to move` the first time apply_move is called on
    each state object: the positions a strategy expands, in the order it expands them."""
    import game_state
    seen = set()
    keep = []  # the states seen stay alive, so their ids stay unique
    classes = [c for c in _subclasses(game_state.GameState) if "apply_move" in vars(c)]
    for cls in classes:
        original = cls.apply_move

        def apply_move(self, move, _original=original):
            if id(self) not in seen:
                seen.add(id(self))
                keep.append(self)
                out.write("Searching {}: {} to move\n".format(
                    self.abbreviated(), self.next_player))
            return _original(self, move)

        cls.apply_move = apply_move


def _subclasses(cls):
    out = [cls]
    for sub in cls.__subclasses__():
        out.extend(_subclasses(sub))
    return out


def run_strategy(args, position):
    module = load_module(args.module, "student_strategy")
    import subtract_square_state  # noqa: F401  (so its class is watched)
    import tippy_game_state  # noqa: F401
    cls = getattr(module, args.cls, None)
    if cls is None:
        names = [n for n in dir(module) if n.startswith("Strategy")]
        print("gametrace_csc148: {} has no class {} (it has: {})".format(
            args.module, args.cls, ", ".join(names) or "none"), file=sys.stderr)
        return 2
    depth = position.get("case", {}).get("depth")
    if args.depth is not None:
        depth = args.depth
    state = build_state(position, args.base)
    # A case compared by what the strategy visits asks for the trace itself.
    if args.trace or position.get("case", {}).get("check") == "visited":
        watch_expansions(sys.stdout)
    strategy, told = make_strategy(cls, depth)
    if told:
        sys.stdout.write(told + "\n")
        sys.stdout.flush()
    move = strategy.suggest_move(state)
    sys.stdout.write("Suggested move: {}\n".format(move_text(move, args.base)))
    return 0


# The names students give a search's depth.
DEPTH_NAME = re.compile(r"^(depth|n|k|d|limit|lim|max_?depth|max_?level|levels?|"
                        r"look_?ahead|steps?|plies|ply|horizon|remaining|moves?_left|"
                        r"num_?moves|deep|depth_left)$", re.I)


def make_strategy(cls, depth):
    """The student's strategy, and (for a myopic case) how it takes its depth, found as the
    student wrote it: (strategy, a `Depth:` line for gametrace or None).

    Its constructor's depth argument; else an attribute its __init__ sets and its search
    reads (`self.n = 3`); else a helper's default argument (`def minimax(self, state,
    depth=5)`) that suggest_move leaves to its default, changed for the run; else the depth
    cannot be given: a literal its calls pass (`self.best_move(state, n=3)`,
    `gen_move_dict(state, 4)`, `n = 3` then `minimax_move(s, n)`), and gametrace grades at
    that depth and says so."""
    if depth is None:
        return cls(), None
    try:
        params = [p for p in inspect.signature(cls).parameters.values()
                  if p.name not in ("self", "interactive")
                  and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):
        params = []
    named = [p for p in params if DEPTH_NAME.match(p.name)]
    if named:
        return cls(**{named[0].name: depth}), "Depth: {} (given to the strategy as its " \
            "constructor's {})".format(depth, named[0].name)
    if len(params) == 1:
        return cls(**{params[0].name: depth}), "Depth: {} (given to the strategy as its " \
            "constructor's {})".format(depth, params[0].name)
    strategy = cls()
    module = sys.modules.get(cls.__module__)
    source = source_of(module)
    attribute = depth_attribute(strategy, cls, source)
    if attribute:
        setattr(strategy, attribute, depth)
        return strategy, "Depth: {} (given to the strategy as its attribute {}, which " \
            "__init__ sets and its search reads)".format(depth, attribute)
    found = depth_in_calls(cls, module, source)
    if found is None:
        # The course's own way, where a strategy reads one: an attribute named depth.
        strategy.depth = depth
        return strategy, "Depth: unknown (no depth was found in the strategy: not its " \
            "constructor's, not an attribute its search reads, not a helper's argument; " \
            "its `depth` attribute was set, and may be ignored)"
    kind, function, parameter, value, where = found
    if kind == "default":
        set_default(function, parameter, depth)
        return strategy, "Depth: {} (given to the strategy as the default of {}'s {}, " \
            "{} as written; {})".format(depth, function.__name__, parameter, value, where)
    return strategy, "Depth: {} (fixed by the student: {})".format(value, where)


def source_of(module):
    try:
        return textwrap.dedent(inspect.getsource(module))
    except (OSError, TypeError):
        return ""


def depth_attribute(strategy, cls, source):
    """An int attribute __init__ set that the class reads as `self.NAME` elsewhere."""
    ints = [n for n, v in vars(strategy).items()
            if isinstance(v, int) and not isinstance(v, bool)]
    if not ints:
        return None
    ints.sort(key=lambda n: not DEPTH_NAME.match(n))
    for name in ints:
        uses = len(re.findall(r"self\.{}\b".format(re.escape(name)), source))
        sets = len(re.findall(r"self\.{}\s*=[^=]".format(re.escape(name)), source))
        if uses > sets:
            return name
    return None


def depth_in_calls(cls, module, source):
    """Where the strategy's depth is written: a helper's parameter named like a depth whose
    calls from outside it leave it to its default ("default"), or pass a number written in
    the code ("fixed"). (kind, function, parameter, the number, where in words) or None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    functions = {}
    for name, f in inspect.getmembers(cls, inspect.isfunction):
        functions[name] = f
    for name, f in vars(module).items() if module else []:
        if inspect.isfunction(f) and getattr(f, "__module__", None) == module.__name__:
            functions.setdefault(name, f)
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for fname, f in functions.items():
        try:
            params = list(inspect.signature(f).parameters.values())
        except (TypeError, ValueError):
            continue
        for index, p in enumerate(params):
            if not DEPTH_NAME.match(p.name):
                continue
            outside = [c for c in calls_to(tree, fname) if not inside(defs.get(fname), c)]
            if not outside:
                continue
            given = [argument(c, index, p.name, params) for c in outside]
            caller = enclosing(tree, outside[0])
            if all(g is None for g in given):
                if isinstance(p.default, int) and not isinstance(p.default, bool):
                    return ("default", f, p.name, p.default,
                            "{} calls it without one".format(caller or "the strategy"))
                continue
            for c, g in zip(outside, given):
                value = literal(g, enclosing_def(tree, c))
                if value is not None:
                    return ("fixed", f, p.name, value,
                            "{} calls {}(..., {}={}) with the number written in".format(
                                enclosing(tree, c) or "the strategy", fname, p.name, value))
    return None


def calls_to(tree, name):
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if called == name:
                out.append(node)
    return out


def inside(defn, node):
    return defn is not None and any(n is node for n in ast.walk(defn))


def enclosing_def(tree, node):
    best = None
    for d in ast.walk(tree):
        if isinstance(d, ast.FunctionDef) and any(n is node for n in ast.walk(d)):
            if best is None or any(n is d for n in ast.walk(best)):
                best = d
    return best


def enclosing(tree, node):
    d = enclosing_def(tree, node)
    return d.name if d is not None else None


def argument(call, index, name, params):
    """The expression `call` passes for parameter `name` (at `index`), or None."""
    for k in call.keywords:
        if k.arg == name:
            return k.value
    # A method called through self: its first parameter is self.
    shift = 1 if params and params[0].name == "self" else 0
    at = index - shift
    if 0 <= at < len(call.args):
        return call.args[at]
    return None


def literal(expression, function):
    """The int `expression` is: a number, or a name the function assigns one to."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, int):
        return expression.value
    if isinstance(expression, ast.Name) and function is not None:
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == expression.id for t in node.targets):
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, int):
                    return node.value.value
    return None


def set_default(function, parameter, value):
    """Changes `function`'s default for `parameter` to `value` (for this run)."""
    code = function.__code__
    names = code.co_varnames[:code.co_argcount]
    defaults = list(function.__defaults__ or ())
    first = len(names) - len(defaults)
    if parameter in names[first:]:
        defaults[names.index(parameter) - first] = value
        function.__defaults__ = tuple(defaults)
    elif function.__kwdefaults__ and parameter in function.__kwdefaults__:
        function.__kwdefaults__[parameter] = value


def run_tree(args, position):
    module = load_module(args.module, "student_game_state_tree")
    state = build_state(position, args.base)
    functions = position.get("case", {}).get("functions") or [
        "node_count", "leaf_count", "distinct_node_count", "distinct_leaf_count",
        "branching_stats", "outcome_counts", "game_lengths", "game_descriptions"]
    root = module.GameStateNode(state)
    root.grow()
    status = 0
    for name in functions:
        function = getattr(module, name, None)
        if function is None:
            print("gametrace_csc148: {} has no function {}".format(args.module, name),
                  file=sys.stderr)
            status = 1
            continue
        try:
            value = function(root)
        except Exception:  # the student's bug: report it and go on with the others
            print("gametrace_csc148: {} raised:".format(name), file=sys.stderr)
            traceback.print_exc()
            status = 1
            continue
        if name == "game_descriptions":
            for d in value:
                sys.stdout.write("game_description: {}\n".format(d))
        else:
            sys.stdout.write("{}: {!r}\n".format(name, value))
        sys.stdout.flush()
    return status


def main(argv):
    parser = argparse.ArgumentParser(
        description="Run a CSC148 student's strategy or game_state_tree module for gametrace")
    parser.add_argument("--base", type=int, choices=(0, 1), default=1,
                        help="Tippy cells count from 1 (gametrace's) or 0")
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("strategy", help="call suggest_move on the position")
    s.add_argument("module")
    s.add_argument("cls", metavar="CLASS")
    s.add_argument("position", metavar="POSITION_JSON")
    s.add_argument("--trace", action="store_true",
                   help="print each position the strategy expands (a case whose check is"
                        " `visited` asks for it without this flag)")
    s.add_argument("--depth", type=int, help="a myopic strategy's depth (default: the case's)")
    t = sub.add_parser("tree", help="grow the game-state tree and call each function")
    t.add_argument("module")
    t.add_argument("position", metavar="POSITION_JSON")
    args = parser.parse_args(argv)
    try:
        position = json.loads(args.position)
    except ValueError as e:
        print("gametrace_csc148: the position is not JSON ({}): {}".format(e, args.position),
              file=sys.stderr)
        return 2
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    try:
        if args.what == "strategy":
            return run_strategy(args, position)
        return run_tree(args, position)
    except SystemExit:
        raise
    except BaseException:  # the student's code raised: the traceback is the report
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

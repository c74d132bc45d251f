#!/usr/bin/env python3
"""Drive a CSC148 student's GameState for `gametrace check-game` (probe protocol 1).

    gametrace check-game specs/csc148/tippy-rules.yaml --cmd \
      'python3 adapters/python/gametrace_game.py student/tippy_game_state.py TippyGameState'

The student's module is imported by path, with its own folder first on the import path (so
its own move class is the one used) and the course's game_state.py and move.py after it.
Only the course starter's GameState API is used: possible_next_moves, apply_move, winner,
over, next_player, rough_outcome and str(); str_to_move only where the game has one (it is
not in the starter, so without it the parser check is skipped).

The start is built the course's way: as game_view.py does, `TippyGameState('p1',
interactive=True)`, the constructor's own questions (the board's size) answered from the
spec; a Subtract Square start with the course's `SubtractSquareState(p,
current_total=N)`. Where a student's constructor wants something else, the TA gives one
expression for the term, with {player}, {size} and {total} filled in from the spec:

    --construct 'TippyGameState({player}, dimension={size})'

Other positions are reached by moves from the start (gametrace finds them).

Moves are named as gametrace names them, whatever the student's move class: a Subtract
Square move by its amount (`4`), a Tippy move by its cell `(x,y)` counted from 1. The
numbers are read from the move's str(): a Tippy move's first two numbers are its cell, as
(row, column) unless its text names the column first; cells counted from 0 are seen at the
start (--base 0 or 1 says it outright). Tippy's rules look the same under every turn and
mirror of the board, so how a student orders the two numbers cannot change a verdict.

Protocol (docs/probe-protocol.md): a request a line on stdin; every answer is one line
`@gt <JSON>` on stdout. Anything else on stdout (the student's prints) is ignored. When the
student's code raises, the answer is {"raised": "<exception and where>"} and the
conversation goes on.
"""

import argparse
import builtins
import importlib.util
import json
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE = os.path.join(HERE, "csc148")
PROTOCOL = 1


def load_module(path):
    folder = os.path.dirname(os.path.abspath(path))
    for p in (folder, COURSE):
        if p in sys.path:
            sys.path.remove(p)
    # The student's folder first: its own move class must win over gametrace's copy.
    sys.path.insert(0, COURSE)
    sys.path.insert(0, folder)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise SystemExit("gametrace_game: cannot import {}".format(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    # A module may ask its questions as it is imported (a board size read at class level):
    # they get the spec's answer, as the course's game would from the player, never the
    # protocol's lines.
    with answering(os.environ.get("GAMETRACE_SIZE", "4")):
        spec.loader.exec_module(module)
    return module


class answering:
    """While inside, input() answers every question with `value` (and at most a few)."""

    def __init__(self, value):
        self.value = str(value)
        self.asked = 0

    def answer(self, prompt=""):
        self.asked += 1
        if self.asked > 5:
            raise Unbuildable("the game kept asking questions (input() called more than "
                              "5 times)")
        return self.value

    def __enter__(self):
        self.saved = builtins.input
        builtins.input = self.answer
        return self

    def __exit__(self, *exc):
        builtins.input = self.saved
        return False


NUMBER = re.compile(r"-?\d+")


class Unbuildable(Exception):
    """The start cannot be built the course's way; the message says how else."""


class Driver:
    def __init__(self, module, cls, base, construct):
        self.module = module
        self.cls = cls
        self.base = base          # None: seen at the start
        self.construct = construct
        self.game = os.environ.get("GAMETRACE_GAME")
        self.size = int(os.environ.get("GAMETRACE_SIZE", "4"))
        self.column_first = None  # a cell's first number is its column: seen at the start
        self.state = None
        self.stack = []
        self.notes = []

    # Naming -----------------------------------------------------------------------------

    def numbers(self, move):
        return [int(n) for n in NUMBER.findall(str(move))]

    def name(self, move):
        """A move as gametrace names it."""
        if hasattr(move, "amount"):
            return str(move.amount)
        if self.game == "subtract_square":
            found = self.numbers(move)
            return str(found[0]) if found else str(move)
        if hasattr(move, "x") and hasattr(move, "y"):
            base = 1 if self.base is None else self.base
            return "({},{})".format(move.x + 1 - base, move.y + 1 - base)
        found = self.numbers(move)
        base = 1 if self.base is None else self.base
        if len(found) == 1:
            # One number: the cell's place in reading order.
            k = found[0] - base
            return "({},{})".format(k % self.size + 1, k // self.size + 1)
        if len(found) < 2:
            return str(move)
        x, y = (found[0], found[1]) if self.cell_column_first(move) else (found[1], found[0])
        return "({},{})".format(x + 1 - base, y + 1 - base)

    def cell_column_first(self, move):
        """Is a cell's first number its column? Said by its text (`Row: 1 Column: 2`), else
        seen at the start: the number that changes first down the list is the column, as
        cells are listed in reading order. Either way the verdicts are the same (Tippy looks
        the same turned and mirrored); it keeps the move order comparable."""
        text = str(move).lower()
        if "row" in text and "col" in text:
            return text.find("col") < text.find("row")
        return bool(self.column_first)

    def see_start(self, moves):
        """At the start (every cell free): cells counted from 0 name a 0; the number that
        changes between the first two cells is the column."""
        if self.game != "tippy":
            return
        plain = [m for m in moves if not hasattr(m, "x")]
        numbers = [self.numbers(m) for m in plain]
        if self.base is None:
            cells = [n for ns in numbers for n in ns[:2]]
            if cells:
                self.base = 0 if min(cells) == 0 else 1
        if self.column_first is None and len(numbers) >= 2 and all(
                len(ns) >= 2 for ns in numbers[:2]):
            self.column_first = numbers[0][0] != numbers[1][0]

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)

    def find(self, name):
        for m in self.state.possible_next_moves():
            if self.name(m) == name:
                return m
        return None

    # Building the start ---------------------------------------------------------------

    def build(self, position):
        player = position["next_player"]
        values = {"player": repr(player), "size": str(position.get("size", "")),
                  "total": str(position.get("current_total", ""))}
        if self.game == "tippy" and any(c != "." for r in position["rows"] for c in r):
            return None  # gametrace reaches it by moves from the start
        if self.construct:
            expression = self.construct
            for key, value in values.items():
                expression = expression.replace("{" + key + "}", value)
            try:
                return eval(expression, vars(self.module))
            except Exception as e:
                raise Unbuildable("the --construct expression `{}` raised {}".format(
                    expression, where(e))) from e
        if self.game == "subtract_square":
            return self.cls(player, current_total=int(position["current_total"]))
        if self.game == "tippy":
            return self.interactive(player, int(position["size"]))
        return None

    def interactive(self, player, size):
        """As the course's game_view builds a game: interactive=True, and the constructor's
        questions (the board's size) answered with the spec's size."""
        try:
            with answering(size):
                return self.cls(player, interactive=True)
        except Unbuildable:
            raise
        except Exception as e:
            raise Unbuildable(
                "building the start as the course's game_view does, {}({!r}, "
                "interactive=True) answering {} to its questions, raised {}; give the "
                "driver --construct with the expression that builds it, such as "
                "--construct '{}({{player}}, size={{size}})'".format(
                    self.cls.__name__, player, size, where(e), self.cls.__name__)) from e

    def start(self, arg):
        if not arg:
            position = {"next_player": "p1"}
            if self.game == "tippy":
                size = int(os.environ.get("GAMETRACE_SIZE", "4"))
                position.update(size=size, rows=["." * size] * size)
            else:
                return {"error": "a Subtract Square game needs its total: start POSITION"}
        else:
            position = json.loads(arg)
        try:
            state = self.build(position)
        except Unbuildable as e:
            return {"raised": str(e)}
        if state is None:
            return {"error": "cannot set up this position through the constructor"}
        self.state, self.stack = state, []
        return "ok"

    # Asking -----------------------------------------------------------------------------

    def status(self):
        s = self.state
        over = getattr(s, "over", None)
        if over is None:
            over = not s.possible_next_moves()
        if not over:
            return "in_play"
        for p in ("p1", "p2"):
            if s.winner(p):
                return {"winner": p}
        return "draw"

    def handle(self, request):
        what, _, arg = request.partition(" ")
        if what == "start":
            return self.start(arg.strip())
        if self.state is None:
            return {"error": "no game: start first"}
        if what == "moves":
            if self.status() != "in_play":
                # CSC148's games ask for moves only while nobody has won (game_view and the
                # strategies check the winner first): a list here is not judged, only noted.
                if self.state.possible_next_moves():
                    self.note("possible_next_moves still lists moves after the game is won "
                              "(the course's game_view checks the winner first)")
                return []
            moves = self.state.possible_next_moves()
            if not self.stack:
                self.see_start(moves)
            return [self.name(m) for m in moves]
        if what == "notes":
            return self.notes
        if what == "play":
            move = self.find(arg)
            if move is None:
                return {"error": "no move named {} among the moves".format(arg)}
            after = self.state.apply_move(move)
            if after is None:
                return {"raised": "apply_move returned None for {}, a move "
                                  "possible_next_moves offered".format(arg)}
            self.stack.append(self.state)
            self.state = after
            return "ok"
        if what == "undo":
            if not self.stack:
                return {"error": "nothing to undo"}
            self.state = self.stack.pop()
            return "ok"
        if what == "status":
            return self.status()
        if what == "player":
            return self.state.next_player
        if what == "estimate":
            return self.state.rough_outcome()
        if what == "show":
            return str(self.state)
        if what == "parse":
            if not hasattr(self.state, "str_to_move"):
                return {"unsupported": "the game has no str_to_move, and the course's "
                                       "starter does not ask for one"}
            move = self.find(arg)
            if move is None:
                return {"error": "no move named {} among the moves".format(arg)}
            parsed = self.state.str_to_move(str(move))
            return None if parsed is None else self.name(parsed)
        return {"error": "unknown request {!r}".format(what)}


def where(exc):
    """The exception and the innermost line of the student's code it came from."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename) != os.path.abspath(__file__)]
    at = ""
    if mine:
        f = mine[-1]
        at = " in {} ({}, line {})".format(f.name, os.path.basename(f.filename), f.lineno)
    return "{}: {}{}".format(type(exc).__name__, exc, at)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", help="the student's game state module (a .py file)")
    parser.add_argument("cls", metavar="CLASS", help="its GameState class")
    parser.add_argument("--base", type=int, choices=(0, 1), default=None,
                        help="the student's Tippy cells count from 1 or 0 (default: seen "
                             "in the start's moves)")
    parser.add_argument("--construct", metavar="EXPRESSION",
                        help="the expression that builds the start, evaluated in the "
                             "student's module, {player}, {size} and {total} filled in "
                             "(default: the course's way)")
    args = parser.parse_args(argv)
    module = load_module(args.module)
    cls = getattr(module, args.cls, None)
    if cls is None:
        print("gametrace_game: {} has no class {}".format(args.module, args.cls),
              file=sys.stderr)
        return 2
    driver = Driver(module, cls, args.base, args.construct)
    out = sys.stdout
    out.write("@gt " + json.dumps({"protocol": PROTOCOL, "driver": "python-csc148"}) + "\n")
    out.flush()
    for line in sys.stdin:
        request = line.rstrip("\r\n")
        if request == "quit":
            break
        try:
            answer = driver.handle(request)
        except RecursionError as e:
            answer = {"raised": where(e)}
        except Exception as e:  # the student's bug: say so and go on
            answer = {"raised": where(e)}
        out.write("@gt " + json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Drive a CSC148 student's GameState for `gametrace check-game` (probe protocol 1).

    gametrace check-game specs/csc148/tippy-rules.yaml --cmd \
      'python3 adapters/python/gametrace_game.py student/tippy_game_state.py TippyGameState'

The student's module is imported by path, with its own folder first on the import path (so
its own move class, tippy_move.py or subtract_square_move.py, is the one used) and the
course's game_state.py and move.py after it. Only the course's GameState API is used:
possible_next_moves, apply_move, winner, over, next_player, rough_outcome, str_to_move,
__str__.

Protocol (docs/probe-protocol.md): a request a line on stdin; every answer is one line
`@gt <JSON>` on stdout. Anything else on stdout (the student's prints) is ignored.

Moves are named as gametrace names them: a Subtract Square move by its amount (`4`), a Tippy
move by its cell `(x,y)` counted from 1 (--base 0 when the student's cells count from 0).
When the student's code raises, the answer is {"raised": "<exception and where>"} and the
conversation goes on.
"""

import argparse
import importlib.util
import json
import os
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
    spec.loader.exec_module(module)
    return module


class Driver:
    def __init__(self, cls, base):
        self.cls = cls
        self.base = base
        self.state = None
        self.stack = []

    def name(self, move):
        """A move as gametrace names it."""
        if hasattr(move, "amount"):
            return str(move.amount)
        if hasattr(move, "x") and hasattr(move, "y"):
            shift = 1 - self.base
            return "({},{})".format(move.x + shift, move.y + shift)
        return str(move)

    def find(self, name):
        for m in self.state.possible_next_moves():
            if self.name(m) == name:
                return m
        return None

    def build(self, position):
        game = position.get("game")
        player = position["next_player"]
        if game == "subtract_square":
            return self.cls(player, current_total=int(position["current_total"]))
        if game == "tippy":
            size = int(position["size"])
            rows = [list(r) for r in position["rows"]]
            if all(c == "." for r in rows for c in r):
                return self.cls(player, board_size=size)
            try:
                return self.cls(player, board_size=size, board=rows)
            except TypeError:
                return None
        return None

    def start(self, arg):
        if not arg:
            position = {"game": os.environ.get("GAMETRACE_GAME"), "next_player": "p1"}
            if position["game"] == "tippy":
                size = int(os.environ.get("GAMETRACE_SIZE", "4"))
                position.update(size=size, rows=["." * size] * size)
            else:
                return {"error": "a Subtract Square game needs its total: start POSITION"}
        else:
            position = json.loads(arg)
        state = self.build(position)
        if state is None:
            return {"error": "cannot set up this position through the constructor"}
        self.state, self.stack = state, []
        return "ok"

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
            return [self.name(m) for m in self.state.possible_next_moves()]
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
    parser.add_argument("--base", type=int, choices=(0, 1), default=1,
                        help="the student's Tippy cells count from 1 (default) or 0")
    args = parser.parse_args(argv)
    module = load_module(args.module)
    cls = getattr(module, args.cls, None)
    if cls is None:
        print("gametrace_game: {} has no class {}".format(args.module, args.cls),
              file=sys.stderr)
        return 2
    driver = Driver(cls, args.base)
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

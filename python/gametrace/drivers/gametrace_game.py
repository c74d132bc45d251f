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
import inspect
import json
import os
import random
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
        # The first start built (checked at every later start), and the constructor's
        # mutable defaults as written (one appended to on each call shows as changed).
        self.firsts = {}
        self.first_state = None
        self.defaults = mutable_defaults(cls)
        self.listing_keeps = bool(mutable_defaults(getattr(cls, "possible_next_moves", None)))
        self.signature = "{}{}".format(cls.__name__, signature_text(cls))

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

    def build(self, position, seed=0):
        """The state the constructor builds for `position`. Python's `random` is seeded
        first, so a constructor that draws at random builds the same state every time with
        the same seed (and shows itself when the seeds differ)."""
        player = position["next_player"]
        values = {"player": repr(player), "size": str(position.get("size", "")),
                  "total": str(position.get("current_total", ""))}
        random.seed(seed)
        if self.construct:
            expression = fill(self.construct, values)
            try:
                return eval(expression, vars(self.module))
            except Exception as e:
                raise Unbuildable("the --construct expression `{}` raised {}".format(
                    expression, where(e))) from e
        if self.game == "subtract_square":
            try:
                return self.cls(player, current_total=int(position["current_total"]))
            except Exception as e:
                raise Unbuildable(
                    "building the start as the course does, {}({!r}, current_total={}), "
                    "raised {}; {}".format(
                        self.cls.__name__, player, position["current_total"], where(e),
                        self.construct_hint(position))) from e
        if self.game == "tippy":
            return self.interactive(player, int(position["size"]), position)
        return None

    def interactive(self, player, size, position):
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
                "interactive=True) answering {} to its questions, raised {}; {}".format(
                    self.cls.__name__, player, size, where(e),
                    self.construct_hint(position))) from e

    def fingerprint(self, state):
        """What two builds of one start must share: its moves as the game prints them (left
        out when two asks list them differently: that is the listing's fault, judged by
        gametrace, not the constructor's), its text and its player."""
        if self.listing_keeps:
            # A listing that keeps a default list is left alone: every call would change
            # what gametrace then sees of it.
            return None, str(state), getattr(state, "next_player", None)
        try:
            moves = [str(m) for m in state.possible_next_moves()]
            again = [str(m) for m in state.possible_next_moves()]
        except Exception as e:
            raise Unbuildable("asking the start for its moves raised {}".format(
                where(e))) from e
        if moves != again:
            moves = None
        return moves, str(state), getattr(state, "next_player", None)

    def same_start(self, a, b):
        """Two fingerprints of one start agree (moves compared where both were steady)."""
        if a[1:] != b[1:]:
            return False
        return a[0] is None or b[0] is None or a[0] == b[0]

    def shape(self, state, moves):
        """A start's size in words: `a 4×4 board`, `a board of 8 rows of 4`, `a total of
        20`, or its number of moves."""
        if self.game == "subtract_square":
            total = getattr(state, "current_total", None)
            if total is not None:
                return "a total of {}".format(total)
            return "a start with {} moves".format(len(moves))
        rows = board_rows(state)
        if rows is not None:
            count, widths = rows
            if len(set(widths)) == 1 and widths[0] == count:
                return "a {0}×{0} board".format(count)
            if len(set(widths)) == 1:
                return "a board of {} rows of {}".format(count, widths[0])
        k = int(round(len(moves) ** 0.5))
        if k > 0 and k * k == len(moves):
            return "a {0}×{0} board".format(k)
        return "a board with {} free cells".format(len(moves))

    def steady_start(self, position):
        """The start, built so that it cannot lie: the first time, built BUILDS times with
        `random` seeded differently each time (a constructor that draws at random shows
        it; one that grows a shared default shows it too), later compared with that first
        start (a start a game changed shows it). Each start position (its player, size or
        total) is its own."""
        key = (position.get("next_player"), position.get("size"),
               position.get("current_total"))
        if key not in self.firsts:
            builds = [self.one_build(position, 0, raise_at_once=True)]
            first_state, first_shape = builds[0]["state"], builds[0]["shape"]
            if self.first_state is None:
                self.first_state = first_state
            for seed in range(1, BUILDS):
                builds.append(self.one_build(position, seed))
                if not self.same_start(builds[-1]["fp"], builds[0]["fp"]):
                    raise Unbuildable(self.unsteady(builds, position))
            self.firsts[key] = (builds[0]["fp"], first_state, first_shape)
            return self.build(position, 0)
        fp, first_state, first_shape = self.firsts[key]
        later = self.one_build(position, 0)
        if not self.same_start(later["fp"], fp):
            first = {"state": first_state, "fp": fp, "shape": first_shape, "raised": None}
            raise Unbuildable(self.unsteady([first, later], position, after_game=True))
        return later["state"]

    def one_build(self, position, seed, raise_at_once=False):
        """One build of the start, what it shows taken at once (a board shared between
        builds changes under the earlier ones): the state, its fingerprint, its size in
        words, and what raised while asking it (only the first build's raise is the
        game's to answer for)."""
        try:
            state = self.build(position, seed)
            fp = self.fingerprint(state)
        except Unbuildable as e:
            if raise_at_once:
                raise
            return {"state": None, "fp": ("raised", str(e)), "shape": None, "raised": str(e)}
        shape = self.shape(state, fp[0] or [])
        return {"state": state, "fp": fp, "shape": shape, "raised": None}

    def unsteady(self, builds, position, after_game=False):
        """Why the builds differ, in words, the student's bug named where it is one."""
        shapes, counts = [], []
        for b in builds:
            if b["raised"] is None and (not shapes or shapes[-1] != b["shape"]):
                shapes.append(b["shape"])
                counts.append(len(b["fp"][0] or []))
        raised = next((b["raised"] for b in builds if b["raised"]), None)
        if self.construct:
            how = "--construct"
        elif self.game == "tippy":
            how = "the constructor, called as the course's game_view calls it ({}({!r}, " \
                "interactive=True), {} answered to its questions),".format(
                    self.cls.__name__, position.get("next_player"), position.get("size"))
        else:
            how = "the constructor"
        shared = self.mutated_defaults()
        every = [len(b["fp"][0] or []) for b in builds if b["raised"] is None]
        grows = raised is not None or (
            len(every) > 1 and all(y > x for x, y in zip(every, every[1:])))
        hint = self.construct_hint(position)
        seen = ", then ".join("{} ({} moves)".format(s, c) for s, c in zip(shapes[:3], counts[:3]))
        if raised:
            seen += ", then {} when built again".format(
                raised.replace("asking the start for its moves raised", "its moves raised"))
        if shared and (grows or after_game):
            if after_game:
                what = ("the start built after a game is not the first start: {}: {} in "
                        "__init__'s signature is one object shared by every call, and the "
                        "game changed it".format(seen, describe_defaults(shared)))
            else:
                what = ("the start grows each time it is built: {}: {} in __init__'s "
                        "signature is one object shared by every call, and each "
                        "construction adds to it".format(seen, describe_defaults(shared)))
            return {"why": "{}: a shared mutable default (the student's bug: write `=None` "
                           "and make a fresh one inside __init__); {}".format(what, hint),
                    "bug": True, "mistake": "shared-mutable-default"}
        if after_game or raised:
            what = "the start built {} is not the first start: {}".format(
                "after a game" if after_game else "again", seen)
            return {"why": "{}; {}".format(what, hint), "bug": True}
        randomly = ": it picks a random size" if uses_random(self.module) else ""
        if len(shapes) > 1:
            what = "{} gave {}, then {}{}".format(how, shapes[0], shapes[1], randomly)
        else:
            what = "{} gave two different starts, each {}{}".format(how, shapes[0], randomly)
        return {"why": "{}, so there is no one start to compare with the spec's; {}".format(
            what, hint), "bug": False}

    def mutated_defaults(self):
        """The constructor's mutable defaults that no longer hold what they held: (name,
        the default as written) for each."""
        return [(name, written) for name, (obj, before, written) in self.defaults.items()
                if obj != before]

    def construct_hint(self, position):
        """A --construct line that fits the constructor's real signature, tried where it can
        be (it builds the spec's start, the same twice)."""
        tried = self.constructs(position)
        sig = self.signature
        if not tried:
            return ("give the driver --construct with an expression that builds the spec's "
                    "start ({{player}}, {{size}} and {{total}} are filled in); the "
                    "constructor is {}".format(sig))
        expression, works = tried[0]
        if works:
            return ("give the driver --construct '{}' (tried: it builds the spec's start, "
                    "the same each time)".format(expression))
        return ("give the driver --construct '{}' (from the signature {}; it did not build "
                "the spec's start when tried, so adjust it)".format(expression, sig))

    def constructs(self, position):
        """Expressions that may build the start, from __init__'s parameters: one that takes
        a size (or a total), or a board built empty as the first build had it: (expression,
        whether it built the spec's start the same twice), those that did first."""
        try:
            params = list(inspect.signature(self.cls).parameters.values())
        except (TypeError, ValueError):
            return []
        name = self.cls.__name__
        found = []
        rest = [p for p in params[1:] if p.name != "interactive" and p.kind in (
            p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if self.game == "subtract_square":
            for p in rest:
                if re.search(r"total|count|num|value|start|^n$", p.name, re.I):
                    found.append("{}({{player}}, {}={{total}})".format(name, p.name))
        else:
            for p in rest:
                if re.search(r"size|dim|num|^n$|side|width|length", p.name, re.I):
                    found.append("{}({{player}}, {}={{size}})".format(name, p.name))
            for p in rest:
                if re.search(r"board|grid|cells|matrix", p.name, re.I):
                    empty = self.empty_cell(p.name)
                    if empty is not NOTHING:
                        found.append("{}({{player}}, {}=[[{!r}] * {{size}} for _ in "
                                     "range({{size}})])".format(name, p.name, empty))
        tried = [(e, self.try_construct(e, position)) for e in found]
        tried.sort(key=lambda t: not t[1])
        return tried

    def empty_cell(self, attribute):
        """What an empty cell holds in a board the constructor built, read from the state's
        attribute of that name (a list of rows); NOTHING when there is none."""
        state = self.first_state
        if state is None:
            return NOTHING
        rows = getattr(state, attribute, None)
        if isinstance(rows, list) and rows and isinstance(rows[0], list) and rows[0]:
            cell = rows[0][0]
            if cell is None or isinstance(cell, (str, int)):
                return cell
        return NOTHING

    def try_construct(self, expression, position):
        """Whether `expression` builds the spec's start, the same twice."""
        size = position.get("size")
        values = {"player": repr(position.get("next_player", "p1")),
                  "size": str(size or ""), "total": str(position.get("current_total", ""))}
        try:
            with answering(size or 0):
                a = eval(fill(expression, values), vars(self.module))
                b = eval(fill(expression, values), vars(self.module))
            fa, fb = self.fingerprint(a), self.fingerprint(b)
        except Exception:
            return False
        if not self.same_start(fa, fb):
            return False
        if self.game == "tippy" and size:
            return fa[0] is not None and len(fa[0]) == int(size) ** 2
        return True

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
        if self.game == "tippy" and any(c != "." for r in position["rows"] for c in r):
            # A position with pieces: gametrace reaches it by moves from the start.
            return {"error": "cannot set up this position through the constructor"}
        if self.game not in ("tippy", "subtract_square"):
            return {"error": "no way to build a start of {}".format(self.game)}
        try:
            state = self.steady_start(position)
        except Unbuildable as e:
            why = e.args[0]
            if isinstance(why, dict):
                return {"unbuildable": why}
            return {"raised": why}
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


# How many times the first start is built, each with `random` seeded differently.
BUILDS = 6

# No empty cell could be read (None is an empty cell's value in some students' boards).
NOTHING = object()


def fill(expression, values):
    for key, value in values.items():
        expression = expression.replace("{" + key + "}", value)
    return expression


def board_rows(state):
    """(rows, widths of each row) of the first attribute of `state` that is a list of
    lists (the board as most students keep it), else None."""
    for value in vars(state).values():
        if isinstance(value, list) and value and all(isinstance(r, list) for r in value):
            return len(value), [len(r) for r in value]
    return None


def mutable_defaults(cls):
    """The constructor's defaults that are lists, dicts or sets: name -> (the shared
    object, a copy of what it holds now, the default as written)."""
    out = {}
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return out
    for p in params:
        d = p.default
        if isinstance(d, (list, dict, set)):
            try:
                before = type(d)(d)
            except Exception:
                continue
            out[p.name] = (d, before, "`{}={!r}`".format(p.name, d))
    return out


def describe_defaults(shared):
    return " and ".join(written for _, written in shared)


def signature_text(cls):
    try:
        return str(inspect.signature(cls))
    except (TypeError, ValueError):
        return "(...)"


def uses_random(module):
    """Whether the student's module draws at random (it imports random, or names randint,
    randrange, choice or shuffle)."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return False
    return bool(re.search(r"\brandom\b|\brandint\b|\brandrange\b|\bshuffle\b", source))


# What each game's class is called, so that a submission whose names differ is still found.
FITS = {
    "tippy": re.compile(r"tippy", re.I),
    "subtract_square": re.compile(r"subtract|square", re.I),
}

CLASS_LINE = re.compile(r"^class\s+(\w+)\s*\(([^)]*)\)\s*:", re.M)


def fits(name, game):
    pattern = FITS.get(game)
    return pattern is None or bool(pattern.search(name))


def find_module(path, cls_name, game):
    """The student's module file: `path`, or, where the submission has no such file, the
    one .py file beside it that holds a GameState subclass of this game (`tippy_state.py`
    for `tippy_game_state.py`). (path, note) or (None, why not)."""
    if os.path.isfile(path):
        return path, None
    folder = os.path.dirname(path) or "."
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None, ("there is no {} here, and its folder cannot be listed to look for "
                      "another file (the sandbox shows the driver only the files the command "
                      "names: name the student's file, or grade the folder, where the whole "
                      "submission is seen)".format(path))
    for name in names:
        if not name.endswith(".py") or name.startswith("gametrace"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        classes = [c for c, bases in CLASS_LINE.findall(text)
                   if "GameState" in bases and fits(c, game)]
        if classes:
            found.append((name, classes))
    exact = [f for f in found if cls_name in f[1]]
    chosen = exact if exact else found
    if len(chosen) == 1:
        name, classes = chosen[0]
        return os.path.join(folder, name), (
            "the submission has no {}: {} holds {}, which is checked".format(
                os.path.basename(path), name,
                cls_name if cls_name in classes else " and ".join(classes)))
    if not found:
        return None, ("the submission has no {}, and no other .py file in it holds a "
                      "GameState subclass for {}".format(os.path.basename(path), game))
    return None, ("the submission has no {}; several files hold a GameState subclass for "
                  "{}: {}; name one in the command (or the roster)".format(
                      os.path.basename(path), game, ", ".join(
                          "{} ({})".format(n, ", ".join(c)) for n, c in found)))


def is_game_state(value):
    return (inspect.isclass(value) and value.__name__ != "GameState"
            and any(b.__name__ == "GameState" for b in inspect.getmro(value)[1:]))


def find_class(module, path, name, game):
    """The class to check: `name`, or, where the module has none of that name, its one
    GameState subclass that fits the game. (class, note) or (None, why not)."""
    cls = getattr(module, name, None)
    if inspect.isclass(cls):
        return cls, None
    subclasses = sorted({n for n, v in vars(module).items() if is_game_state(v)})
    fitting = [n for n in subclasses if fits(n, game)]
    where_ = os.path.basename(path)
    listed = ", ".join(subclasses) if subclasses else "none"
    if len(fitting) == 1:
        return getattr(module, fitting[0]), (
            "{} has no class {}; its GameState subclasses: {}; {} is checked".format(
                where_, name, listed, fitting[0]))
    if not fitting:
        return None, "{} has no class {}; its GameState subclasses: {}".format(
            where_, name, listed)
    return None, ("{} has no class {}; its GameState subclasses: {}: name the one to check "
                  "in the command (or the roster)".format(where_, name, listed))


def api_gap(cls):
    """Why `cls` is not the Fall 2015 starter's GameState (a later term's API), or None."""
    missing = [m for m in ("possible_next_moves", "apply_move") if not hasattr(cls, m)]
    if not missing:
        return None
    later = [m for m in ("get_possible_moves", "make_move", "is_over", "get_current_player_name")
             if hasattr(cls, m)]
    why = "{} has no {}: it is not the Fall 2015 starter's GameState API".format(
        cls.__name__, " or ".join(missing))
    if later:
        why += " (it has {}, as later terms' starters do)".format(", ".join(later))
    return why + "; check it with a driver for its own term's API"


def greet(out, **more):
    hello = {"protocol": PROTOCOL, "driver": "python-csc148"}
    hello.update(more)
    out.write("@gt " + json.dumps(hello) + "\n")
    out.flush()


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
    # What a roster gives one submission (grade --roster) overrides the command's words.
    module_path = os.environ.get("GAMETRACE_MODULE") or args.module
    cls_name = os.environ.get("GAMETRACE_CLASS") or args.cls
    construct = os.environ.get("GAMETRACE_CONSTRUCT") or args.construct
    base = args.base
    if os.environ.get("GAMETRACE_BASE") in ("0", "1"):
        base = int(os.environ["GAMETRACE_BASE"])
    game = os.environ.get("GAMETRACE_GAME")
    out = sys.stdout
    notes = []
    path, note = find_module(module_path, cls_name, game)
    if path is None:
        greet(out, unusable={"status": "not_found", "why": note})
        return 0
    if note:
        notes.append(note)
    try:
        module = load_module(path)
    except Exception as e:
        greet(out, unusable={"status": "crashed", "why": "importing {} raised {}".format(
            os.path.basename(path), where(e))})
        return 0
    cls, note = find_class(module, path, cls_name, game)
    if cls is None:
        greet(out, unusable={"status": "not_found", "why": note})
        return 0
    if note:
        notes.append(note)
    gap = api_gap(cls)
    if gap:
        greet(out, unusable={"status": "error", "why": gap})
        return 0
    driver = Driver(module, cls, base, construct)
    greet(out, notes=notes)
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

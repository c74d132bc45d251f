#!/usr/bin/env python3
"""Run a Berkeley CS188 student's multiAgents.py, as it is, on a game tree from gametrace,
and print what gametrace's `check` reads.

    gametrace check TEST.test --cmd \
      'python3 adapters/python/gametrace_cs188.py multiAgents.py {tree_json}'
    gametrace test test_cases/q2 --against \
      'python3 -m gametrace.cs188 multiAgents.py {trees}'

`{tree_json}` is the case's tree and settings (`gametrace export --to json`), which gametrace
writes for the command: the tree with its actions, values, win and lose states, the agents,
the algorithm and the depth in rounds. With `{trees}` (`-` here) gametrace starts the driver
once and sends it every tree on stdin (see `serve` below): the same output for each tree,
without a Python and an import per tree.

It does what the course's autograder does for a GraphGameTreeTest: imports multiAgents.py
(with `random.seed(0)`, as autograder.py seeds it), builds the agent class of the case's
algorithm (`MinimaxAgent`, `AlphaBetaAgent`, `ExpectimaxAgent`) as `Class(depth=depth)`, so
the evaluation function is the student's default (`scoreEvaluationFunction`), and calls
`getAction` on the start state. The state is CS188's tree state: `getLegalActions(agentIndex)`
(the agent index is ignored, as the course's is), `generateSuccessor(agentIndex, action)` and
the 2021-22 name `getNextState`, `getNumAgents()`, `isWin()`, `isLose()`, `getScore()`;
nothing else (a call of `getPacmanPosition` raises AttributeError, as on the course's tree).
It prints each call that matters, in order, as the course's `VERBOSE` log writes it:

    generateSuccessor(root, 0, pacLeft) -> minLeft
    getScore(A) -> 4.0
    getAction(root) -> pacLeft

The module imports the project's `util`, `game` and `pacman`: gametrace's stand-ins beside
this file (`cs188/`, the project's names and signatures) come first on the path, or the
course's own files with `--project DIR`.

Exit status: 0 when getAction returned; 1 when the student's code raised (the traceback goes
to stderr, and gametrace reports CRASHED with what was printed before) or stopped
(`util.raiseNotDefined()`); 2 for a bad command line.
"""

import argparse
import atexit
import importlib.util
import json
import os
import random
import sys
import tempfile
import threading
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_INS = os.path.join(HERE, "cs188")

CLASSES = {
    "minimax": "MinimaxAgent",
    "alphabeta": "AlphaBetaAgent",
    "expectimax": "ExpectimaxAgent",
}

NO_SCORE = "getScore() called on non-terminal state or before maximum depth achieved."


class Node:
    """A state of the tree: its name, its moves (action -> node, in order), its value."""

    __slots__ = ("name", "moves", "value", "outcome")

    def __init__(self, name, value, outcome):
        self.name = name
        self.moves = {}
        self.value = value
        self.outcome = outcome


def build(doc):
    """The tree of an exported document, as nodes; every node keeps its own moves."""
    def node(j, depth=0):
        if depth > 10000:
            raise SystemExit("gametrace_cs188: the tree is too deep")
        value = j.get("value", j.get("static"))
        n = Node(j["name"], value, j.get("outcome"))
        for i, child in enumerate(j.get("children", [])):
            action = child.get("action", str(i))
            n.moves[action] = node(child, depth + 1)
        return n
    return node(doc["tree"])


class Problem:
    """What the tree states share: the agents, and the log the calls are printed to."""

    def __init__(self, num_agents, out):
        self.num_agents = num_agents
        self.out = out

    def log(self, line):
        self.out.write(line + "\n")
        self.out.flush()


class MultiagentTreeState(object):
    """CS188's tree state (multiagentTestClasses.py), logging the calls the autograder
    counts."""

    def __init__(self, problem, node):
        self.problem = problem
        self.node = node
        self.state = node.name

    def generateSuccessor(self, agentIndex, action):
        successor = self.node.moves[action]  # KeyError, as the course's dictionary raises
        self.problem.log("generateSuccessor(%s, %s, %s) -> %s"
                         % (self.state, agentIndex, action, successor.name))
        return MultiagentTreeState(self.problem, successor)

    def getNextState(self, agentIndex, action):
        return self.generateSuccessor(agentIndex, action)

    def getScore(self):
        if self.node.value is None:
            self.problem.log("getScore(%s) -> Exception: %s" % (self.state, NO_SCORE))
            raise Exception(NO_SCORE)
        score = float(self.node.value)
        self.problem.log("getScore(%s) -> %r" % (self.state, score))
        return score

    def getLegalActions(self, agentIndex=0):
        return list(self.node.moves)

    def isWin(self):
        return self.node.outcome == "win"

    def isLose(self):
        return self.node.outcome == "lose"

    def getNumAgents(self):
        return self.problem.num_agents

    def __repr__(self):
        return self.state


def load_module(path, project):
    """Imports the student's file as the autograder does (`multiAgents`), with the project's
    modules (gametrace's stand-ins, or the course's) first on the path."""
    folder = os.path.dirname(os.path.abspath(path))
    course = os.path.abspath(project) if project else STAND_INS
    for p in (folder, course):
        while p in sys.path:
            sys.path.remove(p)
    sys.path.insert(0, folder)
    sys.path.insert(0, course)
    random.seed(0)
    spec = importlib.util.spec_from_file_location("multiAgents", path)
    if spec is None:
        raise SystemExit("gametrace_cs188: cannot import {}".format(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    parser = argparse.ArgumentParser(
        description="Run a CS188 student's multiAgents.py on a gametrace tree")
    parser.add_argument("module", metavar="multiAgents.py")
    parser.add_argument("tree", metavar="TREE_JSON",
                        help="{tree_json}: the case's tree file; or - ({trees} when gametrace"
                             " serves): every tree of the run, one request a line on stdin")
    parser.add_argument("--project", metavar="DIR",
                        help="the course's multiagent folder: its util.py, game.py and pacman.py"
                             " instead of gametrace's stand-ins")
    parser.add_argument("--agent", metavar="CLASS",
                        help="the agent class (default: the case's algorithm's)")
    parser.add_argument("--depth", type=int, help="the depth in rounds (default: the case's)")
    args = parser.parse_args(argv)
    if args.project and not os.path.isfile(os.path.join(args.project, "util.py")):
        print("gametrace_cs188: --project {} has no util.py (give the course's multiagent"
              " folder)".format(args.project), file=sys.stderr)
        return 2
    if args.tree == "-":
        return serve(args)
    try:
        with open(args.tree) as handle:
            doc = json.load(handle)
    except (OSError, ValueError) as e:
        print("gametrace_cs188: cannot read the tree {}: {}".format(args.tree, e), file=sys.stderr)
        return 2
    return run_tree(doc, args, lambda: load_module(args.module, args.project))


def run_tree(doc, args, load):
    """One tree, as the autograder runs a GraphGameTreeTest: `load()` gives the student's
    module (imported here, or once for all trees when serving), a fresh agent searches the
    start state. The exit status: 0, 1 (the student's code raised), 2 (a bad command line).
    Both modes run this, so that what a tree prints (a traceback too) is the same in both."""
    agents = doc.get("agents") or ["max", "min"]
    depth = doc.get("depth", 1)
    if doc.get("depth_unit") != "rounds":
        depth = depth // len(agents)
    if args.depth is not None:
        depth = args.depth
    name = args.agent or CLASSES.get(doc.get("algorithm"))
    if name is None:
        print("gametrace_cs188: no CS188 agent searches {!r}; give --agent".format(
            doc.get("algorithm")), file=sys.stderr)
        return 2
    out = sys.stdout
    problem = Problem(len(agents), out)
    start = MultiagentTreeState(problem, build(doc))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    try:
        module = load()
        cls = getattr(module, name)
        agent = cls(depth=depth)
        action = agent.getAction(start)
    except SystemExit as e:
        out.flush()
        print(stopped(e, args.module), file=sys.stderr)
        raise
    except BaseException:  # the student's code raised: the traceback is the report
        out.flush()
        traceback.print_exc()
        return 1
    problem.log("getAction(%s) -> %s" % (start.state, action))
    return 0


# --- Serving: every tree of a run from one process ({trees}) -------------------------------
#
# gametrace starts the driver once (in the sandbox) with `-` for the tree and writes one
# request a line: {"id": ..., "cap": BYTES, "tree": {tree_json}}. The driver imports the
# student's module once (after random.seed(0)), then answers each request from a forked copy
# of itself: the tree searched as the one-process-per-tree run searches it (the module as it
# was just imported, the random state just after the import, a fresh agent), its stdout and
# stderr caught in files, the import's own output before them. The answer is one line,
# `@gt {"id": ..., "exit": 0|1, "stdout": ..., "stderr": ...}` (the bytes as Latin-1 text),
# or `@gt {"id": ..., "per_case": WHY}` when the copy ended in a way only a run of its own
# reproduces (killed, another exit status, threads or exit handlers left, too much output):
# gametrace then runs that tree in a process of its own. Nothing the student's code prints
# can reach the answers: its stdout is a file, and the answers go to a descriptor it does not
# hold.


def stopped(e, module):
    """What stopped the program, for the report: util.raiseNotDefined() prints its message on
    stdout (read as an ignored line) and calls sys.exit(1); the method left unwritten is named
    here, on stderr, which the report shows."""
    where, last, tb = "", None, e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if os.path.abspath(code.co_filename) == os.path.abspath(module):
            # The class too (Python 3.11's co_qualname): a file has a getAction an agent.
            where = " in {} (line {} of {})".format(
                getattr(code, "co_qualname", code.co_name), tb.tb_lineno,
                os.path.basename(module))
        last, tb = code.co_name, tb.tb_next
    if last == "raiseNotDefined":
        return ("gametrace_cs188: util.raiseNotDefined() stopped the program{}: a method not"
                " written yet".format(where))
    return "gametrace_cs188: the student's code stopped the program (sys.exit({})){}".format(
        e.code, where)


def exit_status(e):
    """The exit status Python gives an uncaught SystemExit (printing a message, as it does)."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write("%s\n" % (code,))
    return 1


def capture_into(out, err, work):
    """Runs `work()` with descriptors 1 and 2 going to the files `out` and `err`."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    try:
        return work()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def contents(f):
    f.flush()
    f.seek(0)
    data = f.read()
    f.seek(0)
    f.truncate()
    return data


def serve(args):
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.dup(1)
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)  # the student's code reads nothing of the requests

    def send(obj):
        data = ("@gt " + json.dumps(obj) + "\n").encode("ascii")
        while data:
            data = data[os.write(answers, data):]

    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    module = None
    why = None

    def load():
        return load_module(args.module, args.project)

    try:
        module = capture_into(out, err, load)
    except BaseException as e:  # the tree's own run shows it: every tree is run alone
        why = "the student's module does not import here ({})".format(type(e).__name__)
    imported = contents(out), contents(err)
    # The CPU time a process of its own would have spent before its tree (Python's start, the
    # import): each tree's copy is charged it, so that a slow import and a search that pass
    # --timeout together are stopped served as they are alone (then run alone for the verdict).
    import resource  # serving forks: never in the page's Pyodide, which runs a tree a process

    usage = resource.getrusage(resource.RUSAGE_SELF)
    spent = usage.ru_utime + usage.ru_stime
    greeting = {"protocol": 1, "driver": "python-cs188"}
    if why:
        greeting["per_case"] = why
    send(greeting)
    handlers = atexit._ncallbacks() if hasattr(atexit, "_ncallbacks") else None
    for line in requests:
        line = line.strip()
        if not line:
            continue
        if line == b"quit":
            break
        try:
            request = json.loads(line.decode("utf-8"))
            ident, doc, cap = request["id"], request["tree"], int(request["cap"])
        except (ValueError, KeyError, TypeError) as e:
            send({"error": "a request is one JSON object with id, cap and tree: {}".format(e)})
            continue
        if module is None:
            send({"id": ident, "per_case": why})
            continue
        try:
            send(serve_tree(ident, doc, cap, args, module, (out, err), (imported, spent),
                            handlers, (answers, requests.fileno())))
        except BrokenPipeError:  # gametrace has gone: nothing to answer
            break
    return 0


def serve_tree(ident, doc, cap, args, module, files, before, handlers, channel):
    """One request, answered from a forked copy of the driver: `files` catch its stdout and
    stderr, `before` is what the import printed and the CPU seconds spent up to then,
    `handlers` the exit handlers there were before, `channel` the descriptors of the requests
    and answers (closed in the copy)."""
    out, err = files
    imported, spent = before
    sys.stdout.flush()
    sys.stderr.flush()
    status_r, status_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: the tree, then its exit status on the pipe, then _exit
        code = 70
        try:
            os.close(status_r)
            for fd in channel:
                os.close(fd)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            # Here, not at the top: the page's Python (Pyodide) has no `resource`, and
            # runs only a tree a process.
            import resource

            soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            limit = cap + 1 if hard == resource.RLIM_INFINITY else min(cap + 1, hard)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
            # A fork starts its CPU time at 0: what is left of the limit after the import
            # (whole seconds, at least 1; a copy stopped early is run alone, so the verdict
            # is the lone run's).
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            if soft != resource.RLIM_INFINITY:
                resource.setrlimit(resource.RLIMIT_CPU, (max(1, int(soft - spent)), hard))
            try:
                code = run_tree(doc, args, lambda: module)
            except SystemExit as e:
                code = exit_status(e)
            sys.stdout.flush()
            sys.stderr.flush()
            alone = threading.active_count() == 1 and (
                handlers is None or atexit._ncallbacks() == handlers)
            if alone:
                os.write(status_w, str(code).encode("ascii"))
        finally:
            os._exit(code)
    os.close(status_w)
    with os.fdopen(status_r, "rb") as pipe:
        said = pipe.read()
    _, status = os.waitpid(pid, 0)
    stdout, stderr = contents(out), contents(err)
    code = int(said) if said.isdigit() else None
    if code not in (0, 1) or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != code:
        return {"id": ident, "per_case": "the tree's process ended in a way of its own"}
    stdout = imported[0] + stdout
    stderr = imported[1] + stderr
    if len(stdout) + len(stderr) > cap:
        return {"id": ident, "per_case": "the tree's output is past the cap"}
    return {"id": ident, "exit": code,
            "stdout": stdout.decode("latin-1"), "stderr": stderr.decode("latin-1")}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

// gametrace's Python worker: runs a student's Python program, through the repository's own
// drivers (gametrace_csc148.py, gametrace_cs188.py, gametrace_game.py), in Pyodide, the
// CPython interpreter compiled to WebAssembly. The page starts it (as a module worker) only
// when the student opens "Run my code", and terminates it when a run goes past its time
// limit. It reads only files of its own folder: Pyodide's, which scripts/build-web.sh puts in
// pyodide/ beside the page, and the drivers, which it writes into gametrace-drivers.js. The
// student's files come in a message and go into Pyodide's memory-only file system; nothing
// is sent anywhere.
//
// Messages in: {op: "run", id, argv, files: {name: text}, data: {name: text}, cap}
//   (argv[0] is a driver's path under /gametrace, files go to the student's folder, the
//   working directory, data to /gametrace/run).
// Messages out: {op: "ready", ms} once Python has started; {op: "started", id} as a run
// begins; {op: "out", id, stream, text} as the program prints (in batches, so what a program
// printed before it was stopped is known); {op: "done", id, exit, flooded, ms};
// {op: "failed", error} when Python cannot start.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { DRIVERS } from "./gametrace-drivers.js";

const RUNNER = String.raw`
import io, json, os, runpy, shutil, sys, time, traceback
import js

_BASE_MODULES = set(sys.modules)
_BASE_PATH = list(sys.path)
STUDENT = "/home/student"


class Flood(BaseException):
    """The program printed more than the page keeps: it is stopped, as --max-output stops it."""


class Stream(io.TextIOBase):
    """What the program prints, sent to the page in batches (so a run stopped for its time
    still shows what it printed), up to a cap."""

    def __init__(self, run_id, name, cap, shared):
        self.run_id, self.name, self.cap, self.shared = run_id, name, cap, shared
        self.parts, self.pending, self.last = [], 0, time.monotonic()

    def writable(self):
        return True

    def write(self, s):
        s = str(s)
        if self.shared["flooded"]:
            raise Flood()
        size = len(s.encode("utf-8", "surrogateescape"))
        if self.name == "stdout" and self.shared["stdout"] + size > self.cap:
            keep = self.cap - self.shared["stdout"]
            s = s.encode("utf-8", "surrogateescape")[:max(0, keep)].decode("utf-8", "ignore")
            self.shared["flooded"] = True
        if self.name == "stdout":
            self.shared["stdout"] += len(s.encode("utf-8", "surrogateescape"))
        self.parts.append(s)
        self.pending += len(s)
        if self.pending > 16384 or time.monotonic() - self.last > 0.1:
            self.flush()
        if self.shared["flooded"]:
            raise Flood()
        return len(s)

    def flush(self):
        if self.parts:
            js.postMessage(js.JSON.parse(json.dumps(
                {"op": "out", "id": self.run_id, "stream": self.name, "text": "".join(self.parts)})))
            self.parts, self.pending, self.last = [], 0, time.monotonic()


def gametrace_files(files_json, data_json):
    """The student's files in their folder (the working directory), the run's data beside."""
    files, data = json.loads(files_json), json.loads(data_json)
    os.chdir("/")
    shutil.rmtree(STUDENT, ignore_errors=True)
    os.makedirs(STUDENT)
    for name, text in files.items():
        with open(os.path.join(STUDENT, os.path.basename(name)), "w", encoding="utf-8") as f:
            f.write(text)
    shutil.rmtree("/gametrace/run", ignore_errors=True)
    os.makedirs("/gametrace/run")
    for name, text in data.items():
        with open(os.path.join("/gametrace/run", name), "w", encoding="utf-8") as f:
            f.write(text)


def fresh():
    """As a fresh process would have it: the modules a run imported (the student's, the
    drivers', the course's classes, which a driver instruments) are forgotten."""
    for name in list(sys.modules):
        if name not in _BASE_MODULES:
            del sys.modules[name]
    sys.path[:] = _BASE_PATH
    for name in [k for k in os.environ if k.startswith("GAMETRACE_")]:
        del os.environ[name]
    os.chdir(STUDENT)


def gametrace_run(run_id, argv_json, files_json, data_json, cap):
    argv = json.loads(argv_json)
    gametrace_files(files_json, data_json)
    fresh()
    shared = {"stdout": 0, "flooded": False}
    out = Stream(run_id, "stdout", cap, shared)
    err = Stream(run_id, "stderr", cap, shared)
    saved = sys.stdout, sys.stderr, sys.argv
    sys.stdout, sys.stderr, sys.argv = out, err, list(argv)
    exit = 0
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            exit = 0
        elif isinstance(e.code, int):
            exit = e.code
        else:
            err.write(str(e.code) + "\n")
            exit = 1
    except Flood:
        exit = None
    except BaseException:
        try:
            traceback.print_exc()
        except Flood:
            pass
        exit = 1
    finally:
        sys.stdout, sys.stderr, sys.argv = saved
        for s in (out, err):
            try:
                s.flush()
            except BaseException:
                pass
    return json.dumps({"exit": exit, "flooded": shared["flooded"]})


# check-game's conversations (the games build of the engine calls gametrace_host): each
# session is the game driver (gametrace_game.py) as a process would run it, its requests
# answered by the driver's own Driver.handle, as its main loop answers them.
_sessions = {}


def _exit_of(e):
    if e.code is None:
        return 0
    return e.code if isinstance(e.code, int) else 1


def _start(argv, env):
    import importlib.util
    fresh()
    for name, value in env:
        os.environ[name] = value
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, sys.stdin, sys.argv
    # main() greets, then reads requests until stdin ends: here it ends at once, and the
    # requests go to the Driver it made, kept.
    sys.stdout, sys.stderr, sys.stdin, sys.argv = out, err, io.StringIO(""), list(argv)
    kept, mod, ended = [], None, None
    try:
        spec = importlib.util.spec_from_file_location("gametrace_game_driver", argv[0])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)

        class Kept(mod.Driver):
            def __init__(self, *a, **k):
                super().__init__(*a, **k)
                kept.append(self)

        mod.Driver = Kept
        code = mod.main(argv[1:])
        if not kept:
            ended = {"exit": code or 0}
    except SystemExit as e:
        ended = {"exit": _exit_of(e)}
    except BaseException:
        traceback.print_exc()
        ended = {"exit": 1}
    finally:
        sys.stdout, sys.stderr, sys.stdin, sys.argv = saved
    sid = len(_sessions) + 1
    _sessions[sid] = {"mod": mod, "driver": kept[0] if kept else None, "err": err,
                      "ended": ended is not None}
    if ended:
        ended["stderr"] = err.getvalue()
    return {"session": sid, "output": out.getvalue(), "ended": ended}


def _converse(sid, text):
    s = _sessions[sid]
    if s["ended"]:
        return {"output": "", "ended": {"exit": 0, "stderr": s["err"].getvalue()}}
    out = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, s["err"]
    ended = None
    try:
        for line in text.splitlines():
            request = line.rstrip("\r\n")
            if request == "quit":
                ended = {"exit": 0}
                break
            try:
                answer = s["driver"].handle(request)
            except RecursionError as e:
                answer = {"raised": s["mod"].where(e)}
            except Exception as e:  # the student's bug: said, and the session goes on
                answer = {"raised": s["mod"].where(e)}
            out.write("@gt " + json.dumps(answer) + "\n")
    except SystemExit as e:
        ended = {"exit": _exit_of(e)}
    except BaseException:
        traceback.print_exc()
        ended = {"exit": 1}
    finally:
        sys.stdout, sys.stderr = saved
    if ended:
        s["ended"] = True
        ended["stderr"] = s["err"].getvalue()
    return {"output": out.getvalue(), "ended": ended}


def gametrace_host(request_json):
    r = json.loads(request_json)
    if r["op"] == "start":
        return json.dumps(_start(r["argv"], r.get("env", [])))
    if r["op"] == "converse":
        return json.dumps(_converse(r["session"], r["input"]))
    if r["op"] == "close":
        s = _sessions.pop(r["session"], None)
        return json.dumps({"stderr": s["err"].getvalue() if s else ""})
    return json.dumps({"error": "no host request " + r["op"]})
`;

let python = null;

async function start() {
  const started = performance.now();
  python = await loadPyodide({
    // A program that reads its input gets end of file, as under `check --cmd`.
    stdin: () => null,
  });
  for (const [path, text] of Object.entries(DRIVERS)) {
    const full = "/gametrace/" + path;
    python.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    python.FS.writeFile(full, text);
  }
  python.runPython(RUNNER);
  postMessage({ op: "ready", ms: performance.now() - started });
}

const ready = start().catch((e) => {
  postMessage({ op: "failed", error: String(e && e.message ? e.message : e) });
  throw e;
});

// The engine's games build (check-game), loaded when a game is first checked; its
// conversations with the student's game come back here, to Python, synchronously.
let games = null;

async function gamesEngine() {
  if (games) return games;
  const { GAMETRACE_GAMES_WASM } = await import("./gametrace-games.js");
  const bin = atob(GAMETRACE_GAMES_WASM);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  let ex = null;
  const host = python.globals.get("gametrace_host");
  const imports = {
    gametrace: {
      gt_host(ptr, len) {
        const request = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, ptr, len));
        const answer = new TextEncoder().encode(host(request));
        const at = ex.gt_alloc(answer.length + 4);
        new DataView(ex.memory.buffer).setUint32(at, answer.length, true);
        new Uint8Array(ex.memory.buffer, at + 4, answer.length).set(answer);
        return at;
      },
    },
  };
  const { instance } = await WebAssembly.instantiate(bytes, imports);
  ex = instance.exports;
  games = (request) => {
    const text = new TextEncoder().encode(JSON.stringify(request));
    const ptr = ex.gt_alloc(text.length);
    new Uint8Array(ex.memory.buffer, ptr, text.length).set(text);
    const answer = ex.gt_request(ptr, text.length);
    const n = new DataView(ex.memory.buffer).getUint32(answer, true);
    const json = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, answer + 4, n));
    ex.gt_free(answer, n + 4);
    return JSON.parse(json);
  };
  return games;
}

onmessage = async (event) => {
  const m = event.data;
  if (m.op === "check-game") {
    await ready;
    const engine = await gamesEngine();
    postMessage({ op: "started", id: m.id });
    const t = performance.now();
    python.globals.get("gametrace_files")(JSON.stringify(m.files || {}), "{}");
    let answer;
    try {
      answer = engine({ op: "check-game", spec: m.spec, path: m.path, argv: m.argv });
    } catch (e) {
      answer = { error: "the checker stopped (" + e + ")" };
    }
    postMessage({ op: "game-done", id: m.id, answer, ms: performance.now() - t });
    return;
  }
  if (m.op !== "run") return;
  await ready;
  postMessage({ op: "started", id: m.id });
  const t = performance.now();
  try {
    const run = python.globals.get("gametrace_run");
    const answer = JSON.parse(run(m.id, JSON.stringify(m.argv), JSON.stringify(m.files || {}),
      JSON.stringify(m.data || {}), m.cap));
    run.destroy();
    postMessage({ op: "done", id: m.id, exit: answer.exit, flooded: answer.flooded, ms: performance.now() - t });
  } catch (e) {
    // Python itself stopped (a stack overflow deep in the student's recursion, say): the run
    // ended abnormally, and this worker is not used again.
    postMessage({ op: "out", id: m.id, stream: "stderr", text: String(e && e.message ? e.message : e) + "\n" });
    postMessage({ op: "done", id: m.id, exit: null, flooded: false, fatal: true, ms: performance.now() - t });
  }
};

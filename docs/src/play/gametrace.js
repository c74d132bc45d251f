// gametrace in the browser. The engine is the gametrace core compiled to WebAssembly
// (gametrace-wasm.js, which scripts/build-web.sh writes, holds it base64, so the page also
// works opened from a file); it answers
// one JSON request at a time (crates/gametrace-web/src/api.rs says which). Nothing is sent
// anywhere: there is no fetch, no form, no analytics in this file.
"use strict";

const gametrace = (() => {
  let engine = null;

  // Compiled at once where the browser allows it (Chromium does, up to 8 MB), so the page is
  // ready when it has loaded; else in the background.
  async function load() {
    if (engine) return engine;
    const bin = atob(GAMETRACE_WASM);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    let instance;
    try {
      instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    } catch (e) {
      instance = (await WebAssembly.instantiate(bytes, {})).instance;
    }
    engine = instance.exports;
    return engine;
  }

  // One request: its JSON written into the module's memory, the answer read back and freed.
  // Should the engine stop (a bug: it has no other way to fail), the request gets an error
  // and a fresh engine is started for the next one.
  function call(request) {
    try {
      return ask(request);
    } catch (e) {
      engine = null;
      load();
      return { error: "the checker stopped on this input (" + e + "); please report it to the gametrace developers with the spec and the output" };
    }
  }

  function ask(request) {
    const ex = engine;
    if (!ex) throw new Error("the checker is restarting");
    const text = new TextEncoder().encode(JSON.stringify(request));
    const ptr = ex.gt_alloc(text.length);
    new Uint8Array(ex.memory.buffer, ptr, text.length).set(text);
    const answer = ex.gt_request(ptr, text.length);
    const len = new DataView(ex.memory.buffer).getUint32(answer, true);
    const json = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, answer + 4, len));
    ex.gt_free(answer, len + 4);
    return JSON.parse(json);
  }

  return { load, call };
})();

// ---- the page ------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function text(el, s) { el.textContent = s; return el; }

function make(tag, attrs = {}, content = "") {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (content) el.textContent = content;
  return el;
}

// Built-in specs are named by their path under specs/ (as `gametrace specs` lists them);
// "editor" is the spec in the Write view.
const state = { specs: [], view: "check", stepLine: 0, stepCount: 0 };
const VIEWS = ["check", "write", "step", "run"];

function specSource(choice) {
  if (choice === "editor") {
    return { spec: $("write-spec").value, path: "my-spec.yaml" };
  }
  const a = gametrace.call({ op: "spec", name: choice });
  if (a.error) return { error: a.error };
  return { spec: a.text, path: a.path };
}

function fillSpecs(select, withEditor) {
  select.replaceChildren();
  if (withEditor) select.append(make("option", { value: "editor" }, "the spec in the Write view"));
  for (const name of state.specs) select.append(make("option", { value: name }, name));
}

function fillCases(specSelect, caseSelect, wanted) {
  const src = specSource(specSelect.value);
  caseSelect.replaceChildren();
  if (src.error) return;
  const a = gametrace.call({ op: "cases", spec: src.spec, path: src.path });
  for (const c of a.cases || []) caseSelect.append(make("option", { value: c }, c));
  if (wanted && (a.cases || []).includes(wanted)) caseSelect.value = wanted;
}

// ---- views and links -----------------------------------------------------------------

function show(view) {
  state.view = view;
  // The Run view's lists are made when it is first shown (the Python runtime only on a run).
  if (view === "run" && !runState.listed) {
    runState.listed = true;
    refreshRunSpecs();
    refreshRunFiles();
  }
  for (const v of VIEWS) {
    const on = v === view;
    $("view-" + v).hidden = !on;
    $("tab-" + v).setAttribute("aria-selected", on ? "true" : "false");
    $("tab-" + v).tabIndex = on ? 0 : -1;
  }
}

function fragment(params) {
  return "#" + Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => k + "=" + encodeURIComponent(v)).join("&");
}

function readFragment() {
  const p = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    p[decodeURIComponent(i < 0 ? part : part.slice(0, i))] = i < 0 ? "" : decodeURIComponent(part.slice(i + 1));
  }
  return p;
}

function updateLinks() {
  const spec = $("check-spec").value;
  $("check-link").href = fragment({ view: "check", spec: spec === "editor" ? undefined : spec, case: $("check-case").value });
  const ws = $("write-start").value;
  $("write-link").href = ws ? fragment({ view: "write", spec: ws }) : fragment({ view: "write", "spec-text": $("write-spec").value });
  const ss = $("step-spec").value;
  $("step-link").href = fragment({ view: "step", spec: ss === "editor" ? undefined : ss, case: $("step-case").value, line: state.stepLine + 1 });
}

// ---- Check ---------------------------------------------------------------------------

function runCheck() {
  const src = specSource($("check-spec").value);
  const out = $("check-result");
  out.hidden = false;
  if (src.error) { showError("check", src.error); return; }
  const started = performance.now();
  const a = gametrace.call({ op: "check", spec: src.spec, path: src.path, case: $("check-case").value, output: $("check-output").value });
  const ms = performance.now() - started;
  text($("check-time"), `checked in ${ms.toFixed(0)} ms`);
  $("check-time").dataset.ms = ms.toFixed(2);
  if (a.error) { showError("check", a.error); return; }
  render("check", a);
  updateLinks();
}

// A check's answer shown in a view's parts (`check-verdict`, ... or `run-verdict`, ...).
function render(view, a) {
  const v = $(view + "-verdict");
  v.className = "verdict " + (a.passed ? "pass" : "fail");
  text(v, `${a.status}: ${a.message}`);
  const m = $(view + "-mistakes");
  m.replaceChildren();
  for (const explanation of a.mistakes || []) {
    const box = make("div", { class: "mistake" });
    const names = explanation.map((n) => n.bug).join(" + ");
    box.append(make("p", {}, `The mistake that prints this output: ${names}`));
    for (const n of explanation) {
      box.append(make("p", {}, n.sentence));
      if (n.handout) box.append(make("p", { class: "hint" }, "The handout: " + n.handout));
    }
    m.append(box);
  }
  text($(view + "-place"), a.place ? "At " + a.place : "");
  const body = $(view + "-rows").tBodies[0];
  body.replaceChildren();
  let marked = false;
  for (const r of a.rows || []) {
    const tr = make("tr", { class: "row-" + r.kind });
    if (!marked && r.kind !== "same" && r.kind !== "gap") {
      tr.classList.add("first");
      tr.id = view === "check" ? "first-divergence" : view + "-first-divergence";
      marked = true;
    }
    const e = r.expected || ["", ""], g = r.actual || ["", ""];
    if (r.kind === "gap") {
      tr.append(make("td", { colspan: "4" }, "…"));
    } else {
      tr.append(make("td", { class: "mark" }, String(e[0])), make("td", {}, e[1]), make("td", {}, String(g[0])), make("td", {}, g[1]));
    }
    body.append(tr);
  }
  $(view + "-rows").hidden = !(a.rows || []).length;
  $(view + "-tree").innerHTML = a.svg || "";
  text($(view + "-report"), a.report);
}

function showError(view, message) {
  const v = $(view + "-verdict");
  v.className = "verdict fail";
  text(v, "Cannot check: " + message.split("\n")[0]);
  $(view + "-mistakes").replaceChildren();
  $(view + "-rows").tBodies[0].replaceChildren();
  $(view + "-tree").replaceChildren();
  text($(view + "-place"), "");
  text($(view + "-report"), message);
}

// ---- Write ---------------------------------------------------------------------------

let writeTimer = null;

function refreshWrite() {
  const spec = $("write-spec").value;
  const lines = spec.split("\n").length;
  text($("write-gutter"), Array.from({ length: lines }, (_, i) => i + 1).join("\n"));
  const a = gametrace.call({ op: "write", spec, path: "my-spec.yaml" });
  const box = $("write-problems");
  box.replaceChildren();
  if (!(a.problems || []).length) box.append(make("p", { class: "ok" }, "No problems: the spec is valid."));
  for (const p of a.problems || []) {
    const div = make("div", { class: "problem " + p.severity });
    if (p.line) {
      const go = make("button", {}, `Go to line ${p.line}, column ${p.column}`);
      go.addEventListener("click", () => goTo(p.line, p.column));
      div.append(go);
    }
    div.append(make("pre", {}, p.text));
    box.append(div);
  }
  $("write-tree").innerHTML = a.svg || "";
  const traces = $("write-traces");
  traces.replaceChildren();
  for (const t of a.traces || []) {
    const d = make("details");
    d.append(make("summary", {}, `case ${t.case} (${t.dialect} dialect): the reference trace`));
    d.append(make("pre", {}, t.trace));
    traces.append(d);
  }
  updateLinks();
}

function goTo(line, column) {
  const ta = $("write-spec");
  const lines = ta.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, column - 1);
  ta.focus();
  ta.setSelectionRange(at, at);
}

// ---- Step ----------------------------------------------------------------------------

function step(to) {
  const src = specSource($("step-spec").value);
  if (src.error) return;
  const a = gametrace.call({ op: "step", spec: src.spec, path: src.path, case: $("step-case").value, line: Math.max(0, to) });
  if (a.error) {
    text($("step-line"), "Cannot step: " + a.error.split("\n")[0]);
    $("step-tree").replaceChildren();
    $("step-trace").replaceChildren();
    return;
  }
  state.stepLine = a.line;
  state.stepCount = a.lines;
  text($("step-line"), `Line ${a.line + 1} of ${a.lines}: ${a.text}`);
  $("step-tree").innerHTML = a.svg;
  const list = $("step-trace");
  list.replaceChildren();
  a.trace.forEach((line, i) => {
    const li = make("li", { class: i < a.line ? "done" : i === a.line ? "now" : "later" }, line);
    if (i === a.line) li.setAttribute("aria-current", "step");
    list.append(li);
  });
  const now = list.querySelector("[aria-current=step]");
  if (now && now.scrollIntoView) now.scrollIntoView({ block: "nearest" });
  updateLinks();
}


// ---- Run my code -----------------------------------------------------------------------
// The student's Python runs in a worker (gametrace-python.js: Pyodide, started only when this
// view is first used), through the repository's drivers, as `check --cmd` runs it; the
// engine above judges what it printed. A run past its time limit is stopped by terminating
// the worker (a fresh one starts for the next run).

const python = (() => {
  let worker = null;
  let ready = null;
  let current = null;
  let nextId = 1;

  function boot() {
    if (location.protocol === "file:") {
      throw new Error("a page opened from a file cannot start the Python runtime: browsers do not let it load its WebAssembly and worker from file:// addresses. In this page's folder run `python3 -m http.server 8000`, then open localhost:8000 in your browser (or use the guide's site)");
    }
    const started = performance.now();
    worker = new Worker("gametrace-python.js", { type: "module" });
    ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const m = event.data;
        if (m.op === "ready") {
          const ms = performance.now() - started;
          document.body.dataset.pythonReadyMs = ms.toFixed(0);
          resolve(ms);
        } else if (m.op === "failed") {
          reject(new Error("the Python runtime did not start: " + m.error));
        } else {
          message(m);
        }
      };
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error("the Python runtime did not start: " + (e.message || "its worker failed to load")));
      };
    });
    return ready;
  }

  function message(m) {
    const c = current;
    if (!c || m.id !== c.id) return;
    if (m.op === "started") {
      c.started = performance.now();
      clearTimeout(c.timer);
      c.timer = setTimeout(() => end({ timeout: c.seconds }), c.seconds * 1000);
    } else if (m.op === "out") {
      c[m.stream] += m.text;
    } else if (m.op === "done") {
      end({ exit: m.exit, flooded: m.flooded });
      if (m.fatal) kill();
    } else if (m.op === "game-done") {
      end({ answer: m.answer });
    }
  }

  function end(how) {
    const c = current;
    if (!c) return;
    current = null;
    clearTimeout(c.timer);
    if (how.timeout !== undefined || how.stopped) kill();
    c.resolve({ stdout: c.stdout, stderr: c.stderr, ms: performance.now() - (c.started || performance.now()), ...how });
  }

  function kill() {
    if (worker) worker.terminate();
    worker = null;
    ready = null;
  }

  // Sends a job; its time limit runs from when the worker starts it, and a worker that does
  // not start it within a minute (a loop it could not leave) is ended too.
  async function send(message, seconds) {
    await (ready || boot());
    return new Promise((resolve) => {
      current = { id: nextId++, stdout: "", stderr: "", seconds, resolve, timer: null, started: 0 };
      current.timer = setTimeout(() => end({ timeout: seconds }), (seconds + 60) * 1000);
      worker.postMessage({ ...message, id: current.id });
    });
  }

  // Runs `job` ({argv, files, data}); resolves to {stdout, stderr, exit | timeout | flooded | stopped, ms}.
  function run(job, seconds, cap) {
    return send({ op: "run", argv: job.argv, files: job.files, data: job.data || {}, cap }, seconds);
  }

  // check-game on the student's game ({spec, path, argv, files}), in the worker: resolves to
  // {answer} (the engine's: report, cases) | {timeout} | {stopped}.
  function checkGame(job, seconds) {
    return send({ op: "check-game", ...job }, seconds);
  }

  return { run, checkGame, start: () => ready || boot(), stop: () => end({ stopped: true }), loaded: () => ready !== null };
})();

// What `check --cmd` kills a program for printing (its --max-output default, 8M).
const OUTPUT_CAP = 8 << 20;

const runState = { files: new Map(), results: [] };

function pyClasses(source) {
  return [...source.matchAll(/^class\s+([A-Za-z_]\w*)\s*[(:]/gm)].map((m) => m[1]);
}

async function addFiles(list) {
  for (const f of list) {
    if (!/\.py$/.test(f.name)) continue;
    runState.files.set(f.name, await f.text());
  }
  refreshRunFiles();
}

function refreshRunFiles() {
  const ul = $("run-file-list");
  ul.replaceChildren();
  for (const [name, source] of runState.files) {
    const li = make("li", {}, `${name} (${source.split("\n").length} lines) `);
    const x = make("button", { "aria-label": "Remove " + name }, "remove");
    x.addEventListener("click", () => { runState.files.delete(name); refreshRunFiles(); });
    li.append(x);
    ul.append(li);
  }
  const course = $("run-course").value;
  const mod = $("run-module");
  const was = mod.value;
  mod.replaceChildren();
  const names = [...runState.files.keys()];
  // The file to run: the one that holds the course's classes.
  const wanted = course === "cs188"
    ? (n) => /class\s+(Minimax|AlphaBeta|Expectimax)Agent\b/.test(runState.files.get(n))
    : course === "csc148-game"
    ? (n) => /def\s+possible_next_moves\b/.test(runState.files.get(n))
    : (n) => /^class\s+\w+\s*\(\s*Strategy\s*\)/m.test(runState.files.get(n)) || pyClasses(runState.files.get(n)).some((c) => c.startsWith("Strategy") && c !== "Strategy");
  names.sort((a, b) => Number(wanted(b)) - Number(wanted(a)));
  for (const n of names) mod.append(make("option", { value: n }, n));
  if (names.includes(was) && wanted(was)) mod.value = was;
  refreshRunClasses();
}

function refreshRunClasses() {
  const course = $("run-course").value;
  $("run-class-label").hidden = course === "cs188";
  const cls = $("run-class");
  const was = cls.value;
  cls.replaceChildren();
  const source = runState.files.get($("run-module").value) || "";
  const classes = pyClasses(source).filter((c) => c !== "Strategy" && c !== "GameState");
  const first = course === "csc148-game" ? (c) => /State$/.test(c) : (c) => c.startsWith("Strategy");
  classes.sort((a, b) => Number(first(b)) - Number(first(a)));
  for (const c of classes) cls.append(make("option", { value: c }, c));
  if (classes.includes(was)) cls.value = was;
  refreshRunCases();
}

function refreshRunSpecs() {
  const course = $("run-course").value;
  const sel = $("run-spec");
  sel.replaceChildren();
  for (const name of state.specs.filter((n) => n.startsWith(course.split("-")[0] + "/"))) {
    const src = specSource(name);
    const a = gametrace.call({ op: "cases", spec: src.spec, path: src.path });
    // A student's game is checked against a game spec's rules (its scenarios).
    if (course === "csc148-game") {
      if (a.kind === "game" && /rules/.test(name)) sel.append(make("option", { value: name }, name));
      continue;
    }
    // The specs whose cases a program is run on (trees, and games with strategies).
    const runnable = (a.cases || []).some((c) => {
      const p = gametrace.call({ op: "plan", spec: src.spec, path: src.path, case: c });
      return !p.error && (p.kind === "tree" || p.strategy);
    });
    if (runnable) sel.append(make("option", { value: name }, name));
  }
  refreshRunCases();
}

// The cases a file's class is graded on, as `gametrace test SPEC --against CMD` picks them:
// a strategy's own cases (a class of another term's name by the course's name it starts with).
function casesFor(src, cls) {
  const a = gametrace.call({ op: "cases", spec: src.spec, path: src.path });
  const plans = (a.cases || []).map((c) => ({ c, p: gametrace.call({ op: "plan", spec: src.spec, path: src.path, case: c }) }))
    .filter(({ p }) => !p.error && (p.kind === "tree" || p.strategy));
  if ($("run-course").value !== "csc148" || !cls) return plans.map(({ c }) => c);
  const own = plans.filter(({ p }) => p.strategy === cls || cls.startsWith(p.strategy));
  return (own.length ? own : plans).map(({ c }) => c);
}

function refreshRunCases() {
  const sel = $("run-case");
  const was = sel.value;
  sel.replaceChildren();
  const name = $("run-spec").value;
  if ($("run-course").value === "csc148-game") {
    sel.append(make("option", { value: "*" }, "every check of check-game (rules, perft, playouts)"));
  } else if (name) {
    const src = specSource(name);
    const cases = casesFor(src, $("run-class").value);
    sel.append(make("option", { value: "*" }, `all ${cases.length} cases of this homework`));
    for (const c of cases) sel.append(make("option", { value: c }, c));
    if ([...sel.options].some((o) => o.value === was)) sel.value = was;
  }
  showRunCommand();
}

// The command line the run stands for: what a student would give `gametrace check --cmd`
// in a folder holding their files (gametrace provides the drivers it names).
function runCommand() {
  const file = $("run-module").value || "FILE.py";
  if ($("run-course").value === "csc148-game") {
    return `python3 adapters/python/gametrace_game.py ${file} ${$("run-class").value || "CLASS"}`;
  }
  if ($("run-course").value === "cs188") {
    return `python3 adapters/python/gametrace_cs188.py ${file} {tree_json}`;
  }
  return `python3 adapters/python/gametrace_csc148.py strategy ${file} ${$("run-class").value || "CLASS"} {position_json}`;
}

function showRunCommand() {
  const c = $("run-case").value;
  if ($("run-course").value === "csc148-game") {
    text($("run-command"), `gametrace check-game ${$("run-spec").value || "SPEC"} --cmd '${runCommand()}' --for-students`);
    return;
  }
  text($("run-command"), `gametrace check ${$("run-spec").value || "SPEC"}${c && c !== "*" ? " --case " + c : ""} --cmd '${runCommand()}' --for-students`);
}

// The driver's arguments for one case, as `check --cmd` fills in the command's placeholders.
function runJob(plan) {
  const file = $("run-module").value;
  const files = Object.fromEntries(runState.files);
  if ($("run-course").value === "cs188") {
    return { argv: ["/gametrace/adapters/python/gametrace_cs188.py", file, "/gametrace/run/tree.json"], files, data: { "tree.json": plan.tree_json } };
  }
  return { argv: ["/gametrace/adapters/python/gametrace_csc148.py", "strategy", file, $("run-class").value, plan.position_json], files };
}

async function runMyCode() {
  const progress = $("run-progress");
  document.body.dataset.runDone = "no";
  const spec = $("run-spec").value;
  const file = $("run-module").value;
  if (!file || !spec) {
    text(progress, !file ? "Choose your Python files first." : "There is no spec for this course.");
    document.body.dataset.runDone = "yes";
    return;
  }
  const src = specSource(spec);
  if ($("run-course").value === "csc148-game") return checkMyGame(src);
  const chosen = $("run-case").value;
  const cases = chosen === "*" ? casesFor(src, $("run-class").value) : [chosen];
  const command = runCommand();
  const seconds = Number($("run-timeout").value);
  $("run-go").disabled = true;
  $("run-stop").disabled = false;
  $("run-result").hidden = false;
  $("run-verdicts").replaceChildren();
  runState.results = [];
  try {
    if (!python.loaded()) text(progress, "Starting Python (the first time takes a few seconds)…");
    await python.start();
    text($("run-runtime"), `Python started in ${(Number(document.body.dataset.pythonReadyMs) / 1000).toFixed(1)} s.`);
    for (const [i, c] of cases.entries()) {
      text(progress, `Running case ${c} (${i + 1} of ${cases.length})…`);
      const plan = gametrace.call({ op: "plan", spec: src.spec, path: src.path, case: c });
      if (plan.error) throw new Error(plan.error);
      const ran = await python.run(runJob(plan), seconds, OUTPUT_CAP);
      if (ran.stopped) { text(progress, "Stopped."); break; }
      const t = performance.now();
      const a = gametrace.call({
        op: "judged", spec: src.spec, path: src.path, case: c, command,
        stdout: ran.stdout, stderr: ran.stderr,
        exit: ran.exit === undefined ? null : ran.exit,
        timeout: ran.timeout === undefined ? null : ran.timeout,
        output_cap: ran.flooded ? OUTPUT_CAP : null,
      });
      const result = { case: c, a, runMs: ran.ms, judgeMs: performance.now() - t };
      runState.results.push(result);
      addVerdict(result, runState.results.length - 1);
    }
    const failed = runState.results.findIndex((r) => !r.a.passed);
    if (runState.results.length) showRunResult(failed >= 0 ? failed : 0);
    const passed = runState.results.filter((r) => r.a.passed).length;
    if (runState.results.length === cases.length) text(progress, `${passed} of ${cases.length} passed.`);
  } catch (e) {
    text(progress, "Cannot run: " + (e && e.message ? e.message : e));
  } finally {
    $("run-go").disabled = false;
    $("run-stop").disabled = true;
    document.body.dataset.runDone = "yes";
  }
}

// `gametrace check-game SPEC --cmd 'python3 adapters/python/gametrace_game.py FILE CLASS'`,
// in the worker (the engine's games build talks to the driver there): every check's verdict.
async function checkMyGame(src) {
  const progress = $("run-progress");
  const seconds = 10 * Number($("run-timeout").value);
  $("run-go").disabled = true;
  $("run-stop").disabled = false;
  $("run-result").hidden = false;
  $("run-verdicts").replaceChildren();
  runState.results = [];
  try {
    if (!python.loaded()) text(progress, "Starting Python (the first time takes a few seconds)…");
    await python.start();
    text($("run-runtime"), `Python started in ${(Number(document.body.dataset.pythonReadyMs) / 1000).toFixed(1)} s.`);
    text(progress, "Checking your game against the rules (scenarios, perft, playouts)…");
    const file = $("run-module").value;
    const ran = await python.checkGame({
      spec: src.spec, path: src.path, files: Object.fromEntries(runState.files),
      argv: ["/gametrace/adapters/python/gametrace_game.py", file, $("run-class").value],
    }, seconds);
    if (ran.stopped) { text(progress, "Stopped."); return; }
    if (ran.timeout !== undefined) {
      text(progress, `TIMEOUT: the check ran past ${seconds} s and was stopped (a game that loops?)`);
      const li = make("li", { "data-case": "check-game", "data-status": "TIMEOUT" }, `TIMEOUT: the check ran past ${seconds} s`);
      $("run-verdicts").append(li);
      return;
    }
    const a = ran.answer;
    if (a.error) throw new Error(a.error);
    for (const c of a.cases) {
      const names = [...(c.message.match(/\[[a-z0-9+:-]+\]/g) || [])];
      const li = make("li", { "data-case": c.name, "data-status": c.status }, `${c.status} ${c.name}: ${c.message}`);
      if (names.length) li.dataset.names = names.join(" ");
      $("run-verdicts").append(li);
    }
    const v = $("run-verdict");
    v.className = "verdict " + (a.exit === 0 ? "pass" : "fail");
    text(v, a.summary);
    $("run-mistakes").replaceChildren();
    text($("run-place"), "");
    $("run-rows").tBodies[0].replaceChildren();
    $("run-rows").hidden = true;
    $("run-tree").replaceChildren();
    text($("run-report"), a.report);
    text(progress, a.summary + ` (${(ran.ms / 1000).toFixed(1)} s)`);
    document.body.dataset.gameMs = ran.ms.toFixed(0);
  } catch (e) {
    text(progress, "Cannot run: " + (e && e.message ? e.message : e));
  } finally {
    $("run-go").disabled = false;
    $("run-stop").disabled = true;
    document.body.dataset.runDone = "yes";
  }
}

function addVerdict(result, index) {
  const a = result.a;
  const li = make("li", { "data-case": result.case, "data-status": a.error ? "ERROR" : a.status, "data-run-ms": result.runMs.toFixed(0), "data-judge-ms": result.judgeMs.toFixed(1) });
  const names = (a.mistakes || []).map((e) => e.map((n) => n.bug).join(" + "));
  const b = make("button", { class: "linklike" }, `${result.case}: ${a.error ? "ERROR: " + a.error.split("\n")[0] : a.status + ": " + a.message}${names.length ? " [" + names.join("; ") + "]" : ""}`);
  b.addEventListener("click", () => showRunResult(index));
  li.append(b);
  $("run-verdicts").append(li);
}

function showRunResult(index) {
  const r = runState.results[index];
  for (const [i, li] of [...$("run-verdicts").children].entries()) li.classList.toggle("shown", i === index);
  if (r.a.error) showError("run", r.a.error);
  else render("run", r.a);
}

function wireRun() {
  $("run-files").addEventListener("change", async (e) => {
    await addFiles(e.target.files);
    // Emptied, so that choosing the same file again (after removing it) is seen.
    e.target.value = "";
  });
  const drop = $("run-drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); addFiles(e.dataTransfer.files); });
  $("run-course").addEventListener("change", () => { refreshRunSpecs(); refreshRunFiles(); });
  $("run-module").addEventListener("change", refreshRunClasses);
  $("run-class").addEventListener("change", refreshRunCases);
  $("run-spec").addEventListener("change", refreshRunCases);
  $("run-case").addEventListener("change", showRunCommand);
  $("run-go").addEventListener("click", runMyCode);
  $("run-stop").addEventListener("click", () => python.stop());
  if (location.protocol === "file:") {
    text($("run-runtime"), "Opened from a file, this page cannot start the Python runtime (browsers do not let a file:// page load it). In this page's folder run `python3 -m http.server 8000`, then open localhost:8000 in your browser; or use the guide's site.");
  }
}

// ---- start ---------------------------------------------------------------------------

function applyFragment() {
  const p = readFragment();
  const view = VIEWS.includes(p.view) ? p.view : "check";
  show(view);
  if (view === "write") {
    if (p.spec && state.specs.includes(p.spec)) {
      $("write-start").value = p.spec;
      $("write-spec").value = specSource(p.spec).spec;
    } else if (p["spec-text"] !== undefined) {
      $("write-spec").value = p["spec-text"];
    }
    refreshWrite();
  } else if (view === "step") {
    if (p.spec && state.specs.includes(p.spec)) $("step-spec").value = p.spec;
    fillCases($("step-spec"), $("step-case"), p.case);
    const line = p.line === "end" ? Number.MAX_SAFE_INTEGER : Math.max(1, parseInt(p.line || "1", 10) || 1) - 1;
    step(line);
  } else {
    if (p.spec && state.specs.includes(p.spec)) $("check-spec").value = p.spec;
    fillCases($("check-spec"), $("check-case"), p.case);
    if (p.output !== undefined) {
      $("check-output").value = p.output;
      runCheck();
    }
  }
  updateLinks();
}

function wire() {
  for (const v of VIEWS) {
    $("tab-" + v).addEventListener("click", () => { show(v); if (v === "step") step(state.stepLine); });
  }
  // Arrow keys move between tabs, as a tab list does.
  $("tab-check").parentElement.addEventListener("keydown", (e) => {
    const order = VIEWS;
    const i = order.indexOf(state.view);
    const n = order.length;
    const next = e.key === "ArrowRight" ? order[(i + 1) % n] : e.key === "ArrowLeft" ? order[(i + n - 1) % n] : null;
    if (next) { show(next); $("tab-" + next).focus(); e.preventDefault(); }
  });
  $("check-spec").addEventListener("change", () => { fillCases($("check-spec"), $("check-case")); updateLinks(); });
  $("check-case").addEventListener("change", updateLinks);
  $("check-run").addEventListener("click", runCheck);
  $("check-output").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) runCheck(); });
  $("write-start").addEventListener("change", () => {
    const c = $("write-start").value;
    if (c) { $("write-spec").value = specSource(c).spec; refreshWrite(); }
  });
  $("write-spec").addEventListener("input", () => {
    $("write-start").value = "";
    clearTimeout(writeTimer);
    writeTimer = setTimeout(refreshWrite, 200);
  });
  $("write-spec").addEventListener("scroll", () => { $("write-gutter").scrollTop = $("write-spec").scrollTop; });
  $("step-spec").addEventListener("change", () => { fillCases($("step-spec"), $("step-case")); step(0); });
  $("step-case").addEventListener("change", () => step(0));
  $("step-first").addEventListener("click", () => step(0));
  $("step-back").addEventListener("click", () => step(state.stepLine - 1));
  $("step-forward").addEventListener("click", () => step(state.stepLine + 1));
  $("step-last").addEventListener("click", () => step(Number.MAX_SAFE_INTEGER));
  $("view-step").addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") return;
    const moves = { ArrowLeft: state.stepLine - 1, ArrowRight: state.stepLine + 1, Home: 0, End: Number.MAX_SAFE_INTEGER };
    if (e.key in moves) { step(moves[e.key]); e.preventDefault(); }
  });
  window.addEventListener("hashchange", applyFragment);
  wireRun();
}

async function start() {
  if (typeof GAMETRACE_WASM === "undefined") {
    text($("engine-status"), "This copy of the page has no checker in it: build it with scripts/build-web.sh, which adds gametrace-wasm.js beside this page.");
    return;
  }
  try {
    await gametrace.load();
  } catch (e) {
    text($("engine-status"), "The checker could not start in this browser: " + e);
    return;
  }
  state.specs = gametrace.call({ op: "specs" }).specs;
  fillSpecs($("check-spec"), true);
  fillSpecs($("step-spec"), true);
  for (const name of state.specs) $("write-start").append(make("option", { value: name }, name));
  $("check-spec").value = state.specs.includes("15150-s14/handout-small") ? "15150-s14/handout-small" : state.specs[0];
  $("step-spec").value = $("check-spec").value;
  $("write-spec").value = "title: My tree\ntree: {a: {b: {c: 3, d: 6}, e: {f: 1, g: 9}}}\ncases:\n  alphabeta: {algorithm: alphabeta}\n";
  wire();
  fillCases($("check-spec"), $("check-case"));
  fillCases($("step-spec"), $("step-case"));
  applyFragment();
  text($("engine-status"), "Ready.");
  // Milliseconds from the start of the page's loading (what scripts/web-bench.sh reports).
  document.body.dataset.readyMs = performance.now().toFixed(0);
  document.body.dataset.ready = "yes";
}

if (document.getElementById("gametrace-app")) {
  start();
}

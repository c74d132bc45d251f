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
  for (const v of ["check", "write", "step"]) {
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
  if (src.error) { showError(src.error); return; }
  const started = performance.now();
  const a = gametrace.call({ op: "check", spec: src.spec, path: src.path, case: $("check-case").value, output: $("check-output").value });
  const ms = performance.now() - started;
  text($("check-time"), `checked in ${ms.toFixed(0)} ms`);
  $("check-time").dataset.ms = ms.toFixed(2);
  if (a.error) { showError(a.error); return; }
  const v = $("check-verdict");
  v.className = "verdict " + (a.passed ? "pass" : "fail");
  text(v, `${a.status}: ${a.message}`);
  const m = $("check-mistakes");
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
  text($("check-place"), a.place ? "At " + a.place : "");
  const body = $("check-rows").tBodies[0];
  body.replaceChildren();
  let marked = false;
  for (const r of a.rows || []) {
    const tr = make("tr", { class: "row-" + r.kind });
    if (!marked && r.kind !== "same" && r.kind !== "gap") {
      tr.classList.add("first");
      tr.id = "first-divergence";
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
  $("check-rows").hidden = !(a.rows || []).length;
  $("check-tree").innerHTML = a.svg || "";
  text($("check-report"), a.report);
  updateLinks();
}

function showError(message) {
  const v = $("check-verdict");
  v.className = "verdict fail";
  text(v, "Cannot check: " + message.split("\n")[0]);
  $("check-mistakes").replaceChildren();
  $("check-rows").tBodies[0].replaceChildren();
  $("check-tree").replaceChildren();
  text($("check-place"), "");
  text($("check-report"), message);
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

// ---- start ---------------------------------------------------------------------------

function applyFragment() {
  const p = readFragment();
  const view = ["check", "write", "step"].includes(p.view) ? p.view : "check";
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
  for (const v of ["check", "write", "step"]) {
    $("tab-" + v).addEventListener("click", () => { show(v); if (v === "step") step(state.stepLine); });
  }
  // Arrow keys move between tabs, as a tab list does.
  $("tab-check").parentElement.addEventListener("keydown", (e) => {
    const order = ["check", "write", "step"];
    const i = order.indexOf(state.view);
    const next = e.key === "ArrowRight" ? order[(i + 1) % 3] : e.key === "ArrowLeft" ? order[(i + 2) % 3] : null;
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

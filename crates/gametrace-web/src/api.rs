//! The requests the page makes, each a JSON object with an `op`:
//!
//! - `specs`: the built-in specs, by name (`15150-s14/handout-small`).
//! - `spec {name}`: a built-in spec's text.
//! - `cases {spec, path}`: the cases of a spec's text that `check` can judge.
//! - `check {spec, path, case, output}`: the verdict, the report, the divergence, the
//!   mistake named and the tree with the output's states marked.
//! - `write {spec, path}`: the problems `validate` finds (with line and column), the tree
//!   drawn and each case's reference trace.
//! - `step {spec, path, case, line}`: the case's trace a line at a time, with the tree as the
//!   search has drawn it by that line.
//! - `plan {spec, path, case}`: what a course driver is handed for the case (`{position_json}`
//!   or `{tree_json}`, its depth, its strategy class), for the page to run the student's
//!   program (in Python, in a worker) as `check --cmd` runs it.
//! - `judged {spec, path, case, command, stdout, stderr, exit, timeout, output_cap}`: how that
//!   run came out, judged as `gametrace check --cmd COMMAND --for-students` judges it: the
//!   same answer as `check`, with the report the command line prints (CRASHED with the end of
//!   stderr, TIMEOUT, OUTPUT-LIMIT, or the output checked).
//! - `check-game {spec, path, argv}` (in crates/gametrace-web-games, which the page's Python worker
//!   loads): `gametrace check-game SPEC --cmd ... --for-students` on the student's game behind
//!   the Python driver that `argv` starts, through the worker ([`gametrace_check_game`]'s
//!   browser sandbox): the report, and each check's verdict.
//!
//! `path` is the name the spec's messages show (`specs/15150-s14/handout-small.yaml` for a
//! built-in spec, as the command line names it when run from a checkout).
//! A request that cannot be answered gets `{"error": text}`, as the command line would say it.

use gametrace_core::check::judge::{blank, case_json, judge_output, Options, MAX_ACTUAL};
use gametrace_core::diff::Palette;
use gametrace_core::draw::{steps::Steps, svg, Picture};
use gametrace_core::report::{check_text, for_students, CaseResult, Status};
use gametrace_core::spec::{self, Case, Diagnostic, Document};
use gametrace_core::trace::LineSet;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The output a check reads at most, as `check --max-input` does by default.
const MAX_OUTPUT: usize = MAX_ACTUAL as usize;

/// Answers one request (see the module's comment) with JSON.
pub fn request(text: &str) -> String {
    let answer = match serde_json::from_str::<Value>(text) {
        Ok(req) => answer(&req).unwrap_or_else(|e| json!({ "error": e })),
        Err(e) => json!({ "error": format!("the request is not JSON: {e}") }),
    };
    answer.to_string()
}

fn answer(req: &Value) -> Result<Value, String> {
    let field = |name: &str| -> Result<&str, String> {
        req.get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the request has no `{name}`"))
    };
    match field("op")? {
        "specs" => Ok(json!({ "specs": builtin_names() })),
        "spec" => {
            let name = field("name")?;
            let path = builtin_path(name).ok_or_else(|| format!("no built-in spec `{name}`"))?;
            let bytes = gametrace_core::builtin::file(&path)
                .ok_or_else(|| format!("no built-in spec `{name}`"))?;
            Ok(json!({
                "text": String::from_utf8_lossy(bytes),
                "path": path.display().to_string(),
            }))
        }
        "cases" => {
            let doc = load(field("spec")?, field("path")?)?;
            Ok(json!({ "cases": doc.checkable_names(), "kind": kind(&doc) }))
        }
        "check" => check(
            field("spec")?,
            field("path")?,
            field("case")?,
            field("output")?,
        ),
        "write" => Ok(write(field("spec")?, field("path")?)),
        "step" => {
            let line = req.get("line").and_then(Value::as_u64).unwrap_or(0) as usize;
            step(field("spec")?, field("path")?, field("case")?, line)
        }
        "plan" => plan(field("spec")?, field("path")?, field("case")?),
        "judged" => {
            let run = Run {
                command: field("command")?,
                stdout: field("stdout")?,
                stderr: req.get("stderr").and_then(Value::as_str).unwrap_or(""),
                exit: req.get("exit").and_then(Value::as_i64),
                timeout: req.get("timeout").and_then(Value::as_f64),
                output_cap: req.get("output_cap").and_then(Value::as_u64),
            };
            judged(field("spec")?, field("path")?, field("case")?, &run)
        }
        #[cfg(all(feature = "games", target_arch = "wasm32"))]
        "check-game" => {
            let argv: Vec<String> = req
                .get("argv")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .ok_or("the request has no `argv`")?;
            check_game(field("spec")?, field("path")?, &argv)
        }
        other => Err(format!("no request `{other}`")),
    }
}

/// Every built-in spec's name: its path under `specs/`, without `.yaml`.
fn builtin_names() -> Vec<String> {
    gametrace_core::builtin::specs_under(Path::new(""))
        .unwrap_or_default()
        .iter()
        .map(|p| {
            let s = p.to_string_lossy();
            s.trim_start_matches("specs/")
                .trim_end_matches(".yaml")
                .to_owned()
        })
        .collect()
}

fn builtin_path(name: &str) -> Option<PathBuf> {
    gametrace_core::builtin::spec_path(Path::new(name))
}

fn kind(doc: &Document) -> &'static str {
    match doc {
        Document::Tree(_) => "tree",
        Document::Game(_) => "game",
        Document::Task(_) => "task",
    }
}

fn load(text: &str, path: &str) -> Result<Document, String> {
    spec::load_str(Path::new(path), text).map_err(|d| d.to_string())
}

/// `gametrace check SPEC --case CASE --actual OUTPUT --for-students`, and what the page shows
/// besides the report: the divergence's rows, the mistake named, the tree marked.
fn check(text: &str, path: &str, case: &str, output: &str) -> Result<Value, String> {
    let doc = load(text, path)?;
    if !doc.case_names().contains(&case) {
        return Err(unknown_case(&doc, case).to_string());
    }
    if output.len() > MAX_OUTPUT {
        return Err(format!(
            "the output is {} bytes, over the {} a check reads",
            output.len(),
            MAX_OUTPUT
        ));
    }
    let result =
        judge_output(&doc, case, output, "your output", OPTIONS).map_err(|d| d.to_string())?;
    Ok(answer_of(result))
}

/// How the page checks: as `check` does by default, with the figure drawn.
const OPTIONS: Options = Options {
    mode: None,
    exact: false,
    palette: Palette { color: false },
    max_input: MAX_ACTUAL,
    diagnose: true,
    figures: true,
    time_limit: std::time::Duration::from_secs(60),
    cut_short: false,
};

/// A check's result as the page shows it: the report `--for-students` prints, and its parts.
fn answer_of(mut result: CaseResult) -> Value {
    for_students(&mut result);
    let report = in_the_browser(&check_text(&result, OPTIONS.palette));
    let figure = result.failure.as_ref().and_then(|f| f.figure.clone());
    let mistakes: Vec<Value> = result
        .diagnosis
        .iter()
        .flat_map(|d| d.explanations.iter())
        .map(|explanation| {
            json!(explanation
                .iter()
                .map(|n| json!({
                    "bug": n.bug,
                    "mistake": n.mistake,
                    "sentence": n.sentence,
                    "handout": n.handout,
                }))
                .collect::<Vec<_>>())
        })
        .collect();
    json!({
        "status": result.status.word(),
        "passed": result.status.passed(),
        "message": result.message,
        "report": report,
        "place": result.failure.as_ref().and_then(|f| f.place.clone()),
        "rows": result.failure.as_ref().map(|f| &f.rows),
        "mistakes": mistakes,
        "diagnosis": result.diagnosis.as_ref().map(|d| in_the_browser(&d.text)),
        "svg": figure,
    })
}

/// What a driver is handed for a case, as `check --cmd` fills in its placeholders.
fn plan(text: &str, path: &str, case: &str) -> Result<Value, String> {
    let doc = load(text, path)?;
    if !doc.case_names().contains(&case) {
        return Err(unknown_case(&doc, case).to_string());
    }
    // What the program is handed comes from the one student view, as on the command line:
    // the case's public part only.
    let handed = |line: &str| {
        gametrace_core::spec::public::handout(&doc, case, line, Some(text))
            .map_err(|d| d.to_string())
    };
    match &doc {
        Document::Tree(spec) => {
            let c = spec.case(case).expect("a case of the spec");
            let h = handed("{depth} {tree_json}")?;
            Ok(json!({
                "kind": "tree",
                "algorithm": c.algorithm.name(),
                "depth": h.depth,
                "tree_json": h.tree_json,
            }))
        }
        Document::Game(g) => {
            let settings =
                gametrace_core::with_game_spec!(g, s => s.case(case).map(|c| case_json(&c.case)));
            let settings = settings.expect("a case of the spec");
            // A game whose driver is not rebuilt from a position has none to hand.
            let h = handed("{depth} {position_json}").or_else(|_| handed("{depth}"))?;
            Ok(json!({
                "kind": "game",
                "algorithm": settings["algorithm"],
                "strategy": settings["strategy"],
                "depth": h.depth,
                "position_json": h.position_json,
            }))
        }
        Document::Task(_) => Err(
            "a task's programs read the spec itself: run them with `gametrace check --cmd`"
                .to_owned(),
        ),
    }
}

/// How the student's program ran in the page.
struct Run<'a> {
    /// The command line the report names (as `check --cmd` was given it).
    command: &'a str,
    stdout: &'a str,
    stderr: &'a str,
    /// Its exit status (`None`: it did not exit by itself).
    exit: Option<i64>,
    /// Stopped after this many seconds.
    timeout: Option<f64>,
    /// Stopped for printing more than this many bytes.
    output_cap: Option<u64>,
}

/// How much of stderr a report shows, as the command line keeps it (the sandbox's tail).
const STDERR_TAIL: usize = 2048;

/// The end of stderr as the command line keeps it: the last 2 KiB, from a line's start.
fn tail(text: &str) -> String {
    let bytes = text.as_bytes();
    let start = bytes.len().saturating_sub(STDERR_TAIL);
    let text = String::from_utf8_lossy(&bytes[start..]).into_owned();
    if start > 0 {
        match text.find('\n') {
            Some(i) => format!("...\n{}", &text[i + 1..]),
            None => format!("...{text}"),
        }
    } else {
        text
    }
}

/// `gametrace check SPEC --case CASE --cmd COMMAND --for-students` on a run the page made:
/// what `src/check/case.rs` says of a command's run, word for word.
fn judged(text: &str, path: &str, case: &str, run: &Run) -> Result<Value, String> {
    let doc = load(text, path)?;
    if !doc.case_names().contains(&case) {
        return Err(unknown_case(&doc, case).to_string());
    }
    let stdout = {
        let s = run.stdout;
        let mut end = s.len().min(MAX_OUTPUT);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        &s[..end]
    };
    // How the run ended, in the words the command line's sandbox uses (the page's time limit
    // is its worker's, on the wall clock).
    let problem = match (run.timeout, run.output_cap, run.exit) {
        (Some(after), _, _) => Some((
            Status::Timeout,
            format!(
                "the implementation ran past the {after} s timeout (the page's, of wall-clock time) and was stopped (with everything it started)"
            ),
        )),
        (None, Some(cap), _) => Some((
            Status::OutputLimit,
            format!(
                "the implementation printed more than {} and was killed (raise it with --max-output)",
                gametrace_core::input::human_bytes(cap)
            ),
        )),
        (None, None, Some(0)) => None,
        (None, None, Some(code)) => Some((
            Status::Crashed,
            format!("the implementation exited with status {code}"),
        )),
        (None, None, None) => Some((
            Status::Crashed,
            "the implementation ended abnormally".to_owned(),
        )),
    };
    let stderr = tail(run.stderr);
    let ended = gametrace_core::check::judge::Ended {
        command: run.command,
        stdout,
        stderr: &stderr,
        problem,
    };
    let r = gametrace_core::check::judge::judge_run(&doc, case, &ended, OPTIONS, blank(&doc, case))
        .map_err(|d| d.to_string())?;
    Ok(answer_of(r))
}

/// A report as the page shows it: a student in the browser has no `gametrace bugs` to run,
/// so the catalogue is the guide's chapter that lists it.
fn in_the_browser(report: &str) -> String {
    report.replace(
        "(`gametrace bugs` lists them)",
        "(the guide's chapter \"Naming the mistake\" lists them)",
    )
}

fn unknown_case(doc: &Document, case: &str) -> Diagnostic {
    let names = doc.case_names();
    Diagnostic::new(doc.path(), format!("no case `{case}` in this spec"))
        .expected(format!("one of {}", names.join(", ")))
        .found(format!("--case {case}"))
}

/// What `validate` says of a spec's text, the tree drawn and each case's trace as `run`
/// prints it (tree specs; a game's search can take long, and stays with `gametrace run`).
fn write(text: &str, path: &str) -> Value {
    let validation = spec::validate_str(Path::new(path), text);
    let problems: Vec<Value> = validation
        .problems
        .iter()
        .map(|d| {
            json!({
                "severity": d.severity.name(),
                "line": d.pos.map(|p| p.line),
                "column": d.pos.map(|p| p.col),
                "message": d.message,
                "text": d.to_string(),
            })
        })
        .collect();
    let mut answer = json!({ "problems": problems, "kind": Value::Null });
    let Some(doc) = &validation.document else {
        return answer;
    };
    answer["kind"] = json!(kind(doc));
    answer["cases"] = json!(doc.checkable_names());
    if let Document::Tree(spec) = doc {
        answer["svg"] = json!(svg::draw(&Picture::new(spec, None)));
        answer["traces"] = spec
            .cases
            .iter()
            .flat_map(in_each_dialect)
            .map(|c| {
                json!({
                    "case": c.name,
                    "dialect": c.dialect.name(),
                    "trace": gametrace_core::run::trace_of(spec, &c),
                })
            })
            .collect();
    }
    answer
}

/// A case in its own dialect, then in each other dialect that prints its rules' search (an
/// S14 or S12 case is also printed as the SML REPL session shows it), with that dialect's
/// every line.
fn in_each_dialect(case: &Case) -> Vec<Case> {
    let mut all = vec![case.clone()];
    let dialects = gametrace_core::course::dialects(case);
    for &d in dialects.iter().filter(|&&d| d != case.dialect) {
        let mut c = case.clone();
        c.dialect = d;
        c.style.lines = LineSet::all_of(d);
        all.push(c);
    }
    all
}

/// `gametrace check-game SPEC --cmd CMD --for-students` (human report, default flags, one
/// driver at a time: the report is the same for any number), the driver started through the
/// page's worker.
#[cfg(all(feature = "games", target_arch = "wasm32"))]
fn check_game(text: &str, path: &str, argv: &[String]) -> Result<Value, String> {
    use gametrace_check_game::sandbox::{Job, Limits, Policy, Scratch};
    use gametrace_core::report::{render, Format};
    let doc = load(text, path)?;
    let Document::Game(g) = &doc else {
        return Err("check-game checks a game, and this spec has none".to_owned());
    };
    let scratch = Scratch::default();
    let policy = Policy::default();
    let driver = gametrace_check_game::Driver {
        job: Job {
            argv,
            words: argv,
            stdin: None,
            dir: None,
            limits: Limits::default(),
            scratch: &scratch,
            policy: &policy,
        },
        env: Vec::new(),
    };
    let options = gametrace_check_game::Options {
        threads: 1,
        ..Default::default()
    };
    let mut report = gametrace_check_game::check_document(g, path, &driver, &options)
        .map_err(|game| format!("check-game cannot check {game} yet"))?;
    for c in &mut report.cases {
        for_students(c);
    }
    let mut text = render(&report, Format::Human, true, OPTIONS.palette);
    if let Some(note) = &report.sandbox {
        text.push_str(&note.line());
        text.push('\n');
    }
    let cases: Vec<Value> = report
        .cases
        .iter()
        .map(|c| {
            json!({
                "name": c.case,
                "status": c.status.word(),
                "passed": c.status.passed(),
                "message": c.message,
            })
        })
        .collect();
    Ok(json!({
        "report": text,
        "summary": report.summary(true),
        "exit": report.exit_code(),
        "cases": cases,
    }))
}

/// Line `line` of a tree case's trace (from 0; past the end, the last), with the tree as the
/// search has drawn it by then.
fn step(text: &str, path: &str, case: &str, line: usize) -> Result<Value, String> {
    let doc = load(text, path)?;
    let Document::Tree(spec) = &doc else {
        return Err(
            "stepping works on tree specs (a `tree:`); a game's search is too big to draw"
                .to_owned(),
        );
    };
    let Some(c) = spec.case(case) else {
        return Err(unknown_case(&doc, case).to_string());
    };
    let steps = Steps::of(spec, c);
    if steps.is_empty() {
        return Err(format!(
            "case `{case}` prints no trace lines to step through"
        ));
    }
    let at = line.min(steps.len() - 1);
    let (text, _) = steps.line(at).expect("a line within the trace");
    Ok(json!({
        "line": at,
        "lines": steps.len(),
        "text": text,
        "trace": (0..steps.len()).map(|k| steps.line(k).map(|l| l.0)).collect::<Vec<_>>(),
        "svg": svg::draw(&steps.picture(at)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(req: Value) -> Value {
        serde_json::from_str(&request(&req.to_string())).unwrap()
    }

    fn handout_small() -> (String, String) {
        let a = ask(json!({"op": "spec", "name": "15150-s14/handout-small"}));
        (
            a["text"].as_str().unwrap().to_owned(),
            a["path"].as_str().unwrap().to_owned(),
        )
    }

    #[test]
    fn the_built_in_specs_are_listed_and_read() {
        let specs = ask(json!({"op": "specs"}));
        let names: Vec<&str> = specs["specs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(names.contains(&"15150-s14/handout-small"), "{names:?}");
        assert!(
            names.contains(&"csc148/subtract-square-grading"),
            "{names:?}"
        );
        let (text, path) = handout_small();
        assert_eq!(path, "specs/15150-s14/handout-small.yaml");
        assert!(text.contains("HandoutSmall"));
    }

    #[test]
    fn a_reference_trace_passes_and_a_changed_line_fails_where_it_changed() {
        let (text, path) = handout_small();
        let doc = load(&text, &path).unwrap();
        let Document::Tree(spec) = &doc else { panic!() };
        let case = spec.case("alphabeta").unwrap();
        let reference = gametrace_core::run::trace_of(spec, case);
        let pass = ask(
            json!({"op": "check", "spec": text, "path": path, "case": "alphabeta", "output": reference}),
        );
        assert_eq!(pass["status"], "PASS", "{pass}");
        // The second line's state changed: the check fails there, on both sides.
        let lines: Vec<&str> = reference.lines().collect();
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[1] = changed[1].replace("(Minnie,b)", "(Minnie,f)");
        assert_ne!(changed[1], lines[1], "line 2 names node b");
        let output = changed.join("\n") + "\n";
        let fail = ask(
            json!({"op": "check", "spec": text, "path": path, "case": "alphabeta", "output": output}),
        );
        assert_eq!(fail["status"], "FAIL", "{fail}");
        let first = fail["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["kind"] != "same")
            .unwrap();
        assert_eq!(first["expected"][0], 2, "{first}");
        assert_eq!(first["actual"][0], 2, "{first}");
        assert!(fail["report"].as_str().unwrap().starts_with("FAIL"));
        assert!(fail["svg"]
            .as_str()
            .unwrap()
            .contains("class=\"divergence\""));
    }

    #[test]
    fn write_gives_problems_at_their_line_and_column() {
        let w = ask(
            json!({"op": "write", "path": "mine.yaml", "spec": "tree: {a: {b: 1, c: 2}}\ncases: {ab: {algorithm: alphabta}}\n"}),
        );
        let p = &w["problems"][0];
        assert_eq!(p["severity"], "error", "{w}");
        assert_eq!(p["line"], 2, "{w}");
        assert!(p["text"].as_str().unwrap().contains("mine.yaml:2:"), "{w}");
        assert!(w["svg"].is_null());
        let ok = ask(
            json!({"op": "write", "path": "mine.yaml", "spec": "tree: {a: {b: 1, c: 2}}\ncases: {ab: {algorithm: alphabeta}}\n"}),
        );
        assert_eq!(ok["problems"].as_array().unwrap().len(), 0, "{ok}");
        assert!(ok["svg"].as_str().unwrap().starts_with("<svg"));
        assert_eq!(ok["traces"][0]["case"], "ab");
        // The S14 case, then the same search as the SML REPL prints it.
        assert_eq!(ok["traces"][0]["dialect"], "s14");
        assert_eq!(ok["traces"][1]["dialect"], "repl");
        assert!(ok["traces"][1]["trace"]
            .as_str()
            .unwrap()
            .contains("val it = "));
        assert!(ok["traces"][0]["trace"]
            .as_str()
            .unwrap()
            .contains("Overall choice"));
    }

    #[test]
    fn stepping_ends_on_the_whole_search() {
        let (text, path) = handout_small();
        let first =
            ask(json!({"op": "step", "spec": text, "path": path, "case": "alphabeta", "line": 0}));
        let n = first["lines"].as_u64().unwrap();
        let last = ask(
            json!({"op": "step", "spec": text, "path": path, "case": "alphabeta", "line": n + 5}),
        );
        assert_eq!(last["line"].as_u64().unwrap(), n - 1);
        // The handout's final bounds: the root's result, 4, is drawn only at the end.
        assert!(last["svg"].as_str().unwrap().contains("→ 4"));
        assert!(!first["svg"].as_str().unwrap().contains("→ 4"));
    }

    #[test]
    fn a_student_in_the_browser_is_not_sent_to_the_command_line() {
        let (text, path) = handout_small();
        let a = ask(
            json!({"op": "check", "spec": text, "path": path, "case": "alphabeta",
            "output": "F: state (Maxie,zz) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\n"}),
        );
        let report = a["report"].as_str().unwrap();
        assert!(report.contains("diagnosis: none of the"), "{report}");
        assert!(
            report.contains("the guide's chapter \"Naming the mistake\" lists them"),
            "{report}"
        );
        assert!(!report.contains("gametrace bugs"), "{report}");
    }

    /// A run the page made is judged as `check --cmd` judges one: what the driver is handed,
    /// a crash with its stderr (control characters escaped, as the command line shows
    /// them), a timeout, and an output checked under the command's name.
    #[test]
    fn a_run_in_the_page_is_judged_as_check_cmd_judges_it() {
        let a = ask(json!({"op": "spec", "name": "csc148/subtract-square-grading"}));
        let (text, path) = (a["text"].as_str().unwrap(), a["path"].as_str().unwrap());
        let plan =
            ask(json!({"op": "plan", "spec": text, "path": path, "case": "prune-expands-6"}));
        let position: Value =
            serde_json::from_str(plan["position_json"].as_str().unwrap()).unwrap();
        assert_eq!(position["current_total"], 6, "{plan}");
        assert_eq!(
            position["case"]["strategy"], "StrategyMinimaxPrune",
            "{plan}"
        );
        assert_eq!(position["case"]["check"], "visited", "{plan}");
        let judged = |extra: Value| {
            let mut req = json!({"op": "judged", "spec": text, "path": path,
                "case": "prune-expands-6", "command": "python3 s.py {position_json}",
                "stdout": "", "stderr": ""});
            for (k, v) in extra.as_object().unwrap() {
                req[k] = v.clone();
            }
            ask(req)
        };
        let crashed = judged(json!({"exit": 1, "stderr": "Traceback\n  boom\u{1b}[31m\n"}));
        assert_eq!(crashed["status"], "CRASHED", "{crashed}");
        let report = crashed["report"].as_str().unwrap();
        assert!(
            report.contains("the implementation exited with status 1"),
            "{report}"
        );
        assert!(report.contains("  | Traceback\n"), "{report}");
        assert!(report.contains("  |   boom\\e[31m\n"), "{report}");
        assert!(!report.contains('\u{1b}'), "{report}");
        let timeout = judged(json!({"timeout": 10.0}));
        assert_eq!(timeout["status"], "TIMEOUT", "{timeout}");
        assert!(timeout["report"]
            .as_str()
            .unwrap()
            .contains("ran past the 10 s timeout"));
        // The reference's own expansions: a pass, read as the output of the command.
        let pass = judged(json!({"exit": 0,
            "stdout": "Searching p1:6: p1 to move\nSearching p2:2: p2 to move\nSearching p1:1: p1 to move\nSuggested move: 4\n"}));
        assert_eq!(pass["status"], "PASS", "{pass}");
        assert!(pass["report"]
            .as_str()
            .unwrap()
            .contains("of the output of `python3 s.py {position_json}`"));
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        assert!(request("nope").contains("not JSON"));
        assert!(ask(json!({"op": "fly"}))["error"]
            .as_str()
            .unwrap()
            .contains("no request"));
        let e = ask(
            json!({"op": "check", "spec": "tree: [", "path": "x.yaml", "case": "a", "output": ""}),
        );
        assert!(
            e["error"].as_str().unwrap().contains("--> x.yaml:2:1"),
            "{e}"
        );
    }
}

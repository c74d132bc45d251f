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
//!
//! `path` is the name the spec's messages show (`specs/15150-s14/handout-small.yaml` for a
//! built-in spec, as the command line names it when run from a checkout).
//! A request that cannot be answered gets `{"error": text}`, as the command line would say it.

use gametrace_core::check::judge::{judge_output, Options, MAX_ACTUAL};
use gametrace_core::diff::Palette;
use gametrace_core::draw::{steps::Steps, svg, Picture};
use gametrace_core::report::{check_text, for_students};
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
    let options = Options {
        mode: None,
        exact: false,
        palette: Palette { color: false },
        max_input: MAX_ACTUAL,
        diagnose: true,
        figures: true,
        time_limit: std::time::Duration::from_secs(60),
        cut_short: false,
    };
    let mut result =
        judge_output(&doc, case, output, "your output", options).map_err(|d| d.to_string())?;
    for_students(&mut result);
    let report = in_the_browser(&check_text(&result, options.palette));
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
    Ok(json!({
        "status": result.status.word(),
        "passed": result.status.passed(),
        "message": result.message,
        "report": report,
        "place": result.failure.as_ref().and_then(|f| f.place.clone()),
        "rows": result.failure.as_ref().map(|f| &f.rows),
        "mistakes": mistakes,
        "diagnosis": result.diagnosis.as_ref().map(|d| in_the_browser(&d.text)),
        "svg": figure,
    }))
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

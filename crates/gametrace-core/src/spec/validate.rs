//! `gametrace validate`: every problem in a set of specs, for people (`human`) and editors
//! (`json`). The checking itself is the loader's ([`super::validate_str`]); this adds what
//! only the files around a spec can show (expected traces that no case writes).

use super::diagnostic::{did_you_mean, Diagnostic, Severity};
use super::load::{validate, Validation};
use crate::spec::expected_path;
use serde_json::json;
use std::path::{Path, PathBuf};

/// One spec's problems.
#[derive(Debug)]
pub struct Checked {
    pub path: PathBuf,
    pub validation: Validation,
}

/// Checks each spec and the expected traces beside it.
pub fn check(paths: &[PathBuf]) -> Vec<Checked> {
    paths
        .iter()
        .map(|path| {
            let mut validation = validate(path);
            if let Some(doc) = &validation.document {
                let names = doc.case_names();
                validation.problems.extend(orphan_traces(path, &names));
                validation.problems.extend(endless_searches(path, doc));
            }
            Checked {
                path: path.clone(),
                validation,
            }
        })
        .collect()
}

/// Expected traces in the spec's expected directory that no case of the spec writes: most
/// often a renamed case whose old trace was left behind.
fn orphan_traces(spec: &Path, cases: &[&str]) -> Vec<Diagnostic> {
    let Some(dir) = expected_path(spec, "x").parent().map(Path::to_owned) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut stems: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_owned(), p)))
        .filter(|(stem, _)| !cases.contains(&stem.as_str()))
        .collect();
    stems.sort();
    stems
        .into_iter()
        .map(|(stem, file)| {
            let d = Diagnostic::new(
                spec,
                format!("expected trace `{}` belongs to no case", file.display()),
            )
            .warning()
            .expected(format!("a case named `{stem}` (cases: {})", cases.join(", ")))
            .found(format!("no case `{stem}`"));
            match did_you_mean(&stem, cases) {
                Some(c) => d.hint(format!(
                    "did you mean `{c}`? rename the trace, or delete it and run `gametrace test --bless`"
                )),
                None => d.hint("delete it, or add the case back"),
            }
        })
        .collect()
}

/// Positions a search may visit above which `validate` warns: at tens of millions of positions
/// a second, more than a day's work.
pub const ENDLESS: f64 = 1e12;

/// Warnings for game cases whose search could not finish in any useful time: the start's moves
/// to the power of the depth, a rough size of the game tree searched (minimax's; alpha-beta
/// may visit about its square root, still far too many).
fn endless_searches(path: &Path, doc: &super::Document) -> Vec<Diagnostic> {
    use crate::game::Game;
    let super::Document::Game(g) = doc else {
        return Vec::new();
    };
    crate::with_game_spec!(g, s => s
        .cases
        .iter()
        .filter_map(|c| {
            let branching = c.game.moves(&c.game.start()).len();
            let depth = c.case.depth;
            let size = (branching as f64).powi(depth as i32);
            (size > ENDLESS).then(|| {
                let limit = match c.case.time_limit {
                    Some(t) => format!("its time_limit of {}", crate::search::deadline::seconds(t)),
                    None => "the time limit (`test --time-limit`, 60 s by default)".to_owned(),
                };
                Diagnostic::new(
                    path,
                    format!("case `{}` may search about {branching}^{depth} ≈ {size:.1e} positions: it will not finish", c.case.name),
                )
                .warning()
                .expected("a search that ends (an alpha-beta search visits roughly the square root of this)")
                .found(format!("depth {depth} with {branching} moves at the start"))
                .hint(format!("lower `depth`; `test` and `run` stop it at {limit}"))
            })
        })
        .collect())
}

/// Errors and warnings in all the specs.
pub fn totals(checked: &[Checked]) -> (usize, usize) {
    checked.iter().fold((0, 0), |(e, w), c| {
        (e + c.validation.errors(), w + c.validation.warnings())
    })
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Every problem as the compiler-style text `error:`/`warning:` blocks, a line per spec, and
/// a total.
pub fn human(checked: &[Checked]) -> String {
    let mut out = String::new();
    for c in checked {
        for d in &c.validation.problems {
            out.push_str(&d.to_string());
            out.push('\n');
        }
    }
    for c in checked {
        let (e, w) = (c.validation.errors(), c.validation.warnings());
        let verdict = match (e, w) {
            (0, 0) => "valid".to_owned(),
            (0, w) => format!("valid, {}", plural(w, "warning")),
            (e, 0) => format!("invalid, {}", plural(e, "error")),
            (e, w) => format!("invalid, {}, {}", plural(e, "error"), plural(w, "warning")),
        };
        out.push_str(&format!("{}: {verdict}\n", c.path.display()));
    }
    let (e, w) = totals(checked);
    let invalid = checked.iter().filter(|c| c.validation.errors() > 0).count();
    out.push_str(&format!(
        "{} checked: {} invalid; {}, {}\n",
        plural(checked.len(), "spec"),
        invalid,
        plural(e, "error"),
        plural(w, "warning")
    ));
    out
}

/// For editors: `{"valid": bool, "errors": n, "warnings": n, "problems": [{file, line,
/// column, severity, message, expected, found, hint}]}`; line and column are 1-based (null
/// when the problem is the whole file).
pub fn json(checked: &[Checked]) -> String {
    let (errors, warnings) = totals(checked);
    let problems: Vec<serde_json::Value> = checked
        .iter()
        .flat_map(|c| &c.validation.problems)
        .map(|d| {
            json!({
                "file": d.file.display().to_string(),
                "line": d.pos.map(|p| p.line),
                "column": d.pos.map(|p| p.col),
                "severity": match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                "message": d.message,
                "expected": d.expected,
                "found": d.found,
                "hint": d.hint,
            })
        })
        .collect();
    let doc = json!({
        "valid": errors == 0,
        "errors": errors,
        "warnings": warnings,
        "specs": checked.iter().map(|c| json!({
            "file": c.path.display().to_string(),
            "errors": c.validation.errors(),
            "warnings": c.validation.warnings(),
        })).collect::<Vec<_>>(),
        "problems": problems,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

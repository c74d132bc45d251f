//! Finding a case in a spec as the thing a trace is checked against.

use super::trace;
use crate::spec::{Diagnostic, Document};
use std::path::Path;

/// Calls `f` with case `name` of a tree or game spec as a [`trace::Subject`].
pub fn with_subject<T>(
    doc: &Document,
    name: &str,
    f: impl FnOnce(&dyn trace::Subject) -> T,
) -> Result<T, Diagnostic> {
    let spec_path = doc.path();
    match doc {
        Document::Tree(spec) => match spec.case(name) {
            Some(case) => Ok(f(&trace::TreeCase { spec, case })),
            None => Err(no_case(spec_path, name).expected(format!(
                "one of the cases: {}",
                case_list(spec.cases.iter().map(|c| c.name.as_str()))
            ))),
        },
        Document::Game(g) => crate::with_game_spec!(g, spec => match spec.case(name) {
            Some(case) => Ok(f(case)),
            None => Err(no_case(spec_path, name).expected(format!(
                "one of the search cases: {}",
                case_list(spec.cases.iter().map(|c| c.case.name.as_str()))
            ))),
        }),
        Document::Task(_) => Err(
            Diagnostic::new(spec_path, "a task spec has no search to vary")
                .expected("a spec with a `tree:` or a `game:`")
                .found("a task spec")
                .hint("the catalogue of mistakes is about searchers"),
        ),
    }
}

pub fn no_case(path: &Path, name: &str) -> Diagnostic {
    Diagnostic::new(path, format!("no case `{name}` in this spec"))
}

/// The case names for a message: "a, b, c", or "(none)".
pub fn case_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "(none)".to_owned()
    } else {
        v.join(", ")
    }
}

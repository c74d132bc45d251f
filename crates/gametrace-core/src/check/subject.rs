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
    Ok(f(subject(doc, name)?.as_dyn()))
}

/// Case `name` of a tree or game spec, found.
pub enum Found<'a> {
    Tree(trace::TreeCase<'a>),
    Game(&'a dyn trace::Subject),
}

impl Found<'_> {
    pub fn as_dyn(&self) -> &dyn trace::Subject {
        match self {
            Found::Tree(t) => t,
            Found::Game(g) => *g,
        }
    }
}

/// Case `name` of a tree or game spec as a [`trace::Subject`]. Not generic, so that the
/// subjects' vtables (every search of every game) are compiled here only, not again in each
/// crate that calls [`with_subject`] (a release build shares no generic code between crates).
pub fn subject<'a>(doc: &'a Document, name: &str) -> Result<Found<'a>, Diagnostic> {
    let spec_path = doc.path();
    match doc {
        Document::Tree(spec) => match spec.case(name) {
            Some(case) => Ok(Found::Tree(trace::TreeCase { spec, case })),
            None => Err(no_case(spec_path, name).expected(format!(
                "one of the cases: {}",
                case_list(spec.cases.iter().map(|c| c.name.as_str()))
            ))),
        },
        Document::Game(g) => crate::with_game_spec!(g, spec => match spec.case(name) {
            Some(case) => Ok(Found::Game(case)),
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

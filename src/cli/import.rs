//! `gametrace import cs188 DIR OUT`: Berkeley CS188's game-tree tests written as YAML specs,
//! each with its expected trace once the reference agrees with the test's `.solution`.

use super::common::*;
use crate::spec::{self, cs188};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What the tests are: `cs188` (the multiagent project's GraphGameTreeTest files)
    #[arg(value_enum)]
    pub from: ImportFormat,
    /// A `.test` file, or a folder of them (test_cases, or one question's folder)
    pub dir: PathBuf,
    /// The folder to write the specs into (made if missing); each test's spec keeps its path
    /// under DIR, `.test` made `.yaml`
    pub out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    Cs188,
}

pub fn execute(a: Args) -> Exit {
    let files = tests_under(&a.dir)?;
    if files.is_empty() {
        return Err(Failure::message(format!(
            "error: no CS188 game-tree tests (*.test) under {}\n  = hint: give the project's test_cases folder, or one question's (test_cases/q2)",
            a.dir.display()
        )));
    }
    let mut code = 0;
    let mut written = 0;
    for file in &files {
        let rel = file.strip_prefix(&a.dir).unwrap_or(file.as_path());
        let rel = if rel.as_os_str().is_empty() {
            Path::new(file.file_name().unwrap_or_default())
        } else {
            rel
        };
        let target = a.out.join(rel).with_extension("yaml");
        match import_one(file, &target) {
            Ok(note) => {
                written += 1;
                println!("wrote {} ({note})", target.display());
            }
            Err(NotImported::Unusable(f)) => {
                // Said now, beside the tests written, and the import goes on.
                eprint!("{f}");
                code = 2;
            }
            Err(NotImported::Disagrees(why)) => {
                written += 1;
                println!("wrote {} ({why})", target.display());
                code = code.max(1);
            }
        }
    }
    println!("{} of {} imported", plural(written, "test"), files.len());
    Ok(code)
}

enum NotImported {
    /// Exit 2: the file could not be read or written, or its test is not usable.
    Unusable(Failure),
    /// Exit 1: the reference does not give the `.solution`'s answer.
    Disagrees(String),
}

/// The `.test` files under `dir` that are game trees (the others noted), sorted.
fn tests_under(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let (found, skipped) = crate::suite::discover_noting(&[dir.to_owned()])?;
    for s in &skipped {
        eprintln!(
            "note: skipped {}: a CS188 test that is not a game tree ({})",
            s.path.display(),
            s.why
        );
    }
    let yaml: Vec<&PathBuf> = found.iter().filter(|p| !cs188::is_test_file(p)).collect();
    if !yaml.is_empty() && dir.is_file() {
        return Err(Failure::message(format!(
            "error: {} is not a CS188 test\n  = expected: a `.test` file or a folder of them\n  = hint: `gametrace import cs188` reads the course's test_cases",
            dir.display()
        )));
    }
    Ok(found
        .into_iter()
        .filter(|p| cs188::is_test_file(p))
        .collect())
}

/// Writes the spec of one test, and its expected trace when the reference gives the
/// `.solution`'s action and generated states.
fn import_one(file: &Path, target: &Path) -> Result<String, NotImported> {
    let unusable = |d: spec::Diagnostic| NotImported::Unusable(d.into());
    let source = std::fs::read_to_string(file).map_err(|e| {
        NotImported::Unusable(Failure::message(format!(
            "error: cannot read {}: {e}",
            file.display()
        )))
    })?;
    let converted = cs188::to_yaml(file, &source).map_err(unusable)?;
    for w in &converted.warnings {
        eprint!("{w}");
    }
    // The spec must load as the test did (it is the same text the test is read as).
    let doc = spec::load_str(target, &converted.yaml).map_err(unusable)?;
    let spec::Document::Tree(tree_spec) = &doc else {
        return Err(NotImported::Unusable(Failure::Message(String::new())));
    };
    let case = &tree_spec.cases[0];
    let write = |path: &Path, text: &str| {
        crate::suite::write_atomically(path, text).map_err(|e| {
            NotImported::Unusable(Failure::message(format!(
                "error: cannot write {}: {e}",
                path.display()
            )))
        })
    };
    write(target, &converted.yaml)?;
    let solution_file = cs188::solution_path(file);
    let Ok(text) = std::fs::read_to_string(&solution_file) else {
        return Ok("no .solution beside the test: no expected trace written; `gametrace test --bless` writes one".to_owned());
    };
    let solution = cs188::solution(&solution_file, &text).map_err(unusable)?;
    let trace = crate::run::trace_of(tree_spec, case);
    let root = tree_spec.tree.name(tree_spec.tree.root());
    let found = cs188::Solution::of_trace(&root, &trace);
    let differences = solution.differences(&found);
    if !differences.is_empty() {
        return Err(NotImported::Disagrees(format!(
            "the reference disagrees with {}: {}; no expected trace written",
            solution_file.display(),
            differences.join("; ")
        )));
    }
    let expected = spec::expected_path(target, &case.name);
    write(&expected, &trace)?;
    Ok(format!(
        "agrees with its .solution; expected trace {}",
        expected.display()
    ))
}

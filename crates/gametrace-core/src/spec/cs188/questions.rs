//! CS188's points per question, as its autograder gives them.
//!
//! The autograder grades a question, not a test: `test_cases/qN/CONFIG` names the question's
//! class and weight (`max_points: "5"`, `class: "PassAllTestsQuestion"`), and
//! `testClasses.PassAllTestsQuestion` gives the whole weight when every test of the folder
//! passes and 0 otherwise. A report of CS188 tests is grouped here into its questions, each
//! folder with a CONFIG of that class one question; the report's score is then the
//! questions' points. A test of the question that was not run (a `PacmanGameTreeTest`
//! without `--project`) leaves its points provisional, and the question says so.

use crate::report::{CaseResult, Question, Status};
use crate::spec::diagnostic::Diagnostic;
use crate::spec::yaml::Pos;
use std::path::{Path, PathBuf};

/// The class whose rule is all or nothing (the only one the multiagent project's game-tree
/// questions use).
pub const PASS_ALL: &str = "PassAllTestsQuestion";

/// A question's CONFIG: its weight and class.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub max_points: f64,
    pub class: String,
}

/// Reads a question's `CONFIG` (the course's test format: `key: "value"` lines).
pub fn config(path: &Path, source: &str) -> Result<Config, String> {
    config_checked(path, source).map_err(|d| d.to_string())
}

/// [`config`], its problem as a diagnostic: the file, the line, what was expected and found.
pub fn config_checked(path: &Path, source: &str) -> Result<Config, Diagnostic> {
    let file = super::parse(path, source)?;
    let hint = "the course's CONFIG reads `max_points: \"5\"` and `class: \"PassAllTestsQuestion\"`, one `key: \"value\"` a line";
    let missing = |key: &str| {
        Diagnostic::new(path, format!("{} has no `{key}:`", path.display()))
            .expected(format!("a line `{key}: \"...\"`"))
            .hint(hint)
    };
    let class = file
        .get("class")
        .map(|p| p.value.clone())
        .ok_or_else(|| missing("class"))?;
    let p = file
        .get("max_points")
        .ok_or_else(|| missing("max_points"))?;
    let max_points = p
        .value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| {
            Diagnostic::new(
                path,
                format!("max_points \"{}\" is not a number of points", p.value),
            )
            .at(
                Pos {
                    line: p.line,
                    col: 1,
                },
                source,
            )
            .expected("a number of points, 0 or more (`max_points: \"5\"`)")
            .found(format!("\"{}\"", p.value))
            .hint(hint)
        })?;
    Ok(Config { max_points, class })
}

/// A question folder's `CONFIG`, where there is one, checked before a run: `Ok` when there
/// is none (the folder is graded test by test) or it reads.
pub fn check_folder(dir: &Path) -> Result<(), Diagnostic> {
    let file = dir.join("CONFIG");
    if !file.is_file() {
        return Ok(());
    }
    let bytes = crate::input::read_regular(&file, crate::input::max_spec_size())
        .map_err(|e| Diagnostic::new(&file, format!("cannot read {}: {e}", file.display())))?;
    config_checked(&file, &String::from_utf8_lossy(&bytes)).map(drop)
}

/// The points a question of `config` gets from its tests' statuses: `PassAllTestsQuestion`
/// gives the whole weight when no test failed, else 0. A test not run (SKIPPED) is taken as
/// passing: the caller says that the points are provisional. `None` for another class.
pub fn points(config: &Config, statuses: &[Status]) -> Option<f64> {
    if config.class != PASS_ALL {
        return None;
    }
    let failed = statuses.iter().any(|s| !s.passed() && !s.skipped());
    Some(if failed { 0.0 } else { config.max_points })
}

/// The question folder of a CS188 test's result (`.../q2` for `.../q2/1-minmax.test`).
fn folder_of(c: &CaseResult) -> Option<PathBuf> {
    let path = Path::new(&c.spec);
    if !super::is_test_file(path) {
        return None;
    }
    path.parent().map(Path::to_owned)
}

/// Groups the CS188 tests of `cases` into their questions, each folder whose CONFIG reads
/// and names a class this module knows one [`Question`], in the order the folders first
/// come. Also returns a note for each folder of tests left ungrouped (no CONFIG, another
/// class): its tests keep their own points.
pub fn questions(cases: &[CaseResult]) -> (Vec<Question>, Vec<String>) {
    let mut folders: Vec<(PathBuf, Vec<usize>)> = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let Some(dir) = folder_of(c) else { continue };
        match folders.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, v)) => v.push(i),
            None => folders.push((dir, vec![i])),
        }
    }
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (dir, members) in folders {
        let file = dir.join("CONFIG");
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let read = crate::input::read_regular(&file, crate::input::max_spec_size())
            .map_err(|e| format!("cannot read {}: {e}", file.display()))
            .and_then(|b| config(&file, &String::from_utf8_lossy(&b)));
        let config = match read {
            Ok(c) => c,
            Err(why) => {
                notes.push(format!(
                    "{}: graded test by test, not as a CS188 question ({why})",
                    dir.display()
                ));
                continue;
            }
        };
        let statuses: Vec<Status> = members.iter().map(|&i| cases[i].status).collect();
        let Some(points) = points(&config, &statuses) else {
            notes.push(format!(
                "{}: graded test by test: its CONFIG's class {} is not one gametrace grades as CS188 does ({PASS_ALL})",
                dir.display(),
                config.class
            ));
            continue;
        };
        let name_of = |i: usize| cases[i].case.clone();
        let failed: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| !cases[i].status.passed() && !cases[i].status.skipped())
            .collect();
        let not_run: Vec<String> = members
            .iter()
            .copied()
            .filter(|&i| cases[i].status.skipped())
            .map(name_of)
            .collect();
        let run = members.len() - not_run.len();
        // A question is graded whole: where the selection (`--case`, `--filter`, one file
        // named) left some of its tests out, its points are not given.
        let left_out = left_out(&dir, cases, &members);
        if left_out > 0 {
            let tests = members.len() + left_out;
            out.push(Question {
                name,
                class: config.class,
                points: 0.0,
                max_points: config.max_points,
                provisional: false,
                tests,
                failed: failed.iter().map(|&i| name_of(i)).collect(),
                message: format!(
                    "0 / {}: {} of its {tests} tests were left out of this run; {PASS_ALL} gives the question's points only when every test passes: run the whole folder",
                    crate::report::number(config.max_points),
                    left_out,
                ),
                not_run,
                cases: members,
            });
            continue;
        }
        let mut message = if failed.is_empty() {
            format!(
                "{} / {}: {}",
                crate::report::number(points),
                crate::report::number(config.max_points),
                if run == 1 {
                    "its 1 test run passes".to_owned()
                } else {
                    format!("all {run} tests run pass")
                }
            )
        } else {
            let names: Vec<String> = failed.iter().map(|&i| name_of(i)).collect();
            format!(
                "0 / {}: {} of {run} test{} failed ({}); {PASS_ALL} gives the question's points only when every test passes",
                crate::report::number(config.max_points),
                failed.len(),
                if run == 1 { "" } else { "s" },
                names.join(", ")
            )
        };
        if !not_run.is_empty() {
            message.push_str(&format!(
                "; not run: {} (the autograder runs {} too: {}; give --project DIR, the course's folder, to run {})",
                not_run.join(", "),
                if not_run.len() == 1 { "it" } else { "them" },
                if failed.is_empty() {
                    "where it fails, the question gets 0, not these points"
                } else {
                    "the question gets 0 either way"
                },
                if not_run.len() == 1 { "it" } else { "them" },
            ));
        }
        out.push(Question {
            name,
            class: config.class,
            points,
            max_points: config.max_points,
            provisional: !not_run.is_empty() && failed.is_empty(),
            tests: members.len(),
            failed: failed.iter().map(|&i| name_of(i)).collect(),
            not_run,
            message,
            cases: members,
        });
    }
    (out, notes)
}

/// How many of the CS188 tests in `dir` are not among `members` (left out by a selection).
fn left_out(dir: &Path, cases: &[CaseResult], members: &[usize]) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let ran: std::collections::HashSet<PathBuf> = members
        .iter()
        .map(|&i| PathBuf::from(&cases[i].spec))
        .filter_map(|p| p.file_name().map(PathBuf::from))
        .collect();
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| super::is_test_file(p))
        .filter(|p| p.file_name().is_some_and(|n| !ran.contains(Path::new(n))))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_reads_as_the_course_writes_it() {
        let c = config(
            Path::new("q2/CONFIG"),
            "max_points: \"5\"\nclass: \"PassAllTestsQuestion\"\n",
        )
        .unwrap();
        assert_eq!(
            c,
            Config {
                max_points: 5.0,
                class: PASS_ALL.to_owned()
            }
        );
        assert!(config(Path::new("CONFIG"), "class: \"PassAllTestsQuestion\"\n").is_err());
        assert!(config(Path::new("CONFIG"), "max_points: \"five\"\nclass: \"X\"\n").is_err());
    }

    #[test]
    fn pass_all_tests_is_all_or_nothing() {
        let c = Config {
            max_points: 5.0,
            class: PASS_ALL.to_owned(),
        };
        assert_eq!(points(&c, &[Status::Pass, Status::Pass]), Some(5.0));
        assert_eq!(points(&c, &[Status::Pass, Status::Fail]), Some(0.0));
        assert_eq!(points(&c, &[Status::Crashed, Status::Pass]), Some(0.0));
        // A test not run does not take the points away: the question says they may.
        assert_eq!(points(&c, &[Status::Pass, Status::Skipped]), Some(5.0));
        let partial = Config {
            max_points: 6.0,
            class: "PartialCreditQuestion".to_owned(),
        };
        assert_eq!(points(&partial, &[Status::Pass]), None);
    }
}

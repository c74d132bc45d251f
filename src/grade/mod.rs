//! Grading implementations: a suite's cases checked against a program's output, many at once
//! (`test --against --jobs N`), and a whole class's submissions (`gametrace grade`, in
//! [`class`]). Reports are the same byte for byte whatever the number of jobs: results are
//! put in the suite's order before anything is written.

pub mod class;
pub mod cs188;
pub mod players;
mod served;

use crate::check::case::{self, Options, Source};
use crate::report::{CaseResult, Status};
use crate::spec::{self, Diagnostic, Document};
use crate::suite::{Selection, Skipped};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

/// The specs of a suite, loaded once, and the cases chosen from them.
pub struct Suite {
    specs: Vec<(PathBuf, Result<Document, Diagnostic>)>,
    items: Vec<Item>,
    /// Cases of other classes than the one the command names ([`Suite::load_for`]).
    left_out: usize,
    /// What the command names and how it was read: notes for the grader (a class known by
    /// another term's name; a spec with no case of the class named).
    notes: Vec<String>,
    /// Tests found beside the specs that gametrace does not run (CS188's Pacman games).
    others: Vec<Skipped>,
    /// The course's project (`--project DIR`): CS188's Pacman games are played by it.
    project: Option<PathBuf>,
}

/// The course classes a spec's cases are written for (a CSC148 strategy, a CS10 player).
const COURSE_CLASSES: [&str; 6] = [
    "StrategyMinimax",
    "StrategyMinimaxMemoize",
    "StrategyMinimaxPrune",
    "StrategyMinimaxMyopic",
    "ComputerKalahPlayerAB",
    "ComputerKalahPlayerGTS",
];

/// The course classes `command` names: word for word, or by another term's name for one
/// (Winter 2015's `StrategyMinimaxPruning` is `StrategyMinimaxPrune`): (class, the word
/// the command has).
fn command_classes(command: &str) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for word in command.split(|c: char| !c.is_alphanumeric() && c != '_') {
        let class = if let Some(c) = COURSE_CLASSES.iter().find(|c| **c == word) {
            Some(*c)
        } else if word.starts_with("Strategy") && word.contains("Minimax") {
            let w = word.to_ascii_lowercase();
            if w.contains("prun") {
                Some("StrategyMinimaxPrune")
            } else if w.contains("memo") {
                Some("StrategyMinimaxMemoize")
            } else if w.contains("myop") {
                Some("StrategyMinimaxMyopic")
            } else {
                None
            }
        } else {
            None
        };
        if let Some(c) = class {
            if !out.iter().any(|(k, _)| *k == c) {
                out.push((c, word.to_owned()));
            }
        }
    }
    out
}

/// What a test gametrace does not run may change, said in its report.
const NOT_RUN: &str = "gametrace checks the course's game-tree tests only. CS188's autograder runs this test too and gives the question's points only when every one of its tests passes: where this test would fail (an illegal action, a crash in the game), the autograder's points for the question are 0 whatever gametrace's say. Give --project DIR (the course's folder, with autograder.py) to have it played as the autograder plays it.";

/// A CS188 test's name: its file's stem (`8-pacman-game`).
fn test_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// One thing to grade: a case of a spec, or a spec that does not load (an ERROR result).
#[derive(Clone, Copy, Debug)]
enum Item {
    Case {
        spec: usize,
        case: usize,
    },
    Unloadable {
        spec: usize,
    },
    /// A test of the course's that gametrace does not run: reported SKIPPED, worth nothing.
    NotRun {
        other: usize,
    },
}

impl Suite {
    /// Loads `specs` and keeps the checkable cases `select` chooses, in the specs' order.
    pub fn load(specs: &[PathBuf], select: &Selection) -> Suite {
        Suite::load_for(specs, select, None)
    }

    /// [`Suite::load`] for one program: when `command` names a course class the spec's cases
    /// are written for (a CSC148 strategy, a CS10 player), only the cases of that class are
    /// kept: a memoizing strategy is not graded on the pruning cases.
    pub fn load_for(specs: &[PathBuf], select: &Selection, command: Option<&str>) -> Suite {
        let specs: Vec<(PathBuf, Result<Document, Diagnostic>)> =
            specs.iter().map(|p| (p.clone(), spec::load(p))).collect();
        let mut items = Vec::new();
        let mut left_out = 0;
        let named = command.map(command_classes).unwrap_or_default();
        let mut notes = Vec::new();
        for (class, word) in &named {
            if class != word {
                notes.push(format!(
                    "the command's {word} is taken for the course's {class} (another term's name for it)"
                ));
            }
        }
        let wanted: Vec<&str> = named.iter().map(|(c, _)| *c).collect();
        for (i, (path, doc)) in specs.iter().enumerate() {
            match doc {
                Err(_) => items.push(Item::Unloadable { spec: i }),
                Ok(doc) => {
                    let names = doc.checkable_names();
                    let classes: Vec<Option<&str>> =
                        names.iter().map(|n| doc.course_class(n)).collect();
                    let has_classes = classes.iter().any(Option::is_some);
                    let mut kept = 0;
                    let mut selected = 0;
                    for (k, name) in names.iter().enumerate() {
                        if !select.selects(name) {
                            continue;
                        }
                        selected += 1;
                        // A command that names a class is graded on that class's cases only
                        // (on a spec written for classes at all).
                        let this_program = wanted.is_empty()
                            || !has_classes
                            || classes[k].is_some_and(|c| wanted.contains(&c));
                        if this_program {
                            items.push(Item::Case { spec: i, case: k });
                            kept += 1;
                        } else {
                            left_out += 1;
                        }
                    }
                    if kept == 0 && selected > 0 && !wanted.is_empty() && has_classes {
                        notes.push(format!(
                            "{} has no case for {}: none of its {selected} cases graded",
                            path.display(),
                            wanted.join(" or ")
                        ));
                    }
                }
            }
        }
        Suite {
            specs,
            items,
            left_out,
            notes,
            others: Vec::new(),
            project: None,
        }
    }

    /// The suite with `others` (the tests found beside its specs that gametrace does not run)
    /// reported after its cases, each SKIPPED with why and what it may change: CS188's
    /// autograder gives a question's points only when every test of it passes, its Pacman
    /// games included, so a question that passes here may get nothing there.
    pub fn not_running(mut self, others: Vec<Skipped>, select: &Selection) -> Suite {
        for other in others {
            if select.selects(&test_name(&other.path)) {
                self.items.push(Item::NotRun {
                    other: self.others.len(),
                });
                self.others.push(other);
            }
        }
        self
    }

    /// The suite with CS188's Pacman games played by the course's own project (`--project
    /// DIR`, checked with [`cs188::project`]) instead of reported SKIPPED.
    pub fn with_project(mut self, project: Option<PathBuf>) -> Suite {
        self.project = project;
        self
    }

    /// A test gametrace does not run itself: played by the course's project when there is
    /// one and a program to play it with, else SKIPPED.
    fn other_result(&self, other: usize, source: &Source) -> CaseResult {
        match (&self.project, source) {
            (Some(project), Source::Command(program))
                if self.others[other].why.starts_with("PacmanGameTreeTest") =>
            {
                cs188::play(program, project, &self.others[other].path)
            }
            _ => self.not_run_result(other),
        }
    }

    fn not_run_result(&self, other: usize) -> CaseResult {
        let Skipped { path, why } = &self.others[other];
        CaseResult::new(
            &path.display().to_string(),
            &test_name(path),
            Status::Skipped,
            0.0,
        )
        .message(format!("not run: {why}"))
        .details(NOT_RUN.to_owned())
    }

    /// What the grader should know of how the command was read.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Cases left out because the command names another class than theirs.
    pub fn left_out(&self) -> usize {
        self.left_out
    }

    /// How many results a run gives.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The `i`th result's name: `specs/x.yaml alphabeta`, or `specs/x.yaml (spec)`.
    pub fn name(&self, i: usize) -> String {
        match self.items[i] {
            Item::NotRun { other } => {
                let path = &self.others[other].path;
                format!("{} {}", path.display(), test_name(path))
            }
            Item::Unloadable { spec } => format!("{} (spec)", self.specs[spec].0.display()),
            Item::Case { spec, case } => {
                let (path, doc) = &self.specs[spec];
                let name = doc
                    .as_ref()
                    .ok()
                    .and_then(|d| d.checkable_names().get(case).copied())
                    .unwrap_or("(spec)");
                format!("{} {name}", path.display())
            }
        }
    }

    /// The `i`th result: the case checked against what `source` gives.
    pub fn check(&self, i: usize, source: &Source, options: Options) -> CaseResult {
        match self.items[i] {
            Item::NotRun { other } => self.other_result(other, source),
            Item::Unloadable { spec } => {
                let (path, doc) = &self.specs[spec];
                let why = doc.as_ref().err().map(ToString::to_string);
                CaseResult::new(&path.display().to_string(), "(spec)", Status::Error, 0.0)
                    .message("the spec cannot be loaded")
                    .details(why.unwrap_or_default())
            }
            Item::Case { spec, case } => {
                let (path, doc) = &self.specs[spec];
                let shown = path.display().to_string();
                // Cases are listed for the specs that load, by their place in the list.
                let found = doc
                    .as_ref()
                    .ok()
                    .and_then(|d| Some((d, *d.checkable_names().get(case)?)));
                let Some((doc, name)) = found else {
                    return CaseResult::new(&shown, "(spec)", Status::Error, 0.0)
                        .message("the spec cannot be loaded");
                };
                case::check_case(doc, name, source, options).unwrap_or_else(|d| {
                    CaseResult::new(&shown, name, Status::Error, 1.0)
                        .message("the case could not be checked")
                        .details(d.to_string())
                })
            }
        }
    }

    /// The `i`th result as it stands before anything is run: its name and points, its status
    /// `status` with no point earned (for a submission that could not be run at all).
    pub fn not_run(&self, i: usize, status: Status, message: &str) -> CaseResult {
        let result = match self.items[i] {
            Item::NotRun { other } => return self.not_run_result(other),
            Item::Unloadable { .. } => None,
            Item::Case { spec, case } => {
                let (_, doc) = &self.specs[spec];
                doc.as_ref()
                    .ok()
                    .and_then(|d| Some(case::blank(d, d.checkable_names().get(case)?)))
            }
        };
        let mut r = result.unwrap_or_else(|| CaseResult::new(&self.name(i), "(spec)", status, 0.0));
        r.status = status;
        r.points = 0.0;
        r.message(message.to_owned())
    }

    /// The course's project the Pacman games are played by (`--project`), if any.
    pub fn project(&self) -> Option<&std::path::Path> {
        self.project.as_deref()
    }

    /// The paths of the suite's specs.
    pub fn spec_paths(&self) -> impl Iterator<Item = &std::path::Path> {
        self.specs.iter().map(|(p, _)| p.as_path())
    }

    /// Calls `f` with the case of result `i` (in the suite's order), if its spec loads.
    pub fn with_case(
        &self,
        i: usize,
        f: &mut dyn FnMut(&dyn gametrace_core::check::trace::Subject),
    ) {
        let Some(Item::Case { spec, case }) = self.items.get(i) else {
            return;
        };
        let Ok(doc) = &self.specs[*spec].1 else {
            return;
        };
        if let Some(name) = doc.checkable_names().get(*case) {
            let _ = gametrace_core::check::subject::with_subject(doc, name, |s| f(s));
        }
    }

    /// Does the suite hold a case whose named mistakes are held to the others
    /// ([`gametrace_core::check::confirm`]): a CS188 case?
    pub fn confirms(&self) -> bool {
        self.specs.iter().any(|(_, d)| {
            matches!(d, Ok(gametrace_core::spec::Document::Tree(s))
                if s.cases.iter().any(|c| c.rules == gametrace_core::spec::Rules::Cs188))
        })
    }

    /// Every result against `source`, `jobs` at a time, handed to `emit` in the suite's order.
    /// A command that serves its trees ([`crate::student::Program::serves`]) is started once
    /// a job, not once a case ([`served`]).
    pub fn check_all(
        &self,
        source: &Source,
        options: Options,
        jobs: usize,
        emit: impl FnMut(usize, CaseResult),
    ) {
        if let Source::Command(program) = source {
            if program.serves() {
                return self.check_all_served(program, source, options, jobs, emit);
            }
        }
        in_order(
            (0..self.len()).collect(),
            jobs,
            |_, i| self.check(i, source, options),
            emit,
        );
    }
}

/// The number of jobs to run when none is asked for: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `work` on each item, up to `jobs` at a time, and hands each result to `emit` in the
/// items' order, as soon as it and every one before it are done: what is written is the same
/// whatever `jobs` is, and still comes out as the work goes.
pub fn in_order<T: Send, R: Send>(
    items: Vec<T>,
    jobs: usize,
    work: impl Fn(usize, T) -> R + Sync,
    mut emit: impl FnMut(usize, R),
) {
    let n = items.len();
    if jobs <= 1 || n <= 1 {
        for (i, t) in items.into_iter().enumerate() {
            emit(i, work(i, t));
        }
        return;
    }
    let items: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, R)>();
        for _ in 0..jobs.min(n) {
            let tx = tx.clone();
            let (items, next, work) = (&items, &next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    return;
                }
                let Some(t) = items[i].lock().ok().and_then(|mut t| t.take()) else {
                    return;
                };
                if tx.send((i, work(i, t))).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        emit_in_order(rx, &mut emit);
    });
}

/// Hands each `(index, result)` received to `emit` in the indices' order, as soon as it and
/// every one before it have come: the output of parallel work is that of sequential work.
pub(crate) fn emit_in_order<R>(rx: mpsc::Receiver<(usize, R)>, emit: &mut impl FnMut(usize, R)) {
    let mut waiting = BTreeMap::new();
    let mut due = 0;
    for (i, r) in rx {
        waiting.insert(i, r);
        while let Some(r) = waiting.remove(&due) {
            emit(due, r);
            due += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_the_jobs() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            in_order(
                (0..40u64).collect(),
                jobs,
                |i, t| {
                    // Later items finish first.
                    std::thread::sleep(std::time::Duration::from_micros((40 - t) * 50));
                    (i, t * t)
                },
                |i, r| seen.push((i, r)),
            );
            let want: Vec<(usize, (usize, u64))> =
                (0..40).map(|i| (i, (i, (i * i) as u64))).collect();
            assert_eq!(seen, want, "jobs {jobs}");
        }
    }

    #[test]
    fn nothing_to_do_is_nothing_emitted() {
        let mut count = 0;
        in_order(Vec::<u8>::new(), 4, |_, t| t, |_, _| count += 1);
        assert_eq!(count, 0);
    }
}

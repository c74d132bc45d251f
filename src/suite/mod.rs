//! `gametrace test`: every case of every spec under some paths, compared with its expected
//! trace in `expected/`; `--bless` writes the expected traces. Each case comes out as an
//! [`Outcome`], whose verdict is the report's [`Status`] (see `outcome.rs`).

pub mod compare;
mod outcome;
pub mod select;

pub use outcome::{render, to_result, Outcome};
pub use select::Selection;

use crate::check::expected::Expected;
use crate::report::Status;
use crate::search::deadline::TimedOut;
use crate::spec::{self, Diagnostic, Document};
use compare::{same, unified_diff, Palette};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

pub use crate::spec::expected_path;

/// Every `*.yaml` / `*.yml` spec under `paths` (a file stands for itself), sorted, or the
/// first path that does not exist. Berkeley CS188's game-tree tests (`*.test`, class
/// `GraphGameTreeTest`) are specs too.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Diagnostic> {
    discover_noting(paths).map(|(specs, _)| specs)
}

/// A file found in a folder and left out: a CS188 test that is not a game tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub why: String,
}

/// [`discover`], with the CS188 test files of other classes it left out of the folders.
pub fn discover_noting(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<Skipped>), Diagnostic> {
    let mut specs = Vec::new();
    let mut skipped = Vec::new();
    for p in paths {
        if std::fs::metadata(p).is_err() {
            // Not on disk: the specs built into gametrace, a folder of them or one.
            if let Some(found) = crate::builtin::specs_under(p) {
                specs.extend(found);
                continue;
            }
            if let Some(found) = crate::builtin::spec_path(p) {
                specs.push(found);
                continue;
            }
        }
        let meta = std::fs::metadata(p).map_err(|e| {
            Diagnostic::new(p, format!("cannot read `{}`: {e}", p.display()))
                .expected("a spec file or a directory of specs")
                .found("no such file or directory")
                .hint("`gametrace test` with no paths runs specs/")
        })?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found, &mut skipped);
            found.sort();
            specs.extend(found);
        } else {
            specs.push(p.clone());
        }
    }
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((specs, skipped))
}

/// Is the CS188 test file at `path` a game tree? `Err` says what else it is.
fn cs188_tree_test(path: &Path) -> Result<(), String> {
    let bytes = crate::input::read_regular(path, crate::input::max_spec_size())
        .map_err(|e| format!("cannot read it: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    match spec::cs188::class_of_file(&text) {
        Some(c) if c == "GraphGameTreeTest" => Ok(()),
        Some(c) => Err(format!(
            "{c}: {}",
            spec::cs188::other_class(&c).unwrap_or("not a game-tree test")
        )),
        None => Err("no `class:`".to_owned()),
    }
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, skipped: &mut Vec<Skipped>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        // Symlinked directories are not followed: no loops.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if hidden {
            continue;
        }
        if kind.is_dir() {
            walk(&path, found, skipped);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            found.push(path);
        } else if spec::cs188::is_test_file(&path) {
            match cs188_tree_test(&path) {
                Ok(()) => found.push(path),
                Err(why) => skipped.push(Skipped { path, why }),
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub bless: bool,
    pub palette: Palette,
    /// How long a case's search may run when the case sets no `time_limit`.
    pub time_limit: Option<std::time::Duration>,
}

/// `test`'s default time limit per case: far above any handout-sized search, far below a
/// search that would never end.
pub const DEFAULT_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs every case of every spec, reporting each line to `report` as it is decided.
pub fn run(
    specs: &[PathBuf],
    options: Options,
    select: &Selection,
    report: &mut dyn FnMut(&Outcome),
) -> Totals {
    let mut totals = Totals::default();
    let started = std::time::SystemTime::now();
    let mut swept = std::collections::HashSet::new();
    for path in specs {
        // Temporaries a killed `--bless` left in this spec's expected directory.
        if let Some(dir) = expected_path(path, "x").parent() {
            if swept.insert(dir.to_owned()) {
                totals.stale_temporaries += remove_stale_temporaries(dir, started).len();
            }
        }
        let doc = match spec::load(path) {
            Ok(d) => d,
            Err(d) => {
                let o = Outcome::error(path, None, d.to_string());
                totals.add(&o);
                report(&o);
                continue;
            }
        };
        let outcomes: Vec<Outcome> = match &doc {
            Document::Task(spec) => spec
                .cases
                .iter()
                .filter(|c| select.selects(&c.name))
                .map(|c| check_task_case(spec, c))
                .collect(),
            Document::Tree(_) | Document::Game(_) => doc
                .case_names()
                .into_iter()
                .filter(|name| select.selects(name))
                .map(|name| check_named(&doc, name, options))
                .collect(),
        };
        totals.selected += outcomes.len();
        for o in outcomes {
            totals.add(&o);
            report(&o);
        }
    }
    totals
}

/// A tree or game case searched and compared with its expected trace, or a game scenario
/// judged by the rules.
fn check_named(doc: &Document, name: &str, options: Options) -> Outcome {
    let mut bytes = Vec::new();
    match (doc.search_case(name), doc) {
        (Some(case), _) => {
            let traced = crate::run::trace_named(doc, name, &mut bytes, options.time_limit)
                .expect("the spec's own case");
            judge_traced(doc.path(), case, traced.map(|w| w.map(|_| bytes)), options)
        }
        (None, Document::Game(g)) => judge_scenario(doc.path(), name, g.judge_scenario(name)),
        (None, _) => unreachable!("a tree spec's cases are searches"),
    }
}

/// A case's search, compared with its expected trace unless it ran out of time.
fn judge_traced(
    path: &Path,
    case: &spec::Case,
    traced: Result<std::io::Result<Vec<u8>>, TimedOut>,
    options: Options,
) -> Outcome {
    match traced {
        Ok(Ok(bytes)) => compare(path, case, &String::from_utf8_lossy(&bytes), options),
        Ok(Err(e)) => Outcome::error(
            path,
            Some(&case.name),
            format!("cannot write the trace: {e}"),
        ),
        Err(t) => Outcome::timed_out(path, &case.name, t.limit),
    }
}

/// A scenario's steps judged (nothing to bless: what must hold is in the spec).
fn judge_scenario(path: &Path, name: &str, judged: Option<Result<usize, String>>) -> Outcome {
    match judged.expect("the spec's own scenario") {
        Ok(_) => Outcome::pass(path, name),
        Err(why) => Outcome::fail(path, name, indented(&why)),
    }
}

/// A case's trace against its expected file (written with `--bless`).
fn compare(path: &Path, case: &spec::Case, actual: &str, options: Options) -> Outcome {
    if spec::cs188::is_test_file(path) {
        return compare_solution(path, case, actual, options);
    }
    let expected_file = expected_path(path, &case.name);
    let error = |message: String| Outcome::error(path, Some(&case.name), message);
    let expected = match crate::input::read_regular(&expected_file, crate::input::max_spec_size()) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        // A built-in spec's traces are built in too.
        Err(crate::input::InputError::NotFound) if !path.exists() => {
            crate::builtin::file(&expected_file).map(|b| String::from_utf8_lossy(b).into_owned())
        }
        Err(crate::input::InputError::NotFound) => None,
        Err(e) => return error(format!("cannot read {}: {e}", expected_file.display())),
    };
    // An expected file with checks (CHECK-UNORDERED, CHECK-NOT) is compared through them,
    // and --bless never overwrites one: its checks were written by hand.
    if let Some(text) = &expected {
        let checked = match Expected::parse(&expected_file, text, case.exact) {
            Ok(e) if e.checks => e,
            Ok(_) => return plain(path, case, expected, actual, options, expected_file),
            Err(d) => return error(d.to_string().trim_end().to_owned()),
        };
        let lines = crate::diff::Lines::of(actual, case.exact);
        let compared = checked.compare(&lines);
        return if compared.passed() {
            Outcome::pass(path, &case.name)
        } else {
            let actual_name = format!("gametrace run {} --case {}", path.display(), case.name);
            let shown = expected_file.display().to_string();
            let mut detail = String::new();
            if !compared.diff.is_same() {
                detail = crate::diff::unified(
                    &*compared.expected,
                    &lines,
                    &compared.diff,
                    (&shown, &actual_name),
                    options.palette,
                );
            }
            detail.push_str(&compared.broken_text(&shown, &actual_name));
            if options.bless {
                detail.push_str(&format!(
                    "(--bless leaves {shown} as it is: its CHECK lines were written by hand; edit it, or delete it to bless a plain trace)\n"
                ));
            }
            Outcome::fail(path, &case.name, detail)
        };
    }
    plain(path, case, expected, actual, options, expected_file)
}

/// A CS188 test's reference search against its `.solution` (written with `--bless`, as the
/// autograder writes one): the action chosen and the set of states generated.
fn compare_solution(path: &Path, case: &spec::Case, actual: &str, options: Options) -> Outcome {
    use spec::cs188::{shown_path, solution, solution_path, Solution};
    let file = solution_path(path);
    let error = |message: String| Outcome::error(path, Some(&case.name), message);
    let root = match spec::load(path) {
        Ok(Document::Tree(s)) => s.tree.name(s.tree.root()),
        _ => String::new(),
    };
    let found = Solution::of_trace(&root, actual);
    let existing = match crate::input::read_regular(&file, crate::input::max_spec_size()) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(crate::input::InputError::NotFound) => None,
        Err(e) => return error(format!("cannot read {}: {e}", file.display())),
    };
    let expected = match &existing {
        Some(text) => match solution(&file, text) {
            Ok(s) => Some(s),
            Err(d) => return error(d.to_string().trim_end().to_owned()),
        },
        None => None,
    };
    match expected {
        Some(want) if want.differences(&found).is_empty() => Outcome::pass(path, &case.name),
        existing if options.bless => {
            let text = found.text(&shown_path(path));
            match write_atomically(&file, &text) {
                Ok(()) => Outcome::blessed(path, &case.name, file, existing.is_none()),
                Err(e) => error(format!("cannot write {}: {e}", file.display())),
            }
        }
        None => Outcome::missing(path, &case.name, file),
        Some(want) => {
            let mut detail = String::new();
            for d in want.differences(&found) {
                let _ = writeln!(detail, "    {d}");
            }
            let _ = writeln!(
                detail,
                "    {}: action \"{}\", generated \"{}\"",
                file.display(),
                want.action,
                want.generated.join(" ")
            );
            let _ = writeln!(
                detail,
                "    gametrace run {}: action \"{}\", generated \"{}\"",
                path.display(),
                found.action,
                found.generated.join(" ")
            );
            Outcome::fail(path, &case.name, detail)
        }
    }
}

/// A case's trace against a plain expected trace (or none yet).
fn plain(
    path: &Path,
    case: &spec::Case,
    expected: Option<String>,
    actual: &str,
    options: Options,
    expected_file: PathBuf,
) -> Outcome {
    let name = &case.name;
    match expected {
        Some(text) if same(&text, actual, case.exact) => Outcome::pass(path, name),
        existing if options.bless => match write_atomically(&expected_file, actual) {
            Ok(()) => Outcome::blessed(path, name, expected_file, existing.is_none()),
            Err(e) => Outcome::error(
                path,
                Some(name),
                format!("cannot write {}: {e}", expected_file.display()),
            ),
        },
        None => Outcome::missing(path, name, expected_file),
        Some(text) => {
            let actual_name = format!("gametrace run {} --case {name}", path.display());
            let detail = unified_diff(
                &text,
                actual,
                case.exact,
                (&expected_file.display().to_string(), &actual_name),
                options.palette,
            );
            Outcome::fail(path, name, detail)
        }
    }
}

/// A task case's reference result against its `expect` (nothing to bless: the expectation
/// is in the spec).
fn check_task_case(spec: &spec::TaskSpec, case: &spec::TaskCase) -> Outcome {
    let result = crate::check::reference(spec, case);
    match crate::check::against_expect(spec, case, &result) {
        Ok(()) => Outcome::pass(&spec.path, &case.name),
        Err(why) => Outcome::fail(&spec.path, &case.name, indented(&why)),
    }
}

/// An explanation's lines, indented under the verdict's line.
fn indented(why: &str) -> String {
    why.lines().map(|l| format!("    {l}\n")).collect()
}

/// Writes `text` to `path` through a temporary file in the same directory and a rename, so
/// an interrupted run never leaves a half-written expected file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMPORARY_PREFIX);
    // A temporary file is private (0600); the file it becomes is an ordinary one.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut tmp = builder.tempfile_in(dir)?;
    // Noted while it exists, so that Ctrl-C or SIGTERM can remove it (exiting from a signal
    // handler runs no destructors).
    let noted = tmp.path().to_owned();
    note_temporary(&noted, true);
    let written = (|| {
        tmp.write_all(text.as_bytes())?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)
    })();
    note_temporary(&noted, false);
    written.map(|_| ())
}

/// The prefix of every temporary file gametrace writes beside a file it replaces.
pub const TEMPORARY_PREFIX: &str = ".gametrace-bless-";

static TEMPORARIES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn note_temporary(path: &Path, live: bool) {
    if let Ok(mut t) = TEMPORARIES.lock() {
        if live {
            t.push(path.to_owned());
        } else {
            t.retain(|p| p != path);
        }
    }
}

/// Removes the temporary files being written now: called on Ctrl-C and SIGTERM before exit.
pub fn remove_temporaries() {
    // The writer holds the lock only to note or forget a path; wait a little for it, never
    // forever (a poisoned lock still holds the paths).
    for _ in 0..200 {
        let t = match TEMPORARIES.try_lock() {
            Ok(t) => t,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_micros(100));
                continue;
            }
        };
        for p in t.iter() {
            let _ = std::fs::remove_file(p);
        }
        return;
    }
}

/// Removes temporaries of gametrace's own naming in `dir` last written before `before`: the
/// leftovers of a run that was killed outright (SIGKILL runs no code). A newer one may be a
/// concurrent run's, and is left alone. Returns the files removed.
pub fn remove_stale_temporaries(dir: &Path, before: std::time::SystemTime) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(TEMPORARY_PREFIX) {
            continue;
        }
        let stale = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .is_some_and(|t| t < before);
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed.sort();
    removed
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub missing: usize,
    pub errors: usize,
    pub blessed: usize,
    /// Cases whose search ran past its time limit.
    pub timed_out: usize,
    /// Temporary files of an earlier, interrupted run found and removed.
    pub stale_temporaries: usize,
    /// Cases (and scenarios) run: those `--case`/`--filter` chose.
    pub selected: usize,
}

impl Totals {
    /// Counts an outcome by its verdict (a blessed case is a pass that wrote a file).
    fn add(&mut self, o: &Outcome) {
        let status = o.status();
        if status.passed() {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        match status {
            Status::Missing => self.missing += 1,
            Status::Timeout => self.timed_out += 1,
            Status::Error => self.errors += 1,
            _ => {}
        }
        if o.blessed_a_file() {
            self.blessed += 1;
        }
    }

    /// 0 all passed, 2 some input was unusable, 1 some case failed.
    pub fn exit_code(&self) -> i32 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_files_mirror_the_specs_tree() {
        assert_eq!(
            expected_path(Path::new("specs/15150-s14/handout-big.yaml"), "alphabeta"),
            PathBuf::from("expected/15150-s14/handout-big/alphabeta.trace")
        );
        assert_eq!(
            expected_path(Path::new("/course/specs/a.yaml"), "ab"),
            PathBuf::from("/course/expected/a/ab.trace")
        );
        assert_eq!(
            expected_path(Path::new("mine/tree.yaml"), "ab"),
            PathBuf::from("mine/expected/tree/ab.trace")
        );
        assert_eq!(
            expected_path(Path::new("tree.yaml"), "ab"),
            PathBuf::from("expected/tree/ab.trace")
        );
    }
}

//! The student view: everything a student's program receives, decided here and nowhere else.
//!
//! Every command that runs a student's program (`check --cmd`, `test --against`, `grade`,
//! `check-game`, `check --game-cmd`, `play --pN-cmd`, `grade --game-cmd` and
//! `--player-cmd`) describes it as a [`Program`] (the command line as the grader wrote it,
//! the grader's limits and sandbox flags) and gets a [`Run`] from it here:
//!
//! - **what the program receives** comes from the spec's public part alone
//!   ([`crate::spec::public::handout`]: a case's settings and tree or position, never its
//!   answer) and from the grader: the placeholders' values and the files they name, the
//!   built-in drivers it names, its working folder, its environment (`--sandbox-env`, a
//!   roster's settings);
//! - **what it may read** is widened by the grader alone: the rules come from the grader's
//!   words (the command line as written, placeholders unfilled) and flags; a placeholder's
//!   value, a submission's names and files, a script's `#!` never add one;
//! - **what it must not read** is hidden: every spec of the run and the files holding their
//!   answers (`expected/`, a CS188 test's `.solution`), the repository, the reports, the
//!   classmates.
//!
//! What a student *reads* is the other half of the view: [`crate::report::for_students`]
//! rebuilds a hidden case from its verdict and the student's own run ([`crate::report::Own`]).

use crate::report::Status;
use crate::sandbox::{self, Job, Limits, Policy, Ran, Scratch};
use crate::spec::public::Handout;
use crate::spec::{Diagnostic, Document};
use std::path::{Path, PathBuf};

/// A student's program as the grader describes it (`--cmd`, `--against`, `--game-cmd`,
/// `--player-cmd`).
#[derive(Clone, Debug)]
pub struct Program {
    /// The flag that gave it (`--cmd`, `--against`, `--game-cmd`, ...), for messages.
    pub flag: &'static str,
    /// The command line as written, placeholders unfilled.
    pub line: String,
    /// Run through `sh -c` (placeholders are then shell-quoted).
    pub shell: bool,
    pub stdin: Option<PathBuf>,
    pub limits: Limits,
    /// The submission graded (`gametrace grade`): the command runs inside this directory,
    /// which `{submission}` names.
    pub submission: Option<PathBuf>,
    /// The grader's sandbox settings (`--no-sandbox`, `--sandbox-read`, `--sandbox-env`, what
    /// stays hidden; a staged course copy's folder to write).
    pub sandbox: Policy,
    /// A `{trees}` command is started once and serves every tree ([`Program::serves`]);
    /// `false` (`--per-case`) runs it once a case, the tree's file in place of `{trees}`.
    pub serve: bool,
}

/// One run of a [`Program`], ready to start: its words filled in, its private folder made
/// and holding what it is handed, its policy whole.
pub struct Run {
    pub argv: Vec<String>,
    /// The grader's words (see [`Job::words`]).
    pub words: Vec<String>,
    pub dir: Option<PathBuf>,
    pub stdin: Option<PathBuf>,
    pub limits: Limits,
    pub policy: Policy,
    pub scratch: Scratch,
    /// The command line as the grader wrote it, for reports.
    pub line: String,
}

impl Program {
    /// The grader's words: the command line split (or `sh -c LINE`), placeholders unfilled.
    fn words(&self, spec: &Path) -> Result<Vec<String>, Diagnostic> {
        if self.shell {
            return Ok(vec!["sh".to_owned(), "-c".to_owned(), self.line.clone()]);
        }
        sandbox::split(&self.line).ok_or_else(|| {
            Diagnostic::new(
                spec,
                format!("cannot split the {} line into arguments", self.flag),
            )
            .expected(format!(
                "a command line; placeholders {}",
                crate::spec::public::PLACEHOLDERS.join(" ")
            ))
            .found(self.line.clone())
            .hint("close every quote, or pass --shell to hand the line to sh")
        })
    }

    /// The run for case `name` of `doc`: the case's public part handed over, placeholders
    /// filled, the spec's grading files hidden.
    pub fn for_case(&self, doc: &Document, name: &str) -> Result<Run, Diagnostic> {
        let spec = doc.path();
        let source = if self.line.contains("{spec}") {
            spec_text(spec)
        } else {
            None
        };
        let handout = crate::spec::public::handout(doc, name, &self.line, source.as_deref())?;
        if self.submission.is_none() && self.line.contains("{submission}") {
            return Err(Diagnostic::new(
                spec,
                "{submission} names the submission `gametrace grade` runs the command in",
            )
            .expected(format!(
                "a command line; placeholders {}",
                crate::spec::public::PLACEHOLDERS.join(" ")
            ))
            .found(self.line.clone())
            .hint(
                "grade a folder of submissions with `gametrace grade SUBMISSIONS --against CMD`",
            ));
        }
        let scratch = scratch(spec)?;
        let values = hand_over(&handout, &scratch, spec)?;
        let dir = self.submission.clone();
        self.run_with(spec, values, scratch, sandbox::grader_paths(spec), dir)
    }

    /// Is this a command that serves every tree of a run from one process: `{trees}` in its
    /// line, and nothing else of a case's (`{case}`, `{depth}`, `{spec}`, `{tree_json}`), no
    /// `--stdin` file (its stdin carries the trees), not `--per-case`?
    pub fn serves(&self) -> bool {
        let per_case = [
            "{spec}",
            "{case}",
            "{depth}",
            "{tree_json}",
            "{position_json}",
        ];
        self.serve
            && self.stdin.is_none()
            && self.line.contains("{trees}")
            && !per_case.iter().any(|p| self.line.contains(p))
    }

    /// The run of a command that serves trees ([`Program::serves`]): `{trees}` is `-`, its
    /// stdin the requests; `hidden` the grading files of every spec it serves; `shown` the
    /// path messages name.
    pub fn for_serving(&self, shown: &Path, hidden: Vec<PathBuf>) -> Result<Run, Diagnostic> {
        let scratch = scratch(shown)?;
        let values = vec![("trees", "-".to_owned())];
        self.run_with(shown, values, scratch, hidden, self.submission.clone())
    }

    /// What a serving command is sent for case `name` of `doc`: the case's tree and settings
    /// as `{tree_json}` hands them (the handout of a `{trees}` line: the public part alone),
    /// as one JSON value.
    pub fn served_tree(&self, doc: &Document, name: &str) -> Result<serde_json::Value, Diagnostic> {
        let handout = crate::spec::public::handout(doc, name, "{trees}", None)?;
        let json = handout.tree_json.unwrap_or_default();
        serde_json::from_str(&json)
            .map_err(|e| Diagnostic::new(doc.path(), format!("cannot serve the case's tree: {e}")))
    }

    /// The run of a driver that speaks for the student's game or player (`check-game`, `grade
    /// --game-cmd`, `--player-cmd`, `play`): `{submission}` its only placeholder; `spec` names
    /// the grading files to hide (none for a bare game).
    pub fn for_driver(&self, spec: Option<&Path>) -> Result<Run, Diagnostic> {
        let shown = spec.unwrap_or(Path::new("the command line"));
        let scratch = scratch(shown)?;
        let hidden = spec.map(sandbox::grader_paths).unwrap_or_default();
        self.run_with(shown, Vec::new(), scratch, hidden, self.submission.clone())
    }

    /// `check-game --course-dir`: the driver's run in a private copy of the course's folder
    /// (in the copy of the current folder when that lies inside it), made in the run's own
    /// folder; `left_out` is never copied with it.
    pub fn for_driver_in_copy(
        &self,
        spec: &Path,
        course: &Path,
        left_out: &[PathBuf],
    ) -> Result<Run, Diagnostic> {
        let scratch = scratch(spec)?;
        let (real, copy) = self.course_copy(&scratch, course, left_out)?;
        let here = std::env::current_dir()
            .and_then(std::fs::canonicalize)
            .unwrap_or_default();
        let dir = match here.strip_prefix(&real) {
            Ok(inside) => copy.join(inside),
            Err(_) => copy,
        };
        let hidden = sandbox::grader_paths(spec);
        self.run_with(spec, Vec::new(), scratch, hidden, Some(dir))
    }

    /// The run of a course's own program in a private copy of the course's folder, at the
    /// copy's top (CS188's `autograder.py`, for a test gametrace does not play itself):
    /// `left_out` is never copied; the caller puts the student's files in the copy.
    pub fn in_course_copy(
        &self,
        spec: &Path,
        course: &Path,
        left_out: &[PathBuf],
    ) -> Result<Run, Diagnostic> {
        let scratch = scratch(spec)?;
        let (_, copy) = self.course_copy(&scratch, course, left_out)?;
        let hidden = sandbox::grader_paths(spec);
        self.run_with(spec, Vec::new(), scratch, hidden, Some(copy))
    }

    /// A private copy of the course's folder in the run's scratch folder, `left_out` never
    /// copied: the folder's real path and the copy's.
    fn course_copy(
        &self,
        scratch: &Scratch,
        course: &Path,
        left_out: &[PathBuf],
    ) -> Result<(PathBuf, PathBuf), Diagnostic> {
        let cannot = |e: String| {
            Diagnostic::new(
                course,
                format!("cannot copy the course folder for the student's program: {e}"),
            )
            .hint("check the folder: only regular files, folders and links are copied, within --disk-limit")
        };
        let real = std::fs::canonicalize(course).map_err(|e| cannot(e.to_string()))?;
        let copy = scratch
            .copy_in_without(&real, self.limits.disk, left_out)
            .map_err(|e| cannot(e.to_string()))?;
        Ok((real, copy))
    }

    fn run_with(
        &self,
        spec: &Path,
        mut values: Vec<(&'static str, String)>,
        scratch: Scratch,
        hidden: Vec<PathBuf>,
        dir: Option<PathBuf>,
    ) -> Result<Run, Diagnostic> {
        // Fail closed: where the sandbox cannot confine, nothing of the student's runs.
        sandbox::confinable(&self.sandbox).map_err(|why| {
            Diagnostic::new(spec, "refused to run student code")
                .found(why)
                .hint("`gametrace doctor` says what this machine gives")
        })?;
        if let Some(dir) = &self.submission {
            values.push(("submission", dir.display().to_string()));
        }
        let words = crate::adapters::project_from_here(self.words(spec)?);
        let argv = fill(&words, &values, self.shell);
        // The drivers and examples it names that are not there, from gametrace's own copies.
        let argv = crate::adapters::provide(argv, dir.as_deref(), &scratch)
            .map_err(|e| unwritable(spec, "gametrace's drivers for the command", &e))?;
        let mut policy = self.sandbox.clone();
        policy.hidden.extend(hidden);
        // A submission's classmates are hidden; but where it runs in a staged copy of the
        // course folder (its own to write), the copy's other entries are the course's files,
        // not classmates (the real classmates were hidden when it was staged).
        if let Some(sub) = &self.submission {
            if !policy.writable.iter().any(|w| sub.starts_with(w)) {
                policy.hidden.extend(sandbox::classmates(sub));
            }
        }
        Ok(Run {
            argv,
            words,
            dir,
            stdin: self.stdin.clone(),
            limits: self.limits,
            policy,
            scratch,
            line: self.line.clone(),
        })
    }
}

impl Run {
    /// The job the sandbox runs.
    pub fn job(&self) -> Job<'_> {
        Job {
            argv: &self.argv,
            words: &self.words,
            stdin: self.stdin.as_deref(),
            dir: self.dir.as_deref(),
            limits: self.limits,
            scratch: &self.scratch,
            policy: &self.policy,
        }
    }

    /// The driver `check-game` talks with, `env` added to its environment.
    pub fn driver(&self, env: Vec<(String, String)>) -> crate::check_game::Driver<'_> {
        crate::check_game::Driver {
            job: self.job(),
            env,
        }
    }

    /// Runs it to its end.
    pub fn run(&self) -> Ran {
        sandbox::run(&self.job())
    }
}

/// The verdict a run that did not end well comes to (`None`: it exited 0).
pub fn status_of(ran: &Ran) -> Option<Status> {
    Some(match ran {
        Ran::Exited { .. } => return None,
        Ran::TimedOut { .. } => Status::Timeout,
        Ran::OutputLimit { .. } => Status::OutputLimit,
        Ran::Crashed { .. } => Status::Crashed,
        Ran::LimitHit { limit, .. } => crate::report::limit_status(*limit),
        _ => Status::NotFound,
    })
}

/// The spec's text, for its public part: the file, or the built-in copy of a built-in spec.
fn spec_text(spec: &Path) -> Option<String> {
    match std::fs::read(spec) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(_) => crate::builtin::file(spec).map(|b| String::from_utf8_lossy(b).into_owned()),
    }
}

/// The run's private folder: its home and temp directory, where its files are written.
fn scratch(spec: &Path) -> Result<Scratch, Diagnostic> {
    Scratch::new().map_err(|e| {
        Diagnostic::new(
            spec,
            format!("cannot make a temporary directory for the command: {e}"),
        )
        .found(e.to_string())
        .hint("check that the temporary directory ($TMPDIR) is writable")
    })
}

fn unwritable(spec: &Path, what: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::new(spec, format!("cannot write {what}: {e}"))
        .found(e.to_string())
        .hint("check that the temporary directory ($TMPDIR) is writable")
}

/// The handout's files written into the run's folder, and each placeholder's value: the
/// same in every mode (`--no-sandbox` too, where the program could read the spec itself).
fn hand_over(
    h: &Handout,
    scratch: &Scratch,
    spec: &Path,
) -> Result<Vec<(&'static str, String)>, Diagnostic> {
    let mut values = vec![("case", h.case.clone())];
    if let Some(depth) = &h.depth {
        values.push(("depth", depth.clone()));
    }
    if let Some((name, text)) = &h.spec {
        let path = scratch
            .write(name, text)
            .map_err(|e| unwritable(spec, "the spec's case for {spec}", &e))?;
        values.push(("spec", path.display().to_string()));
    }
    if let Some(json) = &h.tree_json {
        let path = scratch
            .write("tree.json", json.as_bytes())
            .map_err(|e| unwritable(spec, "the tree for {tree_json}", &e))?;
        values.push(("tree_json", path.display().to_string()));
        // A case run alone: `{trees}` is its tree's file too.
        values.push(("trees", path.display().to_string()));
    }
    if let Some(json) = &h.position_json {
        values.push(("position_json", json.clone()));
    }
    Ok(values)
}

/// The grader's words with the placeholders filled (shell-quoted in a `sh -c` line).
fn fill(words: &[String], values: &[(&str, String)], shell: bool) -> Vec<String> {
    if shell {
        let quoted: Vec<(&str, String)> = values
            .iter()
            .map(|(k, v)| {
                let q = shlex::try_quote(v).map_or_else(|_| v.clone(), |q| q.into_owned());
                (*k, q)
            })
            .collect();
        let pairs: Vec<(&str, &str)> = quoted.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut argv = words.to_vec();
        if let Some(line) = argv.last_mut() {
            *line = sandbox::substitute(line, &pairs);
        }
        return argv;
    }
    let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    words
        .iter()
        .map(|w| sandbox::substitute(w, &pairs))
        .collect()
}

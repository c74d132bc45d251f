//! `gametrace check-game`: a student's own game (Connect 4, PopOut, Tippy, Subtract Square)
//! against the spec's reference model, through a driver speaking the probe protocol.

use super::common::*;
use crate::check_game::{self as game, Driver};
use crate::report::Format;
use crate::spec::{self, Diagnostic, Document};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game spec (YAML): the game, its settings, its scenarios
    pub spec: PathBuf,
    /// The student's game behind a driver: `sml ... adapters/sml/s14/gametrace-game.sml ...` or
    /// `python3 adapters/python/gametrace_game.py STUDENT.py` (see `docs/src/probe-protocol.md`)
    #[arg(long, value_name = "COMMAND")]
    pub cmd: String,
    #[command(flatten)]
    pub game: GameArgs,
    /// The course's folder (its support code, as the handout ships it): copied into the
    /// run's private folder, and the command runs in the copy (in the copy of the current
    /// folder when that lies inside it), so relative paths such as a `sources.cm` reaching
    /// `../../../src` resolve there and SML/NJ can write its caches; the original is only read
    #[arg(long, value_name = "DIR", value_parser = existing_dir)]
    pub course_dir: Option<PathBuf>,
    /// Drivers to run at once for the playouts (default: one per core); the report is the
    /// same for any number
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: Option<u16>,
    /// On a difference, do not try the catalogue of rule mistakes
    #[arg(long)]
    pub no_diagnosis: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn execute(a: Args) -> i32 {
    let doc = match spec::load(&a.spec) {
        Ok(d) => d,
        Err(d) => return report_error(&d),
    };
    let Document::Game(g) = &doc else {
        return report_error(
            &Diagnostic::new(&a.spec, "check-game checks a game, and this spec has none")
                .expected("a game spec (`game: connect4`, `tippy`, `subtract_square`)")
                .found("a tree or task spec")
                .hint("check a searcher with `gametrace check SPEC --cmd ...`"),
        );
    };
    let argv = if a.run.shell {
        vec!["sh".to_owned(), "-c".to_owned(), a.cmd.clone()]
    } else {
        match crate::sandbox::split(&a.cmd) {
            Some(v) => v,
            None => {
                return report_error(
                    &Diagnostic::new(&a.spec, "cannot split the command line into arguments")
                        .expected("a command line")
                        .found(a.cmd.clone())
                        .hint("close every quote, or pass --shell to hand the line to sh"),
                )
            }
        }
    };
    let scratch = match crate::sandbox::Scratch::new() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot make a temporary directory for the student's program: {e}");
            return 2;
        }
    };
    let argv = match crate::adapters::provide(argv, None, &scratch) {
        Ok(argv) => argv,
        Err(e) => {
            eprintln!("error: cannot write gametrace's drivers for the command: {e}");
            return 2;
        }
    };
    // What the program's sandbox hides, never copied with a course folder it lies in.
    let mut hidden = crate::sandbox::grader_paths(&a.spec);
    hidden.extend(a.report.output.iter().cloned());
    let workdir = match &a.course_dir {
        None => None,
        Some(course) => match course_copy(course, &scratch, a.run.limits().disk, &hidden) {
            Ok(dir) => Some(dir),
            Err(e) => {
                eprintln!(
                    "error: cannot copy the course folder {} for the student's program: {e}",
                    course.display()
                );
                return 2;
            }
        },
    };
    let policy = a.run.sandbox(hidden);
    let driver = Driver {
        argv: &argv,
        dir: workdir.as_deref(),
        limits: a.run.limits(),
        scratch: &scratch,
        policy: &policy,
        env: Vec::new(),
    };
    let options = a.game.options(
        a.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        ),
        !a.no_diagnosis,
    );
    let name = a.spec.display().to_string();
    let report = match game::check_document(g, &name, &driver, &options) {
        Ok(r) => r,
        Err(game) => {
            return report_error(
                &Diagnostic::new(&a.spec, format!("check-game cannot check {game} yet"))
                    .expected("a spec of connect4 (or PopOut), riskless, tippy or subtract_square")
                    .found(format!("game: {game}"))
                    .hint("check the searchers of this game with `gametrace check --cmd`"),
            );
        }
    };
    let mut report = report;
    if a.report.for_students {
        for c in &mut report.cases {
            crate::report::for_students(c);
        }
    }
    let palette = a.report.palette();
    let text = match a.report.format {
        Format::Human => {
            let mut t = crate::report::render(&report, Format::Human, true, palette);
            if let Some(note) = &report.sandbox {
                t.push_str(&note.line());
                t.push('\n');
            }
            t
        }
        f => crate::report::render(&report, f, true, palette),
    };
    emit(&text, &a.report, &report.summary(true), report.exit_code())
}

/// A folder that exists (`--course-dir`).
pub(super) fn existing_dir(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() {
        Ok(p)
    } else {
        Err(format!(
            "expected the course's folder, found `{s}`, which is not a folder"
        ))
    }
}

/// Copies the course folder into the scratch folder; the folder the command runs in: the copy
/// of the current folder when that lies inside the course folder, else the copy's top.
/// A FIFO, socket or device in it, or files past `limit` in all, are refused before anything
/// is copied.
fn course_copy(
    course: &std::path::Path,
    scratch: &crate::sandbox::Scratch,
    limit: u64,
    left_out: &[PathBuf],
) -> std::io::Result<PathBuf> {
    let course = std::fs::canonicalize(course)?;
    let copy = scratch
        .copy_in_without(&course, limit, left_out)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let here = std::env::current_dir().and_then(std::fs::canonicalize)?;
    Ok(match here.strip_prefix(&course) {
        Ok(inside) => copy.join(inside),
        Err(_) => copy,
    })
}

//! `gametrace check-game`: a student's own game (Connect 4, PopOut, Tippy, Subtract Square)
//! against the spec's reference model, through a driver speaking the probe protocol.

use super::common::*;
use crate::check_game as game;
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

pub fn execute(a: Args) -> Exit {
    a.run.confined()?;
    let doc = spec::load(&a.spec)?;
    let Document::Game(g) = &doc else {
        return Err(
            Diagnostic::new(&a.spec, "check-game checks a game, and this spec has none")
                .expected("a game spec (`game: connect4`, `tippy`, `subtract_square`)")
                .found("a tree or task spec")
                .hint("check a searcher with `gametrace check SPEC --cmd ...`")
                .into(),
        );
    };
    // What the program's sandbox hides, never copied with a course folder it lies in.
    let mut hidden = crate::sandbox::grader_paths(&a.spec);
    hidden.extend(a.report.output.iter().cloned());
    let program = crate::student::Program {
        sandbox: a.run.sandbox(hidden.clone()),
        ..a.run.command("--cmd", a.cmd.clone())?
    };
    let run = match &a.course_dir {
        None => program.for_driver(Some(&a.spec)),
        Some(course) => program.for_driver_in_copy(&a.spec, course, &hidden),
    };
    let run = run?;
    let driver = run.driver(Vec::new());
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
            return Err(
                Diagnostic::new(&a.spec, format!("check-game cannot check {game} yet"))
                    .expected("a spec of connect4 (or PopOut), riskless, tippy or subtract_square")
                    .found(format!("game: {game}"))
                    .hint("check the searchers of this game with `gametrace check --cmd`")
                    .into(),
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

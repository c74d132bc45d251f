//! `gametrace check`: one implementation's output against the reference for one case.

use super::common::*;
use crate::check::case::{self, Source};
use crate::check::trace::Mode;
use crate::report::{Format, Report};
use crate::spec::{self, Diagnostic};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[group(id = "implementation", required = true, multiple = false)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// The spec file (YAML)
    pub spec: PathBuf,
    /// The case to check (may be left out when the spec has one case; `gametrace cases
    /// SPEC` lists them)
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,
    /// What the implementation printed (a raw SML/NJ transcript is fine); - for stdin
    #[arg(long, value_name = "FILE", group = "implementation")]
    pub actual: Option<PathBuf>,
    /// Run this command and check what it prints (placeholders: {spec} {case} {depth} {tree_json} {position_json})
    #[arg(long, value_name = "COMMAND", group = "implementation")]
    pub cmd: Option<String>,
    /// When the searcher runs on the student's own game: that game behind its driver (as
    /// `check-game --cmd` takes it). The report first says whether the game agrees with the
    /// reference on the positions the case's search goes through, so a searcher is never
    /// blamed for its game
    #[arg(long, value_name = "COMMAND")]
    pub game_cmd: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// What to compare (default: the case's `check:`, else full)
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<Mode>,
    /// Compare the spacing inside trace lines as printed (noise lines are still dropped)
    #[arg(long)]
    pub exact: bool,
    /// On a FAIL, do not try the catalogue of mistakes (`gametrace bugs`) to name the
    /// student's mistake
    #[arg(long)]
    pub no_diagnosis: bool,
    /// The most of --actual read; a larger output is not judged (verdict INPUT-TOO-LARGE)
    /// (K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_bytes)]
    pub max_input: usize,
    /// Stop the reference search after this many seconds and report the case as too big to
    /// check (a case's `time_limit:` wins)
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub time_limit: f64,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn execute(a: Args) -> Exit {
    if a.cmd.is_some() || a.game_cmd.is_some() {
        a.run.confined()?;
    }
    let game = a.game_cmd.clone().map(|line| (line, a.run.clone()));
    let source = match (a.actual, a.cmd) {
        (_, Some(line)) => Source::Command(Box::new(a.run.command("--cmd", line)?)),
        (Some(path), None) => Source::File(path),
        // clap requires one of them.
        (None, None) => return Ok(2),
    };
    let options = case::Options {
        mode: a.mode,
        palette: a.report.palette(),
        exact: a.exact,
        max_input: a.max_input as u64,
        diagnose: !a.no_diagnosis,
        figures: a.report.format.draws_trees(),
        time_limit: std::time::Duration::from_secs_f64(a.time_limit),
        cut_short: false,
    };
    check(a.spec, a.case, source, options, &a.report, game)
}

fn check(
    path: PathBuf,
    name: Option<String>,
    source: Source,
    options: case::Options,
    report: &ReportArgs,
    game: Option<(String, RunArgs)>,
) -> Exit {
    let doc = spec::load(&path)?;
    let names = doc.case_names();
    let name = match name {
        Some(n) if names.contains(&n.as_str()) => n,
        Some(n) => return Err(unknown_case(&path, &n, &names)),
        None => match doc.checkable_names()[..] {
            [only] => only.to_owned(),
            ref several => {
                return Err(Diagnostic::new(&path, "which case? the spec has several")
                    .expected("--case NAME")
                    .found(format!("{} cases: {}", several.len(), several.join(", ")))
                    .hint("`gametrace cases SPEC` lists them with their settings")
                    .into())
            }
        },
    };
    let palette = options.palette;
    let mut result = case::check_case(&doc, &name, &source, options)?;
    if let Some((line, run)) = &game {
        let agreement = game_agreement(&doc, &name, line, run, &path)?;
        let mut details = format!("{}\n", agreement.summary);
        details.push_str(&agreement.details);
        if !result.details.is_empty() {
            details.push('\n');
            details.push_str(&result.details);
        }
        result.details = details;
        if !agreement.agrees && !result.status.passed() {
            result.message = format!(
                "{} (and the student's game differs from the reference on the searched positions: see the first lines)",
                result.message
            );
        }
    }
    if report.for_students {
        crate::report::for_students(&mut result);
    }
    let all = Report {
        cases: vec![result],
        sandbox: match &source {
            Source::Command(cmd) => Some(crate::report::sandbox_note(&cmd.sandbox)),
            Source::File(_) => None,
        },
        questions: Vec::new(),
    };
    let text = match report.format {
        // One case: the verdict, the details, and the one-line summary last.
        Format::Human => crate::report::check_text(&all.cases[0], palette),
        f => crate::report::render(&all, f, false, palette),
    };
    emit(&text, report, &all.summary(false), all.exit_code())
}

/// `--game-cmd`: the student's game on the positions case `name`'s search goes through.
fn game_agreement(
    doc: &crate::spec::Document,
    name: &str,
    line: &str,
    run: &RunArgs,
    path: &std::path::Path,
) -> Result<crate::check_game::Agreement, Failure> {
    use crate::check_game as game;
    use crate::spec::Document;
    let Document::Game(g) = doc else {
        return Err(Diagnostic::new(
            path,
            "--game-cmd runs the student's game, and this spec has none",
        )
        .expected("a game spec (connect4, tippy, subtract_square)")
        .found("a tree or task spec")
        .hint("leave out --game-cmd")
        .into());
    };
    let program = crate::student::Program {
        sandbox: run.sandbox(Vec::new()),
        ..run.command("--game-cmd", line.to_owned())?
    };
    let run = program.for_driver(Some(path))?;
    let driver = run.driver(Vec::new());
    Ok(game::game_on_case(g, name, &driver, path)?)
}

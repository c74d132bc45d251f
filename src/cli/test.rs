//! `gametrace test`: the regression suite against expected traces, or with `--against`, an
//! implementation graded on every case.

use super::common::*;
use crate::check::case::{self, Program, Source};
use crate::check::trace::Mode;
use crate::report::{Format, Report};
use crate::suite;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// Spec files or directories of specs [default: specs]
    pub paths: Vec<PathBuf>,
    /// Run only the case of this name (repeat for more)
    #[arg(long, value_name = "NAME")]
    pub case: Vec<String>,
    /// Run only the cases whose names match this glob (`jamboree-*`; repeat for more)
    #[arg(long, value_name = "GLOB")]
    pub filter: Vec<String>,
    /// Write missing and changed expected traces instead of failing
    #[arg(long, conflicts_with = "against")]
    pub bless: bool,
    /// Check this command's output for every case instead of the expected files
    /// (placeholders: {spec} {case} {depth} {tree_json} {position_json})
    #[arg(long, value_name = "COMMAND")]
    pub against: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// With --against, run the command inside this folder (a student's submission; also
    /// {submission})
    #[arg(long, value_name = "DIR", requires = "against")]
    pub submission: Option<PathBuf>,
    /// With --against, CS188's course folder (with autograder.py): its Pacman-game tests are
    /// played by the course's own autograder, with the student's multiAgents.py, in the sandbox
    #[arg(long, value_name = "DIR", requires = "against")]
    pub project: Option<PathBuf>,
    /// What to compare with --against (default: each case's `check:`, else full)
    #[arg(long, value_enum, value_name = "MODE", requires = "against")]
    pub mode: Option<Mode>,
    /// With --against, on a FAIL do not try the catalogue of mistakes to name the mistake
    #[arg(long, requires = "against")]
    pub no_diagnosis: bool,
    /// With --against, check this many cases at once, each command in its own process group
    /// under its limits (default: one per core); the report is the same for any number
    #[arg(long, value_name = "N", requires = "against", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Stop a case's search after this many seconds and report TIMEOUT for it (a case's
    /// `time_limit:` wins); with --against, the reference search a case is checked against
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub time_limit: f64,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn execute(a: Args) -> Exit {
    let select = match suite::Selection::new(a.case, a.filter) {
        Ok(s) => s,
        Err(e) => {
            return Err(Failure::message(format!(
                "error: {e}\n  = hint: a glob uses * and ? and [abc], as in `jamboree-*`"
            )));
        }
    };
    if a.against.is_none() && a.report.for_students {
        // The regression suite compares gametrace's own traces with the expected files:
        // nothing in it is a student's, so there is nothing to hide. Doing nothing silently
        // would let a teacher believe a report was made safe to hand out.
        return Err(Failure::message("error: --for-students applies to a student's checks, and this run has none
  = expected: --against COMMAND (the student's program, checked on every case)
  = hint: `gametrace test --against CMD --for-students` writes a report to hand to the student; without --against, `test` checks the expected traces, a report for staff"));
    }
    if a.against.is_some() {
        a.run.confined()?;
    }
    let project = match a.project.as_deref().map(crate::grade::cs188::project) {
        Some(Err(e)) => return Err(Failure::message(format!("error: {e}"))),
        Some(Ok(p)) => Some(p),
        None => None,
    };
    match a.against {
        Some(line) => against(
            a.paths,
            project,
            match submission(a.submission) {
                Ok(dir) => Program {
                    submission: dir,
                    // The report being written is no student's to read.
                    sandbox: a.run.sandbox(a.report.output.iter().cloned().collect()),
                    ..a.run.command("--against", line)?
                },
                Err(f) => return Err(f),
            },
            case::Options {
                mode: a.mode,
                palette: a.report.palette(),
                exact: false,
                max_input: case::MAX_ACTUAL,
                diagnose: !a.no_diagnosis,
                figures: a.report.format.draws_trees(),
                time_limit: Duration::from_secs_f64(a.time_limit),
                cut_short: false,
            },
            a.jobs.map_or_else(crate::grade::default_jobs, usize::from),
            &select,
            &a.report,
        ),
        None => test(
            a.paths,
            a.bless,
            Duration::from_secs_f64(a.time_limit),
            &select,
            &a.report,
        ),
    }
}

/// `--submission DIR`, as an absolute path, or exit 2 when it is not a folder.
fn submission(dir: Option<PathBuf>) -> Result<Option<PathBuf>, Failure> {
    let Some(dir) = dir else { return Ok(None) };
    if !dir.is_dir() {
        return Err(Failure::message(format!("error: --submission {} is not a folder\n  = expected: the folder of the submission to run the command in\n  = hint: check the path",
            dir.display())));
    }
    Ok(Some(std::path::absolute(&dir).unwrap_or(dir)))
}

/// `test --against`: every case of every spec checked against the command's output, graded,
/// `jobs` cases at a time.
fn against(
    paths: Vec<PathBuf>,
    project: Option<PathBuf>,
    cmd: Program,
    options: case::Options,
    jobs: usize,
    select: &suite::Selection,
    args: &ReportArgs,
) -> Exit {
    let (specs, others) = super::common::specs_and_others_played(paths, project.is_some())?;
    if let Some(f) = nothing_selected(&specs, select) {
        return Err(f);
    }
    let palette = options.palette;
    let mut report = Report {
        sandbox: Some(crate::report::sandbox_note(&cmd.sandbox)),
        ..Report::default()
    };
    let suite = crate::grade::Suite::load_for(&specs, select, Some(&cmd.line))
        .not_running(others, select)
        .with_project(project);
    note_left_out(&suite);
    // Every spec of the run and its answers are hidden from each case's program, not only
    // its own case's.
    let mut cmd = cmd;
    cmd.sandbox
        .hidden
        .extend(suite.spec_paths().flat_map(crate::sandbox::grader_paths));
    // A CS188 run's named mistakes are held to every case of the searcher before any is
    // shown (a name must predict the program's other outputs), so its report is printed
    // once every case is checked.
    let confirming = options.diagnose && suite.confirms();
    let human = args.format == Format::Human && args.output.is_none();
    let streaming = human && !confirming;
    let source = Source::Command(Box::new(cmd));
    let mut stdout = io::stdout().lock();
    let mut write_error = None;
    let mut show = |r: &crate::report::CaseResult, write_error: &mut Option<io::Error>| {
        if write_error.is_none() {
            let text = crate::report::human_case(r, palette);
            if let Err(e) = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                *write_error = Some(e);
            }
        }
    };
    // Results come in the suite's order, so a streamed report is the same for any --jobs.
    suite.check_all(&source, options, jobs, |_, mut r| {
        if !confirming {
            if args.for_students {
                crate::report::for_students(&mut r);
            }
            if streaming {
                show(&r, &mut write_error);
            }
        }
        report.cases.push(r);
    });
    if confirming {
        gametrace_core::check::confirm::confirm(&mut report.cases, &|i, f| suite.with_case(i, f));
        for r in &mut report.cases {
            if args.for_students {
                crate::report::for_students(r);
            }
            if human {
                show(r, &mut write_error);
            }
        }
    }
    questions(&mut report);
    let code = report.exit_code();
    if human {
        let summary = format!("{}{}\n", report.questions_text(), report.summary(true));
        if let Err(e) = stdout
            .write_all(summary.as_bytes())
            .and_then(|()| stdout.flush())
        {
            write_error.get_or_insert(e);
        }
        return match write_error.map(write_failed) {
            Some(Err(f)) => Err(f),
            _ => Ok(code),
        };
    }
    drop(stdout);
    let text = crate::report::render(&report, args.format, true, palette);
    emit(&text, args, &report.summary(true), code)
}

/// The report's CS188 tests grouped into the course's questions (their points the
/// course's rule gives), with a note on stderr for each folder of tests that is no question.
pub(super) fn questions(report: &mut Report) {
    let (questions, notes) = gametrace_core::spec::cs188::questions::questions(&report.cases);
    for n in notes {
        eprintln!("note: {n}");
    }
    report.questions = questions;
    let environment = crate::grade::cs188::note_missing_modules(report);
    if report.questions.is_empty() {
        for e in environment {
            eprintln!("note: the student's {e}: install it there, or put the students' Python first on PATH");
        }
    }
}

/// Says on stderr that `test` removed what an interrupted run left behind.
fn note_stale(totals: &suite::Totals) {
    if totals.stale_temporaries > 0 {
        eprintln!(
            "note: removed {} stale temporary file{} ({}*) left by an interrupted run",
            totals.stale_temporaries,
            if totals.stale_temporaries == 1 {
                ""
            } else {
                "s"
            },
            suite::TEMPORARY_PREFIX
        );
    }
}

fn test(
    paths: Vec<PathBuf>,
    bless: bool,
    time_limit: Duration,
    select: &suite::Selection,
    args: &ReportArgs,
) -> Exit {
    let time_limit = Some(time_limit);
    let specs = specs_under(paths)?;
    if let Some(f) = nothing_selected(&specs, select) {
        return Err(f);
    }
    let palette = args.palette();
    if args.format != Format::Human || args.output.is_some() {
        let mut report = Report::default();
        let totals = suite::run(
            &specs,
            suite::Options {
                bless,
                palette,
                time_limit,
            },
            select,
            &mut |o: &suite::Outcome| report.cases.push(suite::to_result(o)),
        );
        note_stale(&totals);
        let text = crate::report::render(&report, args.format, false, palette);
        return emit(&text, args, &report.summary(false), totals.exit_code());
    }
    let mut out = io::stdout().lock();
    let mut write_error = None;
    let totals = suite::run(
        &specs,
        suite::Options {
            bless,
            palette,
            time_limit,
        },
        select,
        &mut |o: &suite::Outcome| {
            if write_error.is_none() {
                if let Err(e) = out.write_all(suite::render(o, palette).as_bytes()) {
                    write_error = Some(e);
                }
            }
        },
    );
    note_stale(&totals);
    let mut summary = String::new();
    if totals.missing + totals.errors + totals.blessed + totals.timed_out > 0 {
        let timed_out = match totals.timed_out {
            0 => String::new(),
            n => format!(", {n} timed out"),
        };
        summary.push_str(&format!(
            "({} missing, {} errors, {} blessed{timed_out})\n",
            totals.missing, totals.errors, totals.blessed
        ));
    }
    summary.push_str(&format!(
        "{} passed, {} failed\n",
        totals.passed, totals.failed
    ));
    if let Err(e) = out.write_all(summary.as_bytes()).and_then(|()| out.flush()) {
        write_error.get_or_insert(e);
    }
    if let Some(e) = write_error {
        write_failed(e)?;
    }
    Ok(totals.exit_code())
}

/// Says on stderr which cases a class named in the command left out.
pub(super) fn note_left_out(suite: &crate::grade::Suite) {
    for note in suite.notes() {
        eprintln!("note: {note}");
    }
    if suite.left_out() > 0 {
        eprintln!(
            "note: the command names a course class (a strategy or a player): {} of other classes left out, {} graded",
            plural(suite.left_out(), "case"),
            plural(suite.len(), "case")
        );
    }
}

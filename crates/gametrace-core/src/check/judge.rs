//! Judging what an implementation printed for one case against the reference, as a
//! [`CaseResult`]: the trace read in the case's mode, the divergence, the mistake that
//! explains it. Where the output comes from (a file, a sandboxed program, a paste in the
//! browser) is the caller's business.

use super::subject::{case_list, no_case, with_subject};
use super::trace::{self, Mode};
use crate::diff::Palette;
use crate::report::{CaseResult, Status};
use crate::spec::{Diagnostic, Document};

/// The most of an output gametrace reads from a file by default (`--max-input` changes it).
/// Past it the verdict is INPUT-TOO-LARGE: never a judgement of the part that was read.
pub const MAX_ACTUAL: u64 = 64 << 20;

#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Overrides each case's `check:` mode.
    pub mode: Option<Mode>,
    /// Compare the spacing inside trace lines as printed (`--exact`, or the case's `exact`).
    pub exact: bool,
    pub palette: Palette,
    /// The most of `--actual` read ([`MAX_ACTUAL`] unless `--max-input` says otherwise).
    pub max_input: u64,
    /// Name the mistake behind a FAIL from the catalogue (`--no-diagnosis` turns it off).
    pub diagnose: bool,
    /// Draw the tree of a failed case with the output's states marked (for HTML reports).
    pub figures: bool,
    /// How long the reference search may run (a case's `time_limit:` wins): a case too big
    /// to search in time is reported as such, not searched for ever.
    pub time_limit: std::time::Duration,
    /// The output stops short (the program crashed or was stopped): a mistake is named only
    /// if its trace begins with everything printed, where the reference's does not.
    pub cut_short: bool,
}

/// The result to fill in for case `name` of `doc`: its spec, points and visibility, with
/// `status`'s verdict and nothing said yet.
pub fn blank(doc: &Document, name: &str) -> CaseResult {
    let shown_spec = doc.path().display().to_string();
    let max_points = match doc {
        Document::Tree(s) => s.case(name).map_or(1.0, |c| c.points),
        Document::Task(s) => s.case(name).map_or(1.0, |c| c.points),
        Document::Game(g) => crate::with_game_spec!(g, s => s
            .case(name)
            .map(|c| c.case.points)
            .or_else(|| s.scenario(name).map(|c| c.points))
            .unwrap_or(1.0)),
    };
    CaseResult {
        visibility: doc.visibility(name),
        ..CaseResult::new(&shown_spec, name, Status::Fail, max_points)
    }
}

/// The depth a CSC148 adapter says the strategy searched to: its last `Depth: N (why)`
/// line, `None` for `Depth: unknown (why)`.
fn strategy_depth(output: &str) -> Option<(Option<u32>, String)> {
    let line = output.lines().rev().find(|l| l.starts_with("Depth: "))?;
    let rest = line["Depth: ".len()..].trim_end();
    let (n, why) = rest.split_once(' ')?;
    let why = why
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .to_owned();
    match n {
        "unknown" => Some((None, why)),
        n => n.parse().ok().map(|d| (Some(d), why)),
    }
}

/// A note on how a case was graded: in short on its message, whole first in its details.
fn noted(mut r: CaseResult, short: String, whole: String) -> CaseResult {
    r.message = format!("{} ({short})", r.message);
    r.details = format!("note: {whole}\n{}", r.details);
    r
}

/// Judges `output` (named `actual_name` in the report) for case `name` of `doc`. `Err` is a
/// case that cannot be judged at all (no such case, a mode it has no reading in).
pub fn judge_output(
    doc: &Document,
    name: &str,
    output: &str,
    actual_name: &str,
    options: Options,
) -> Result<CaseResult, Diagnostic> {
    judge(doc, name, output, actual_name, options, blank(doc, name))
}

/// How a run of a student's program ended, as the command line's sandbox and the page's
/// worker both tell it: what [`judge_run`] turns into the case's verdict.
#[derive(Clone, Debug)]
pub struct Ended<'a> {
    /// The command line as the grader wrote it (the report names it).
    pub command: &'a str,
    pub stdout: &'a str,
    /// The end of its stderr.
    pub stderr: &'a str,
    /// `None`: it exited 0; else the verdict of how it ended (TIMEOUT, CRASHED, a limit...)
    /// and the one line that says so.
    pub problem: Option<(Status, String)>,
}

/// The one place a run's end becomes a verdict and what a student reads of it: the output
/// judged, or the run's own end (a limit, a crash) with the end of its stderr (escaped) and,
/// where it printed something, how far that got; and [`crate::report::Own`], all a hidden
/// case's student report may say.
pub fn judge_run(
    doc: &Document,
    name: &str,
    run: &Ended,
    options: Options,
    blank: CaseResult,
) -> Result<CaseResult, Diagnostic> {
    let result = |status: Status| {
        let mut r = blank.clone();
        r.status = status;
        r.points = if status.passed() { r.max_points } else { 0.0 };
        r
    };
    let mut details = format!("command: {}\n", run.command);
    let err = run.stderr.trim_end();
    if !err.is_empty() {
        details.push_str("the end of its stderr:\n");
        for line in err.lines() {
            // Escaped: what a program printed never reaches a terminal raw.
            details.push_str(&format!("  | {}\n", crate::diff::visible(line)));
        }
    }
    let own = |message: Option<String>| crate::report::Own {
        message,
        details: details.clone(),
        printed: run.stdout.len(),
    };
    let Some((status, problem)) = run.problem.clone() else {
        let shown = format!("the output of `{}`", run.command);
        let mut r = judge(doc, name, run.stdout, &shown, options, result(Status::Fail))?;
        r.own = Some(own(None));
        return Ok(r);
    };
    if run.stdout.is_empty() || status == Status::NotFound {
        let mut r = result(status)
            .message(problem.clone())
            .details(details.clone());
        r.own = Some(own(Some(problem)));
        return Ok(r);
    }
    // What it printed before it stopped still says how far it got: diagnosed as far as it
    // goes (a search whose mistake makes the program crash is named by what it printed).
    let shown = format!("what `{}` printed before it stopped", run.command);
    let brief = Options {
        cut_short: true,
        ..options
    };
    let so_far = judge(doc, name, run.stdout, &shown, brief, result(Status::Fail))?;
    let mut r = result(status).message(problem.clone());
    r.diagnosis = so_far.diagnosis.clone();
    r.judged = so_far.judged.clone();
    r.own = Some(own(Some(problem)));
    let mut details = details.clone();
    details.push_str(&format!(
        "its output so far ({} bytes), checked: {} {}\n{}",
        run.stdout.len(),
        so_far.status.word(),
        so_far.message,
        so_far.details
    ));
    Ok(r.details(details))
}

/// Judges `output` for case `name`; `blank` is the result to fill in.
pub fn judge(
    doc: &Document,
    name: &str,
    output: &str,
    actual_name: &str,
    options: Options,
    blank: CaseResult,
) -> Result<CaseResult, Diagnostic> {
    let spec_path = doc.path();
    let result = |status: Status| {
        let mut r = blank.clone();
        r.status = status;
        r.points = if status.passed() { r.max_points } else { 0.0 };
        r
    };
    let output = output.to_owned();
    let actual_name = actual_name.to_owned();
    match doc {
        Document::Tree(spec) => {
            let Some(case) = spec.case(name) else {
                return Err(no_case(spec_path, name));
            };
            judge_trace(
                &trace::TreeCase { spec, case },
                doc,
                &output,
                &actual_name,
                options,
                result,
            )
        }
        Document::Game(g) => crate::with_game_spec!(g, spec => {
            let Some(case) = spec.case(name) else {
                if spec.scenario(name).is_some() {
                    return Err(Diagnostic::new(
                        spec_path,
                        format!("`{name}` is a scenario, and `check` grades search cases"),
                    )
                    .expected(format!("one of the search cases: {}", case_list(spec.cases.iter().map(|c| c.case.name.as_str()))))
                    .found(format!("scenario `{name}`"))
                    .hint("scenarios are judged by `gametrace test`, and printed move by move by `gametrace run`"));
                }
                return Err(no_case(spec_path, name));
            };
            if case.case.algorithm == crate::search::Algorithm::GameStateTree {
                let checked = super::metrics::check(&case.game, &case.case.metrics, &output)
                    .map_err(|why| {
                        Diagnostic::new(spec_path, format!("case `{name}` cannot be measured: {why}"))
                            .expected("a position whose game-state tree gametrace can count")
                            .found(why)
                            .hint("start the game-state tree closer to the end of the game")
                    })?;
                let status = if checked.passed() { Status::Pass } else { Status::Fail };
                return Ok(result(status)
                    .message(checked.summary())
                    .details(checked.details(&actual_name)));
            }
            // A CSC148 strategy's depth as the student wrote it (the adapter's `Depth:`
            // line): one that cannot be given is graded at its own depth, and one that
            // could not be found names no mistake.
            if case.case.rules == crate::spec::Rules::Csc148
                && case.case.depth != crate::search::csc148::TO_THE_END
            {
                if let Some((depth, why)) = strategy_depth(&output) {
                    return match depth {
                        Some(d) if d != case.case.depth => {
                            let mut own = case.clone();
                            own.case.depth = d;
                            let asked = case.case.depth;
                            judge_trace(&own, doc, &output, &actual_name, options, result).map(|r| {
                                noted(
                                    r,
                                    format!("graded at the strategy's own depth {d}: the case's {asked} cannot be given"),
                                    format!("the strategy searches {d} moves ahead, {why}; the case's depth, {asked}, cannot be given to it, so it is graded against the reference at depth {d}"),
                                )
                            })
                        }
                        Some(_) => judge_trace(case, doc, &output, &actual_name, options, result),
                        None => {
                            let blind = Options { diagnose: false, ..options };
                            judge_trace(case, doc, &output, &actual_name, blind, result).map(|r| {
                                noted(
                                    r,
                                    "the strategy's depth is unknown: no mistake is named".to_owned(),
                                    format!("{why}; a mistake named from a depth the strategy may ignore could be false, so none is"),
                                )
                            })
                        }
                    };
                }
            }
            judge_trace(case, doc, &output, &actual_name, options, result)
        }),
        Document::Task(spec) => {
            let Some(case) = spec.case(name) else {
                return Err(no_case(spec_path, name));
            };
            let reference = super::reference(spec, case).map_err(|r| {
                Diagnostic::new(
                    spec_path,
                    format!("case `{name}` has no reference value to check against"),
                )
                .expected("a case whose arguments meet the task's REQUIRES clause")
                .found(format!("REQUIRES violated: {r}"))
                .hint("`check` compares values; cases with expect_error test the reference itself")
            })?;
            let (found, lines) = super::transcript::last_value(&output);
            let Some(found) = found else {
                return Ok(result(Status::Fail)
                    .message(format!("no value found in {actual_name}"))
                    .details(format!(
                        "expected: {reference}\nread {lines} lines; looked for `val it = <value> : <type>` or a line that is just a value\n"
                    )));
            };
            let source = format!(
                "line {} of {actual_name}: {}",
                found.line,
                crate::diff::visible(&crate::spec::yaml::shorten(found.text.trim()))
            );
            Ok(
                match super::against_reference(spec, case, &reference, found.value) {
                    Ok(()) => result(Status::Pass)
                        .message(format!("{reference}"))
                        .details(format!(
                            "from {source} ({} other lines ignored)\n",
                            lines.saturating_sub(1)
                        )),
                    Err(why) => result(Status::Fail)
                        .message(format!("the value differs from {reference}"))
                        .details(
                            crate::diff::visible(&format!("{why}\nfrom {source}\n")).into_owned(),
                        ),
                },
            )
        }
    }
}

/// Judges a search case's output against its reference trace.
fn judge_trace(
    subject: &dyn trace::Subject,
    doc: &Document,
    output: &str,
    actual_name: &str,
    options: Options,
    result: impl Fn(Status) -> CaseResult,
) -> Result<CaseResult, Diagnostic> {
    let spec_path = doc.path();
    let case = subject.case();
    let name = &case.name;
    let shown_spec = spec_path.display();
    let mode = options.mode.unwrap_or(case.mode);
    let names = (
        format!("reference ({mode}): gametrace run {shown_spec} --case {name}"),
        actual_name.to_owned(),
    );
    let reading =
        trace::read(subject, mode, output, options.exact || case.exact).map_err(|why| {
            Diagnostic::new(spec_path, why)
                .expected("a mode this case can be checked in")
                .found(format!("--mode {mode}"))
                .hint("full, terminals and value work for every case")
        })?;
    let limit = case.time_limit.unwrap_or(options.time_limit);
    let deadline = crate::clock::Instant::now() + limit;
    let Some((reference, summary)) = subject.reference_within(reading.kinds, limit) else {
        let seconds = crate::search::deadline::seconds(limit);
        let whose = if case.time_limit.is_some() {
            "the case's `time_limit:`"
        } else {
            "--time-limit"
        };
        return Ok(result(Status::Error)
            .message(format!(
                "the reference search stopped after its time limit of {seconds} ({whose}): the output was not judged"
            ))
            .details(format!(
                "the case's search does not end within {seconds} on this machine, so there is no reference trace to compare with\nhint: give the case a larger `time_limit:` in the spec, or pass a larger --time-limit\n"
            )));
    };
    let visited = if options.figures && subject.draws() {
        trace::visited_places(subject, &reading)
    } else {
        Vec::new()
    };
    // On a FAIL, before the reading goes into the report: which mistake prints this?
    let diagnosis = if options.diagnose
        && !trace::agreement(subject, &reading, &reference, summary).exact
    {
        super::diagnose::diagnose(subject, &reading, options.cut_short, Some(deadline)).map(|d| {
            // Several mistakes print this output: which other case would tell them apart?
            let others = doc.case_names();
            let found =
                super::diagnose::separating_cases(&d, name, &others, &|other: &str,
                                                                       f: &mut dyn FnMut(
                    &dyn trace::Subject,
                )| {
                    let _ = with_subject(doc, other, |s| f(s));
                });
            d.with_separations(found)
        })
    } else {
        None
    };
    let checked = trace::judge(
        subject,
        reading,
        &reference,
        summary,
        (&names.0, &names.1),
        options.palette,
    );
    let status = if checked.passed {
        Status::Pass
    } else {
        Status::Fail
    };
    let note = diagnosis.as_ref().map_or("", |d| d.text.as_str());
    let mut r = result(status)
        .message(checked.summary.clone())
        .details(checked.details_with(actual_name, note));
    r.diagnosis = diagnosis;
    r.judged = Some(super::confirm::Judged {
        output: output.to_owned(),
        cut: options.cut_short,
        mode,
        exact: options.exact || case.exact,
    });
    r.failure = checked.divergence.as_ref().map(|d| crate::report::Failure {
        place: d.position.clone(),
        rows: checked.rows.clone(),
        more_rows: checked.more_rows,
        figure: options
            .figures
            .then(|| subject.figure(&visited, d.place.as_ref()))
            .flatten(),
    });
    Ok(r)
}

/// `{position_json}`: a game case's position as a course driver rebuilds it, with the case's
/// settings under `case`; `None` for games without such a driver.
pub fn position_json<G: crate::game::Playable>(
    c: &crate::spec::GameCase<G>,
) -> Option<serde_json::Value> {
    let mut json = c.game.position_json(&c.game.start())?;
    json["case"] = case_json(&c.case);
    Some(json)
}

/// What a driver needs of a case besides its position: the strategy (by the course's class
/// name), its depth (`null`: to the end) and the game-state tree functions to call.
pub fn case_json(case: &crate::spec::Case) -> serde_json::Value {
    use crate::search::csc148::{Strategy, TO_THE_END};
    use crate::search::Algorithm;
    let tree = case.algorithm == Algorithm::GameStateTree;
    serde_json::json!({
        "name": case.name,
        "algorithm": case.algorithm.name(),
        "strategy": (!tree).then(|| Strategy::of(case.algorithm, case.depth).class_name()),
        "depth": (case.depth != TO_THE_END).then_some(case.depth),
        "functions": if tree { case.metrics.clone() } else { Vec::new() },
        // How the case compares: a driver prints what `visited` reads without being told.
        "check": case.mode.to_string(),
    })
}

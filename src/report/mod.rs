//! Reports of `check` and `test`: one result per case, written for a person (`human`) or for
//! a consumer: `json`, JUnit XML (`junit`), TAP 14 (`tap`), Gradescope's `results.json`
//! (`gradescope`) and Autolab's `{"scores": ...}` line (`autolab`).

mod junit;

use crate::check::diff::Palette;
use serde::Serialize;
use std::fmt::Write as _;

/// How one case came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Pass,
    /// The output is wrong.
    Fail,
    /// The implementation ran too long, printed too much, or crashed.
    Timeout,
    OutputLimit,
    Crashed,
    /// The output given to check (`--actual`) is larger than gametrace reads: it is not
    /// judged, because judging a cut output could pass what was never read.
    InputTooLarge,
    /// The implementation's program does not exist or cannot start.
    NotFound,
    /// No expected trace to compare with (`test` without `--against`).
    Missing,
    /// The spec or an expected file was unusable.
    Error,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Timeout => "TIMEOUT",
            Status::OutputLimit => "OUTPUT-LIMIT",
            Status::Crashed => "CRASHED",
            Status::InputTooLarge => "INPUT-TOO-LARGE",
            Status::NotFound => "NOT-FOUND",
            Status::Missing => "MISSING",
            Status::Error => "ERROR",
        }
    }

    pub fn passed(self) -> bool {
        self == Status::Pass
    }

    /// Could the case not be judged at all (as opposed to being judged wrong)?
    pub fn is_error(self) -> bool {
        matches!(self, Status::NotFound | Status::Error)
    }

    fn color(self) -> anstyle::AnsiColor {
        use anstyle::AnsiColor::*;
        match self {
            Status::Pass => Green,
            Status::Missing => Yellow,
            _ => Red,
        }
    }
}

/// One case's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseResult {
    pub spec: String,
    pub case: String,
    pub status: Status,
    /// Points earned: all of `max_points` on a pass, none otherwise.
    pub points: f64,
    pub max_points: f64,
    /// One line: what was compared and how it came out, or what went wrong.
    pub message: String,
    /// The rest: where the output first diverges, the diff, stderr; lines without indentation.
    pub details: String,
    /// On a FAIL of a search case: the catalogued mistake that prints this output, if any.
    pub diagnosis: Option<crate::check::diagnose::Diagnosis>,
    /// Who may see the result (the case's `visibility:`).
    pub visibility: crate::spec::Visibility,
}

impl CaseResult {
    pub fn new(spec: &str, case: &str, status: Status, max_points: f64) -> CaseResult {
        CaseResult {
            spec: spec.to_owned(),
            case: case.to_owned(),
            status,
            points: if status.passed() { max_points } else { 0.0 },
            max_points,
            message: String::new(),
            details: String::new(),
            diagnosis: None,
            visibility: crate::spec::Visibility::Visible,
        }
    }

    pub fn message(mut self, m: impl Into<String>) -> Self {
        self.message = m.into();
        self
    }

    pub fn details(mut self, d: impl Into<String>) -> Self {
        self.details = d.into();
        self
    }

    /// `specs/x.yaml alphabeta`
    pub fn name(&self) -> String {
        format!("{} {}", self.spec, self.case)
    }
}

/// The results of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub cases: Vec<CaseResult>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.status.passed()).count()
    }

    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed()
    }

    pub fn score(&self) -> f64 {
        self.cases.iter().map(|c| c.points).sum()
    }

    pub fn max_score(&self) -> f64 {
        self.cases.iter().map(|c| c.max_points).sum()
    }

    /// 0 all passed, 2 something could not be judged, 1 something failed.
    pub fn exit_code(&self) -> i32 {
        if self.cases.iter().any(|c| c.status.is_error()) {
            2
        } else if self.failed() > 0 {
            1
        } else {
            0
        }
    }

    /// `3 passed, 1 failed` and, when grading, `score 3 / 4`.
    pub fn summary(&self, graded: bool) -> String {
        let mut s = format!("{} passed, {} failed", self.passed(), self.failed());
        if graded {
            let _ = write!(
                s,
                "; score {} / {}",
                number(self.score()),
                number(self.max_score())
            );
        }
        s
    }
}

/// A report format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Tap,
    Gradescope,
    Autolab,
}

impl Format {
    /// The file name extension of a report in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Human | Format::Autolab => "txt",
            Format::Json | Format::Gradescope => "json",
            Format::Junit => "xml",
            Format::Tap => "tap",
        }
    }
}

/// `3`, `2.5`: points as a person writes them.
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The human report of one case: the verdict line and the details, indented.
pub fn human_case(c: &CaseResult, palette: Palette) -> String {
    let word = format!("{:<7} ", c.status.word());
    let style = anstyle::Style::new()
        .fg_color(Some(c.status.color().into()))
        .bold();
    let mut out = palette.paint(style, &word);
    out.push_str(&c.name());
    if !c.message.is_empty() {
        let _ = write!(out, ": {}", c.message);
    }
    out.push('\n');
    for line in c.details.lines() {
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// Characters XML 1.0 and YAML cannot hold (what a crashing program printed may hold any).
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[derive(Serialize)]
struct JsonReport<'a> {
    format: &'static str,
    version: u32,
    passed: usize,
    failed: usize,
    score: f64,
    max_score: f64,
    cases: &'a [CaseResult],
}

#[derive(Serialize)]
struct GradescopeTest {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    /// Gradescope's own field: visible, hidden, after_due_date or after_published.
    visibility: &'static str,
}

#[derive(Serialize)]
struct Gradescope {
    score: f64,
    max_score: f64,
    output: String,
    tests: Vec<GradescopeTest>,
}

/// A result as a student may see it (`--for-students`): a case that is not `visible` keeps its
/// verdict, message, place of divergence, the student's own line and the diagnosis, but loses
/// every reference line (`expected:` and the diff), so a hidden test does not give away its
/// tree.
pub fn for_students(c: &mut CaseResult) {
    if c.visibility == crate::spec::Visibility::Visible {
        return;
    }
    let mut kept = String::new();
    let mut lines = c.details.lines().peekable();
    let mut diff_indent: Option<usize> = None;
    let mut redacted = false;
    while let Some(line) = lines.next() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let body = &line[indent..];
        if let Some(at) = diff_indent {
            let in_diff = indent >= at
                && (line.len() == at
                    || matches!(line.as_bytes()[at], b' ' | b'+' | b'-' | b'@')
                    || line[at..].starts_with("... "));
            if in_diff {
                continue;
            }
            diff_indent = None;
        }
        if body.starts_with("--- ") {
            diff_indent = Some(indent);
            redacted = true;
            continue;
        }
        if body.starts_with("expected: ") {
            redacted = true;
            // The caret line under it marks reference words too.
            if lines
                .peek()
                .is_some_and(|l| l.trim_start().starts_with('^'))
            {
                lines.next();
            }
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    if redacted {
        kept.push_str("(a hidden case: its reference lines are not shown)\n");
    }
    c.details = kept;
}

/// The whole report in `format` (human reports are written case by case by the caller; this
/// gives the same text at once).
pub fn render(report: &Report, format: Format, graded: bool, palette: Palette) -> String {
    match format {
        Format::Human => {
            let mut out: String = report
                .cases
                .iter()
                .map(|c| human_case(c, palette))
                .collect();
            out.push_str(&report.summary(graded));
            out.push('\n');
            out
        }
        Format::Json => {
            let r = JsonReport {
                format: "gametrace-report",
                version: 1,
                passed: report.passed(),
                failed: report.failed(),
                score: report.score(),
                max_score: report.max_score(),
                cases: &report.cases,
            };
            let mut s = serde_json::to_string_pretty(&r).expect("a report serialises");
            s.push('\n');
            s
        }
        Format::Junit => junit::render(report),
        Format::Tap => tap(report),
        Format::Gradescope => {
            let g = Gradescope {
                score: report.score(),
                max_score: report.max_score(),
                output: report.summary(true),
                tests: report
                    .cases
                    .iter()
                    .map(|c| GradescopeTest {
                        name: c.name(),
                        score: c.points,
                        max_score: c.max_points,
                        status: if c.status.passed() {
                            "passed"
                        } else {
                            "failed"
                        },
                        output: clean(&human_case(c, Palette { color: false })),
                        visibility: c.visibility.name(),
                    })
                    .collect(),
            };
            let mut s = serde_json::to_string_pretty(&g).expect("a report serialises");
            s.push('\n');
            s
        }
        Format::Autolab => {
            // Autolab shows the whole output as feedback and reads the scores from its last line.
            let mut out = render(report, Format::Human, true, Palette { color: false });
            let mut scores = serde_json::Map::new();
            for c in &report.cases {
                scores.insert(c.name(), serde_json::json!(c.points));
            }
            let line = serde_json::json!({ "scores": scores });
            out.push_str(&line.to_string());
            out.push('\n');
            out
        }
    }
}

/// TAP version 14: a plan, one test point per case, YAML diagnostics under failures.
fn tap(report: &Report) -> String {
    let mut out = String::from("TAP version 14\n");
    let _ = writeln!(out, "1..{}", report.cases.len());
    let quoted = |s: &str| serde_json::to_string(&clean(s)).expect("a string serialises");
    for (i, c) in report.cases.iter().enumerate() {
        // A description may not hold `#` unescaped (it starts a directive).
        let name = clean(&c.name()).replace('\\', "\\\\").replace('#', "\\#");
        let ok = if c.status.passed() { "ok" } else { "not ok" };
        let _ = writeln!(out, "{ok} {} - {}", i + 1, name.replace('\n', " "));
        if c.status.passed() {
            continue;
        }
        out.push_str("  ---\n");
        let _ = writeln!(out, "  status: {}", c.status.word());
        let _ = writeln!(out, "  message: {}", quoted(&c.message));
        let _ = writeln!(out, "  points: {}", number(c.points));
        let _ = writeln!(out, "  max_points: {}", number(c.max_points));
        if !c.details.trim().is_empty() {
            // JSON strings are YAML scalars, so the details survive any content.
            let _ = writeln!(out, "  details: {}", quoted(&c.details));
        }
        out.push_str("  ...\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            cases: vec![
                CaseResult::new("specs/a.yaml", "ab", Status::Pass, 2.0)
                    .message("full: all 5 trace lines match"),
                CaseResult::new("specs/a.yaml", "jam#1", Status::Fail, 1.0)
                    .message("full: 1 of 5 lines differ")
                    .details("expected: x <&>\n  actual: y \u{1b}[0m"),
                CaseResult::new("specs/b.yaml", "slow", Status::Timeout, 0.5)
                    .message("ran past the 10 s timeout"),
            ],
        }
    }

    #[test]
    fn scores_and_exit_codes() {
        let r = sample();
        assert_eq!((r.passed(), r.failed()), (1, 2));
        assert_eq!((r.score(), r.max_score()), (2.0, 3.5));
        assert_eq!(r.exit_code(), 1);
        assert_eq!(r.summary(true), "1 passed, 2 failed; score 2 / 3.5");
    }

    #[test]
    fn tap_has_a_plan_points_and_yaml_diagnostics() {
        let t = render(&sample(), Format::Tap, true, Palette { color: false });
        assert!(t.starts_with("TAP version 14\n1..3\nok 1 - specs/a.yaml ab\nnot ok 2 - specs/a.yaml jam\\#1\n  ---\n  status: FAIL\n"), "{t}");
        assert!(!t.contains('\u{1b}'));
    }

    #[test]
    fn autolab_ends_with_the_scores() {
        let t = render(&sample(), Format::Autolab, true, Palette { color: false });
        let last = t.lines().last().unwrap();
        let v: serde_json::Value = serde_json::from_str(last).unwrap();
        assert_eq!(v["scores"]["specs/a.yaml ab"], 2.0);
        assert_eq!(v["scores"]["specs/b.yaml slow"], 0.0);
    }
}

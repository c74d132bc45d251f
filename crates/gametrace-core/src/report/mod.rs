//! Reports of `check` and `test`: one result per case, written for a person (`human`) or for
//! a consumer: `json`, JUnit XML (`junit`), TAP 14 (`tap`), Gradescope's `results.json`
//! (`gradescope`) and Autolab's `{"scores": ...}` line (`autolab`).

mod html;
mod junit;

use crate::diff::Palette;
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
    /// It ran into a limit of the sandbox: memory, CPU time, processes, file size.
    MemoryLimit,
    CpuLimit,
    ProcessLimit,
    FileSizeLimit,
    /// Its files together outgrew the disk quota.
    DiskLimit,
    /// It tried to open a network connection.
    Network,
    /// The output given to check (`--actual`) is larger than gametrace reads: it is not
    /// judged, because judging a cut output could pass what was never read.
    InputTooLarge,
    /// The implementation's program does not exist or cannot start.
    NotFound,
    /// The submission holds what gametrace will not copy or run: a FIFO, a socket or a
    /// device. Nothing of it was run.
    Refused,
    /// No expected trace to compare with (`test` without `--against`).
    Missing,
    /// Planned but not run, and worth nothing: a check-game scenario whose position the
    /// course's driver has no way to set up. Counted apart: neither passed nor failed.
    Skipped,
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
            Status::MemoryLimit => "MEMORY-LIMIT",
            Status::CpuLimit => "CPU-LIMIT",
            Status::ProcessLimit => "PROCESS-LIMIT",
            Status::FileSizeLimit => "FILE-SIZE-LIMIT",
            Status::DiskLimit => "DISK-LIMIT",
            Status::Network => "NETWORK",
            Status::InputTooLarge => "INPUT-TOO-LARGE",
            Status::NotFound => "NOT-FOUND",
            Status::Refused => "REFUSED",
            Status::Missing => "MISSING",
            Status::Skipped => "SKIPPED",
            Status::Error => "ERROR",
        }
    }

    pub fn passed(self) -> bool {
        self == Status::Pass
    }

    /// Not run on purpose (counted neither as passed nor as failed).
    pub fn skipped(self) -> bool {
        self == Status::Skipped
    }

    /// Could the case not be judged at all (as opposed to being judged wrong)?
    pub fn is_error(self) -> bool {
        matches!(self, Status::NotFound | Status::Error)
    }

    /// The colour a report paints the status's word in.
    pub fn color(self) -> anstyle::AnsiColor {
        use anstyle::AnsiColor::*;
        match self {
            Status::Pass => Green,
            Status::Missing | Status::Skipped => Yellow,
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
    pub diagnosis: Option<crate::diagnosis::Diagnosis>,
    /// Who may see the result (the case's `visibility:`).
    pub visibility: crate::spec::Visibility,
    /// On a FAIL of a trace: where it parts from the reference, for the reports that show it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// What the program printed, as it was judged: a run's other cases hold a named mistake
    /// to it ([`crate::check::confirm`]). Never in a report.
    #[serde(skip)]
    pub judged: Option<crate::check::confirm::Judged>,
    /// What the student's own program did, for the student's view of a hidden case
    /// ([`for_students`]). Never in a report as such.
    #[serde(skip)]
    pub own: Option<Own>,
}

/// Where a wrong trace parts from the reference: the place, the lines side by side, and a
/// picture of the tree with the output's states and the place marked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// `node g: child 1 of c, depth 2, Maxie to move; path a -0-> b -1-> g`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// The differing lines with a little context, expected beside the output's.
    pub rows: Vec<crate::diff::Row>,
    /// Changed lines past the rows shown.
    pub more_rows: usize,
    /// The tree drawn (an SVG), for explicit trees when a report asks for pictures.
    #[serde(skip)]
    pub figure: Option<String>,
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
            failure: None,
            judged: None,
            own: None,
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
    /// How student code was run, when the report judged a command's output.
    pub sandbox: Option<SandboxNote>,
    /// The course's questions, where it grades by question (CS188: see
    /// [`crate::spec::cs188::questions`]): then the score is theirs, and the reports show
    /// them. Empty for every other course, whose reports are unchanged.
    #[serde(skip)]
    pub questions: Vec<Question>,
}

/// A question of a course that gives points per question, not per test (CS188's
/// `PassAllTestsQuestion`): its tests among the report's cases and the points the course's
/// rule gives them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Question {
    /// `q2`: the folder of its tests.
    pub name: String,
    /// The course's class for it (`PassAllTestsQuestion`).
    pub class: String,
    pub points: f64,
    pub max_points: f64,
    /// Some test was not run and none failed: the course's points may be lower.
    pub provisional: bool,
    /// How many tests it has (run or not).
    pub tests: usize,
    /// The tests that failed (by name).
    pub failed: Vec<String>,
    /// The tests that were not run (a Pacman game without `--project`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
    /// One line: the points and why.
    pub message: String,
    /// Its tests: indices into the report's cases.
    #[serde(skip)]
    pub cases: Vec<usize>,
}

impl Question {
    /// `q2: 5 / 5: all 33 tests run pass`
    pub fn line(&self) -> String {
        format!("{}: {}", self.name, self.message)
    }

    pub fn passed(&self) -> bool {
        self.points >= self.max_points
    }
}

/// What the sandbox gave the commands a report judged (see `gametrace doctor`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SandboxNote {
    /// False under `--no-sandbox`.
    pub on: bool,
    /// `landlock v7, seccomp, net+pid namespaces, cgroup v1, rlimits`
    pub protections: String,
    /// The protections this machine could not give.
    pub missing: Vec<&'static str>,
}

impl SandboxNote {
    /// One line for a summary: `sandbox: landlock v7, ...`.
    pub fn line(&self) -> String {
        format!("sandbox: {}", self.protections)
    }
}

impl Report {
    pub fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.status.passed()).count()
    }

    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed() - self.skipped()
    }

    pub fn skipped(&self) -> usize {
        self.cases.iter().filter(|c| c.status.skipped()).count()
    }

    /// The points: each question's where the course grades by question, each other case's.
    pub fn score(&self) -> f64 {
        self.questions.iter().map(|q| q.points).sum::<f64>()
            + self.loose().map(|c| c.points).sum::<f64>()
    }

    pub fn max_score(&self) -> f64 {
        self.questions.iter().map(|q| q.max_points).sum::<f64>()
            + self.loose().map(|c| c.max_points).sum::<f64>()
    }

    /// Is case `i` a test of some question?
    pub fn in_question(&self, i: usize) -> bool {
        self.questions.iter().any(|q| q.cases.contains(&i))
    }

    /// The cases that are no question's tests (every case, for a course without questions).
    pub fn loose(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.in_question(*i))
            .map(|(_, c)| c)
    }

    /// The course's questions, one line each (empty without questions), for a human report
    /// before its summary.
    pub fn questions_text(&self) -> String {
        let mut out = String::new();
        for q in &self.questions {
            let _ = writeln!(out, "{}", q.line());
        }
        out
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

    /// `3 passed, 1 failed` (`, 2 skipped` when some were) and, when grading, `score 3 / 4`.
    pub fn summary(&self, graded: bool) -> String {
        let mut s = format!("{} passed, {} failed", self.passed(), self.failed());
        if self.skipped() > 0 {
            let _ = write!(s, ", {} skipped", self.skipped());
        }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    Human,
    Json,
    Junit,
    Tap,
    /// Gradescope's `results.json`, each test's output as text.
    Gradescope,
    /// Gradescope's `results.json`, each test's output as HTML (`output_format: html`): the
    /// HTML report's content for the case.
    GradescopeHtml,
    /// Gradescope's `results.json`, each test's output as Markdown (`output_format: md`).
    GradescopeMd,
    Autolab,
    /// PrairieLearn's external grader `results.json`.
    Prairielearn,
    /// One self-contained page: each case's verdict and, for a failure, the tree with the
    /// output's states and the first divergence marked, the lines side by side, the diagnosis.
    Html,
}

impl Format {
    /// The file name extension of a report in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Human | Format::Autolab => "txt",
            Format::Json
            | Format::Gradescope
            | Format::GradescopeHtml
            | Format::GradescopeMd
            | Format::Prairielearn => "json",
            Format::Junit => "xml",
            Format::Tap => "tap",
            Format::Html => "html",
        }
    }

    /// Does the report show the trees of failed cases (so the check must draw them)?
    pub fn draws_trees(self) -> bool {
        matches!(self, Format::Html | Format::GradescopeHtml)
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

/// One case as `check` prints it for a person: the verdict and the details, with the
/// one-line summary last (where a terminal leaves it in view). The browser page shows the same.
pub fn check_text(c: &CaseResult, palette: Palette) -> String {
    let mut t = human_case(
        &CaseResult {
            message: String::new(),
            ..c.clone()
        },
        palette,
    );
    t.push_str(&format!("{}: {}\n", c.status.word(), c.message));
    t
}

/// The human report of one case: the verdict line and the details, indented.
pub fn human_case(c: &CaseResult, palette: Palette) -> String {
    let word = format!("{:<7} ", c.status.word());
    let style = anstyle::Style::new()
        .fg_color(Some(c.status.color().into()))
        .bold();
    let mut out = palette.paint(style, &word);
    // The last guard against a program's text on a terminal: every control escaped (but the
    // colours of a coloured report), whichever message forgot to escape it.
    let shown = |t: &str| {
        if !palette.color {
            crate::diff::visible(t).into_owned()
        } else {
            crate::diff::visible_but_colour(t).into_owned()
        }
    };
    out.push_str(&shown(&c.name()));
    if !c.message.is_empty() {
        let _ = write!(out, ": {}", shown(&c.message));
    }
    out.push('\n');
    for line in c.details.lines() {
        let _ = writeln!(out, "    {}", shown(line));
    }
    out
}

/// Characters XML 1.0 and YAML cannot hold (what a crashing program printed may hold any).
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() || is_noncharacter(c) => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// Unicode's noncharacters (U+FDD0..U+FDEF, and the last two code points of every plane):
/// U+FFFE and U+FFFF are not allowed in XML or YAML at all, so a program that prints one
/// would make a JUnit or TAP report unreadable to whatever parses it.
pub(crate) fn is_noncharacter(c: char) -> bool {
    matches!(c, '\u{fdd0}'..='\u{fdef}') || (c as u32) & 0xfffe == 0xfffe
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct JsonReport<'a> {
    format: &'static str,
    version: u32,
    passed: usize,
    failed: usize,
    #[serde(skip_serializing_if = "is_zero")]
    skipped: usize,
    score: f64,
    max_score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    sandbox: Option<&'a SandboxNote>,
    /// The course's questions, where it grades by question (CS188); absent otherwise.
    #[serde(skip_serializing_if = "<[Question]>::is_empty")]
    questions: &'a [Question],
    cases: &'a [CaseResult],
}

#[derive(Serialize)]
struct GradescopeTest {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    /// `html` or `md` when the output is not plain text.
    #[serde(skip_serializing_if = "Option::is_none")]
    output_format: Option<&'static str>,
    /// Gradescope's own field: visible, hidden, after_due_date or after_published.
    visibility: &'static str,
}

/// PrairieLearn's external grader results (`/grade/results/results.json`).
#[derive(Serialize)]
struct PrairieLearn {
    /// False when nothing could be judged (no program, an unusable spec): PrairieLearn then
    /// charges no attempt.
    gradable: bool,
    /// 0 to 1.
    score: f64,
    message: String,
    output: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    format_errors: Vec<String>,
    tests: Vec<PrairieLearnTest>,
}

#[derive(Serialize)]
struct PrairieLearnTest {
    name: String,
    description: String,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
}

/// PrairieLearn shows at most 1 MB of results; each test's output is kept well under it.
const PRAIRIELEARN_TEST_OUTPUT: usize = 32 << 10;

#[derive(Serialize)]
struct Gradescope {
    score: f64,
    max_score: f64,
    output: String,
    /// Gradescope keeps `extra_data` without showing it: how the code was run.
    #[serde(skip_serializing_if = "Option::is_none")]
    extra_data: Option<serde_json::Value>,
    tests: Vec<GradescopeTest>,
}

/// What the student's own program did in a case, kept apart from the judgement of it: all a
/// hidden case's student report may say besides its verdict. Built from the run alone (the
/// command line as the grader wrote it, the program's stderr, how much it printed), so it
/// holds nothing of the reference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Own {
    /// The run's own word when the run, not the judge, decided the verdict (`ran past 10 s`,
    /// `the submission has no strategy.py, which the command names`).
    pub message: Option<String>,
    /// The command line as the grader wrote it, and the end of the program's stderr (escaped).
    pub details: String,
    /// Bytes the program printed on stdout.
    pub printed: usize,
}

/// A result as a student may see it (`--for-students`). A `visible` case is shown whole: its
/// reference is public by the course's choice. Any other case is **rebuilt** from what may be
/// shown of it, by allow-list: its name, verdict and points, and what the student's own
/// program did ([`Own`]); never a word computed from the reference (no expected line or
/// value, no missing state, no place in the tree, no diagnosis, no picture). So two answers
/// that give a program the same verdict give its student the same report, byte for byte
/// (`tests/student_view.rs`).
pub fn for_students(c: &mut CaseResult) {
    if c.visibility == crate::spec::Visibility::Visible {
        return;
    }
    let own = c.own.take().unwrap_or_default();
    c.message = own
        .message
        .filter(|_| !matches!(c.status, Status::Pass | Status::Fail | Status::Error))
        .unwrap_or_else(|| hidden_message(c.status).to_owned());
    let mut details = own.details;
    if own.printed > 0 || c.status == Status::Fail {
        details.push_str(&format!(
            "your program printed {} bytes on stdout\n",
            own.printed
        ));
    }
    details.push_str("(a hidden case: only its verdict and your own program's output are shown)\n");
    c.details = details;
    c.diagnosis = None;
    c.failure = None;
    c.judged = None;
}

/// A hidden case's message: its verdict in words, the same for any reference.
fn hidden_message(status: Status) -> &'static str {
    match status {
        Status::Pass => "passed",
        Status::Fail => "the output is not what the reference prints",
        Status::Timeout => "the program ran past its time limit",
        Status::OutputLimit => "the program printed more than its output limit",
        Status::Crashed => "the program crashed",
        Status::MemoryLimit => "the program ran out of its memory limit",
        Status::CpuLimit => "the program used more than its CPU time limit",
        Status::ProcessLimit => "the program started more processes than its limit",
        Status::FileSizeLimit => "the program wrote a file past its size limit",
        Status::DiskLimit => "the program's files outgrew its disk limit",
        Status::Network => "the program tried to open a network connection",
        Status::InputTooLarge => "the output is larger than gametrace reads",
        Status::NotFound => "the program could not be found or started",
        Status::Refused => "the submission holds a file gametrace will not copy or run",
        Status::Missing | Status::Error => "the case could not be judged",
        Status::Skipped => "not run",
    }
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
            out.push_str(&report.questions_text());
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
                skipped: report.skipped(),
                score: report.score(),
                max_score: report.max_score(),
                sandbox: report.sandbox.as_ref(),
                questions: &report.questions,
                cases: &report.cases,
            };
            let mut s = serde_json::to_string_pretty(&r).expect("a report serialises");
            s.push('\n');
            s
        }
        Format::Junit => junit::render(report),
        Format::Tap => tap(report),
        Format::Gradescope | Format::GradescopeHtml | Format::GradescopeMd => {
            let g = Gradescope {
                score: report.score(),
                max_score: report.max_score(),
                output: report.summary(true),
                extra_data: report
                    .sandbox
                    .as_ref()
                    .map(|s| serde_json::json!({ "sandbox": s })),
                tests: report
                    .questions
                    .iter()
                    .map(|q| gradescope_question(report, q, format))
                    .chain(report.loose().map(|c| GradescopeTest {
                        name: c.name(),
                        score: c.points,
                        max_score: c.max_points,
                        // Gradescope has no third word; a skipped check is worth nothing
                        // and says so in its output.
                        status: if c.status.passed() || c.status.skipped() {
                            "passed"
                        } else {
                            "failed"
                        },
                        output: match format {
                            Format::GradescopeHtml => html::case_fragment(c),
                            Format::GradescopeMd => markdown_case(c),
                            _ => clean(&human_case(c, Palette { color: false })),
                        },
                        output_format: match format {
                            Format::GradescopeHtml => Some("html"),
                            Format::GradescopeMd => Some("md"),
                            _ => None,
                        },
                        visibility: c.visibility.name(),
                    }))
                    .collect(),
            };
            let mut s = serde_json::to_string_pretty(&g).expect("a report serialises");
            s.push('\n');
            s
        }
        Format::Prairielearn => prairielearn(report),
        Format::Html => html::page(report, graded),
        Format::Autolab => {
            // Autolab shows the whole output as feedback and reads the scores from its last line.
            let mut out = render(report, Format::Human, true, Palette { color: false });
            let mut scores = serde_json::Map::new();
            for q in &report.questions {
                scores.insert(q.name.clone(), serde_json::json!(q.points));
            }
            for c in report.loose() {
                scores.insert(c.name(), serde_json::json!(c.points));
            }
            let line = serde_json::json!({ "scores": scores });
            out.push_str(&line.to_string());
            out.push('\n');
            out
        }
    }
}

/// PrairieLearn's `results.json`: the score as a fraction, each case a test.
fn prairielearn(report: &Report) -> String {
    let max = report.max_score();
    let judged = report.cases.iter().any(|c| !c.status.is_error());
    let cap = |text: String| {
        if text.len() <= PRAIRIELEARN_TEST_OUTPUT {
            return text;
        }
        let mut end = PRAIRIELEARN_TEST_OUTPUT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!(
            "{}\n... {} more bytes not shown\n",
            &text[..end],
            text.len() - end
        )
    };
    let r = PrairieLearn {
        gradable: judged || report.cases.is_empty(),
        score: if max > 0.0 {
            (report.score() / max).clamp(0.0, 1.0)
        } else {
            0.0
        },
        message: report.summary(true),
        output: report
            .cases
            .iter()
            .map(|c| format!("{} {}\n", c.status.word(), c.name()))
            .collect(),
        format_errors: if judged {
            Vec::new()
        } else {
            report
                .cases
                .iter()
                .map(|c| clean(&format!("{}: {}", c.name(), c.message)))
                .collect()
        },
        tests: report
            .questions
            .iter()
            .map(|q| PrairieLearnTest {
                name: q.name.clone(),
                description: clean(&q.line()),
                points: q.points,
                max_points: q.max_points,
                message: clean(&q.message),
                output: cap(clean(&question_output(report, q, Palette { color: false }))),
            })
            .chain(report.loose().map(|c| PrairieLearnTest {
                name: c.name(),
                description: format!("{}: {}", c.status.word(), clean(&c.message)),
                points: c.points,
                max_points: c.max_points,
                message: clean(&c.message),
                output: cap(clean(&c.details)),
            }))
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&r).expect("a report serialises");
    s.push('\n');
    s
}

/// What a question's test says: the rule's line, then each test that failed or was not run,
/// as a human report shows it (the named mistake with it).
fn question_output(report: &Report, q: &Question, palette: Palette) -> String {
    let mut out = format!("{}\n", q.line());
    for &i in &q.cases {
        let c = &report.cases[i];
        if !c.status.passed() {
            out.push_str(&human_case(c, palette));
        }
    }
    out
}

/// A question as one Gradescope test: its points, and its failing tests in its output.
fn gradescope_question(report: &Report, q: &Question, format: Format) -> GradescopeTest {
    let output = match format {
        Format::GradescopeHtml => {
            let mut out = format!("<p>{}</p>\n", html::escape(&q.line()));
            for &i in &q.cases {
                if !report.cases[i].status.passed() {
                    out.push_str(&html::case_fragment(&report.cases[i]));
                }
            }
            out
        }
        Format::GradescopeMd => {
            let mut out = format!("**{}** {}\n\n", q.name, q.message);
            for &i in &q.cases {
                if !report.cases[i].status.passed() {
                    out.push_str(&markdown_case(&report.cases[i]));
                }
            }
            out
        }
        _ => clean(&question_output(report, q, Palette { color: false })),
    };
    // A question's tests are shown together: it is visible when every test is.
    let hidden = q
        .cases
        .iter()
        .map(|&i| report.cases[i].visibility)
        .find(|v| *v != crate::spec::Visibility::Visible);
    GradescopeTest {
        name: q.name.clone(),
        score: q.points,
        max_score: q.max_points,
        status: if q.passed() { "passed" } else { "failed" },
        output,
        output_format: match format {
            Format::GradescopeHtml => Some("html"),
            Format::GradescopeMd => Some("md"),
            _ => None,
        },
        visibility: hidden.unwrap_or(crate::spec::Visibility::Visible).name(),
    }
}

/// A case for Gradescope's Markdown output: the verdict, the message, the details as code.
fn markdown_case(c: &CaseResult) -> String {
    let mut out = format!("**{}** {}", c.status.word(), c.name());
    if !c.message.is_empty() {
        let _ = write!(out, ": {}", c.message);
    }
    out.push_str("\n\n");
    if !c.details.trim().is_empty() {
        // A fence longer than any run of backticks inside keeps the details whole.
        let longest = c
            .details
            .split(|ch| ch != '`')
            .map(str::len)
            .max()
            .unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let _ = write!(out, "{fence}\n{}\n{fence}\n", clean(&c.details).trim_end());
    }
    out
}

/// TAP version 14: a plan, one test point per case, YAML diagnostics under failures.
fn tap(report: &Report) -> String {
    let mut out = String::from("TAP version 14\n");
    let _ = writeln!(out, "1..{}", report.cases.len());
    let quoted = |s: &str| serde_json::to_string(&clean(s)).expect("a string serialises");
    for (i, c) in report.cases.iter().enumerate() {
        // A description may not hold `#` unescaped (it starts a directive).
        let name = clean(&c.name()).replace('\\', "\\\\").replace('#', "\\#");
        let ok = if c.status.passed() || c.status.skipped() {
            "ok"
        } else {
            "not ok"
        };
        let _ = write!(out, "{ok} {} - {}", i + 1, name.replace('\n', " "));
        if c.status.skipped() {
            // TAP's SKIP directive: the reason, on one line.
            let reason = clean(&c.message).replace('\n', " ").replace('#', "\\#");
            let _ = writeln!(out, " # SKIP {reason}");
            continue;
        }
        out.push('\n');
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
    // The course's questions, as comments (a TAP consumer counts the test points).
    for q in &report.questions {
        let _ = writeln!(out, "# {}", clean(&q.line()).replace('\n', " "));
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
            sandbox: None,
            questions: Vec::new(),
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

    /// A check that was not run is neither passed nor failed, in every format.
    #[test]
    fn a_skipped_check_counts_neither_way_in_every_format() {
        let mut r = Report {
            cases: vec![
                CaseResult::new("specs/g.yaml", "perft", Status::Pass, 1.0),
                CaseResult::new("specs/g.yaml", "scenario far", Status::Skipped, 0.0)
                    .message("not replayed: its position # cannot be reached"),
            ],
            sandbox: None,
            questions: Vec::new(),
        };
        r.cases[1].max_points = 0.0;
        assert_eq!((r.passed(), r.failed(), r.skipped()), (1, 0, 1));
        assert_eq!(r.exit_code(), 0);
        assert_eq!(
            r.summary(true),
            "1 passed, 0 failed, 1 skipped; score 1 / 1"
        );
        let plain = Palette { color: false };
        let human = render(&r, Format::Human, true, plain);
        assert!(
            human.contains("SKIPPED specs/g.yaml scenario far: not replayed"),
            "{human}"
        );
        let tap = render(&r, Format::Tap, true, plain);
        assert!(
            tap.contains("ok 2 - specs/g.yaml scenario far # SKIP not replayed: its position \\# cannot be reached\n"),
            "{tap}"
        );
        let junit = render(&r, Format::Junit, true, plain);
        assert!(junit.contains("skipped=\"1\""), "{junit}");
        assert!(junit.contains("<skipped message=\"not replayed"), "{junit}");
        assert!(junit.contains("failures=\"0\""), "{junit}");
        let json: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Json, true, plain)).unwrap();
        assert_eq!(
            (json["failed"].as_u64(), json["skipped"].as_u64()),
            (Some(0), Some(1))
        );
        let gs: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Gradescope, true, plain)).unwrap();
        assert_eq!(gs["tests"][1]["status"], "passed");
        assert_eq!(gs["tests"][1]["max_score"], 0.0);
    }

    /// A course that grades by question: the score is the questions', Gradescope gets one
    /// test a question (its failing tests in its output), and a report without questions is
    /// as it always was.
    #[test]
    fn a_question_is_one_gradescope_test_worth_its_points() {
        let mut r = Report {
            cases: vec![
                CaseResult::new("t/q2/a.test", "a", Status::Pass, 1.0),
                CaseResult::new("t/q2/b.test", "b", Status::Fail, 1.0)
                    .message("visited: 1 missing"),
                CaseResult::new("specs/x.yaml", "ab", Status::Pass, 2.0),
            ],
            sandbox: None,
            questions: Vec::new(),
        };
        let plain = Palette { color: false };
        let before = render(&r, Format::Gradescope, true, plain);
        assert_eq!((r.score(), r.max_score()), (3.0, 4.0));
        r.questions = vec![Question {
            name: "q2".to_owned(),
            class: "PassAllTestsQuestion".to_owned(),
            points: 0.0,
            max_points: 5.0,
            provisional: false,
            tests: 2,
            failed: vec!["b".to_owned()],
            not_run: Vec::new(),
            message: "0 / 5: 1 of 2 tests failed (b)".to_owned(),
            cases: vec![0, 1],
        }];
        assert_eq!((r.score(), r.max_score()), (2.0, 7.0));
        let gs: serde_json::Value =
            serde_json::from_str(&render(&r, Format::Gradescope, true, plain)).unwrap();
        let tests = gs["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 2, "{gs}");
        assert_eq!(tests[0]["name"], "q2");
        assert_eq!(tests[0]["score"], 0.0);
        assert_eq!(tests[0]["max_score"], 5.0);
        assert_eq!(tests[0]["status"], "failed");
        let output = tests[0]["output"].as_str().unwrap();
        assert!(
            output.contains("FAIL    t/q2/b.test b: visited: 1 missing"),
            "{output}"
        );
        assert!(!output.contains("t/q2/a.test"), "{output}");
        assert_eq!(tests[1]["name"], "specs/x.yaml ab");
        assert_eq!(gs["score"], 2.0);
        let human = render(&r, Format::Human, true, plain);
        assert!(
            human
                .ends_with("q2: 0 / 5: 1 of 2 tests failed (b)\n2 passed, 1 failed; score 2 / 7\n"),
            "{human}"
        );
        r.questions.clear();
        assert_eq!(render(&r, Format::Gradescope, true, plain), before);
    }

    #[test]
    fn a_programs_noncharacters_never_reach_xml_or_yaml() {
        // U+FFFE and U+FFFF may appear in neither XML nor YAML: a program that printed them
        // on stderr made the JUnit and TAP reports unparseable (found by a red team).
        let report = Report {
            cases: vec![CaseResult::new("s.yaml", "c\u{fffe}", Status::Fail, 1.0)
                .message("crashed")
                .details("stderr: \u{fffe}\u{ffff}\u{fdd0}\u{10ffff}")],
            sandbox: None,
            questions: Vec::new(),
        };
        for format in [Format::Junit, Format::Tap] {
            let text = render(&report, format, true, Palette { color: false });
            assert!(!text.chars().any(is_noncharacter), "{format:?}: {text}");
            assert!(text.contains('\u{fffd}'), "{format:?}: {text}");
        }
        assert_eq!(crate::diff::visible("a\u{ffff}"), "a\\u{ffff}");
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

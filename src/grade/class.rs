//! `gametrace grade`: a suite run against every submission in a folder, the command run
//! inside each one. Each submission gets its report; the class gets a gradebook (CSV and
//! JSON: a row a submission, a column a case) and a summary (the scores' histogram, the cases
//! most often failed, the mistakes most often named). A run can be resumed: a submission whose
//! report is complete is not graded again.

use super::{in_order, Suite};
use crate::check::case::{self, Program, Source};
use crate::diagnosis::Finding;
use crate::report::{number, CaseResult, Format, Report};
use crate::spec::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A submission: a folder under the submissions folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The folder's name, which names its report and its gradebook row.
    pub name: String,
    pub dir: PathBuf,
}

/// The submissions under `dir`: its folders, by name (hidden ones left out), and the names
/// of the other entries (files, and links, even to folders), which are not graded.
pub fn submissions(dir: &Path) -> Result<(Vec<Submission>, Vec<String>), Diagnostic> {
    let unreadable = |e: std::io::Error| {
        Diagnostic::new(dir, "cannot read the submissions folder")
            .expected("a folder with a folder for each submission")
            .found(e.to_string())
            .hint("check the path; each student's files go in a folder of their own")
    };
    if !dir.is_dir() {
        return Err(Diagnostic::new(dir, "the submissions are not a folder")
            .expected("a folder with a folder for each submission")
            .found(if dir.exists() {
                "a file"
            } else {
                "nothing at this path"
            })
            .hint(
                "gametrace grade SUBMISSIONS --against CMD grades every folder under SUBMISSIONS",
            ));
    }
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = folder_name(&entry.file_name());
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        // A link is not followed: `evil -> victim` would be graded on a classmate's files,
        // `evil -> /course` on the grader's.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.push(Submission {
                name,
                dir: std::path::absolute(&path).unwrap_or(path),
            });
        } else {
            skipped.push(name);
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    skipped.sort();
    Ok((found, skipped))
}

/// A folder's name as its report and gradebook row are named: as it is where it is UTF-8
/// without a backslash; otherwise each byte that is not UTF-8 written `\xHH` and each
/// backslash `\\`. One name to one folder: two folders whose names differ only in bytes that
/// are not UTF-8 (`a\xff`, `a\xfe`) never share a report or a row.
pub fn folder_name(name: &std::ffi::OsStr) -> String {
    let mut out = String::new();
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Shard `k` of `n` (counting from 1): the submissions at places k, k + n, k + 2n, ... of
/// `subs` (in name order), so that `n` machines share a class evenly and deterministically.
pub fn shard(subs: Vec<Submission>, k: usize, n: usize) -> Vec<Submission> {
    subs.into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, s)| s)
        .collect()
}

/// How a class is graded.
#[derive(Clone, Debug)]
pub struct Options {
    /// The command run for each case, inside the submission.
    pub against: Program,
    pub check: case::Options,
    /// Submissions graded at once.
    pub jobs: usize,
    /// Each submission's report.
    pub format: Format,
    pub for_students: bool,
    /// Where the reports, the gradebook and the summary go.
    pub out: PathBuf,
    /// Keep the submissions whose report is complete from an earlier run.
    pub resume: bool,
    /// Each submission's own game, checked by `check-game` against these specs.
    pub games: Option<Games>,
    /// The course's folder each submission is graded inside (`--course-dir`).
    pub course: Option<Course>,
    /// Each submission's Kalah player, against the perfect player (`--player-cmd`).
    pub players: Option<std::sync::Arc<super::players::Players>>,
}

/// `grade --course-dir DIR --submission-into SUB`: the course's folder (its library, its
/// build files) copied afresh for each submission, the submission's files copied over
/// `SUB` inside it, and every command run there.
#[derive(Clone, Debug)]
pub struct Course {
    pub dir: PathBuf,
    /// Where the submission's files go, relative to `dir`.
    pub into: PathBuf,
    /// What is never copied with it when it lies inside: the grader's specs, expected traces
    /// and repository, the class, the reports (what the program's sandbox hides, it must
    /// not find again in its own copy).
    pub left_out: Vec<PathBuf>,
    /// The files a submission must bring, by their paths inside it (`--student-file`).
    pub must_bring: Vec<PathBuf>,
}

/// What a submission brings to the course folder, judged before it is staged.
enum Brought {
    /// It brings its own files.
    Own,
    /// It lacks files it must bring (`--student-file`): NOT-FOUND.
    Lacks(Vec<PathBuf>),
    /// It replaces none of the course's files where it goes, and no file is declared: the
    /// course's own files are graded with it, and its report says so.
    Nothing(Vec<PathBuf>),
}

impl Course {
    /// What `submission` brings: every declared file, or (none declared) at least one of
    /// the course's files where it goes.
    fn brought(&self, submission: &Path) -> Brought {
        let is_file = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
        if !self.must_bring.is_empty() {
            let lacking: Vec<PathBuf> = self
                .must_bring
                .iter()
                .filter(|p| !is_file(&submission.join(p)))
                .cloned()
                .collect();
            return if lacking.is_empty() {
                Brought::Own
            } else {
                Brought::Lacks(lacking)
            };
        }
        let at = self.dir.join(&self.into);
        let mut course = Vec::new();
        regular_files(&at, Path::new(""), 0, &mut course);
        if course.is_empty() || course.iter().any(|p| is_file(&submission.join(p))) {
            Brought::Own
        } else {
            Brought::Nothing(course)
        }
    }

    /// A private copy of the course folder with the submission's files in place; the
    /// folder the commands run in. The copy lives as long as the returned `Staged`.
    /// A submission's files past `limit` in all (their written sizes, a sparse file's whole
    /// length), or a FIFO, socket or device among them, are refused before anything is
    /// copied.
    fn stage(
        &self,
        submission: &Path,
        limit: u64,
    ) -> Result<(Staged, PathBuf), crate::sandbox::files::StageError> {
        use crate::sandbox::files::StageError;
        let (files, size) = crate::sandbox::files::contents(submission)?;
        if files == 0 {
            return Err(StageError::Empty);
        }
        if limit > 0 && size > limit {
            return Err(StageError::TooBig { size, limit });
        }
        let scratch = crate::sandbox::Scratch::new()?;
        let copy = scratch.copy_in_without(&self.dir, 0, &self.left_out)?;
        let at = copy.join(&self.into);
        scratch.overlay(submission, &at, limit)?;
        let mut hidden = crate::sandbox::classmates(submission);
        hidden.push(submission.to_owned());
        Ok((
            Staged {
                scratch: Some(scratch),
                hidden,
            },
            at,
        ))
    }
}

/// The regular files under `dir`, by their paths below it (sorted, at most 4 levels down and
/// 1000 files: enough to say what a submission would have replaced).
fn regular_files(dir: &Path, rel: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if out.len() >= 1000 {
            return;
        }
        let Ok(kind) = e.file_type() else { continue };
        let path = rel.join(e.file_name());
        if kind.is_file() {
            out.push(path);
        } else if kind.is_dir() && depth < 4 {
            regular_files(&e.path(), &path, depth + 1, out);
        }
    }
}

/// What a staged course folder changes in a submission's sandbox: the copy is its to read
/// and write (compilers write caches beside the sources), while the real submission folder
/// and its classmates stay hidden.
#[derive(Default)]
pub(crate) struct Staged {
    scratch: Option<crate::sandbox::Scratch>,
    hidden: Vec<PathBuf>,
}

impl Staged {
    pub(crate) fn apply(&self, policy: &mut crate::sandbox::Policy) {
        if let Some(s) = &self.scratch {
            policy.writable.push(s.path().to_owned());
        }
        policy.hidden.extend(self.hidden.iter().cloned());
    }
}

/// `grade --game-cmd`: the student's own game, behind a driver started inside each
/// submission, checked as `check-game` checks it.
#[derive(Clone, Debug)]
pub struct Games {
    /// The game specs (loaded, and each a game `check-game` checks), each with the command of
    /// its driver.
    pub specs: Vec<GameCheck>,
    pub options: crate::check_game::Options,
    /// Settings for single submissions (`--roster`).
    pub roster: Roster,
}

/// One `--game` spec and the driver that checks it (`--game-cmd`, one for every spec or one
/// a spec, in order).
#[derive(Clone, Debug)]
pub struct GameCheck {
    pub path: PathBuf,
    pub doc: std::sync::Arc<crate::spec::GameDocument>,
    /// The driver's command line (`{submission}` names the submission), its limits and
    /// sandbox.
    pub cmd: Program,
}

/// `grade --roster FILE`: what cannot be found in a submission, said for it by name. A CSV
/// file of `submission,setting,value` rows (a header row of those words may come first):
/// `class`, `module`, `construct` and `base` are handed to the game's driver as
/// `GAMETRACE_CLASS`, ... (the Python driver reads them before its command line's words);
/// `GAME:setting` (`tippy:class`) holds only for that game's specs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// Submission -> (game, setting, value), in the file's order.
    pub rows: BTreeMap<String, Vec<(Option<String>, String, String)>>,
}

/// The settings a roster may give, and the environment variable each becomes.
pub const ROSTER_SETTINGS: [(&str, &str); 4] = [
    ("class", "GAMETRACE_CLASS"),
    ("module", "GAMETRACE_MODULE"),
    ("construct", "GAMETRACE_CONSTRUCT"),
    ("base", "GAMETRACE_BASE"),
];

/// The games a roster setting may be scoped to (what a driver reads in `GAMETRACE_GAME`).
pub const ROSTER_GAMES: [&str; 5] = ["tippy", "subtract_square", "connect4", "popout", "riskless"];

impl Roster {
    /// Reads a roster; `Err` names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Roster, (usize, String)> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let mut roster = Roster::default();
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(i + 1, |p| p.line() as usize);
                (line, e.to_string())
            })?;
            let line = record.position().map_or(i + 1, |p| p.line() as usize);
            let fields: Vec<&str> = record.iter().collect();
            if fields.iter().all(|f| f.is_empty()) {
                continue;
            }
            if i == 0 && fields == ["submission", "setting", "value"] {
                continue;
            }
            let [submission, setting, value] = fields.as_slice() else {
                return Err((
                    line,
                    format!(
                        "expected three fields, submission,setting,value; found {}",
                        fields.len()
                    ),
                ));
            };
            let (game, name) = match setting.split_once(':') {
                Some((g, n)) => (Some(g.to_owned()), n),
                None => (None, *setting),
            };
            if let Some(g) = &game {
                if !ROSTER_GAMES.contains(&g.as_str()) {
                    return Err((
                        line,
                        format!(
                            "no game `{g}`: a setting may be scoped to one of {}",
                            ROSTER_GAMES.join(", ")
                        ),
                    ));
                }
            }
            if !ROSTER_SETTINGS.iter().any(|(s, _)| *s == name) {
                let names: Vec<&str> = ROSTER_SETTINGS.iter().map(|(s, _)| *s).collect();
                return Err((
                    line,
                    format!("no setting `{name}`: the settings are {}", names.join(", ")),
                ));
            }
            if submission.is_empty() {
                return Err((line, "the submission's name is empty".to_owned()));
            }
            roster
                .rows
                .entry((*submission).to_owned())
                .or_default()
                .push((game, name.to_owned(), (*value).to_owned()));
        }
        Ok(roster)
    }

    /// The driver's environment for one submission's game (`game` as its driver names it).
    pub fn env(&self, submission: &str, game: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (scope, name, value) in self.rows.get(submission).into_iter().flatten() {
            if scope.as_deref().is_some_and(|g| g != game) {
                continue;
            }
            if let Some((_, var)) = ROSTER_SETTINGS.iter().find(|(s, _)| s == name) {
                out.retain(|(k, _): &(String, String)| k != var);
                out.push(((*var).to_owned(), value.clone()));
            }
        }
        out
    }

    /// The roster in one line, for `graded_with` (a resumed run grades again what was
    /// graded with other settings).
    fn line(&self) -> String {
        let mut parts = Vec::new();
        for (sub, rows) in &self.rows {
            for (g, n, v) in rows {
                let g = g.as_deref().map(|g| format!("{g}:")).unwrap_or_default();
                parts.push(format!("{sub} {g}{n}={v}"));
            }
        }
        parts.join("; ")
    }
}

impl Games {
    /// One submission's game against each spec: the cases of each `check-game` report.
    fn check(&self, submission: &str, dir: &Path, staged: &Staged) -> Vec<CaseResult> {
        let mut cases = Vec::new();
        for spec in &self.specs {
            let (path, doc) = (&spec.path, &spec.doc);
            let name = path.display().to_string();
            let failed = |why: String| {
                CaseResult::new(&name, "driver", crate::report::Status::Error, 0.0).message(why)
            };
            let mut program = spec.cmd.clone();
            program.submission = Some(dir.to_owned());
            staged.apply(&mut program.sandbox);
            let run = match program.for_driver(Some(path)) {
                Ok(run) => run,
                Err(d) => {
                    cases.push(failed(d.message));
                    continue;
                }
            };
            let game =
                crate::with_game_spec!(doc.as_ref(), s => crate::game::Playable::name(&s.game));
            let driver = run.driver(self.roster.env(submission, game));
            match crate::check_game::check_document(doc, &name, &driver, &self.options) {
                Ok(report) => cases.extend(report.cases),
                Err(game) => cases.push(failed(format!("check-game cannot check {game}"))),
            }
        }
        cases
    }
}

/// What the gradebook keeps of one case of a submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// `specs/x.yaml alphabeta`
    pub case: String,
    /// `PASS`, `FAIL`, `TIMEOUT`, ...
    pub status: String,
    pub points: f64,
    pub max_points: f64,
    /// The catalogued mistakes that print exactly this output (`child-value-as-bound:minnie`,
    /// two joined by `+`), when the diagnosis named any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mistakes: Vec<String>,
}

/// One submission's row of the gradebook; also written beside its report, which is how a
/// resumed run knows the submission was graded, and with what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub submission: String,
    pub score: f64,
    pub max_score: f64,
    pub cases: Vec<Cell>,
    /// The course's questions and their points, where it grades by question (CS188).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<QuestionCell>,
    /// The command and the cases it was graded with: a resumed run grades again what was
    /// graded with something else.
    pub graded_with: String,
    /// What the grading machine lacked for it: `imports numpy, which python3 (/usr/bin/python3)
    /// lacks`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<String>,
}

/// What the gradebook keeps of one question of a submission (CS188).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionCell {
    /// `q2`
    pub question: String,
    pub points: f64,
    pub max_points: f64,
    /// Some test of it was not run (a Pacman game without --project) and none failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

impl Row {
    fn of(submission: &str, report: &Report, graded_with: &str) -> Row {
        Row {
            submission: submission.to_owned(),
            score: report.score(),
            max_score: report.max_score(),
            cases: report.cases.iter().map(cell).collect(),
            questions: report
                .questions
                .iter()
                .map(|q| QuestionCell {
                    question: q.name.clone(),
                    points: q.points,
                    max_points: q.max_points,
                    provisional: q.provisional,
                })
                .collect(),
            graded_with: graded_with.to_owned(),
            environment: Vec::new(),
        }
    }

    /// Did any case fail to be judged as wrong or right (a timeout, a crash, no program)?
    fn problems(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| !matches!(c.status.as_str(), "PASS" | "FAIL" | "SKIPPED"))
            .count()
    }
}

fn cell(c: &CaseResult) -> Cell {
    let mistakes = match &c.diagnosis {
        Some(d) if d.finding == Finding::Exact => d
            .explanations
            .iter()
            .map(|e| {
                e.iter()
                    .map(|n| n.bug.as_str())
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect(),
        _ => Vec::new(),
    };
    Cell {
        case: c.name(),
        status: c.status.word().to_owned(),
        points: c.points,
        max_points: c.max_points,
        mistakes,
    }
}

/// The file names a run writes under its output folder.
pub struct Layout {
    pub out: PathBuf,
    pub format: Format,
}

impl Layout {
    pub fn report(&self, s: &Submission) -> PathBuf {
        self.out
            .join("reports")
            .join(format!("{}.{}", s.name, self.format.extension()))
    }

    /// The submission's gradebook row, written last: its presence says the report is whole.
    pub fn row(&self, s: &Submission) -> PathBuf {
        self.out.join("rows").join(format!("{}.json", s.name))
    }
}

/// One submission as the run left it.
#[derive(Clone, Debug)]
pub enum Graded {
    /// Graded now.
    Now { row: Row, elapsed: Duration },
    /// Graded by an earlier run (`--resume`).
    Before { row: Row },
    /// Its report could not be written.
    Unwritten { row: Row, why: String },
}

impl Graded {
    pub fn row(&self) -> &Row {
        match self {
            Graded::Now { row, .. } | Graded::Before { row } | Graded::Unwritten { row, .. } => row,
        }
    }
}

/// What `suite` and `options` grade with, in one line.
pub fn graded_with(suite: &Suite, options: &Options) -> String {
    let cases: Vec<String> = (0..suite.len()).map(|i| suite.name(i)).collect();
    let mut with = format!(
        "{} | mode {} | {}",
        options.against.line,
        options
            .check
            .mode
            .map_or("each case's".to_owned(), |m| m.to_string()),
        cases.join(", ")
    );
    if let Some(project) = suite.project() {
        let _ = write!(with, " | project {}", project.display());
    }
    if let Some(g) = &options.games {
        let specs: Vec<String> = g
            .specs
            .iter()
            .map(|s| format!("{} by {}", s.path.display(), s.cmd.line))
            .collect();
        let o = &g.options;
        let _ = write!(
            with,
            " | game {} | playouts {} seed {} perft {:?} estimates {} estimator {:?} x {}",
            specs.join(", "),
            o.playouts,
            o.seed,
            o.perft_depth,
            o.estimates,
            o.estimator_depths,
            o.estimator_openings
        );
        if !g.roster.rows.is_empty() {
            let _ = write!(with, " | roster {}", g.roster.line());
        }
    }
    if let Some(p) = &options.players {
        with.push_str(&p.graded_with());
    }
    if let Some(c) = &options.course {
        let _ = write!(
            with,
            " | course {} into {}",
            c.dir.display(),
            c.into.display()
        );
        if !c.must_bring.is_empty() {
            let files: Vec<String> = c
                .must_bring
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            let _ = write!(with, " bringing {}", files.join(", "));
        }
    }
    with
}

/// Grades one submission (or keeps its earlier grade) and writes its report and row.
pub fn grade(suite: &Suite, s: &Submission, options: &Options, with: &str) -> Graded {
    let layout = Layout {
        out: options.out.clone(),
        format: options.format,
    };
    if options.resume {
        if let Some(row) = std::fs::read_to_string(layout.row(s))
            .ok()
            .and_then(|t| serde_json::from_str::<Row>(&t).ok())
            .filter(|r| r.graded_with == with && layout.report(s).is_file())
        {
            return Graded::Before { row };
        }
    }
    let started = std::time::Instant::now();
    let mut report = Report {
        sandbox: Some(crate::report::sandbox_note(&options.against.sandbox)),
        ..Report::default()
    };
    // A submission is graded on its own files: one that lacks a file it must bring is not
    // run; one that replaces none of the course's is run, and its report says whose files
    // were graded.
    let mut note = None;
    if let Some(course) = &options.course {
        match course.brought(&s.dir) {
            Brought::Own => {}
            Brought::Lacks(files) => {
                let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                let message = format!(
                    "the submission was not run: it has no {}, which it must bring (--student-file)",
                    names.join(", ")
                );
                for i in 0..suite.len() {
                    report
                        .cases
                        .push(suite.not_run(i, crate::report::Status::NotFound, &message));
                }
                return finish(s, &layout, report, options, with, started);
            }
            Brought::Nothing(files) => {
                let names: Vec<String> = files
                    .iter()
                    .take(5)
                    .map(|p| p.display().to_string())
                    .collect();
                let more = files.len().saturating_sub(5);
                note = Some(format!(
                    "note: the submission replaces none of the course's files in {} ({}{}): what ran was the course's own; name the files a student must bring with --student-file",
                    course.into.display(),
                    names.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ));
            }
        }
    }
    // With a course folder, the commands run in a staged copy; the submission's real
    // folder and its classmates stay hidden.
    let (staged, dir) = match &options.course {
        None => (Staged::default(), s.dir.clone()),
        Some(course) => match course.stage(&s.dir, options.against.limits.disk) {
            Ok(staged) => staged,
            Err(e) => {
                use crate::sandbox::files::StageError;
                let (status, message) = match &e {
                    StageError::Special { .. } => (
                        crate::report::Status::Refused,
                        format!("the submission was not run: {e}"),
                    ),
                    StageError::TooBig { .. } => (
                        crate::report::Status::DiskLimit,
                        format!("the submission was not run: {e}"),
                    ),
                    StageError::Empty => (
                        crate::report::Status::NotFound,
                        format!("the submission was not run: {e}"),
                    ),
                    StageError::Io(_) => (
                        crate::report::Status::Error,
                        format!(
                            "cannot copy the course folder {} with this submission's files over {}: {e}",
                            course.dir.display(),
                            course.into.display()
                        ),
                    ),
                };
                // Every case with its points and none earned: a submission that could not
                // run never counts as full marks.
                for i in 0..suite.len() {
                    report.cases.push(suite.not_run(i, status, &message));
                }
                return finish(s, &layout, report, options, with, started);
            }
        },
    };
    let mut against = options.against.clone();
    against.submission = Some(dir.clone());
    staged.apply(&mut against.sandbox);
    let source = Source::Command(Box::new(against));
    // One submission's cases one after another (a serving command started once for them):
    // the jobs are spread over submissions.
    suite.check_all(&source, options.check, 1, |_, mut r| {
        if options.for_students {
            crate::report::for_students(&mut r);
        }
        report.cases.push(r);
    });
    if let Some(games) = &options.games {
        for mut r in games.check(&s.name, &dir, &staged) {
            if options.for_students {
                crate::report::for_students(&mut r);
            }
            report.cases.push(r);
        }
    }
    if let Some(players) = &options.players {
        for mut r in players.check(&dir, &staged) {
            if options.for_students {
                crate::report::for_students(&mut r);
            }
            report.cases.push(r);
        }
    }
    if let Some(note) = note {
        for r in &mut report.cases {
            r.details.push_str(&note);
            r.details.push('\n');
        }
    }
    finish(s, &layout, report, options, with, started)
}

/// Writes the submission's report and its gradebook row.
fn finish(
    s: &Submission,
    layout: &Layout,
    mut report: Report,
    options: &Options,
    with: &str,
    started: std::time::Instant,
) -> Graded {
    // A course that grades by question (CS188) gives its points per question.
    report.questions = gametrace_core::spec::cs188::questions::questions(&report.cases).0;
    let environment = crate::grade::cs188::note_missing_modules(&mut report);
    let mut row = Row::of(&s.name, &report, with);
    row.environment = environment;
    let palette = crate::diff::Palette { color: false };
    let text = crate::report::render(&report, options.format, true, palette);
    let row_text = serde_json::to_string_pretty(&row).unwrap_or_default();
    let written = crate::suite::write_atomically(&layout.report(s), &text)
        .and_then(|()| crate::suite::write_atomically(&layout.row(s), &row_text));
    match written {
        Ok(()) => Graded::Now {
            row,
            elapsed: started.elapsed(),
        },
        Err(e) => Graded::Unwritten {
            row,
            why: e.to_string(),
        },
    }
}

/// A cell a spreadsheet shows as written: one that starts as a formula would (`=`, `+`, `-`,
/// `@`, a tab or a carriage return) gets a `'` before it, as OWASP advises, so a folder named
/// `=HYPERLINK(...)` is text in the gradebook, not a formula run on the grader's machine.
/// A control character (an escape sequence in a folder's name) is written escaped, so a
/// gradebook `cat` to a terminal moves nothing.
fn spreadsheet_safe(cell: &str) -> String {
    let cell = crate::diff::visible(cell);
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.into_owned()
    }
}

/// What a job is doing, for a progress display.
pub enum Progress<'a> {
    Started(&'a Submission),
    Finished(&'a Submission, &'a Graded),
}

/// Grades every submission, `options.jobs` at a time. `progress` hears of each as a job takes
/// it up and as it finishes; `done` hears of each in the submissions' order.
pub fn grade_all(
    suite: &Suite,
    subs: &[Submission],
    options: &Options,
    progress: impl Fn(Progress) + Sync,
    mut done: impl FnMut(&Submission, &Graded),
) -> Vec<Graded> {
    let with = graded_with(suite, options);
    let mut all = Vec::with_capacity(subs.len());
    in_order(
        subs.iter().collect(),
        options.jobs,
        |_, s| {
            progress(Progress::Started(s));
            let g = grade(suite, s, options, &with);
            progress(Progress::Finished(s, &g));
            g
        },
        |i, g| {
            done(&subs[i], &g);
            all.push(g);
        },
    );
    all
}

/// The class's grades.
pub struct Gradebook {
    pub rows: Vec<Row>,
}

impl Gradebook {
    /// The cases, as the columns name them, with their points.
    /// Every case any row has, in the order the rows first list them: rows may differ (a
    /// submission whose game's driver died has a `driver` case the others do not).
    fn columns(&self) -> Vec<(&str, f64)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for r in &self.rows {
            for c in &r.cases {
                if seen.insert(c.case.as_str()) {
                    out.push((c.case.as_str(), c.max_points));
                }
            }
        }
        out
    }

    /// The course's questions (CS188), as the columns name them, with their points: every
    /// question any row has, in the order the rows first list them (none for other courses).
    fn question_columns(&self) -> Vec<(&str, f64)> {
        let mut out: Vec<(&str, f64)> = Vec::new();
        for r in &self.rows {
            for q in &r.questions {
                if !out.iter().any(|(n, _)| *n == q.question) {
                    out.push((q.question.as_str(), q.max_points));
                }
            }
        }
        out
    }

    /// Writes `gradebook.csv`, `gradebook.json` and `summary.txt` into `out`, each whole.
    pub fn write_to(&self, out: &Path) -> Result<(), String> {
        for (name, text) in [
            ("gradebook.csv", self.csv()),
            ("gradebook.json", self.json()),
            ("summary.txt", self.summary()),
        ] {
            crate::suite::write_atomically(&out.join(name), &text)
                .map_err(|e| format!("cannot write {}: {e}", out.join(name).display()))?;
        }
        Ok(())
    }

    /// `submission,score,max_score,<case>...`: the points of each case.
    pub fn csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec![
            "submission".to_owned(),
            "score".to_owned(),
            "max_score".to_owned(),
        ];
        let columns = self.columns();
        let questions = self.question_columns();
        header.extend(questions.iter().map(|(q, _)| spreadsheet_safe(q)));
        header.extend(columns.iter().map(|(c, _)| spreadsheet_safe(c)));
        header.push("problems".to_owned());
        let _ = w.write_record(&header);
        for r in &self.rows {
            let mut record = vec![
                spreadsheet_safe(&r.submission),
                number(r.score),
                number(r.max_score),
            ];
            let points: HashMap<&str, f64> = r
                .cases
                .iter()
                .map(|c| (c.case.as_str(), c.points))
                .collect();
            record.extend(questions.iter().map(|(name, _)| {
                r.questions
                    .iter()
                    .find(|q| q.question == *name)
                    .map_or_else(String::new, |q| number(q.points))
            }));
            record.extend(
                columns
                    .iter()
                    .map(|(name, _)| points.get(name).map_or_else(String::new, |p| number(*p))),
            );
            // What the machine lacked first: it explains the crashes after it.
            let problems: Vec<String> = r
                .environment
                .iter()
                .cloned()
                .chain(
                    r.cases
                        .iter()
                        .filter(|c| !matches!(c.status.as_str(), "PASS" | "FAIL" | "SKIPPED"))
                        .map(|c| format!("{} {}", c.status, c.case)),
                )
                .collect();
            record.push(spreadsheet_safe(&problems.join("; ")));
            let _ = w.write_record(&record);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    pub fn json(&self) -> String {
        let columns: Vec<serde_json::Value> = self
            .columns()
            .iter()
            .map(|(c, p)| serde_json::json!({"case": c, "max_points": p}))
            .collect();
        let mut doc = serde_json::json!({
            "format": "gametrace-gradebook",
            "version": 1,
            "cases": columns,
            "submissions": self.rows,
        });
        let questions: Vec<serde_json::Value> = self
            .question_columns()
            .iter()
            .map(|(q, p)| serde_json::json!({"question": q, "max_points": p}))
            .collect();
        if !questions.is_empty() {
            doc["questions"] = serde_json::Value::Array(questions);
        }
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    }

    /// For the staff: the scores' histogram, the cases most often failed and the mistakes
    /// most often named.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let n = self.rows.len();
        let max = self.rows.first().map_or(0.0, |r| r.max_score);
        let _ = writeln!(
            out,
            "{n} submission{} graded against {} case{} ({} point{})",
            if n == 1 { "" } else { "s" },
            self.columns().len(),
            if self.columns().len() == 1 { "" } else { "s" },
            number(max),
            if max == 1.0 { "" } else { "s" }
        );
        if n == 0 {
            return out;
        }
        self.scores(&mut out, max);
        self.most_failed(&mut out);
        self.not_run(&mut out);
        self.most_named(&mut out);
        self.problems(&mut out);
        out
    }

    /// The mean, the median and the scores' histogram.
    fn scores(&self, out: &mut String, max: f64) {
        let n = self.rows.len();
        let mean = self.rows.iter().map(|r| r.score).sum::<f64>() / n as f64;
        let mut scores: Vec<f64> = self.rows.iter().map(|r| r.score).collect();
        scores.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            scores[n / 2]
        } else {
            (scores[n / 2 - 1] + scores[n / 2]) / 2.0
        };
        let _ = writeln!(
            out,
            "mean {}, median {}, full marks {} of {n}",
            number((mean * 100.0).round() / 100.0),
            number(median),
            self.rows.iter().filter(|r| r.score == r.max_score).count()
        );
        out.push_str("\nscores\n");
        for (label, count) in histogram(&scores, max) {
            let bar = "█".repeat(bar_width(count, n));
            let _ = writeln!(out, "  {label:>13}  {bar} {count}");
        }
    }

    /// The cases most often failed, and how.
    fn most_failed(&self, out: &mut String) {
        let n = self.rows.len();
        let mut failed: Vec<(usize, BTreeMap<&str, usize>, &str)> =
            self.columns()
                .iter()
                .map(|(case, _)| {
                    let mut how = BTreeMap::new();
                    // By name: rows may list different cases (a `driver` case where one died).
                    // A case not checked (SKIPPED) did not fail.
                    for r in &self.rows {
                        if let Some(c) = r.cases.iter().find(|c| {
                            c.case == *case && c.status != "PASS" && c.status != "SKIPPED"
                        }) {
                            *how.entry(c.status.as_str()).or_insert(0) += 1;
                        }
                    }
                    (how.values().sum(), how, *case)
                })
                .filter(|(f, _, _)| *f > 0)
                .collect();
        failed.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(b.2)));
        out.push_str("\ncases most often failed\n");
        if failed.is_empty() {
            out.push_str("  (every case passed in every submission)\n");
        }
        for (f, how, case) in failed.iter().take(10) {
            let parts: Vec<String> = how.iter().map(|(s, k)| format!("{k} {s}")).collect();
            let _ = writeln!(out, "  {f:>4} of {n}  {case}  ({})", parts.join(", "));
        }
    }

    /// The cases checked in no submission.
    fn not_run(&self, out: &mut String) {
        // Cases checked in no submission (CS188's Pacman games): their points are not in the
        // scores above, and where the course grades a question all or nothing they may be.
        let not_run: Vec<&str> = self
            .columns()
            .iter()
            .map(|(case, _)| *case)
            .filter(|case| {
                self.rows.iter().all(|r| {
                    r.cases
                        .iter()
                        .all(|c| c.case != *case || c.status == "SKIPPED")
                })
            })
            .collect();
        if !not_run.is_empty() {
            out.push_str(
                "
not run in any submission (SKIPPED in each report, which says why and what it may change)
",
            );
            for case in not_run {
                let _ = writeln!(out, "  {case}");
            }
        }
    }

    /// The mistakes most often named.
    fn most_named(&self, out: &mut String) {
        let n = self.rows.len();
        let mut mistakes: BTreeMap<&str, usize> = BTreeMap::new();
        for r in &self.rows {
            // A submission counts once for a mistake, however many cases show it.
            let mut seen: Vec<&str> = r
                .cases
                .iter()
                .flat_map(|c| c.mistakes.iter().map(String::as_str))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            for m in seen {
                *mistakes.entry(m).or_insert(0) += 1;
            }
        }
        let mut mistakes: Vec<(&str, usize)> = mistakes.into_iter().collect();
        mistakes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        out.push_str(
            "\nmistakes most often named (submissions whose output one explains exactly)\n",
        );
        if mistakes.is_empty() {
            out.push_str("  (none named)\n");
        }
        for (m, k) in mistakes.iter().take(10) {
            let _ = writeln!(out, "  {k:>4} of {n}  {m}");
        }
    }

    /// The submissions whose runs had problems: a missing module, a crash, a timeout.
    fn problems(&self, out: &mut String) {
        let lacking: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| !r.environment.is_empty())
            .collect();
        if !lacking.is_empty() {
            let _ = writeln!(
                out,
                "\n{} submission{} a module the grading Python lacks (install it there, or put the students' Python first on PATH): {}",
                lacking.len(),
                if lacking.len() == 1 { " imports" } else { "s import" },
                lacking
                    .iter()
                    .map(|r| format!(
                        "{} ({})",
                        crate::diff::visible_name(&r.submission),
                        r.environment.join("; ")
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let troubled: Vec<&Row> = self.rows.iter().filter(|r| r.problems() > 0).collect();
        if !troubled.is_empty() {
            let _ = writeln!(
                out,
                "\n{} submission{} had cases that timed out, crashed, printed too much or did not start: {}",
                troubled.len(),
                if troubled.len() == 1 { "" } else { "s" },
                troubled
                    .iter()
                    // A folder's name is the student's: escaped, in the terminal and the file.
                    .map(|r| crate::diff::visible_name(&r.submission).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
}

/// Bars at most 40 wide, at least 1 for a count above 0.
fn bar_width(count: usize, total: usize) -> usize {
    if count == 0 {
        0
    } else {
        (count * 40).div_ceil(total.max(1)).clamp(1, 40)
    }
}

/// The scores in bins: one a point up to 20 points (`3`), else ten equal ranges
/// (`10 - 20`, the last one closed); `2.5` points fall in the bin of 2.
fn histogram(scores: &[f64], max: f64) -> Vec<(String, usize)> {
    if max <= 20.0 && max.fract() == 0.0 {
        let bins = max as usize + 1;
        let mut counts = vec![0; bins];
        for &s in scores {
            counts[(s.floor().max(0.0) as usize).min(bins - 1)] += 1;
        }
        return counts
            .into_iter()
            .enumerate()
            .map(|(i, c)| (i.to_string(), c))
            .collect();
    }
    let width = max / 10.0;
    let mut counts = [0; 10];
    for &s in scores {
        let bin = if width > 0.0 {
            ((s / width).floor() as usize).min(9)
        } else {
            0
        };
        counts[bin] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let lo = number((i as f64 * width * 100.0).round() / 100.0);
            let hi = number(((i + 1) as f64 * width * 100.0).round() / 100.0);
            (format!("{lo} - {hi}"), c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, points: &[(f64, &str)], mistakes: &[&str]) -> Row {
        let cases: Vec<Cell> = points
            .iter()
            .enumerate()
            .map(|(i, (p, status))| Cell {
                case: format!("specs/a.yaml c{i}"),
                status: (*status).to_owned(),
                points: *p,
                max_points: 2.0,
                mistakes: if i == 0 {
                    mistakes.iter().map(|m| (*m).to_owned()).collect()
                } else {
                    Vec::new()
                },
            })
            .collect();
        Row {
            submission: name.to_owned(),
            score: points.iter().map(|p| p.0).sum(),
            max_score: 2.0 * points.len() as f64,
            cases,
            questions: Vec::new(),
            graded_with: String::new(),
            environment: Vec::new(),
        }
    }

    #[test]
    fn the_gradebook_has_a_row_a_submission_and_a_column_a_case() {
        let book = Gradebook {
            rows: vec![
                row("alice", &[(2.0, "PASS"), (2.0, "PASS")], &[]),
                row(
                    "bob, jr",
                    &[(0.0, "FAIL"), (0.0, "TIMEOUT")],
                    &["strict-cut"],
                ),
            ],
        };
        let csv = book.csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "submission,score,max_score,specs/a.yaml c0,specs/a.yaml c1,problems"
        );
        assert_eq!(lines[1], "alice,4,4,2,2,");
        assert_eq!(lines[2], "\"bob, jr\",0,4,0,0,TIMEOUT specs/a.yaml c1");
        let summary = book.summary();
        assert!(summary.contains("2 submissions graded against 2 cases (4 points)"));
        assert!(summary.contains("mean 2, median 2, full marks 1 of 2"));
        assert!(
            summary.contains("   1 of 2  specs/a.yaml c0  (1 FAIL)"),
            "{summary}"
        );
        assert!(summary.contains("   1 of 2  strict-cut"), "{summary}");
        assert!(summary.contains("had cases that timed out"), "{summary}");
    }

    /// Names that are not UTF-8, or that hold a backslash, are escaped so that distinct
    /// folders never share a report or a gradebook row; ordinary names are as they are.
    #[cfg(unix)]
    #[test]
    fn folder_names_are_one_to_one() {
        use std::os::unix::ffi::OsStrExt;
        let name = |b: &[u8]| folder_name(std::ffi::OsStr::from_bytes(b));
        assert_eq!(name(b"alice"), "alice");
        assert_eq!(name("zo\u{eb}".as_bytes()), "zo\u{eb}");
        assert_eq!(name(b"a\xff"), "a\\xff");
        assert_eq!(name(b"a\xfe"), "a\\xfe");
        // A name that spells the escape with its own characters is told apart too.
        assert_eq!(name(b"a\\xff"), "a\\\\xff");
        let all = [&b"a\xff"[..], b"a\xfe", b"a\\xff", b"a\\\\xff", b"a"];
        let names: std::collections::HashSet<String> = all.iter().map(|b| name(b)).collect();
        assert_eq!(names.len(), all.len());
    }

    #[test]
    fn histograms_bin_by_point_or_by_tenth() {
        let h = histogram(&[0.0, 2.5, 3.0, 4.0], 4.0);
        assert_eq!(
            h,
            vec![
                ("0".to_owned(), 1),
                ("1".to_owned(), 0),
                ("2".to_owned(), 1),
                ("3".to_owned(), 1),
                ("4".to_owned(), 1)
            ]
        );
        let h = histogram(&[0.0, 99.0, 100.0], 100.0);
        assert_eq!(h.len(), 10);
        assert_eq!(h[0], ("0 - 10".to_owned(), 1));
        assert_eq!(h[9], ("90 - 100".to_owned(), 2));
        assert_eq!(bar_width(1, 50), 1);
        assert_eq!(bar_width(50, 50), 40);
    }
}

#[cfg(test)]
mod roster_tests {
    use super::*;

    #[test]
    fn a_roster_gives_each_submission_its_settings_for_every_game_or_one() {
        let r = Roster::parse(
            "submission,setting,value\n\nann,class,TippyState\nann,tippy:construct,\"T({player}, n={size})\"\nbob,module,tippy_state.py\n# a comment\nann,subtract_square:class,SS\n",
        )
        .unwrap();
        assert_eq!(
            r.env("ann", "tippy"),
            vec![
                ("GAMETRACE_CLASS".to_owned(), "TippyState".to_owned()),
                (
                    "GAMETRACE_CONSTRUCT".to_owned(),
                    "T({player}, n={size})".to_owned()
                )
            ]
        );
        assert_eq!(
            r.env("ann", "subtract_square"),
            vec![("GAMETRACE_CLASS".to_owned(), "SS".to_owned())]
        );
        assert_eq!(
            r.env("bob", "tippy"),
            vec![("GAMETRACE_MODULE".to_owned(), "tippy_state.py".to_owned())]
        );
        assert!(r.env("carl", "tippy").is_empty());
        assert_eq!(
            Roster::parse("ann,class\n").unwrap_err(),
            (
                1,
                "expected three fields, submission,setting,value; found 2".to_owned()
            )
        );
        assert!(Roster::parse("ann,chess:class,X\n")
            .unwrap_err()
            .1
            .contains("no game `chess`"));
    }
}

//! What the commands share: the flags several take (threads, running a command, writing a
//! report), and the ways they report an unusable input or a failed write.

use crate::report::Format;
use crate::sandbox::Limits;
use crate::spec::{self, diagnostic::did_you_mean, Diagnostic, Document};
use crate::student::Program;
use crate::suite::{self, compare::Palette};
use clap::{Args, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `--threads`, on the commands that search (and so may search in parallel).
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct Parallel {
    /// Threads for Jamboree's and minimax's parallel phases (default: one per core). The
    /// output is the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// How an implementation is run (`--cmd`, `--against`).
#[derive(Args, Debug, Clone)]
pub(super) struct RunArgs {
    /// Run the command through `sh -c` (placeholders are shell-quoted)
    #[arg(long)]
    pub shell: bool,
    /// Run a `{trees}` command once per case, the case's tree file in place of `{trees}`,
    /// instead of once serving every tree (the reports are the same; it is slower)
    #[arg(long)]
    pub per_case: bool,
    /// Feed this file to the command's stdin (default: empty stdin)
    #[arg(long, value_name = "FILE")]
    pub stdin: Option<PathBuf>,
    /// Kill the command (and all it started) once it has used this many seconds of CPU time,
    /// its processes together (TIMEOUT): the same verdict on a busy machine as on a quiet one
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds)]
    pub timeout: f64,
    /// Kill it too once it has run this many seconds of wall-clock time, for a program that
    /// waits rather than computes (default: three times --timeout, and 2 s more)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub wall_time: Option<f64>,
    /// Kill the command once it has printed this much (bytes; K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "8M", value_parser = parse_bytes)]
    pub max_output: usize,
    /// Run the command without the sandbox: it can then read the specs and expected traces,
    /// write anywhere your user can, use the network, and has no memory, CPU, process,
    /// file-size or open-file limits. See `gametrace doctor`
    #[arg(long)]
    pub no_sandbox: bool,
    /// Memory each process of the command may allocate, and the whole command where a cgroup
    /// can be made (bytes; K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_bytes)]
    pub memory_limit: usize,
    /// CPU time each process of the command may use
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub cpu_limit: f64,
    /// Processes (and threads) the command may run at once
    #[arg(long, value_name = "N", default_value = "256", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub process_limit: u32,
    /// The largest file the command may write (bytes; K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_bytes)]
    pub file_size_limit: usize,
    /// What the command's files may take on disk in all (its temp directory, and a staged
    /// course folder), past which it is stopped: DISK-LIMIT (bytes; K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "256M", value_parser = parse_bytes)]
    pub disk_limit: usize,
    /// Files each process of the command may hold open
    #[arg(long, value_name = "N", default_value = "1024", value_parser = clap::value_parser!(u32).range(16..=1_000_000))]
    pub open_files_limit: u32,
    /// Let the command read this file or folder too (repeatable); it may already read the
    /// system, its language runtime, its submission and the files its command line names
    #[arg(long, value_name = "PATH", value_parser = readable_path)]
    pub sandbox_read: Vec<PathBuf>,
    /// Give the command this environment variable of gametrace's too (repeatable); it gets
    /// only PATH, the locale, TERM=dumb, its private HOME and TMPDIR and what language
    /// runtimes read (JAVA_HOME, PYTHONPATH, SMLNJ_HOME, ...), never the grader's secrets
    #[arg(long, value_name = "NAME", value_parser = env_name)]
    pub sandbox_env: Vec<String>,
}

/// An environment variable's name (`--sandbox-env`).
fn env_name(s: &str) -> Result<String, String> {
    let ok = !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(s.to_owned())
    } else {
        Err(format!(
            "expected an environment variable's name (letters, digits and _), found `{s}`"
        ))
    }
}

/// Where and how a report is written.
#[derive(Args, Debug, Clone)]
pub(super) struct ReportArgs {
    /// Report format
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    pub format: Format,
    /// Write the report to this file (atomically) instead of stdout
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colour the report and diffs (auto: when printing to a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
    /// A report to hand to students: cases whose `visibility:` is not `visible` show the
    /// verdict, the place and the diagnosis, but none of the reference's lines
    #[arg(long)]
    pub for_students: bool,
    /// Show each failure's whole diff (by default a diff stops after 200 lines and counts
    /// the rest, so a flooding program cannot flood the report)
    #[arg(long)]
    pub full_diff: bool,
}

pub(super) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!(
            "expected a number of seconds above 0 (up to a day), found `{s}`"
        )),
    }
}

/// A path that exists (a typo in `--sandbox-read` would otherwise leave the program without
/// what it needs, and say nothing), and is not the root of the file system however it is
/// written (`/usr/..`): a rule for it would make the whole disk readable.
pub(super) fn readable_path(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if !p.exists() {
        return Err(format!(
            "expected a file or folder the program may read, found `{s}`, which does not exist"
        ));
    }
    crate::sandbox::policy::readable_path(&p)?;
    Ok(p)
}

pub(super) fn parse_bytes(s: &str) -> Result<usize, String> {
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let scale: usize = match unit {
        "" | "B" => 1,
        "K" | "KiB" | "k" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        _ => return Err(format!("expected bytes like 8M, 512K or 1000, found `{s}`")),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected bytes like 8M, 512K or 1000, found `{s}`"))
}

impl RunArgs {
    pub(super) fn limits(&self) -> Limits {
        let timeout = Duration::from_secs_f64(self.timeout);
        Limits {
            timeout,
            wall: self.wall_time.map_or_else(
                || crate::sandbox::wall_for(timeout),
                Duration::from_secs_f64,
            ),
            output_cap: self.max_output,
            memory: self.memory_limit as u64,
            cpu: Duration::from_secs_f64(self.cpu_limit.ceil()),
            processes: self.process_limit,
            file_size: self.file_size_limit as u64,
            open_files: self.open_files_limit,
            disk: if self.no_sandbox {
                0
            } else {
                self.disk_limit as u64
            },
        }
    }

    /// The sandbox's settings; `hidden` are paths the command must not read (reports being
    /// written, the grades folder) besides the specs and expected traces.
    pub(super) fn sandbox(&self, hidden: Vec<PathBuf>) -> crate::sandbox::Policy {
        crate::sandbox::Policy {
            off: self.no_sandbox,
            readable: self.sandbox_read.clone(),
            hidden,
            writable: Vec::new(),
            env: self.sandbox_env.clone(),
        }
    }

    /// Refuses, before anything runs, where the sandbox cannot confine student code (see
    /// `sandbox::confinable`): exit 2 with why and what to do.
    pub(super) fn confined(&self) -> Result<(), Failure> {
        crate::sandbox::confinable(&self.sandbox(Vec::new()))
            .map_err(|why| Failure::message(format!("error: refused to run student code: {why}")))
    }

    /// The student's program that `flag`'s `line` runs, refused (exit 2) where the grader's
    /// own words in it are wrong: a CS188 driver's `--project` that is not the course's folder.
    pub(super) fn command(&self, flag: &'static str, line: String) -> Result<Program, Failure> {
        let checked = match crate::sandbox::split(&line) {
            Some(words) if self.shell => crate::adapters::check_shell_line(&words),
            Some(words) => {
                crate::adapters::check_project(&crate::adapters::project_from_here(words))
                    .map_err(|why| (why, crate::adapters::PROJECT_HINT))
            }
            // A line that does not split is said where it is run.
            None => Ok(()),
        };
        checked.map_err(|(why, hint)| {
            Failure::message(format!("error: {flag} `{line}`: {why}\n  hint: {hint}"))
        })?;
        Ok(Program {
            flag,
            line,
            shell: self.shell,
            stdin: self.stdin.clone(),
            limits: self.limits(),
            submission: None,
            sandbox: self.sandbox(Vec::new()),
            serve: !self.per_case,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ReportArgs {
    /// Colour only for a human report on a terminal (or when asked); never in a file.
    pub(super) fn palette(&self) -> Palette {
        if self.format != Format::Human
            || (self.output.is_some() && self.color != ColorWhen::Always)
        {
            Palette { color: false }
        } else {
            self.color.palette()
        }
    }
}

impl ColorWhen {
    /// Colour or not, for output to stdout.
    pub(super) fn palette(self) -> Palette {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Palette {
            color: match self {
                ColorWhen::Always => true,
                ColorWhen::Never => false,
                ColorWhen::Auto => !no_color && io::stdout().is_terminal(),
            },
        }
    }
}

/// Why a command stops with exit code 2 (1 for a program that failed to start). A command
/// returns it ([`Exit`]); `cli::main` prints
/// it on stderr, the one place a command's error is printed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A problem at its place (a spec, a file, a flag), with what was expected and found.
    Diagnostic(Box<Diagnostic>),
    /// A message in its own words, as printed (`error: ...` and its hint lines).
    Message(String),
    /// A student's program that failed before it was judged (it did not start): said as
    /// the other failures are, with exit code 1, the verdict on a program, as `check` gives.
    Program(String),
}

impl Failure {
    /// The exit code it gives: 2, or 1 for a program's failure.
    pub(super) fn code(&self) -> i32 {
        match self {
            Failure::Program(_) => 1,
            Failure::Diagnostic(_) | Failure::Message(_) => 2,
        }
    }

    /// `error: ...` (and any hint lines after it): one message, a newline after it.
    pub(super) fn message(text: impl std::fmt::Display) -> Failure {
        Failure::Message(format!("{text}\n"))
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure::Diagnostic(Box::new(d))
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Diagnostic(d) => write!(f, "{d}"),
            Failure::Message(m) | Failure::Program(m) => f.write_str(m),
        }
    }
}

/// What a command comes to: its exit code (0, or 1 for a failed check), or the failure that
/// makes it 2.
pub(crate) type Exit = Result<i32, Failure>;

/// `no case `x``, with the cases there are and a did-you-mean.
pub(super) fn unknown_case(path: &Path, name: &str, names: &[&str]) -> Failure {
    let d = Diagnostic::new(path, format!("no case `{name}` in this spec"))
        .expected(format!("one of {}", names.join(", ")))
        .found(format!("--case {name}"));
    let d = match did_you_mean(name, names) {
        Some(s) => d.hint(format!("did you mean `{s}`?")),
        None => d.hint("leave out --case to print every case"),
    };
    d.into()
}

/// Writes a whole report to stdout or, with --output, to a file (atomically; stdout then gets
/// the summary line). Returns `code`, or the failure to write the report.
pub(super) fn emit(text: &str, report: &ReportArgs, summary: &str, code: i32) -> Exit {
    match &report.output {
        Some(file) => match suite::write_atomically(file, text) {
            Ok(()) => {
                println!("{summary} (report in {})", file.display());
                Ok(code)
            }
            Err(e) => Err(Failure::message(format!(
                "error: cannot write the report to {}: {e}\n  = hint: check that the directory exists and is writable",
                file.display()
            ))),
        },
        None => {
            let mut out = io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => Ok(code),
                Err(e) => write_failed(e).map(|_| code),
            }
        }
    }
}

/// A closed pipe (`gametrace run ... | head`) is a reader that has seen enough, not an error.
pub(super) fn write_failed(e: io::Error) -> Exit {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(0)
    } else {
        Err(Failure::message(format!(
            "error: cannot write the trace: {e}"
        )))
    }
}

/// An `io::Write` seen as a `fmt::Write`, for writers of reports that stream them; keeps the
/// I/O error that `fmt::Error` cannot carry.
pub(super) struct FmtIo<W: io::Write> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: io::Write> FmtIo<W> {
    pub(super) fn new(inner: W) -> FmtIo<W> {
        FmtIo { inner, error: None }
    }

    /// What writing came to: the I/O error that stopped it, if one did.
    pub(super) fn finish(self, written: std::fmt::Result) -> io::Result<()> {
        match (self.error, written) {
            (Some(e), _) => Err(e),
            (None, Ok(())) => Ok(()),
            (None, Err(_)) => Err(io::Error::other("formatting the report failed")),
        }
    }
}

impl<W: io::Write> std::fmt::Write for FmtIo<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

/// Writes text to stdout: 0, or what a failed write means.
pub(super) fn print_all(text: &str) -> Exit {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) => write_failed(e),
    }
}

/// `1 group`, `2 groups`.
pub(super) fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A tree spec and, if named, one of its cases; or exit 2 saying why not.
pub(super) fn tree_spec(
    path: &Path,
    case: Option<&str>,
    command: &str,
) -> Result<spec::Spec, Failure> {
    load_tree_spec(path, case, command, spec::load)
}

pub(super) fn load_tree_spec(
    path: &Path,
    case: Option<&str>,
    command: &str,
    load: fn(&Path) -> Result<Document, Diagnostic>,
) -> Result<spec::Spec, Failure> {
    let spec = match load(path) {
        Ok(Document::Tree(s)) => s,
        Ok(Document::Task(t)) => {
            return Err(
                Diagnostic::new(path, format!("`{command}` works on game trees"))
                    .expected("a spec with a `tree:`")
                    .found(format!("a task spec (`task: {}`)", t.task.name()))
                    .hint("`gametrace run` prints a task's results")
                    .into(),
            )
        }
        Ok(Document::Game(g)) => {
            let game = crate::with_game_spec!(&g, s => crate::game::Playable::name(&s.game));
            return Err(Diagnostic::new(path, format!("`{command}` works on game trees"))
                .expected("a spec with a `tree:`")
                .found(format!("a game spec (`game: {game}`)"))
                .hint("`gametrace run` prints its searches and scenarios, and `gametrace play` plays from its position")
                .into());
        }
        Err(d) => return Err(d.into()),
    };
    if let Some(name) = case {
        if spec.case(name).is_none() {
            let names: Vec<&str> = spec.cases.iter().map(|c| c.name.as_str()).collect();
            return Err(unknown_case(path, name, &names));
        }
    }
    Ok(spec)
}

/// The specs under `paths` (default `specs`), or exit 2 with why not.
pub(super) fn specs_under(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
    specs_and_others(paths).map(|(specs, _)| specs)
}

/// [`specs_under`], with the CS188 tests found beside them that gametrace does not run (a
/// `PacmanGameTreeTest`): a run that grades students reports each as not run, so that no
/// one reads full marks for a question the autograder would fail without being told.
pub(super) fn specs_and_others(
    paths: Vec<PathBuf>,
) -> Result<(Vec<PathBuf>, Vec<suite::Skipped>), Failure> {
    specs_and_others_played(paths, false)
}

/// [`specs_and_others`]; `played`: the CS188 Pacman games are played by the course's project
/// (`--project`), which the note says instead of "skipped".
pub(super) fn specs_and_others_played(
    paths: Vec<PathBuf>,
    played: bool,
) -> Result<(Vec<PathBuf>, Vec<suite::Skipped>), Failure> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        paths
    };
    let (specs, skipped) = suite::discover_noting(&paths)?;
    // A CS188 question's CONFIG that does not read is an error before anything runs (a
    // folder without one is graded test by test).
    let mut folders: Vec<&Path> = Vec::new();
    for p in specs.iter().chain(skipped.iter().map(|s| &s.path)) {
        if let Some(dir) = p
            .parent()
            .filter(|_| gametrace_core::spec::cs188::is_test_file(p))
        {
            if !folders.contains(&dir) {
                folders.push(dir);
                gametrace_core::spec::cs188::questions::check_folder(dir)?;
            }
        }
    }
    // The games played by the course's project: one note a run, naming them.
    let games: Vec<String> = skipped
        .iter()
        .filter(|s| played && s.why.starts_with("PacmanGameTreeTest"))
        .map(|s| s.path.display().to_string())
        .collect();
    if let Some((last, rest)) = games.split_last() {
        let (names, verb) = if rest.is_empty() {
            (last.clone(), "is")
        } else {
            (format!("{} and {last}", rest.join(", ")), "are")
        };
        eprintln!(
            "note: {names} {verb} played by the course's project (--project), not searched by gametrace"
        );
    }
    for s in &skipped {
        if played && s.why.starts_with("PacmanGameTreeTest") {
            continue;
        }
        eprintln!(
            "note: skipped {}: a CS188 test that is not a game tree ({})",
            s.path.display(),
            s.why
        );
    }
    if specs.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::message(format!(
            "error: no specs (*.yaml, or CS188 game-tree tests *.test) under {}\n  = hint: write a spec there, or name a spec file",
            shown.join(", ")
        )));
    }
    Ok((specs, skipped))
}

/// With `--case`/`--filter`, an error (exit 2) when no case of any spec is chosen: a typo
/// should not pass as "0 passed, 0 failed". Specs that do not load are left to the run.
pub(super) fn nothing_selected(specs: &[PathBuf], select: &suite::Selection) -> Option<Failure> {
    if select.is_all() {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    for path in specs {
        if let Ok(doc) = spec::load(path) {
            for n in doc.case_names() {
                if select.selects(n) {
                    return None;
                }
                if !names.iter().any(|m| m == n) {
                    names.push(n.to_owned());
                }
            }
        }
    }
    const SHOWN: usize = 40;
    let more = match names.len() {
        n if n > SHOWN => format!(" and {} more", n - SHOWN),
        _ => String::new(),
    };
    // A name mistyped: the nearest case's name.
    let near = select.names().iter().find_map(|want| {
        names
            .iter()
            .map(|n| (strsim::jaro_winkler(want, n), n))
            .filter(|(score, _)| *score >= 0.85)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, n)| n.clone())
    });
    names.truncate(SHOWN);
    let hint = match near {
        Some(n) => format!("did you mean `{n}`? (`gametrace cases SPEC` lists a spec's cases)"),
        None => "`gametrace cases SPEC` lists a spec's cases".to_owned(),
    };
    Some(Failure::message(format!(
        "error: no case matches {}\n  = expected: one of {}{more}\n  = hint: {hint}",
        select.describe(),
        names.join(", ")
    )))
}

/// How thoroughly `check-game` (and `grade --game-cmd`) checks a student's game.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct GameArgs {
    /// Random games to play against the reference
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub playouts: usize,
    /// The random games' seed (the same games on every machine)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Count move sequences up to this length (default: as deep as about 3,000 positions go)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=12))]
    pub perft_depth: Option<u32>,
    /// Compare the student's estimates too (when the spec's estimator is the one they were
    /// asked to write: CSC148's rough_outcome, or an estimator the handout fixes)
    #[arg(long)]
    pub estimates: bool,
    /// Connect 4 and Riskless: the search depths at which the student's estimator plays the
    /// handout's naive one (both under the reference alpha-beta, on the reference rules)
    #[arg(long, value_name = "D,D,...", value_delimiter = ',', default_value = "1,2,3",
          value_parser = clap::value_parser!(u32).range(1..=6))]
    pub estimator_depths: Vec<u32>,
    /// Connect 4 and Riskless: the openings the estimators play from (the start, then random
    /// two-move openings from --seed), each side each way; 0 leaves the estimator unjudged
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u16).range(0..=50))]
    pub estimator_openings: u16,
}

impl GameArgs {
    pub fn options(&self, threads: usize, diagnose: bool) -> crate::check_game::Options {
        crate::check_game::Options {
            playouts: self.playouts,
            seed: self.seed,
            perft_depth: self.perft_depth,
            estimates: self.estimates,
            threads,
            diagnose,
            estimator_depths: self.estimator_depths.clone(),
            estimator_openings: usize::from(self.estimator_openings),
        }
    }
}

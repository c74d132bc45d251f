//! The `gametrace` command line. Exit codes: 0 all good, 1 a comparison failed, 2 the input
//! was unusable (bad spec, missing file, bad flag).

use crate::check::case::{self, CommandLine, Source};
use crate::check::command::Limits;
use crate::check::trace::Mode;
use crate::report::{Format, Report};
use crate::spec::{self, diagnostic::did_you_mean, Diagnostic, Document};
use crate::suite::{self, compare::Palette};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "gametrace",
    version,
    about = "Reference game-tree searchers that print the 15-150 handouts' traces",
    long_about = "Reference game-tree searchers (minimax, alpha-beta, Jamboree) that print the \
exact traces of the CMU 15-150 handouts, and a test runner that compares them with expected \
traces.\n\nExit codes: 0 all good, 1 a comparison failed, 2 the input was unusable."
)]
struct Cli {
    /// The largest spec file (and expected trace) gametrace reads; larger ones are refused
    /// with a message rather than read (K, M, G suffixes) [default: 256M]
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_bytes)]
    max_spec_size: Option<usize>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a real game in the terminal: people type their moves, computer players search.
    /// The board is shown after every move, with each computer move's time
    Play {
        #[command(flatten)]
        parallel: Parallel,
        /// connect4, popout, riskless, nim, subtract_square or tippy; or a game spec (YAML) to
        /// play from its position
        game: String,
        /// Maxie's (p1's) player: human, minimax:D, alphabeta:D or jamboree:D:P (add :improved
        /// for the improved estimator), or CSC148's minimax, memoize, prune or myopic:D
        #[arg(
            long,
            visible_alias = "p1",
            default_value = "human",
            value_name = "PLAYER"
        )]
        maxie: String,
        /// Minnie's (p2's) player, as for --maxie
        #[arg(
            long,
            visible_alias = "p2",
            default_value = "minimax:3",
            value_name = "PLAYER"
        )]
        minnie: String,
        /// Riskless: the handout's map M1 (default) or M2
        #[arg(long, value_name = "M")]
        map: Option<String>,
        /// Connect 4 and PopOut: the board's width (default 7); tic-tac-toe's (default 3)
        #[arg(long, value_name = "N")]
        columns: Option<u64>,
        /// Connect 4 and PopOut: the board's height (default 6); tic-tac-toe's (default 3)
        #[arg(long, value_name = "N")]
        rows: Option<u64>,
        /// Nim: the sticks to start with (default 21)
        #[arg(long, value_name = "N")]
        sticks: Option<u64>,
        /// Subtract Square: the total to start from (default 20)
        #[arg(long, value_name = "N")]
        total: Option<u64>,
        /// Tippy: the board's size, 3 to 8 (default 4)
        #[arg(long, value_name = "N")]
        size: Option<u64>,
        /// Kalah: pits a side (default 6)
        #[arg(long, value_name = "N")]
        pits: Option<u64>,
        /// Kalah: seeds a pit at the start (default 4)
        #[arg(long, value_name = "N")]
        seeds: Option<u64>,
        /// Tic-tac-toe: how many in a row win (default 3; --columns and --rows size the board)
        #[arg(long, value_name = "N")]
        k: Option<u64>,
        /// Stop after this many moves (PopOut games can go round in circles)
        #[arg(long, value_name = "N", default_value_t = 1000)]
        max_moves: u64,
    },
    /// Print the reference trace of each case of a spec, or of one case
    Run {
        #[command(flatten)]
        parallel: Parallel,
        /// The spec file (YAML)
        spec: PathBuf,
        /// Print only this case
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
        /// Stop a case's search after this many seconds (a case's `time_limit:` wins); the
        /// trace so far stays printed, the next case runs, and the exit code is 1
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        time_limit: Option<f64>,
        /// trace: each case's trace; json: what each case finds (value, chosen move, every
        /// equally good move, positions searched, table hits; a game-state tree's measures)
        #[arg(long, value_enum, default_value_t = RunFormat::Trace, value_name = "FORMAT")]
        format: RunFormat,
    },
    /// Check what an implementation printed (a file, stdin, or a command gametrace runs)
    /// against the reference for one case: PASS, or where it first goes wrong
    Check {
        #[command(flatten)]
        parallel: Parallel,
        /// The spec file (YAML)
        spec: PathBuf,
        /// The case to check (may be left out when the spec has one case; `gametrace cases
        /// SPEC` lists them)
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
        /// What the implementation printed (a raw SML/NJ transcript is fine); - for stdin
        #[arg(
            long,
            value_name = "FILE",
            required_unless_present = "cmd",
            conflicts_with = "cmd"
        )]
        actual: Option<PathBuf>,
        /// Run this command and check what it prints (placeholders: {spec} {case} {depth} {tree_json} {position_json})
        #[arg(long, value_name = "COMMAND")]
        cmd: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        /// What to compare (default: the case's `check:`, else full)
        #[arg(long, value_enum, value_name = "MODE")]
        mode: Option<Mode>,
        /// Compare the spacing inside trace lines as printed (noise lines are still dropped)
        #[arg(long)]
        exact: bool,
        /// On a FAIL, do not try the catalogue of mistakes (`gametrace bugs`) to name the
        /// student's mistake
        #[arg(long)]
        no_diagnosis: bool,
        /// The most of --actual read; a larger output is not judged (verdict INPUT-TOO-LARGE)
        /// (K, M, G suffixes)
        #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_bytes)]
        max_input: usize,
        #[command(flatten)]
        report: ReportArgs,
    },
    /// Compare two trace files: a unified diff with the changed words marked, how many lines
    /// differ and where the first difference is
    Diff {
        /// The expected trace
        expected: PathBuf,
        /// The trace to check
        actual: PathBuf,
        /// Compare byte for byte (by default blank lines, runs of spaces, trailing spaces and
        /// CRLF line ends do not count)
        #[arg(long)]
        exact: bool,
        /// Colour the diff (auto: when printing to a terminal and NO_COLOR is unset)
        #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
        color: ColorWhen,
    },
    /// List the catalogue of mistakes `check` names: each one's name, where it can be made,
    /// what it does and the handout line it breaks
    Bugs {
        /// Only the mistakes a case can make (SPEC --case NAME)
        spec: Option<PathBuf>,
        /// The case of SPEC
        #[arg(long, value_name = "NAME", requires = "spec")]
        case: Option<String>,
    },
    /// Show what a catalogued mistake does to a case's trace: the reference and the mistaken
    /// trace as a diff (or the mistaken trace alone with --trace)
    Explain {
        #[command(flatten)]
        parallel: Parallel,
        /// The spec file (YAML)
        spec: PathBuf,
        /// The case
        #[arg(long, value_name = "NAME")]
        case: String,
        /// The mistake (`gametrace bugs`), NAME or NAME:maxie / NAME:minnie for one player's
        /// nodes only; repeat it for two mistakes together
        #[arg(long, value_name = "BUG", required = true)]
        bug: Vec<String>,
        /// Print the mistaken trace alone, as a student's program with that mistake would
        #[arg(long)]
        trace: bool,
        /// Colour the diff (auto: when printing to a terminal and NO_COLOR is unset)
        #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
        color: ColorWhen,
    },
    /// Draw a spec's tree (▲ Maxie, ▼ Minnie, ■ leaves with estimates, each node's minimax
    /// value); with --case, that case's search on it: bounds, results, prunes, chosen path
    Show {
        #[command(flatten)]
        parallel: Parallel,
        /// The spec file (YAML)
        spec: PathBuf,
        /// Lay this case's search over the tree
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
        /// Draw an SVG picture (with a legend) to this file instead, or to stdout with `-`
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Colour the drawing (auto: when printing to a terminal and NO_COLOR is unset)
        #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
        color: ColorWhen,
    },
    /// Write the tree in a form a student's code can load: an SML ExplicitGame structure, a
    /// Python module (AIMA / CS188 style) or JSON
    Export {
        /// The spec file (YAML)
        spec: PathBuf,
        #[arg(long, value_enum, value_name = "FORMAT")]
        to: ExportFormat,
        /// Take the root player, move names and search settings from this case (default: the
        /// first)
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
        /// The SML structure's name (default: the spec's sml_structure, else the file name
        /// in CamelCase)
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Write to this file (atomically) instead of stdout
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Print a new spec with a random tree (the same for a seed on every machine), node names
    /// a, b, ..., z, aa, ..., and alpha-beta and Jamboree cases ready to bless
    New {
        /// Children per internal node
        #[arg(long, value_name = "B", value_parser = clap::value_parser!(u32).range(1..=1000), required_unless_present = "discriminating")]
        branching: Option<u32>,
        /// Levels below the root
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=200), required_unless_present = "discriminating")]
        depth: Option<u32>,
        /// Instead, a small tree on which the catalogued mistakes print traces different from
        /// the reference's and from each other (a hidden test no buggy program passes), with
        /// a case for every 15-150 searcher; what it cannot tell apart is said in its header
        #[arg(long, conflicts_with_all = ["branching", "depth", "seed", "min", "max"])]
        discriminating: bool,
        /// The seed (the same default as `generate:`'s)
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// The lowest leaf estimate
        #[arg(long, value_name = "M", default_value_t = -10, allow_hyphen_values = true)]
        min: i64,
        /// The highest leaf estimate
        #[arg(
            long,
            value_name = "N",
            default_value_t = 10,
            allow_hyphen_values = true
        )]
        max: i64,
    },
    /// Print the JSON Schema of the spec format (for editors), or with --write, write
    /// schema/spec.schema.json and schema/tree.schema.json
    Schema {
        /// Write the schema files under schema/ instead of printing the spec schema
        #[arg(long)]
        write: bool,
    },
    /// A tree spec: work and span of each case, and of minimax, alpha-beta and Jamboree
    /// (prune_percentage 0, 0.25, 0.5, 0.75, 1): the work-span trade-off as a table. A game
    /// spec: the game-state tree of its position (CSC148's node_count, leaf_count, ...), and
    /// what each search case finds and how many positions it searches
    Stats {
        #[command(flatten)]
        parallel: Parallel,
        /// The spec file (YAML)
        spec: PathBuf,
        #[arg(long, value_enum, default_value_t = StatsFormat::Table, value_name = "FORMAT")]
        format: StatsFormat,
        /// Game specs: stop counting the game-state tree past this many distinct positions
        #[arg(long, value_name = "N", default_value_t = 20_000_000)]
        max_positions: u64,
        /// Game specs: stop counting, and each search, after this many seconds
        #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
        time_limit: f64,
    },
    /// Solve a small game exactly: Kalah's first-player margin with perfect play
    Solve {
        /// The game: kalah
        game: String,
        /// Pits a side (1 to 8)
        #[arg(long, value_name = "P", default_value_t = 6)]
        pits: u64,
        /// Seeds a pit at the start
        #[arg(long, value_name = "S", default_value_t = 4)]
        seeds: u64,
        /// Capture the lone seed even when the opposite pit is empty (a common variant)
        #[arg(long)]
        capture_empty: bool,
        /// Give up after this many seconds
        #[arg(long, value_name = "SECS", default_value = "600", value_parser = parse_seconds)]
        time_limit: f64,
        /// Remember at most this many positions (the default needs about 3 GB); the answer stays exact
        #[arg(long, value_name = "N", default_value_t = crate::search::solve::TABLE_CAP)]
        max_table: usize,
    },
    /// List the cases of specs: each one's name, algorithm, depth, dialect, check mode and
    /// points (a game spec's rule scenarios too), to choose one for `check --case` or
    /// `test --case`
    Cases {
        /// Spec files or directories of specs
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Check specs and report every problem in them (errors and warnings), each with its
    /// file, line and column
    Validate {
        /// Spec files or directories of specs
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// human: compiler-style messages; json: one document for editors and CI
        #[arg(long, value_enum, default_value_t = ValidateFormat::Human, value_name = "FORMAT")]
        format: ValidateFormat,
    },
    /// Run every spec under the paths and compare each case with expected/<spec>/<case>.trace,
    /// or with --against, check an implementation on every case and grade it
    Test {
        #[command(flatten)]
        parallel: Parallel,
        /// Spec files or directories of specs [default: specs]
        paths: Vec<PathBuf>,
        /// Run only the case of this name (repeat for more)
        #[arg(long, value_name = "NAME")]
        case: Vec<String>,
        /// Run only the cases whose names match this glob (`jamboree-*`; repeat for more)
        #[arg(long, value_name = "GLOB")]
        filter: Vec<String>,
        /// Write missing and changed expected traces instead of failing
        #[arg(long, conflicts_with = "against")]
        bless: bool,
        /// Check this command's output for every case instead of the expected files
        /// (placeholders: {spec} {case} {depth} {tree_json} {position_json})
        #[arg(long, value_name = "COMMAND")]
        against: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        /// What to compare with --against (default: each case's `check:`, else full)
        #[arg(long, value_enum, value_name = "MODE", requires = "against")]
        mode: Option<Mode>,
        /// With --against, on a FAIL do not try the catalogue of mistakes to name the mistake
        #[arg(long, requires = "against")]
        no_diagnosis: bool,
        /// Stop a case's search after this many seconds and report TIMEOUT for it (a case's
        /// `time_limit:` wins)
        #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
        time_limit: f64,
        #[command(flatten)]
        report: ReportArgs,
    },
}

/// `--threads`, on the commands that search (and so may search in parallel).
#[derive(Args, Debug, Clone, Copy)]
struct Parallel {
    /// Threads for Jamboree's and minimax's parallel phases (default: one per core). The
    /// output is the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

impl Command {
    /// The `--threads` of a command that searches.
    fn threads(&self) -> Option<u16> {
        match self {
            Command::Play { parallel, .. }
            | Command::Run { parallel, .. }
            | Command::Check { parallel, .. }
            | Command::Explain { parallel, .. }
            | Command::Show { parallel, .. }
            | Command::Stats { parallel, .. }
            | Command::Test { parallel, .. } => parallel.threads,
            _ => None,
        }
    }
}

/// How an implementation is run (`--cmd`, `--against`).
#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// Run the command through `sh -c` (placeholders are shell-quoted)
    #[arg(long)]
    shell: bool,
    /// Feed this file to the command's stdin (default: empty stdin)
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Kill the command (and all it started) after this many seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds)]
    timeout: f64,
    /// Kill the command once it has printed this much (bytes; K, M, G suffixes)
    #[arg(long, value_name = "BYTES", default_value = "8M", value_parser = parse_bytes)]
    max_output: usize,
}

/// Where and how a report is written.
#[derive(Args, Debug, Clone)]
struct ReportArgs {
    /// Report format
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    format: Format,
    /// Write the report to this file (atomically) instead of stdout
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Colour the report and diffs (auto: when printing to a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// A report to hand to students: cases whose `visibility:` is not `visible` show the
    /// verdict, the place and the diagnosis, but none of the reference's lines
    #[arg(long)]
    for_students: bool,
    /// Show each failure's whole diff (by default a diff stops after 200 lines and counts
    /// the rest, so a flooding program cannot flood the report)
    #[arg(long)]
    full_diff: bool,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!(
            "expected a number of seconds above 0 (up to a day), found `{s}`"
        )),
    }
}

fn parse_bytes(s: &str) -> Result<usize, String> {
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
    fn limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_secs_f64(self.timeout),
            output_cap: self.max_output,
        }
    }

    fn command(&self, line: String) -> CommandLine {
        CommandLine {
            line,
            shell: self.shell,
            stdin: self.stdin.clone(),
            limits: self.limits(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    Sml,
    Python,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RunFormat {
    Trace,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StatsFormat {
    Table,
    Json,
    Csv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ValidateFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() == Some(std::ffi::OsStr::new(crate::check::contain::WATCHDOG_ARG)) {
        // gametrace's own watchdog (see check::contain), never typed by a user.
        let parent = args.next().and_then(|a| a.to_str()?.parse().ok());
        return parent.map_or(2, crate::check::contain::watchdog);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match &cli.command {
        Command::Check { report, .. } | Command::Test { report, .. } if report.full_diff => {
            crate::check::diff::set_max_diff_lines(usize::MAX)
        }
        // `diff` is asked for a diff: all of it.
        Command::Diff { .. } => crate::check::diff::set_max_diff_lines(usize::MAX),
        _ => {}
    }
    if let Some(n) = cli.command.threads() {
        // Only fails if a pool already exists, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global();
    }
    // Every child of the gametrace program is a command it runs: orphans are its to kill.
    crate::check::contain::claim_orphans();
    // Ctrl-C and SIGTERM kill the commands running and remove temporaries being written.
    crate::check::command::install_interrupt_handler();
    if let Some(n) = cli.max_spec_size {
        crate::input::set_max_spec_size(n as u64);
    }
    match cli.command {
        Command::Run {
            parallel: _,
            spec,
            case,
            time_limit,
            format,
        } => run(spec, case, time_limit.map(Duration::from_secs_f64), format),
        Command::Play {
            parallel: _,
            game,
            maxie,
            minnie,
            map,
            columns,
            rows,
            sticks,
            total,
            size,
            pits,
            seeds,
            k,
            max_moves,
        } => play(
            &game,
            (&maxie, &minnie),
            PlayOptions {
                map,
                columns,
                rows,
                sticks,
                total,
                size,
                pits,
                seeds,
                k,
            },
            max_moves,
        ),
        Command::Check {
            parallel: _,
            spec,
            case,
            actual,
            cmd,
            run,
            mode,
            exact,
            no_diagnosis,
            max_input,
            report,
        } => {
            let source = match (actual, cmd) {
                (_, Some(line)) => Source::Command(run.command(line)),
                (Some(path), None) => Source::File(path),
                // clap requires one of them.
                (None, None) => return 2,
            };
            let options = case::Options {
                mode,
                palette: report.palette(),
                exact,
                max_input: max_input as u64,
                diagnose: !no_diagnosis,
            };
            check(spec, case, source, options, &report)
        }
        Command::Diff {
            expected,
            actual,
            exact,
            color,
        } => diff(&expected, &actual, exact, color),
        Command::Validate { paths, format } => validate(&paths, format),
        Command::Cases { paths } => cases(paths),
        Command::Solve {
            game,
            pits,
            seeds,
            capture_empty,
            time_limit,
            max_table,
        } => solve(&game, pits, seeds, capture_empty, time_limit, max_table),
        Command::Stats {
            parallel: _,
            spec,
            format,
            max_positions,
            time_limit,
        } => stats(
            &spec,
            format,
            max_positions,
            Duration::from_secs_f64(time_limit),
        ),
        Command::New {
            branching,
            depth,
            seed,
            min,
            max,
            discriminating,
        } => match (discriminating, branching, depth) {
            (false, Some(branching), Some(depth)) => new_spec(crate::game::tree::Generate {
                branching,
                depth,
                seed,
                min,
                max,
            }),
            _ => print_all(&discriminating_spec()),
        },
        Command::Schema { write } => schema(write),
        Command::Export {
            spec,
            to,
            case,
            name,
            output,
        } => export(&spec, to, case.as_deref(), name, output.as_deref()),
        Command::Show {
            parallel: _,
            spec,
            case,
            svg,
            color,
        } => show(spec, case, svg, color),
        Command::Bugs { spec, case } => bugs(spec, case),
        Command::Explain {
            parallel: _,
            spec,
            case,
            bug,
            trace,
            color,
        } => explain(&spec, &case, &bug, trace, color),
        Command::Test {
            parallel: _,
            paths,
            case,
            filter,
            bless,
            against,
            run,
            mode,
            no_diagnosis,
            time_limit,
            report,
        } => {
            let select = match suite::Selection::new(case, filter) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!(
                        "error: {e}\n  = hint: a glob uses * and ? and [abc], as in `jamboree-*`"
                    );
                    return 2;
                }
            };
            match against {
                Some(line) => grade(
                    paths,
                    run.command(line),
                    mode,
                    !no_diagnosis,
                    &select,
                    &report,
                ),
                None => test(
                    paths,
                    bless,
                    Duration::from_secs_f64(time_limit),
                    &select,
                    &report,
                ),
            }
        }
    }
}

fn report_error(d: &Diagnostic) -> i32 {
    eprint!("{d}");
    2
}

/// `no case `x``, with the cases there are and a did-you-mean.
fn unknown_case(path: &std::path::Path, name: &str, names: &[&str]) -> i32 {
    let d = Diagnostic::new(path, format!("no case `{name}` in this spec"))
        .expected(format!("one of {}", names.join(", ")))
        .found(format!("--case {name}"));
    let d = match did_you_mean(name, names) {
        Some(s) => d.hint(format!("did you mean `{s}`?")),
        None => d.hint("leave out --case to print every case"),
    };
    report_error(&d)
}

/// `play`'s game options, for a game named on the command line.
struct PlayOptions {
    map: Option<String>,
    columns: Option<u64>,
    rows: Option<u64>,
    sticks: Option<u64>,
    total: Option<u64>,
    size: Option<u64>,
    pits: Option<u64>,
    seeds: Option<u64>,
    k: Option<u64>,
}

/// The games `play` knows by name.
const PLAYABLE: [&str; 8] = [
    "connect4",
    "popout",
    "riskless",
    "nim",
    "subtract_square",
    "tippy",
    "kalah",
    "tictactoe",
];

fn play(game: &str, players: (&str, &str), o: PlayOptions, max_moves: u64) -> i32 {
    use crate::game::{connect4, nim::Nim, riskless, Player as Side};
    use crate::play::{referee, Ending, Player};
    let usage = |message: String, hint: &str| {
        eprintln!("error: {message}\n  hint: {hint}");
        2
    };
    let (maxie, minnie) = match (Player::parse(players.0), Player::parse(players.1)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(why), _) => {
            return usage(format!("--maxie: {why}"), "for example --maxie alphabeta:4")
        }
        (_, Err(why)) => {
            return usage(format!("--minnie: {why}"), "for example --minnie minimax:2")
        }
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    macro_rules! go {
        ($g:expr) => {
            referee(&$g, maxie, minnie, max_moves, &mut input, &mut out)
        };
    }
    // Each option, whether it was given, and the games it belongs to.
    let options: [(&str, bool, &[&str]); 9] = [
        ("--map", o.map.is_some(), &["riskless"]),
        (
            "--columns",
            o.columns.is_some(),
            &["connect4", "popout", "tictactoe"],
        ),
        (
            "--rows",
            o.rows.is_some(),
            &["connect4", "popout", "tictactoe"],
        ),
        ("--k", o.k.is_some(), &["tictactoe"]),
        ("--sticks", o.sticks.is_some(), &["nim"]),
        ("--total", o.total.is_some(), &["subtract_square"]),
        ("--size", o.size.is_some(), &["tippy"]),
        ("--pits", o.pits.is_some(), &["kalah"]),
        ("--seeds", o.seeds.is_some(), &["kalah"]),
    ];
    let spec_path = std::path::Path::new(game);
    let is_spec = game.ends_with(".yaml") || game.ends_with(".yml") || spec_path.is_file();
    if is_spec {
        if options.iter().any(|(_, given, _)| *given) {
            return usage(
                format!("{game} is a spec, and the game's options come from it"),
                "leave out the game's options (--map, --columns, --rows, --k, --sticks, --total, --size, --pits, --seeds), or name a game instead",
            );
        }
    } else if !PLAYABLE.contains(&game) {
        let hint = match crate::spec::diagnostic::did_you_mean(game, &PLAYABLE) {
            Some(g) => format!("did you mean `{g}`?"),
            None => format!("one of {}, or a game spec file", PLAYABLE.join(", ")),
        };
        return usage(format!("unknown game `{game}`"), &hint);
    } else if let Some((option, _, _)) = options
        .iter()
        .find(|(_, given, owners)| *given && !owners.contains(&game))
    {
        return usage(
            format!("{option} is not an option of {game}"),
            "--map is Riskless's, --columns and --rows Connect 4's, PopOut's and tic-tac-toe's, --k tic-tac-toe's, --sticks Nim's, --total Subtract Square's, --size Tippy's, --pits and --seeds Kalah's",
        );
    }
    let ended = if is_spec {
        match spec::load(spec_path) {
            // The referee has no dice, and its computer players know no chance nodes.
            Ok(Document::Game(crate::spec::GameDocument::Pig(_))) => {
                return usage(
                    format!("{game}: `play` does not play Pig"),
                    "search Pig with `gametrace run` (expectiminimax or expectimax cases)",
                )
            }
            Ok(Document::Game(g)) => crate::with_game_spec!(&g, s => go!(s.game)),
            Ok(_) => {
                return report_error(
                    &Diagnostic::new(spec_path, "`play` plays real games")
                        .expected("a game spec (with `game:`)")
                        .found("a tree or task spec")
                        .hint(format!("gametrace play {}", PLAYABLE.join(", "))),
                )
            }
            Err(d) => return report_error(&d),
        }
    } else {
        match game {
            "connect4" | "popout" => {
                match connect4::check_size(o.columns.unwrap_or(7), o.rows.unwrap_or(6)) {
                    Ok((c, r)) => go!(connect4::Connect4::new(c, r, game == "popout")),
                    Err(why) => return usage(why, "the default board is 7 columns × 6 rows"),
                }
            }
            "riskless" => {
                let name = o.map.as_deref().unwrap_or("M1");
                match riskless::Map::builtin(name) {
                    Some(m) => go!(riskless::Riskless::new(m)),
                    None => {
                        return usage(
                            format!("there is no built-in map `{name}`"),
                            "--map M1 (a ring of six) or M2 (a 4×4 grid); for a map of your own, write a game spec and play it",
                        )
                    }
                }
            }
            "nim" => go!(Nim::new(o.sticks.unwrap_or(21), Side::Maxie)),
            "subtract_square" => {
                let total = o.total.unwrap_or(20);
                if total > crate::game::subtract_square::MAX_TOTAL {
                    return usage(
                        format!("--total {total} is too large"),
                        &format!("at most {}", crate::game::subtract_square::MAX_TOTAL),
                    );
                }
                go!(crate::game::subtract_square::SubtractSquare::new(
                    total,
                    Side::Maxie
                ))
            }
            "kalah" => {
                use crate::game::kalah;
                let (pits, seeds) = (o.pits.unwrap_or(6), o.seeds.unwrap_or(4));
                if !(1..=kalah::MAX_PITS as u64).contains(&pits)
                    || !(1..=u64::from(kalah::MAX_SEEDS)).contains(&seeds)
                {
                    return usage(
                        format!("Kalah cannot be played with {pits} pits of {seeds} seeds"),
                        &format!(
                            "--pits 1 to {} and --seeds 1 to {} (the notes play 6 and 4)",
                            kalah::MAX_PITS,
                            kalah::MAX_SEEDS
                        ),
                    );
                }
                go!(kalah::Kalah::new(pits as usize, seeds as u16, false))
            }
            "tictactoe" => {
                use crate::game::tictactoe;
                let (c, r, k) = (
                    o.columns.unwrap_or(3),
                    o.rows.unwrap_or(3),
                    o.k.unwrap_or(3),
                );
                match tictactoe::check_size(c, r, k) {
                    Ok((c, r, k)) => go!(tictactoe::TicTacToe::new(c, r, k)),
                    Err(why) => {
                        return usage(
                            why,
                            "--columns and --rows from 1 to 8, --k at most the longer side (tic-tac-toe is 3, 3, 3)",
                        )
                    }
                }
            }
            _ => {
                use crate::game::tippy;
                let size = o.size.unwrap_or(4);
                if !(u64::from(tippy::MIN_SIZE)..=u64::from(tippy::MAX_SIZE)).contains(&size) {
                    return usage(
                        format!("a Tippy board cannot be {size}×{size}"),
                        "--size from 3 to 8 (a tippy is 3 cells wide; the course plays 4)",
                    );
                }
                go!(tippy::Tippy::new(size as u8))
            }
        }
    };
    match ended {
        Ok(Ending::Over(_) | Ending::Stopped) => 0,
        Ok(Ending::InputEnded) => 2,
        Err(e) => write_failed(e),
    }
}

fn run(
    path: PathBuf,
    case: Option<String>,
    time_limit: Option<Duration>,
    format: RunFormat,
) -> i32 {
    let doc = match spec::load(&path) {
        Ok(d) => d,
        Err(d) => return report_error(&d),
    };
    let names = doc.case_names();
    let chosen: Vec<&str> = match &case {
        None => names.clone(),
        Some(name) if names.contains(&name.as_str()) => vec![name.as_str()],
        Some(name) => return unknown_case(&path, name, &names),
    };
    if format == RunFormat::Json {
        let cases = crate::stats::facts::of_document(&doc, &chosen, time_limit);
        let timed_out = cases.iter().any(|c| {
            matches!(c, crate::stats::facts::CaseFacts::Search(s) if s.timed_out)
                || matches!(
                    c,
                    crate::stats::facts::CaseFacts::GameStateTree { error: Some(_), .. }
                )
        });
        let json = serde_json::json!({
            "spec": path.display().to_string(),
            "cases": cases,
        });
        let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
        text.push('\n');
        let code = print_all(&text);
        return if code == 0 {
            i32::from(timed_out)
        } else {
            code
        };
    }
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
    let headers = chosen.len() > 1;
    let mut timed_out = false;
    // A search's own limit, else the flag's; a search past it stops (its trace so far stays
    // printed) and the next case runs.
    let mut searched = |traced: Result<io::Result<_>, crate::search::deadline::TimedOut>,
                        name: &str,
                        out: &mut io::BufWriter<io::StdoutLock<'_>>| {
        match traced {
            Ok(written) => written.map(drop),
            Err(t) => {
                timed_out = true;
                let _ = out.flush();
                eprintln!(
                "TIMEOUT {} {name}: the search {t}; lower its depth, or raise `time_limit:` or --time-limit",
                path.display()
            );
                Ok(())
            }
        }
    };
    for name in chosen {
        let header = if headers {
            writeln!(out, "== {name} ==")
        } else {
            Ok(())
        };
        let written = header.and_then(|()| match &doc {
            Document::Tree(spec) => match spec.case(name) {
                Some(case) => {
                    let game = crate::game::tree::TreeGame::new(&spec.tree, case.root_player);
                    let limit = case.time_limit.or(time_limit);
                    let traced = crate::run::trace_game_within(&game, case, &mut out, limit);
                    searched(traced.map(|w| w.map(drop)), name, &mut out)
                }
                None => Ok(()),
            },
            Document::Task(spec) => match spec.case(name) {
                Some(case) => {
                    let result = crate::check::reference(spec, case);
                    out.write_all(crate::check::render(case, &result).as_bytes())
                }
                None => Ok(()),
            },
            Document::Game(g) => crate::with_game_spec!(g, spec => {
                match (spec.case(name), spec.scenario(name)) {
                    (Some(case), _) => {
                        let limit = case.case.time_limit.or(time_limit);
                        let traced =
                            crate::run::trace_game_within(&case.game, &case.case, &mut out, limit);
                        searched(traced.map(|w| w.map(drop)), name, &mut out)
                    }
                    (None, Some(s)) => out.write_all(
                        crate::game::scenario::transcript(s).as_bytes(),
                    ),
                    (None, None) => Ok(()),
                }
            }),
        });
        if let Err(e) = written {
            return write_failed(e);
        }
    }
    match out.flush() {
        Ok(()) => i32::from(timed_out),
        Err(e) => write_failed(e),
    }
}

fn check(
    path: PathBuf,
    name: Option<String>,
    source: Source,
    options: case::Options,
    report: &ReportArgs,
) -> i32 {
    let doc = match spec::load(&path) {
        Ok(d) => d,
        Err(d) => return report_error(&d),
    };
    let names = doc.case_names();
    let name = match name {
        Some(n) if names.contains(&n.as_str()) => n,
        Some(n) => return unknown_case(&path, &n, &names),
        None => match doc.checkable_names()[..] {
            [only] => only.to_owned(),
            ref several => {
                return report_error(
                    &Diagnostic::new(&path, "which case? the spec has several")
                        .expected("--case NAME")
                        .found(format!("{} cases: {}", several.len(), several.join(", ")))
                        .hint("`gametrace cases SPEC` lists them with their settings"),
                )
            }
        },
    };
    let palette = options.palette;
    let mut result = match case::check_case(&doc, &name, &source, options) {
        Ok(r) => r,
        Err(d) => return report_error(&d),
    };
    if report.for_students {
        crate::report::for_students(&mut result);
    }
    let all = Report {
        cases: vec![result],
    };
    let text = match report.format {
        // One case: the verdict, the details, and the one-line summary last.
        Format::Human => {
            let c = &all.cases[0];
            let mut t = crate::report::human_case(
                &crate::report::CaseResult {
                    message: String::new(),
                    ..c.clone()
                },
                palette,
            );
            t.push_str(&format!("{}: {}\n", c.status.word(), c.message));
            t
        }
        f => crate::report::render(&all, f, false, palette),
    };
    emit(&text, report, &all.summary(false), all.exit_code())
}

/// Writes a whole report to stdout or, with --output, to a file (atomically; stdout then gets
/// the summary line). Returns `code`, or 2 if the report could not be written.
fn emit(text: &str, report: &ReportArgs, summary: &str, code: i32) -> i32 {
    match &report.output {
        Some(file) => match suite::write_atomically(file, text) {
            Ok(()) => {
                println!("{summary} (report in {})", file.display());
                code
            }
            Err(e) => {
                eprintln!(
                    "error: cannot write the report to {}: {e}\n  = hint: check that the directory exists and is writable",
                    file.display()
                );
                2
            }
        },
        None => {
            let mut out = io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => code,
                Err(e) => match write_failed(e) {
                    0 => code,
                    c => c,
                },
            }
        }
    }
}

/// A closed pipe (`gametrace run ... | head`) is a reader that has seen enough, not an error.
fn write_failed(e: io::Error) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        0
    } else {
        eprintln!("error: cannot write the trace: {e}");
        2
    }
}

impl ReportArgs {
    /// Colour only for a human report on a terminal (or when asked); never in a file.
    fn palette(&self) -> Palette {
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
    fn palette(self) -> Palette {
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

/// The most of a trace file `diff` reads: far more than any trace worth diffing line by line.
const MAX_DIFF_INPUT: u64 = 1 << 30;

/// Reads a text file for `diff`: lossy UTF-8, but a file with NUL bytes is not a trace.
fn read_trace(path: &std::path::Path) -> Result<String, Diagnostic> {
    let unusable = |found: String, hint: &str| {
        Diagnostic::new(path, format!("cannot use `{}` as a trace", path.display()))
            .expected("a text file with one trace line per line")
            .found(found)
            .hint(hint.to_owned())
    };
    use crate::input::{read_output, InputError};
    let bytes = match read_output(path, MAX_DIFF_INPUT) {
        Ok(b) => b,
        Err(e @ InputError::TooLarge { .. }) => {
            return Err(unusable(e.to_string(), "diff a smaller part of the trace"))
        }
        Err(e @ InputError::NotRegular { .. }) => {
            return Err(unusable(
                e.to_string(),
                "diff reads files, pipes and - (standard input)",
            ))
        }
        Err(e) => return Err(unusable(e.to_string(), "check the path")),
    };
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(unusable(
            format!("a NUL byte at offset {at}: this is a binary file"),
            "gametrace diff compares text traces",
        ));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

fn diff(
    expected: &std::path::Path,
    actual: &std::path::Path,
    exact: bool,
    color: ColorWhen,
) -> i32 {
    use crate::check::diff::{self as engine, Lines};
    use crate::check::expected::Expected;
    let (old_text, new_text) = match (read_trace(expected), read_trace(actual)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(d), _) | (_, Err(d)) => return report_error(&d),
    };
    let palette = color.palette();
    // The expected file may hold checks: blocks in any order, text that must never appear.
    let expectation = match Expected::parse(expected, &old_text, exact) {
        Ok(e) => e,
        Err(d) => return report_error(&d),
    };
    let new = Lines::of(&new_text, exact);
    let compared = expectation.compare(&new);
    let (old, d) = (&*compared.expected, &compared.diff);
    let names = (expected.display().to_string(), actual.display().to_string());
    let names = (names.0.as_str(), names.1.as_str());
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let how = if exact {
        "byte for byte"
    } else {
        "blank lines and spacing ignored"
    };
    let checks = if expectation.checks {
        let groups = crate::check::unordered::groups(&expectation.shape);
        format!(
            "; the expected file's checks: {} in any order, {} CHECK-NOT",
            plural(groups, "group"),
            expectation.never.len()
        )
    } else {
        String::new()
    };
    let mut text = String::new();
    if d.is_same() {
        text = format!("same: {} lines compared ({how}{checks})\n", old.len());
    } else {
        text.push_str(&engine::unified(old, &new, d, names, palette));
        text.push_str(&engine::summary(old, &new, d, names));
    }
    text.push_str(&compared.broken_text(names.0, names.1));
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => i32::from(!compared.passed()),
        Err(e) => write_failed(e),
    }
}

/// `1 group`, `2 groups`.
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A tree spec and, if named, one of its cases; or exit 2 saying why not.
fn tree_spec(path: &std::path::Path, case: Option<&str>, command: &str) -> Result<spec::Spec, i32> {
    load_tree_spec(path, case, command, spec::load)
}

fn load_tree_spec(
    path: &std::path::Path,
    case: Option<&str>,
    command: &str,
    load: fn(&std::path::Path) -> Result<Document, Diagnostic>,
) -> Result<spec::Spec, i32> {
    let spec = match load(path) {
        Ok(Document::Tree(s)) => s,
        Ok(Document::Task(t)) => {
            return Err(report_error(
                &Diagnostic::new(path, format!("`{command}` works on game trees"))
                    .expected("a spec with a `tree:`")
                    .found(format!("a task spec (`task: {}`)", t.task.name()))
                    .hint("`gametrace run` prints a task's results"),
            ))
        }
        Ok(Document::Game(g)) => {
            let game = crate::with_game_spec!(&g, s => crate::game::Playable::name(&s.game));
            return Err(report_error(
                &Diagnostic::new(path, format!("`{command}` works on game trees"))
                    .expected("a spec with a `tree:`")
                    .found(format!("a game spec (`game: {game}`)"))
                    .hint("`gametrace run` prints its searches and scenarios, and `gametrace play` plays from its position"),
            ));
        }
        Err(d) => return Err(report_error(&d)),
    };
    if let Some(name) = case {
        if spec.case(name).is_none() {
            let names: Vec<&str> = spec.cases.iter().map(|c| c.name.as_str()).collect();
            return Err(unknown_case(path, name, &names));
        }
    }
    Ok(spec)
}

/// `gametrace bugs`: the catalogue, or the mistakes one case can make.
fn bugs(spec: Option<PathBuf>, case: Option<String>) -> i32 {
    use crate::search::mistakes::{Mistake, CATALOGUE};
    use std::fmt::Write as _;
    let entries: Vec<&Mistake> = match (&spec, &case) {
        (Some(path), Some(name)) => {
            let doc = match spec::load(path) {
                Ok(d) => d,
                Err(d) => return report_error(&d),
            };
            let names = case::with_subject(&doc, name, |s| {
                let c = s.case();
                CATALOGUE
                    .iter()
                    .filter(|m| m.applies(c))
                    .collect::<Vec<_>>()
            });
            match names {
                Ok(n) => n,
                Err(d) => return report_error(&d),
            }
        }
        (Some(path), None) => {
            return report_error(
                &Diagnostic::new(path, "which case's mistakes?")
                    .expected("--case NAME")
                    .found("a spec without --case")
                    .hint("`gametrace bugs` alone lists the whole catalogue"),
            )
        }
        _ => CATALOGUE.iter().collect(),
    };
    let mut out = String::new();
    for m in &entries {
        let sides = if m.sided {
            format!("; at one player's nodes: {0}:maxie, {0}:minnie", m.name)
        } else {
            String::new()
        };
        let _ = writeln!(out, "{}  ({}{sides})", m.name, m.scope());
        let _ = writeln!(out, "    {}", m.sentence);
        let _ = writeln!(out, "    the handout: {}", m.handout);
    }
    let _ = writeln!(
        out,
        "{} mistakes; `gametrace explain SPEC --case NAME --bug NAME` shows one on a case",
        entries.len()
    );
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) => write_failed(e),
    }
}

/// `gametrace explain`: a mistake's trace against the reference's, for one case.
fn explain(
    path: &std::path::Path,
    name: &str,
    bugs: &[String],
    alone: bool,
    color: ColorWhen,
) -> i32 {
    use crate::check::diagnose::variant_trace;
    use crate::check::diff::{self as engine, Lines};
    use crate::search::mistakes::Bug;
    use std::fmt::Write as _;
    let parsed: Result<Vec<Bug>, String> = bugs.iter().map(|b| Bug::parse(b)).collect();
    let parsed = match parsed {
        Ok(p) => p,
        Err(why) => {
            return report_error(
                &Diagnostic::new(path, why)
                    .expected("a mistake of the catalogue: NAME, NAME:maxie or NAME:minnie")
                    .found(format!("--bug {}", bugs.join(" --bug ")))
                    .hint("`gametrace bugs` lists the catalogue"),
            )
        }
    };
    let doc = match spec::load(path) {
        Ok(d) => d,
        Err(d) => return report_error(&d),
    };
    let traces = case::with_subject(&doc, name, |s| {
        Ok::<_, String>((variant_trace(s, &[])?, variant_trace(s, &parsed)?))
    });
    let (reference, mistaken) = match traces {
        Ok(Ok(t)) => t,
        Ok(Err(why)) => {
            return report_error(
                &Diagnostic::new(path, why)
                    .expected("a mistake this case's searcher can make")
                    .found(format!("--bug {}", bugs.join(" --bug ")))
                    .hint(format!(
                        "`gametrace bugs {} --case {name}` lists them",
                        path.display()
                    )),
            )
        }
        Err(d) => return report_error(&d),
    };
    let text = if alone {
        mistaken
    } else {
        let mut t = String::new();
        for b in &parsed {
            let m = b.entry();
            let _ = writeln!(t, "{b}: {}", m.sentence);
            let _ = writeln!(t, "  the handout: {}", m.handout);
        }
        let (old, new) = (Lines::of(&reference, false), Lines::of(&mistaken, false));
        let d = engine::diff(&old, &new, engine::DEFAULT_DEADLINE);
        if d.is_same() {
            let _ = writeln!(
                t,
                "on case `{name}` this mistake prints the same trace as the reference ({} lines): the case cannot catch it",
                old.len()
            );
        } else {
            let shown = path.display();
            let names = (
                format!("reference: gametrace run {shown} --case {name}"),
                format!("with {}", bugs.join(" and ")),
            );
            t.push_str(&engine::unified(
                &old,
                &new,
                &d,
                (&names.0, &names.1),
                color.palette(),
            ));
        }
        t
    };
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) => write_failed(e),
    }
}

/// `show`: the terminal drawing, or with `--svg`, the SVG picture instead (`-`: to stdout).
fn show(path: PathBuf, case: Option<String>, svg: Option<PathBuf>, color: ColorWhen) -> i32 {
    let spec = match load_tree_spec(&path, case.as_deref(), "show", spec::load_for_drawing) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let picture = crate::draw::Picture::new(&spec, case.as_deref().and_then(|n| spec.case(n)));
    match &svg {
        Some(file) if file.as_os_str() == "-" => print_all(&crate::draw::svg::draw(&picture)),
        Some(file) => match suite::write_atomically(file, &crate::draw::svg::draw(&picture)) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "error: cannot write the SVG to {}: {e}\n  = hint: check that the directory exists and is writable",
                    file.display()
                );
                2
            }
        },
        None => print_all(&crate::draw::terminal::draw(&picture, color.palette())),
    }
}

/// `handout-small.yaml` -> `HandoutSmall`: a structure name from a file name.
fn camel_case(path: &std::path::Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut name = String::new();
    for word in stem.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        Some(_) => format!("Tree{name}"),
        None => "Tree".to_owned(),
    }
}

fn export(
    path: &std::path::Path,
    to: ExportFormat,
    case: Option<&str>,
    name: Option<String>,
    output: Option<&std::path::Path>,
) -> i32 {
    let spec = match tree_spec(path, case, "export") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let Some(case) = case.and_then(|n| spec.case(n)).or(spec.cases.first()) else {
        return 2;
    };
    let origin = format!(
        "{}exported by gametrace {} from {}",
        spec.title
            .as_deref()
            .map(|t| format!("{t}, "))
            .unwrap_or_default(),
        env!("CARGO_PKG_VERSION"),
        path.display()
    );
    let text = match to {
        ExportFormat::Json => crate::export::tree_json(&spec, case),
        ExportFormat::Sml => {
            let name = match name {
                Some(n) => n,
                None if case.style.sml_structure != "Game" => case.style.sml_structure.clone(),
                None => camel_case(path),
            };
            if !spec::is_sml_identifier(&name) {
                return report_error(
                    &Diagnostic::new(path, "`--name` must be an SML structure name")
                        .expected("a name like HandoutBig (letters, digits, _ and ')")
                        .found(format!("`{name}`")),
                );
            }
            crate::export::sml::structure(&spec.tree, &name, &origin)
        }
        ExportFormat::Python => match crate::export::python::module(
            &spec.tree,
            case.root_player,
            &case.style.move_names,
            &origin,
        ) {
            Ok(text) => text,
            Err(twice) => {
                return report_error(
                    &Diagnostic::new(path, format!("node name `{twice}` is used twice"))
                        .expected("each node named once: the Python export keys states by name")
                        .found(format!("two nodes named `{twice}`"))
                        .hint("rename one (`gametrace validate` points at both)"),
                )
            }
        },
    };
    match output {
        Some(file) => match suite::write_atomically(file, &text) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "error: cannot write {}: {e}\n  = hint: check that the directory exists and is writable",
                    file.display()
                );
                2
            }
        },
        None => print_all(&text),
    }
}

fn new_spec(g: crate::game::tree::Generate) -> i32 {
    use crate::spec::new::MAX_WRITTEN_NODES;
    if g.min > g.max {
        eprintln!(
            "error: --min is greater than --max\n  = expected: min <= max\n  =    found: min {} and max {}",
            g.min, g.max
        );
        return 2;
    }
    match g.node_count() {
        Some(n) if n <= MAX_WRITTEN_NODES => print_all(&crate::spec::new::spec(&g)),
        n => {
            eprintln!(
                "error: the tree is too large to write out\n  = expected: at most {MAX_WRITTEN_NODES} nodes\n  =    found: {}\n  =     hint: lower --branching or --depth, or write `tree: {{generate: {{branching: {}, depth: {}, seed: {}}}}}` in a spec",
                n.map_or("more than 2^64 nodes".to_owned(), |n| format!("{n} nodes")),
                g.branching,
                g.depth,
                g.seed
            );
            2
        }
    }
}

/// `new --discriminating`: the tree the search finds, its coverage in the header.
fn discriminating_spec() -> String {
    use std::fmt::Write as _;
    let (g, text, coverage) = crate::check::coverage::discriminating_tree(40);
    let mut out = format!(
        "# Made by `gametrace new --discriminating`: of the trees tried (3 shapes by size, seeds 0 to 39,\n\
         # then to 399 where S12 Jamboree can meet a tie at the root; estimates -3 to 3), the one on\n\
         # which the most catalogued mistakes print a trace unlike the reference's and unlike each\n\
         # other's (branching {}, depth {}, seed {}).\n",
        g.branching, g.depth, g.seed
    );
    for (name, c) in &coverage {
        let _ = write!(
            out,
            "#   {name}: {} of {} mistakes caught and told apart",
            c.distinguished(),
            c.applicable.len()
        );
        if !c.missed.is_empty() {
            let _ = write!(out, "; passes with {}", c.missed.join(", "));
        }
        for group in &c.alike {
            let _ = write!(out, "; cannot tell {} apart", group.join(" from "));
        }
        for group in &c.inseparable {
            let _ = write!(
                out,
                "; {} print the same trace on every tree",
                group.join(" and ")
            );
        }
        out.push('\n');
    }
    out.push_str(
        "# Every inner node has a static value and every case stops one level above the leaves,\n\
         # so a search that keeps its depth goes on past them and is caught.\n",
    );
    for (rules, algorithm, name, why) in crate::check::coverage::INVISIBLE {
        let _ = writeln!(
            out,
            "# {name} is not counted in {} {algorithm}: {why}.",
            rules.name()
        );
    }
    for (rules, algorithm, names, why) in crate::check::coverage::INSEPARABLE {
        if coverage
            .iter()
            .any(|(_, c)| c.inseparable.iter().any(|g| g.contains(&names[0])))
        {
            let _ = writeln!(
                out,
                "# {} and {} ({} {algorithm}) cannot be told apart on any tree: {why}.",
                names[0],
                names[1],
                rules.name()
            );
        }
    }
    // The generated spec's own first lines name another command; they are left out.
    out.extend(
        text.lines()
            .filter(|l| !l.starts_with("# "))
            .map(|l| format!("{l}\n")),
    );
    out
}

fn schema(write: bool) -> i32 {
    if !write {
        return print_all(&crate::spec::schema::spec_schema());
    }
    let files = [
        (
            "schema/spec.schema.json",
            crate::spec::schema::spec_schema(),
        ),
        ("schema/tree.schema.json", crate::export::tree_schema()),
    ];
    for (file, text) in files {
        let path = std::path::Path::new(file);
        let written =
            std::fs::create_dir_all("schema").and_then(|()| suite::write_atomically(path, &text));
        if let Err(e) = written {
            eprintln!("error: cannot write {file}: {e}\n  = hint: run it from the project's root");
            return 2;
        }
        println!("wrote {file}");
    }
    0
}

fn stats(path: &std::path::Path, format: StatsFormat, positions: u64, limit: Duration) -> i32 {
    if let Ok(Document::Game(g)) = spec::load(path) {
        let limits = crate::game::state_tree::Limits {
            positions,
            ..Default::default()
        };
        let s = crate::with_game_spec!(&g, s => crate::stats::game::stats(s, limits, limit));
        let text = match format {
            StatsFormat::Table => crate::stats::game::human(&s),
            StatsFormat::Json => crate::stats::game::json(&s),
            StatsFormat::Csv => crate::stats::game::csv(&s),
        };
        return print_all(&text);
    }
    let spec = match tree_spec(path, None, "stats") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rows = crate::stats::table(&spec);
    let text = match format {
        StatsFormat::Table => {
            let mut t = crate::stats::human(&spec, &rows);
            t.push_str(&crate::stats::coverage_human(&crate::stats::coverage(
                &spec,
            )));
            t
        }
        StatsFormat::Json => crate::stats::json(&spec, &rows),
        StatsFormat::Csv => crate::stats::csv(&rows),
    };
    print_all(&text)
}

/// Writes text to stdout: 0, or what a failed write means.
fn solve(
    game: &str,
    pits: u64,
    seeds: u64,
    capture_empty: bool,
    time_limit: f64,
    max_table: usize,
) -> i32 {
    use crate::game::kalah::{Kalah, MAX_SEEDS};
    if game != "kalah" {
        eprintln!("error: `solve` solves kalah, not `{game}`\n  hint: gametrace solve kalah --pits 4 --seeds 3");
        return 2;
    }
    if !(1..=8).contains(&pits)
        || !(1..=u64::from(MAX_SEEDS)).contains(&seeds)
        || 2 * pits * seeds > 255
    {
        eprintln!(
            "error: Kalah({pits}, {seeds}) cannot be solved here\n  expected: --pits 1 to 8 and --seeds 1 to {MAX_SEEDS}, with fewer than 256 seeds in all\n  hint: the boards that finish are small: see the README's table"
        );
        return 2;
    }
    let kalah = Kalah::new(pits as usize, seeds as u16, capture_empty);
    let started = std::time::Instant::now();
    let deadline = started + Duration::from_secs_f64(time_limit);
    let rule = if capture_empty {
        "the empty-capture variant"
    } else {
        "the notes' capture rule"
    };
    match crate::search::solve::solve(&kalah, Some(deadline), max_table) {
        Ok(s) => {
            let result = match s.margin {
                0 => "a draw".to_owned(),
                m if m > 0 => format!("p1 wins by {m}"),
                m => format!("p2 wins by {}", -m),
            };
            let best = s
                .best
                .map_or(String::new(), |b| format!(" (best first move: pit {b})"));
            print_all(&format!(
                "Kalah({pits}, {seeds}), {rule}: {result} with perfect play{best}\nsearched {} positions ({} in the table) in {:.2} s\n",
                s.positions,
                s.table,
                started.elapsed().as_secs_f64()
            ))
        }
        Err(_) => {
            eprintln!(
                "Kalah({pits}, {seeds}), {rule}: not solved within {time_limit} s\n  hint: raise --time-limit, or solve a smaller board"
            );
            1
        }
    }
}

fn print_all(text: &str) -> i32 {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => write_failed(e),
    }
}

fn validate(paths: &[PathBuf], format: ValidateFormat) -> i32 {
    use crate::spec::validate as v;
    // A directory stands for the specs under it; a file (even a missing one) for itself, so
    // that a path that cannot be read is one more problem in the report.
    let mut specs = Vec::new();
    for p in paths {
        if p.is_dir() {
            match suite::discover(std::slice::from_ref(p)) {
                Ok(found) => specs.extend(found),
                Err(d) => return report_error(&d),
            }
        } else {
            specs.push(p.clone());
        }
    }
    let checked = v::check(&specs);
    let text = match format {
        ValidateFormat::Human => v::human(&checked),
        ValidateFormat::Json => v::json(&checked),
    };
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        let code = write_failed(e);
        if code != 0 {
            return code;
        }
    }
    if v::totals(&checked).0 > 0 {
        2
    } else {
        0
    }
}

/// The specs under `paths` (default `specs`), or exit 2 with why not.
fn specs_under(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, i32> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        paths
    };
    let specs = suite::discover(&paths).map_err(|d| report_error(&d))?;
    if specs.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "error: no specs (*.yaml) under {}\n  = hint: write a spec there, or name a spec file",
            shown.join(", ")
        );
        return Err(2);
    }
    Ok(specs)
}

/// `gametrace cases`: a table of each spec's cases.
fn cases(paths: Vec<PathBuf>) -> i32 {
    use std::fmt::Write as _;
    let specs = match specs_under(paths) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let describe = |c: &spec::Case| {
        use crate::search::Algorithm as A;
        let to_the_end =
            c.rules == spec::Rules::Csc148 && c.depth == crate::search::csc148::TO_THE_END;
        // As the spec names it: CSC148's and CS10's searches by their courses' names.
        let algorithm = match (c.rules, c.algorithm) {
            (_, A::Jamboree { prune_percentage }) => format!("jamboree {prune_percentage}"),
            (spec::Rules::Cs10, A::Minimax) => "negamax".to_owned(),
            (spec::Rules::Cs10, A::AlphaBeta) => "negamax_ab".to_owned(),
            (spec::Rules::Csc148, A::AlphaBeta) => "prune".to_owned(),
            (spec::Rules::Csc148, A::Minimax) if !to_the_end => "myopic".to_owned(),
            (_, a) => a.name().to_owned(),
        };
        let depth = if to_the_end {
            "to the end".to_owned()
        } else {
            format!("depth {}", c.depth)
        };
        let points = match c.points {
            1.0 => "1 point".to_owned(),
            p => format!("{p} points"),
        };
        vec![
            algorithm,
            depth,
            c.dialect.name().to_owned(),
            format!("check {}", c.mode.name()),
            points,
        ]
    };
    let mut out = String::new();
    let mut code = 0;
    for path in &specs {
        let doc = match spec::load(path) {
            Ok(d) => d,
            Err(d) => {
                eprint!("{d}");
                code = 2;
                continue;
            }
        };
        let (title, rows): (Option<&str>, Vec<(String, Vec<String>)>) = match &doc {
            Document::Tree(t) => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.name.clone(), describe(c)))
                    .collect(),
            ),
            Document::Task(t) => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.name.clone(), vec![format!("task {}", t.task.name())]))
                    .collect(),
            ),
            Document::Game(g) => crate::with_game_spec!(g, t => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.case.name.clone(), describe(&c.case)))
                    .chain(t.scenarios.iter().map(|s| (s.name.clone(), vec!["scenario (the rules)".to_owned()])))
                    .collect(),
            )),
        };
        let _ = match title {
            Some(t) => writeln!(out, "{}: {t}", path.display()),
            None => writeln!(out, "{}", path.display()),
        };
        let columns = rows.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
        let mut widths = vec![0; columns + 1];
        for (name, row) in &rows {
            widths[0] = widths[0].max(name.chars().count());
            for (i, cell) in row.iter().enumerate() {
                widths[i + 1] = widths[i + 1].max(cell.chars().count());
            }
        }
        for (name, row) in &rows {
            let mut line = format!("  {name:<w$}", w = widths[0]);
            for (i, cell) in row.iter().enumerate() {
                let _ = write!(line, "  {cell:<w$}", w = widths[i + 1]);
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    match print_all(&out) {
        0 => code,
        c => c,
    }
}

/// With `--case`/`--filter`, an error (exit 2) when no case of any spec is chosen: a typo
/// should not pass as "0 passed, 0 failed". Specs that do not load are left to the run.
fn nothing_selected(specs: &[PathBuf], select: &suite::Selection) -> Option<i32> {
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
    names.truncate(SHOWN);
    eprintln!(
        "error: no case matches {}\n  = expected: one of {}{more}\n  = hint: `gametrace cases SPEC` lists a spec's cases",
        select.describe(),
        names.join(", ")
    );
    Some(2)
}

/// `test --against`: every case of every spec checked against the command's output, graded.
fn grade(
    paths: Vec<PathBuf>,
    cmd: CommandLine,
    mode: Option<Mode>,
    diagnose: bool,
    select: &suite::Selection,
    args: &ReportArgs,
) -> i32 {
    let specs = match specs_under(paths) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(code) = nothing_selected(&specs, select) {
        return code;
    }
    let palette = args.palette();
    let streaming = args.format == Format::Human && args.output.is_none();
    let mut report = Report::default();
    let source = Source::Command(cmd);
    let options = case::Options {
        mode,
        palette,
        exact: false,
        max_input: case::MAX_ACTUAL,
        diagnose,
    };
    let mut stdout = io::stdout().lock();
    let mut write_error = None;
    for path in &specs {
        let results: Vec<crate::report::CaseResult> = match spec::load(path) {
            Err(d) => vec![crate::report::CaseResult::new(
                &path.display().to_string(),
                "(spec)",
                crate::report::Status::Error,
                0.0,
            )
            .message("the spec cannot be loaded")
            .details(d.to_string())],
            Ok(doc) => doc
                .checkable_names()
                .iter()
                .filter(|name| select.selects(name))
                .map(|name| {
                    case::check_case(&doc, name, &source, options).unwrap_or_else(|d| {
                        crate::report::CaseResult::new(
                            &path.display().to_string(),
                            name,
                            crate::report::Status::Error,
                            1.0,
                        )
                        .message("the case could not be checked")
                        .details(d.to_string())
                    })
                })
                .collect(),
        };
        for mut r in results {
            if args.for_students {
                crate::report::for_students(&mut r);
            }
            if streaming && write_error.is_none() {
                let text = crate::report::human_case(&r, palette);
                if let Err(e) = stdout.write_all(text.as_bytes()) {
                    write_error = Some(e);
                }
            }
            report.cases.push(r);
        }
    }
    let code = report.exit_code();
    if streaming {
        let summary = format!("{}\n", report.summary(true));
        if let Err(e) = stdout
            .write_all(summary.as_bytes())
            .and_then(|()| stdout.flush())
        {
            write_error.get_or_insert(e);
        }
        return match write_error.map(write_failed) {
            Some(c) if c != 0 => c,
            _ => code,
        };
    }
    drop(stdout);
    let text = crate::report::render(&report, args.format, true, palette);
    emit(&text, args, &report.summary(true), code)
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
) -> i32 {
    let time_limit = Some(time_limit);
    let specs = match specs_under(paths) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(code) = nothing_selected(&specs, select) {
        return code;
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
        let code = write_failed(e);
        if code != 0 {
            return code;
        }
    }
    totals.exit_code()
}

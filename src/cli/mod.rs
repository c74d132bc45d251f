//! The command line: parses the arguments and hands each command to its module, one module
//! a command (its flags as an `Args` struct, and a short function that calls the library).

mod adapters;
mod bugs;
mod cases;
mod check;
mod check_game;
mod common;
mod completions;
mod diff;
mod doctor;
mod endgame;
mod explain;
mod export;
mod grade;
mod gradebook;
mod import;
mod man;
mod new;
mod play;
mod run;
mod schema;
mod show;
mod solve;
mod specs;
mod stats;
mod test;
mod validate;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "gametrace",
    version,
    about = "Reference game-tree searchers that print the courses' traces, and checks of students' searchers and games",
    long_about = "Reference game-tree searchers (minimax, alpha-beta, Jamboree, negamax, \
memoized and pruning strategies) that print the exact traces of the course handouts (CMU \
15-150, Toronto CSC148, Dartmouth CS10, the textbooks); checks of a student's searcher \
against them, naming the mistake; checks of a student's own game against the rules; and \
grading of a whole class, with student code run in a sandbox.\n\nExit codes: 0 all good, \
1 a comparison failed, 2 the input was unusable."
)]
struct Cli {
    /// The largest spec file (and expected trace) gametrace reads; larger ones are refused
    /// with a message rather than read (K, M, G suffixes) [default: 256M]
    #[arg(long, global = true, value_name = "BYTES", value_parser = common::parse_bytes)]
    max_spec_size: Option<usize>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a real game in the terminal: people type their moves, computer players search.
    /// The board is shown after every move, with each computer move's time
    Play(play::Args),
    /// Print the reference trace of each case of a spec, or of one case
    Run(run::Args),
    /// Check what an implementation printed (a file, stdin, or a command gametrace runs)
    /// against the reference for one case: PASS, or where it first goes wrong
    Check(check::Args),
    /// Check a student's own game (Connect 4, PopOut, Tippy, Subtract Square) against the
    /// spec's rules: scenarios, perft, random playouts, move order; a difference shrunk to a
    /// shortest move sequence and, when it is a catalogued mistake, named
    CheckGame(check_game::Args),
    /// Compare two trace files: a unified diff with the changed words marked, how many lines
    /// differ and where the first difference is
    Diff(diff::Args),
    /// List the catalogue of mistakes `check` names: each one's name, where it can be made,
    /// what it does and the handout line it breaks
    Bugs(bugs::Args),
    /// Show what a catalogued mistake does to a case's trace: the reference and the mistaken
    /// trace as a diff (or the mistaken trace alone with --trace)
    Explain(explain::Args),
    /// Draw a spec's tree (▲ Maxie, ▼ Minnie, ■ leaves with estimates, each node's minimax
    /// value); with --case, that case's search on it: bounds, results, prunes, chosen path
    Show(show::Args),
    /// Write the tree in a form a student's code can load: an SML ExplicitGame structure, a
    /// Python module (AIMA / CS188 style) or JSON
    Export(export::Args),
    /// Write other tools' test files as specs: `import cs188 DIR OUT` writes Berkeley CS188's
    /// game-tree tests (test_cases/q2, q3, q4) as YAML specs, each with its expected trace
    /// once the reference agrees with the test's .solution
    Import(import::Args),
    /// Print a new spec with a random tree (the same for a seed on every machine), node names
    /// a, b, ..., z, aa, ..., and alpha-beta and Jamboree cases ready to bless
    New(new::Args),
    /// Print the JSON Schema of the spec format (for editors), or with --write, write
    /// schema/spec.schema.json and schema/tree.schema.json
    Schema(schema::Args),
    /// A tree spec: work and span of each case, and of minimax, alpha-beta and Jamboree
    /// (prune_percentage 0, 0.25, 0.5, 0.75, 1): the work-span trade-off as a table. A game
    /// spec: the game-state tree of its position (CSC148's node_count, leaf_count, ...), and
    /// what each search case finds and how many positions it searches
    Stats(stats::Args),
    /// Solve a small game exactly: Kalah's first-player margin with perfect play
    Solve(solve::Args),
    /// Kalah's endgame databases: `endgame build kalah --pits 6 --seeds 4 [rules]` builds the
    /// one `solve`, `play` and `grade --player-cmd` use and keeps it for them (an autograder
    /// image's setup, say), so that no later run pays for it
    Endgame(endgame::Args),
    /// List the cases of specs: each one's name, algorithm, depth, dialect, check mode and
    /// points (a game spec's rule scenarios too), to choose one for `check --case` or
    /// `test --case`
    Cases(cases::Args),
    /// Check specs and report every problem in them (errors and warnings), each with its
    /// file, line and column
    Validate(validate::Args),
    /// Run every spec under the paths and compare each case with expected/<spec>/<case>.trace,
    /// or with --against, check an implementation on every case and grade it
    Test(test::Args),
    /// Grade a class: the suite against every submission folder under SUBMISSIONS (the
    /// command runs inside each), a report for each, a gradebook (CSV and JSON) and a summary,
    /// with progress; --resume picks up an interrupted run
    Grade(Box<grade::Args>),
    /// The course specs built into gametrace: list them (with a PREFIX, those under it), or
    /// `specs copy [PREFIX] DIR` to write them and their expected traces out to edit. Any
    /// command takes a built-in spec by its name: `gametrace test csc148/subtract-square-grading`
    Specs(specs::Args),
    /// The drivers built into gametrace (the CSC148 adapter and game driver, the 15-150 game
    /// drivers, the CS10 player driver): list them, or `adapters copy [DIR]` to write them out.
    /// A command gametrace runs gets them by their paths (`adapters/python/...`) from any folder
    Adapters(adapters::Args),
    /// Gradebooks: `gradebook merge --out DIR SHARD...` joins the --out folders of a class
    /// graded in shards (`grade --shard K/N`) into what one run writes, byte for byte
    Gradebook(gradebook::Args),
    /// Show what the sandbox for student code gives on this machine: which protections are in
    /// force (files, network, orphans, processes, memory, other limits), why any is missing,
    /// and the language runtimes found
    Doctor(doctor::Args),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell) for every
    /// command and flag
    Completions(completions::Args),
    /// Print the manual page, gametrace(1), or with --dir write it and one page a command
    Man(man::Args),
}

impl Command {
    /// The `--threads` of a command that searches.
    fn threads(&self) -> Option<u16> {
        match self {
            Command::Play(a) => a.parallel.threads,
            Command::Run(a) => a.parallel.threads,
            Command::Check(a) => a.parallel.threads,
            Command::Explain(a) => a.parallel.threads,
            Command::Show(a) => a.parallel.threads,
            Command::Stats(a) => a.parallel.threads,
            Command::Test(a) => a.parallel.threads,
            Command::Grade(a) => a.parallel.threads,
            _ => None,
        }
    }
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() == Some(std::ffi::OsStr::new(crate::sandbox::contain::WATCHDOG_ARG)) {
        // gametrace's own watchdog (see check::contain), never typed by a user.
        let parent = args.next().and_then(|a| a.to_str()?.parse().ok());
        return parent.map_or(2, crate::sandbox::contain::watchdog);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    // A student's program that runs gametrace (a copy, or one on its PATH) would get the
    // reference's answers: inside gametrace's own sandbox, only `doctor` runs.
    if !matches!(cli.command, Command::Doctor(_)) && crate::sandbox::inside_sandbox() {
        return failed(common::Failure::message(
            "error: gametrace will not run inside its own sandbox: a program being checked may not ask gametrace for the reference's answers",
        ));
    }
    match &cli.command {
        Command::Check(check::Args { report, .. })
        | Command::Test(test::Args { report, .. })
        | Command::CheckGame(check_game::Args { report, .. })
            if report.full_diff =>
        {
            crate::diff::set_max_diff_lines(usize::MAX)
        }
        Command::Grade(a) if a.full_diff => crate::diff::set_max_diff_lines(usize::MAX),
        // `diff` is asked for a diff: all of it.
        Command::Diff(_) => crate::diff::set_max_diff_lines(usize::MAX),
        _ => {}
    }
    if let Some(n) = cli.command.threads() {
        // Only fails if a pool already exists, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global();
    }
    // Every child of the gametrace program is a command it runs: orphans are its to kill.
    crate::sandbox::contain::claim_orphans();
    // Ctrl-C and SIGTERM kill the commands running and remove temporaries being written.
    crate::sandbox::clean_up_on_interrupt(crate::suite::remove_temporaries);
    crate::sandbox::install_interrupt_handler();
    if let Some(n) = cli.max_spec_size {
        crate::input::set_max_spec_size(n as u64);
    }
    let exit = match cli.command {
        Command::Play(a) => play::execute(a),
        Command::Run(a) => run::execute(a),
        Command::Check(a) => check::execute(a),
        Command::CheckGame(a) => check_game::execute(a),
        Command::Diff(a) => diff::execute(a),
        Command::Bugs(a) => bugs::execute(a),
        Command::Explain(a) => explain::execute(a),
        Command::Show(a) => show::execute(a),
        Command::Export(a) => export::execute(a),
        Command::Import(a) => import::execute(a),
        Command::New(a) => new::execute(a),
        Command::Schema(a) => schema::execute(a),
        Command::Stats(a) => stats::execute(a),
        Command::Solve(a) => solve::execute(a),
        Command::Endgame(a) => endgame::execute(a),
        Command::Cases(a) => cases::execute(a),
        Command::Validate(a) => validate::execute(a),
        Command::Test(a) => test::execute(a),
        Command::Grade(a) => grade::execute(*a),
        Command::Doctor(a) => doctor::execute(a),
        Command::Specs(a) => specs::execute(a),
        Command::Adapters(a) => adapters::execute(a),
        Command::Gradebook(a) => gradebook::execute(a),
        Command::Completions(a) => completions::execute(a),
        Command::Man(a) => man::execute(a),
    };
    let code = exit.unwrap_or_else(failed);
    #[cfg(target_os = "linux")]
    crate::sandbox::cgroup::remove_cgroups();
    code
}

/// The one place a command's failure is printed: on stderr, with its exit code (2).
fn failed(f: common::Failure) -> i32 {
    eprint!("{f}");
    f.code()
}

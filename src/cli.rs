//! The `gametrace` command line. Exit codes: 0 all good, 1 a comparison failed, 2 the input
//! was unusable (bad spec, missing file, bad flag).

use crate::run::run_case;
use crate::spec::{self, diagnostic::did_you_mean, Diagnostic};
use crate::suite::{self, compare::Palette};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

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
    /// Threads for Jamboree's and minimax's parallel phases (default: one per core). The
    /// output is the same for any number.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the reference trace of each case of a spec, or of one case
    Run {
        /// The spec file (YAML)
        spec: PathBuf,
        /// Print only this case
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
    },
    /// Run every spec under the paths and compare each case with expected/<spec>/<case>.trace
    Test {
        /// Spec files or directories of specs [default: specs]
        paths: Vec<PathBuf>,
        /// Write missing and changed expected traces instead of failing
        #[arg(long)]
        bless: bool,
        /// Colour the report and diffs (auto: when printing to a terminal and NO_COLOR is unset)
        #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
        color: ColorWhen,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if let Some(n) = cli.threads {
        // Only fails if a pool already exists, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global();
    }
    match cli.command {
        Command::Run { spec, case } => run(spec, case),
        Command::Test {
            paths,
            bless,
            color,
        } => test(paths, bless, color),
    }
}

fn report_error(d: &Diagnostic) -> i32 {
    eprint!("{d}");
    2
}

fn run(path: PathBuf, case: Option<String>) -> i32 {
    let spec = match spec::load(&path) {
        Ok(s) => s,
        Err(d) => return report_error(&d),
    };
    let cases: Vec<&spec::Case> = match &case {
        None => spec.cases.iter().collect(),
        Some(name) => match spec.case(name) {
            Some(c) => vec![c],
            None => {
                let names: Vec<&str> = spec.cases.iter().map(|c| c.name.as_str()).collect();
                let d = Diagnostic::new(&path, format!("no case `{name}` in this spec"))
                    .expected(format!("one of {}", names.join(", ")))
                    .found(format!("--case {name}"));
                let d = match did_you_mean(name, &names) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None => d.hint("leave out --case to print every case"),
                };
                return report_error(&d);
            }
        },
    };
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
    let headers = cases.len() > 1;
    for case in cases {
        let written = if headers {
            writeln!(out, "== {} ==", case.name)
        } else {
            Ok(())
        }
        .and_then(|()| run_case(&spec, case, &mut out).map(drop));
        if let Err(e) = written {
            return write_failed(e);
        }
    }
    match out.flush() {
        Ok(()) => 0,
        Err(e) => write_failed(e),
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

fn test(paths: Vec<PathBuf>, bless: bool, color: ColorWhen) -> i32 {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        paths
    };
    let specs = match suite::discover(&paths) {
        Ok(s) => s,
        Err(d) => return report_error(&d),
    };
    if specs.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "error: no specs (*.yaml) under {}\n  = hint: write a spec there, or name a spec file",
            shown.join(", ")
        );
        return 2;
    }
    let stdout = io::stdout();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let palette = Palette {
        color: match color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => !no_color && stdout.is_terminal(),
        },
    };
    let mut out = stdout.lock();
    let mut write_error = None;
    let totals = suite::run(
        &specs,
        suite::Options { bless, palette },
        &mut |o: &suite::Outcome| {
            if write_error.is_none() {
                if let Err(e) = out.write_all(suite::render(o, palette).as_bytes()) {
                    write_error = Some(e);
                }
            }
        },
    );
    let mut summary = String::new();
    if totals.missing + totals.errors + totals.blessed > 0 {
        summary.push_str(&format!(
            "({} missing, {} errors, {} blessed)\n",
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

//! The `gametrace` command line. Exit codes: 0 all good, 1 a comparison failed, 2 the input
//! was unusable (bad spec, missing file, bad flag).

use crate::run::run_case;
use crate::spec::{self, diagnostic::did_you_mean, Diagnostic, Document};
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
    /// Check what an implementation printed against the reference result of a task case
    Check {
        /// The spec file (YAML)
        spec: PathBuf,
        /// The case to check
        #[arg(long, value_name = "NAME")]
        case: String,
        /// What the implementation printed (a raw SML/NJ transcript is fine); - for stdin
        #[arg(long, value_name = "FILE")]
        actual: PathBuf,
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
        Command::Check { spec, case, actual } => check(spec, case, actual),
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

fn run(path: PathBuf, case: Option<String>) -> i32 {
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
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
    let headers = chosen.len() > 1;
    for name in chosen {
        let header = if headers {
            writeln!(out, "== {name} ==")
        } else {
            Ok(())
        };
        let written = header.and_then(|()| match &doc {
            Document::Tree(spec) => match spec.case(name) {
                Some(case) => run_case(spec, case, &mut out).map(drop),
                None => Ok(()),
            },
            Document::Task(spec) => match spec.case(name) {
                Some(case) => {
                    let result = crate::check::reference(spec, case);
                    out.write_all(crate::check::render(case, &result).as_bytes())
                }
                None => Ok(()),
            },
        });
        if let Err(e) = written {
            return write_failed(e);
        }
    }
    match out.flush() {
        Ok(()) => 0,
        Err(e) => write_failed(e),
    }
}

/// The most of an actual output gametrace reads (a transcript is text; more is not an answer).
const MAX_ACTUAL: u64 = 64 << 20;

fn check(path: PathBuf, name: String, actual: PathBuf) -> i32 {
    let doc = match spec::load(&path) {
        Ok(d) => d,
        Err(d) => return report_error(&d),
    };
    let spec = match &doc {
        Document::Task(spec) => spec,
        Document::Tree(_) => {
            let d = Diagnostic::new(&path, "`check` does not check traces yet")
                .expected("a task spec (`task: from_edge_seq` ...)")
                .found("a tree spec")
                .hint("compare a trace with `gametrace test`, which diffs the reference against expected/");
            return report_error(&d);
        }
    };
    let Some(case) = spec.case(&name) else {
        return unknown_case(&path, &name, &doc.case_names());
    };
    let reference = match crate::check::reference(spec, case) {
        Ok(v) => v,
        Err(r) => {
            let d = Diagnostic::new(
                &path,
                format!("case `{name}` has no reference value to check against"),
            )
            .expected("a case whose arguments meet the task's REQUIRES clause")
            .found(format!("REQUIRES violated: {r}"))
            .hint("`check` compares values; cases with expect_error test the reference itself");
            return report_error(&d);
        }
    };
    let text = match read_actual(&actual) {
        Ok(t) => t,
        Err(e) => {
            let d = Diagnostic::new(&actual, format!("cannot read the actual output: {e}"))
                .expected("a file with what the implementation printed, or - for standard input")
                .found(e.to_string());
            return report_error(&d);
        }
    };
    let what = format!("{} {name}", path.display());
    let (found, lines) = crate::check::transcript::last_value(&text);
    let Some(found) = found else {
        println!("FAIL    {what}");
        println!("    expected: {reference}");
        println!("    no value found in the actual output ({lines} lines read)");
        println!("    (looked for `val it = <value> : <type>` or a line that is just a value)");
        return 1;
    };
    let source = format!(
        "line {} of {}: {}",
        found.line,
        actual.display(),
        crate::spec::yaml::shorten(found.text.trim())
    );
    match crate::check::against_reference(spec, case, &reference, found.value) {
        Ok(()) => {
            println!("PASS    {what}: {reference}");
            println!(
                "    from {source} ({} other lines ignored)",
                lines.saturating_sub(1)
            );
            0
        }
        Err(why) => {
            println!("FAIL    {what}");
            for line in why.lines() {
                println!("    {line}");
            }
            println!("    from {source}");
            1
        }
    }
}

/// Reads the actual output (a file, or - for stdin), at most [`MAX_ACTUAL`] bytes, as text
/// (bytes that are not UTF-8 become U+FFFD rather than an error: transcripts can hold anything).
fn read_actual(path: &std::path::Path) -> io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin()
            .lock()
            .take(MAX_ACTUAL)
            .read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)?
            .take(MAX_ACTUAL)
            .read_to_end(&mut bytes)?;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
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

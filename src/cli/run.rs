//! `gametrace run`: the reference trace of each case of a spec (or what each finds, as JSON).

use super::common::*;
use crate::spec::{self, Document};
use clap::ValueEnum;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// The spec file (YAML)
    pub spec: PathBuf,
    /// Print only this case
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,
    /// Stop a case's search after this many seconds (a case's `time_limit:` wins); the
    /// trace so far stays printed, the next case runs, and the exit code is 1
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// trace: each case's trace; json: what each case finds (value, chosen move, every
    /// equally good move, positions searched, table hits; a game-state tree's measures)
    #[arg(long, value_enum, default_value_t = RunFormat::Trace, value_name = "FORMAT")]
    pub format: RunFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    Trace,
    Json,
}

pub fn execute(a: Args) -> Exit {
    run(
        a.spec,
        a.case,
        a.time_limit.map(Duration::from_secs_f64),
        a.format,
    )
}

fn run(
    path: PathBuf,
    case: Option<String>,
    time_limit: Option<Duration>,
    format: RunFormat,
) -> Exit {
    let doc = spec::load(&path)?;
    let names = doc.case_names();
    let chosen: Vec<&str> = match &case {
        None => names.clone(),
        Some(name) if names.contains(&name.as_str()) => vec![name.as_str()],
        Some(name) => return Err(unknown_case(&path, name, &names)),
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
        print_all(&text)?;
        return Ok(i32::from(timed_out));
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
            Document::Task(spec) => match spec.case(name) {
                Some(case) => {
                    let result = crate::check::reference(spec, case);
                    out.write_all(crate::check::render(case, &result).as_bytes())
                }
                None => Ok(()),
            },
            _ => match crate::run::trace_named(&doc, name, &mut out, time_limit) {
                Some(traced) => searched(traced.map(|w| w.map(drop)), name, &mut out),
                None => Ok(()),
            },
        });
        if let Err(e) = written {
            return write_failed(e);
        }
    }
    match out.flush() {
        Ok(()) => Ok(i32::from(timed_out)),
        Err(e) => write_failed(e),
    }
}

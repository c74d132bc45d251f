//! `gametrace validate`: every problem in specs, each with its file, line and column.

use super::common::*;
use crate::suite;
use clap::ValueEnum;
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Spec files or directories of specs, or built-in ones by name (`gametrace specs`)
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// human: compiler-style messages; json: one document for editors and CI
    #[arg(long, value_enum, default_value_t = ValidateFormat::Human, value_name = "FORMAT")]
    pub format: ValidateFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    Human,
    Json,
}

pub fn execute(a: Args) -> Exit {
    validate(&a.paths, a.format)
}

fn validate(paths: &[PathBuf], format: ValidateFormat) -> Exit {
    use crate::spec::validate as v;
    // A directory stands for the specs under it; a file (even a missing one) for itself, so
    // that a path that cannot be read is one more problem in the report.
    let mut specs = Vec::new();
    for p in paths {
        // A folder of built-in specs (`csc148`) stands for them as a folder on disk would.
        if p.is_dir() || (!p.exists() && crate::builtin::specs_under(p).is_some()) {
            match suite::discover(std::slice::from_ref(p)) {
                Ok(found) => specs.extend(found),
                Err(d) => return Err(d.into()),
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
        write_failed(e)?;
    }
    // Exit 2 where a spec has a problem: the report has said which.
    Ok(if v::totals(&checked).0 > 0 { 2 } else { 0 })
}

//! `gametrace diff`: the diff engine on two trace files.

use super::common::*;
use crate::spec::Diagnostic;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The expected trace
    pub expected: PathBuf,
    /// The trace to check
    pub actual: PathBuf,
    /// Compare byte for byte (by default blank lines, runs of spaces, trailing spaces and
    /// CRLF line ends do not count)
    #[arg(long)]
    pub exact: bool,
    /// Colour the diff (auto: when printing to a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

pub fn execute(a: Args) -> Exit {
    diff(&a.expected, &a.actual, a.exact, a.color)
}

/// The most of a trace file `diff` reads: far more than any trace worth diffing line by line.
const MAX_DIFF_INPUT: u64 = 1 << 30;

/// Reads a text file for `diff`: lossy UTF-8, but a file with NUL bytes is not a trace.
fn read_trace(path: &Path) -> Result<String, Diagnostic> {
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

fn diff(expected: &Path, actual: &Path, exact: bool, color: ColorWhen) -> Exit {
    use crate::check::expected::Expected;
    use crate::diff::{self as engine, Lines};
    let (old_text, new_text) = match (read_trace(expected), read_trace(actual)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(d), _) | (_, Err(d)) => return Err(d.into()),
    };
    let palette = color.palette();
    // The expected file may hold checks: blocks in any order, text that must never appear.
    let expectation = Expected::parse(expected, &old_text, exact)?;
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
    // The diff is written as it is made: for two traces that differ everywhere it is as long as
    // both, and holding it would double the memory `diff` needs.
    let mut sink = FmtIo::new(&mut out);
    let written = if d.is_same() {
        writeln!(sink, "same: {} lines compared ({how}{checks})", old.len())
    } else {
        engine::write_unified(&mut sink, old, &new, d, names, palette)
            .and_then(|()| sink.write_str(&engine::summary(old, &new, d, names)))
    }
    .and_then(|()| sink.write_str(&compared.broken_text(names.0, names.1)));
    match sink.finish(written).and_then(|()| out.flush()) {
        Ok(()) => Ok(i32::from(!compared.passed())),
        Err(e) => write_failed(e),
    }
}

//! `gametrace specs`: the course specs built into gametrace, listed or copied out to edit.

use super::common::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// List only the specs under this path (`csc148`, `15150-s14/handout-big`)
    #[arg(value_name = "PREFIX")]
    pub prefix: Option<String>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Write the specs (those under PREFIX, or all) and their expected traces into DIR, as
    /// DIR/specs/... and DIR/expected/...; a file already there with other contents stops
    /// it before anything is written
    Copy {
        /// [PREFIX] DIR
        #[arg(value_name = "PREFIX_AND_DIR", num_args = 1..=2, required = true)]
        args: Vec<String>,
    },
}

pub fn execute(a: Args) -> Exit {
    match a.action {
        None => list(a.prefix.as_deref().unwrap_or("")),
        Some(Action::Copy { args }) => {
            let (prefix, dir) = match args.as_slice() {
                [dir] => ("", dir),
                [prefix, dir] => (prefix.as_str(), dir),
                _ => unreachable!("clap takes one or two"),
            };
            copy(prefix, Path::new(dir))
        }
    }
}

/// The built-in specs under `prefix`, or an error naming the prefix.
fn chosen(prefix: &str) -> Result<Vec<PathBuf>, Failure> {
    let all = crate::builtin::specs_under(Path::new("specs")).unwrap_or_default();
    let want = prefix
        .trim_start_matches("specs/")
        .trim_end_matches(".yaml");
    let found: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| {
            p.strip_prefix("specs")
                .is_ok_and(|r| r.to_string_lossy().starts_with(want))
        })
        .collect();
    if found.is_empty() {
        return Err(Failure::message(format!(
            "error: no built-in spec under `{prefix}`\n  = hint: `gametrace specs` lists them all"
        )));
    }
    Ok(found)
}

fn list(prefix: &str) -> Exit {
    let specs = chosen(prefix)?;
    let mut out = String::new();
    for p in &specs {
        let text = crate::builtin::file(p)
            .map(String::from_utf8_lossy)
            .unwrap_or_default();
        let title = text
            .lines()
            .find_map(|l| l.strip_prefix("title:"))
            .map(|t| t.trim().trim_matches(['"', '\'']).to_owned())
            .unwrap_or_default();
        let cases = crate::spec::load(p).map_or(0, |d| d.case_names().len());
        let rel = p.strip_prefix("specs").unwrap_or(p).with_extension("");
        let _ = writeln!(
            out,
            "{:<44} {:>3} {}  {title}",
            rel.display(),
            cases,
            if cases == 1 { "case " } else { "cases" }
        );
    }
    let _ = writeln!(
        out,
        "\n{}; use one by its name (`gametrace test csc148/subtract-square-grading`), or `gametrace specs copy [PREFIX] DIR` to edit",
        plural(specs.len(), "spec")
    );
    print_all(&out)
}

fn copy(prefix: &str, dir: &Path) -> Exit {
    chosen(prefix)?;
    write_out(
        &crate::builtin::files_for(prefix),
        dir,
        dir,
        "copy into an empty folder",
    )
}

/// Writes `files` (paths relative to `dir`) into `dir`, the ones already there with the same
/// bytes left alone, and says how many it wrote under `shown`. Nothing is lost: a file
/// already there with other bytes stops the copy before it starts (`elsewhere` is the hint's
/// way out).
pub(crate) fn write_out(
    files: &[(std::path::PathBuf, &[u8])],
    dir: &Path,
    shown: &Path,
    elsewhere: &str,
) -> Exit {
    let clashes: Vec<String> = files
        .iter()
        .filter(|(p, bytes)| std::fs::read(dir.join(p)).is_ok_and(|have| have != *bytes))
        .map(|(p, _)| dir.join(p).display().to_string())
        .collect();
    if !clashes.is_empty() {
        return Err(Failure::message(format!("error: {} already there with other contents, so nothing was copied:\n  {}\n  = hint: {elsewhere}, or move those files away first",
            if clashes.len() == 1 {
                "1 file is".to_owned()
            } else {
                format!("{} files are", clashes.len())
            },
            clashes.join("\n  "))));
    }
    let mut written = 0;
    for (p, bytes) in files {
        let to = dir.join(p);
        if to.exists() {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        if let Err(e) = crate::suite::write_atomically(&to, &text) {
            return Err(Failure::message(format!(
                "error: cannot write {}: {e}\n  = hint: check that the folder is writable",
                to.display()
            )));
        }
        written += 1;
    }
    print_all(&format!(
        "{} written under {} ({} already there)\n",
        plural(written, "file"),
        shown.display(),
        files.len() - written
    ))
}

//! `gametrace gradebook merge`: the `--out` folders of a class graded in shards
//! (`grade --shard K/N` on N machines) joined into what one run would have written, byte for
//! byte: the reports, the rows, the gradebook and the summary.

use super::common::*;
use crate::grade::class::{Gradebook, Row};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Join the --out folders of `grade --shard K/N` runs into one
    Merge {
        /// The shards' --out folders
        #[arg(value_name = "SHARD", required = true)]
        shards: Vec<PathBuf>,
        /// Where the merged reports, rows, gradebook and summary go (a new or empty folder)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The submissions folder graded: every submission in it must be in some shard
        #[arg(long, value_name = "DIR")]
        submissions: Option<PathBuf>,
    },
}

pub fn execute(a: Args) -> Exit {
    match a.action {
        Action::Merge {
            shards,
            out,
            submissions,
        } => merge(&shards, &out, submissions.as_deref()),
    }
}

/// One shard's rows by submission, and its report files by name.
struct Shard {
    rows: Vec<(Row, PathBuf)>,
    reports: Vec<PathBuf>,
}

fn read_shard(dir: &Path) -> Result<Shard, String> {
    if !dir.join("gradebook.json").is_file() {
        return Err(format!(
            "{} holds no gradebook.json: not a finished `grade` --out folder",
            dir.display()
        ));
    }
    let list = |sub: &str| -> Result<Vec<PathBuf>, String> {
        let d = dir.join(sub);
        let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
            .map_err(|e| format!("cannot read {}: {e}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        v.sort();
        Ok(v)
    };
    let mut rows = Vec::new();
    for path in list("rows")? {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let row: Row = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a gradebook row: {e}", path.display()))?;
        rows.push((row, path));
    }
    Ok(Shard {
        rows,
        reports: list("reports")?,
    })
}

fn merge(shards: &[PathBuf], out: &Path, submissions: Option<&Path>) -> Exit {
    let fail =
        |why: String, hint: &str| Err(Failure::message(format!("error: {why}\n  = hint: {hint}")));
    let mut read = Vec::new();
    for dir in shards {
        match read_shard(dir) {
            Ok(s) => read.push(s),
            Err(why) => {
                return fail(
                    why,
                    "name the --out folder of each `grade --shard K/N` run, once it has finished",
                )
            }
        }
    }
    // Every row graded the same way, and each submission in one shard only.
    let mut rows: BTreeMap<String, &Row> = BTreeMap::new();
    let mut with: Option<&str> = None;
    for s in &read {
        for (row, path) in &s.rows {
            if let Some(w) = with {
                if w != row.graded_with {
                    return fail(
                        format!(
                            "{} was graded with other settings than the rows before it:\n    {}\n  against\n    {w}",
                            path.display(),
                            row.graded_with
                        ),
                        "merge the shards of one grading: the same command, specs and flags",
                    );
                }
            }
            with = Some(&row.graded_with);
            if rows.insert(row.submission.clone(), row).is_some() {
                return fail(
                    format!("{} is in two shards", row.submission),
                    "each shard of `--shard K/N` must have a different K",
                );
            }
        }
    }
    if let Some(dir) = submissions {
        match crate::grade::class::submissions(dir) {
            Ok((subs, _)) => {
                let missing: Vec<&str> = subs
                    .iter()
                    .map(|s| s.name.as_str())
                    .filter(|n| !rows.contains_key(*n))
                    .collect();
                if !missing.is_empty() {
                    return fail(
                        format!(
                            "{} of {} in no shard: {}",
                            plural(missing.len(), "submission"),
                            dir.display(),
                            missing.join(", ")
                        ),
                        "run the missing shards (or rerun one with --resume), then merge again",
                    );
                }
            }
            Err(d) => return Err(d.into()),
        }
    }
    if out
        .join("rows")
        .read_dir()
        .is_ok_and(|mut d| d.next().is_some())
    {
        return fail(
            format!("{} already holds graded rows", out.display()),
            "merge into a new or empty folder",
        );
    }
    // The files as the shards wrote them, then the gradebook of all the rows in name order:
    // what one run writes.
    for s in &read {
        for (_, path) in &s.rows {
            if let Err(e) = copy_into(path, &out.join("rows")) {
                return fail(e, "check that the folder is writable");
            }
        }
        for report in &s.reports {
            if let Err(e) = copy_into(report, &out.join("reports")) {
                return fail(e, "check that the folder is writable");
            }
        }
    }
    let book = Gradebook {
        rows: rows.values().map(|r| (*r).clone()).collect(),
    };
    if let Err(e) = book.write_to(out) {
        return fail(e, "check that the folder is writable");
    }
    let mut text = book.summary();
    text.push_str(&format!(
        "\nmerged {} from {}: reports in {}, gradebook in {}\n",
        plural(rows.len(), "submission"),
        plural(shards.len(), "shard"),
        out.join("reports").display(),
        out.join("gradebook.csv").display()
    ));
    print_all(&text)
}

/// Copies `file` into the folder `dir` under its own name, whole.
fn copy_into(file: &Path, dir: &Path) -> Result<(), String> {
    let name = file.file_name().unwrap_or_default();
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let to = dir.join(name);
    crate::suite::write_atomically(&to, &String::from_utf8_lossy(&bytes))
        .map_err(|e| format!("cannot write {}: {e}", to.display()))
}

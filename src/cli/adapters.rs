//! `gametrace adapters`: the drivers built into gametrace (the CSC148 adapter and game driver,
//! the 15-150 game drivers, the CS10 player driver), listed or copied out.

use super::common::*;
use std::fmt::Write as _;
use std::path::Path;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Write the drivers into DIR (default: this folder) as DIR/adapters/python/...,
    /// DIR/adapters/sml/... and DIR/adapters/java/...; a file already there with other
    /// contents stops it before anything is written
    Copy {
        #[arg(value_name = "DIR", default_value = ".")]
        dir: std::path::PathBuf,
    },
}

pub fn execute(a: Args) -> Exit {
    match a.action {
        None => list(),
        Some(Action::Copy { dir }) => copy(&dir),
    }
}

fn list() -> Exit {
    let mut out = String::new();
    for (p, bytes) in crate::adapters::drivers() {
        let _ = writeln!(out, "{:<52} {:>6} bytes", p.display(), bytes.len());
    }
    let _ = writeln!(
        out,
        "\n{}; a command gametrace runs gets them by these paths from any folder (and `python3 -m gametrace.csc148`, `gametrace.game` or `gametrace.cs188` the Python drivers); `gametrace adapters copy [DIR]` writes them out",
        plural(crate::adapters::drivers().len(), "file")
    );
    print_all(&out)
}

fn copy(dir: &Path) -> Exit {
    super::specs::write_out(
        &crate::adapters::drivers(),
        dir,
        &dir.join("adapters"),
        "copy into another folder",
    )
}

//! `gametrace man`: the manual page, gametrace(1), generated from the command line's own
//! definitions; with `--dir`, one page a command as well (gametrace-check(1), ...), for a
//! package to install under share/man/man1.

use super::common::{Exit, Failure};
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args as ClapArgs, CommandFactory};

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Write gametrace.1 and a page for each command (gametrace-check.1, ...) into DIR
    /// instead of printing gametrace.1 (read it with `gametrace man | man -l -`)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn execute(a: Args) -> Exit {
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = a.dir else {
        return match render(cmd) {
            Ok(page) => super::common::print_all(&String::from_utf8_lossy(&page)),
            Err(e) => Err(Failure::message(format!(
                "error: cannot write the manual page: {e}"
            ))),
        };
    };
    if !dir.is_dir() {
        return Err(Failure::message(format!(
            "error: --dir {}: no such directory\n  hint: create it first (mkdir -p {})",
            dir.display(),
            dir.display()
        )));
    }
    let mut pages = vec![(format!("{}.1", cmd.get_name()), cmd.clone())];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_display_name().unwrap_or_else(|| sub.get_name());
        pages.push((format!("{name}.1"), sub.clone()));
    }
    // Every page is rendered before any is written, and each is written whole (a temporary
    // renamed into place): an error leaves no page half-written.
    let mut rendered = Vec::new();
    for (file, page) in pages {
        match render(page) {
            Ok(text) => rendered.push((file, text)),
            Err(e) => {
                return Err(Failure::message(format!(
                    "error: cannot render {file}: {e}"
                )));
            }
        }
    }
    for (file, text) in &rendered {
        if let Err(e) = write_whole(&dir, file, text) {
            return Err(Failure::message(format!(
                "error: cannot write {}: {e}",
                dir.join(file).display()
            )));
        }
    }
    eprintln!("wrote {} manual pages to {}", rendered.len(), dir.display());
    Ok(0)
}

fn render(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .manual("gametrace manual")
        .render(&mut out)?;
    Ok(out)
}

fn write_whole(dir: &Path, file: &str, text: &[u8]) -> std::io::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text)?;
    tmp.as_file().sync_all()?;
    tmp.persist(dir.join(file)).map_err(|e| e.error)?;
    Ok(())
}

//! `gametrace completions SHELL`: the shell's completion script for every command and flag,
//! generated from the same definitions that parse them (so it cannot fall behind).

use super::common::Exit;
use clap::{Args as ClapArgs, CommandFactory};
use clap_complete::Shell;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The shell to complete for; load it with e.g. `source <(gametrace completions bash)`
    /// in ~/.bashrc, or write it where the shell looks (`gametrace completions fish >
    /// ~/.config/fish/completions/gametrace.fish`)
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn execute(a: Args) -> Exit {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "gametrace", &mut out);
    super::common::print_all(&String::from_utf8_lossy(&out))
}

//! `gametrace doctor`: what the sandbox for student code gives on this machine, layer by
//! layer, and why any layer is missing; and the language runtimes a course's command needs.

use clap::Args as ClapArgs;
use std::fmt::Write as _;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Exit 1 unless every protection is in force (for an autograder's setup script)
    #[arg(long)]
    pub strict: bool,
}

pub fn execute(a: Args) -> i32 {
    let p = crate::sandbox::protections();
    let mut out = String::from("sandbox for student code (check --cmd, test --against, grade):\n");
    for line in p.describe().lines() {
        let _ = writeln!(out, "  {line}");
    }
    out.push_str("\nlanguage runtimes on PATH (each readable and runnable inside the sandbox):\n");
    // As root without user namespaces, programs run as `nobody`: a runtime it cannot reach
    // is named here, before a class's every submission fails on it.
    // SAFETY: no preconditions.
    let dropped = unsafe { libc::geteuid() } == 0 && !p.layers.user_namespace;
    let nobody = crate::sandbox::confine::SANDBOX_UID;
    for name in ["python3", "sml", "java", "javac", "node", "ocaml", "ghc"] {
        match crate::sandbox::confine::on_path(name) {
            Some(path) if dropped && !crate::sandbox::confine::runnable_by(&path, nobody) => {
                let _ = writeln!(
                    out,
                    "  {name:<8} {}: NOT runnable by uid {nobody}, which student code runs as here (a folder on the way is private); install it for every user, or put a runnable one first on PATH",
                    path.display()
                );
            }
            Some(path) => {
                let _ = writeln!(out, "  {name:<8} {}", path.display());
            }
            None => {
                let _ = writeln!(out, "  {name:<8} not found");
            }
        }
    }
    out.push('\n');
    let code = if p.complete() {
        out.push_str("every protection is in force\n");
        0
    } else {
        let _ = writeln!(
            out,
            "MISSING: {} (see above); student code still runs, with the protections that are in force",
            p.missing().join(", ")
        );
        i32::from(a.strict)
    };
    // A closed pipe (`gametrace doctor | head`) is not a crash.
    match super::common::print_all(&out) {
        0 => code,
        failed => failed,
    }
}

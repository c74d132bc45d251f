//! `gametrace doctor`: what the sandbox for student code gives on this machine, layer by
//! layer, and why any layer is missing; and the language runtimes a course's command needs.

use clap::Args as ClapArgs;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Exit 1 unless every protection is in force (for an autograder's setup script)
    #[arg(long)]
    pub strict: bool,
}

pub fn execute(a: Args) -> i32 {
    let p = crate::sandbox::protections();
    println!("sandbox for student code (check --cmd, test --against, grade):");
    for line in p.describe().lines() {
        println!("  {line}");
    }
    println!();
    println!("language runtimes on PATH (each readable and runnable inside the sandbox):");
    for name in ["python3", "sml", "java", "javac", "node", "ocaml", "ghc"] {
        match crate::sandbox::confine::on_path(name) {
            Some(path) => println!("  {name:<8} {}", path.display()),
            None => println!("  {name:<8} not found"),
        }
    }
    println!();
    if p.complete() {
        println!("every protection is in force");
        0
    } else {
        println!(
            "MISSING: {} (see above); student code still runs, with the protections that are in force",
            p.missing().join(", ")
        );
        i32::from(a.strict)
    }
}

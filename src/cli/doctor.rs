//! `gametrace doctor`: what the sandbox for student code gives on this machine, layer by
//! layer, and why any layer is missing; the language runtimes a course's command needs; and
//! with `--policy`, the whole computed set of what one command may read, run, write and call.

use super::common::print_all;
use super::common::Exit;
#[cfg(target_os = "linux")]
use super::common::Failure;
use clap::Args as ClapArgs;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Exit 1 unless every protection is in force (for an autograder's setup script)
    #[arg(long)]
    pub strict: bool,
    /// Print the sandbox's policy for a command: every path it may read, run or write (and
    /// why), what stays hidden, what was narrowed or refused, and the system calls it may make
    #[arg(long)]
    pub policy: bool,
    /// With --policy: the command, as `check --cmd` takes it
    #[arg(long, value_name = "LINE", requires = "policy")]
    pub cmd: Option<String>,
    /// With --policy: the command line goes to `sh -c` (as `check --shell`)
    #[arg(long, requires = "policy")]
    pub shell: bool,
    /// With --policy: the spec it would be checked against (its specs and expected traces
    /// are hidden)
    #[arg(long, value_name = "SPEC", requires = "policy")]
    pub spec: Option<PathBuf>,
    /// With --policy: the folder it runs in (default: this one)
    #[arg(long, value_name = "DIR", requires = "policy")]
    pub dir: Option<PathBuf>,
    /// With --policy: one more path it may read (as `check --sandbox-read`)
    #[arg(long, value_name = "PATH", requires = "policy", value_parser = super::common::readable_path)]
    pub sandbox_read: Vec<PathBuf>,
    /// With --policy: `json` for a program to read
    #[arg(long, value_name = "FORMAT", requires = "policy", default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

pub fn execute(a: Args) -> Exit {
    if a.policy {
        return policy(&a);
    }
    let p = crate::sandbox::protections();
    let mut out = String::from("sandbox for student code (check --cmd, test --against, grade):\n");
    for line in p.describe().lines() {
        let _ = writeln!(out, "  {line}");
    }
    out.push_str("\nlanguage runtimes on PATH (each readable and runnable inside the sandbox):\n");
    // As root, programs run as a uid of their own: a runtime it cannot reach (and no mount
    // namespace to reach it through) is named here, before a class's every submission fails
    // on it.
    #[cfg(target_os = "linux")]
    // SAFETY: no preconditions.
    let dropped = unsafe { libc::geteuid() } == 0 && !p.layers.mount_namespace;
    #[cfg(target_os = "linux")]
    let uid = crate::sandbox::identity::FIRST;
    #[cfg(target_os = "linux")]
    let (on_path, runnable) = (
        crate::sandbox::confine::on_path,
        |path: &std::path::Path| !dropped || crate::sandbox::confine::runnable_by(path, uid),
    );
    #[cfg(not(target_os = "linux"))]
    let (on_path, runnable, uid) = (on_path, |_: &std::path::Path| true, 0);
    for name in ["python3", "sml", "java", "javac", "node", "ocaml", "ghc"] {
        match on_path(name) {
            Some(path) if !runnable(&path) => {
                let _ = writeln!(
                    out,
                    "  {name:<8} {}: NOT runnable by the sandbox's uids ({uid}-...), which student code runs as here (a folder on the way is private); install it for every user, or put a runnable one first on PATH",
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
        // Where the sandbox cannot confine, nothing runs student code (but --no-sandbox):
        // say so, not that it runs with what is left.
        let then = match crate::sandbox::confinable(&crate::sandbox::Policy::default()) {
            Ok(()) => "student code still runs, with the protections that are in force",
            Err(_) => "student code is refused (check --cmd, test --against, grade, check-game and play say why) unless --no-sandbox is passed",
        };
        let _ = writeln!(
            out,
            "MISSING: {} (see above); {then}",
            p.missing().join(", ")
        );
        i32::from(a.strict)
    };
    // A closed pipe (`gametrace doctor | head`) is not a crash.
    print_all(&out).map(|_| code)
}

/// A program on PATH, as a shell finds it (with Windows' `.exe`, `.bat` and `.cmd`).
#[cfg(not(target_os = "linux"))]
fn on_path(name: &str) -> Option<PathBuf> {
    let exts: &[&str] = if cfg!(windows) {
        &["", ".exe", ".bat", ".cmd"]
    } else {
        &[""]
    };
    std::env::split_paths(&std::env::var_os("PATH")?).find_map(|dir| {
        exts.iter()
            .map(|e| dir.join(format!("{name}{e}")))
            .find(|p| p.is_file())
    })
}

/// `doctor --policy` where there is no sandbox: nothing confines a command.
#[cfg(not(target_os = "linux"))]
fn policy(_a: &Args) -> Exit {
    print_all(&format!(
        "no sandbox on {}: a command runs with your user's rights, reads and writes what you can, and has only the timeout and the output cap\n",
        crate::sandbox::unsandboxed_system().unwrap_or_default()
    ))
}

/// `doctor --policy`: the computed policy of one command, as its sandbox would have it.
#[cfg(target_os = "linux")]
fn policy(a: &Args) -> Exit {
    let line = a.cmd.clone().unwrap_or_else(|| "true".to_owned());
    let argv = if a.shell {
        vec!["sh".to_owned(), "-c".to_owned(), line.clone()]
    } else {
        match crate::sandbox::split(&line) {
            Some(argv) => argv,
            None => {
                return Err(Failure::message(format!("error: cannot split the --cmd line into arguments: {line}\nhint: close every quote, or pass --shell to hand the line to sh")));
            }
        }
    };
    let scratch = match crate::sandbox::Scratch::new() {
        Ok(s) => s,
        Err(e) => {
            return Err(Failure::message(format!(
                "error: cannot make a temporary folder: {e}"
            )));
        }
    };
    let policy = crate::sandbox::Policy {
        readable: a.sandbox_read.clone(),
        hidden: a
            .spec
            .as_deref()
            .map(crate::sandbox::grader_paths)
            .unwrap_or_default(),
        ..crate::sandbox::Policy::default()
    };
    let job = crate::sandbox::Job {
        argv: &argv,
        words: &argv,
        stdin: None,
        dir: a.dir.as_deref(),
        limits: crate::sandbox::Limits::default(),
        scratch: &scratch,
        policy: &policy,
    };
    let files = crate::sandbox::file_policy(&job);
    let p = crate::sandbox::protections();
    let (ipc, net) = (p.layers.pid_namespace, p.layers.network_namespace);
    let identity = p
        .lines
        .iter()
        .find(|(l, _, _)| *l == crate::sandbox::Layer::Identity)
        .map(|(_, _, how)| how.clone())
        .unwrap_or_default();
    let out = if a.format == "json" {
        let rules: Vec<serde_json::Value> = files
            .rules
            .iter()
            .map(|r| {
                serde_json::json!({
                    "path": r.path,
                    "access": format!("{:?}", r.access).to_lowercase(),
                    "why": r.why,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "command": argv,
            "temp_folder": scratch.path(),
            "identity": identity,
            "rules": rules,
            "hidden": files.hidden,
            "notes": files.notes,
            "system_calls": crate::sandbox::syscalls::describe(ipc, net),
        });
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    } else {
        let mut out = format!("the sandbox's policy for `{line}`\n\nruns as: {identity}\n\nfiles (the temp folder is made afresh for each run; here {}):\n", scratch.path().display());
        out.push_str(&files.describe());
        out.push_str("\nsystem calls:\n");
        out.push_str(&crate::sandbox::syscalls::describe(ipc, net));
        out
    };
    print_all(&out)
}

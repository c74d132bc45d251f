//! Nothing a student's program starts outlives its case: not a descendant that leaves the
//! process group (setsid, setpgid, a double fork, with its stdout closed), and not the program
//! itself or its descendants when gametrace is killed outright with SIGKILL.
//!
//! These run with `--no-sandbox`: the containment holds without the sandbox too (its PID
//! namespace is one more layer), and the programs write their pids where the test reads them.
//! `tests/cli_sandbox.rs` checks the same escapes with the sandbox on.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SPEC: &str = "specs/15150-s14/handout-small.yaml";

/// Is `pid` still running (not gone, not a zombie)?
fn runs(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next());
    !matches!(state, None | Some('Z') | Some('X'))
}

/// Waits up to 10 s (SIGKILL lands asynchronously) for `pid` to stop running.
fn assert_dies(pid: u32, what: &str) {
    let started = Instant::now();
    while runs(pid) {
        if started.elapsed() > Duration::from_secs(10) {
            // Do not leave it behind for the next test either.
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{what}: process {pid} still runs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for `file` to hold a pid and returns it.
fn pid_in(file: &Path) -> u32 {
    let started = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} never got a pid",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A Python program that starts a sleeper escaping in the way `how` says, writes the sleeper's
/// pid to `pidfile`, and (unless `linger`) returns at once.
fn escaper(how: &str, pidfile: &Path, linger: bool) -> String {
    let body = match how {
        // A new session: out of the group and away from the terminal.
        "setsid" => "os.setsid()",
        // A new process group of its own.
        "setpgid" => "os.setpgid(0, 0)",
        // A double fork: the middle process exits, the sleeper is orphaned (and leaves the
        // session too, as daemons do), with stdout and stderr closed so no pipe betrays it.
        "double-fork" => {
            "os.setsid()\n    if os.fork() != 0:\n        os._exit(0)\n    os.close(1)\n    os.close(2)"
        }
        _ => unreachable!(),
    };
    format!(
        "import os, sys, time\nif os.fork() == 0:\n    {body}\n    open({pidfile:?}, 'w').write(str(os.getpid()))\n    time.sleep(1000)\n    os._exit(0)\nprint('F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))')\nsys.stdout.flush()\n{}",
        if linger { "time.sleep(1000)" } else { "" },
        pidfile = pidfile.display().to_string(),
    )
}

#[test]
fn descendants_that_leave_the_group_are_killed_with_the_command() {
    for how in ["setsid", "setpgid", "double-fork"] {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let program = dir.path().join("escape.py");
        std::fs::write(&program, escaper(how, &pidfile, false)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "check",
                SPEC,
                "--case",
                "alphabeta",
                "--no-sandbox",
                "--cmd",
            ])
            .arg(format!("python3 {}", program.display()))
            .output()
            .unwrap();
        // The program's trace is one line: a wrong answer, judged.
        assert_eq!(out.status.code(), Some(1), "{how}: {out:?}");
        assert_dies(pid_in(&pidfile), how);
    }
}

#[test]
fn a_descendant_that_escapes_while_the_command_times_out_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let program = dir.path().join("escape.py");
    std::fs::write(&program, escaper("setsid", &pidfile, true)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--timeout",
            "1",
            "--no-sandbox",
            "--cmd",
        ])
        .arg(format!("python3 {}", program.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("TIMEOUT"));
    assert_dies(pid_in(&pidfile), "setsid under a timeout");
}

/// gametrace is killed with SIGKILL while the command runs: no code of gametrace's runs, yet
/// the command (through PR_SET_PDEATHSIG) and its descendants, even one in a session of its own
/// (through the watchdog), die with it.
#[test]
fn killing_gametrace_with_sigkill_kills_the_command_and_its_descendants() {
    let dir = tempfile::tempdir().unwrap();
    let child = dir.path().join("child");
    let grandchild = dir.path().join("grandchild");
    let escaped = dir.path().join("escaped");
    let script = format!(
        "echo $$ > {child}; sleep 1000 & echo $! > {grandchild}; setsid sleep 1000 & echo $! > {escaped}; wait",
        child = child.display(),
        grandchild = grandchild.display(),
        escaped = escaped.display(),
    );
    let mut g = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", SPEC, "--case", "alphabeta", "--timeout", "600"])
        .args(["--no-sandbox", "--shell", "--cmd", &script])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pids = [pid_in(&child), pid_in(&grandchild), pid_in(&escaped)];
    for &p in &pids {
        assert!(runs(p), "{p} should run before gametrace is killed");
    }
    g.kill().unwrap(); // SIGKILL
    g.wait().unwrap();
    for (p, what) in pids
        .into_iter()
        .zip(["the command", "its child", "a setsid child"])
    {
        assert_dies(p, what);
    }
}

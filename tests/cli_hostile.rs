//! Hostile and bad input to `check` and `diff`: each gets its own clear verdict, gametrace
//! stays responsive, leaves no process behind and never panics.

use predicates::prelude::*;
use predicates::str::contains;
use std::time::{Duration, Instant};

mod common;
use common::cli::gametrace;

const SPEC: &str = "specs/15150-s14/handout-small.yaml";

/// Waits (up to 10 s: SIGKILL is delivered asynchronously) until `pid` no longer runs: gone,
/// or a zombie waiting for its reaper.
fn assert_dies(pid: &str) {
    let started = Instant::now();
    loop {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
        let state = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next());
        if matches!(state, None | Some('Z') | Some('X')) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "process {pid} still runs: {stat}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn check_stdin(input: Vec<u8>) -> assert_cmd::assert::Assert {
    gametrace()
        .args(["check", SPEC, "--case", "alphabeta", "--actual", "-"])
        .write_stdin(input)
        .assert()
}

fn check_cmd(cmd: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--color",
            "never",
            "--cmd",
            cmd,
        ])
        .args(extra)
        .timeout(Duration::from_secs(60))
        .assert()
}

#[test]
fn garbage_empty_and_huge_outputs_are_wrong_answers_not_crashes() {
    // Binary garbage: no trace lines, and the NUL bytes are pointed out.
    check_stdin(vec![0, 159, 146, 150, 255, 10, 0, 1, 2, 10])
        .code(1)
        .stdout(contains("read 2 lines of -: 0 trace lines kept, 2 other lines ignored (2 lines hold NUL bytes: binary output?)"))
        .stdout(contains("actual: (nothing more: the output ends here)"));
    // Bytes that are not UTF-8 inside a trace line are replaced, and the line still counts.
    let mut bytes = b"F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\nResult of (Maxie,\xff) is\n".to_vec();
    bytes.extend_from_slice(b"\xc3\x28\n");
    check_stdin(bytes)
        .code(1)
        .stdout(contains("2 trace lines kept"))
        .stdout(contains("first divergence at node b"));
    check_stdin(Vec::new())
        .code(1)
        .stdout(contains("read 0 lines of -: 0 trace lines kept"));
    // A 10 MB line is not a trace line; it is skipped without being copied about.
    let mut big = b"Result of (".to_vec();
    big.extend(std::iter::repeat_n(b'x', 10 << 20));
    big.push(b'\n');
    check_stdin(big).code(1).stdout(contains(
        "read 1 line of -: 0 trace lines kept, 1 other line ignored",
    ));
}

#[test]
fn missing_files_and_programs_are_unusable_input() {
    gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--actual",
            "no/such/output.txt",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot read the actual output"))
        .stderr(contains("no/such/output.txt"));
    check_cmd("no-such-program-gametrace --flag", &[])
        .code(2)
        .stdout(contains(
            "NOT-FOUND specs/15150-s14/handout-small.yaml alphabeta",
        ))
        .stdout(contains(
            "no program `no-such-program-gametrace` (not a file, and not found on PATH)",
        ));
    check_cmd("cat", &["--stdin", "no/such/input.sml"])
        .code(2)
        .stdout(contains("cannot open the --stdin file no/such/input.sml"));
    check_cmd("true", &["--timeout", "0"])
        .code(2)
        .stderr(contains("expected a number of seconds above 0"));
    check_cmd("python3 'unclosed", &[])
        .code(2)
        .stderr(contains("cannot split the --cmd line into arguments"))
        .stderr(contains("--shell"));
    gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--actual",
            "x",
            "--cmd",
            "true",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
}

#[test]
fn a_command_that_sleeps_forever_times_out() {
    let started = Instant::now();
    // A program that waits is stopped by the wall clock (a computing one by its CPU time).
    check_cmd("sleep 1000", &["--timeout", "1", "--wall-time", "1"])
        .code(1)
        .stdout(contains(
            "TIMEOUT specs/15150-s14/handout-small.yaml alphabeta",
        ))
        .stdout(contains(
            "was still running after 1 s of wall-clock time (--wall-time)",
        ));
    // Responsive: killed at the timeout, not after the sleep.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_command_that_prints_without_end_hits_the_output_limit() {
    check_cmd("yes F: state", &["--max-output", "1M"])
        .code(1)
        .stdout(contains(
            "OUTPUT-LIMIT specs/15150-s14/handout-small.yaml alphabeta",
        ))
        .stdout(contains("printed more than 1 MiB and was killed"));
    gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--cmd",
            "true",
            "--max-output",
            "lots",
        ])
        .assert()
        .code(2)
        .stderr(contains("expected bytes like 8M"));
}

#[test]
fn a_command_killed_by_a_signal_crashes_and_shows_its_stderr() {
    check_cmd(
        "echo 'F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))'; echo 'Segmentation fault ahead' >&2; kill -SEGV $$",
        &["--shell"],
    )
    .code(1)
    .stdout(contains("CRASHED specs/15150-s14/handout-small.yaml alphabeta"))
    .stdout(contains("was killed by signal 11 (SIGSEGV)"))
    .stdout(contains("  | Segmentation fault ahead"))
    // What it printed first is still checked: it stopped after the root's line.
    .stdout(contains("first divergence at node b: child 0 of a"));
    check_cmd("sh -c 'exit 7'", &[])
        .code(1)
        .stdout(contains("the implementation exited with status 7"));
}

#[test]
fn a_child_that_outlives_the_command_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!("sleep 1000 & echo $! > {}; echo started", pidfile.display());
    // Without the sandbox, so the program may write its pid where the test reads it
    // (tests/cli_sandbox.rs has the sandboxed escapes).
    check_cmd(&script, &["--shell", "--no-sandbox"]).code(1);
    assert_dies(&std::fs::read_to_string(&pidfile).unwrap());
}

#[test]
fn diff_reports_counts_and_the_first_difference() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.trace");
    let b = dir.path().join("b.trace");
    std::fs::write(&a, "x\nResult of (Maxie,h) is Leaf(Guess: 4)\ny\n").unwrap();
    std::fs::write(&b, "x\r\n\nResult  of (Maxie,h) is Leaf(Guess: 5)  \ny\n").unwrap();
    let out = gametrace()
        .args(["diff", "--color", "never"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1);
    let a_name = a.display().to_string();
    let b_name = b.display().to_string();
    out.stdout(contains(format!("--- {a_name}\n+++ {b_name}\n@@ -1,3 +1,3 @@\n x\n-Result of (Maxie,h) is Leaf(Guess: 4)\n+Result of (Maxie,h) is Leaf(Guess: 5)\n y\n")))
        .stdout(contains(format!("2 lines differ: 1 only in {a_name}, 1 only in {b_name}\n")))
        .stdout(contains(format!("first difference: line 2 of {a_name}, line 3 of {b_name}\n")))
        .stdout(contains(format!("  expected: Result of (Maxie,h) is Leaf(Guess: 4)\n{}^\n", " ".repeat(47))));
    // Same up to spacing and blank lines; --exact tells them apart.
    std::fs::write(&b, "x\r\n\nResult  of (Maxie,h) is Leaf(Guess: 4)  \ny\n").unwrap();
    gametrace()
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(0)
        .stdout(contains("same: 3 lines compared"));
    gametrace()
        .args(["diff", "--exact"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1);
    // Unusable input: exit 2 and a reason.
    gametrace()
        .arg("diff")
        .arg(&a)
        .arg(dir.path().join("none"))
        .assert()
        .code(2)
        .stderr(contains("cannot use"));
    std::fs::write(&b, b"\x00\x01binary").unwrap();
    gametrace()
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(2)
        .stderr(contains("a NUL byte at offset 0: this is a binary file"));
    // Colour marks the changed word inside the changed line.
    std::fs::write(&b, "x\nResult of (Maxie,h) is Leaf(Guess: 5)\ny\n").unwrap();
    gametrace()
        .args(["diff", "--color", "always"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1)
        .stdout(contains("\u{1b}[7m\u{1b}[32m5").and(contains("\u{1b}[7m\u{1b}[31m4")));
}

#[test]
fn interrupting_gametrace_kills_the_command_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!("sleep 1000 & echo $! > {}; wait", pidfile.display());
    let mut g = std::process::Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--no-sandbox",
            "--shell",
            "--cmd",
            &script,
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pidfile.exists() || std::fs::read_to_string(&pidfile).unwrap().trim().is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the command never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &g.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(g.wait().unwrap().code(), Some(130));
    assert_dies(&std::fs::read_to_string(&pidfile).unwrap());
}

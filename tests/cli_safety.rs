//! What gametrace guarantees about the programs it runs and the files it writes: a program's
//! escape sequences never reach the terminal raw, every search is bounded in time, no
//! temporary file outlives a signal (or, after SIGKILL, the next run), expected files are
//! always whole, and no diagnostic echoes megabytes of input.

use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;
use common::cli::gametrace_within;

/// Every run here is stopped, and its test failed, after two minutes.
const LIMIT: Duration = Duration::from_secs(120);

const SPEC: &str = "specs/15150-s14/handout-small.yaml";

/// A program printing CSI (colour, clear screen, cursor home), OSC (window title, hyperlink)
/// and a bare ESC, on stdout inside trace lines and on stderr, then failing.
const EVIL: &str = r"printf 'F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\n'
printf 'G: state (Minnie,\033[31mb) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\n'
printf 'Estimating state \033]0;pwned\007c[3]\n'
printf 'Result of (Maxie,\033]8;;http://example.com\033\\link\033]8;;\033\\) is Leaf(Guess: 3)\n'
printf 'oops \033[2J\033[H and a bare \033 here\n' >&2
exit 3
";

/// The escape sequences of `text` that are not gametrace's own colours (SGR `ESC [ ... m`).
fn foreign_escapes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('\u{1b}') {
        let after = &rest[i + 1..];
        let sgr = after.strip_prefix('[').and_then(|a| {
            let end = a.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            (a.as_bytes()[end] == b'm').then_some(end)
        });
        if sgr.is_none() {
            found.push(after.chars().take(8).collect());
        }
        rest = after;
    }
    found
}

#[test]
fn a_programs_escape_sequences_are_shown_escaped_in_human_reports() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("evil.sh");
    std::fs::write(&script, EVIL).unwrap();
    for color in ["never", "always"] {
        let out = gametrace_within(LIMIT)
            .args([
                "check",
                SPEC,
                "--case",
                "alphabeta",
                "--color",
                color,
                "--cmd",
            ])
            .arg(format!("sh {}", script.display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8(out.stdout).unwrap();
        if color == "never" {
            assert!(!text.contains('\u{1b}'), "{text}");
        }
        assert!(
            foreign_escapes(&text).is_empty(),
            "{color}: {:?}",
            foreign_escapes(&text)
        );
        assert!(!text.contains('\u{7}'), "BEL reached the report");
        // Visible instead: the student sees what their program printed.
        assert!(text.contains(r"(Minnie,\e[31mb)"), "{text}");
        assert!(text.contains(r"\e]8;;http://example.com\e\link"), "{text}");
        assert!(
            text.contains(r"| oops \e[2J\e[H and a bare \e here"),
            "{text}"
        );
    }
    // The same from a file given with --actual, and from `diff`.
    let transcript = dir.path().join("out.txt");
    let printed = std::process::Command::new("sh")
        .arg(&script)
        .output()
        .unwrap()
        .stdout;
    std::fs::write(&transcript, printed).unwrap();
    let out = gametrace_within(LIMIT)
        .args(["check", SPEC, "--case", "alphabeta", "--color", "never"])
        .arg("--actual")
        .arg(&transcript)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
    let reference = dir.path().join("ref.txt");
    let trace = gametrace_within(LIMIT)
        .args(["run", SPEC, "--case", "alphabeta"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(&reference, trace).unwrap();
    for color in ["never", "always"] {
        let out = gametrace_within(LIMIT)
            .args(["diff", "--color", color])
            .arg(&reference)
            .arg(&transcript)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(foreign_escapes(&text).is_empty(), "{color}: {text}");
        if color == "never" {
            assert!(text.contains(r"\e]0;pwned\x07c[3]"), "{text}");
        }
    }
}

fn write_spec(dir: &Path, name: &str, text: &str) -> PathBuf {
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let path = specs.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Connect 4 searched to the end of the game (4.5 trillion positions) is stopped at its time
/// limit, reported TIMEOUT, and the suite goes on.
#[test]
fn a_search_past_its_time_limit_is_a_timeout_and_the_suite_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write_spec(
        dir.path(),
        "c4.yaml",
        "game: connect4\ncases:\n  whole_game:\n    algorithm: alphabeta\n    depth: 42\n    lines: [terminals, choice]\n  \
         quick:\n    algorithm: minimax\n    depth: 2\n    lines: [terminals, choice]\n  \
         own_limit:\n    algorithm: minimax\n    depth: 14\n    time_limit: 0.3\n    lines: [terminals, choice]\n",
    );
    let specs = spec.parent().unwrap();
    gametrace_within(LIMIT)
        .args(["test", "--bless", "--time-limit", "1"])
        .arg(specs)
        .assert()
        .code(1)
        .stdout(contains("TIMEOUT ").and(contains(
            "c4.yaml whole_game: the search stopped after its time limit of 1 s",
        )))
        .stdout(contains(
            "c4.yaml own_limit: the search stopped after its time limit of 0.3 s",
        ))
        .stdout(contains("c4.yaml quick: wrote"))
        .stdout(contains("1 passed, 2 failed"))
        .stdout(contains("2 timed out"));
    // Nothing was blessed for the cases that timed out.
    let expected = dir.path().join("expected/c4");
    assert!(expected.join("quick.trace").exists());
    assert!(!expected.join("whole_game.trace").exists());
    // JSON reports it as a timeout.
    gametrace_within(LIMIT)
        .args(["test", "--time-limit", "0.5", "--format", "json"])
        .arg(specs)
        .assert()
        .code(1)
        .stdout(contains("\"status\": \"timeout\""));
    // `run` stops the case, says so on stderr, runs the next one and exits 1.
    gametrace_within(LIMIT)
        .args(["run", "--time-limit", "0.5"])
        .arg(&spec)
        .assert()
        .code(1)
        .stderr(contains("TIMEOUT").and(contains(
            "whole_game: the search stopped after its time limit of 0.5 s",
        )))
        // Minimax to depth 2: 7 replies to each of 7 moves.
        .stdout(contains("== quick ==\nTerminals visited: 49\n"));
    // `validate` warns about the search that cannot end, and only that one.
    gametrace_within(LIMIT)
        .arg("validate")
        .arg(&spec)
        .assert()
        .success()
        .stdout(contains("warning: case `whole_game` may search about 7^42 ≈ 3.1e35 positions: it will not finish"))
        .stdout(contains("1 warning"));
}

#[test]
fn a_bad_time_limit_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write_spec(
        dir.path(),
        "t.yaml",
        "tree: {a: {b: 1, c: 2}}\ncases:\n  m:\n    algorithm: minimax\n    time_limit: -3\n",
    );
    gametrace_within(LIMIT)
        .arg("run")
        .arg(&spec)
        .assert()
        .code(2)
        .stderr(contains("t.yaml:5:17"))
        .stderr(contains("`time_limit` must be a number of seconds above 0"));
    gametrace_within(LIMIT)
        .args(["test", "--time-limit", "0"])
        .arg(&spec)
        .assert()
        .code(2)
        .stderr(contains("expected a number of seconds above 0"));
}

/// A temporary left by a killed run (SIGKILL runs no code) is removed by the next `test`; a
/// temporary newer than the run (maybe a concurrent run's) is left alone.
#[test]
fn stale_temporaries_are_removed_by_the_next_test() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write_spec(
        dir.path(),
        "t.yaml",
        "tree: {a: {b: 1, c: 2}}\ncases:\n  m:\n    algorithm: minimax\n",
    );
    let expected = dir.path().join("expected/t");
    std::fs::create_dir_all(&expected).unwrap();
    let stale = expected.join(".gametrace-bless-AbC123");
    std::fs::write(&stale, "half a tra").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    gametrace_within(LIMIT)
        .args(["test", "--bless"])
        .arg(&spec)
        .assert()
        .success()
        .stderr(contains(
            "note: removed 1 stale temporary file (.gametrace-bless-*) left by an interrupted run",
        ));
    assert!(!stale.exists());
    assert!(expected.join("m.trace").exists());
}

/// A spec whose blessing takes a while: a generated tree with a 200,000-line trace.
fn slow_spec(dir: &Path) -> PathBuf {
    write_spec(
        dir,
        "big.yaml",
        "tree: {generate: {branching: 6, depth: 6, seed: 3}}\ncases:\n  a:\n    algorithm: minimax\n  b:\n    algorithm: alphabeta\n  c:\n    algorithm: jamboree\n    prune_percentage: 0.5\n",
    )
}

fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in walk(dir) {
        if entry
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".gametrace-bless-"))
        {
            found.push(entry);
        }
    }
    found
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Every expected file there is must be exactly the case's trace: never cut short.
fn assert_whole(dir: &Path, spec: &Path) {
    for case in ["a", "b", "c"] {
        let file = dir.join(format!("expected/big/{case}.trace"));
        if let Ok(text) = std::fs::read(&file) {
            let reference = gametrace_within(LIMIT)
                .arg("run")
                .arg(spec)
                .args(["--case", case])
                .output()
                .unwrap()
                .stdout;
            assert!(text == reference, "{} is not whole", file.display());
        }
    }
}

/// Kills `test --bless` with `signal`, `times` times, each time while it writes an expected
/// file: as soon as a temporary file of its appears (or at a spread-out moment, every fourth
/// time). Returns how many kills landed while a temporary existed.
fn interrupt_blessing(dir: &Path, spec: &Path, signal: &str, times: u64) -> usize {
    let mut during_a_write = 0;
    for i in 0..times {
        // Remove the expected traces, so that every run writes; temporaries a killed run left
        // stay, to be counted.
        for f in walk(&dir.join("expected")) {
            if f.extension().is_some_and(|x| x == "trace") {
                std::fs::remove_file(f).unwrap();
            }
        }
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gametrace"))
            .current_dir(dir)
            .args(["test", "--bless"])
            .arg(spec)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        if i % 4 == 3 {
            std::thread::sleep(Duration::from_millis((i * 37) % 400));
        } else {
            while child.try_wait().unwrap().is_none()
                && temporaries(dir).is_empty()
                && started.elapsed() < Duration::from_secs(20)
            {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        if !temporaries(dir).is_empty() {
            during_a_write += 1;
        }
        let _ = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        child.wait().unwrap();
    }
    during_a_write
}

#[test]
fn sigterm_and_sigint_during_bless_leave_no_temporary_and_no_cut_file() {
    let dir = tempfile::tempdir().unwrap();
    let spec = slow_spec(dir.path());
    for signal in ["-TERM", "-INT"] {
        let hits = interrupt_blessing(dir.path(), &spec, signal, 12);
        assert!(hits > 0, "{signal}: no signal landed during a write");
        assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "{signal}");
        assert_whole(dir.path(), &spec);
    }
}

#[test]
fn sigkill_during_bless_never_cuts_a_file_and_the_next_run_sweeps_up() {
    let dir = tempfile::tempdir().unwrap();
    let spec = slow_spec(dir.path());
    let hits = interrupt_blessing(dir.path(), &spec, "-KILL", 20);
    assert!(hits > 0, "no SIGKILL landed during a write");
    assert_whole(dir.path(), &spec);
    // Whatever SIGKILL left, the next run removes (it is older than the run).
    std::thread::sleep(Duration::from_millis(20));
    gametrace_within(LIMIT)
        .current_dir(dir.path())
        .args(["test", "--bless"])
        .arg(&spec)
        .assert()
        .success();
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    assert_whole(dir.path(), &spec);
}

#[test]
fn two_concurrent_blessings_of_one_tree_leave_every_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let spec = slow_spec(dir.path());
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_gametrace"))
            .current_dir(dir.path())
            .args(["test", "--bless"])
            .arg(&spec)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(dir.path().join("expected"));
        let (mut a, mut b) = (run(), run());
        assert!(a.wait().unwrap().success());
        assert!(b.wait().unwrap().success());
        assert_whole(dir.path(), &spec);
        assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    }
}

#[test]
fn a_ten_megabyte_name_gives_a_short_message() {
    let dir = tempfile::tempdir().unwrap();
    let name = "n".repeat(10 << 20);
    let spec = write_spec(
        dir.path(),
        "huge.yaml",
        &format!("tree: {{a: {{{name}: 1, {name}: 2}}}}\ncases: {{m: {{algorithm: minimax, dept: 1}}}}\n"),
    );
    for command in ["run", "validate"] {
        let out = gametrace_within(LIMIT)
            .arg(command)
            .arg(&spec)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let all = [out.stdout, out.stderr].concat();
        assert!(all.len() < 8_000, "{command}: {} bytes", all.len());
        let text = String::from_utf8_lossy(&all);
        assert!(text.contains("huge.yaml:1:"), "{text}");
        assert!(
            text.contains("more characters)") || text.contains('…'),
            "{text}"
        );
    }
}

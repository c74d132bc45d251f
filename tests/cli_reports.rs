//! Reports safe to hand out: a flooding program's report stays small.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn gametrace() -> Command {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
/// A program stuck printing the root's enter line: 8 MiB of trace lines before it is killed.
const FLOOD: &str = "yes 'F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))'";

#[test]
fn a_flooding_program_gets_output_limit_and_a_report_under_100_kb() {
    for format in ["human", "gradescope", "junit", "json", "tap"] {
        let out = gametrace()
            .args(["check", S14_SMALL, "--case", "alphabeta", "--cmd", FLOOD])
            .args(["--format", format, "--color", "never"])
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.len() < 100_000,
            "{format}: {} bytes of report",
            text.len()
        );
        assert!(text.contains("more changed lines not shown"), "{format}");
    }
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--cmd", FLOOD])
        .args(["--color", "never"])
        .assert()
        .code(1)
        .stdout(contains("OUTPUT-LIMIT").and(contains("--full-diff shows it all")));
}

#[test]
fn full_diff_lifts_the_cap() {
    let out = gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--cmd", FLOOD])
        .args(["--color", "never", "--full-diff"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    // 8 MiB of 67-byte lines: over 100 000 of them, every one in the diff.
    assert!(out.len() > 8_000_000);
    assert!(!String::from_utf8(out).unwrap().contains("not shown"));
}

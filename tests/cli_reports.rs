//! Reports safe to hand out: a flooding program's report stays small.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::gametrace;

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
/// A program stuck printing the root's enter line: 8 MiB of trace lines before it is killed.
const FLOOD: &str = "yes 'F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))'";

#[test]
fn a_flooding_program_gets_output_limit_and_a_report_under_100_kb() {
    for format in [
        "human",
        "gradescope",
        "gradescope-html",
        "gradescope-md",
        "junit",
        "json",
        "tap",
        "prairielearn",
        "html",
    ] {
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

/// HandoutSmall with the S12 Python alpha-beta graded on an S14 case it cannot pass (it
/// prints the S12 trace), once visible and once hidden.
fn hidden_course(dir: &std::path::Path) -> std::path::PathBuf {
    let spec = dir.join("course.yaml");
    std::fs::write(
        &spec,
        "move_names: [left, middle, right]\n\
         tree:\n  a:\n    b: {c: 3, d: 6, e: -2}\n    f: {g: 6, h: 4, i: 10}\n    j: {k: 1, l: 30, m: 9}\n\
         cases:\n\
         \x20 shown:\n    algorithm: alphabeta\n    dialect: s14\n\
         \x20 secret:\n    algorithm: alphabeta\n    dialect: s14\n    visibility: hidden\n",
    )
    .unwrap();
    spec
}

const PYTHON: &str = "python3 tests/fixtures/python/alphabeta_s12.py {tree_json}";

#[test]
fn a_hidden_case_shows_students_no_reference_line() {
    let dir = tempfile::tempdir().unwrap();
    let spec = hidden_course(dir.path());
    let reference = gametrace()
        .arg("run")
        .arg(&spec)
        .args(["--case", "secret"])
        .output()
        .unwrap()
        .stdout;
    let reference = String::from_utf8(reference).unwrap();
    let tree_json = gametrace()
        .args(["export", "--to", "json", "--case", "secret"])
        .arg(&spec)
        .output()
        .unwrap()
        .stdout;
    let tree_file = dir.path().join("tree.json");
    std::fs::write(&tree_file, tree_json).unwrap();
    let student = std::process::Command::new("python3")
        .arg("tests/fixtures/python/alphabeta_s12.py")
        .arg(&tree_file)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
        .stdout;
    let student = String::from_utf8(student).unwrap();
    // The reference lines the student did not print themselves: none may show.
    let secret: Vec<&str> = reference
        .lines()
        .filter(|l| !l.trim().is_empty() && !student.lines().any(|s| s == *l))
        .collect();
    assert!(
        secret.len() > 5,
        "the S14 and S12 traces differ: {secret:?}"
    );

    for format in [
        "human",
        "gradescope",
        "gradescope-html",
        "gradescope-md",
        "junit",
        "json",
        "tap",
        "prairielearn",
        "html",
    ] {
        let out = gametrace()
            .arg("test")
            .arg(&spec)
            .args(["--against", PYTHON, "--for-students", "--color", "never"])
            .args(["--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        let report = String::from_utf8(out.stdout).unwrap();
        // The visible case shows its reference (the diff); the hidden one does not.
        // Cases are reported in the spec's order; `secret` first appears at its own report.
        // (PrairieLearn's results list every verdict first: the cases start at `tests`.)
        let tests = if format == "prairielearn" {
            report.find("\"tests\"").unwrap()
        } else {
            0
        };
        let at = tests
            + report[tests..]
                .find("secret")
                .expect("the hidden case is reported");
        let (shown, hidden) = report.split_at(at);
        assert!(shown.contains("Result of (Maxie,a)"), "{format}: {shown}");
        for line in &secret {
            assert!(
                !hidden.contains(line),
                "{format}: the hidden case shows the reference line {line:?}\n{hidden}"
            );
        }
        // Nor where it parts from the reference, nor the diagnosis: both are computed
        // from the reference.
        // (JSON keeps its field, empty: `"diagnosis": null`.)
        let without_empty_field = hidden.replace("\"diagnosis\": null", "");
        assert!(
            !hidden.contains("first divergence") && !without_empty_field.contains("diagnosis"),
            "{format}: {hidden}"
        );
        assert!(
            hidden.contains("only its verdict and your own program"),
            "{format}: {hidden}"
        );
        if format == "gradescope" {
            assert!(report.contains(r#""visibility": "hidden""#));
        }
    }
}

#[test]
fn without_for_students_staff_see_the_hidden_case_whole() {
    let dir = tempfile::tempdir().unwrap();
    let spec = hidden_course(dir.path());
    gametrace()
        .arg("check")
        .arg(&spec)
        .args(["--case", "secret", "--cmd", PYTHON, "--color", "never"])
        .assert()
        .code(1)
        .stdout(contains("expected: ").and(contains("--- reference")));
}

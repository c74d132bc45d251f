//! `gametrace test`: a course's regression suite, driven the way staff drive it.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::fs;
use std::path::Path;

fn gametrace(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    c.current_dir(dir).env_remove("NO_COLOR");
    c
}

const SMALL: &str = "title: HandoutSmall\nmove_names: [left, middle, right]\ntree:\n  a:\n    b: {c: 3, d: 6, e: -2}\n    f: {g: 6, h: 4, i: 10}\n    j: {k: 1, l: 30, m: 9}\ncases:\n  alphabeta:\n    algorithm: alphabeta\n    depth: 2\n    lines: [enter, result, terminals, choice]\n  repl:\n    algorithm: alphabeta\n    dialect: repl\n    sml_structure: HandoutSmall\n";

/// A course directory with one spec and no expected traces yet.
fn course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("specs/s14")).unwrap();
    fs::write(dir.path().join("specs/s14/small.yaml"), SMALL).unwrap();
    dir
}

fn figure_5_lower() -> String {
    fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/handout-figures/s14-fig5-alphabeta-handout-small.trace"),
    )
    .unwrap()
}

#[test]
fn missing_expected_traces_fail_until_blessed() {
    let dir = course();
    gametrace(dir.path())
        .arg("test")
        .assert()
        .code(1)
        .stdout(contains(
            "MISSING specs/s14/small.yaml alphabeta: no expected/s14/small/alphabeta.trace",
        ))
        .stdout(contains("--bless"))
        .stdout(predicate::str::ends_with("0 passed, 2 failed\n"));

    gametrace(dir.path())
        .args(["test", "--bless"])
        .assert()
        .success()
        .stdout(contains("BLESSED specs/s14/small.yaml alphabeta: wrote expected/s14/small/alphabeta.trace (new)"))
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    // What was blessed is the handout's Figure 5 (lower), and no temporary file is left.
    let written =
        fs::read_to_string(dir.path().join("expected/s14/small/alphabeta.trace")).unwrap();
    assert_eq!(written, figure_5_lower());
    let leftovers: Vec<_> = fs::read_dir(dir.path().join("expected/s14/small"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");

    gametrace(dir.path())
        .arg("test")
        .assert()
        .success()
        .stdout(contains("PASS    specs/s14/small.yaml alphabeta\n"))
        .stdout(contains("PASS    specs/s14/small.yaml repl\n"))
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
}

#[test]
fn blank_lines_and_runs_of_spaces_do_not_fail_unless_exact() {
    let dir = course();
    let spaced: String = figure_5_lower()
        .lines()
        .map(|l| format!("{}\n\n", l.replace(' ', "   ")))
        .collect();
    fs::create_dir_all(dir.path().join("expected/s14/small")).unwrap();
    fs::write(
        dir.path().join("expected/s14/small/alphabeta.trace"),
        &spaced,
    )
    .unwrap();
    gametrace(dir.path())
        .args(["test", "specs/s14/small.yaml"])
        .assert()
        .stdout(contains("PASS    specs/s14/small.yaml alphabeta"));

    let exact = SMALL.replace("    depth: 2\n", "    depth: 2\n    exact: true\n");
    fs::write(dir.path().join("specs/s14/small.yaml"), exact).unwrap();
    gametrace(dir.path())
        .args(["test", "specs/s14/small.yaml", "--color", "never"])
        .assert()
        .code(1)
        .stdout(contains("FAIL    specs/s14/small.yaml alphabeta"));
}

#[test]
fn a_changed_trace_fails_with_a_diff_and_bless_updates_it() {
    let dir = course();
    gametrace(dir.path())
        .args(["test", "--bless"])
        .assert()
        .success();
    // Somebody hand-edits the expected trace: h's result is now wrong.
    let file = dir.path().join("expected/s14/small/alphabeta.trace");
    let edited = fs::read_to_string(&file).unwrap().replace(
        "Result of (Maxie,h) is Leaf(Guess: 4)",
        "Result of (Maxie,h) is Leaf(Guess: 5)",
    );
    fs::write(&file, &edited).unwrap();

    gametrace(dir.path())
        .args(["test", "--color", "never"])
        .assert()
        .code(1)
        .stdout(contains("FAIL    specs/s14/small.yaml alphabeta\n"))
        .stdout(contains("--- expected/s14/small/alphabeta.trace\n"))
        .stdout(contains(
            "+++ gametrace run specs/s14/small.yaml --case alphabeta\n",
        ))
        .stdout(contains(
            "-Result of (Maxie,h) is Leaf(Guess: 5)\n+Result of (Maxie,h) is Leaf(Guess: 4)\n",
        ))
        .stdout(contains("\u{1b}[").not())
        .stdout(predicate::str::ends_with("1 passed, 1 failed\n"));

    gametrace(dir.path())
        .args(["test", "--color", "always"])
        .assert()
        .code(1)
        // The changed word stands out inside the changed line.
        .stdout(contains(
            "\u{1b}[31m-Result of (Maxie,h) is Leaf(Guess: \u{1b}[0m\u{1b}[7m\u{1b}[31m5\u{1b}[0m",
        ));
    // NO_COLOR wins over auto, even when asked through the environment only.
    gametrace(dir.path())
        .env("NO_COLOR", "1")
        .arg("test")
        .assert()
        .code(1)
        .stdout(contains("\u{1b}[").not());

    gametrace(dir.path())
        .args(["test", "--bless"])
        .assert()
        .success()
        .stdout(contains(
            "wrote expected/s14/small/alphabeta.trace (updated)",
        ));
    assert_eq!(fs::read_to_string(&file).unwrap(), figure_5_lower());
}

#[test]
fn a_bad_spec_is_an_error_line_and_exit_2_while_the_rest_still_run() {
    let dir = course();
    gametrace(dir.path())
        .args(["test", "--bless"])
        .assert()
        .success();
    fs::write(
        dir.path().join("specs/s14/broken.yaml"),
        "tree: {a: {b: 1}}\ncases: {ab: {algorithm: alphabet}}\n",
    )
    .unwrap();
    gametrace(dir.path())
        .arg("test")
        .assert()
        .code(2)
        .stdout(contains("ERROR   specs/s14/broken.yaml\n"))
        .stdout(contains("--> specs/s14/broken.yaml:2:25"))
        .stdout(contains("did you mean `alphabeta`?"))
        .stdout(contains("PASS    specs/s14/small.yaml alphabeta"))
        .stdout(predicate::str::ends_with("2 passed, 1 failed\n"));
}

#[test]
fn no_specs_is_unusable_input() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("specs")).unwrap();
    gametrace(dir.path())
        .arg("test")
        .assert()
        .code(2)
        .stderr(contains("no specs (*.yaml").and(contains("under specs")));
}

#[test]
fn the_projects_own_suite_passes() {
    gametrace(Path::new(env!("CARGO_MANIFEST_DIR")))
        .args(["test", "--color", "never"])
        .assert()
        .success()
        .stdout(contains("FAIL").not())
        .stdout(contains(
            "PASS    specs/15150-s14/handout-big.yaml alphabeta",
        ))
        .stdout(contains(" 0 failed\n"));
}

/// `--for-students` hides the reference from a student's report; the regression suite alone
/// has no student in it, so the flag is refused with the way to use it rather than ignored
/// (a teacher would otherwise believe the report safe to hand out).
#[test]
fn for_students_without_a_students_program_is_refused_with_a_hint() {
    let dir = course();
    gametrace(dir.path())
        .args(["test", "--for-students"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            contains("--for-students")
                .and(contains("--against COMMAND"))
                .and(contains("hint:")),
        );
    // Nothing was blessed or written on the way.
    assert!(!dir.path().join("expected").exists());
}

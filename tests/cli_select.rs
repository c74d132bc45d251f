//! Choosing what to run: `test --case/--filter` (with and without `--against`), `gametrace
//! cases`, `check` without `--case`, and `--threads` only where it means something.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::gametrace;

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
const PYTHON: &str = "python3 tests/fixtures/python/alphabeta_s12.py {tree_json}";

#[test]
fn test_case_runs_one_case_and_filter_runs_the_matching_ones() {
    gametrace()
        .args(["test", S14_SMALL, "--case", "alphabeta", "--color", "never"])
        .assert()
        .success()
        .stdout(
            contains("PASS    specs/15150-s14/handout-small.yaml alphabeta\n")
                .and(contains("jamboree").not())
                .and(contains("1 passed, 0 failed")),
        );
    // jamboree-0, -0.25, -0.75 and -1; not `jamboree` itself.
    gametrace()
        .args([
            "test",
            S14_SMALL,
            "--filter",
            "jamboree-*",
            "--color",
            "never",
        ])
        .assert()
        .success()
        .stdout(
            contains("jamboree-0.25")
                .and(contains("handout-small.yaml jamboree\n").not())
                .and(contains("4 passed, 0 failed")),
        );
    gametrace()
        .args([
            "test",
            S14_SMALL,
            "--case",
            "minimax",
            "--filter",
            "jamboree-*",
        ])
        .args(["--color", "never"])
        .assert()
        .success()
        .stdout(contains("5 passed, 0 failed"));
    // Over a directory, a glob picks across specs: S14's and S12's handout-small alphabeta.
    gametrace()
        .args([
            "test",
            "specs/15150-s14",
            "specs/15150-s12",
            "--case",
            "alphabeta",
        ])
        .args(["--color", "never"])
        .assert()
        .success()
        .stdout(contains("4 passed, 0 failed"));
}

#[test]
fn a_selection_that_matches_nothing_is_an_error_not_an_empty_pass() {
    gametrace()
        .args(["test", S14_SMALL, "--case", "alphabta"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            contains("no case matches --case alphabta")
                .and(contains("alphabeta, jamboree, repl, minimax")),
        );
    gametrace()
        .args(["test", S14_SMALL, "--filter", "[ab"])
        .assert()
        .code(2)
        .stderr(contains("--filter [ab"));
}

#[test]
fn grading_one_case_needs_no_second_spec() {
    // The Python fixture prints S12 traces: HandoutSmall's S12 alphabeta passes.
    gametrace()
        .args([
            "test",
            "specs/15150-s12/handout-small.yaml",
            "--case",
            "alphabeta",
        ])
        .args(["--against", PYTHON, "--color", "never"])
        .assert()
        .success()
        .stdout(contains("1 passed, 0 failed").and(contains("minimax").not()));
}

#[test]
fn cases_lists_each_case_with_its_settings() {
    // From the spec: jamboree has prune_percentage 0.5 and depth 2, repl the repl dialect.
    gametrace()
        .args(["cases", S14_SMALL, "specs/kalah/search.yaml"])
        .assert()
        .success()
        .stdout(
            contains("specs/15150-s14/handout-small.yaml: HandoutSmall")
                .and(contains(
                    "  jamboree          jamboree 0.5   depth 2  s14   check full  1 point\n",
                ))
                .and(contains(
                    "  repl              alphabeta      depth 2  repl  check full  1 point\n",
                ))
                .and(contains("  negamax_ab-4  negamax_ab  depth 4  cs10")),
        );
    gametrace()
        .args(["cases", "specs/kalah/rules.yaml"])
        .assert()
        .success()
        .stdout(contains("a_drawn_game").and(contains("scenario")));
    gametrace().args(["cases", "no/such.yaml"]).assert().code(2);
}

#[test]
fn check_without_case_takes_a_one_case_spec_s_case_and_otherwise_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("one.yaml");
    std::fs::write(
        &spec,
        "tree:\n  a: {b: 1, c: 2}\ncases:\n  only:\n    algorithm: minimax\n",
    )
    .unwrap();
    let trace = gametrace().arg("run").arg(&spec).output().unwrap().stdout;
    gametrace()
        .arg("check")
        .arg(&spec)
        .args(["--actual", "-"])
        .write_stdin(trace)
        .assert()
        .success()
        .stdout(contains("PASS"));
    gametrace()
        .args(["check", S14_SMALL, "--actual", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(
            contains("which case? the spec has several")
                .and(contains("9 cases: alphabeta, jamboree"))
                .and(contains("gametrace cases SPEC")),
        );
}

#[test]
fn threads_is_an_option_of_the_commands_that_search() {
    gametrace()
        .args(["run", S14_SMALL, "--case", "jamboree", "--threads", "2"])
        .assert()
        .success();
    gametrace()
        .args(["diff", "--threads", "2", S14_SMALL, S14_SMALL])
        .assert()
        .code(2)
        .stderr(contains("unexpected argument '--threads'"));
    let help = gametrace()
        .args(["validate", "--help"])
        .output()
        .unwrap()
        .stdout;
    assert!(!String::from_utf8(help).unwrap().contains("--threads"));
}

//! Naming the mistake as a user meets it: `gametrace bugs` lists the catalogue, `explain`
//! shows a mistake on a case (and prints the mistaken trace a student's program would), and
//! `check` fed that trace names the mistake in every report format.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::gametrace;

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
const S14_BIG: &str = "specs/15150-s14/handout-big.yaml";
const S12_SMALL: &str = "specs/15150-s12/handout-small.yaml";
const S12_BIG: &str = "specs/15150-s12/handout-big.yaml";

/// What `explain --trace` prints for a case and bug.
fn mistaken(spec: &str, case: &str, bug: &str) -> Vec<u8> {
    let out = gametrace()
        .args(["explain", spec, "--case", case, "--bug", bug, "--trace"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn bugs_lists_the_catalogue_and_what_one_case_can_get_wrong() {
    gametrace()
        .arg("bugs")
        .assert()
        .success()
        .stdout(contains("strict-cut  (s14; alphabeta and jamboree; at one player's nodes: strict-cut:maxie, strict-cut:minnie)\n"))
        .stdout(contains("    the handout: S12 HW09 §4: if the result of the child is ParentPrune, you stop and label the parent with Pruned\n"))
        .stdout(contains("jamboree-rounds-up"))
        .stdout(contains("last-best-move"))
        // 25 for 15-150 (move-kept-apart the latest), 6 more for CSC148, 8 more for CS10 (tests/cli_catalogue.rs) and 25
        // for CS188 (tests/cli_cs188.rs), 5 of them the slips of real submissions (no-action,
        // expectimax-as-alphabeta, win-not-terminal, lose-not-terminal, illegal-action).
        .stdout(contains("64 mistakes;"));
    // An S14 alpha-beta case cannot make S12's or Jamboree's mistakes.
    gametrace()
        .args(["bugs", S14_BIG, "--case", "alphabeta"])
        .assert()
        .success()
        .stdout(contains("strict-cut "))
        .stdout(contains("parentprune-ignored").not())
        .stdout(contains("jamboree-rounds-up").not())
        .stdout(contains("last-best-move").not());
    gametrace()
        .args(["bugs", S12_SMALL, "--case", "jamboree"])
        .assert()
        .success()
        .stdout(contains("parallel-parentprune-ignored"))
        .stdout(contains("strict-cut ").not());
}

#[test]
fn bugs_refuses_a_spec_without_a_case_a_missing_case_and_a_broken_spec() {
    gametrace()
        .args(["bugs", S14_BIG])
        .assert()
        .code(2)
        .stderr(contains("specs/15150-s14/handout-big.yaml"))
        .stderr(contains("which case's mistakes?"))
        .stderr(contains("--case NAME"));
    gametrace()
        .args(["bugs", S14_BIG, "--case", "nope"])
        .assert()
        .code(2)
        .stderr(contains("no case `nope` in this spec"))
        .stderr(contains("one of the cases: alphabeta"));
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        "tree: {a: {b: 1}}\ncases:\n  ab: {algorithm: alphabet}\n",
    )
    .unwrap();
    gametrace()
        .arg("bugs")
        .arg(&broken)
        .args(["--case", "ab"])
        .assert()
        .code(2)
        .stderr(contains("broken.yaml:3:"))
        .stderr(contains("alphabet"));
}

#[test]
fn explain_shows_the_mistake_as_a_diff_and_says_when_a_case_cannot_catch_it() {
    gametrace()
        .args(["explain", S14_BIG, "--case", "alphabeta", "--bug", "strict-cut", "--color", "never"])
        .assert()
        .success()
        .stdout(contains("strict-cut: the cut test is strict"))
        .stdout(contains("--- reference: gametrace run specs/15150-s14/handout-big.yaml --case alphabeta\n+++ with strict-cut\n"));
    // HandoutSmall never has a tie between the bounds, so a strict cut prints Figure 5.
    gametrace()
        .args(["explain", S14_SMALL, "--case", "alphabeta", "--bug", "strict-cut"])
        .assert()
        .success()
        .stdout(contains(
            "on case `alphabeta` this mistake prints the same trace as the reference (24 lines): the case cannot catch it\n",
        ));
}

#[test]
fn explain_refuses_unknown_and_impossible_mistakes_with_exit_2() {
    gametrace()
        .args([
            "explain",
            S14_BIG,
            "--case",
            "alphabeta",
            "--bug",
            "strict-cuts",
        ])
        .assert()
        .code(2)
        .stderr(contains("no mistake `strict-cuts` in the catalogue"))
        .stderr(contains("`gametrace bugs` lists the catalogue"));
    gametrace()
        .args([
            "explain",
            S14_BIG,
            "--case",
            "alphabeta",
            "--bug",
            "jamboree-rounds-up",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "jamboree-rounds-up cannot be made in case `alphabeta` (s14 rules, alphabeta)",
        ))
        .stderr(contains(
            "gametrace bugs specs/15150-s14/handout-big.yaml --case alphabeta",
        ));
    gametrace()
        .args([
            "explain",
            S14_BIG,
            "--case",
            "alphabeta",
            "--bug",
            "depth-twice:maxie",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "`depth-twice` is a mistake of the whole search and has no side",
        ));
    gametrace()
        .args(["explain", S14_BIG, "--case", "nope", "--bug", "strict-cut"])
        .assert()
        .code(2)
        .stderr(contains("no case `nope` in this spec"));
}

#[test]
fn check_names_the_mistake_a_student_program_would_print() {
    for (spec, case, bug, named) in [
        (
            S14_BIG,
            "alphabeta",
            "strict-cut",
            "with the mistake strict-cut\n",
        ),
        (
            S14_BIG,
            "alphabeta",
            "original-bounds:maxie",
            "with the mistake original-bounds at Maxie's nodes only\n",
        ),
        (
            S14_SMALL,
            "jamboree",
            "jamboree-fold-from-start",
            "with the mistake jamboree-fold-from-start\n",
        ),
        (
            S12_BIG,
            "alphabeta",
            "parentprune-ignored",
            "parentprune-ignored",
        ),
        (
            S12_SMALL,
            "jamboree",
            "jamboree-rounds-up",
            "with the mistake jamboree-rounds-up\n",
        ),
        (
            S14_SMALL,
            "minimax",
            "players-swapped",
            "with the mistake players-swapped\n",
        ),
    ] {
        gametrace()
            .args([
                "check", spec, "--case", case, "--actual", "-", "--color", "never",
            ])
            .write_stdin(mistaken(spec, case, bug))
            .assert()
            .code(1)
            .stdout(contains(
                "diagnosis: this output is exactly what the reference prints",
            ))
            .stdout(contains(named));
    }
}

#[test]
fn the_diagnosis_is_in_every_report_format_and_can_be_turned_off() {
    let output = mistaken(S14_BIG, "alphabeta", "ties-other-way:minnie");
    let check = |args: &[&str]| {
        let mut c = gametrace();
        c.args(["check", S14_BIG, "--case", "alphabeta", "--actual", "-"])
            .args(args)
            .write_stdin(output.clone());
        c
    };
    let json = check(&["--format", "json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let d = &v["cases"][0]["diagnosis"];
    assert_eq!(d["finding"], "exact", "{d}");
    assert_eq!(
        d["explanations"][0][0]["bug"], "ties-other-way:minnie",
        "{d}"
    );
    assert_eq!(d["explanations"][0][0]["side"], "minnie");
    assert!(d["handout"].is_null() && d["explanations"][0][0]["handout"].is_string());
    check(&["--format", "junit"])
        .assert()
        .code(1)
        .stdout(contains("diagnosis: this output is exactly what the reference prints with the mistake ties-other-way at Minnie&apos;s nodes only").or(contains("diagnosis: this output is exactly what the reference prints with the mistake ties-other-way at Minnie's nodes only")));
    let gs = check(&["--format", "gradescope"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&gs.stdout).unwrap();
    let text = v["tests"][0]["output"].as_str().unwrap();
    assert!(
        text.contains("the mistake ties-other-way at Minnie's nodes only"),
        "{text}"
    );
    // A passing case has no diagnosis; --no-diagnosis leaves it out of a failing one.
    let json = check(&["--format", "json", "--no-diagnosis"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["cases"][0]["diagnosis"].is_null());
    assert_eq!(v["cases"][0]["status"], "fail");
}

#[test]
fn an_output_no_mistake_explains_is_said_so_and_a_near_miss_gets_the_closest() {
    // The strict cut's trace with its last line changed: no mistake prints it, but the strict
    // cut agrees with it far longer than the reference does.
    let mut near = String::from_utf8(mistaken(S14_BIG, "alphabeta", "strict-cut")).unwrap();
    assert!(near.ends_with("Terminals visited: 10\n"), "{near}");
    near = near.replace("Terminals visited: 10", "Terminals visited: 11");
    gametrace()
        .args(["check", S14_BIG, "--case", "alphabeta", "--actual", "-", "--color", "never"])
        .write_stdin(near)
        .assert()
        .code(1)
        .stdout(contains("diagnosis: no catalogued mistake prints exactly this output; the closest is strict-cut, which agrees with the output's first"));
    gametrace()
        .args([
            "check",
            S14_BIG,
            "--case",
            "alphabeta",
            "--actual",
            "-",
            "--color",
            "never",
        ])
        .write_stdin("Estimating state q[2]\n")
        .assert()
        .code(1)
        .stdout(contains(
            "catalogued mistakes and pairs of them tried explains this output",
        ));
}

#[test]
fn test_against_a_buggy_program_names_its_mistake_in_the_gradescope_report() {
    let out = gametrace()
        .args(["test", S12_BIG, "--format", "gradescope", "--against"])
        .arg("python3 tests/fixtures/python/alphabeta_s12_buggy.py {tree_json}")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let alphabeta = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "specs/15150-s12/handout-big.yaml alphabeta")
        .expect("the alphabeta case is graded");
    let text = alphabeta["output"].as_str().unwrap();
    assert!(
        text.contains("with the mistake original-bounds\n"),
        "{text}"
    );
}

/// A catalogue variant that never stops descending (`depth-kept`, on Riskless, whose games
/// run hundreds of plies) overflowed the diagnosis thread's stack: `check` aborted (exit 134,
/// "has overflowed its stack") on a depth-3 case given the depth-2 trace. The stack is part
/// of a variant's budget now: that variant is out of budget, and the others name the slip.
#[test]
fn a_variant_that_never_stops_descending_is_out_of_budget_not_a_crash() {
    gametrace()
        .args(["check", "specs/games/riskless/m1-search.yaml"])
        .args(["--case", "alphabeta-depth-3"])
        .args([
            "--actual",
            "expected/games/riskless/m1-search/alphabeta.trace",
        ])
        .assert()
        .code(1)
        .stdout(contains("diagnosis:").and(contains("depth-twice")))
        .stderr(contains("overflowed").not());
}

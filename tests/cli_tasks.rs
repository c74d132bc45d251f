//! Graph and sequence tasks from the command line: the project's task specs, `run`, and
//! `check` on raw SML/NJ transcripts of a correct and a wrong from_edge_seq.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;

mod common;
use common::cli::gametrace;

const SPEC: &str = "specs/graphs/from-edge-seq.yaml";

/// What a student sees after `use "graphseq.sml";` and one call at the SML/NJ prompt.
fn transcript(value: &str) -> String {
    format!(
        "Standard ML of New Jersey v110.79 [built: Tue Aug  8 23:21:20 2017]\n\
         - [autoloading]\n[library $SMLNJ-BASIS/basis.cm is stable]\n[autoloading done]\n\
         [opening graphseq.sml]\nstructure GraphSeq : GRAPHSEQ\nval it = () : unit\n\
         - GraphSeq.from_edge_seq (Seq.fromList [(0,1),(1,0),(1,2),(2,1)]) 3;\n\
         val it = {value} : int Seq.seq Seq.seq\n- \n"
    )
}

#[test]
fn the_projects_task_specs_pass() {
    gametrace()
        .args([
            "test",
            "specs/graphs",
            "specs/sequences",
            "--color",
            "never",
        ])
        .assert()
        .success()
        .stdout(contains(
            "PASS    specs/graphs/get-neighbors.yaml handout\n",
        ))
        .stdout(contains(
            "PASS    specs/sequences/look-and-say.yaml handout-bye-hi\n",
        ))
        .stdout(contains("FAIL").not())
        .stdout(predicate::str::ends_with(" passed, 0 failed\n"));
}

#[test]
fn run_prints_the_value_bare_or_as_the_repl_does() {
    gametrace()
        .args(["run", SPEC, "--case", "handout"])
        .assert()
        .success()
        .stdout("<<1>,<0,2>,<1>>\n");
    gametrace()
        .args(["run", SPEC, "--case", "handout-repl"])
        .assert()
        .success()
        .stdout("val it = <<1>,<0,2>,<1>>\n");
    gametrace()
        .args(["run", SPEC, "--case", "bad-vertex"])
        .assert()
        .success()
        .stdout("REQUIRES violated: vertex 5 is out of range 0..2 (edge 0 of E is (0,5))\n");
    gametrace()
        .args([
            "run",
            "specs/graphs/get-neighbors.yaml",
            "--case",
            "not-in-graph",
        ])
        .assert()
        .success()
        .stdout("raise not_in_graph\n");
}

#[test]
fn a_correct_transcript_passes() {
    gametrace()
        .args(["check", SPEC, "--case", "handout", "--actual", "-"])
        .write_stdin(transcript("<<1>,<0,2>,<1>>"))
        .assert()
        .code(0)
        .stdout(contains(
            "PASS    specs/graphs/from-edge-seq.yaml handout\n",
        ))
        .stdout(contains("PASS: <<1>,<0,2>,<1>>\n"))
        .stdout(contains(
            "from line 9 of -: val it = <<1>,<0,2>,<1>> : int Seq.seq Seq.seq",
        ));
}

#[test]
fn a_wrong_transcript_fails_at_the_first_differing_element() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("student.txt");
    std::fs::write(&file, transcript("<<1>,<2,0>,<1>>")).unwrap();
    gametrace()
        .args(["check", SPEC, "--case", "handout", "--actual"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(contains(
            "FAIL    specs/graphs/from-edge-seq.yaml handout\n",
        ))
        .stdout(contains(
            "    expected: <<1>,<0,2>,<1>>\n      actual: <<1>,<2,0>,<1>>\n",
        ))
        .stdout(contains("    at index 1: expected <0,2>, got <2,0>\n"))
        .stdout(contains("student.txt: val it = <<1>,<2,0>,<1>>"));
    // The same output is right where order does not matter.
    gametrace()
        .args(["check", SPEC, "--case", "any-order", "--actual"])
        .arg(&file)
        .assert()
        .code(0);
}

#[test]
fn missing_values_and_unusable_inputs() {
    gametrace()
        .args(["check", SPEC, "--case", "handout", "--actual", "-"])
        .write_stdin("- use \"graphseq.sml\";\nError: unbound variable or constructor: fromList\n")
        .assert()
        .code(1)
        .stdout(contains("FAIL: no value found in -\n"))
        .stdout(contains(
            "read 2 lines; looked for `val it = <value> : <type>`",
        ));
    // Binary garbage is just text with no value in it.
    gametrace()
        .args(["check", SPEC, "--case", "handout", "--actual", "-"])
        .write_stdin(vec![0u8, 159, 146, 150, 255, 10, 0, 1])
        .assert()
        .code(1);
    gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "handout",
            "--actual",
            "no/such/file",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot read the actual output"));
    gametrace()
        .args(["check", SPEC, "--case", "bad-vertex", "--actual", "-"])
        .write_stdin("val it = <> : int Seq.seq Seq.seq\n")
        .assert()
        .code(2)
        .stderr(contains("no reference value"));
    gametrace()
        .args(["check", SPEC, "--case", "hadnout", "--actual", "-"])
        .assert()
        .code(2)
        .stderr(contains("did you mean `handout`?"));
}

fn bad_spec(text: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), text).unwrap();
    let a = Command::cargo_bin("gametrace")
        .unwrap()
        .args(["run", "t.yaml"])
        .current_dir(dir.path())
        .assert();
    drop(dir);
    a.code(2)
        .stderr(contains("= expected: "))
        .stderr(contains("=    found: "))
}

#[test]
fn malformed_notation_is_pinned_to_its_column() {
    bad_spec("task: from_edge_seq\ncases:\n  c:\n    args: [\"<(0,1),(1,0>\", \"2\"]\n    expect: \"<>\"\n")
        .stderr(contains("argument `E` is not a value in SML notation"))
        .stderr(contains("--> t.yaml:4:24"))
        .stderr(contains("expected: `,` or `)`"))
        .stderr(contains("found: `>`"));
    bad_spec("task: from_edge_seq\ncases:\n  c:\n    args: [\"<(0,1)>\", \"2\"]\n    expect: \"<<1>,<0>\"\n")
        .stderr(contains("`expect` is not a value"))
        .stderr(contains("found: the end of the text"));
    bad_spec(
        "task: from_edge_seq\ncases:\n  c:\n    args: [\"<(0,1,2)>\", \"2\"]\n    expect: \"<>\"\n",
    )
    .stderr(contains("argument `E` does not have type (int * int) seq"));
    bad_spec("task: from_edge_seq\ncases:\n  c:\n    args: [\"<(0,1)>\"]\n    expect: \"<>\"\n")
        .stderr(contains("from_edge_seq takes 2 arguments"))
        .stderr(contains(
            "hint: from_edge_seq : (int * int) seq -> int -> int seq seq",
        ));
    bad_spec("task: from_edge_sequence\ncases: {c: {args: [], expect: \"<>\"}}\n")
        .stderr(contains("did you mean `from_edge_seq`?"));
    bad_spec("task: to_list\ncases:\n  c:\n    args: [\"<1>\"]\n")
        .stderr(contains("says nothing of the result"));
    bad_spec("task: to_list\ntree: {a: {b: 1}}\ncases: {c: {args: [\"<1>\"], expect: \"[1]\"}}\n")
        .stderr(contains("not both"));
}

#[test]
fn a_wrong_expectation_fails_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("specs")).unwrap();
    std::fs::write(
        dir.path().join("specs/t.yaml"),
        "task: look_and_say\ncases:\n  wrong:\n    args: [\"<1,1,2>\"]\n    expect: \"<(2,1),(2,2)>\"\n  \
         not-an-error:\n    args: [\"<1>\"]\n    expect_error: \"out of range\"\n",
    )
    .unwrap();
    Command::cargo_bin("gametrace")
        .unwrap()
        .args(["test", "--color", "never"])
        .current_dir(dir.path())
        .assert()
        .code(1)
        .stdout(contains("FAIL    specs/t.yaml wrong\n    expected: <(2,1),(2,2)>\n      actual: <(2,1),(1,2)>\n    at index 1: expected (2,2), got (1,2)\n"))
        .stdout(contains("but the arguments are valid and give <(1,1)>"))
        .stdout(predicate::str::ends_with("0 passed, 2 failed\n"));
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(SPEC).exists());
}

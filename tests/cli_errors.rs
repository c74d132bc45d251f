//! Bad input: every one gets exit code 2 and a message naming the file, the line and column,
//! what was expected, what was found, and a hint. Nothing panics.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::PathBuf;

mod common;
use common::cli::gametrace;

/// Writes `text` as `name` in a fresh directory and runs `gametrace run` on it.
fn run_spec(name: &str, text: &[u8]) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let assert = gametrace()
        .arg("run")
        .arg(name)
        .current_dir(dir.path())
        .assert();
    drop(dir);
    assert
}

/// The parts every spec error has.
fn diagnosed(assert: assert_cmd::assert::Assert, place: &str) -> assert_cmd::assert::Assert {
    assert
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(contains("error: "))
        .stderr(contains(format!("--> {place}")))
        .stderr(contains("= expected: "))
        .stderr(contains("=    found: "))
        .stderr(contains("panicked").not())
}

#[test]
fn invalid_yaml() {
    diagnosed(
        run_spec("s.yaml", b"title: x\ntree:\n  a: {b: 3, c: [1\ncases: {}\n"),
        "s.yaml:5:1",
    )
    .stderr(contains("not valid YAML"))
    .stderr(contains("expected ',' or ']'"))
    .stderr(contains("hint: "));
}

#[test]
fn unknown_key_suggests_the_right_one() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a: {b: 3, c: 5}\ncases:\n  ab:\n    algoritm: alphabeta\n",
        ),
        "s.yaml:5:5",
    )
    .stderr(contains("unknown key `algoritm` in case `ab`"))
    .stderr(contains("5 |     algoritm: alphabeta\n  |     ^"))
    .stderr(contains("hint: did you mean `algorithm`?"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"titel: x\ntree: {a: {b: 1}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:1:1",
    )
    .stderr(contains("did you mean `title`?"));
}

#[test]
fn leaf_that_is_not_an_integer() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a:\n    b: 3\n    c: three\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:4:8",
    )
    .stderr(contains("the leaf `c` must be an integer"))
    .stderr(contains("found: `three`"))
    .stderr(contains("hint: a leaf is an integer estimate"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a:\n    b: 3.5\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:3:8",
    );
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a:\n    b: \"3\"\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:3:8",
    )
    .stderr(contains("hint: remove the quotes"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a:\n    b: 99999999999999999999\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:3:8",
    )
    .stderr(contains("64 bits"));
}

#[test]
fn sml_negative_leaves_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.yaml"),
        "tree: {a: {b: ~2, c: -3}}\ncases: {ab: {algorithm: alphabeta, lines: [result]}}\n",
    )
    .unwrap();
    gametrace()
        .args(["run", "s.yaml"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains("Result of (Minnie,b) is Leaf(Guess: ~2)"))
        .stdout(contains("Result of (Minnie,c) is Leaf(Guess: ~3)"));
}

#[test]
fn empty_tree() {
    diagnosed(
        run_spec("s.yaml", b"tree:\ncases:\n  ab: {algorithm: alphabeta}\n"),
        "s.yaml:1:1",
    )
    .stderr(contains("the tree is empty"))
    .stderr(contains("hint: "));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {}\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:1:7",
    )
    .stderr(contains("the tree is empty"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: 3}\ncases:\n  ab: {algorithm: alphabeta}\n",
        ),
        "s.yaml:1:8",
    )
    .stderr(contains("the root `a` is a leaf"));
}

#[test]
fn internal_node_reached_at_depth_zero_names_the_node_and_the_depth_needed() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a:\n    b: {d: 1, e: 2}\n    c: 5\ncases:\n  ab:\n    algorithm: alphabeta\n    depth: 1\n",
        ),
        "s.yaml:8:12",
    )
    .stderr(contains("node `b` has children but the search reaches it with depth 0"))
    .stderr(contains("expected: depth 2 or more"))
    .stderr(contains("found: depth 1"))
    .stderr(contains("hint: set `depth: 2`"));
}

#[test]
fn prune_percentage_outside_zero_to_one() {
    for bad in ["50", "-0.1", "1.5", ".nan", "half"] {
        let spec = format!(
            "tree: {{a: {{b: 1, c: 2}}}}\ncases:\n  j:\n    algorithm: jamboree\n    prune_percentage: {bad}\n"
        );
        diagnosed(run_spec("s.yaml", spec.as_bytes()), "s.yaml:5:23")
            .stderr(contains(
                "`prune_percentage` must be a fraction from 0 to 1",
            ))
            .stderr(contains("hint: "));
    }
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1}}\ncases:\n  j: {algorithm: jamboree}\n",
        ),
        "s.yaml:3:18",
    )
    .stderr(contains("without `prune_percentage`"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1}}\ncases:\n  j: {algorithm: alphabeta, prune_percentage: 0.5}\n",
        ),
        "s.yaml:3:29",
    )
    .stderr(contains("is a Jamboree setting"));
}

#[test]
fn negative_depth() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: minimax\n    depth: -1\n",
        ),
        "s.yaml:5:12",
    )
    .stderr(contains("`depth` is out of range"))
    .stderr(contains(
        "hint: depth counts moves ahead of the root and cannot be negative",
    ));
}

#[test]
fn unknown_algorithm_or_dialect() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: alpha-beta\n",
        ),
        "s.yaml:4:16",
    )
    .stderr(contains("unknown algorithm"))
    .stderr(contains("hint: did you mean `alphabeta`?"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: minimax\n    dialect: s13\n",
        ),
        "s.yaml:5:14",
    )
    .stderr(contains("unknown dialect"))
    .stderr(contains("expected: one of s14, s12, repl"));
}

#[test]
fn line_kind_the_dialect_lacks() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: minimax\n    dialect: s14\n    lines: [search, enter]\n",
        ),
        "s.yaml:6:13",
    )
    .stderr(contains("the s14 dialect has no `search` lines"))
    .stderr(contains("hint: "));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: minimax\n    dialect: repl\n    lines: [enter]\n",
        ),
        "s.yaml:6:13",
    )
    .stderr(contains("the repl dialect has no `enter` lines"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1, c: 2}}\ncases:\n  j:\n    algorithm: minimax\n    lines: [entr]\n",
        ),
        "s.yaml:5:13",
    )
    .stderr(contains("did you mean `enter`?"));
}

#[test]
fn spec_path_that_does_not_exist() {
    gametrace()
        .args(["run", "no/such/spec.yaml"])
        .assert()
        .code(2)
        .stderr(contains("--> no/such/spec.yaml"))
        .stderr(contains("found: no such file"))
        .stderr(contains("hint: "));
    gametrace()
        .args(["test", "no/such/dir"])
        .assert()
        .code(2)
        .stderr(contains("no/such/dir"))
        .stderr(contains("hint: "));
}

#[test]
fn hostile_files() {
    // Binary garbage, non-UTF-8, an empty file, a file of nothing but brackets.
    diagnosed(
        run_spec("s.yaml", &[0, 159, 146, 150, 255, 0, 1, 2]),
        "s.yaml:1:2",
    )
    .stderr(contains("not UTF-8"));
    diagnosed(run_spec("s.yaml", b"title: caf\xe9\n"), "s.yaml:1:11")
        .stderr(contains("found: byte 0xe9"));
    diagnosed(run_spec("s.yaml", b""), "s.yaml:1:1").stderr(contains("the spec is empty"));
    let deep = "[".repeat(100_000);
    diagnosed(run_spec("s.yaml", deep.as_bytes()), "s.yaml:1:");
    diagnosed(run_spec("s.yaml", b"- 1\n- 2\n"), "s.yaml:1:1")
        .stderr(contains("a spec must be a map"));
    diagnosed(run_spec("s.yaml", b"a: &x 1\nb: *x\n"), "s.yaml:2:4").stderr(contains("aliases"));
}

#[test]
fn structural_mistakes() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a: {b: 1}\n  z: {y: 2}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:3:3",
    )
    .stderr(contains("a tree has one root"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a: {b: 1, b: 2}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:2:13",
    )
    .stderr(contains("`b` appears twice"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree:\n  a: {b: {}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:2:10",
    )
    .stderr(contains("node `b` has no children and no estimate"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1}}\ncases: {../x: {algorithm: minimax}}\n",
        ),
        "s.yaml:2:9",
    )
    .stderr(contains("usable as a file name"));
    diagnosed(run_spec("s.yaml", b"tree: {a: {b: 1}}\n"), "s.yaml:1:1")
        .stderr(contains("no `cases`"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {a: {b: 1}}\ncases: {ab: {algorithm: minimax, root_player: Maxine}}\n",
        ),
        "s.yaml:2:",
    )
    .stderr(contains("expected: Maxie or Minnie"));
}

#[test]
fn generated_trees_too_large_or_malformed() {
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {generate: {branching: 10, depth: 12}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:1:18",
    )
    .stderr(contains("too large"))
    .stderr(contains("hint: lower branching or depth"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {generate: {branching: 3, depht: 2}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:1:33",
    )
    .stderr(contains("did you mean `depth`?"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {generate: {branching: 3, depth: 2, min: 5, max: 1}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:1:18",
    )
    .stderr(contains("`min` is greater than `max`"));
    diagnosed(
        run_spec(
            "s.yaml",
            b"tree: {generate: {branching: 4294967295, depth: 200}}\ncases: {ab: {algorithm: minimax}}\n",
        ),
        "s.yaml:1:18",
    )
    .stderr(contains("too large"));
}

#[test]
fn bad_flags_are_usage_errors() {
    gametrace().args(["run"]).assert().code(2);
    gametrace()
        .args(["run", "--threads", "0", "x.yaml"])
        .assert()
        .code(2);
    gametrace()
        .args(["test", "--color", "sometimes"])
        .assert()
        .code(2);
    gametrace().args(["frobnicate"]).assert().code(2);
    gametrace()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("Exit codes"));
}

/// Windows editors and programs start UTF-8 text with a byte order mark: a spec, a student's
/// output and a trace to diff are read as if it were not there.
#[test]
fn a_byte_order_mark_is_not_part_of_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bom.yaml");
    std::fs::write(
        &spec,
        "\u{feff}tree:\n  a: {b: 1, c: 2}\ncases:\n  m: {algorithm: minimax}\n",
    )
    .unwrap();
    let out = gametrace().arg("run").arg(&spec).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace = String::from_utf8(out.stdout).unwrap();
    assert!(trace.starts_with("F: state (Maxie,a)"), "{trace}");
    let plain = dir.path().join("plain.trace");
    let marked = dir.path().join("marked.trace");
    std::fs::write(&plain, &trace).unwrap();
    std::fs::write(&marked, format!("\u{feff}{trace}")).unwrap();
    gametrace()
        .arg("check")
        .arg(&spec)
        .arg("--actual")
        .arg(&marked)
        .assert()
        .success()
        .stdout(contains("PASS"));
    gametrace()
        .arg("diff")
        .arg(&plain)
        .arg(&marked)
        .assert()
        .success()
        .stdout(contains("same: 11 lines compared"));
    // Compared byte for byte, the mark is a difference.
    gametrace()
        .args(["diff", "--exact"])
        .arg(&plain)
        .arg(&marked)
        .assert()
        .code(1);
}

/// A YAML alias is refused with a hint about aliases, not about brackets.
#[test]
fn an_alias_is_refused_with_a_hint_that_fits() {
    diagnosed(
        run_spec(
            "alias.yaml",
            b"tree:\n  a:\n    b: &x {c: 1, d: 2}\n    e: *x\ncases:\n  m: {algorithm: minimax}\n",
        ),
        "alias.yaml:4:8",
    )
    .stderr(contains("the spec uses a YAML alias"))
    .stderr(contains("write the subtree out again at each place"))
    .stderr(contains("brackets").not());
}

/// `check` needs the output to judge, given one way or the other: the error names both.
#[test]
fn check_without_an_output_names_both_ways_to_give_one() {
    Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "check",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabeta",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--actual <FILE>|--cmd <COMMAND>"));
}

/// A spec path with a slip in it: the spec nearest in name is offered.
#[test]
fn a_missing_spec_gets_the_nearest_one_offered() {
    Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "specs/15150-s14/handout-smal.yaml"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "hint: did you mean `specs/15150-s14/handout-small.yaml`?",
        ));
    Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "specs/15150-s14/nothing-like-it.yaml"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "hint: check the path; specs usually live under specs/",
        ));
}

/// A mistyped case name in `test` gets the nearest one, as `run` and `check` give it.
#[test]
fn a_mistyped_case_name_in_test_gets_the_nearest() {
    Command::cargo_bin("gametrace")
        .unwrap()
        .args([
            "test",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabta",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("did you mean `alphabeta`?"));
}

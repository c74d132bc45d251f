//! `gametrace new`: a random tree spec, stable for a seed, ready to bless.

use predicates::str::contains;

mod common;
use common::cli::gametrace;

fn new_spec(args: &[&str]) -> String {
    let out = gametrace()
        .arg("new")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_spec_and_another_seed_another() {
    let a = new_spec(&["--branching", "3", "--depth", "3", "--seed", "42"]);
    let b = new_spec(&["--branching", "3", "--depth", "3", "--seed", "42"]);
    let c = new_spec(&["--branching", "3", "--depth", "3", "--seed", "43"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Pinned so that a change to the generator (which would change every user's trees for
/// their seeds) cannot go unnoticed. The leaves are ChaCha8 draws; the shape and names are
/// what the flags say: a root `a`, three children, each with three leaves, names in preorder.
#[test]
fn without_a_seed_it_is_the_tree_generate_makes_without_one() {
    // `generate:` defaults its seed to 0; so does `new`.
    let unseeded = new_spec(&["--branching", "3", "--depth", "2"]);
    assert!(unseeded.starts_with("# Made by `gametrace new --branching 3 --depth 2 --seed 0 "));
    assert_eq!(
        unseeded,
        new_spec(&["--branching", "3", "--depth", "2", "--seed", "0"])
    );
    let dir = tempfile::tempdir().unwrap();
    let (written, generated) = (dir.path().join("w.yaml"), dir.path().join("g.yaml"));
    std::fs::write(&written, &unseeded).unwrap();
    std::fs::write(
        &generated,
        "tree: {generate: {branching: 3, depth: 2}}\ncases: {m: {algorithm: minimax}}\n",
    )
    .unwrap();
    let trace = |spec: &std::path::Path, case: &str| {
        gametrace()
            .args(["run"])
            .arg(spec)
            .args(["--case", case])
            .output()
            .unwrap()
            .stdout
    };
    // The same leaves in the same order: the minimax traces agree.
    let mut w = new_spec(&["--branching", "3", "--depth", "2"]);
    w.push_str("  m: {algorithm: minimax}\n");
    std::fs::write(&written, &w).unwrap();
    assert_eq!(trace(&written, "m"), trace(&generated, "m"));
}

#[test]
fn a_small_spec_is_pinned() {
    assert_eq!(
        new_spec(&["--branching", "3", "--depth", "2", "--seed", "7"]),
        "# Made by `gametrace new --branching 3 --depth 2 --seed 7 --min -10 --max 10`.\n\
         # Bless its traces with `gametrace test --bless <this file>`.\n\
         title: Random tree (branching 3, depth 2, seed 7, estimates -10 to 10)\n\
         tree:\n  \
           a:\n    \
             b: {c: 2, d: -10, e: 4}\n    \
             f: {g: -1, h: -4, i: -4}\n    \
             j: {k: 4, l: 10, m: -5}\n\
         cases:\n  \
           alphabeta:\n    algorithm: alphabeta\n  \
           jamboree:\n    algorithm: jamboree\n    prune_percentage: 0.5\n"
    );
}

#[test]
fn the_written_tree_is_the_generated_one_and_blesses_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let text = new_spec(&[
        "--branching",
        "4",
        "--depth",
        "5",
        "--seed",
        "9",
        "--min",
        "-50",
        "--max",
        "50",
    ]);
    std::fs::create_dir_all(dir.path().join("specs")).unwrap();
    std::fs::write(dir.path().join("specs/written.yaml"), &text).unwrap();
    // The same settings as `tree: {generate: ...}` search to the very same traces.
    std::fs::write(
        dir.path().join("specs/generated.yaml"),
        "tree: {generate: {branching: 4, depth: 5, seed: 9, min: -50, max: 50}}\n\
         cases: {alphabeta: {algorithm: alphabeta}, jamboree: {algorithm: jamboree, prune_percentage: 0.5}}\n",
    )
    .unwrap();
    for case in ["alphabeta", "jamboree"] {
        let run = |spec: &str| {
            gametrace()
                .args(["run", spec, "--case", case])
                .current_dir(dir.path())
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        };
        assert_eq!(run("specs/written.yaml"), run("specs/generated.yaml"));
    }
    gametrace()
        .args(["validate", "specs/written.yaml"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains("specs/written.yaml: valid\n"));
    gametrace()
        .args(["test", "--bless", "specs"])
        .current_dir(dir.path())
        .assert()
        .success();
    gametrace()
        .args(["test", "specs"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains("4 passed, 0 failed"));
}

#[test]
fn impossible_settings_are_refused() {
    gametrace()
        .args(["new", "--branching", "10", "--depth", "9"])
        .assert()
        .code(2)
        .stderr(contains("the tree is too large to write out"))
        .stderr(contains(
            "tree: {generate: {branching: 10, depth: 9, seed: 0}}",
        ));
    gametrace()
        .args([
            "new",
            "--branching",
            "2",
            "--depth",
            "2",
            "--min",
            "5",
            "--max",
            "-5",
        ])
        .assert()
        .code(2)
        .stderr(contains("--min is greater than --max"));
    gametrace()
        .args(["new", "--branching", "0", "--depth", "2"])
        .assert()
        .code(2);
}

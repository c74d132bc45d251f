//! `gametrace run`: the handout figures, reproduced through the binary exactly as a user runs it.

use predicates::prelude::*;
use std::path::Path;

mod common;
use common::cli::gametrace;

/// The transcribed handout figures, kept in the repository (tests/handout-figures/README.md
/// names each one's course, term, section and figure).
fn figure(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/handout-figures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run_case(spec: &str, case: &str) -> String {
    let out = gametrace()
        .args(["run", spec, "--case", case])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn s14_figure_4_alphabeta_on_handout_big() {
    assert_eq!(
        run_case("specs/15150-s14/handout-big.yaml", "alphabeta"),
        figure("s14-fig4-alphabeta-handout-big.trace")
    );
}

#[test]
fn s14_figure_5_alphabeta_and_jamboree_on_handout_small() {
    assert_eq!(
        run_case("specs/15150-s14/handout-small.yaml", "alphabeta"),
        figure("s14-fig5-alphabeta-handout-small.trace")
    );
    assert_eq!(
        run_case("specs/15150-s14/handout-small.yaml", "jamboree"),
        figure("s14-fig5-jamboree-handout-small.trace")
    );
}

#[test]
fn s12_figure_3_as_corrected_on_handout_big() {
    let ours = run_case("specs/15150-s12/handout-big.yaml", "alphabeta");
    assert_eq!(ours, figure("s12-fig3-alphabeta-handout-big.trace"));
    // The printed figure differs only by its two hand-written comments and the missing line.
    let printed: Vec<String> = figure("s12-fig3-alphabeta-handout-big.as-printed.trace")
        .lines()
        .filter(|l| !l.starts_with("(*"))
        .map(str::to_owned)
        .collect();
    let mut ours: Vec<&str> = ours.lines().collect();
    assert_eq!(
        ours.remove(1),
        "Evaluating state (Minnie,b) with ab=(Pruned,Pruned)"
    );
    assert_eq!(ours, printed);
}

#[test]
fn s12_figure_4_alphabeta_and_jamboree_on_handout_small() {
    assert_eq!(
        run_case("specs/15150-s12/handout-small.yaml", "alphabeta"),
        figure("s12-fig4-alphabeta-handout-small.trace")
    );
    assert_eq!(
        run_case("specs/15150-s12/handout-small.yaml", "jamboree"),
        figure("s12-fig4-jamboree-handout-small.trace")
    );
}

#[test]
fn repl_prints_what_the_sml_prompt_shows() {
    // The handout's "Testing" transcript, as a student sees it on unmodified code.
    let big = run_case("specs/15150-s14/handout-big.yaml", "repl");
    assert_eq!(
        big,
        "Estimating state e[3]\nEstimating state f[5]\nEstimating state h[2]\n\
         Estimating state l[10]\nEstimating state m[4]\nEstimating state q[2]\n\
         val it = 0 : HandoutBig.move\n"
    );
    let small = run_case("specs/15150-s14/handout-small.yaml", "repl");
    assert!(
        small.starts_with("Estimating state c[3]\nEstimating state d[6]\nEstimating state e[~2]\n")
    );
    assert!(small.ends_with("Estimating state k[1]\nval it = 1 : HandoutSmall.move\n"));
}

#[test]
fn run_prints_a_header_per_case_only_when_printing_several() {
    gametrace()
        .args(["run", "specs/15150-s14/handout-small.yaml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "== alphabeta ==\nF: state (Maxie,a)",
        ))
        .stdout(predicate::str::contains("\n== jamboree ==\n"));
    gametrace()
        .args([
            "run",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "minimax",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .assert()
        .success()
        .stdout(predicate::str::contains("==").not());
}

#[test]
fn output_is_the_same_with_one_thread_and_many() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("gen.yaml");
    std::fs::write(
        &spec,
        "tree: {generate: {branching: 4, depth: 7, seed: 11, min: -50, max: 50}}\n\
         cases:\n  jam: {algorithm: jamboree, prune_percentage: 0.5, dialect: s14}\n  \
         mm: {algorithm: minimax, dialect: s12}\n",
    )
    .unwrap();
    let with = |threads: &str| {
        gametrace()
            .args(["run", "--threads", threads])
            .arg(&spec)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = with("1");
    assert!(
        one.len() > 100_000,
        "the trace should be large enough to fork"
    );
    assert_eq!(one, with("2"));
    assert_eq!(one, with("8"));
}

#[test]
fn unknown_case_names_the_cases_and_suggests_one() {
    gametrace()
        .args([
            "run",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "jambore",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case `jambore`"))
        .stderr(predicate::str::contains("did you mean `jamboree`?"));
}

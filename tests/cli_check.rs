//! `gametrace check` on traces: the handout figures and transcripts as a student would hand
//! them in, the four modes, and implementations in the students' languages run with `--cmd`
//! (an SML alpha-beta under SML/NJ and a Python one, each with a buggy copy).

use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;

mod common;
use common::cli::{gametrace, require_sml};

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
const S14_BIG: &str = "specs/15150-s14/handout-big.yaml";
const S12_SMALL: &str = "specs/15150-s12/handout-small.yaml";
const S12_BIG: &str = "specs/15150-s12/handout-big.yaml";
const FIG5: &str = "tests/handout-figures/s14-fig5-alphabeta-handout-small.trace";

fn figure5_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIG5)).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn the_handout_figure_passes_and_an_edited_one_fails_at_its_node() {
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--actual", FIG5])
        .assert()
        .code(0)
        .stdout(contains(
            "PASS    specs/15150-s14/handout-small.yaml alphabeta\n",
        ))
        .stdout(contains("PASS: full: all 24 trace lines match\n"));
    // h's estimate is 4 in the tree; a student who prints 5 diverges at h, Figure 5's line 14.
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--actual", "-", "--color", "never"])
        .write_stdin(figure5_with(
            "Result of (Maxie,h) is Leaf(Guess: 4)",
            "Result of (Maxie,h) is Leaf(Guess: 5)",
        ))
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node h: child 1 of f, depth 2, Maxie to move (a leaf); path a -1[middle]-> f -1-> h\n",
        ))
        .stdout(contains("      expected: Result of (Maxie,h) is Leaf(Guess: 4)\n"))
        .stdout(contains("        actual: Result of (Maxie,h) is Leaf(Guess: 5)   (line 14)\n"))
        .stdout(contains("    -Result of (Maxie,h) is Leaf(Guess: 4)\n    +Result of (Maxie,h) is Leaf(Guess: 5)\n"))
        .stdout(predicate::str::ends_with(
            "FAIL: full: 1 of 24 reference trace lines unmatched, 1 unmatched in the output; first difference at item 14\n",
        ));
}

#[test]
fn noise_around_the_trace_is_ignored_and_counted() {
    let noisy = format!(
        "Standard ML of New Jersey v110.79 [built: Mon Oct  3 21:03:45 2022]\n[autoloading]\n\
         structure TestSmall : PLAYER\n- {}\ndebug: my own print\n",
        figure5_with("F: state (Maxie,c)", "F:   state   (Maxie,c)").replace('\n', "\r\n")
    );
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--actual", "-"])
        .write_stdin(noisy.clone())
        .assert()
        .code(0)
        .stdout(contains(
            "read 29 lines of -: 24 trace lines kept, 5 other lines ignored\n",
        ));
    // --exact still drops the noise and the CRs, but the spacing inside c's line now counts.
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--exact",
            "--actual",
            "-",
        ])
        .write_stdin(noisy)
        .assert()
        .code(1)
        .stdout(contains("first divergence at node c: child 0 of b"));
}

#[test]
fn raw_smlnj_transcripts_check_in_terminals_mode() {
    // The handout's own "Testing" session: unmodified support code prints only the estimates
    // and the move, which is what `terminals` compares, for any case of the tree.
    for case in ["alphabeta", "repl", "jamboree-1"] {
        gametrace()
            .args([
                "check",
                S14_SMALL,
                "--case",
                case,
                "--mode",
                "terminals",
                "--actual",
            ])
            .arg("tests/fixtures/transcripts/handout-small-testing.txt")
            .assert()
            .code(0)
            .stdout(contains(
                "PASS: terminals: all 8 estimated states and the move match\n",
            ));
    }
    gametrace()
        .args([
            "check",
            S14_BIG,
            "--case",
            "alphabeta",
            "--mode",
            "terminals",
            "--actual",
        ])
        .arg("tests/fixtures/transcripts/handout-big-testing.txt")
        .assert()
        .code(0)
        .stdout(contains(
            "PASS: terminals: all 7 estimated states and the move match\n",
        ));
    // The repl dialect reads the same transcript in full mode.
    gametrace()
        .args(["check", S14_SMALL, "--case", "repl", "--actual"])
        .arg("tests/fixtures/transcripts/handout-small-testing.txt")
        .assert()
        .code(0);
    // A search that never estimates h diverges at h.
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "terminals",
            "--color",
            "never",
            "--actual",
        ])
        .arg("tests/fixtures/transcripts/handout-small-testing-skips-h.txt")
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node h: child 1 of f, depth 2, Maxie to move (a leaf)",
        ))
        .stdout(contains("      expected: Estimating state h[4]\n"))
        .stdout(contains(
            "        actual: Estimating state i[10]   (line 23)\n",
        ));
    // Minimax estimates every leaf, so the alpha-beta transcript misses l and m.
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "minimax",
            "--mode",
            "terminals",
            "--actual",
        ])
        .arg("tests/fixtures/transcripts/handout-small-testing.txt")
        .assert()
        .code(1)
        .stdout(contains("first divergence at node l: child 1 of j"));
}

#[test]
fn visited_ignores_order_and_value_looks_at_the_root_only() {
    // The same lines in another order: full fails, visited passes.
    let text = figure5_with("", "");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(2, 4);
    let shuffled = lines.join("\n") + "\n";
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--actual", "-"])
        .write_stdin(shuffled.clone())
        .assert()
        .code(1);
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "visited",
            "--actual",
            "-",
        ])
        .write_stdin(shuffled)
        .assert()
        .code(0)
        .stdout(contains(
            "PASS: visited: the 11 states visited and the chosen move match\n",
        ));
    // Visiting l, which alpha-beta prunes, is reported at l.
    let extra = figure5_with(
        "Result of (Minnie,j)",
        "F: state (Maxie,l) with ab=(Step(1, Guess: 4),Leaf(Maxie wins!))\nResult of (Minnie,j)",
    );
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "visited",
            "--actual",
            "-",
        ])
        .write_stdin(extra)
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node l: child 1 of j, depth 2, Maxie to move",
        ))
        .stdout(contains(
            "visited: 0 of 11 states missing (none), 1 extra (l)",
        ));
    // value: the root's value (from its result line) and the chosen move.
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "value",
            "--actual",
            FIG5,
        ])
        .assert()
        .code(0)
        .stdout(contains(
            "PASS: value: root value: Guess:4, chosen move: 1: match\n",
        ));
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "value",
            "--actual",
            "-",
        ])
        .write_stdin(figure5_with(
            "Overall choice: move 1[middle]",
            "Overall choice: move 2[right]",
        ))
        .assert()
        .code(1)
        .stdout(contains("      expected: chosen move: 1\n"))
        .stdout(contains("        actual: chosen move: 2   (line 24)\n"));
}

#[test]
fn the_case_can_choose_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("t.yaml");
    std::fs::write(
        &spec,
        "tree: {a: {b: {c: 3, d: 6}, e: {f: 1, g: 2}}}\ncases:\n  ab:\n    algorithm: alphabeta\n    check: terminals\n",
    )
    .unwrap();
    gametrace()
        .args(["check"])
        .arg(&spec)
        .args(["--case", "ab", "--actual", "-"])
        .write_stdin("Estimating state c[3]\nEstimating state d[6]\nEstimating state f[1]\nval it = 0 : Game.move\n")
        .assert()
        .code(0)
        .stdout(contains("PASS: terminals"));
    std::fs::write(
        &spec,
        "tree: {a: {b: 1, c: 2}}\ncases:\n  ab:\n    algorithm: alphabeta\n    check: termnals\n",
    )
    .unwrap();
    gametrace()
        .args(["run"])
        .arg(&spec)
        .assert()
        .code(2)
        .stderr(contains("unknown check mode"))
        .stderr(contains("did you mean `terminals`?"));
    // points: a weight, never negative; the error names the file, line and column.
    std::fs::write(
        &spec,
        "tree: {a: {b: 1, c: 2}}\ncases:\n  ab:\n    algorithm: alphabeta\n    points: -2\n",
    )
    .unwrap();
    gametrace()
        .args(["run"])
        .arg(&spec)
        .assert()
        .code(2)
        .stderr(contains("t.yaml:5:13"))
        .stderr(contains("`points` must be a number, 0 or more"))
        .stderr(contains("found: `-2`"));
}

#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn an_sml_alpha_beta_run_by_smlnj_passes_and_its_buggy_copy_fails_at_d() {
    require_sml();
    let run = |spec: &str, case: &str, program: &str, driver: &str| {
        let mut c = gametrace();
        c.args(["check", spec, "--case", case, "--color", "never", "--cmd"])
            .arg(format!(
                "sml tests/fixtures/sml/{program} tests/fixtures/sml/{driver}"
            ));
        c
    };
    run(S14_SMALL, "alphabeta", "alphabeta.sml", "small.sml")
        .assert()
        .code(0)
        .stdout(contains("PASS: full: all 24 trace lines match\n"));
    run(S14_BIG, "alphabeta", "alphabeta.sml", "big.sml")
        .assert()
        .code(0)
        .stdout(contains("PASS: full: all 40 trace lines match\n"));
    // Its transcript also holds what unmodified handout code prints (the estimates and
    // `val it = 0 : HandoutBig.move`), so the repl case passes on it too.
    run(S14_BIG, "repl", "alphabeta.sml", "big.sml")
        .assert()
        .code(0)
        .stdout(contains("PASS: full: all 7 trace lines match\n"));
    run(S14_BIG, "alphabeta", "alphabeta.sml", "big.sml")
        .arg("--mode")
        .arg("terminals")
        .assert()
        .code(0);
    // Driven through stdin, output lines follow SML/NJ's `- ` prompt.
    gametrace()
        .args([
            "check",
            S14_SMALL,
            "--case",
            "repl",
            "--cmd",
            "sml tests/fixtures/sml/alphabeta.sml",
        ])
        .args(["--stdin", "tests/fixtures/sml/small.sml"])
        .assert()
        .code(0)
        .stdout(contains("PASS: full: all 8 trace lines match\n"));
    // At b, the bug keeps c's own value Leaf(Guess: 3) as beta instead of Step(0, Guess: 3),
    // so d is the first node entered with different bounds.
    run(S14_SMALL, "alphabeta", "alphabeta-buggy.sml", "small.sml")
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node d: child 1 of b, depth 2, Maxie to move (a leaf); path a -0[left]-> b -1-> d\n",
        ))
        .stdout(contains("      expected: F: state (Maxie,d) with ab=(Leaf(Minnie wins!),Step(0, Guess: 3))\n"))
        .stdout(contains("        actual: F: state (Maxie,d) with ab=(Leaf(Minnie wins!),Leaf(Guess: 3))"))
        // The catalogue names the fixture's bug, and only at Minnie's nodes, where it is.
        .stdout(contains(
            "diagnosis: this output is exactly what the reference prints with the mistake child-value-as-bound at Minnie's nodes only\n",
        ));
    // In HandoutBig the first Minnie node with a second child is d (under a, b, c): after e
    // it hands f Leaf(Guess: 3) where Figure 4 shows Step(0, Guess: 3).
    run(S14_BIG, "alphabeta", "alphabeta-buggy.sml", "big.sml")
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node f: child 1 of d, depth 4, Maxie to move (a leaf); path a -0-> b -0-> c -0-> d -1-> f\n",
        ))
        .stdout(contains("      expected: F: state (Maxie,f) with ab=(Leaf(Minnie wins!),Step(0, Guess: 3))\n"))
        .stdout(contains("with the mistake child-value-as-bound at Minnie's nodes only\n"));
}

#[test]
fn a_python_alpha_beta_reading_the_tree_json_passes_and_its_buggy_copy_fails_at_d() {
    let python = "python3 tests/fixtures/python/alphabeta_s12.py {tree_json}";
    for spec in [S12_SMALL, S12_BIG] {
        gametrace()
            .args(["check", spec, "--case", "alphabeta", "--cmd", python])
            .assert()
            .code(0);
    }
    // The bug hands every child the node's first bounds, so after c the Minnie node b still
    // passes (Pruned,Pruned) to d where the handout shows (Pruned,Guess:3).
    gametrace()
        .args(["check", S12_SMALL, "--case", "alphabeta", "--color", "never", "--cmd"])
        .arg("python3 tests/fixtures/python/alphabeta_s12_buggy.py {tree_json}")
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node d: child 1 of b, depth 2, Maxie to move (a leaf); path a -0[left]-> b -1-> d\n",
        ))
        .stdout(contains("      expected: Evaluating state (Maxie,d) with ab=(Pruned,Guess:3)\n"))
        .stdout(contains("        actual: Evaluating state (Maxie,d) with ab=(Pruned,Pruned)   (line 6)\n"))
        .stdout(contains(
            "diagnosis: this output is exactly what the reference prints with the mistake original-bounds\n",
        ));
    gametrace()
        .args([
            "check",
            S12_BIG,
            "--case",
            "alphabeta",
            "--color",
            "never",
            "--cmd",
        ])
        .arg("python3 tests/fixtures/python/alphabeta_s12_buggy.py {tree_json}")
        .assert()
        .code(1)
        .stdout(contains("with the mistake original-bounds\n"));
    // Both get the root's value and move right, so `value` passes for the buggy one too.
    gametrace()
        .args([
            "check",
            S12_SMALL,
            "--case",
            "alphabeta",
            "--mode",
            "value",
            "--cmd",
        ])
        .arg("python3 tests/fixtures/python/alphabeta_s12_buggy.py {tree_json}")
        .assert()
        .code(0);
}

fn reference(spec: &str, case: &str) -> String {
    let out = gametrace()
        .args(["run", spec, "--case", case])
        .output()
        .unwrap()
        .stdout;
    String::from_utf8(out).unwrap()
}

#[test]
fn the_sml_conventions_a_python_student_misses_are_explained() {
    // HandoutSmall's S14 alpha-beta prints `Guess: ~2` at e; Python prints -2.
    let minus = reference(S14_SMALL, "alphabeta").replace('~', "-");
    gametrace()
        .args(["check", S14_SMALL, "--case", "alphabeta", "--actual", "-"])
        .args(["--color", "never", "--no-diagnosis"])
        .write_stdin(minus)
        .assert()
        .code(1)
        .stdout(contains(
            "hint: SML writes negative numbers with a tilde: the handout prints `~2` where your program prints `-2`",
        ));
    // S12 spells guesses without the space.
    let spaced = reference(S12_SMALL, "alphabeta").replace("Guess:", "Guess: ");
    gametrace()
        .args(["check", S12_SMALL, "--case", "alphabeta", "--actual", "-"])
        .args(["--color", "never", "--no-diagnosis", "--exact"])
        .write_stdin(spaced)
        .assert()
        .code(1)
        .stdout(contains("hint: S12 writes `Guess:3` with no space"));
    // S14 prints a guess of 0 as a draw.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("zero.yaml");
    std::fs::write(
        &spec,
        "tree:\n  a: {b: 0, c: -1}\ncases:\n  mm: {algorithm: minimax, dialect: s14}\n",
    )
    .unwrap();
    let out = gametrace().arg("run").arg(&spec).output().unwrap().stdout;
    let zero = String::from_utf8(out).unwrap();
    assert!(zero.contains("It's a draw!"), "{zero}");
    gametrace()
        .arg("check")
        .arg(&spec)
        .args(["--actual", "-", "--color", "never", "--no-diagnosis"])
        .write_stdin(zero.replace("It's a draw!", "Guess: 0"))
        .assert()
        .code(1)
        .stdout(contains("hint: S14 prints a guess of 0 as `It's a draw!`"));
}

/// A case whose reference search cannot end in time is reported as such (exit 2: there is
/// nothing to judge against), with the limit that stopped it and what to change; it is not
/// searched for ever, and no verdict is given on the output. Connect 4 minimax at depth 12
/// from the empty board visits about 7^12 positions: hours, not half a second.
#[test]
fn a_reference_search_too_big_for_its_time_limit_is_reported_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("deep.yaml");
    std::fs::write(
        &spec,
        "title: Connect 4 searched too deep\ngame: connect4\ncases:\n  deep:\n    algorithm: minimax\n    depth: 12\n    time_limit: 0.5\n  deep-default:\n    algorithm: minimax\n    depth: 12\n",
    )
    .unwrap();
    let actual = dir.path().join("out.txt");
    std::fs::write(&actual, "val it = 3 : int\n").unwrap();
    let started = std::time::Instant::now();
    gametrace()
        .args(["check", "--color", "never", "--case", "deep", "--actual"])
        .arg(&actual)
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(
            contains("ERROR")
                .and(contains("time limit of 0.5 s (the case's `time_limit:`)"))
                .and(contains("not judged"))
                .and(contains("hint: give the case a larger `time_limit:`")),
        );
    // Without the case's own limit, --time-limit is the one.
    gametrace()
        .args(["check", "--color", "never", "--case", "deep-default"])
        .args(["--time-limit", "0.3", "--actual"])
        .arg(&actual)
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(contains("time limit of 0.3 s (--time-limit)"));
    // Both stopped near their limits (generous: a loaded CI machine), not after hours.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

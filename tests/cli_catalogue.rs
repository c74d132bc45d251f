//! The catalogues of CSC148's and CS10's mistakes, each named from a student's program: a
//! Python strategy run through the course driver, a Java ComputerKalahPlayerAB compiled and
//! run. Each row is a fixture, the case it is checked on, and what the diagnosis must say:
//! the one mistake, the pair, or (where the case cannot tell them apart) every mistake that
//! prints the same, with the case of the spec that would.

mod common;
use common::cli::{gametrace, require, require_sml};

const DRIVER: &str = "python3 adapters/python/gametrace_csc148.py strategy";
const FIXTURES: &str = "tests/fixtures/python/csc148";
const SUBTRACT: &str = "specs/csc148/subtract-square-grading.yaml";
const TIPPY: &str = "specs/csc148/tippy-grading.yaml";
const KALAH: &str = "specs/kalah/search.yaml";

/// What `check` prints for `case` of `spec` on the output of `cmd`, and its exit code.
fn check(spec: &str, case: &str, cmd: &str) -> (i32, String) {
    let out = gametrace()
        .args([
            "check",
            spec,
            "--case",
            case,
            "--color",
            "never",
            "--timeout",
            "60",
            "--cmd",
            cmd,
        ])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn strategy(file: &str, class: &str) -> String {
    format!("{DRIVER} {FIXTURES}/{file} {class} {{position_json}} --trace")
}

/// The diagnosis line, or a panic that shows the whole report.
fn diagnosis(report: &str) -> &str {
    report
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("diagnosis:"))
        .unwrap_or_else(|| panic!("no diagnosis in\n{report}"))
}

/// The end of the diagnosis line that names one mistake (in a `full` case).
fn named(mistake: &str) -> String {
    format!("exactly what the reference prints with the mistake {mistake}\n")
}

const S14_SLIPS: &str = "tests/fixtures/sml/alphabeta-slips.sml";
const S12_SLIPS: &str = "tests/fixtures/sml/alphabeta-s12-slips.sml";

/// Checks `case` of `spec` on the SML program `fixture` run with `driver`, with `slips`
/// switched on. `config`: "NONE" for alpha-beta, "SOME p" for Jamboree (SOME 0.0: minimax),
/// or "deepening" for alpha-beta iteratively deepened; written to `slips_file`, which SML/NJ
/// loads first.
fn sml_slips(
    fixture: &str,
    slips_file: &std::path::Path,
    (spec, case, driver): (&str, &str, &str),
    config: &str,
    slips: &[&str],
) -> (i32, String) {
    let list: Vec<String> = slips.iter().map(|s| format!("{s:?}")).collect();
    let (jamboree, deepening) = match config {
        "deepening" => ("NONE", true),
        j => (j, false),
    };
    std::fs::write(
        slips_file,
        format!(
            "val slips : string list = [{}];\nval jamboree : real option = {jamboree};\nval deepening = {deepening};\n",
            list.join(", ")
        ),
    )
    .unwrap();
    check(
        spec,
        case,
        &format!("sml {} {fixture} {driver}", slips_file.display()),
    )
}

fn exactly(mistakes: &str) -> String {
    format!("exactly what the reference prints (as `visited` compares it) with {mistakes}")
}

#[test]
fn every_csc148_mistake_is_named_from_a_python_strategy() {
    let prune = "StrategyMinimaxPrune";
    let memo = "StrategyMinimaxMemoize";
    let myopic = "StrategyMinimaxMyopic";
    let rows: &[(&str, &str, &str, &str, String)] = &[
        (
            "strategy_minimax_prune_root.py",
            prune,
            TIPPY,
            "prune-expands",
            exactly("the mistake prune-root-unpruned"),
        ),
        (
            "strategy_minimax_prune_strict.py",
            prune,
            TIPPY,
            "prune-expands",
            exactly("the mistake prune-strict"),
        ),
        (
            "strategy_minimax_prune_bounds.py",
            prune,
            TIPPY,
            "prune-expands",
            exactly("the mistake bounds-never-updated"),
        ),
        (
            "strategy_minimax_memoize_total.py",
            memo,
            SUBTRACT,
            "memoize-expands-6",
            exactly("the mistake memo-ignores-player"),
        ),
        (
            "strategy_minimax_myopic_short.py",
            myopic,
            SUBTRACT,
            "myopic-expands-2-at-10",
            exactly("the mistake myopic-one-short"),
        ),
        (
            "strategy_minimax_myopic_long.py",
            myopic,
            SUBTRACT,
            "myopic-expands-2-at-10",
            exactly("the mistake myopic-one-long"),
        ),
        (
            "strategy_minimax_myopic_sign.py",
            myopic,
            SUBTRACT,
            "myopic-1-at-8",
            "exactly what the reference prints (as `value` compares it) with the mistake rough-outcome-sign".to_owned(),
        ),
    ];
    for (file, class, spec, case, want) in rows {
        let (code, report) = check(spec, case, &strategy(file, class));
        assert_eq!(code, 1, "{file} on {case}:\n{report}");
        if !want.is_empty() {
            assert!(
                diagnosis(&report).contains(want.as_str()),
                "{file} on {case}: want `{want}`\n{report}"
            );
        }
    }
    // rough_outcome negated picks 1 or 9 one move ahead of p2:10, as looking one move too far
    // does: only the positions expanded two moves ahead tell the two apart.
    let (_, report) = check(
        SUBTRACT,
        "myopic-1-at-10",
        &strategy("strategy_minimax_myopic_sign.py", myopic),
    );
    assert!(
        diagnosis(&report).contains("with any of these mistakes (on this case they print the same): myopic-one-long; rough-outcome-sign"),
        "{report}"
    );
    assert!(
        report.contains(
            "case `myopic-expands-2-at-10` tells myopic-one-long and rough-outcome-sign apart"
        ),
        "{report}"
    );
    // The correct strategies pass every case and are never given a name.
    for (file, class, spec, case) in [
        ("strategy_minimax_prune.py", prune, TIPPY, "prune-expands"),
        (
            "strategy_minimax_prune.py",
            prune,
            TIPPY,
            "prune-expands-near-the-end",
        ),
        (
            "strategy_minimax_memoize.py",
            memo,
            SUBTRACT,
            "memoize-expands-6",
        ),
        (
            "strategy_minimax_myopic.py",
            myopic,
            SUBTRACT,
            "myopic-expands-2-at-10",
        ),
        (
            "strategy_minimax_myopic.py",
            myopic,
            SUBTRACT,
            "myopic-1-at-10",
        ),
        (
            "strategy_minimax_myopic.py",
            myopic,
            SUBTRACT,
            "myopic-1-at-8",
        ),
    ] {
        let (code, report) = check(spec, case, &strategy(file, class));
        assert_eq!(code, 0, "{file} on {case}:\n{report}");
        assert!(!report.contains("diagnosis"), "{report}");
    }
    // suggest_move may return any of the equally good moves: taking the last is no mistake.
    let (code, report) = check(
        SUBTRACT,
        "memoize-expands-6",
        &strategy("strategy_minimax_memoize_last.py", memo),
    );
    assert_eq!(code, 0, "{report}");
}

#[test]
fn a_real_pruning_strategy_is_named_as_its_two_mistakes() {
    // suggest_move never prunes and the helper never raises its guarantees: what the issue's
    // real strategy did. gametrace once called it prune-strict.
    let naive = strategy("strategy_minimax_prune_naive.py", "StrategyMinimaxPrune");
    let (code, report) = check(TIPPY, "prune-expands", &naive);
    assert_eq!(code, 1, "{report}");
    assert!(
        diagnosis(&report).contains(&exactly(
            "the mistakes prune-root-unpruned together with bounds-never-updated"
        )),
        "{report}"
    );
}

#[test]
fn mistakes_a_case_cannot_tell_apart_are_all_named_with_the_case_that_can() {
    // Near the end of a game a strict test and a root that never prunes expand the same
    // positions (worked out in the spec): both programs get both names, and the case that
    // tells them apart.
    for file in [
        "strategy_minimax_prune_root.py",
        "strategy_minimax_prune_strict.py",
    ] {
        let (code, report) = check(
            TIPPY,
            "prune-expands-near-the-end",
            &strategy(file, "StrategyMinimaxPrune"),
        );
        assert_eq!(code, 1, "{report}");
        assert!(
            diagnosis(&report).contains(
                "with any of these mistakes (on this case they print the same): prune-strict; prune-root-unpruned"
            ),
            "{file}: {report}"
        );
        assert!(
            report
                .contains("case `prune-expands` tells prune-strict and prune-root-unpruned apart"),
            "{file}: {report}"
        );
    }
    // From p1:6 in the course's order (4 first, then 1) the two part: a strict test goes
    // on below p2:5 too, a root that never prunes only expands p2:5 (its first move, 4,
    // leaves p1:1, already expanded).
    for (file, extra, named) in [
        (
            "strategy_minimax_prune_root.py",
            "2 extra (p2:5, p1:1 visited twice, the reference once)",
            "the mistake prune-root-unpruned\n",
        ),
        (
            "strategy_minimax_prune_strict.py",
            "6 extra (p2:5, p1:4, p2:3, p1:2, p2:1, p1:1 visited twice, the reference once)",
            "the mistake prune-strict\n",
        ),
        (
            "strategy_minimax_prune_naive.py",
            "3 extra (p2:5, p1:4, p1:1 visited twice, the reference once)",
            "the mistakes prune-root-unpruned together with bounds-never-updated\n",
        ),
    ] {
        let (_, report) = check(
            SUBTRACT,
            "prune-expands-6",
            &strategy(file, "StrategyMinimaxPrune"),
        );
        assert!(report.contains(extra), "{file}: {report}");
        assert!(report.contains(named), "{file}: {report}");
    }
}

fn java_build() -> tempfile::TempDir {
    require("javac");
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir.path())
        .arg("tests/fixtures/java/kalah/KalahGame.java")
        .arg("tests/fixtures/java/kalah/ComputerKalahPlayerAB.java")
        .status()
        .expect("these tests compile Java: install a JDK (apt-get install default-jdk-headless), as .ci/run does");
    assert!(status.success(), "javac failed");
    dir
}

#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn every_cs10_mistake_is_named_from_a_java_player_and_pairs_as_pairs() {
    let build = java_build();
    let java = |slips: &str, options: &str| {
        format!(
            "java -cp {} ComputerKalahPlayerAB 3 2 {{depth}} {slips}{options}",
            build.path().display()
        )
    };
    let aspiration = " --aspiration 1";
    let ordering = " --ordering static";
    let one = |m: &str| format!("exactly what the reference prints with the mistake {m}\n");
    let two = |a: &str, b: &str| {
        format!("exactly what the reference prints with the mistakes {a} together with {b}\n")
    };
    let rows: Vec<(&str, &str, &str, String)> = vec![
        (
            "negamax_ab-2",
            "window-unswapped",
            "",
            one("window-unswapped"),
        ),
        (
            "negamax_ab-2",
            "window-unnegated",
            "",
            one("window-unnegated"),
        ),
        (
            "negamax_ab-2",
            "child-not-negated",
            "",
            one("child-not-negated"),
        ),
        (
            "negamax_ab-2",
            "move-again-negated",
            "",
            one("move-again-negated"),
        ),
        (
            "negamax_ab-2",
            "depth-every-move",
            "",
            one("depth-every-move"),
        ),
        ("negamax_ab-4", "window-strict", "", one("window-strict")),
        ("negamax_ab-8", "final-unscaled", "", one("final-unscaled")),
        (
            "aspiration-4",
            "aspiration-no-re-search",
            aspiration,
            one("aspiration-no-re-search"),
        ),
        (
            "ordered-2",
            "ordering-mismatched",
            ordering,
            one("ordering-mismatched"),
        ),
        (
            "ordered-2",
            "ordering-skipped",
            ordering,
            one("ordering-skipped"),
        ),
        (
            "negamax_ab-2",
            "child-not-negated,depth-every-move",
            "",
            two("depth-every-move", "child-not-negated"),
        ),
        (
            "negamax_ab-2",
            "window-unnegated,move-again-negated",
            "",
            two("window-unnegated", "move-again-negated"),
        ),
        (
            "negamax_ab-8",
            "final-unscaled,depth-every-move",
            "",
            two("depth-every-move", "final-unscaled"),
        ),
    ];
    for (case, slips, options, want) in &rows {
        let (code, report) = check(KALAH, case, &java(slips, options));
        assert_eq!(code, 1, "{slips} on {case}:\n{report}");
        let line = format!("{}\n", diagnosis(&report));
        assert!(
            line.ends_with(want.as_str()),
            "{slips} on {case}: want `{want}`\n{report}"
        );
    }
    // The player without slips passes each case, with no name.
    for (case, options) in [
        ("negamax_ab-2", ""),
        ("negamax_ab-4", ""),
        ("negamax_ab-8", ""),
        ("aspiration-4", aspiration),
        ("ordered-2", ordering),
    ] {
        let (code, report) = check(KALAH, case, &java("", options));
        assert_eq!(code, 0, "{case}:\n{report}");
        assert!(!report.contains("diagnosis"), "{report}");
    }
}

/// 15-150 S14's alpha-beta in SML (tests/fixtures/sml/alphabeta-slips.sml), each slip
/// switched on by a file loaded before it, checked on HandoutBig (Figure 4's tree).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn every_s14_alpha_beta_mistake_is_named_from_an_sml_program() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let slips_file = dir.path().join("slips.sml");
    let big = "specs/15150-s14/handout-big.yaml";
    let run_on = |spec: &str, case: &str, driver: &str, config: &str, slips: &[&str]| {
        sml_slips(S14_SLIPS, &slips_file, (spec, case, driver), config, slips)
    };
    let run = |slips: &[&str]| {
        run_on(
            big,
            "alphabeta",
            "tests/fixtures/sml/big.sml",
            "NONE",
            slips,
        )
    };
    let (code, report) = run(&[]);
    assert_eq!(code, 0, "{report}");
    assert!(!report.contains("diagnosis"), "{report}");
    for (slip, want) in [
        ("strict-cut", named("strict-cut")),
        (
            "strict-cut:maxie",
            named("strict-cut at Maxie's nodes only"),
        ),
        (
            "strict-cut:minnie",
            named("strict-cut at Minnie's nodes only"),
        ),
        ("cut-on-wrong-bound", named("cut-on-wrong-bound")),
        (
            "cut-on-wrong-bound:maxie",
            named("cut-on-wrong-bound at Maxie's nodes only"),
        ),
        ("original-bounds", named("original-bounds")),
        (
            "original-bounds:minnie",
            named("original-bounds at Minnie's nodes only"),
        ),
        (
            "child-value-as-bound:minnie",
            named("child-value-as-bound at Minnie's nodes only"),
        ),
        ("fail-soft", named("fail-soft")),
        ("ties-other-way", named("ties-other-way")),
        // At Maxie's nodes of HandoutBig, a tie that replaces the bound is what the 2014
        // student's move kept apart from the bound does too: both are named.
        (
            "ties-other-way:maxie",
            "exactly what the reference prints with any of these mistakes (on this case they print the same): move-kept-apart at Maxie's nodes only; ties-other-way at Maxie's nodes only\n".to_owned(),
        ),
        ("players-swapped", named("players-swapped")),
    ] {
        let (code, report) = run(&[slip]);
        assert_eq!(code, 1, "{slip}:\n{report}");
        let line = format!("{}\n", diagnosis(&report));
        assert!(line.ends_with(&want), "{slip}: want `{want}`\n{report}");
    }
    // Jamboree and minimax, the same program with `jamboree` set: the handout's cases pass,
    // the Jamboree slips are named where the tree shows them.
    for (case, p) in [
        ("minimax", "SOME 0.0"),
        ("jamboree-0", "SOME 0.0"),
        ("jamboree-0.25", "SOME 0.25"),
        ("jamboree-0.5", "SOME 0.5"),
        ("jamboree-0.75", "SOME 0.75"),
        ("jamboree-1", "SOME 1.0"),
    ] {
        let (code, report) = run_on(big, case, "tests/fixtures/sml/big.sml", p, &[]);
        assert_eq!(code, 0, "{case}:\n{report}");
    }
    for (case, p, slip) in [
        ("jamboree-0.25", "SOME 0.25", "jamboree-rounds-up"),
        ("jamboree-0.5", "SOME 0.5", "jamboree-fold-from-start"),
    ] {
        let (code, report) = run_on(big, case, "tests/fixtures/sml/big.sml", p, &[slip]);
        assert_eq!(code, 1, "{slip}:\n{report}");
        let line = format!("{}\n", diagnosis(&report));
        assert!(line.ends_with(&named(slip)), "{slip}:\n{report}");
    }
    // Ties need equal values under one node, which Figure 4's tree has not: a tree with a
    // tie at each level. Taking the later of equal children is last-best-move in minimax; in
    // a Jamboree that folds every child at once, folding from the last prints the same as
    // keeping the new value on a tie, and both are named.
    let (ties, driver) = tree_files(
        dir.path(),
        "ties",
        "tree:\n  a:\n    b: {c: 3, d: 3}\n    e: {f: 3, g: 5}\ncases:\n  minimax: {algorithm: minimax, depth: 2, dialect: s14}\n  jamboree-0: {algorithm: jamboree, prune_percentage: 0, depth: 2, dialect: s14}\n",
        "Node (\"a\", [Node (\"b\", [Esti (\"c\", 3), Esti (\"d\", 3)]),\n                         Node (\"e\", [Esti (\"f\", 3), Esti (\"g\", 5)])])",
        "  val depth = 2\n",
    );
    let (ties, driver) = (ties.as_str(), driver.as_str());
    let (code, report) = run_on(ties, "minimax", driver, "SOME 0.0", &[]);
    assert_eq!(code, 0, "{report}");
    let (_, report) = run_on(ties, "minimax", driver, "SOME 0.0", &["ties-other-way"]);
    assert!(
        format!("{}\n", diagnosis(&report)).ends_with(&named("last-best-move")),
        "{report}"
    );
    let (_, report) = run_on(
        ties,
        "jamboree-0",
        driver,
        "SOME 0.0",
        &["jamboree-folds-out-of-order"],
    );
    assert!(
        diagnosis(&report).ends_with(
            "with any of these mistakes (on this case they print the same): ties-other-way; jamboree-folds-out-of-order"
        ),
        "{report}"
    );
    // The depth: a complete binary tree five plies deep whose inner nodes have static
    // estimates, searched to depth 4: the reference estimates the fourth ply, a search that
    // keeps the depth the leaves, one that drops it by two the second, and one that stops a
    // ply early the third.
    let (yaml, sml) = deep_tree();
    let deep = dir.path().join("deep.yaml");
    std::fs::write(&deep, yaml).unwrap();
    let driver = dir.path().join("deep.sml");
    std::fs::write(&driver, sml).unwrap();
    let (deep, driver) = (deep.to_str().unwrap(), driver.to_str().unwrap());
    let (code, report) = run_on(deep, "alphabeta-4", driver, "NONE", &[]);
    assert_eq!(code, 0, "{report}");
    for slip in ["depth-twice", "depth-kept", "estimates-early"] {
        let (code, report) = run_on(deep, "alphabeta-4", driver, "NONE", &[slip]);
        assert_eq!(code, 1, "{slip}:\n{report}");
        let line = format!("{}\n", diagnosis(&report));
        assert!(line.ends_with(&named(slip)), "{slip}:\n{report}");
    }
    // Iterative deepening best first, on the tree of specs/textbooks/deepening-order.yaml
    // (worked by hand there): depth 2 tries the moves in order 1, 2, 0.
    let order = dir.path().join("order.sml");
    std::fs::write(
        &order,
        "structure Order : GAME =\nstruct\n  open GameTree\n  type move = int\n  val tree = Stat (\"A\", 0, [Stat (\"B\", 1, [Esti (\"E\", 2), Esti (\"F\", 6)]), Stat (\"C\", 5, [Esti (\"G\", 7), Esti (\"H\", 8)]), Stat (\"D\", 5, [Esti (\"I\", 4), Esti (\"J\", 9)])])\n  val move_names = [\"left\", \"middle\", \"right\"]\n  fun toMove m = m\n  val depth = 2\nend\nstructure TestOrder = AlphaBeta (Order);\nTestOrder.next_move ();\n",
    )
    .unwrap();
    let (spec, order) = (
        "specs/textbooks/deepening-order.yaml",
        order.to_str().unwrap(),
    );
    let (code, report) = run_on(spec, "best_first", order, "deepening", &[]);
    assert_eq!(code, 0, "{report}");
    let (_, report) = run_on(
        spec,
        "best_first",
        order,
        "deepening",
        &["deepening-keeps-order"],
    );
    assert!(
        format!("{}\n", diagnosis(&report)).ends_with(&named("deepening-keeps-order")),
        "{report}"
    );
    // Two slips at Minnie's nodes: the child's own value folded in, and fail-soft.
    let (_, report) = run(&["child-value-as-bound:minnie", "fail-soft:minnie"]);
    assert!(
        diagnosis(&report).ends_with("with the mistakes child-value-as-bound at Minnie's nodes only together with fail-soft at Minnie's nodes only"),
        "{report}"
    );
    // A 2014 student's cut returned `Step(x, Game.Est.maxie_wins)`.
    let (code, report) = run(&["cut-returns-own-win"]);
    assert_eq!(code, 1, "{report}");
    assert!(
        format!("{}\n", diagnosis(&report)).ends_with(&named("cut-returns-own-win")),
        "{report}"
    );
    // Together with child-value-as-bound (as that student's code had it), the root is left
    // with no move and the program raises `Fail "no move"`: CRASHED, and named by what it
    // printed before it stopped.
    let (code, report) = run(&["cut-returns-own-win", "child-value-as-bound"]);
    assert_eq!(code, 1, "{report}");
    assert!(report.starts_with("CRASHED"), "{report}");
    assert!(report.contains("no move"), "{report}");
    assert!(
        diagnosis(&report).ends_with(
            "what it printed before it stopped is exactly the beginning of what the reference prints with the mistakes child-value-as-bound together with cut-returns-own-win"
        ),
        "{report}"
    );
}

/// 15-150 S12's alpha-beta in SML (tests/fixtures/sml/alphabeta-s12-slips.sml, the
/// Pruned/ParentPrune labels of S12 HW09), each slip switched on by a file loaded before it,
/// checked on HandoutBig (Figure 3's tree).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn every_s12_alpha_beta_mistake_the_handout_tree_shows_is_named_from_an_sml_program() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let slips_file = dir.path().join("slips.sml");
    let big = "specs/15150-s12/handout-big.yaml";
    let run_on = |spec: &str, case: &str, driver: &str, config: &str, slips: &[&str]| {
        sml_slips(S12_SLIPS, &slips_file, (spec, case, driver), config, slips)
    };
    let run = |slips: &[&str]| {
        run_on(
            big,
            "alphabeta",
            "tests/fixtures/sml/big.sml",
            "NONE",
            slips,
        )
    };
    let (code, report) = run(&[]);
    assert_eq!(code, 0, "{report}");
    for (slip, want) in [
        ("strict-bounds-check", named("strict-bounds-check")),
        ("original-bounds", named("original-bounds")),
        (
            "original-bounds:maxie",
            named("original-bounds at Maxie's nodes only"),
        ),
        ("fail-soft", named("fail-soft")),
        ("parentprune-ignored", named("parentprune-ignored")),
        (
            "parentprune-ignored:minnie",
            named("parentprune-ignored at Minnie's nodes only"),
        ),
        ("players-swapped", named("players-swapped")),
        // Only Maxie's labels reach the trace on this tree: both readings are named.
        (
            "labels-swapped",
            "with any of these mistakes (on this case they print the same): labels-swapped; labels-swapped at Maxie's nodes only\n".to_owned(),
        ),
    ] {
        let (code, report) = run(&[slip]);
        assert_eq!(code, 1, "{slip}:\n{report}");
        let line = format!("{}\n", diagnosis(&report));
        assert!(line.ends_with(&want), "{slip}: want `{want}`\n{report}");
    }
    // S12's Jamboree, the same program with `jamboree` set.
    for (case, p) in [
        ("minimax", "SOME 0.0"),
        ("jamboree-0", "SOME 0.0"),
        ("jamboree-0.25", "SOME 0.25"),
        ("jamboree-0.5", "SOME 0.5"),
        ("jamboree-0.75", "SOME 0.75"),
    ] {
        let (code, report) = run_on(big, case, "tests/fixtures/sml/big.sml", p, &[]);
        assert_eq!(code, 0, "{case}:\n{report}");
    }
    let (_, report) = run_on(
        big,
        "jamboree-0.25",
        "tests/fixtures/sml/big.sml",
        "SOME 0.25",
        &["jamboree-rounds-up"],
    );
    assert!(
        format!("{}\n", diagnosis(&report)).ends_with(&named("jamboree-rounds-up")),
        "{report}"
    );
    // A node that returns the edge to its own best child: under a, b is worth 1 by its move 0
    // (c) and e 4 by its move 0 (f), so a moves to e, move 1; with the slip e hands a the
    // edge of its own move 0, and a reports move 0. Minnie's nodes are where it shows, so the
    // mistake everywhere and at Minnie's nodes only are both named.
    let (edge, edge_driver) = tree_files(
        dir.path(),
        "edge",
        "tree:\n  a:\n    b: {c: 1, d: 2}\n    e: {f: 4, g: 5}\ncases:\n  alphabeta: {algorithm: alphabeta, depth: 2, dialect: s12, lines: [search, enter, result, value, terminals]}\n",
        "Node (\"a\", [Node (\"b\", [Esti (\"c\", 1), Esti (\"d\", 2)]), Node (\"e\", [Esti (\"f\", 4), Esti (\"g\", 5)])])",
        "",
    );
    let (edge, edge_driver) = (edge.as_str(), edge_driver.as_str());
    let (code, report) = run_on(edge, "alphabeta", edge_driver, "NONE", &[]);
    assert_eq!(code, 0, "{report}");
    let (_, report) = run_on(
        edge,
        "alphabeta",
        edge_driver,
        "NONE",
        &["child-edge-returned"],
    );
    assert!(
        diagnosis(&report).ends_with(
            "with any of these mistakes (on this case they print the same): child-edge-returned; child-edge-returned at Minnie's nodes only"
        ),
        "{report}"
    );
    // A parallel child labelled ParentPrune: under a's second child i, j (searched first)
    // leaves i's beta at 9, and m, searched in parallel with (5, 9), has only 2 and 3 below it,
    // so m's value is at or below alpha: ParentPrune, which makes i Pruned. Passed over, i is
    // worth 9 and a moves to it.
    let (pp, driver) = tree_files(
        dir.path(),
        "pp",
        "tree:\n  a:\n    b:\n      c: {d: 4, e: 5}\n      f: {g: 6, h: 7}\n    i:\n      j: {k: 8, l: 9}\n      m: {n: 2, o: 3}\ncases:\n  jamboree-0.5: {algorithm: jamboree, prune_percentage: 0.5, depth: 3, dialect: s12}\n",
        "Node (\"a\", [Node (\"b\", [Node (\"c\", [Esti (\"d\", 4), Esti (\"e\", 5)]), Node (\"f\", [Esti (\"g\", 6), Esti (\"h\", 7)])]), Node (\"i\", [Node (\"j\", [Esti (\"k\", 8), Esti (\"l\", 9)]), Node (\"m\", [Esti (\"n\", 2), Esti (\"o\", 3)])])])",
        "",
    );
    let (pp, driver) = (pp.as_str(), driver.as_str());
    let (code, report) = run_on(pp, "jamboree-0.5", driver, "SOME 0.5", &[]);
    assert_eq!(code, 0, "{report}");
    let (_, report) = run_on(
        pp,
        "jamboree-0.5",
        driver,
        "SOME 0.5",
        &["parallel-parentprune-ignored"],
    );
    assert!(
        format!("{}\n", diagnosis(&report)).ends_with(&named("parallel-parentprune-ignored")),
        "{report}"
    );
}

/// A complete binary tree five plies deep, nodes named n1 (the root) to n63 in breadth-first
/// order, inner nodes with static estimates: as a spec (`alphabeta-4` searches it to depth 4)
/// and as an SML driver for alphabeta-slips.sml.
fn deep_tree() -> (String, String) {
    fn yaml(i: usize, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        if i >= 32 {
            out.push_str(&format!("{pad}n{i}: {}\n", (i * 13) % 17));
        } else {
            out.push_str(&format!("{pad}n{i}:\n{pad}  static: {}\n", (i * 7) % 10));
            yaml(2 * i, indent + 2, out);
            yaml(2 * i + 1, indent + 2, out);
        }
    }
    fn sml(i: usize) -> String {
        if i >= 32 {
            format!("Esti (\"n{i}\", {})", (i * 13) % 17)
        } else {
            format!(
                "Stat (\"n{i}\", {}, [{}, {}])",
                (i * 7) % 10,
                sml(2 * i),
                sml(2 * i + 1)
            )
        }
    }
    let mut spec = String::from("tree:\n");
    yaml(1, 2, &mut spec);
    spec.push_str("cases:\n  alphabeta-4: {algorithm: alphabeta, depth: 4, dialect: s14}\n");
    let driver = format!(
        "structure Deep : GAME =\nstruct\n  open GameTree\n  type move = int\n  val tree = {}\n  val move_names = []\n  fun toMove m = m\n  val depth = 4\nend\nstructure TestDeep = AlphaBeta (Deep);\nTestDeep.next_move ();\n",
        sml(1)
    );
    (spec, driver)
}

/// Writes `NAME.yaml` (the spec) and `NAME.sml`, an SML driver that searches `tree` (a
/// `GameTree.tree`) with the fixture's `AlphaBeta`; `extra` adds to the game's structure
/// (`  val depth = 2\n` for alphabeta-slips.sml). Returns their paths.
fn tree_files(
    dir: &std::path::Path,
    name: &str,
    spec: &str,
    tree: &str,
    extra: &str,
) -> (String, String) {
    let yaml = dir.join(format!("{name}.yaml"));
    std::fs::write(&yaml, spec).unwrap();
    let sml = dir.join(format!("{name}.sml"));
    std::fs::write(
        &sml,
        format!(
            "structure T : GAME =\nstruct\n  open GameTree\n  type move = int\n  val tree = {tree}\n  val move_names = []\n  fun toMove m = m\n{extra}end\nstructure TestT = AlphaBeta (T);\nTestT.next_move ();\n"
        ),
    )
    .unwrap();
    (
        yaml.to_str().unwrap().to_owned(),
        sml.to_str().unwrap().to_owned(),
    )
}

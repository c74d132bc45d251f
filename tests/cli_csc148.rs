//! Toronto CSC148 from the command line: the project's specs, the starter's doctest figures
//! from `stats` and `run --format json`, Python students' strategies and game_state_tree
//! modules graded through `adapters/python` (right ones pass, wrong ones fail where worked
//! out by hand, crashing and looping ones get a clear verdict), answers held against an
//! independent Python minimax, the referee, and every kind of bad CSC148 input.

use predicates::prelude::*;
use predicates::str::contains;
use std::fs;

mod common;
use common::cli::gametrace;

const DRIVER: &str = "python3 adapters/python/gametrace_csc148.py";
const FIXTURES: &str = "tests/fixtures/python/csc148";
const GRADING: &str = "specs/csc148/subtract-square-grading.yaml";
const DOCTESTS: &str = "specs/csc148/subtract-square-doctests.yaml";

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = gametrace().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn strategy(file: &str, class: &str, extra: &str) -> String {
    format!("{DRIVER} strategy {FIXTURES}/{file} {class} {{position_json}}{extra}")
}

#[test]
fn the_projects_csc148_specs_pass() {
    gametrace()
        .args(["test", "specs/csc148", "--color", "never"])
        .assert()
        .success()
        .stdout(contains(" 0 failed"))
        .stdout(contains(
            "PASS    specs/csc148/subtract-square-doctests.yaml doctests",
        ))
        .stdout(contains(
            "PASS    specs/csc148/tippy-rules.yaml two_threats_cannot_both_be_blocked",
        ));
}

#[test]
fn stats_prints_the_starters_doctest_figures_under_its_names() {
    let j = json_of(&["stats", DOCTESTS, "--format", "json"]);
    let t = &j["game_state_tree"];
    assert_eq!(t["node_count"], 13);
    assert_eq!(t["leaf_count"], 4);
    assert_eq!(t["distinct_node_count"], 10);
    assert_eq!(t["distinct_leaf_count"], 2);
    assert_eq!(
        t["branching_stats"],
        serde_json::json!({"0": 4, "1": 6, "2": 3})
    );
    assert_eq!(t["outcome_counts"], serde_json::json!([3, 1, 0]));
    assert_eq!(t["game_lengths"], serde_json::json!({"6": 1, "3": 3}));
    assert_eq!(
        t["game_descriptions"][1], "p1:6 -> p2:5 -> p1:1 -> p2:0 = p1 wins!",
        "depth first, the largest square first (the course's order)"
    );
    assert_eq!(t["game_descriptions"].as_array().unwrap().len(), 4);
    // The table and csv forms carry the same figures.
    gametrace()
        .args(["stats", DOCTESTS])
        .assert()
        .success()
        .stdout(contains("branching_stats      {0: 4, 1: 6, 2: 3}"));
    gametrace()
        .args(["stats", DOCTESTS, "--format", "csv"])
        .assert()
        .success()
        .stdout(contains("measure,value\nnode_count,13\n"))
        .stdout(contains("outcome_counts,\"[3, 1, 0]\"\n"));
}

#[test]
fn run_json_gives_each_strategys_answer_and_counts() {
    let j = json_of(&[
        "run",
        "specs/csc148/subtract-square-search.yaml",
        "--format",
        "json",
    ]);
    let case = |name: &str| {
        j["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["case"] == name)
            .unwrap()
            .clone()
    };
    // Worked by hand in the spec: 13 positions; 10 and 2 from the table; 4 with pruning (the
    // first move, 4, wins at once).
    assert_eq!(case("minimax")["positions_searched"], 13);
    assert_eq!(case("memoize")["positions_searched"], 10);
    assert_eq!(case("memoize")["table_hits"], 2);
    assert_eq!(case("prune")["positions_searched"], 4);
    assert_eq!(case("prune")["algorithm"], "prune");
    assert_eq!(case("myopic-2")["algorithm"], "myopic");
    assert_eq!(
        case("minimax")["equally_good"],
        serde_json::json!(["4", "1"])
    );
    assert_eq!(case("memoize-99")["best_move"], "4");
    assert_eq!(case("memoize-99")["equally_good"], serde_json::json!(["4"]));
    assert_eq!(case("memoize-12")["value"], "-1.0");
    assert_eq!(case("memoize-12")["player"], "p2");
    // A game-state tree case and a tree spec's case come out too.
    let t = json_of(&["run", DOCTESTS, "--case", "counts", "--format", "json"]);
    assert_eq!(t["cases"][0]["kind"], "game_state_tree");
    assert_eq!(t["cases"][0]["distinct_node_count"], 10);
    let h = json_of(&[
        "run",
        "specs/15150-s14/handout-small.yaml",
        "--case",
        "alphabeta",
        "--format",
        "json",
    ]);
    assert_eq!(h["cases"][0]["terminals_visited"], 7);
    assert_eq!(h["cases"][0]["value"], "Guess: 4");
}

#[test]
fn right_python_strategies_pass_every_position() {
    for (file, class, case, extra) in [
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "minimax-6",
            "",
        ),
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "memoize-6",
            "",
        ),
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "memoize-99",
            "",
        ),
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "memoize-8",
            "",
        ),
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "memoize-expands-6",
            " --trace",
        ),
        (
            "strategy_minimax_prune.py",
            "StrategyMinimaxPrune",
            "prune-expands-6",
            " --trace",
        ),
        (
            "strategy_minimax_myopic.py",
            "StrategyMinimaxMyopic",
            "myopic-2-at-10",
            "",
        ),
    ] {
        gametrace()
            .args([
                "check", GRADING, "--case", case, "--color", "never", "--cmd",
            ])
            .arg(strategy(file, class, extra))
            .assert()
            .success()
            .stdout(contains(format!("PASS    {GRADING} {case}")));
    }
}

#[test]
fn any_equally_good_move_passes_and_a_losing_one_fails() {
    // From p1:6 both 1 and 4 win; the reference suggests 1. From p1:99 only 4 wins.
    for (case, output, passes) in [
        ("memoize-6", "Suggested move: 4\n", true),
        ("memoize-6", "Suggested move: 1\n", true),
        ("memoize-99", "Suggested move: 4\n", true),
        ("memoize-99", "Suggested move: 1\n", false),
    ] {
        let a = gametrace()
            .args([
                "check", GRADING, "--case", case, "--actual", "-", "--color", "never",
            ])
            .write_stdin(output)
            .assert();
        if passes {
            a.success();
        } else {
            a.code(1)
                .stdout(contains("expected: chosen move: 4"))
                .stdout(contains("actual: chosen move: 1"));
        }
    }
    gametrace()
        .args(["check", GRADING, "--case", "memoize-6", "--actual", "-"])
        .write_stdin("Suggested move: 9\n")
        .assert()
        .code(1)
        .stdout(contains("chosen move: 4 (or any of 4, 1: equally good)"));
}

#[test]
fn a_strict_prune_fails_at_the_position_worked_out_by_hand_and_is_named() {
    // From p1:6 the first move, 4, already wins (1.0 >= -1 x -1.0): the handout's pruning
    // stops there, a strict `>` goes on and expands p2:5 and what lies below it.
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "prune-expands-6",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(strategy(
            "strategy_minimax_prune_strict.py",
            "StrategyMinimaxPrune",
            " --trace",
        ))
        .assert()
        .code(1)
        .stdout(contains("expected: state p2:5 never visited"))
        .stdout(contains(
            "visited: 0 of 3 states missing (none), 6 extra (p2:5, p1:4, p2:3, p1:2, p2:1, p1:1 visited twice, the reference once)",
        ))
        .stdout(contains("with the mistake prune-strict\n"));
}

#[test]
fn a_tree_module_passes_and_its_double_counting_copy_fails_at_that_function() {
    let tree = |file: &str| format!("{DRIVER} tree {FIXTURES}/{file} {{position_json}}");
    gametrace()
        .args(["check", DOCTESTS, "--case", "doctests", "--cmd"])
        .arg(tree("game_state_tree.py"))
        .assert()
        .success()
        .stdout(contains("game_state_tree: all 8 functions match"));
    gametrace()
        .args(["check", DOCTESTS, "--case", "doctests", "--cmd"])
        .arg(tree("game_state_tree_buggy.py"))
        .assert()
        .code(1)
        .stdout(contains("FAIL distinct_leaf_count: expected 2, found 4"))
        .stdout(contains("1 of 8 functions differ: distinct_leaf_count"))
        .stdout(contains("ok   distinct_node_count: 10"));
}

#[test]
fn a_crashing_or_looping_student_gets_a_clear_verdict_per_position() {
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "memoize-6",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(strategy("strategy_raises.py", "StrategyMinimaxMemoize", ""))
        .assert()
        .code(1)
        .stdout(contains("CRASHED"))
        .stdout(contains("KeyError"));
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "memoize-6",
            "--timeout",
            "2",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(strategy("strategy_loops.py", "StrategyMinimaxMemoize", ""))
        .assert()
        .code(1)
        .stdout(contains("TIMEOUT"));
    // Grading every case of the spec: one verdict each, and the run goes on.
    gametrace()
        .args([
            "test",
            GRADING,
            "--timeout",
            "5",
            "--color",
            "never",
            "--against",
        ])
        .arg(strategy("strategy_raises.py", "StrategyMinimaxMemoize", ""))
        .assert()
        .code(1)
        .stdout(contains(format!("CRASHED {GRADING} memoize-99")))
        .stdout(contains(format!("CRASHED {GRADING} memoize-expands-6")))
        // A memoizing strategy is graded on the memoize cases only.
        .stdout(contains("myopic").not());
}

/// A strategy file is graded on its own strategy's cases: the command names its class, and
/// the cases of the other strategies are left out (said on stderr); a `visited` case gets
/// the trace without `--trace`. A correct memoizing strategy scores 4 of 4 on the spec
/// that holds every strategy's cases (not 5 of 9, failing the pruning and myopic ones).
#[test]
fn a_strategy_file_is_graded_on_its_own_strategys_cases() {
    for (file, class, score) in [
        (
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "score 4 / 4",
        ),
        (
            "strategy_minimax_prune.py",
            "StrategyMinimaxPrune",
            "score 1 / 1",
        ),
        (
            "strategy_minimax_myopic.py",
            "StrategyMinimaxMyopic",
            "score 4 / 4",
        ),
    ] {
        gametrace()
            .args(["test", GRADING, "--color", "never", "--against"])
            .arg(strategy(file, class, ""))
            .assert()
            .success()
            .stdout(contains(score))
            .stderr(contains("cases of other classes left out"));
    }
    // The memoize strategy's trace is asked for by its `visited` case itself.
    gametrace()
        .args(["check", GRADING, "--case", "memoize-expands-6", "--cmd"])
        .arg(strategy(
            "strategy_minimax_memoize.py",
            "StrategyMinimaxMemoize",
            "",
        ))
        .assert()
        .success();
}

#[test]
fn a_student_printing_debug_lines_is_judged_on_its_answer() {
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "memoize-99",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(strategy("strategy_noisy.py", "StrategyMinimaxMemoize", ""))
        .assert()
        .success()
        .stdout(contains("value: chosen move: 4: match"))
        .stdout(contains("2 trace lines kept, 3 other lines ignored"));
}

#[test]
fn a_missing_class_is_named() {
    gametrace()
        .args(["check", GRADING, "--case", "memoize-6", "--cmd"])
        .arg(strategy(
            "strategy_minimax_memoize.py",
            "StrategyMinimaxPrune",
            "",
        ))
        .assert()
        .code(1)
        .stdout(contains("has no class StrategyMinimaxPrune"))
        .stdout(contains("StrategyMinimaxMemoize"));
}

/// gametrace's equally good moves against the independent Python minimax in
/// tests/fixtures/python/csc148/crosscheck.py, position by position.
#[test]
fn answers_agree_with_an_independent_python_minimax() {
    let dir = tempfile::tempdir().unwrap();
    let mut positions: Vec<String> = (1..=30)
        .flat_map(|n| [format!("p1:{n}"), format!("p2:{n}")])
        .map(|p| format!("position: \"{p}\""))
        .collect();
    positions.truncate(40);
    let mut yaml = String::from("game: subtract_square\nposition: p1:1\ncases:\n");
    for (i, p) in positions.iter().enumerate() {
        yaml.push_str(&format!("  c{i}: {{algorithm: memoize, {p}}}\n"));
        // Myopia at 1 to 3 moves, against the Python myopic strategy's own scores.
        if i % 4 == 1 {
            let depth = 1 + i % 3;
            yaml.push_str(&format!(
                "  m{i}: {{algorithm: myopic, depth: {depth}, {p}}}\n"
            ));
        }
    }
    let ss = dir.path().join("ss.yaml");
    fs::write(&ss, yaml).unwrap();
    let tippy = dir.path().join("tippy.yaml");
    fs::write(
        &tippy,
        concat!(
            "game: tippy\ncases:\n",
            "  a: {algorithm: memoize, position: [XX.., .X.., O.O., O...]}\n",
            "  b: {algorithm: memoize, position: [X..., .O.., ..X., ...O]}\n",
            "  c: {algorithm: memoize, position: [XO.., OX.., X..., ..O.]}\n",
            "  d: {algorithm: myopic, depth: 2, position: [XO.., OX.., X..., ..O.]}\n",
            "  e: {algorithm: myopic, depth: 1, position: [XX.., .X.., O.O., O...]}\n",
        ),
    )
    .unwrap();
    let three = dir.path().join("three.yaml");
    fs::write(
        &three,
        concat!(
            "game: tippy\nsize: 3\ncases:\n",
            "  empty: {algorithm: memoize}\n",
            "  one: {algorithm: memoize, position: [X.., ..., ...]}\n",
        ),
    )
    .unwrap();
    let mut compared = 0;
    for spec in [&ss, &tippy, &three] {
        let j = json_of(&["run", spec.to_str().unwrap(), "--format", "json"]);
        for case in j["cases"].as_array().unwrap() {
            let name = case["case"].as_str().unwrap();
            let out = std::process::Command::new("python3")
                .arg(format!("{FIXTURES}/crosscheck.py"))
                .arg(case["position"].to_string())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let python: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                case["score"],
                python["score"],
                "{name} in {}",
                spec.display()
            );
            assert_eq!(
                case["equally_good"],
                python["equally_good"],
                "{name} in {}",
                spec.display()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 57);
}

#[test]
fn the_referee_plays_csc148_games_with_course_strategies() {
    // 6 is a winning total: memoize (p1) takes 1 or 4 and wins whatever p2 does.
    gametrace()
        .args([
            "play",
            "subtract_square",
            "--total",
            "6",
            "--p1",
            "memoize",
            "--p2",
            "human",
        ])
        .write_stdin("1\n1\n1\n1\n")
        .assert()
        .success()
        .stdout(contains("subtract_square: p1 (memoize) against p2 (human)"))
        .stdout(contains("p1 wins!"));
    gametrace()
        .args([
            "play", "tippy", "--size", "3", "--p1", "prune", "--p2", "myopic:1",
        ])
        .assert()
        .success()
        .stdout(contains("tippy: p1 (prune) against p2 (myopic:1)"));
    gametrace()
        .args(["play", "tippy", "--size", "2"])
        .assert()
        .code(2)
        .stderr(contains("a Tippy board cannot be 2×2"));
    gametrace()
        .args(["play", "subtract_square", "--size", "4"])
        .assert()
        .code(2)
        .stderr(contains("--size is not an option of subtract_square"));
}

fn spec_error(yaml: &str, place: &str, wants: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    fs::write(&path, yaml).unwrap();
    let mut a = gametrace()
        .args(["validate"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout(contains(format!("t.yaml:{place}")).or(contains(format!("t.yaml:{place}"))));
    for w in wants {
        a = a.stdout(contains(*w));
    }
    // `run` refuses it the same way, on stderr.
    gametrace()
        .args(["run"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(contains(format!("t.yaml:{place}")));
}

#[test]
fn bad_csc148_input_is_named_at_its_place() {
    spec_error(
        "game: subtract_square\nposition: p1:-3\ncases: {m: {algorithm: minimax}}\n",
        "2:11",
        &["a Subtract Square total cannot be below 0", "found: -3"],
    );
    spec_error(
        "game: subtract_square\nposition: p3:6\ncases: {m: {algorithm: minimax}}\n",
        "2:11",
        &["`p3` is not a player of Subtract Square"],
    );
    spec_error(
        "game: tippy\nsize: 2\ncases: {m: {algorithm: minimax}}\n",
        "2:7",
        &["a Tippy board is 3×3 to 8×8", "could never be won"],
    );
    spec_error(
        "game: tippy\nposition: [XXX., ...., ...., ....]\ncases: {m: {algorithm: minimax}}\n",
        "2:11",
        &["a Tippy position with 3 X and 0 O cannot arise"],
    );
    spec_error(
        "game: tippy\nsize: 3\nposition: [XX., .XX, OO0]\ncases: {m: {algorithm: minimax}}\n",
        "3:24",
        &["`0` at (3,3) is not a cell", "that is a zero"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:10\nscenarios:\n  s:\n    steps:\n      - move: 3\n",
        "6:15",
        &[
            "3 is not a positive perfect square",
            "a legal move for p1 here: 9, 4, 1",
        ],
    );
    spec_error(
        "game: subtract_square\nposition: p1:10\nscenarios:\n  s:\n    steps:\n      - move: 16\n",
        "6:15",
        &["16 is more than the total, 10"],
    );
    spec_error(
        "game: tippy\nscenarios:\n  s:\n    position: [X..., ...., ...., ....]\n    steps:\n      - move: (1,1)\n",
        "6:15",
        &["cell (1,1) is taken"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:6\ncases: {m: {algorithm: myopic}}\n",
        "3:9",
        &["is myopic and has no `depth`"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:6\ncases: {m: {algorithm: memoize, dialect: s14}}\n",
        "3:24",
        &["`memoize` is a CSC148 strategy", "add `dialect: csc148`"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:6\ncases: {m: {algorithm: game_state_tree, metrics: [node_cout]}}\n",
        "3:51",
        &["unknown measure", "did you mean `node_count`?"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:6\ncases: {m: {algorithm: game_state_tree, depth: 3}}\n",
        "3:41",
        &["a game-state tree has no `depth`"],
    );
    spec_error(
        "game: subtract_square\nposition: p1:6\ncases: {m: {algorithm: jamboree, prune_percentage: 0.5}}\n",
        "3:24",
        &["CSC148 has no Jamboree"],
    );
    spec_error(
        "tree: {a: {b: 1, c: 2}}\ncases: {m: {algorithm: game_state_tree, dialect: csc148}}\n",
        "2:24",
        &["a game-state tree is measured from a game's position"],
    );
}

#[test]
fn searches_to_the_end_never_exhaust_the_stack() {
    // 20 000 moves deep, and a game that goes round in circles: a search to the end has a
    // horizon of 2 000 moves, and a time limit stops what would never end.
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("deep.yaml");
    fs::write(
        &deep,
        "game: subtract_square\nposition: p1:20000\ncases: {m: {algorithm: minimax, lines: [value], time_limit: 3}}\n",
    )
    .unwrap();
    gametrace()
        .args(["run"])
        .arg(&deep)
        .assert()
        .code(predicate::in_iter([0, 1]))
        .stderr(contains("overflow").not());
    let circles = dir.path().join("circles.yaml");
    fs::write(
        &circles,
        "game: riskless\nmap: M1\ncases: {m: {algorithm: memoize, dialect: csc148, lines: [value], time_limit: 2}}\n",
    )
    .unwrap();
    gametrace()
        .args(["run"])
        .arg(&circles)
        .assert()
        .code(1)
        .stderr(contains("TIMEOUT"));
}

#[test]
fn position_json_is_for_the_games_a_driver_rebuilds() {
    gametrace()
        .args([
            "check",
            "specs/games/nim/search.yaml",
            "--case",
            "minimax",
            "--cmd",
        ])
        .arg("echo {position_json}")
        .assert()
        .code(2)
        .stderr(contains(
            "{position_json} is for the games a course driver rebuilds",
        ));
}

/// The course lists the largest square first; a spec can say its copy lists them smallest
/// first, and then gametrace and its Python copy of the class both do.
#[test]
fn square_order_is_the_courses_unless_the_spec_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("smallest.yaml");
    std::fs::write(
        &spec,
        "game: subtract_square\nsquare_order: smallest_first\nposition: p1:6\ncases:\n  prune: {algorithm: prune, lines: [enter, choice], check: visited}\n",
    )
    .unwrap();
    // Smallest first, p1:6's first move is 1, to p2:5, which p2 loses (worked out in
    // subtract-square-search.yaml): the search expands p2:5's line and stops at the root.
    gametrace()
        .args(["run"])
        .arg(&spec)
        .args(["--case", "prune"])
        .assert()
        .success()
        .stdout(contains("Searching p1:6: p1 to move, moves 1, 4;"))
        .stdout(contains("Searching p2:5: p2 to move, moves 1, 4;"))
        .stdout(contains("Suggested move: 1\n"));
    gametrace()
        .args(["check"])
        .arg(&spec)
        .args(["--case", "prune", "--cmd"])
        .arg(strategy(
            "strategy_minimax_prune.py",
            "StrategyMinimaxPrune",
            " --trace",
        ))
        .assert()
        .success();
    std::fs::write(
        &spec,
        "game: subtract_square\nsquare_order: biggest\ncases:\n  m: {algorithm: minimax}\n",
    )
    .unwrap();
    gametrace()
        .args(["validate"])
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(contains("error: unknown order of Subtract Square's moves"))
        .stdout(contains("= expected: one of largest_first, smallest_first"))
        .stdout(contains("=    found: `biggest`"));
}

/// A class graded from a folder of submissions: one holds its strategy, one is empty. The
/// empty one is NOT-FOUND, naming the file the command expected, never a Python traceback.
#[test]
fn an_empty_submission_is_not_found_naming_the_file_the_command_expected() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    std::fs::create_dir_all(subs.join("alice")).unwrap();
    std::fs::create_dir_all(subs.join("bob")).unwrap();
    std::fs::copy(
        format!("{FIXTURES}/strategy_minimax_memoize.py"),
        subs.join("alice/strategy.py"),
    )
    .unwrap();
    let driver = format!(
        "python3 {}/adapters/python/gametrace_csc148.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = dir.path().join("grades");
    gametrace()
        .arg("grade")
        .arg(&subs)
        .args(["--specs", GRADING, "--against"])
        .arg(format!(
            "{driver} strategy strategy.py StrategyMinimaxMemoize {{position_json}}"
        ))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let bob = std::fs::read_to_string(out.join("reports/bob.txt")).unwrap();
    assert!(
        bob.contains("NOT-FOUND") && bob.contains("the submission has no strategy.py"),
        "{bob}"
    );
    assert!(!bob.contains("Traceback"), "{bob}");
    let book = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(book.contains("alice,4,4,"), "{book}");
    assert!(book.contains("bob,0,4,"), "{book}");
}

/// Issue 64's blind spot: a "memoizing" strategy with no memo table that takes the worst
/// move. Where both moves are equally good (p1:6) its move passes; the positions it expands
/// are the memoized search's, but one of them twice, which `visited` counts; and where the
/// worst move loses (p1:8), its move fails.
#[test]
fn a_strategy_without_a_memo_table_passes_no_memoize_case_but_the_tie() {
    let none = strategy(
        "strategy_minimax_memoize_none.py",
        "StrategyMinimaxMemoize",
        "",
    );
    gametrace()
        .args(["check", GRADING, "--case", "memoize-expands-6", "--color", "never", "--cmd"])
        .arg(&none)
        .assert()
        .code(1)
        .stdout(contains(
            "FAIL: visited: 0 of 8 states missing (none), 1 extra (p1:1 visited twice, the reference once)",
        ))
        .stdout(contains("expected: state p1:1 visited once"));
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "memoize-8",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(&none)
        .assert()
        .code(1)
        .stdout(contains("expected chosen move: 1"));
    gametrace()
        .args([
            "check",
            GRADING,
            "--case",
            "memoize-6",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(&none)
        .assert()
        .success();
}

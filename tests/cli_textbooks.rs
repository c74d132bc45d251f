//! The trees and games other courses and textbooks use: tic-tac-toe with the published
//! counts, static values at inner nodes, iterative deepening, and the counting conventions of
//! AIMA, MIT 6.034 and CS188 — each number checked against a published figure or an
//! independent implementation (tests/fixtures/textbooks/ttt_aima.py, AIMA's pseudocode in
//! Python).

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use serde_json::Value;
use std::path::Path;

mod common;
use common::cli::{gametrace, require};

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn json_of(args: &[&str]) -> Value {
    let out = gametrace().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn case<'v>(doc: &'v Value, name: &str) -> &'v Value {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["case"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {doc}"))
}

const EMPTY_BOARD: &str = "game: tictactoe
cases:
  minimax: {algorithm: minimax}
  alphabeta: {algorithm: alphabeta}
  tree: {algorithm: game_state_tree, dialect: csc148}
";

#[test]
fn the_empty_board_counts_as_published_in_every_convention() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "ttt.yaml", EMPTY_BOARD);
    let doc = json_of(&["run", spec.to_str().unwrap(), "--format", "json"]);
    let mm = case(&doc, "minimax");
    // Full minimax from the empty board is the whole game tree: 549,946 nodes (the sum of
    // positions at each ply), of which 255,168 are finished games (se16.info/hgb/tictactoe.htm,
    // Henry Bottomley); 5,478 distinct positions (newbe.dev, see the guide's textbooks chapter). Without a depth, a
    // tic-tac-toe case searches to the end (9 moves at most).
    assert_eq!(mm["depth"], 9);
    assert_eq!(mm["terminals_visited"], 255_168);
    assert_eq!(
        mm["counts"],
        serde_json::json!({
            "nodes_entered": 549_946,
            "aima_expanded_nodes": 549_945,
            "mit_static_evaluations": 255_168,
            "cs188_expanded_states": 5_478,
        })
    );
    // Perfect play draws, and every first move draws: all nine are equally good.
    assert_eq!(mm["value"], "It's a draw!");
    assert_eq!(mm["equally_good"].as_array().unwrap().len(), 9);
    assert_eq!(mm["best_move"], "(1,1)");

    // The game-state tree: the same nodes and games, the published split of outcomes
    // (131,184 X wins, 77,904 O wins, 46,080 draws) and of lengths (1,440 games end on move
    // 5, 5,328 on 6, 47,952 on 7, 72,576 on 8, 127,872 on 9), and the 958 distinct
    // finished positions.
    let tree = case(&doc, "tree");
    let m = &tree["measures"];
    let m = if m.is_null() { tree } else { m };
    assert_eq!(m["node_count"], 549_946, "{tree}");
    assert_eq!(m["leaf_count"], 255_168);
    assert_eq!(m["distinct_node_count"], 5_478);
    assert_eq!(m["distinct_leaf_count"], 958);
    assert_eq!(
        m["outcome_counts"],
        serde_json::json!([131_184, 77_904, 46_080])
    );
    assert_eq!(
        m["game_lengths"],
        serde_json::json!({"5": 1440, "6": 5328, "7": 47952, "8": 72576, "9": 127872})
    );
}

/// The AIMA-style Python search's answer.
fn aima(mode: &str, rows: &str) -> Value {
    let out = std::process::Command::new("python3")
        .args(["tests/fixtures/textbooks/ttt_aima.py", mode, rows])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn alpha_beta_counts_agree_with_an_independent_aima_search() {
    require("python3");
    let dir = tempfile::tempdir().unwrap();
    for rows in [".../.../...", "XOX/.O./X.O", "X../.O./..."] {
        let spec = write(
            dir.path(),
            "ttt.yaml",
            &format!(
                "game: tictactoe\nposition: {rows}\ncases:\n  minimax: {{algorithm: minimax}}\n  alphabeta: {{algorithm: alphabeta}}\n"
            ),
        );
        let doc = json_of(&["run", spec.to_str().unwrap(), "--format", "json"]);
        for mode in ["minimax", "alphabeta"] {
            let theirs = aima(mode, rows);
            let ours = case(&doc, mode);
            for key in [
                "nodes_entered",
                "aima_expanded_nodes",
                "mit_static_evaluations",
                "cs188_expanded_states",
            ] {
                assert_eq!(ours["counts"][key], theirs[key], "{rows} {mode} {key}");
            }
            assert_eq!(ours["best_move"], theirs["best_move"], "{rows} {mode}");
        }
    }
    // From the empty board, alpha-beta in move order: 18,297 states, 7,330 finished games,
    // 2,511 distinct positions (the AIMA search agrees, checked above).
    let spec = write(dir.path(), "empty.yaml", EMPTY_BOARD);
    let doc = json_of(&["run", spec.to_str().unwrap(), "--format", "json"]);
    let ab = &case(&doc, "alphabeta")["counts"];
    assert_eq!(ab["nodes_entered"], 18_297);
    assert_eq!(ab["mit_static_evaluations"], 7_330);
    assert_eq!(ab["cs188_expanded_states"], 2_511);
}

#[test]
fn stats_prints_the_counts_in_each_convention() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "ttt.yaml",
        "game: tictactoe\nposition: XOX/.O./X.O\ncases:\n  minimax: {algorithm: minimax}\n",
    );
    gametrace()
        .args(["stats", spec.to_str().unwrap()])
        .assert()
        .success()
        .stdout(contains("nodes entered   AIMA expanded"))
        // By hand (tests/fixtures/textbooks's search agrees): the root, three children, and
        // 4 + 3 below them: 11 entered, 10 without the root; 5 finished games; the draw
        // XOX/OOX/XXO is reached twice, so 10 distinct states.
        .stdout(contains(
            "minimax              11              10               5              10",
        ));
}

#[test]
fn equally_good_moves_are_every_winning_move() {
    // X.O/.X./O..: X wins at once with (3,3) and by a double threat with each other move,
    // so all five empty cells are worth +1.
    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "ttt.yaml",
        "game: tictactoe\nposition: X.O/.X./O..\ncases:\n  ab: {algorithm: alphabeta}\n",
    );
    let doc = json_of(&["run", spec.to_str().unwrap(), "--format", "json"]);
    let ab = case(&doc, "ab");
    assert_eq!(ab["value"], "Guess: 1");
    assert_eq!(
        ab["equally_good"],
        serde_json::json!(["(1,2)", "(2,1)", "(2,3)", "(3,2)", "(3,3)"])
    );
}

#[test]
fn iterative_deepening_reports_every_depth() {
    let doc = json_of(&[
        "run",
        "specs/textbooks/static-values.yaml",
        "--case",
        "deepening",
        "--format",
        "json",
    ]);
    let d = case(&doc, "deepening");
    let its = d["iterations"].as_array().unwrap();
    let got: Vec<(u64, &str, &str)> = its
        .iter()
        .map(|i| {
            (
                i["depth"].as_u64().unwrap(),
                i["value"].as_str().unwrap(),
                i["best_move"].as_str().unwrap(),
            )
        })
        .collect();
    // As worked by hand in the spec: 4 by B, 3 by B, 7 by C.
    assert_eq!(
        got,
        [
            (1, "Guess: 4", "0"),
            (2, "Guess: 3", "0"),
            (3, "Guess: 7", "1")
        ]
    );
    assert_eq!(d["value"], "Guess: 7");
    // The counts of every depth together: 3 + 7 + 9 nodes entered.
    assert_eq!(d["counts"]["nodes_entered"], 19);
    gametrace()
        .args([
            "run",
            "specs/textbooks/static-values.yaml",
            "--case",
            "deepening",
        ])
        .assert()
        .success()
        .stdout(contains("Deepening to depth 1\nEstimating state B[4]\n"))
        .stdout(contains("Deepening to depth 3\n"));
}

#[test]
fn a_student_trace_of_iterative_deepening_is_checked_depth_by_depth() {
    let reference =
        std::fs::read_to_string("expected/textbooks/static-values/deepening.trace").unwrap();
    gametrace()
        .args([
            "check",
            "specs/textbooks/static-values.yaml",
            "--case",
            "deepening",
            "--actual",
            "-",
        ])
        .write_stdin(reference.clone())
        .assert()
        .success()
        .stdout(contains("PASS"));
    // A student who forgets depth 2 parts from the reference at its header.
    let skipped = reference.replacen(
        "Deepening to depth 2\nEstimating state D[3]\nEstimating state E[8]\nEstimating state F[9]\nEstimating state G[1]\nTherefore value of (Maxie,A) is Guess: 3, and best move is 0.\nTerminals visited: 4\nOverall choice: move 0\n",
        "",
        1,
    );
    assert_ne!(skipped, reference);
    gametrace()
        .args([
            "check",
            "specs/textbooks/static-values.yaml",
            "--case",
            "deepening",
            "--actual",
            "-",
        ])
        .write_stdin(skipped)
        .assert()
        .code(1)
        .stdout(contains("Deepening to depth 2"));
}

#[test]
fn best_first_deepening_tries_the_best_move_first_and_cuts_more() {
    let spec = "specs/textbooks/deepening-order.yaml";
    let doc = json_of(&["run", spec, "--format", "json"]);
    let ordered = case(&doc, "best_first");
    let kept = case(&doc, "game_order");
    // As worked by hand in the spec: depth 1 finds B = 1, C = D = 5, so depth 2 tries C, D
    // (a tie keeps the game's order), then B, and cuts D and B after one leaf each.
    let its = ordered["iterations"].as_array().unwrap();
    assert!(its[0].get("move_order").is_none());
    assert_eq!(its[1]["move_order"], serde_json::json!(["1", "2", "0"]));
    let terminals = |c: &Value| -> Vec<u64> {
        c["iterations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["terminals_visited"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(terminals(ordered), [3, 4]);
    assert_eq!(terminals(kept), [3, 5]);
    // The same value and move either way, the move named by its index in the game's order.
    for c in [ordered, kept] {
        assert_eq!(c["value"], "Guess: 7");
        assert_eq!(c["best_move"], "1");
        assert_eq!(c["best_move_index"], 1);
    }
    gametrace()
        .args(["run", spec, "--case", "best_first"])
        .assert()
        .success()
        .stdout(contains(
            "Deepening to depth 2, moves in order 1, 2, 0
",
        ))
        .stdout(contains(
            "Overall choice: move 1[middle]
",
        ));
}

#[test]
fn a_deepening_that_forgets_to_reorder_is_named() {
    let spec = "specs/textbooks/deepening-order.yaml";
    // The student searched depth 2 in the game's order: B first, no cut at B.
    let reference =
        std::fs::read_to_string("expected/textbooks/deepening-order/best_first.trace").unwrap();
    let head: String = reference
        .lines()
        .take_while(|l| !l.starts_with("Deepening to depth 2"))
        .map(|l| format!("{l}\n"))
        .collect();
    let student = format!(
        "{head}Deepening to depth 2, moves in order 0, 1, 2
F: state (Maxie,A) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
G: state (Minnie,B) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
F: state (Maxie,E) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
Estimating state E[2]
Result of (Maxie,E) is Leaf(Guess: 2)
F: state (Maxie,F) with ab=(Leaf(Minnie wins!),Step(0, Guess: 2))
Estimating state F[6]
Result of (Maxie,F) is Leaf(Guess: 6)
Result of (Minnie,B) is Step(0, Guess: 2)
G: state (Minnie,C) with ab=(Step(0, Guess: 2),Leaf(Maxie wins!))
F: state (Maxie,G) with ab=(Step(0, Guess: 2),Leaf(Maxie wins!))
Estimating state G[7]
Result of (Maxie,G) is Leaf(Guess: 7)
F: state (Maxie,H) with ab=(Step(0, Guess: 2),Step(0, Guess: 7))
Estimating state H[8]
Result of (Maxie,H) is Leaf(Guess: 8)
Result of (Minnie,C) is Step(0, Guess: 7)
G: state (Minnie,D) with ab=(Step(1, Guess: 7),Leaf(Maxie wins!))
F: state (Maxie,I) with ab=(Step(1, Guess: 7),Leaf(Maxie wins!))
Estimating state I[4]
Result of (Maxie,I) is Leaf(Guess: 4)
Result of (Minnie,D) is Step(0, Guess: 4) (* Pruned *)
Result of (Maxie,A) is Step(1, Guess: 7)
Therefore value of (Maxie,A) is Guess: 7, and best move is 1.
Terminals visited: 5
Overall choice: move 1[middle]
"
    );
    gametrace()
        .args(["check", spec, "--case", "best_first", "--actual", "-"])
        .write_stdin(student)
        .assert()
        .code(1)
        .stdout(contains("first divergence at node A"))
        .stdout(contains(
            "exactly what the reference prints with the mistake deepening-keeps-order",
        ));
}

#[test]
fn a_move_order_that_cannot_apply_exits_2_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let tree = "tree:\n  A:\n    B: {static: 1, D: 3}\n    C: {static: 2, F: 9}\ncases:\n";
    for (case, place, message, hint) in [
        (
            "  c: {algorithm: alphabeta, depth: 2, move_order: best_first}\n",
            "t.yaml:6:39",
            "`move_order` orders the depths of iterative deepening, and this case does not deepen",
            "add `deepening: iterative`",
        ),
        (
            "  c: {algorithm: alphabeta, depth: 2, deepening: iterative, move_order: best_frist}\n",
            "t.yaml:6:73",
            "unknown move order",
            "did you mean `best_first`?",
        ),
    ] {
        let spec = write(dir.path(), "t.yaml", &format!("{tree}{case}"));
        gametrace()
            .args(["validate", spec.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout(contains(place))
            .stdout(contains(message))
            .stdout(contains(hint));
    }
    // CS10's and CSC148's searchers have values of their own: no best-first order there.
    let spec = write(
        dir.path(),
        "k.yaml",
        "game: kalah\npits: 3\nseeds: 2\ncases:\n  n: {algorithm: negamax_ab, depth: 3, deepening: iterative, move_order: best_first}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("k.yaml:5:74"))
        .stdout(contains(
            "`move_order: best_first` is not offered under the cs10 rules",
        ));
}

#[test]
fn bad_static_values_and_deepening_exit_2_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    // A depth that stops at an inner node without a static value names the node and the fix.
    let spec = write(
        dir.path(),
        "t.yaml",
        "tree:\n  A:\n    B: {static: 4, D: 3}\n    C: {F: 9, G: 1}\ncases:\n  d1: {algorithm: minimax, depth: 1}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("t.yaml:6:35"))
        .stdout(contains(
            "node `C` has children but the search reaches it with depth 0",
        ))
        .stdout(contains("give `C` a static value"));
    // Deepening through a node without one.
    let spec = write(
        dir.path(),
        "d.yaml",
        "tree:\n  A:\n    B: {D: 3}\n    C: {F: 9}\ncases:\n  id: {algorithm: alphabeta, depth: 2, deepening: iterative}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("d.yaml:6:51"))
        .stdout(contains(
            "iterative deepening stops at node `B` at depth 1, and it has no static value",
        ));
    // A static value that is not a number.
    let spec = write(
        dir.path(),
        "s.yaml",
        "tree:\n  A:\n    B: {static: high, D: 3}\n    C: 1\ncases:\n  m: {algorithm: minimax}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("s.yaml:3:17"))
        .stdout(contains("the static value of `B` must be an integer"));
    // An exported tree whose leaf carries a static value that disagrees with its estimate.
    let spec = write(
        dir.path(),
        "e.json",
        r#"{"format": "gametrace-tree", "version": 1, "case": "m", "algorithm": "minimax", "depth": 1, "root_player": "Maxie",
 "tree": {"name": "a", "children": [{"name": "b", "value": 3, "static": 4}, {"name": "c", "value": 1}]}}"#,
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("e.json:2:"))
        .stdout(contains(
            "the leaf `b` has a static value that disagrees with its estimate",
        ));
}

#[test]
fn impossible_tic_tac_toe_positions_exit_2_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    for (position, message) in [
        (
            "O../.../...",
            "a tic-tac-toe position with 0 X and 1 O cannot arise",
        ),
        (
            "XX./X../...",
            "a tic-tac-toe position with 3 X and 0 O cannot arise",
        ),
        ("XXX/OOO/...", "both players have a line"),
        ("XXX/OO./O..", "X has won, yet O has moved since"),
        ("OOO/XX./X.X", "O has won, yet X has moved since"),
        ("XO./.../..Z", "`Z` at (3,3) is not a cell"),
        ("XO./...", "the position has 2 rows, and the board 3"),
    ] {
        let spec = write(
            dir.path(),
            "p.yaml",
            &format!(
                "game: tictactoe\nposition: {position}\ncases:\n  m: {{algorithm: minimax}}\n"
            ),
        );
        gametrace()
            .args(["validate", spec.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout(contains("p.yaml:2:"))
            .stdout(contains(message));
    }
    let spec = write(
        dir.path(),
        "k.yaml",
        "game: tictactoe\ncolumns: 3\nrows: 3\nk: 4\ncases:\n  m: {algorithm: minimax}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("k.yaml:4:4"))
        .stdout(contains("4 in a row cannot be made on a 3×3 board"));
    let spec = write(
        dir.path(),
        "u.yaml",
        "game: tictactoe\nutility: {win: -1, draw: 0, loss: 1}\ncases:\n  m: {algorithm: minimax}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("u.yaml:2:10"))
        .stdout(contains("does not rank X's win above a draw"));
}

#[test]
fn tic_tac_toe_is_played_at_the_terminal() {
    // X (a person) takes the centre and a corner; O is alpha-beta to the end.
    gametrace()
        .args(["play", "tictactoe", "--minnie", "alphabeta:9"])
        .write_stdin("(2,2)\n(1,1)\n")
        .assert()
        .code(2)
        .stdout(contains("X, please type your move"))
        .stdout(contains("cannot play (1,1)").or(contains("O decides")));
    gametrace()
        .args(["play", "tictactoe", "--k", "9"])
        .assert()
        .code(2)
        .stderr(contains("9 in a row cannot be made on a 3×3 board"));
}

#[test]
fn chance_trees_give_the_expected_values_worked_by_hand() {
    let doc = json_of(&["run", "specs/textbooks/chance.yaml", "--format", "json"]);
    // As worked in the spec: expectiminimax 5, expectimax 7, both by B (move 0).
    assert_eq!(case(&doc, "expectiminimax")["value"], "5");
    assert_eq!(case(&doc, "expectimax")["value"], "7");
    assert_eq!(case(&doc, "decimals")["value"], "5.00");
    for name in ["expectiminimax", "expectimax"] {
        assert_eq!(case(&doc, name)["best_move"], "0");
        assert_eq!(case(&doc, name)["terminals_visited"], 6);
        assert_eq!(case(&doc, name)["counts"]["nodes_entered"], 11);
    }
    gametrace()
        .args([
            "run",
            "specs/textbooks/chance.yaml",
            "--case",
            "expectiminimax",
        ])
        .assert()
        .success()
        .stdout(contains("Average at C: 5/2\n"))
        .stdout(contains("Best for Minnie at I: 3, by move 1\n"));
    // A student whose chance node forgets the probabilities (a plain mean) parts at B.
    let reference =
        std::fs::read_to_string("expected/textbooks/chance/expectiminimax.trace").unwrap();
    let wrong = reference.replace("Average at B: 5\n", "Average at B: 9/2\n");
    gametrace()
        .args([
            "check",
            "specs/textbooks/chance.yaml",
            "--case",
            "expectiminimax",
            "--actual",
            "-",
        ])
        .write_stdin(wrong)
        .assert()
        .code(1)
        .stdout(contains("first divergence at node B"))
        .stdout(contains("expected: Average at B: 5"));
}

#[test]
fn exported_chance_and_static_trees_load_back() {
    let dir = tempfile::tempdir().unwrap();
    for (spec, case) in [
        ("specs/textbooks/chance.yaml", "expectimax"),
        ("specs/textbooks/static-values.yaml", "depth_2"),
    ] {
        let out = gametrace()
            .args(["export", spec, "--case", case, "--to", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let json = dir.path().join("tree.json");
        std::fs::write(&json, &out.stdout).unwrap();
        let original = gametrace()
            .args(["run", spec, "--case", case])
            .output()
            .unwrap()
            .stdout;
        let again = gametrace().arg("run").arg(&json).output().unwrap();
        assert!(
            again.status.success(),
            "{}",
            String::from_utf8_lossy(&again.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&again.stdout),
            String::from_utf8_lossy(&original),
            "{spec}"
        );
    }
}

#[test]
fn bad_chance_nodes_exit_2_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let tree = |chance: &str| {
        format!(
            "tree:\n  A:\n    B:\n      chance: {chance}\n      D: 3\n      E: 4\n    C: 1\ncases:\n  e: {{algorithm: expectimax}}\n"
        )
    };
    for (chance, at, message) in [
        (
            "{D: 1/3, E: 1/3}",
            "c.yaml:4:7",
            "the probabilities of `B` sum to 2/3, not 1",
        ),
        ("{D: 0.33, E: 0.66}", "c.yaml:4:7", "sum to 99/100, not 1"),
        (
            "{D: -1/2, E: 3/2}",
            "c.yaml:4:19",
            "the probability of `D` is negative",
        ),
        (
            "{D: 1}",
            "c.yaml:4:7",
            "the chance node `B` gives `E` no probability",
        ),
        (
            "{D: 1/2, F: 1/2}",
            "c.yaml:4:24",
            "`F` is not a child of `B`",
        ),
        (
            "{D: half, E: 1/2}",
            "c.yaml:4:19",
            "the probability of `D` is not a number",
        ),
    ] {
        let spec = write(dir.path(), "c.yaml", &tree(chance));
        gametrace()
            .args(["validate", spec.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout(contains(at))
            .stdout(contains(message));
    }
    // Chance nodes under minimax, and a chance node at the root.
    let spec = write(
        dir.path(),
        "m.yaml",
        "tree:\n  A:\n    B: {chance: {D: 1/2, E: 1/2}, D: 3, E: 4}\n    C: 1\ncases:\n  m: {algorithm: minimax}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("m.yaml:6:18"))
        .stdout(contains(
            "the tree has chance nodes (`B`), which minimax cannot search",
        ));
    let spec = write(
        dir.path(),
        "r.yaml",
        "tree:\n  A: {chance: {D: 1/2, E: 1/2}, D: 3, E: 4}\ncases:\n  e: {algorithm: expectiminimax}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("r.yaml:4:18"))
        .stdout(contains("the root `A` is a chance node"));
    // Expectimax needs numeric outcomes: not Connect 4's wins.
    let spec = write(
        dir.path(),
        "g.yaml",
        "game: connect4\ncases:\n  e: {algorithm: expectimax, depth: 2}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("g.yaml:3:3"))
        .stdout(contains("connect4 has no expectimax search"));
    // Decimals only for expectimax, and not too many.
    let spec = write(
        dir.path(),
        "d.yaml",
        "tree:\n  A: {B: 1, C: 2}\ncases:\n  m: {algorithm: minimax, decimals: 2}\n  e: {algorithm: expectimax, decimals: 40}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("`decimals` is a setting of expectimax searches"))
        .stdout(contains("`decimals` is out of range"));
}

#[test]
fn pig_is_searched_by_expectiminimax_as_worked_by_hand() {
    let doc = json_of(&["run", "specs/games/pig/search.yaml", "--format", "json"]);
    // As the spec works it out: rolling is worth 1/2 (a 2 lets p1 stop at the target),
    // stopping 0; 7 positions evaluated.
    for name in ["expectiminimax", "expectimax"] {
        let c = case(&doc, name);
        assert_eq!(c["value"], "1/2", "{name}");
        assert_eq!(c["best_move"], "roll");
        assert_eq!(c["equally_good"], serde_json::json!(["roll"]));
        assert_eq!(c["terminals_visited"], 7);
    }
    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "p.yaml",
        "game: pig\ntarget: 10\nposition: {scores: [10, 12], turn_total: 0}\ncases:\n  m: {algorithm: expectiminimax, depth: 2}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("p.yaml:3:20"))
        .stdout(contains("both players have reached the target"));
    let spec = write(
        dir.path(),
        "m.yaml",
        "game: pig\ntarget: 10\ncases:\n  m: {algorithm: minimax, depth: 2}\n",
    );
    gametrace()
        .args(["validate", spec.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("m.yaml:4:3"))
        .stdout(contains("Pig rolls dice, which minimax cannot search"));
}

#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_cs188_style_expectimax_agent_passes_and_its_buggy_copy_fails_on_the_choice() {
    require("python3");
    let dir = tempfile::tempdir().unwrap();
    let spec = "specs/textbooks/cs188-expectimax.yaml";
    // The student's agent runs on the exported module's GameTreeState.
    let out = gametrace()
        .args(["export", spec, "--to", "python"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let module = dir.path().join("tree.py");
    std::fs::write(&module, &out.stdout).unwrap();
    // The module's own expectimax agrees with gametrace's value (9/2, worked in the spec).
    let value = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import importlib.util as u; s = u.spec_from_file_location('t', {:?}); m = u.module_from_spec(s); s.loader.exec_module(m); print(m.expectimax_value(minimises=False))",
            module.to_str().unwrap()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&value.stdout).trim(), "9/2");
    let agent = format!(
        "python3 tests/fixtures/textbooks/cs188_expectimax.py {} {{depth}}",
        module.to_str().unwrap()
    );
    gametrace()
        .args(["check", spec, "--cmd", &agent])
        .assert()
        .success()
        .stdout(contains(
            "PASS: visited: the 9 states visited and the chosen move match",
        ));
    // Averaging the chance node uniformly values B at 6 and moves there: same states, wrong
    // choice, as the spec predicts.
    gametrace()
        .args(["check", spec, "--cmd", &format!("{agent} --uniform-chance")])
        .assert()
        .code(1)
        .stdout(contains("expected: chosen move: 1"))
        .stdout(contains("actual: chosen move: 0"));
}

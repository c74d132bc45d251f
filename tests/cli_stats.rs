//! `gametrace stats`: work and span of each search on a spec's tree.

use assert_cmd::Command;
use predicates::str::contains;

fn gametrace() -> Command {
    Command::cargo_bin("gametrace").unwrap()
}

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";

#[test]
fn the_small_handout_tree_table() {
    // Worked by hand (see src/stats.rs's unit test): minimax 13 nodes in a span of 3,
    // alpha-beta 11 in 11, Jamboree 0.5 all 13 in 7 (Figure 5's upper trace visits 9
    // terminals, the lower 7).
    gametrace()
        .args(["stats", S14_SMALL])
        .assert()
        .success()
        .stdout(contains(
            "HandoutSmall (15-150 S14 HW11, Figure 5): 13 nodes, 9 leaves, height 2\n",
        ))
        .stdout(contains(
            "search                 nodes  terminals   work   span\n",
        ))
        .stdout(contains(
            "\nminimax                   13          9     13      3\n",
        ))
        .stdout(contains(
            "\nalphabeta                 11          7     11     11\n",
        ))
        .stdout(contains(
            "\njamboree 0.5              13          9     13      7\n",
        ))
        .stdout(contains(
            "\ncase jamboree             13          9     13      7\n",
        ));
}

/// The handout: "MiniMax does more work, but has a better span, whereas alpha-beta pruning
/// does less work, but has a worse span", and Jamboree manages the trade-off between them.
#[test]
fn on_both_handout_trees_jamboree_sits_between_minimax_and_alpha_beta() {
    for spec in [
        S14_SMALL,
        "specs/15150-s14/handout-big.yaml",
        "specs/15150-s12/handout-small.yaml",
        "specs/15150-s12/handout-big.yaml",
    ] {
        let out = gametrace()
            .args(["stats", spec, "--format", "json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let rows = doc["searches"].as_array().unwrap();
        let find = |name: &str| {
            let r = rows.iter().find(|r| r["search"] == name).unwrap();
            (r["work"].as_u64().unwrap(), r["span"].as_u64().unwrap())
        };
        let (mm, ab) = (find("minimax"), find("alphabeta"));
        assert!(
            mm.0 > ab.0 && mm.1 < ab.1,
            "{spec}: minimax {mm:?}, alphabeta {ab:?}"
        );
        for p in ["0", "0.25", "0.5", "0.75", "1"] {
            let j = find(&format!("jamboree {p}"));
            assert!(
                ab.0 <= j.0 && j.0 <= mm.0,
                "{spec}: jamboree {p} work {j:?}"
            );
            assert!(
                mm.1 <= j.1 && j.1 <= ab.1,
                "{spec}: jamboree {p} span {j:?}"
            );
        }
    }
}

#[test]
fn csv_for_spreadsheets() {
    gametrace()
        .args(["stats", S14_SMALL, "--format", "csv"])
        .assert()
        .success()
        .stdout(contains(
            "search,algorithm,prune_percentage,rules,nodes_visited,terminals_visited,work,span\n",
        ))
        .stdout(contains("\nminimax,minimax,,s14,13,9,13,3\n"))
        .stdout(contains("\njamboree 0.25,jamboree,0.25,s14,13,9,13,3\n"));
}

#[test]
fn a_task_spec_has_no_tree_to_count() {
    gametrace()
        .args(["stats", "specs/graphs/is-simple.yaml"])
        .assert()
        .code(2)
        .stderr(contains("`stats` works on game trees"));
}

//! `gametrace stats`: work and span of each search on a spec's tree.

use predicates::str::contains;

mod common;
use common::cli::gametrace;

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

#[test]
fn coverage_says_a_strict_cut_passes_handout_small() {
    // The issue's own finding: HandoutSmall never ties between the bounds, so `>` for `>=`
    // goes unseen by its alpha-beta case; Minnie's root has a tie and catches it.
    let out = gametrace()
        .args(["stats", "specs/15150-s14/handout-small.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |case: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("  {case} ")))
            .unwrap_or_else(|| panic!("no coverage line for {case}:\n{text}"))
            .to_owned()
    };
    assert!(
        line("alphabeta").contains("a program with strict-cut"),
        "{text}"
    );
    assert!(!line("minnie-alphabeta").contains("strict-cut"), "{text}");
}

#[test]
fn the_discriminating_tree_tells_the_mistakes_apart_as_its_header_says() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("hidden.yaml");
    let out = gametrace()
        .args(["new", "--discriminating"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&spec, &out.stdout).unwrap();
    let header = String::from_utf8(out.stdout).unwrap();
    // Every case of the spec, every mistake its coverage says it catches: run the mistake
    // with `explain --trace` and compare with the reference and with each other.
    let json = gametrace()
        .args(["stats", "--format", "json"])
        .arg(&spec)
        .output()
        .unwrap()
        .stdout;
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let (mut told_apart, mut applicable, mut never_apart) = (0, 0, 0);
    for c in doc["coverage"].as_array().unwrap() {
        let case = c["case"].as_str().unwrap();
        let names = |k: &str| -> Vec<String> {
            c[k].as_array()
                .unwrap()
                .iter()
                .flat_map(|v| match v.as_array() {
                    Some(group) => group
                        .iter()
                        .map(|g| g.as_str().unwrap().to_owned())
                        .collect(),
                    None => vec![v.as_str().unwrap().to_owned()],
                })
                .collect()
        };
        let (missed, alike, inseparable) = (names("missed"), names("alike"), names("inseparable"));
        // Every mistake is caught, and only the pairs no tree can separate print alike.
        assert!(missed.is_empty() && alike.is_empty(), "{case}: {c}");
        applicable += names("applicable").len();
        never_apart += inseparable.len();
        let reference = gametrace()
            .arg("run")
            .arg(&spec)
            .args(["--case", case])
            .output()
            .unwrap()
            .stdout;
        let mut traces: Vec<(String, Vec<u8>)> = Vec::new();
        let mut alike_traces: Vec<Vec<u8>> = Vec::new();
        for m in names("applicable") {
            let t = gametrace()
                .arg("explain")
                .arg(&spec)
                .args(["--case", case, "--bug", &m, "--trace"])
                .output()
                .unwrap()
                .stdout;
            assert_eq!(t == reference, missed.contains(&m), "{case} {m}");
            if inseparable.contains(&m) {
                alike_traces.push(t);
            } else if !missed.contains(&m) && !alike.contains(&m) {
                traces.push((m, t));
            }
        }
        // The inseparable pair does print one trace, unlike the reference's.
        if let Some(first) = alike_traces.first() {
            assert!(alike_traces.iter().all(|t| t == first), "{case}");
            assert_ne!(first, &reference, "{case}");
        }
        for (i, (a, ta)) in traces.iter().enumerate() {
            for (b, tb) in &traces[i + 1..] {
                assert_ne!(ta, tb, "{case}: {a} and {b} print the same trace");
            }
        }
        told_apart += traces.len();
        assert!(
            header.contains(&format!("#   {case}: {} of", traces.len())),
            "{header}"
        );
    }
    // The whole catalogue, in every case, but S12 Jamboree's ties-other-way and
    // jamboree-folds-out-of-order, which print the same trace on every tree (58 of 60 today).
    assert_eq!(told_apart + never_apart, applicable);
    assert_eq!(never_apart, 2);
}

//! `gametrace validate`: every problem of a spec at once, each placed at its line and column,
//! for people and (with --format json) for editors.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::gametrace;

const FAULTY: &str = "tests/fixtures/specs/several-faults.yaml";

/// Every fault planted in several-faults.yaml, where it is (line, column) and what is said.
/// The columns are counted in the fixture: `d: six` has `six` at column 18, and so on.
const PLANTED: &[(&str, usize, usize, &str)] = &[
    ("warning", 2, 28, "move names `right`, `far` are never used"),
    ("error", 5, 18, "the leaf `d` must be an integer"),
    ("warning", 6, 15, "node name `c` is used twice"),
    // `case `ab` has no `algorithm`` follows from it: named in its hint, not listed.
    ("error", 9, 5, "unknown key `algoritm` in case `ab`"),
    (
        "error",
        10,
        12,
        "node `b` has children but the search reaches it with depth 0",
    ),
    (
        "error",
        13,
        23,
        "`prune_percentage` must be a fraction from 0 to 1",
    ),
    ("error", 14, 14, "unknown dialect"),
    ("error", 17, 20, "unknown line kind"),
];

#[test]
fn a_spec_with_several_faults_gets_all_of_them_reported() {
    let mut assert = gametrace()
        .args(["validate", FAULTY])
        .assert()
        .code(2)
        .stdout(contains("panicked").not());
    for (severity, line, col, message) in PLANTED {
        assert = assert.stdout(contains(format!(
            "{severity}: {message}\n  --> {FAULTY}:{line}:{col}\n"
        )));
    }
    assert
        .stdout(contains(
            "hint: did you mean `algorithm`? (that also explains: case `ab` has no `algorithm`)",
        ))
        .stdout(contains("hint: did you mean `s12`?"))
        .stdout(contains("hint: set `depth: 2`"))
        .stdout(contains("the first is at line 5, column 9"))
        .stdout(contains(format!(
            "{FAULTY}: invalid, 6 errors, 2 warnings\n1 spec checked: 1 invalid; 6 errors, 2 warnings\n"
        )));
}

#[test]
fn run_still_stops_at_the_first_error_found() {
    gametrace()
        .args(["run", FAULTY])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(format!(
            "error: the leaf `d` must be an integer\n  --> {FAULTY}:5:18"
        )))
        .stderr(contains("unknown dialect").not());
}

#[test]
fn json_lists_every_problem_for_editors() {
    let out = gametrace()
        .args(["validate", "--format", "json", FAULTY])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["valid"], false);
    assert_eq!(doc["errors"], 6);
    assert_eq!(doc["warnings"], 2);
    let problems = doc["problems"].as_array().unwrap();
    let got: Vec<(String, u64, u64, String)> = problems
        .iter()
        .map(|p| {
            assert_eq!(p["file"], FAULTY);
            assert!(p["expected"].is_string() && p["found"].is_string(), "{p}");
            (
                p["severity"].as_str().unwrap().to_owned(),
                p["line"].as_u64().unwrap(),
                p["column"].as_u64().unwrap(),
                p["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, u64, u64, String)> = PLANTED
        .iter()
        .map(|(s, l, c, m)| (s.to_string(), *l as u64, *c as u64, m.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn the_projects_specs_are_valid() {
    gametrace()
        .args(["validate", "specs"])
        .assert()
        .success()
        .stdout(contains("specs/15150-s14/handout-big.yaml: valid\n"))
        .stdout(contains("invalid, ").not())
        .stdout(contains("; 0 errors, 0 warnings\n"));
}

#[test]
fn warnings_alone_leave_a_spec_valid() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("dup.yaml"),
        "tree: {a: {b: {c: 1, d: 2}, e: {c: 3, f: 4}}}\ncases: {ab: {algorithm: alphabeta}}\n",
    )
    .unwrap();
    gametrace()
        .args(["validate", "dup.yaml"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains(
            "warning: node name `c` is used twice\n  --> dup.yaml:1:33",
        ))
        .stdout(contains("dup.yaml: valid, 1 warning\n"));
}

#[test]
fn an_expected_trace_no_case_writes_is_named_with_the_case_it_was_likely_meant_for() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("specs")).unwrap();
    std::fs::create_dir_all(dir.path().join("expected/small")).unwrap();
    std::fs::write(
        dir.path().join("specs/small.yaml"),
        "tree: {a: {b: 1, c: 2}}\ncases: {alphabeta: {algorithm: alphabeta}}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("expected/small/alphabeta.trace"), "x\n").unwrap();
    std::fs::write(dir.path().join("expected/small/alphabetta.trace"), "x\n").unwrap();
    gametrace()
        .args(["validate", "specs"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains(
            "warning: expected trace `expected/small/alphabetta.trace` belongs to no case",
        ))
        .stdout(contains("hint: did you mean `alphabeta`?"))
        .stdout(contains("expected/small/alphabeta.trace").not());
}

#[test]
fn unreadable_and_unparsable_specs_are_problems_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.yaml"), "tree: {a: [\n").unwrap();
    gametrace()
        .args(["validate", "missing.yaml", "broken.yaml"])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stdout(contains("error: cannot read the spec"))
        .stdout(contains("--> missing.yaml\n"))
        .stdout(contains(
            "error: the spec is not valid YAML\n  --> broken.yaml:",
        ))
        .stdout(contains("2 specs checked: 2 invalid; 2 errors, 0 warnings"));
}

#[test]
fn every_case_of_a_task_spec_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("task.yaml"),
        "task: is_simple\ncases:\n  one: {args: [\"<<1>,<0>>\"], expect: true, colour: red}\n  two: {args: [\"<<1>,<0>>\"], expect: maybe}\n",
    )
    .unwrap();
    gametrace()
        .args(["validate", "task.yaml"])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stdout(contains(
            "unknown key `colour` in case `one`\n  --> task.yaml:3:44",
        ))
        .stdout(contains(
            "`expect` is not a value in SML notation\n  --> task.yaml:4:38",
        ))
        .stdout(contains("task.yaml: invalid, 2 errors"));
}

#[test]
fn a_tab_is_reported_where_it_is_and_called_a_tab() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("tabbed.yaml");
    // Line 9 is indented with a tab; yaml-rust2 notices at 8:16, scanning `alphabeta`.
    std::fs::write(
        &spec,
        "title: t\ntree:\n  a:\n    b: 1\n    e: 2\ncases:\n  ab:\n    algorithm: alphabeta\n\tdepth: 1\n",
    )
    .unwrap();
    gametrace()
        .arg("validate")
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(
            contains("a tab in the indentation")
                .and(contains("tabbed.yaml:9:1"))
                .and(contains("YAML forbids tabs for indentation"))
                .and(contains("while scanning a plain scalar").not()),
        );
}

#[test]
fn too_few_move_names_is_a_warning_naming_the_unnamed_moves() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("names.yaml");
    std::fs::write(
        &spec,
        "move_names: [left]\ntree:\n  a:\n    b: {c: 1, d: 2}\n    e: {f: 3, g: 4}\n    h: {i: 5}\ncases:\n  ab: {algorithm: alphabeta}\n",
    )
    .unwrap();
    gametrace()
        .arg("validate")
        .arg(&spec)
        .assert()
        .success()
        .stdout(
            contains("warning: 2 of the root's 3 moves have no name")
                .and(contains("names.yaml:1:13"))
                .and(contains("unnamed: move 1 (to `e`), move 2 (to `h`)")),
        );
}

#[test]
fn a_misspelt_key_comes_alone_and_explains_what_it_caused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, cause, consequence) in [
        (
            "pp.yaml",
            "tree:\n  a: {b: 1, c: 2}\ncases:\n  j:\n    algorithm: jamboree\n    prune_percentge: 0.5\n",
            "did you mean `prune_percentage`?",
            "case `j` runs Jamboree without `prune_percentage`",
        ),
        (
            "cc.yaml",
            "tree:\n  a: {b: 1, c: 2}\ncase:\n  j:\n    algorithm: alphabeta\n",
            "did you mean `cases`?",
            "the spec has no `cases`",
        ),
    ] {
        let spec = dir.path().join(name);
        std::fs::write(&spec, text).unwrap();
        let out = gametrace().arg("validate").arg(&spec).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("1 error, 0 warnings"), "{text}");
        assert!(text.starts_with("error: unknown key"), "{text}");
        assert!(
            text.contains(&format!("{cause} (that also explains: {consequence})")),
            "{text}"
        );
        // `run` stops at the same root cause.
        gametrace()
            .arg("run")
            .arg(&spec)
            .assert()
            .code(2)
            .stderr(contains("error: unknown key"));
    }
}

#[test]
fn a_bad_visibility_or_a_broken_exported_tree_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("vis.yaml");
    std::fs::write(
        &spec,
        "tree:\n  a: {b: 1, c: 2}\ncases:\n  ab:\n    algorithm: alphabeta\n    visibility: hiden\n",
    )
    .unwrap();
    gametrace()
        .arg("validate")
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(
            contains("error: unknown visibility")
                .and(contains("vis.yaml:6:17"))
                .and(contains("visible, hidden, after_due_date, after_published"))
                .and(contains("did you mean `hidden`?")),
        );
    // An exported document whose leaf has both `children` and `value`.
    let json = dir.path().join("tree.json");
    std::fs::write(
        &json,
        "{\"format\": \"gametrace-tree\", \"version\": 1, \"case\": \"x\", \"algorithm\": \"minimax\",\n \"tree\": {\"name\": \"a\", \"children\": [{\"name\": \"b\", \"value\": 1, \"children\": []}]}}\n",
    )
    .unwrap();
    gametrace().arg("run").arg(&json).assert().code(2).stderr(
        contains("has both `children` and `value`")
            .and(contains("tree.json:2:"))
            .and(contains("panicked").not()),
    );
}

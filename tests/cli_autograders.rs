//! The autograder recipes in docs/autograders/ run for real, so they cannot rot: Gradescope's
//! `run_autograder` against a fake `/autograder` tree, PrairieLearn's `run.sh` against a fake
//! `/grade` tree, each with a student's Python alpha-beta, and the results file they write
//! checked against the shape its platform documents.

use assert_cmd::cargo::cargo_bin;
use std::path::Path;

mod common;
use common::cli::ROOT;

/// HandoutSmall: two S12 cases (2 points and 1) and a hidden one.
const SPEC: &str = "move_names: [left, middle, right]
tree:
  a:
    b: {c: 3, d: 6, e: -2}
    f: {g: 6, h: 4, i: 10}
    j: {k: 1, l: 30, m: 9}
cases:
  alphabeta: {algorithm: alphabeta, dialect: s12, points: 2}
  value: {algorithm: alphabeta, dialect: s12, check: value}
  secret: {algorithm: alphabeta, dialect: s12, visibility: hidden}
";

/// Gradescope's results.json: `score`, `output`, and `tests` with `score`, `max_score`,
/// `name`, `status` (passed or failed), `output`, `output_format` (text, html,
/// simple_format, md, ansi) and `visibility` (visible, hidden, after_due_date,
/// after_published), as Gradescope's autograder specification lists them.
const GRADESCOPE_SHAPE: &str = r#"{
  "type": "object",
  "required": ["tests"],
  "properties": {
    "score": {"type": "number", "minimum": 0},
    "max_score": {"type": "number", "minimum": 0},
    "output": {"type": "string"},
    "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
    "tests": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "score", "max_score"],
        "properties": {
          "name": {"type": "string"},
          "score": {"type": "number", "minimum": 0},
          "max_score": {"type": "number", "minimum": 0},
          "status": {"enum": ["passed", "failed"]},
          "output": {"type": "string"},
          "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
          "visibility": {"enum": ["visible", "hidden", "after_due_date", "after_published"]}
        }
      }
    }
  }
}"#;

const PRAIRIELEARN_SHAPE: &str = r#"{
  "type": "object",
  "properties": {
    "gradable": {"type": "boolean"},
    "score": {"type": "number", "minimum": 0, "maximum": 1},
    "message": {"type": "string"},
    "output": {"type": "string"},
    "format_errors": {"type": ["string", "array"]},
    "tests": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "points", "max_points"],
        "properties": {
          "name": {"type": "string"},
          "description": {"type": "string"},
          "points": {"type": "number"},
          "max_points": {"type": "number"},
          "message": {"type": "string"},
          "output": {"type": "string"}
        }
      }
    }
  }
}"#;

fn valid(shape: &str, json: &serde_json::Value) {
    let shape: serde_json::Value = serde_json::from_str(shape).unwrap();
    let v = jsonschema::validator_for(&shape).unwrap();
    let problems: Vec<String> = v.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(problems.is_empty(), "{problems:?}\n{json:#}");
}

/// Runs a recipe script with `env`, as the platform would; it must exit 0.
fn run_script(script: &Path, env: &[(&str, &Path)]) {
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(script);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A student's files: the Python alpha-beta, right or wrong, or nothing.
fn student(dir: &Path, program: Option<&str>) {
    std::fs::create_dir_all(dir).unwrap();
    if let Some(p) = program {
        std::fs::copy(
            format!("{ROOT}/tests/fixtures/python/{p}"),
            dir.join("alphabeta.py"),
        )
        .unwrap();
    }
}

#[test]
fn the_gradescope_recipe_grades_a_submission_into_results_json() {
    for (program, score) in [
        (Some("alphabeta_s12.py"), 4.0),
        (Some("alphabeta_s12_buggy.py"), 1.0),
        (None, 0.0),
    ] {
        let fake = tempfile::tempdir().unwrap();
        let root = fake.path();
        let source = root.join("source");
        std::fs::create_dir_all(source.join("specs")).unwrap();
        std::fs::write(source.join("specs/small.yaml"), SPEC).unwrap();
        for f in ["run_autograder", "setup.sh"] {
            std::fs::copy(
                format!("{ROOT}/docs/autograders/gradescope/{f}"),
                source.join(f),
            )
            .unwrap();
        }
        student(&root.join("submission"), program);
        run_script(
            &source.join("run_autograder"),
            &[
                ("AUTOGRADER_ROOT", root),
                ("GAMETRACE", &cargo_bin("gametrace")),
            ],
        );
        let text = std::fs::read_to_string(root.join("results/results.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        valid(GRADESCOPE_SHAPE, &json);
        assert_eq!(json["score"], score, "{program:?}: {text}");
        assert_eq!(json["max_score"], 4.0);
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0]["name"], "specs/small.yaml alphabeta");
        assert_eq!(tests[0]["output_format"], "html");
        assert_eq!(tests[2]["visibility"], "hidden");
        if program == Some("alphabeta_s12_buggy.py") {
            let out = tests[0]["output"].as_str().unwrap();
            assert!(out.contains("class=\"divergence\""), "{out}");
            assert!(out.contains("original-bounds"));
            // The hidden case shows the student no reference line and no tree.
            let hidden = tests[2]["output"].as_str().unwrap();
            assert!(!hidden.contains("<svg"), "{hidden}");
            assert!(
                hidden.contains("only its verdict and your own program"),
                "{hidden}"
            );
            assert!(!hidden.contains("expected"), "{hidden}");
        }
    }
}

#[test]
fn the_gradescope_recipe_still_writes_results_when_nothing_can_be_graded() {
    let fake = tempfile::tempdir().unwrap();
    let root = fake.path();
    let source = root.join("source");
    std::fs::create_dir_all(source.join("specs")).unwrap();
    // A spec that does not load: every test is an ERROR, but students get a results file.
    std::fs::write(source.join("specs/broken.yaml"), "tree: {a: [\n").unwrap();
    std::fs::copy(
        format!("{ROOT}/docs/autograders/gradescope/run_autograder"),
        source.join("run_autograder"),
    )
    .unwrap();
    student(&root.join("submission"), Some("alphabeta_s12.py"));
    run_script(
        &source.join("run_autograder"),
        &[
            ("AUTOGRADER_ROOT", root),
            ("GAMETRACE", &cargo_bin("gametrace")),
        ],
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("results/results.json")).unwrap())
            .unwrap();
    valid(GRADESCOPE_SHAPE, &json);
    assert_eq!(json["score"], 0.0);
}

#[test]
fn the_prairielearn_recipe_grades_a_submission_into_results_json() {
    for (program, score, gradable) in [
        (Some("alphabeta_s12.py"), 1.0, true),
        (Some("alphabeta_s12_buggy.py"), 0.25, true),
    ] {
        let fake = tempfile::tempdir().unwrap();
        let root = fake.path();
        std::fs::create_dir_all(root.join("tests/specs")).unwrap();
        std::fs::write(root.join("tests/specs/small.yaml"), SPEC).unwrap();
        student(&root.join("student"), program);
        run_script(
            Path::new(&format!("{ROOT}/docs/autograders/prairielearn/run.sh")),
            &[("GRADE_ROOT", root), ("GAMETRACE", &cargo_bin("gametrace"))],
        );
        let text = std::fs::read_to_string(root.join("results/results.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        valid(PRAIRIELEARN_SHAPE, &json);
        assert_eq!(json["score"], score, "{text}");
        assert_eq!(json["gradable"], gradable);
        assert_eq!(json["tests"][0]["name"], "specs/small.yaml alphabeta");
        assert_eq!(json["tests"][0]["max_points"], 2.0);
    }
}

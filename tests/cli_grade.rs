//! Grading: `gametrace test --against CMD` over every case with points, and the reports for
//! CI and autograders, each parsed as its consumer would.

use assert_cmd::Command;
use predicates::str::contains;
use std::path::{Path, PathBuf};

const PYTHON: &str = "python3 tests/fixtures/python/alphabeta_s12.py {tree_json}";

/// A course directory with one spec: HandoutSmall, two S12 cases the Python alpha-beta gets
/// right (2 points and 1) and an S14 case it cannot (it prints the S12 trace): 3 / 4.
fn course() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let spec = specs.join("small.yaml");
    std::fs::write(
        &spec,
        "move_names: [left, middle, right]\n\
         tree:\n  a:\n    b: {c: 3, d: 6, e: -2}\n    f: {g: 6, h: 4, i: 10}\n    j: {k: 1, l: 30, m: 9}\n\
         cases:\n\
         \x20 s12-alphabeta:\n    algorithm: alphabeta\n    dialect: s12\n    points: 2\n\
         \x20 s12-value:\n    algorithm: alphabeta\n    dialect: s12\n    check: value\n\
         \x20 s14-alphabeta:\n    algorithm: alphabeta\n    dialect: s14\n",
    )
    .unwrap();
    (dir, spec)
}

fn grade(spec: &Path, format: &str) -> Command {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("test")
        .arg(spec)
        .args(["--against", PYTHON, "--format", format, "--color", "never"]);
    c
}

#[test]
fn human_report_gives_each_case_and_the_score() {
    let (_dir, spec) = course();
    let shown = spec.display().to_string();
    grade(&spec, "human")
        .assert()
        .code(1)
        .stdout(contains(format!(
            "PASS    {shown} s12-alphabeta: full: all 31 trace lines match\n"
        )))
        .stdout(contains(format!(
            "PASS    {shown} s12-value: value: root value: Guess:4, chosen move: 1: match\n"
        )))
        .stdout(contains(format!("FAIL    {shown} s14-alphabeta: full:")))
        .stdout(contains("2 passed, 1 failed; score 3 / 4\n"));
}

#[test]
fn junit_has_a_named_suite_per_spec_and_failures_with_the_divergence() {
    use quick_xml::events::Event;
    let (_dir, spec) = course();
    let out = grade(&spec, "junit")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let mut reader = quick_xml::Reader::from_reader(out.as_slice());
    let mut buf = Vec::new();
    let (mut suites, mut cases, mut failures) = (Vec::new(), 0, Vec::new());
    let mut in_failure = false;
    let mut failure_text = String::new();
    loop {
        match reader.read_event_into(&mut buf).expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &[u8]| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == name)
                        .map(|a| {
                            a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                                .unwrap()
                                .into_owned()
                        })
                };
                match e.name().as_ref() {
                    b"testsuite" => suites.push((
                        attr(b"name").unwrap(),
                        attr(b"tests").unwrap(),
                        attr(b"failures").unwrap(),
                    )),
                    b"testcase" => cases += 1,
                    b"failure" => {
                        failures.push(attr(b"message").unwrap());
                        in_failure = true;
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_failure => failure_text.push_str(&t.decode().unwrap()),
            Event::End(e) if e.name().as_ref() == b"failure" => in_failure = false,
            _ => {}
        }
        buf.clear();
    }
    assert_eq!(
        suites,
        [(spec.display().to_string(), "3".to_owned(), "1".to_owned())]
    );
    assert_eq!(cases, 3);
    assert_eq!(failures.len(), 1);
    assert!(failures[0].starts_with("full: "), "{failures:?}");
    assert!(
        failure_text.contains("first divergence at node a: the root"),
        "{failure_text}"
    );
}

#[test]
fn tap_14_has_a_plan_and_yaml_diagnostics() {
    let (_dir, spec) = course();
    let out = grade(&spec, "tap")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "TAP version 14");
    assert_eq!(lines[1], "1..3");
    let shown = spec.display().to_string();
    assert_eq!(lines[2], format!("ok 1 - {shown} s12-alphabeta"));
    assert_eq!(lines[3], format!("ok 2 - {shown} s12-value"));
    assert_eq!(lines[4], format!("not ok 3 - {shown} s14-alphabeta"));
    // The diagnostics block is YAML between `  ---` and `  ...`.
    assert_eq!(lines[5], "  ---");
    let end = lines.iter().position(|l| *l == "  ...").unwrap();
    let block: String = lines[6..end]
        .iter()
        .map(|l| format!("{}\n", &l[2..]))
        .collect();
    let docs = yaml_rust2::YamlLoader::load_from_str(&block).expect("valid YAML");
    let d = &docs[0];
    assert_eq!(d["status"].as_str(), Some("FAIL"));
    assert_eq!(d["max_points"].as_i64(), Some(1));
    assert!(d["details"]
        .as_str()
        .unwrap()
        .contains("first divergence at node a"));
}

#[test]
fn gradescope_results_json_has_scores_and_tests() {
    let (_dir, spec) = course();
    let out = grade(&spec, "gradescope")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
    assert_eq!(v["score"], 3.0);
    assert_eq!(v["max_score"], 4.0);
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    assert_eq!(tests[0]["score"], 2.0);
    assert_eq!(tests[0]["max_score"], 2.0);
    assert_eq!(tests[0]["status"], "passed");
    assert_eq!(tests[2]["status"], "failed");
    assert_eq!(tests[2]["score"], 0.0);
    assert!(tests[2]["output"]
        .as_str()
        .unwrap()
        .contains("first divergence"));
    assert!(tests[2]["name"]
        .as_str()
        .unwrap()
        .ends_with(" s14-alphabeta"));
}

#[test]
fn autolab_ends_with_a_scores_line_and_output_files_are_written_whole() {
    let (dir, spec) = course();
    let out = grade(&spec, "autolab")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let last = text.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).expect("a JSON last line");
    let shown = spec.display().to_string();
    assert_eq!(v["scores"][format!("{shown} s12-alphabeta")], 2.0);
    assert_eq!(v["scores"][format!("{shown} s14-alphabeta")], 0.0);
    // --output: the report goes to the file, a summary to stdout.
    let file = dir.path().join("results.json");
    grade(&spec, "json")
        .arg("--output")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(contains("2 passed, 1 failed; score 3 / 4 (report in"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["format"], "gametrace-report");
    assert_eq!(v["cases"][2]["status"], "fail");
    // An unwritable report (its directory is a file) is exit 2 with a reason.
    grade(&spec, "json")
        .arg("--output")
        .arg(file.join("x.json"))
        .assert()
        .code(2)
        .stderr(contains("cannot write the report to"));
}

#[test]
fn the_expected_file_suite_reports_in_every_format_too() {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    let out = c
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["test", "specs/15150-s14", "--format", "junit"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("<testsuite name=\"specs/15150-s14/handout-big.yaml\""),
        "{text}"
    );
    assert!(!text.contains("<failure"));
}

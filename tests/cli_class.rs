//! Grading a whole class: `gametrace grade` over a folder of 50 submissions (correct, buggy,
//! crashing, looping, flooding, empty, and ones that leave processes behind), the gradebook,
//! the summary, the progress lines, resuming, and the same output for any number of jobs; and
//! `test --against --jobs`.

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::{Path, PathBuf};

mod common;
use common::cli::gametrace;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/python");

/// HandoutSmall with two S12 cases the Python alpha-beta gets right (2 points and 1) and an
/// S14 case it cannot (it prints S12's trace): a correct submission scores 3 of 4.
const SPEC: &str = "move_names: [left, middle, right]
tree:
  a:
    b: {c: 3, d: 6, e: -2}
    f: {g: 6, h: 4, i: 10}
    j: {k: 1, l: 30, m: 9}
cases:
  s12-alphabeta: {algorithm: alphabeta, dialect: s12, points: 2}
  s12-value: {algorithm: alphabeta, dialect: s12, check: value}
  s14-alphabeta: {algorithm: alphabeta, dialect: s14}
";

/// What each kind of submission scores, and its count: a class of 50.
const KINDS: [(&str, usize, &str); 7] = [
    ("correct", 20, "3"),
    // Searches every child with the node's first bounds: s12-alphabeta fails (and is named),
    // the value is still right.
    ("buggy", 10, "1"),
    ("crash", 5, "0"),
    ("loop", 5, "0"),
    ("flood", 5, "0"),
    // No file at all: python3 cannot open it.
    ("empty", 3, "0"),
    // Starts a process that would sleep for 987.654 s, then does the work.
    ("spawner", 2, "3"),
];

/// A class of 10, one or more of each kind.
const FEW: [(&str, usize, &str); 7] = [
    ("correct", 3, "3"),
    ("buggy", 2, "1"),
    ("crash", 1, "0"),
    ("loop", 1, "0"),
    ("flood", 1, "0"),
    ("empty", 1, "0"),
    ("spawner", 1, "3"),
];

/// A course folder: `specs/small.yaml` and `subs/` with the submissions, `sNN-kind`.
fn class(
    kinds: &[(&'static str, usize, &'static str)],
) -> (tempfile::TempDir, Vec<(String, &'static str)>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("specs")).unwrap();
    std::fs::write(root.join("specs/small.yaml"), SPEC).unwrap();
    let correct = std::fs::read_to_string(format!("{FIXTURES}/alphabeta_s12.py")).unwrap();
    let buggy = std::fs::read_to_string(format!("{FIXTURES}/alphabeta_s12_buggy.py")).unwrap();
    let mut made = Vec::new();
    let mut n = 0;
    for &(kind, count, score) in kinds {
        for _ in 0..count {
            let name = format!("s{n:02}-{kind}");
            n += 1;
            let sub = root.join("subs").join(&name);
            std::fs::create_dir_all(&sub).unwrap();
            let program = match kind {
                "correct" => correct.clone(),
                "buggy" => buggy.clone(),
                "crash" => "raise RuntimeError('boom')\n".to_owned(),
                "loop" => "while True:\n    pass\n".to_owned(),
                "flood" => {
                    "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n".to_owned()
                }
                "spawner" => {
                    format!("import subprocess\nsubprocess.Popen(['sleep', '987.654'])\n{correct}")
                }
                _ => String::new(),
            };
            if kind != "empty" {
                std::fs::write(sub.join("alphabeta.py"), program).unwrap();
            }
            made.push((name, score));
        }
    }
    // A file beside the folders is not a submission.
    std::fs::write(root.join("subs/README.txt"), "not a submission").unwrap();
    (dir, made)
}

fn grade(root: &Path, out: &str, jobs: &str) -> assert_cmd::assert::Assert {
    gametrace()
        .current_dir(root)
        .args([
            "grade",
            "subs",
            "--against",
            "python3 alphabeta.py {tree_json}",
            "--specs",
            "specs",
            "--out",
            out,
            "--timeout",
            "1",
            "--jobs",
            jobs,
        ])
        .assert()
}

/// Processes still running whose command line holds `needle`.
fn running(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(needle) {
                found.push(text);
            }
        }
    }
    found
}

#[test]
fn a_class_of_fifty_is_graded_with_a_gradebook_a_summary_and_nothing_left_running() {
    let (dir, made) = class(&KINDS);
    let root = dir.path();
    let assert = grade(root, "grades", "4").success();
    let out = assert.get_output();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();

    // The gradebook: a row a submission, a column a case, each kind scored as it should be.
    let csv = std::fs::read_to_string(root.join("grades/gradebook.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "submission,score,max_score,specs/small.yaml s12-alphabeta,specs/small.yaml s12-value,specs/small.yaml s14-alphabeta,problems"
    );
    assert_eq!(lines.len(), 51);
    for ((name, score), line) in made.iter().zip(&lines[1..]) {
        assert!(
            line.starts_with(&format!("{name},{score},4,")),
            "{line} (expected {name} to score {score})"
        );
    }
    // What went wrong is in the problems column: every case of a looping program timed
    // out, a flooding one hit the output limit, an empty one lacks the file its command names.
    let row = |prefix: &str| {
        lines
            .iter()
            .find(|l| l.contains(prefix))
            .unwrap()
            .to_owned()
    };
    assert!(row("-loop,").contains("TIMEOUT specs/small.yaml s12-alphabeta"));
    assert!(row("-flood,").contains("OUTPUT-LIMIT specs/small.yaml s14-alphabeta"));
    // The empty submission has no file the command names: NOT-FOUND, never a traceback.
    assert!(row("-empty,").contains("NOT-FOUND specs/small.yaml s12-value"));
    assert!(row("-correct,").ends_with(','));

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("grades/gradebook.json")).unwrap())
            .unwrap();
    assert_eq!(json["format"], "gametrace-gradebook");
    assert_eq!(json["submissions"].as_array().unwrap().len(), 50);
    let buggy = &json["submissions"][20];
    assert_eq!(buggy["submission"], "s20-buggy");
    assert_eq!(buggy["cases"][0]["status"], "FAIL");
    assert_eq!(buggy["cases"][0]["mistakes"][0], "original-bounds");

    // The summary, printed and written: the histogram, the cases most often failed, the
    // mistakes most often named.
    for text in [
        stdout.clone(),
        std::fs::read_to_string(root.join("grades/summary.txt")).unwrap(),
    ] {
        assert!(
            text.contains("50 submissions graded against 3 cases (4 points)"),
            "{text}"
        );
        assert!(text.contains("              3  "), "{text}");
        assert!(
            text.contains("50 of 50  specs/small.yaml s14-alphabeta  (5 CRASHED, 32 FAIL, 3 NOT-FOUND, 5 OUTPUT-LIMIT, 5 TIMEOUT)"),
            "{text}"
        );
        assert!(text.contains("  10 of 50  original-bounds"), "{text}");
    }
    assert!(stdout.contains("reports in grades/reports"), "{stdout}");
    // Every submission's report; the README beside them is noted, not graded.
    for (name, _) in &made {
        let report = root.join(format!("grades/reports/{name}.txt"));
        assert!(report.is_file(), "{}", report.display());
    }
    let report = std::fs::read_to_string(root.join("grades/reports/s20-buggy.txt")).unwrap();
    assert!(report.contains("the mistake original-bounds"), "{report}");
    assert!(stderr.contains(
        "note: 1 entry is not a folder (links are not followed), so not graded: README.txt"
    ));

    // Progress, not on a terminal: a line a submission, in order.
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 50, "{stderr}");
    assert!(progress[0].starts_with("[1/50] s00-correct: 3 / 4 ("));
    assert!(progress[49].starts_with("[50/50] s49-spawner: 3 / 4 ("));

    // The spawners' sleeps were killed with their cases.
    assert_eq!(running("987.654"), Vec::<String>::new());
}

#[test]
fn the_reports_and_the_gradebook_are_the_same_for_any_number_of_jobs_and_a_run_resumes() {
    let (dir, _) = class(&FEW);
    let root = dir.path();
    grade(root, "one", "1").success();
    grade(root, "three", "3").success();
    let files = |out: &str| -> Vec<(PathBuf, Vec<u8>)> {
        let mut all = Vec::new();
        for sub in ["reports", "rows"] {
            let mut names: Vec<PathBuf> = std::fs::read_dir(root.join(out).join(sub))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            names.sort();
            for p in names {
                let bytes = std::fs::read(&p).unwrap();
                all.push((p.strip_prefix(root.join(out)).unwrap().to_owned(), bytes));
            }
        }
        for f in ["gradebook.csv", "gradebook.json"] {
            all.push((
                PathBuf::from(f),
                std::fs::read(root.join(out).join(f)).unwrap(),
            ));
        }
        all
    };
    assert_eq!(files("one"), files("three"));

    // Resumed: what is complete is kept; a submission whose row is gone is graded again.
    std::fs::remove_file(root.join("three/rows/s01-correct.json")).unwrap();
    let again = gametrace()
        .current_dir(root)
        .args([
            "grade",
            "subs",
            "--against",
            "python3 alphabeta.py {tree_json}",
            "--specs",
            "specs",
            "--out",
            "three",
            "--timeout",
            "1",
            "--resume",
        ])
        .assert()
        .success()
        .stdout(contains("9 kept from an earlier run (--resume)"));
    let stderr = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(stderr.contains("[2/10] s01-correct: 3 / 4 ("), "{stderr}");
    assert!(!stderr.contains("s01-correct: 3 / 4 (kept"), "{stderr}");
    assert!(
        stderr.contains("s02-correct: 3 / 4 (kept from an earlier run)"),
        "{stderr}"
    );
    assert_eq!(files("one"), files("three"));
    // Graded with another command, nothing is kept.
    gametrace()
        .current_dir(root)
        .args([
            "grade",
            "subs",
            "--against",
            "python3 alphabeta.py {tree_json} --quiet",
            "--specs",
            "specs",
            "--out",
            "three",
            "--timeout",
            "1",
            "--case",
            "s12-value",
            "--resume",
        ])
        .assert()
        .success()
        .stdout(contains("kept from an earlier run").not());
}

#[test]
fn test_against_with_jobs_gives_the_same_report() {
    let (dir, _) = class(&FEW);
    let root = dir.path();
    let sub = root.join("subs/s03-buggy");
    let report = |jobs: &str| {
        gametrace()
            .current_dir(&sub)
            .arg("test")
            .arg(root.join("specs"))
            .args([
                "--against",
                "python3 alphabeta.py {tree_json}",
                "--format",
                "json",
                "--jobs",
                jobs,
            ])
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone()
    };
    let one = report("1");
    assert_eq!(one, report("3"));
    let text = String::from_utf8(one).unwrap();
    assert!(text.contains("original-bounds"), "{text}");
}

#[test]
fn bad_class_input_exits_2_with_why() {
    let (dir, _) = class(&FEW);
    let root = dir.path();
    gametrace()
        .current_dir(root)
        .args(["grade", "nowhere", "--against", "true", "--specs", "specs"])
        .assert()
        .code(2)
        .stderr(contains("the submissions are not a folder"))
        .stderr(contains("nothing at this path"));
    std::fs::create_dir_all(root.join("empty")).unwrap();
    gametrace()
        .current_dir(root)
        .args(["grade", "empty", "--against", "true", "--specs", "specs"])
        .assert()
        .code(2)
        .stderr(contains("no submissions under empty"));
    gametrace()
        .current_dir(root)
        .args([
            "grade",
            "subs",
            "--against",
            "true",
            "--specs",
            "specs",
            "--case",
            "nope",
        ])
        .assert()
        .code(2)
        .stderr(contains("no case matches"));
    // {submission} names a graded submission; `test --against` has none.
    gametrace()
        .current_dir(root)
        .args(["test", "specs", "--against", "cat {submission}/x"])
        .assert()
        .code(2)
        .stdout(contains("{submission} names the submission"));
}

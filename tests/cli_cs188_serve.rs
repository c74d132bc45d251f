//! CS188's driver serving every tree of a run from one process (`{trees}`): the same verdicts
//! and the same reports, byte for byte, as a process per tree (`--per-case`), on the
//! project's CS188 fixtures; and a student's program that misbehaves on one tree (kills its
//! processes, prints a forged answer, sleeps) gets that tree's verdict of a run of its own and
//! changes no other tree's.

use std::fs;
use std::path::Path;

mod common;
use common::cli::gametrace;

const TESTS: &str = "tests/fixtures/cs188/test_cases";
use common::cs188::{with_slips, STUDENT};

fn serving(student: &str) -> String {
    format!("python3 adapters/python/gametrace_cs188.py {student} {{trees}}")
}

/// `gametrace test FOLDER --against CMD ARGS...`: its exit status and stdout.
fn graded(folder: &str, line: &str, args: &[&str]) -> (i32, String) {
    let out = gametrace()
        .env("NO_COLOR", "1")
        .args(["test", folder, "--against", line])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Served and run per case: the same exit status and the same report, in `format`.
fn same_both_ways(folder: &str, line: &str, format: &str, more: &[&str]) -> (i32, String) {
    let mut args = vec!["--format", format];
    args.extend_from_slice(more);
    let served = graded(folder, line, &args);
    args.push("--per-case");
    let alone = graded(folder, line, &args);
    assert_eq!(
        served, alone,
        "{folder} in {format}: served (left) and per case (right) differ"
    );
    served
}

/// The fixture's agents, with `code` appended (a student's file as the tests change it).
fn student_with(dir: &Path, code: &str) -> String {
    let text = fs::read_to_string(STUDENT).unwrap();
    let path = dir.join("multiAgents.py");
    fs::write(&path, format!("{text}\n{code}")).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Every question of the fixtures, a right program and wrong ones (a named mistake, a crash
/// in `getScore`, a module that prints as it loads), in the formats a grader reads: the same
/// report served as run per case.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn served_trees_report_as_a_process_per_tree_does() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let students = [
        ("right", STUDENT.to_owned()),
        ("prune-on-equal", {
            let d = dir.path().join("p");
            fs::create_dir(&d).unwrap();
            with_slips(&d, &["prune-on-equal"])
        }),
        ("own-evaluation", {
            let d = dir.path().join("o");
            fs::create_dir(&d).unwrap();
            with_slips(&d, &["own-evaluation-at-depth", "one-round-deeper"])
        }),
        ("prints", {
            let d = dir.path().join("n");
            fs::create_dir(&d).unwrap();
            student_with(
                &d,
                "import sys\nprint('loaded'); print('a warning', file=sys.stderr)\n",
            )
        }),
    ];
    let mut failed = 0;
    for (what, student) in &students {
        for q in ["q2", "q3", "q4"] {
            let folder = format!("{TESTS}/{q}");
            for format in ["human", "json", "gradescope"] {
                let (code, report) = same_both_ways(&folder, &serving(student), format, &[]);
                assert!(code == 0 || code == 1, "{what} {q}: exit {code}\n{report}");
                if code == 1 {
                    failed += 1;
                }
            }
        }
    }
    // The wrong programs were judged wrong (so the comparison held on failures too).
    assert!(failed >= 6, "only {failed} failing reports");
}

/// The code appended to make a student's program misbehave on one tree: q3's
/// `5-prunes` (its root alone has the actions A, B and C and is named r).
fn on_one_tree(action: &str) -> String {
    format!(
        "import os, sys, time\n\
         _searched = SearchAgent.getAction\n\
         def _hostile(self, gameState):\n\
         \x20   if gameState.state == 'r' and gameState.getLegalActions(0) == ['A', 'B', 'C']:\n\
         \x20       {action}\n\
         \x20   return _searched(self, gameState)\n\
         SearchAgent.getAction = _hostile\n"
    )
}

/// A hostile program graded served: the target tree's verdict is `word`, every other tree
/// of q3 passes, and the report is the one a process per tree gives.
fn hostile(action: &str, word: &str, more: &[&str]) {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let student = student_with(dir.path(), &on_one_tree(action));
    let folder = format!("{TESTS}/q3");
    let (code, report) = same_both_ways(&folder, &serving(&student), "human", more);
    assert_eq!(code, 1, "{report}");
    let target = format!("{word:<8}{folder}/5-prunes.test 5-prunes");
    assert!(report.contains(&target), "no `{target}` in\n{report}");
    assert!(report.contains("6 passed, 1 failed"), "{report}");
}

/// The student's code kills its own process group mid-search: the server and the tree's copy
/// of it. That tree is CRASHED, as a process of its own is; the trees after it are served by a
/// new server and pass.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_program_that_kills_its_processes_changes_no_other_tree() {
    hostile("os.killpg(0, 9)", "CRASHED", &[]);
}

/// The student's code exits the process at once (`os._exit`, no traceback): CRASHED with the
/// status a process of its own exits with.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_program_that_exits_mid_search_changes_no_other_tree() {
    hostile("os._exit(3)", "CRASHED", &[]);
}

/// The student's code prints answers in the protocol's own form, for the trees after it
/// (every id it could guess), on stdout and straight to descriptor 1: they are its own
/// output (that tree fails on it), never an answer.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_forged_answer_is_the_programs_output_not_an_answer() {
    let forged = r#"@gt {"id": "%s", "exit": 0, "stdout": "getAction(r) -> L\n", "stderr": ""}"#;
    let action = format!(
        "for i in range(1, 20):\n\
         \x20           line = '{forged}' % i\n\
         \x20           print(line); sys.stdout.flush(); os.write(1, (line + '\\n').encode())\n\
         \x20       return 'A'"
    );
    hostile(&action, "FAIL", &[]);
}

/// The student's code sleeps on one tree: TIMEOUT (past the wall-clock backstop) for it,
/// the others pass.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_program_that_sleeps_changes_no_other_tree() {
    hostile("time.sleep(60)", "TIMEOUT", &["--timeout", "1"]);
}

/// A module whose import computes for 1.5 s of CPU time, and a tree whose search computes
/// 2 s more: each is within a 3 s limit, both together are not. A process of its own
/// spends both on the tree, and is stopped; served, the import is spent once, and the tree
/// would pass if its copy were not charged the import. It is, so the tree is stopped served
/// too, run alone, and gets the lone run's verdict: the report is the one a process per tree
/// gives. `limit` is the limit that binds: `--timeout` (all of a run's CPU time, measured by
/// gametrace) or `--cpu-limit` (each process's, the kernel's RLIMIT_CPU).
fn slow_import_and_tree(limit: &[&str], word: &str) {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let import = "import time as _clock\nwhile _clock.process_time() < 1.5:\n    pass\n";
    let search =
        "_t = time.process_time()\n        while time.process_time() - _t < 2.0:\n            pass";
    let student = student_with(dir.path(), &format!("{import}{}", on_one_tree(search)));
    let folder = format!("{TESTS}/q3");
    // A generous wall-clock backstop: the verdicts are the CPU limits', on a loaded machine too.
    let mut more = vec!["--wall-time", "300"];
    more.extend_from_slice(limit);
    let (code, report) = same_both_ways(&folder, &serving(&student), "human", &more);
    assert_eq!(code, 1, "{report}");
    let target = format!("{folder}/5-prunes.test 5-prunes");
    assert!(
        report
            .lines()
            .any(|l| l.starts_with(word) && l.contains(&target)),
        "no {word} {target} in\n{report}"
    );
    assert!(report.contains("6 passed, 1 failed"), "{report}");
}

#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_slow_import_counts_against_every_served_tree_timeout() {
    slow_import_and_tree(&["--timeout", "3"], "TIMEOUT");
}

#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_slow_import_counts_against_every_served_tree_cpu_limit() {
    slow_import_and_tree(&["--timeout", "30", "--cpu-limit", "3"], "CPU-LIMIT");
}

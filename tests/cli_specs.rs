//! The specs built into gametrace: a TA with only the binary (a folder with no `specs/`) runs
//! them by name, lists them, and copies them out to edit; nothing on disk is overwritten.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::fs;

fn gametrace(dir: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    c.current_dir(dir);
    c
}

#[test]
fn a_built_in_spec_runs_by_its_name_from_a_folder_without_specs() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "15150-s14/handout-small",
        "15150-s14/handout-small.yaml",
        "specs/15150-s14/handout-small.yaml",
    ] {
        gametrace(dir.path())
            .args(["run", name, "--case", "alphabeta"])
            .assert()
            .success()
            .stdout(contains(
                "F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))",
            ));
    }
    // Its expected traces come along: `test` compares with them.
    gametrace(dir.path())
        .args(["test", "15150-s14/handout-small"])
        .assert()
        .success()
        .stdout(contains("9 passed, 0 failed"));
    // A folder of them, and all of them.
    gametrace(dir.path())
        .args(["test", "csc148"])
        .assert()
        .success()
        .stdout(contains("PASS    specs/csc148/tippy-rules.yaml"));
    // A name that is neither a file nor built in: the usual error, with the way to list them.
    gametrace(dir.path())
        .args(["run", "csc148/no-such-spec", "--case", "x"])
        .assert()
        .code(2)
        .stderr(contains("gametrace specs"));
}

#[test]
fn specs_lists_them_and_copy_writes_them_out_without_overwriting() {
    let dir = tempfile::tempdir().unwrap();
    gametrace(dir.path())
        .args(["specs", "csc148"])
        .assert()
        .success()
        .stdout(contains("csc148/subtract-square-grading"))
        .stdout(contains("15150").not());
    gametrace(dir.path())
        .args(["specs", "copy", "csc148/subtract-square-grading", "course"])
        .assert()
        .success();
    let spec = dir
        .path()
        .join("course/specs/csc148/subtract-square-grading.yaml");
    let root = env!("CARGO_MANIFEST_DIR");
    assert_eq!(
        fs::read(&spec).unwrap(),
        fs::read(format!("{root}/specs/csc148/subtract-square-grading.yaml")).unwrap()
    );
    // An edited copy is the TA's: a second copy stops, naming it, and writes nothing.
    fs::write(&spec, "title: mine\n").unwrap();
    gametrace(dir.path())
        .args(["specs", "copy", "csc148", "course"])
        .assert()
        .code(2)
        .stderr(contains("subtract-square-grading.yaml").and(contains("nothing was copied")));
    assert_eq!(fs::read_to_string(&spec).unwrap(), "title: mine\n");
    assert!(!dir
        .path()
        .join("course/specs/csc148/tippy-rules.yaml")
        .exists());
    // A file on disk wins over the built-in spec of the same name.
    fs::create_dir_all(dir.path().join("specs/15150-s14")).unwrap();
    let text = fs::read_to_string(format!("{root}/specs/15150-s14/handout-small.yaml")).unwrap();
    fs::write(
        dir.path().join("specs/15150-s14/handout-small.yaml"),
        text.replace("  alphabeta:  ", "  my-alphabeta:"),
    )
    .unwrap();
    gametrace(dir.path())
        .args(["cases", "15150-s14/handout-small"])
        .assert()
        .success()
        .stdout(contains("my-alphabeta"));
    gametrace(dir.path())
        .args(["specs", "nope"])
        .assert()
        .code(2)
        .stderr(contains("no built-in spec under `nope`"));
}

/// Every command that takes a spec takes a built-in one by name, from a folder with nothing
/// in it (no `specs/`, no `expected/`), with or without `specs/` and `.yaml`.
#[test]
fn every_command_that_takes_a_spec_takes_a_built_in_name() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("mine.trace");
    fs::write(
        &trace,
        "Estimating state c[3]\nEstimating state d[5]\nEstimating state e[2]\nval it = 0 : Game.move\n",
    )
    .unwrap();
    for name in [
        "15150-s14/handout-small",
        "specs/15150-s14/handout-small.yaml",
    ] {
        let runs: [&[&str]; 10] = [
            &["run", name, "--case", "alphabeta"],
            &["show", name, "--case", "alphabeta"],
            &["show", name, "--svg", "-"],
            &["validate", name],
            &["cases", name],
            &["export", name, "--to", "json"],
            &["stats", name],
            &[
                "explain",
                name,
                "--case",
                "alphabeta",
                "--bug",
                "child-value-as-bound",
            ],
            &["test", name, "--case", "alphabeta"],
            &["bugs", name, "--case", "alphabeta"],
        ];
        for args in runs {
            let out = gametrace(dir.path()).args(args).output().unwrap();
            assert!(
                out.status.success(),
                "gametrace {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        // `check` reads it too: a failing check is a check that ran (exit 1, not 2).
        gametrace(dir.path())
            .args([
                "check",
                name,
                "--case",
                "alphabeta",
                "--actual",
                "mine.trace",
            ])
            .assert()
            .code(1)
            .stdout(contains(
                "FAIL    specs/15150-s14/handout-small.yaml alphabeta",
            ));
    }
    // A folder of built-in specs for `validate`, as for `test`.
    gametrace(dir.path())
        .args(["validate", "csc148"])
        .assert()
        .success();
    // A near miss is named; the name just typed is never suggested back.
    gametrace(dir.path())
        .args(["show", "15150-s14/handout-smal"])
        .assert()
        .code(2)
        .stderr(contains(
            "did you mean the built-in spec `15150-s14/handout-small`?",
        ));
    gametrace(dir.path())
        .args(["show", "connect4/rules"])
        .assert()
        .code(2)
        .stderr(contains("games/connect4/rules"));
}

/// The drivers travel with the binary: `adapters copy` writes the repository's own files,
/// again writes nothing, and never overwrites a file a TA has edited.
#[test]
fn adapters_copy_writes_the_drivers_out_without_overwriting() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    gametrace(dir.path())
        .args(["adapters", "copy", "course"])
        .assert()
        .success()
        .stdout(contains("written under course/adapters (0 already there)"));
    for file in [
        "adapters/python/gametrace_csc148.py",
        "adapters/sml/gametrace-game.sml",
        "adapters/java/GametracePlayer.java",
    ] {
        assert_eq!(
            fs::read(dir.path().join("course").join(file)).unwrap(),
            fs::read(format!("{root}/{file}")).unwrap(),
            "{file}"
        );
    }
    gametrace(dir.path())
        .args(["adapters", "copy", "course"])
        .assert()
        .success()
        .stdout(contains("0 files written under course/adapters"));
    let edited = dir.path().join("course/adapters/sml/gametrace-game.sml");
    fs::write(&edited, "(* mine *)\n").unwrap();
    gametrace(dir.path())
        .args(["adapters", "copy", "course"])
        .assert()
        .code(2)
        .stderr(contains("gametrace-game.sml").and(contains("nothing was copied")));
    assert_eq!(fs::read_to_string(&edited).unwrap(), "(* mine *)\n");
}

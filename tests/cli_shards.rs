//! A class graded on several machines: `grade --shard K/N` grades a share of the
//! submissions, and `gradebook merge` joins the shards' folders into exactly what one run
//! writes (reports, rows, gradebook, summary), for N = 1, 2 and 3.

use predicates::prelude::*;
use predicates::str::contains;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

mod common;
use common::cli::gametrace;

const FIXTURES: &str = "tests/fixtures/python/csc148";
const SPEC: &str = "specs/csc148/subtract-square-grading.yaml";

/// Every file under `dir`, by its path below it.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_owned(),
                    fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn shards_merged_are_the_single_runs_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    // Seven students: right, and each with a slip of the catalogue's.
    for (who, file) in [
        ("ada", "strategy_minimax_memoize.py"),
        ("ben", "strategy_minimax_memoize_total.py"),
        ("cy", "strategy_minimax_memoize_last.py"),
        ("dee", "strategy_minimax_memoize.py"),
        ("eve", "strategy_raises.py"),
        ("fay", "strategy_minimax_memoize_total.py"),
        ("gus", "strategy_minimax_memoize.py"),
    ] {
        fs::create_dir_all(subs.join(who)).unwrap();
        fs::copy(
            format!("{FIXTURES}/{file}"),
            subs.join(who).join("strategy.py"),
        )
        .unwrap();
    }
    let cmd = format!(
        "python3 {}/adapters/python/gametrace_csc148.py strategy strategy.py StrategyMinimaxMemoize {{position_json}}",
        env!("CARGO_MANIFEST_DIR")
    );
    let grade = |out: &Path, shard: Option<&str>| {
        let mut c = gametrace();
        c.arg("grade")
            .arg(&subs)
            .args(["--specs", SPEC, "--against", &cmd, "--jobs", "2", "--out"])
            .arg(out);
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c.assert().success();
    };
    let single = dir.path().join("single");
    grade(&single, None);
    let want = files(&single);
    assert!(
        want.contains_key(Path::new("reports/eve.txt")),
        "{:?}",
        want.keys()
    );
    for n in 1..=3 {
        let mut shards = Vec::new();
        for k in 1..=n {
            let out = dir.path().join(format!("n{n}-k{k}"));
            grade(&out, Some(&format!("{k}/{n}")));
            shards.push(out);
        }
        let merged = dir.path().join(format!("merged-{n}"));
        gametrace()
            .args(["gradebook", "merge", "--out"])
            .arg(&merged)
            .arg("--submissions")
            .arg(&subs)
            .args(&shards)
            .assert()
            .success()
            .stdout(contains("merged 7 submissions"));
        let got = files(&merged);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "N = {n}"
        );
        for (path, bytes) in &want {
            assert_eq!(&got[path], bytes, "N = {n}: {}", path.display());
        }
    }
    // A shard missing: the merge names who is in no shard, and writes nothing.
    let incomplete = dir.path().join("incomplete");
    gametrace()
        .args(["gradebook", "merge", "--out"])
        .arg(&incomplete)
        .arg("--submissions")
        .arg(&subs)
        .arg(dir.path().join("n3-k1"))
        .arg(dir.path().join("n3-k2"))
        .assert()
        .code(2)
        .stderr(contains("in no shard").and(contains("cy")));
    assert!(!incomplete.exists());
    // The same shard twice, and a folder that is no shard.
    gametrace()
        .args(["gradebook", "merge", "--out"])
        .arg(dir.path().join("twice"))
        .arg(dir.path().join("n2-k1"))
        .arg(dir.path().join("n2-k1"))
        .assert()
        .code(2)
        .stderr(contains("in two shards"));
    gametrace()
        .args(["gradebook", "merge", "--out"])
        .arg(dir.path().join("none"))
        .arg(&subs)
        .assert()
        .code(2)
        .stderr(contains("not a finished `grade` --out folder"));
    gametrace()
        .arg("grade")
        .arg(&subs)
        .args(["--specs", SPEC, "--against", &cmd, "--shard", "4/3"])
        .assert()
        .code(2)
        .stderr(contains("K/N"));
}

/// The new flags fed garbage: exit 2 before anything is graded, naming the flag and the
/// value.
#[test]
fn bad_shard_course_and_disk_flags_exit_2_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("ada")).unwrap();
    let out = dir.path().join("grades");
    for (flag, value, said) in [
        ("--shard", "x/y", "K/N"),
        ("--shard", "0/3", "K/N"),
        ("--shard", "2", "K/N"),
        ("--disk-limit", "lots", "lots"),
        ("--course-dir", "/no/such/course", "/no/such/course"),
        ("--course-dir", "Cargo.toml", "not a folder"),
    ] {
        gametrace()
            .arg("grade")
            .arg(&subs)
            .args(["--specs", SPEC, "--against", "true", flag, value, "--out"])
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains(flag).and(contains(said)));
        assert!(!out.exists(), "{flag} {value}: nothing written");
    }
    // A shard folder whose rows are not rows.
    let bad = dir.path().join("bad");
    fs::create_dir_all(bad.join("rows")).unwrap();
    fs::create_dir_all(bad.join("reports")).unwrap();
    fs::write(bad.join("gradebook.json"), "{}").unwrap();
    fs::write(bad.join("rows/ada.json"), "not json").unwrap();
    gametrace()
        .args(["gradebook", "merge", "--out"])
        .arg(dir.path().join("merged"))
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(contains("rows/ada.json").and(contains("not a gradebook row")));
    assert!(!dir.path().join("merged").exists());
}

//! `cargo bench --bench diagnose`: `gametrace check` on a wrong output, with the diagnosis
//! (the catalogue's variants run against the output) and without it (`--no-diagnosis`), on
//! HandoutBig and on a 111 111-node tree (branching 10, depth 5). Two outputs each: one a
//! catalogued mistake prints exactly (found among the single mistakes), and one no mistake
//! explains (every single mistake and every pair is tried). Processes, as a grader runs them.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_gametrace");

fn explain(spec: &Path, case: &str, bug: &str) -> String {
    let out = Command::new(BIN)
        .arg("explain")
        .arg(spec)
        .args(["--case", case, "--bug", bug, "--trace"])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn check(spec: &Path, case: &str, actual: &Path, diagnose: bool) {
    let mut c = Command::new(BIN);
    c.arg("check")
        .arg(spec)
        .args(["--case", case, "--actual"])
        .arg(actual)
        .stdout(Stdio::null());
    if !diagnose {
        c.arg("--no-diagnosis");
    }
    assert_eq!(c.status().unwrap().code(), Some(1));
}

fn diagnose(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("wide.yaml");
    std::fs::write(
        &big,
        "tree: {generate: {branching: 10, depth: 5, seed: 3, min: -9, max: 9}}\n\
         cases:\n  ab: {algorithm: alphabeta, dialect: s14}\n  \
         jam: {algorithm: jamboree, prune_percentage: 0.5, dialect: s14}\n",
    )
    .unwrap();
    let handout = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/specs/15150-s14/handout-big.yaml"
    ));
    for (name, spec, case, bug) in [
        (
            "handout-big",
            &handout,
            "alphabeta",
            "original-bounds:minnie",
        ),
        ("tree-111k", &big, "ab", "original-bounds:minnie"),
        ("tree-111k", &big, "jam", "original-bounds:minnie"),
    ] {
        let exact = explain(spec, case, bug);
        // The same output with its third line gone: no mistake prints that.
        let unexplained: String = exact
            .lines()
            .enumerate()
            .filter(|(i, _)| *i != 2)
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        let exact_file = dir.path().join(format!("{name}-{case}-exact.trace"));
        let other_file = dir.path().join(format!("{name}-{case}-other.trace"));
        std::fs::write(&exact_file, &exact).unwrap();
        std::fs::write(&other_file, &unexplained).unwrap();
        eprintln!("{name} {case}: a {}-line output", exact.lines().count());
        let mut group = c.benchmark_group(format!("diagnose-{name}-{case}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(5));
        group.bench_function("a mistake's output", |b| {
            b.iter(|| check(spec, case, &exact_file, true))
        });
        group.bench_function("an unexplained output", |b| {
            b.iter(|| check(spec, case, &other_file, true))
        });
        group.bench_function("--no-diagnosis", |b| {
            b.iter(|| check(spec, case, &other_file, false))
        });
        group.finish();
    }
}

criterion_group!(benches, diagnose);
criterion_main!(benches);

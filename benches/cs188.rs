//! `cargo bench --bench cs188`: a CS188 student's `multiAgents.py` graded on the project's own
//! CS188 trees (`tests/fixtures/cs188/test_cases`, q2, q3 and q4: 17 trees), through the
//! Python driver in the sandbox, as `gametrace test --against` grades it: served (`{trees}`:
//! one process imports the module and answers every tree) and per case (`--per-case`: a
//! process a tree, as `{tree_json}` runs). One job, so that the figure is the work, not the
//! cores. The course's own files are not in the repository; the Performance chapter gives
//! the figures on them beside CS188's autograder.

use criterion::{criterion_group, criterion_main, Criterion};
use gametrace::check::case::{Options, Source, MAX_ACTUAL};
use gametrace::grade::Suite;
use gametrace::sandbox::{Limits, Policy};
use gametrace::suite::Selection;
use std::path::PathBuf;
use std::time::Duration;

fn grading(c: &mut Criterion) {
    let (specs, _) =
        gametrace::suite::discover_noting(&[PathBuf::from("tests/fixtures/cs188/test_cases")])
            .unwrap();
    let select = Selection::new(Vec::new(), Vec::new()).unwrap();
    let suite = Suite::load(&specs, &select);
    let options = Options {
        mode: None,
        palette: gametrace::diff::Palette { color: false },
        exact: false,
        max_input: MAX_ACTUAL,
        diagnose: true,
        figures: false,
        time_limit: Duration::from_secs(60),
        cut_short: false,
    };
    let mut group = c.benchmark_group("cs188");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (name, serve) in [("served", true), ("per-case", false)] {
        let program = gametrace::student::Program {
            flag: "--against",
            line: "python3 adapters/python/gametrace_cs188.py tests/fixtures/cs188/multiAgents.py {trees}".to_owned(),
            shell: false,
            stdin: None,
            limits: Limits::default(),
            submission: None,
            sandbox: Policy::default(),
            serve,
        };
        let source = Source::Command(Box::new(program));
        group.bench_function(format!("q2-q4/{name}"), |b| {
            b.iter(|| {
                // Every tree passes (a Pacman-game test is SKIPPED: no --project here).
                let (mut passed, mut trees) = (0, 0);
                suite.check_all(&source, options, 1, |_, r| {
                    trees += usize::from(!r.status.skipped());
                    passed += usize::from(r.status.passed());
                });
                assert!(passed > 0 && passed == trees, "{passed} of {trees} passed");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, grading);
criterion_main!(benches);

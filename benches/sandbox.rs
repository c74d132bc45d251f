//! `cargo bench --bench sandbox`: what the sandbox costs a case. One run of a program that
//! does nothing (`/bin/true`) and of a Python program that prints a line, with the sandbox
//! (every layer this machine allows; `gametrace doctor` lists them) and with `--no-sandbox`.
//! The difference is the sandbox's cost per case; the guide's Safety chapter gives it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gametrace::sandbox::{self, Job, Limits, Policy, Scratch};
use std::time::Duration;

fn sandbox(c: &mut Criterion) {
    // The probe runs once a process: outside the measurement.
    let _ = sandbox::protections();
    let mut group = c.benchmark_group("sandbox");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(8));
    let programs: [(&str, Vec<String>); 2] = [
        ("true", vec!["/bin/true".to_owned()]),
        (
            "python3",
            vec![
                std::env::var("BENCH_PYTHON").unwrap_or("python3".into()),
                "-c".into(),
                "print('F: state')".into(),
            ],
        ),
    ];
    for (name, argv) in &programs {
        for (mode, off) in [("sandboxed", false), ("no-sandbox", true)] {
            let policy = Policy {
                off,
                ..Policy::default()
            };
            group.bench_with_input(BenchmarkId::new(*name, mode), argv, |b, argv| {
                b.iter(|| {
                    let scratch = Scratch::new().unwrap();
                    let ran = sandbox::run(&Job {
                        argv,
                        words: argv,
                        stdin: None,
                        dir: None,
                        limits: Limits::default(),
                        scratch: &scratch,
                        policy: &policy,
                    });
                    assert_eq!(ran.word(), "EXITED", "{ran:?}");
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, sandbox);
criterion_main!(benches);

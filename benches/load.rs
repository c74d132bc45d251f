//! `cargo bench --bench load`: loading a big spec (a `gametrace new` random tree, branching 6,
//! depth 6: 55 987 nodes, 46 656 leaves, about 600 KB), in MB/s of spec text: the YAML parse
//! alone (the fast path, and the full parser it falls back to), the whole load (parse, every check, the tree built), and `run`'s whole work on it
//! (load, then the full minimax trace written to memory). The guide's loading table comes
//! from this file; see "Performance" there.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametrace::game::tree::Generate;
use gametrace::spec::{self, Document};
use std::path::Path;
use std::time::Duration;

fn big_spec() -> String {
    spec::new::spec(&Generate {
        branching: 6,
        depth: 6,
        seed: 3,
        min: -10,
        max: 10,
    })
}

fn load(c: &mut Criterion) {
    let text = big_spec();
    let mut group = c.benchmark_group("load");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Bytes(text.len() as u64));
    // The fast path must read this file (or the figures below would be the full parser's).
    assert!(spec::yaml::fast::parse(&text).is_some());
    group.bench_function("yaml-parse", |b| {
        b.iter(|| spec::yaml::parse(&text).unwrap().unwrap())
    });
    group.bench_function("yaml-parse-full", |b| {
        b.iter(|| spec::yaml::full(&text).unwrap().unwrap())
    });
    group.bench_function("load", |b| {
        b.iter(|| spec::load_str(Path::new("big.yaml"), &text).unwrap())
    });
    group.bench_function("load-and-trace-minimax", |b| {
        b.iter(|| {
            let Document::Tree(s) = spec::load_str(Path::new("big.yaml"), &text).unwrap() else {
                unreachable!()
            };
            let mut case = s.cases[0].clone();
            case.algorithm = gametrace::search::Algorithm::Minimax;
            gametrace::run::trace_of(&s, &case)
        })
    });
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);

//! `cargo bench --bench load`: loading a big spec (a `gametrace new` random tree, branching 6,
//! depth 6: 55 987 nodes, 46 656 leaves, about 600 KB), in MB/s of spec text: the YAML parse
//! alone (the fast path, and the full parser it falls back to), the whole load (parse, every
//! check, the tree built: the tree straight into the arena, and through YAML nodes), and
//! `run`'s whole work on it (load, then the full minimax trace written to memory). The
//! guide's loading table comes from this file; see "Performance" there.

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

/// `text` with its flow mappings wrapped as PyYAML's `yaml.dump(default_flow_style=None)` wraps
/// them at its default width of 80: after the comma past which the line is over 80 columns,
/// the next entry on a line of its own, indented two past the key.
fn wrapped_as_pyyaml_writes(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut column = 0;
        for (k, piece) in line.split(", ").enumerate() {
            if k > 0 {
                out.push(',');
                if column + 1 > 80 {
                    out.push('\n');
                    out.push_str(&" ".repeat(indent + 2));
                    column = indent + 2;
                } else {
                    out.push(' ');
                    column += 2;
                }
            }
            out.push_str(piece);
            column += piece.len();
        }
        out.push('\n');
    }
    out
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
    // The same tree with branching 9 and depth 5 (59 049 leaves): its leaf mappings pass 80
    // columns, so as PyYAML writes it they are wrapped (748 KB), a shape the fast path reads too.
    let nine = spec::new::spec(&Generate {
        branching: 9,
        depth: 5,
        seed: 3,
        min: -10,
        max: 10,
    });
    let wrapped = wrapped_as_pyyaml_writes(&nine);
    assert!(wrapped.lines().count() > nine.lines().count() * 3 / 2);
    assert_eq!(
        spec::yaml::fast::parse(&wrapped),
        spec::yaml::full(&wrapped).unwrap()
    );
    for (name, text) in [("b9d5-one-line", &nine), ("b9d5-pyyaml-wrapped", &wrapped)] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("load-{name}"), |b| {
            b.iter(|| spec::load_str(Path::new("big.yaml"), text).unwrap())
        });
    }
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("load", |b| {
        b.iter(|| spec::load_str(Path::new("big.yaml"), &text).unwrap())
    });
    // The same load with the tree read through YAML nodes, as before the fast path for
    // written-out trees: the figure it is measured against.
    group.bench_function("load-through-yaml-nodes", |b| {
        b.iter(|| {
            let v = spec::validate_str_without_fast_tree(Path::new("big.yaml"), &text);
            assert!(v.document.is_some());
            v
        })
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

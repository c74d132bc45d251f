//! `cargo bench --bench search`: nodes per second for each searcher on generated trees,
//! untraced and with the full S14 trace written out, and Jamboree's parallel speed-up.
//! The table in the guide's Performance chapter (docs/src/performance.md) comes from this file.

mod common;

use common::NodeCount;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gametrace::game::tree::{Generate, Tree, TreeGame};
use gametrace::game::Player;
use gametrace::search::{s12, s14, Algorithm, NullSink};
use gametrace::trace::{Dialect, S14Printer, Style};
use std::io::{BufWriter, Write};
use std::time::Duration;

fn tree(branching: u32, depth: u32) -> Tree {
    Tree::generate(&Generate {
        branching,
        depth,
        seed: 2026,
        min: -1000,
        max: 1000,
    })
}

const ALGORITHMS: [(&str, Algorithm); 4] = [
    ("minimax", Algorithm::Minimax),
    ("alphabeta", Algorithm::AlphaBeta),
    (
        "jamboree-0.5",
        Algorithm::Jamboree {
            prune_percentage: 0.5,
        },
    ),
    (
        "jamboree-0",
        Algorithm::Jamboree {
            prune_percentage: 0.0,
        },
    ),
];

/// The untraced and traced groups measure one thread: the global pool gets one thread (so
/// parallel phases run in line, as they do under `--threads 1`). The threads group builds
/// its own pools.
fn one_thread_globally() {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
}

/// Untraced searches on one thread: the searchers' own speed.
fn untraced(c: &mut Criterion) {
    one_thread_globally();
    let mut group = c.benchmark_group("untraced");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    // b8d5 (37 449 nodes, 0.3 MB) fits in cache; the other two (150 and 270 MB) do not.
    for (b, d) in [(8, 5), (8, 8), (2, 24)] {
        let t = tree(b, d);
        let game = TreeGame::new(&t, Player::Maxie);
        for (name, alg) in ALGORITHMS {
            let mut count = NodeCount::default();
            s14::search(&game, d, alg, &mut count);
            group.throughput(Throughput::Elements(count.0));
            group.bench_function(
                BenchmarkId::new(format!("s14-{name}"), format!("b{b}d{d}")),
                |bench| bench.iter(|| s14::search(&game, d, alg, &mut NullSink)),
            );
        }
        let mut count = NodeCount::default();
        s12::search(&game, d, Algorithm::AlphaBeta, &mut count);
        group.throughput(Throughput::Elements(count.0));
        group.bench_function(
            BenchmarkId::new("s12-alphabeta", format!("b{b}d{d}")),
            |bench| bench.iter(|| s12::search(&game, d, Algorithm::AlphaBeta, &mut NullSink)),
        );
    }
    group.finish();
}

/// The full S14 trace written through a 64 KiB buffer to a file, against writing the same
/// bytes, line by line, through the same kind of buffer to the same file.
fn traced(c: &mut Criterion) {
    one_thread_globally();
    let mut group = c.benchmark_group("traced");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.out");
    for (b, d) in [(8, 6), (2, 18)] {
        let t = tree(b, d);
        let game = TreeGame::new(&t, Player::Maxie);
        for (name, alg) in [
            ("alphabeta", Algorithm::AlphaBeta),
            ("minimax", Algorithm::Minimax),
        ] {
            let mut p = S14Printer::new(&game, Vec::new(), Style::new(Dialect::S14));
            s14::search(&game, d, alg, &mut p);
            let bytes = p.finish().unwrap();
            let lines: Vec<&[u8]> = bytes.split_inclusive(|&c| c == b'\n').collect();
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            let id = format!("b{b}d{d}");
            group.bench_function(
                BenchmarkId::new(format!("s14-{name}-search-and-write"), &id),
                |bench| {
                    bench.iter(|| {
                        let file = BufWriter::with_capacity(
                            1 << 16,
                            std::fs::File::create(&path).unwrap(),
                        );
                        let mut p = S14Printer::new(&game, file, Style::new(Dialect::S14));
                        s14::search(&game, d, alg, &mut p);
                        p.finish().unwrap();
                    })
                },
            );
            group.bench_function(
                BenchmarkId::new(format!("s14-{name}-write-only"), &id),
                |bench| {
                    bench.iter(|| {
                        let mut file = BufWriter::with_capacity(
                            1 << 16,
                            std::fs::File::create(&path).unwrap(),
                        );
                        for line in &lines {
                            file.write_all(line).unwrap();
                        }
                        file.flush().unwrap();
                    })
                },
            );
        }
    }
    group.finish();
}

/// Jamboree untraced on one thread and on every core.
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("threads");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (b, d) = (8, 8);
    let t = tree(b, d);
    let game = TreeGame::new(&t, Player::Maxie);
    for (name, alg) in [
        (
            "jamboree-0",
            Algorithm::Jamboree {
                prune_percentage: 0.0,
            },
        ),
        (
            "jamboree-0.5",
            Algorithm::Jamboree {
                prune_percentage: 0.5,
            },
        ),
    ] {
        let mut count = NodeCount::default();
        s14::search(&game, d, alg, &mut count);
        group.throughput(Throughput::Elements(count.0));
        for n in [1, cores] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            group.bench_function(
                BenchmarkId::new(format!("s14-{name}-b{b}d{d}"), format!("{n}-threads")),
                |bench| bench.iter(|| pool.install(|| s14::search(&game, d, alg, &mut NullSink))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, untraced, traced, threads);
criterion_main!(benches);

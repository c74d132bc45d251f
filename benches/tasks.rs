//! `cargo bench --bench tasks`: the graph tasks on 100 000 and 1 000 000 edges (linear or
//! n log n: ten times the edges should take about ten times as long), and parsing and printing
//! a value of about 10 MB.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gametrace::notation::{parse, Value};
use gametrace::task::Task;
use std::time::Duration;

/// An undirected graph on `n` vertices with `edges` directed edges (both directions of
/// `edges / 2` random pairs), from a fixed linear congruential generator.
fn edges(n: u64, edges: usize) -> Vec<(i64, i64)> {
    let mut x: u64 = 2026;
    let mut next = || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    let mut out = Vec::with_capacity(edges);
    while out.len() < edges {
        let (u, v) = (next() as i64, next() as i64);
        out.push((u, v));
        out.push((v, u));
    }
    out
}

fn edge_seq(es: &[(i64, i64)]) -> Value {
    Value::Seq(
        es.iter()
            .map(|&(u, v)| Value::Tuple(vec![Value::Int(u), Value::Int(v)]))
            .collect(),
    )
}

fn graphs(c: &mut Criterion) {
    let mut group = c.benchmark_group("graphs");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for m in [100_000usize, 1_000_000] {
        let n = (m / 10) as i64;
        let es = edge_seq(&edges(n as u64, m));
        let args = [es, Value::Int(n)];
        let graph = Task::FromEdgeSeq.apply(&args).unwrap();
        group.throughput(Throughput::Elements(m as u64));
        group.bench_function(
            BenchmarkId::new("from_edge_seq", format!("{m}-edges")),
            |b| b.iter(|| Task::FromEdgeSeq.apply(&args).unwrap()),
        );
        let g = [graph];
        group.bench_function(
            BenchmarkId::new("is_undirected", format!("{m}-edges")),
            |b| b.iter(|| Task::IsUndirected.apply(&g).unwrap()),
        );
    }
    group.finish();
}

fn notation(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let value = edge_seq(&edges(1_000_000, 1_000_000));
    let text = value.to_string();
    group.throughput(Throughput::Bytes(text.len() as u64));
    let id = format!("{:.1}MB", text.len() as f64 / 1e6);
    group.bench_function(BenchmarkId::new("parse", &id), |b| {
        b.iter(|| parse(&text).unwrap())
    });
    group.bench_function(BenchmarkId::new("print", &id), |b| {
        b.iter(|| value.to_string())
    });
    group.finish();
}

criterion_group!(benches, graphs, notation);
criterion_main!(benches);

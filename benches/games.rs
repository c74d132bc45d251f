//! `cargo bench --bench games`: the real games' speed. Move generation and play (positions
//! per second over random playouts), alpha-beta at depth 8 from the empty 7×6 Connect 4 board
//! and at depth 6 from Riskless M2's start, and Jamboree's speed-up from 1 to 2 threads. The
//! guide's "Games" figures (docs/src/performance.md) come from this file.

mod common;

use common::NodeCount;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gametrace::game::connect4::Connect4;
use gametrace::game::nim::Nim;
use gametrace::game::riskless::{Map, Riskless};
use gametrace::game::{Game, Player, Status};
use gametrace::search::{s14, Algorithm, NullSink};
use std::time::Duration;

/// A small, seeded generator: the same playouts on every run.
struct XorShift(u64);
impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays `games` random games to their end (or 200 moves); returns the positions visited.
/// Each position's moves are generated, and one of them is played.
fn playouts<G: Game>(game: &G, games: usize, rng: &mut XorShift) -> u64 {
    let mut positions = 0;
    for _ in 0..games {
        let mut s = game.start();
        for _ in 0..200 {
            if game.status(&s) != Status::InPlay {
                break;
            }
            let moves: Vec<G::Move> = game.moves(&s).collect();
            positions += 1;
            s = game.play(&s, moves[rng.below(moves.len())]);
        }
    }
    positions
}

fn play(c: &mut Criterion) {
    let mut g = c.benchmark_group("playouts");
    let c4 = Connect4::new(7, 6, false);
    let popout = Connect4::new(7, 6, true);
    let m2 = Riskless::new(Map::m2());
    let nim = Nim::new(1000, Player::Maxie);
    macro_rules! bench {
        ($name:literal, $game:expr) => {
            // Throughput in positions: count them once for the same seed.
            let n = playouts(&$game, 100, &mut XorShift(2026));
            g.throughput(Throughput::Elements(n));
            g.bench_function($name, |b| {
                b.iter(|| playouts(&$game, 100, &mut XorShift(2026)))
            });
        };
    }
    bench!("connect4", c4);
    bench!("popout", popout);
    bench!("riskless-m2", m2);
    bench!("nim", nim);
    g.finish();
}

fn searches(c: &mut Criterion) {
    let c4 = Connect4::new(7, 6, false);
    let m2 = Riskless::new(Map::m2());
    // Nodes and terminals, once: the guide quotes them beside the times.
    let mut c4_nodes = NodeCount::default();
    let s = s14::search(&c4, 8, Algorithm::AlphaBeta, &mut c4_nodes);
    eprintln!(
        "connect4 7x6 empty, alpha-beta depth 8: {} nodes, {} terminals",
        c4_nodes.0, s.terminals
    );
    let mut m2_nodes = NodeCount::default();
    let s = s14::search(&m2, 6, Algorithm::AlphaBeta, &mut m2_nodes);
    eprintln!(
        "riskless M2 start, alpha-beta depth 6: {} nodes, {} terminals",
        m2_nodes.0, s.terminals
    );
    let mut g = c.benchmark_group("alphabeta");
    g.sample_size(20);
    // Throughput in nodes entered: criterion prints nodes per second.
    g.throughput(Throughput::Elements(c4_nodes.0));
    g.bench_function("connect4-depth-8", |b| {
        b.iter(|| s14::search(&c4, 8, Algorithm::AlphaBeta, &mut NullSink))
    });
    g.throughput(Throughput::Elements(m2_nodes.0));
    g.bench_function("riskless-m2-depth-6", |b| {
        b.iter(|| s14::search(&m2, 6, Algorithm::AlphaBeta, &mut NullSink))
    });
    g.finish();

    let jamboree = Algorithm::Jamboree {
        prune_percentage: 0.5,
    };
    let mut nodes = NodeCount::default();
    let s = s14::search(&c4, 8, jamboree, &mut nodes);
    eprintln!(
        "connect4 7x6 empty, jamboree 0.5 depth 8: {} nodes, {} terminals",
        nodes.0, s.terminals
    );
    let mut g = c.benchmark_group("jamboree-threads");
    g.sample_size(10);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_with_input(
            BenchmarkId::new("connect4-depth-8", threads),
            &threads,
            |b, _| b.iter(|| pool.install(|| s14::search(&c4, 8, jamboree, &mut NullSink))),
        );
        g.bench_with_input(
            BenchmarkId::new("riskless-m2-depth-6", threads),
            &threads,
            |b, _| b.iter(|| pool.install(|| s14::search(&m2, 6, jamboree, &mut NullSink))),
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = play, searches
}
criterion_main!(benches);

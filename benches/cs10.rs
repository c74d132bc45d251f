//! `cargo bench --bench cs10`: Kalah and CS10's negamax. Positions per second over random
//! playouts of Kalah(6, 4); negamax and negamax_ab from the start at depths 6 to 10, with and
//! without move ordering (nodes entered and time); searches too long to repeat are timed once
//! (`one-shot:` lines). The guide's CS10 figures (docs/src/cs10.md) come from this file and
//! from `benches/solve.rs`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametrace::game::kalah::{Kalah, Rules};
use gametrace::game::{Game, Status};
use gametrace::search::cs10::{search, Options, Ordering};
use gametrace::search::{Algorithm, NullSink};
use std::time::{Duration, Instant};

struct XorShift(u64);
impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn playouts(game: &Kalah, games: usize, rng: &mut XorShift) -> u64 {
    let mut positions = 0;
    for _ in 0..games {
        let mut s = game.start();
        while game.status(&s) == Status::InPlay {
            let moves: Vec<_> = game.moves(&s).collect();
            positions += 1;
            s = game.play(&s, moves[rng.below(moves.len())]);
        }
    }
    positions
}

fn positions(c: &mut Criterion) {
    let mut g = c.benchmark_group("kalah-playouts");
    let k = Kalah::new(6, 4, Rules::default());
    let n = playouts(&k, 100, &mut XorShift(2026));
    g.throughput(Throughput::Elements(n));
    g.bench_function("kalah-6-4", |b| {
        b.iter(|| playouts(&k, 100, &mut XorShift(2026)))
    });
    g.finish();
}

fn searches(c: &mut Criterion) {
    let k = Kalah::new(6, 4, Rules::default());
    let ordered = Options {
        ordering: Ordering::Static,
        aspiration: None,
    };
    let mut g = c.benchmark_group("kalah-negamax");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for depth in [6u32, 7, 8, 9, 10] {
        for (name, algorithm, options) in [
            ("negamax", Algorithm::Minimax, Options::default()),
            ("negamax_ab", Algorithm::AlphaBeta, Options::default()),
            ("negamax_ab-ordered", Algorithm::AlphaBeta, ordered),
        ] {
            let started = Instant::now();
            let (summary, counts) = search(&k, depth, algorithm, options, &mut NullSink);
            let took = started.elapsed();
            eprintln!(
                "kalah(6,4) start, {name} depth {depth}: {} nodes, {} evaluated, value {:?}, move {:?}, {:.3} s",
                counts.nodes,
                counts.evaluations,
                summary.value,
                summary.best_index,
                took.as_secs_f64()
            );
            // Only what is quick enough to repeat goes through criterion.
            if took < Duration::from_millis(300) {
                g.bench_function(format!("{name}/depth-{depth}"), |b| {
                    b.iter(|| search(&k, depth, algorithm, options, &mut NullSink))
                });
            } else {
                eprintln!(
                    "one-shot: {name} depth {depth}: {:.2} s",
                    took.as_secs_f64()
                );
            }
        }
    }
    g.finish();
}

criterion_group!(benches, positions, searches);
criterion_main!(benches);

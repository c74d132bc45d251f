//! The textbooks' game and conventions: tic-tac-toe searched in full from the empty board by
//! minimax and alpha-beta (one thread), untraced and counted in every convention.
//!
//! `cargo bench --bench textbooks`; the counts are printed once beside the times.

use criterion::{criterion_group, criterion_main, Criterion};
use gametrace::game::tictactoe::TicTacToe;
use gametrace::game::tree::{Tree, TreeBuilder, TreeGame};
use gametrace::game::{Player, Probability};
use gametrace::search::counts::Counted;
use gametrace::search::expectimax;
use gametrace::search::{s14, Algorithm, NullSink};
use std::time::Duration;

fn tic_tac_toe(c: &mut Criterion) {
    let ttt = TicTacToe::new(3, 3, 3);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        let counted = Counted::new(&ttt);
        pool.install(|| s14::search(&counted, 9, algorithm, &mut NullSink));
        eprintln!("tic-tac-toe, {}: {:?}", algorithm.name(), counted.counts());
    }
    let mut g = c.benchmark_group("tictactoe-empty-board");
    g.sample_size(10);
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        g.bench_function(algorithm.name(), |b| {
            b.iter(|| pool.install(|| s14::search(&ttt, 9, algorithm, &mut NullSink)))
        });
        g.bench_function(format!("{}-counted", algorithm.name()), |b| {
            b.iter(|| {
                let counted = Counted::new(&ttt);
                pool.install(|| s14::search(&counted, 9, algorithm, &mut NullSink));
                counted.counts()
            })
        });
    }
    g.finish();
}

/// A uniform tree of `branching` and `depth` whose odd levels are chance nodes with
/// probabilities 1/10, 2/10, 3/10, 4/10 (branching 4), leaves from a fixed LCG in -50..=50.
fn chance_tree(branching: u32, depth: u32) -> Tree {
    fn grow(
        b: &mut TreeBuilder,
        level: u32,
        depth: u32,
        branching: u32,
        seed: &mut u64,
        n: &mut u64,
    ) {
        let name = format!("n{n}");
        *n += 1;
        if level == depth {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            b.leaf(&name, ((*seed >> 33) % 101) as i64 - 50);
            return;
        }
        b.open(&name);
        if level % 2 == 1 {
            let total: i64 = (1..=i64::from(branching)).sum();
            b.chance(
                (1..=i64::from(branching))
                    .map(|i| Probability::new(i.into(), total.into()))
                    .collect(),
            );
        }
        for _ in 0..branching {
            grow(b, level + 1, depth, branching, seed, n);
        }
        b.close();
    }
    let mut b = TreeBuilder::new();
    grow(&mut b, 0, depth, branching, &mut 2026, &mut 0);
    b.finish()
}

fn chance(c: &mut Criterion) {
    let tree = chance_tree(4, 8);
    let game = TreeGame::new(&tree, Player::Maxie);
    let s = expectimax::search(&game, 8, Algorithm::Expectiminimax, &mut NullSink);
    eprintln!(
        "chance tree b4 d8 ({} nodes, {} leaves): expectiminimax terminals {}",
        tree.len(),
        s.terminals,
        s.terminals
    );
    let mut g = c.benchmark_group("expectimax-generated-b4d8");
    g.sample_size(10);
    for algorithm in [Algorithm::Expectiminimax, Algorithm::Expectimax] {
        g.bench_function(algorithm.name(), |b| {
            b.iter(|| expectimax::search(&game, 8, algorithm, &mut NullSink))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = tic_tac_toe, chance
}
criterion_main!(benches);

//! `cargo bench --bench csc148`: CSC148's games and strategies. Positions per second over
//! random playouts of Subtract Square and Tippy; memoized against plain minimax on Subtract
//! Square from 20, 50 and 100 and on Tippy 4×4 from openings; the move suggested from 99;
//! counting the distinct positions of Tippy 4×4 and of Subtract Square from 1000. Searches
//! too long to repeat are timed once and printed (`one-shot:` lines). The guide's CSC148
//! figures come from this file.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gametrace::game::state_tree::{measure, Limits};
use gametrace::game::subtract_square::SubtractSquare;
use gametrace::game::tippy::{Tippy, TippyState};
use gametrace::game::{Game, Playable, Player, Status};
use gametrace::search::csc148::{search, Strategy};
use gametrace::search::NullSink;
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

/// Plays `games` random games to their end; returns the positions visited.
fn playouts<G: Game>(game: &G, games: usize, rng: &mut XorShift) -> u64 {
    let mut positions = 0;
    for _ in 0..games {
        let mut s = game.start();
        while game.status(&s) == Status::InPlay {
            let moves: Vec<G::Move> = game.moves(&s).collect();
            if moves.is_empty() {
                break;
            }
            positions += 1;
            s = game.play(&s, moves[rng.below(moves.len())]);
        }
    }
    positions
}

const MINIMAX: Strategy = Strategy {
    memoize: false,
    prune: false,
    depth: None,
};
const MEMOIZE: Strategy = Strategy {
    memoize: true,
    prune: false,
    depth: None,
};

/// Tippy 4×4 after the moves `(x, y)` (from 1), p1 first.
fn tippy_after(moves: &[(u8, u8)]) -> Tippy {
    let t = Tippy::new(4);
    let mut s: TippyState = t.start();
    for &(x, y) in moves {
        let cell = t.read_move(&format!("({x},{y})")).unwrap();
        s = t.play(&s, cell);
    }
    t.starting_at(s)
}

fn one_shot<T>(what: &str, f: impl FnOnce() -> T, show: impl Fn(&T) -> String) {
    let started = Instant::now();
    let t = f();
    eprintln!(
        "one-shot: {what}: {} in {:.2} s",
        show(&t),
        started.elapsed().as_secs_f64()
    );
}

fn positions(c: &mut Criterion) {
    let mut g = c.benchmark_group("csc148-playouts");
    let ss = SubtractSquare::new(1000, Player::Maxie);
    let tippy = Tippy::new(4);
    macro_rules! bench {
        ($name:literal, $game:expr) => {
            let n = playouts(&$game, 100, &mut XorShift(2026));
            g.throughput(Throughput::Elements(n));
            g.bench_function($name, |b| {
                b.iter(|| playouts(&$game, 100, &mut XorShift(2026)))
            });
        };
    }
    bench!("subtract_square-1000", ss);
    bench!("tippy-4x4", tippy);
    g.finish();
}

fn strategies(c: &mut Criterion) {
    let mut g = c.benchmark_group("csc148-strategies");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for total in [20u64, 50, 100] {
        let game = SubtractSquare::new(total, Player::Maxie);
        let memo = search(&game, MEMOIZE, &mut NullSink);
        eprintln!(
            "subtract_square p1:{total}: memoize searches {} positions ({} from the table); minimax would search {}",
            memo.terminals,
            memo.table_hits,
            measure(&game, Limits::default())
                .map(|m| m.node_count.to_string())
                .unwrap_or_default()
        );
        g.bench_function(format!("memoize/subtract_square-{total}"), |b| {
            b.iter(|| search(&game, MEMOIZE, &mut NullSink))
        });
    }
    let twenty = SubtractSquare::new(20, Player::Maxie);
    g.bench_function("minimax/subtract_square-20", |b| {
        b.iter(|| search(&twenty, MINIMAX, &mut NullSink))
    });
    let ninety_nine = SubtractSquare::new(99, Player::Maxie);
    g.bench_function("memoize/suggest-from-99", |b| {
        b.iter(|| search(&ninety_nine, MEMOIZE, &mut NullSink).best_index)
    });
    // Tippy 4×4 after six moves: small enough for plain minimax too.
    let six = tippy_after(&[(1, 1), (2, 1), (1, 3), (2, 2), (3, 3), (4, 4)]);
    for (name, s) in [("memoize", MEMOIZE), ("minimax", MINIMAX)] {
        let r = search(&six, s, &mut NullSink);
        eprintln!(
            "tippy 4x4 after 6 moves: {name} searches {} positions ({} from the table)",
            r.terminals, r.table_hits
        );
        g.bench_function(format!("{name}/tippy-after-6"), |b| {
            b.iter(|| search(&six, s, &mut NullSink))
        });
    }
    let four = tippy_after(&[(1, 1), (2, 2), (3, 3), (4, 4)]);
    g.bench_function("memoize/tippy-after-4", |b| {
        b.iter(|| search(&four, MEMOIZE, &mut NullSink))
    });
    g.finish();

    // Too long to repeat: timed once.
    let fifty = SubtractSquare::new(50, Player::Maxie);
    one_shot(
        "minimax subtract_square p1:50",
        || search(&fifty, MINIMAX, &mut NullSink),
        |s| format!("{} positions", s.terminals),
    );
    one_shot(
        "minimax tippy 4x4 after 4 moves",
        || search(&four, MINIMAX, &mut NullSink),
        |s| format!("{} positions", s.terminals),
    );
    let memo4 = search(&four, MEMOIZE, &mut NullSink);
    eprintln!(
        "tippy 4x4 after 4 moves: memoize searches {} positions ({} from the table)",
        memo4.terminals, memo4.table_hits
    );
    let empty = Tippy::new(4);
    one_shot(
        "memoize tippy 4x4 from the empty board",
        || search(&empty, MEMOIZE, &mut NullSink),
        |s| {
            format!(
                "{} positions, {} from the table, score {:?} for p1",
                s.terminals, s.table_hits, s.value
            )
        },
    );
}

fn counting(c: &mut Criterion) {
    let mut g = c.benchmark_group("csc148-game-state-tree");
    g.sample_size(10);
    let thousand = SubtractSquare::new(1000, Player::Maxie);
    g.bench_function("distinct/subtract_square-1000", |b| {
        b.iter(|| {
            measure(&thousand, Limits::default())
                .unwrap()
                .distinct_node_count
        })
    });
    let six = SubtractSquare::new(6, Player::Maxie);
    g.bench_function("all/subtract_square-6", |b| {
        b.iter(|| measure(&six, Limits::default()).unwrap())
    });
    g.finish();
    let empty = Tippy::new(4);
    one_shot(
        "game-state tree of tippy 4x4 from the empty board",
        || measure(&empty, Limits::default()).unwrap(),
        |m| {
            format!(
                "{} distinct positions, {} nodes, {} games",
                m.distinct_node_count, m.node_count, m.leaf_count
            )
        },
    );
}

criterion_group!(benches, positions, strategies, counting);
criterion_main!(benches);

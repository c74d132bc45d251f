//! `cargo bench --bench solve`: `gametrace solve` on Kalah(4, 4), (5, 4) and (6, 3) under each
//! of the four rule sets (end rule × empty capture), with the default limits; a whole game of
//! two perfect players with both judged (`play --p1 perfect --p2 perfect --judge both`); and
//! reading a kept endgame database back (its checks included); Kalah(5, 5) alone and with a
//! helper thread (`--threads`). The larger boards take minutes
//! and are timed once by the command in the guide (docs/src/cs10.md).

use criterion::{criterion_group, criterion_main, Criterion};
use gametrace::game::kalah::{Kalah, Rules};
use std::time::Duration;

fn solves(c: &mut Criterion) {
    use gametrace::game::kalah::EndRule;
    use gametrace::search::solve::{solve, Limits};
    let mut g = c.benchmark_group("kalah-solve");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (pits, seeds) in [(4usize, 4u16), (5, 4), (6, 3)] {
        for (end, name) in [
            (EndRule::Cs10, "cs10"),
            (EndRule::EitherSideEmpty, "either"),
        ] {
            for capture_empty in [false, true] {
                let k = Kalah::new(pits, seeds, Rules { end, capture_empty });
                let solved = solve(&k, Limits::default(), &mut |_| {}).unwrap();
                eprintln!("kalah({pits},{seeds}) {name} capture_empty={capture_empty}: {solved:?}");
                let id = format!(
                    "{pits}-{seeds}-{name}{}",
                    if capture_empty { "-capture-empty" } else { "" }
                );
                g.bench_function(id, |b| b.iter(|| solve(&k, Limits::default(), &mut |_| {})));
            }
        }
    }
    g.finish();
}

/// A whole game of Kalah(5, 4) under CS10's rules between two perfect players, both judged:
/// the database, a solve for every move, and the judge's two solves for every move.
fn perfect_game(c: &mut Criterion) {
    use gametrace::play::{referee, Hands, KalahOracle, Player, Seats, SolverLimits};
    use gametrace::search::solve::Database;
    let mut g = c.benchmark_group("kalah-perfect-game");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let k = Kalah::new(5, 4, Rules::default());
    let limits = SolverLimits {
        time: Some(Duration::from_secs(60)),
        memory: 2 << 30,
    };
    let seats = Seats {
        maxie: Player::Perfect,
        minnie: Player::Perfect,
        max_moves: 1000,
        judged: [true, true],
        solver: limits,
        clock: false,
    };
    g.bench_function("5-4-cs10-judged", |b| {
        b.iter(|| {
            let mut oracle = KalahOracle::new(&k, limits, &mut |k, seeds| {
                Database::build(k, seeds, None, &mut |_| {})
            })
            .unwrap();
            referee(
                &k,
                seats,
                Some(&mut oracle),
                &mut Hands::people(&mut std::io::empty()),
                &mut std::io::sink(),
            )
            .unwrap()
        })
    });
    g.finish();
}

/// Building the 16-seed database of Kalah(6, 4) (30 million positions, 30 MB) on every core,
/// and reading a kept one back with its header and checksum checked: what a run pays instead.
fn database_read(c: &mut Criterion) {
    use gametrace::search::solve::{Bytes, Database};
    let mut g = c.benchmark_group("kalah-database");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let k = Kalah::new(6, 4, Rules::default());
    let built = Database::build(&k, 16, None, &mut |_| {}).unwrap();
    let mut file = Vec::new();
    built.write(&mut file).unwrap();
    let bytes: Bytes = std::sync::Arc::new(file);
    // Built from nothing, on every core (the values are the same on any number).
    g.bench_function("build-6-pits-16-seeds", |b| {
        b.iter(|| Database::build(&k, 16, None, &mut |_| {}).unwrap().seeds())
    });
    g.bench_function("read-6-pits-16-seeds", |b| {
        b.iter(|| Database::read(&k, 16, bytes.clone()).unwrap().seeds())
    });
    g.finish();
}

/// Kalah(5, 5) with CS10's end rule and empty capture (40 million positions alone, about
/// 16 s), searched alone and with a helper thread over the shared table (`solve --threads`).
fn threads(c: &mut Criterion) {
    use gametrace::game::kalah::EndRule;
    use gametrace::search::solve::{solve, Limits};
    let mut g = c.benchmark_group("kalah-threads");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    let k = Kalah::new(
        5,
        5,
        Rules {
            end: EndRule::Cs10,
            capture_empty: true,
        },
    );
    for threads in [1, 2] {
        let limits = Limits {
            threads,
            ..Limits::default()
        };
        g.bench_function(format!("5-5-cs10-capture-empty-{threads}"), |b| {
            b.iter(|| solve(&k, limits, &mut |_| {}))
        });
    }
    g.finish();
}

criterion_group!(benches, solves, perfect_game, database_read, threads);
criterion_main!(benches);

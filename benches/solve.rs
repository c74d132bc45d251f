//! `cargo bench --bench solve`: `gametrace solve` on Kalah(4, 4), (5, 4) and (6, 3) under each
//! of the four rule sets (end rule × empty capture), with the default limits. The larger
//! boards take minutes and are timed once by the command in the guide (docs/src/cs10.md).

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

criterion_group!(benches, solves);
criterion_main!(benches);

//! `cargo bench --bench kalah_cold [-- FILTER...] [--runs N]`: Kalah(6, 4) solved from cold
//! and warm under each of the four rule sets (end rule × empty capture), N runs each
//! (default 3), with `gametrace solve`'s default limits.
//!
//! - **cold**: nothing kept. The endgame database is built (on every core) and the board
//!   searched: what a first `gametrace solve kalah --pits 6 --seeds 4 [rules]` pays, or
//!   `--no-endgame-file`.
//! - **warm**: the database kept by an earlier run (built once before the runs, not timed)
//!   is read back with its header and checksum checked, and the board searched: what every
//!   later run pays.
//!
//! A run takes 5 to 90 s, which criterion's ten samples a row would make into hours, so
//! this bench times each run once with a wall clock and prints every run, the median and
//! the answer (which must be the published margin: a wrong one stops the bench).
//! Kalah(6, 5) under the published rules (either side empty, empty capture; `6-5`) takes
//! from 13 minutes (with a 24-seed database and 6 GB) to over an hour: it runs only when a
//! filter names it.

use gametrace::game::kalah::{EndRule, Kalah, Rules};
use gametrace::search::solve::{
    database_seeds, solve, solve_with, Bytes, Database, Limits, Solved,
};
use std::time::Instant;

struct Board {
    id: String,
    kalah: Kalah,
    /// The published margin for p1.
    margin: i32,
    /// Run only when a filter names it.
    long: bool,
}

fn boards() -> Vec<Board> {
    let rules = |end, capture_empty| Rules { end, capture_empty };
    let mut all = Vec::new();
    // Margins: the published rules' +10 and +12 are Irving, Donkers and Uiterwijk's (2000);
    // the others are the CS10 chapter's table's.
    for (end, name) in [
        (EndRule::Cs10, "cs10"),
        (EndRule::EitherSideEmpty, "either"),
    ] {
        for capture_empty in [false, true] {
            let margin = if capture_empty { 10 } else { 8 };
            all.push(Board {
                id: format!(
                    "6-4-{name}{}",
                    if capture_empty { "-capture-empty" } else { "" }
                ),
                kalah: Kalah::new(6, 4, rules(end, capture_empty)),
                margin,
                long: false,
            });
        }
    }
    all.push(Board {
        id: "6-5-either-capture-empty".to_owned(),
        kalah: Kalah::new(6, 5, rules(EndRule::EitherSideEmpty, true)),
        margin: 12,
        long: true,
    });
    all
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn row(label: &str, times: &[f64], note: &str) {
    let runs: Vec<String> = times.iter().map(|t| format!("{t:.2} s")).collect();
    println!(
        "kalah-cold/{label:<34} median {:>7.2} s   runs {}   {note}",
        median(times.to_vec()),
        runs.join(", ")
    );
}

fn main() {
    let mut runs = 3usize;
    let mut filters = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(runs)
                .max(1);
        } else if !a.starts_with("--") {
            filters.push(a);
        }
    }
    let limits = Limits::default();
    for b in boards() {
        let named = filters.iter().any(|f| b.id.contains(f.as_str()));
        if !named && (b.long || !filters.is_empty()) {
            continue;
        }
        let seeds = database_seeds(&b.kalah, &limits);
        // Times `runs` solves by `solve`, checks each answer, and prints the row.
        let time = |what: &str, held: &str, solve: &mut dyn FnMut() -> Solved| {
            let mut times = Vec::new();
            for _ in 0..runs {
                let t = Instant::now();
                let margin = solve().margin;
                times.push(t.elapsed().as_secs_f64());
                assert_eq!(
                    margin, b.margin,
                    "{} {what}: p1's margin {margin}, published {}",
                    b.id, b.margin
                );
            }
            let note = format!("margin {:+}, {seeds}-seed database {held}", b.margin);
            row(&format!("{}/{what}", b.id), &times, &note);
        };
        time("cold", "built", &mut || {
            solve(&b.kalah, limits, &mut |_| {}).expect("solved")
        });
        // The kept database, as a file's bytes: built once, not timed.
        let mut file = Vec::new();
        Database::build(&b.kalah, seeds, None, &mut |_| {})
            .expect("built")
            .write(&mut file)
            .expect("written");
        let bytes: Bytes = std::sync::Arc::new(file);
        time("warm", "kept", &mut || {
            let db = Database::read(&b.kalah, seeds, bytes.clone()).expect("read back");
            solve_with(&b.kalah, limits, db, &mut |_| {}).expect("solved")
        });
    }
}

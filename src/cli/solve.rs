//! `gametrace solve`: small Kalah boards solved exactly.

use super::common::*;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: kalah
    pub game: String,
    /// Pits a side (1 to 8)
    #[arg(long, value_name = "P", default_value_t = 6)]
    pub pits: u64,
    /// Seeds a pit at the start
    #[arg(long, value_name = "S", default_value_t = 4)]
    pub seeds: u64,
    /// Capture the lone seed even when the opposite pit is empty (a common variant)
    #[arg(long)]
    pub capture_empty: bool,
    /// Give up after this many seconds
    #[arg(long, value_name = "SECS", default_value = "600", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Remember at most this many positions (the default needs about 3 GB); the answer stays exact
    #[arg(long, value_name = "N", default_value_t = crate::search::solve::TABLE_CAP)]
    pub max_table: usize,
}

pub fn execute(a: Args) -> i32 {
    solve(
        &a.game,
        a.pits,
        a.seeds,
        a.capture_empty,
        a.time_limit,
        a.max_table,
    )
}

/// Solves Kalah(pits, seeds) within the time limit and says who wins by how much.
fn solve(
    game: &str,
    pits: u64,
    seeds: u64,
    capture_empty: bool,
    time_limit: f64,
    max_table: usize,
) -> i32 {
    use crate::game::kalah::{Kalah, MAX_SEEDS};
    if game != "kalah" {
        eprintln!("error: `solve` solves kalah, not `{game}`\n  hint: gametrace solve kalah --pits 4 --seeds 3");
        return 2;
    }
    if !(1..=8).contains(&pits)
        || !(1..=u64::from(MAX_SEEDS)).contains(&seeds)
        || 2 * pits * seeds > 255
    {
        eprintln!(
            "error: Kalah({pits}, {seeds}) cannot be solved here\n  expected: --pits 1 to 8 and --seeds 1 to {MAX_SEEDS}, with fewer than 256 seeds in all\n  hint: the boards that finish are small: see the table in the guide's CS10 chapter"
        );
        return 2;
    }
    let kalah = Kalah::new(pits as usize, seeds as u16, capture_empty);
    let started = std::time::Instant::now();
    let deadline = started + Duration::from_secs_f64(time_limit);
    let rule = if capture_empty {
        "the empty-capture variant"
    } else {
        "the notes' capture rule"
    };
    match crate::search::solve::solve(&kalah, Some(deadline), max_table) {
        Ok(s) => {
            let result = match s.margin {
                0 => "a draw".to_owned(),
                m if m > 0 => format!("p1 wins by {m}"),
                m => format!("p2 wins by {}", -m),
            };
            let best = s
                .best
                .map_or(String::new(), |b| format!(" (best first move: pit {b})"));
            print_all(&format!(
                "Kalah({pits}, {seeds}), {rule}: {result} with perfect play{best}\nsearched {} positions ({} in the table) in {:.2} s\n",
                s.positions,
                s.table,
                started.elapsed().as_secs_f64()
            ))
        }
        Err(_) => {
            eprintln!(
                "Kalah({pits}, {seeds}), {rule}: not solved within {time_limit} s\n  hint: raise --time-limit, or solve a smaller board"
            );
            1
        }
    }
}

//! `gametrace solve`: Kalah boards solved exactly, under any rule set.

use super::common::*;
use crate::game::kalah::{EndRule, Kalah, Rules, MAX_SEEDS};
use crate::search::solve::{Limits, Progress, Unsolved};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// When the game ends, as the command line names it (`solve` and `play`).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum EndRuleArg {
    /// CS10's notes: when the player to move has no seeds, the opponent sweeps their own
    Cs10,
    /// As soon as either row is empty, each player sweeps their own (Wikipedia's rule)
    EitherSideEmpty,
}

impl From<EndRuleArg> for EndRule {
    fn from(a: EndRuleArg) -> EndRule {
        match a {
            EndRuleArg::Cs10 => EndRule::Cs10,
            EndRuleArg::EitherSideEmpty => EndRule::EitherSideEmpty,
        }
    }
}

/// A Kalah board and its rules, as `solve` and `endgame build` take them.
#[derive(clap::Args, Debug)]
pub struct KalahBoard {
    /// Pits a side (1 to 8)
    #[arg(long, value_name = "P", default_value_t = 6)]
    pub pits: u64,
    /// Seeds a pit at the start
    #[arg(long, value_name = "S", default_value_t = 4)]
    pub seeds: u64,
    /// When the game ends
    #[arg(long, value_enum, value_name = "RULE", default_value = "cs10")]
    pub end_rule: EndRuleArg,
    /// Capture the lone seed even when the opposite pit is empty (the "empty capture" variant)
    #[arg(long)]
    pub capture_empty: bool,
}

impl KalahBoard {
    /// The game, if its board can be packed (8 pits a side at most, fewer than 256 seeds);
    /// if not, `Err` says `refused` (the board) with what is expected.
    pub fn kalah(&self, refused: impl Fn(u64, u64) -> String) -> Result<Kalah, Failure> {
        let (pits, seeds) = (self.pits, self.seeds);
        if !(1..=8).contains(&pits)
            || !(1..=u64::from(MAX_SEEDS)).contains(&seeds)
            || 2 * pits * seeds > 255
        {
            return Err(Failure::message(format!("{}\n  expected: --pits 1 to 8 and --seeds 1 to {MAX_SEEDS}, with fewer than 256 seeds in all",
                refused(pits, seeds))));
        }
        let rules = Rules {
            end: self.end_rule.into(),
            capture_empty: self.capture_empty,
        };
        Ok(Kalah::new(pits as usize, seeds as u16, rules))
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: kalah
    pub game: String,
    #[command(flatten)]
    pub board: KalahBoard,
    /// Give up after this many seconds
    #[arg(long, value_name = "SECS", default_value = "3600", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Memory for the endgame database and the transposition table (K, M, G suffixes); the
    /// answer is exact whatever it is, only slower when small
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = parse_bytes)]
    pub memory: usize,
    /// Build the endgame database up to this many seeds left [default: by the memory, at
    /// most 150 million positions: three eighths of the seeds with empty capture, two fifths without]
    #[arg(long, value_name = "SEEDS")]
    pub endgame: Option<u32>,
    /// Threads that search together over one table (Lazy SMP); the margin and the best move
    /// are the same for any number, the positions searched are not. 2 took Kalah(6, 4) under
    /// CS10's rules from 21 s to 15 to 17 s on 2 cores, and made the empty-capture rule sets
    /// slower, so one is the default
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    #[command(flatten)]
    pub keeping: super::endgame::Keeping,
}

pub fn execute(a: Args) -> Exit {
    if a.game != "kalah" {
        return Err(Failure::message(format!("error: `solve` solves kalah, not `{}`\n  hint: gametrace solve kalah --pits 4 --seeds 3",
            a.game)));
    }
    let kalah = match a
        .board
        .kalah(|pits, seeds| format!("error: Kalah({pits}, {seeds}) cannot be solved here"))
    {
        Ok(k) => k,
        Err(refused) => {
            return Err(Failure::Message(format!(
                "{refused}  hint: the boards that finish are small: see the table in the guide's CS10 chapter\n"
            )))
        }
    };
    let (pits, seeds) = (kalah.pits as u64, u64::from(kalah.seeds));
    if let Some(e) = a.endgame {
        let bytes = if e > 127 {
            u64::MAX
        } else {
            crate::search::solve::endgame_bytes(pits as usize, e)
        };
        if bytes > a.memory as u64 {
            return Err(Failure::message(format!("error: an endgame database of {e} seeds on {pits} pits a side does not fit in --memory ({} bytes)\n  expected: a database of at most --memory bytes, one a position (20 seeds on 6 pits is 226 million positions)\n  found: {}\n  hint: leave --endgame out to size it by --memory, or raise --memory",
                a.memory,
                if bytes == u64::MAX { "more than 2^64 bytes".to_owned() } else { format!("{bytes} bytes") })));
        }
    }
    let started = Instant::now();
    let limits = Limits {
        deadline: Some(started + Duration::from_secs_f64(a.time_limit)),
        memory: a.memory,
        endgame: a.endgame,
        threads: usize::from(a.threads),
    };
    let bar = Bar::new();
    let stored = crate::search::solve::database_seeds(&kalah, &limits);
    let size = match a.endgame {
        Some(_) => super::endgame::Size::Exactly(stored),
        None => super::endgame::Size::AtLeast {
            seeds: stored,
            memory: a.memory,
        },
    };
    let dir = a.keeping.dir();
    let solved = super::endgame::database(&kalah, size, limits.deadline, dir.as_deref(), &bar)
        .and_then(|db| crate::search::solve::solve_with(&kalah, limits, db, &mut |p| bar.show(p)));
    bar.finish();
    let board = format!("Kalah({pits}, {seeds}), {}", kalah.rules);
    match solved {
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
                "{board}: {result} with perfect play{best}\nsearched {} positions in {:.2} s: endgame database to {} seeds ({} positions), table {} of {} entries, {} probes\n",
                s.positions,
                started.elapsed().as_secs_f64(),
                s.endgame.0,
                s.endgame.1,
                s.table.0,
                s.table.1,
                s.probes,
            ))
        }
        Err(Unsolved::OutOfTime) => {
            eprintln!(
                "{board}: not solved within {} s\n  hint: raise --time-limit or --memory, or solve a smaller board",
                a.time_limit
            );
            Ok(1)
        }
        Err(Unsolved::TooLarge) => Err(Failure::message(format!(
            "error: {board} cannot be solved here"
        ))),
    }
}

/// The progress bar on a terminal: the endgame database as it fills, then the bounds on
/// the margin closing in.
pub(super) struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub(super) fn new() -> Bar {
        Bar(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(1);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {wide_msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .progress_chars("█▌ "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        }))
    }

    pub(super) fn show(&self, p: Progress) {
        let Some(bar) = &self.0 else { return };
        match p {
            Progress::Endgame { done, of } => {
                bar.set_length(of);
                bar.set_position(done);
                bar.set_message(format!("endgame database: {done} of {of} positions"));
            }
            Progress::Search {
                lo,
                hi,
                seeds,
                positions,
            } => {
                // The bar fills as the window on the margin narrows.
                let width = 2 * seeds as u64;
                bar.set_length(width);
                bar.set_position(width - (hi - lo) as u64);
                bar.set_message(format!(
                    "p1's margin between {lo} and {hi}, {positions} positions searched"
                ));
            }
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

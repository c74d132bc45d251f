//! Solving small Kalah boards exactly (`gametrace solve kalah`): the first player's final
//! margin with perfect play from the start.
//!
//! What is still to be won from a position depends only on the seeds in the pits, not on
//! the kalahs, so the search scores a position by the margin the player to move can still
//! add ("gain" now, plus or minus what follows), and a transposition table keyed by the
//! pits alone (rows from the mover's side) serves every kalah count. The search is negamax
//! with alpha-beta over that margin, bounds kept in the table (lower and upper), moves that
//! move again tried first and then the larger immediate gains.

use crate::game::kalah::{Board, Kalah, Pit};
use crate::game::{Game, Player};
use hashbrown::HashMap;
use std::time::Instant;

/// A solved start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// p1's final margin (p1's kalah minus p2's) with perfect play.
    pub margin: i32,
    /// A best first move for p1.
    pub best: Option<u8>,
    /// Positions searched.
    pub positions: u64,
    /// Positions in the table at the end.
    pub table: usize,
}

/// Why a board was not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The deadline passed first.
    OutOfTime,
    /// More than 8 pits a side, or 256 seeds or more: positions would not fit the table's key.
    TooLarge,
}

/// The most positions the table keeps (3.2 GB peak RSS on Kalah(6, 4) at this cap): past it,
/// new positions are searched but not remembered, so memory stays bounded and the answer
/// stays exact.
pub const TABLE_CAP: usize = 40_000_000;

struct Solver<'k> {
    kalah: &'k Kalah,
    table: HashMap<u128, (i16, i16)>,
    positions: u64,
    deadline: Option<Instant>,
    cap: usize,
}

impl Solver<'_> {
    /// The pits from the mover's side: the mover's row, then the opponent's.
    fn key(&self, b: &Board) -> u128 {
        let me = crate::game::kalah::side(b.to_move);
        let mut k: u128 = 0;
        for s in [me, 1 - me] {
            for i in 0..self.kalah.pits {
                k = k << 8 | u128::from(b.pits[s][i]);
            }
        }
        k
    }

    /// The most the mover can still add to their margin from `b`, searched within (alpha,
    /// beta): exact inside the window, a bound outside it.
    fn value(&mut self, b: &Board, mut alpha: i32, mut beta: i32) -> Result<i32, Unsolved> {
        let k = self.kalah;
        if k.over(b) {
            return Ok(0);
        }
        self.positions += 1;
        if self.positions % 65_536 == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            return Err(Unsolved::OutOfTime);
        }
        let key = self.key(b);
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&(lo, hi)) = self.table.get(&key) {
            let (lo, hi) = (i32::from(lo), i32::from(hi));
            if lo >= beta {
                return Ok(lo);
            }
            if hi <= alpha {
                return Ok(hi);
            }
            if lo == hi {
                return Ok(lo);
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let me = b.to_move;
        let mut children: Vec<(i32, bool, Board)> = k
            .moves(b)
            .map(|m| {
                let mut next = k.sow(b, m);
                let gain = margin_of(&next, me) - margin_of(b, me);
                // What follows depends on the pits only: the kalahs start again from 0.
                next.kalahs = [0, 0];
                (gain, next.to_move == me, next)
            })
            .collect();
        children
            .sort_by_key(|&(gain, again, _)| (std::cmp::Reverse(again), std::cmp::Reverse(gain)));
        let mut best = i32::MIN;
        for (gain, again, next) in children {
            let v = if again {
                gain + self.value(&next, alpha - gain, beta - gain)?
            } else {
                gain - self.value(&next, gain - beta, gain - alpha)?
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bounds = if best <= alpha0 {
            (i16::MIN, best as i16)
        } else if best >= beta0 {
            (best as i16, i16::MAX)
        } else {
            (best as i16, best as i16)
        };
        let room = self.table.len() < self.cap;
        match self.table.get_mut(&key) {
            Some(entry) => *entry = (entry.0.max(bounds.0), entry.1.min(bounds.1)),
            None if room => {
                self.table.insert(key, bounds);
            }
            None => {}
        }
        Ok(best)
    }
}

/// `player`'s kalah minus the other's.
fn margin_of(b: &Board, player: Player) -> i32 {
    let s = crate::game::kalah::side(player);
    i32::from(b.kalahs[s]) - i32::from(b.kalahs[1 - s])
}

/// Solves `kalah` from its start: p1's final margin with perfect play, unless `deadline`
/// passes first. Boards of up to 8 pits a side with fewer than 256 seeds; the table holds
/// at most `cap` positions ([`TABLE_CAP`] is a good default).
pub fn solve(kalah: &Kalah, deadline: Option<Instant>, cap: usize) -> Result<Solved, Unsolved> {
    if kalah.pits > 8 || kalah.total(&kalah.start()) > 255 {
        return Err(Unsolved::TooLarge);
    }
    let mut s = Solver {
        kalah,
        table: HashMap::new(),
        positions: 0,
        deadline,
        cap,
    };
    let start = kalah.start();
    let seeds = kalah.total(&start) as i32;
    let mover = start.to_move;
    // The root, move by move, for the best move (exact values: a full window).
    let mut best: Option<(i32, u8)> = None;
    for m in kalah.moves(&start) {
        let mut next = kalah.sow(&start, m);
        let gain = margin_of(&next, mover) - margin_of(&start, mover);
        next.kalahs = [0, 0];
        let again = next.to_move == mover;
        let rest = s.value(&next, -seeds - 1, seeds + 1)?;
        let v = if again { gain + rest } else { gain - rest };
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, m.pit));
        }
    }
    let here = margin_of(&start, mover);
    let future = best.map_or(0, |(v, _)| v);
    let mine = here + future;
    Ok(Solved {
        margin: if mover == Player::Maxie { mine } else { -mine },
        best: best.map(|(_, m)| m),
        positions: s.positions,
        table: s.table.len(),
    })
}

/// The move `Pit` for p1's pit `i` (for callers that replay a solution).
pub fn pit(i: u8) -> Pit {
    Pit { pit: i, side: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::cs10::{search, Options};
    use crate::search::{Algorithm, NullSink};

    #[test]
    fn the_solver_agrees_with_negamax_searched_to_the_end() {
        // Small boards, searched by CS10's negamax far past their longest game: a finished
        // game scores 100 × the margin, so the root value / 100 is the margin.
        for pits in 1..=3 {
            for seeds in 1..=3 {
                for capture_empty in [false, true] {
                    let k = Kalah::new(pits, seeds, capture_empty);
                    let solved = solve(&k, None, TABLE_CAP).unwrap();
                    let (s, _) = search(
                        &k,
                        40,
                        Algorithm::AlphaBeta,
                        Options::default(),
                        &mut NullSink,
                    );
                    let Some(crate::game::Estimate::Guess(v)) = s.value else {
                        panic!("a value")
                    };
                    assert_eq!(
                        i64::from(solved.margin) * 100,
                        v,
                        "Kalah({pits}, {seeds}) {capture_empty}"
                    );
                }
            }
        }
    }
}

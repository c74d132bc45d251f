//! Solving Kalah boards exactly (`gametrace solve kalah`): the first player's final margin
//! with perfect play from the start, under any of the rule sets of
//! [`Rules`](crate::game::kalah::Rules).
//!
//! What is still to be won from a position depends only on the seeds in the pits, not on
//! the kalahs, so a position is the pits alone from the mover's side ([`board`]) and its
//! value is the margin the mover can still add. Positions with few seeds left come from an
//! endgame database built first ([`endgame`]); above it the search is MTD(f): null-window
//! alpha-beta probes that close in on the value, sharing a transposition table of bounds in a
//! fixed block of memory ([`table`]). Moves that move again are tried first, then the larger
//! gains, and a move whose gain plus every seed left cannot reach the window is not searched.

mod board;
mod endgame;
mod table;

use crate::clock::Instant;
use crate::game::kalah::Kalah;
use board::{seeds, After, Pits, Rings};
use endgame::Endgame;
use table::Table;

/// A solved start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// p1's final margin (p1's kalah minus p2's) with perfect play.
    pub margin: i32,
    /// A best first move for p1 (the lowest-numbered pit among the best).
    pub best: Option<u8>,
    /// Positions searched above the endgame database.
    pub positions: u64,
    /// Positions in the transposition table at the end, and the most it could hold.
    pub table: (usize, usize),
    /// The endgame database: the most seeds its positions hold, and how many positions.
    pub endgame: (u32, u64),
    /// The null-window probes MTD(f) took.
    pub probes: u32,
}

/// Why a board was not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The deadline passed first.
    OutOfTime,
    /// More than 8 pits a side, or 256 seeds or more: positions would not fit the board.
    TooLarge,
}

/// How far a solve has come, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// The endgame database: positions done out of all.
    Endgame { done: u64, of: u64 },
    /// The search: the margin (for p1) is known to lie in `lo..=hi`, out of `-seeds..=seeds`.
    Search {
        lo: i32,
        hi: i32,
        seeds: i32,
        positions: u64,
    },
}

/// What a solve may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Give up when this passes.
    pub deadline: Option<Instant>,
    /// Bytes for the endgame database and the transposition table together.
    pub memory: usize,
    /// The most seeds the endgame database's positions hold; `None` picks by the memory.
    pub endgame: Option<u32>,
}

/// The default memory: 2 GiB.
pub const MEMORY: usize = 2 << 30;

/// The most positions the endgame database takes unless asked for more: it builds at about
/// 5 million positions a second on one core, so larger ones cost more than they save on the
/// boards that finish.
pub const ENDGAME_POSITIONS: u64 = 60_000_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: None,
            memory: MEMORY,
            endgame: None,
        }
    }
}

struct Solver<'e> {
    rings: Rings,
    endgame: &'e Endgame,
    table: Table,
    positions: u64,
    deadline: Option<Instant>,
}

/// A child of a position, ready to search.
#[derive(Clone, Copy)]
struct Child {
    order: i32,
    pit: u8,
    gain: i32,
    after: After,
    /// What the child is worth at least and at most, as far as the table and the database
    /// know.
    at_least: i32,
    at_most: i32,
}

impl Solver<'_> {
    /// The value of `x` (with `s` seeds) for the mover, fail-soft within (alpha, beta): exact
    /// inside the window, a bound outside it.
    fn value(&mut self, x: Pits, s: u32, mut alpha: i32, mut beta: i32) -> Result<i32, Unsolved> {
        if s <= self.endgame.max {
            return Ok(self.endgame.value(x, s));
        }
        // The mover can neither win nor lose more than the seeds left.
        let left = s as i32;
        if left <= alpha {
            return Ok(left);
        }
        if -left >= beta {
            return Ok(-left);
        }
        if let Some(v) = self.rings.finished(x) {
            return Ok(v);
        }
        self.positions += 1;
        if self.positions & 0xF_FFFF == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            return Err(Unsolved::OutOfTime);
        }
        let before = self.positions;
        let mut hint = 0xFF;
        if let Some(k) = self.table.get(x) {
            if k.lo >= beta {
                return Ok(k.lo);
            }
            if k.hi <= alpha {
                return Ok(k.hi);
            }
            if k.lo == k.hi {
                return Ok(k.lo);
            }
            alpha = alpha.max(k.lo);
            beta = beta.min(k.hi);
            hint = k.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut children = [Child {
            order: 0,
            pit: 0,
            gain: 0,
            after: After::Over,
            at_least: i32::MIN,
            at_most: i32::MAX,
        }; 8];
        let mut n = 0;
        let mut moves = self.rings.moves(x);
        while moves != 0 {
            let i = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let sown = self.rings.sow(x, usize::from(i));
            // The child's bucket loads while the other moves are sown: the cutoff test below
            // reads it (positions in the database are never in the table).
            if let After::Again(y) | After::Turn(y) = sown.after {
                if seeds(y) > self.endgame.max {
                    self.table.prefetch(y);
                }
            }
            // The table's move, then moves that move again (nearest the kalah first, so the
            // others' chains still land), then the larger gains.
            let order = if i == hint {
                1 << 20
            } else if matches!(sown.after, After::Again(_)) {
                1 << 10 | i32::from(i)
            } else {
                sown.gain
            };
            let mut at = n;
            while at > 0 && children[at - 1].order < order {
                children[at] = children[at - 1];
                at -= 1;
            }
            children[at] = Child {
                order,
                pit: i,
                gain: sown.gain,
                after: sown.after,
                at_least: i32::MIN,
                at_most: i32::MAX,
            };
            n += 1;
        }
        // Enhanced transposition cutoff: a child whose known bound already reaches beta ends
        // the search here, before any child is searched; one known not to pass alpha need
        // not be searched at all (its bound is all a fail-soft node needs of it).
        for c in &mut children[..n] {
            let (at_least, at_most) = match c.after {
                After::Over => (c.gain, c.gain),
                // Positions in the database are never in the table: it has their value.
                After::Again(y) if seeds(y) <= self.endgame.max => {
                    let v = c.gain + self.endgame.value(y, seeds(y));
                    (v, v)
                }
                After::Turn(y) if seeds(y) <= self.endgame.max => {
                    let v = c.gain - self.endgame.value(y, seeds(y));
                    (v, v)
                }
                After::Again(y) => self
                    .table
                    .get(y)
                    .map_or((i32::MIN, i32::MAX), |k| (c.gain + k.lo, c.gain + k.hi)),
                After::Turn(y) => self
                    .table
                    .get(y)
                    .map_or((i32::MIN, i32::MAX), |k| (c.gain - k.hi, c.gain - k.lo)),
            };
            if at_least >= beta {
                self.table.put(x, at_least, left, c.pit, 0);
                return Ok(at_least);
            }
            (c.at_least, c.at_most) = (at_least, at_most);
        }
        let mut best = i32::MIN;
        let mut best_pit = 0xFF;
        for c in &children[..n] {
            let g = c.gain;
            let v = match c.after {
                // Known not to pass alpha, or known exactly.
                _ if c.at_most <= alpha || c.at_least == c.at_most => c.at_most,
                After::Over => g,
                After::Again(y) => {
                    let t = seeds(y);
                    if g + t as i32 <= alpha {
                        g + t as i32
                    } else {
                        g + self.value(y, t, alpha - g, beta - g)?
                    }
                }
                After::Turn(y) => {
                    let t = seeds(y);
                    if g + t as i32 <= alpha {
                        g + t as i32
                    } else {
                        g - self.value(y, t, g - beta, g - alpha)?
                    }
                }
            };
            if v > best {
                best = v;
                best_pit = c.pit;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let (lo, hi) = if best <= alpha0 {
            (-left, best)
        } else if best >= beta0 {
            (best, left)
        } else {
            (best, best)
        };
        let work = 64 - (self.positions - before).leading_zeros();
        self.table.put(x, lo, hi, best_pit, work as u8);
        Ok(best)
    }
}

/// The endgame database's size, in seeds, for a board of `pits` a side with `total` seeds:
/// a third of the seeds, within a quarter of `memory` and [`ENDGAME_POSITIONS`]. (Measured:
/// Kalah(6, 3) took 1.9 s with 12 seeds and 15.8 s with 17, the database's build; Kalah(6, 4)
/// 194 s with 14, 144 s with 16.)
fn endgame_seeds(pits: usize, total: u32, memory: usize) -> u32 {
    let budget = (memory as u64 / 4).min(ENDGAME_POSITIONS);
    let mut max = 0;
    while max < total / 3 && max + 1 < 128 && endgame::size(pits, max + 1) <= budget {
        max += 1;
    }
    max
}

/// The bytes an endgame database of up to `max` seeds takes on `pits` pits a side (one a
/// position).
pub fn endgame_bytes(pits: usize, max: u32) -> u64 {
    endgame::size(pits, max)
}

/// Solves `kalah` from its start: p1's final margin with perfect play, unless the deadline
/// passes first. Boards of up to 8 pits a side with fewer than 256 seeds.
pub fn solve(
    kalah: &Kalah,
    limits: Limits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved, Unsolved> {
    let total = 2 * kalah.pits as u32 * u32::from(kalah.seeds);
    if kalah.pits > 8 || total > 255 {
        return Err(Unsolved::TooLarge);
    }
    let rings = Rings::new(kalah.pits, kalah.rules);
    let max = limits
        .endgame
        .unwrap_or_else(|| endgame_seeds(kalah.pits, total, limits.memory))
        .min(127);
    let of = endgame::size(kalah.pits, max);
    let mut out_of_time = false;
    let endgame = Endgame::build(rings, max, &mut |done| {
        progress(Progress::Endgame { done, of });
        out_of_time = limits.deadline.is_some_and(|d| Instant::now() > d);
        !out_of_time
    });
    if out_of_time {
        return Err(Unsolved::OutOfTime);
    }
    let mut s = Solver {
        rings,
        endgame: &endgame,
        table: Table::with_bytes(limits.memory.saturating_sub(of as usize).max(1 << 20)),
        positions: 0,
        deadline: limits.deadline,
    };
    let root: Pits = rings.start(kalah.seeds as u8);
    let left = total as i32;
    // MTD(f): null-window probes from a guess of 0, each moving one bound.
    let (mut lo, mut hi, mut g) = (-left, left, 0);
    let mut probes = 0;
    while lo < hi {
        let beta = if g == lo { g + 1 } else { g };
        g = s.value(root, total, beta - 1, beta)?;
        probes += 1;
        if g < beta {
            hi = g;
        } else {
            lo = g;
        }
        progress(Progress::Search {
            lo,
            hi,
            seeds: left,
            positions: s.positions,
        });
    }
    let margin = lo;
    // The best first move: the lowest pit whose value reaches the margin.
    let mut best = None;
    let mut moves = rings.moves(root);
    while moves != 0 {
        let i = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let sown = rings.sow(root, usize::from(i));
        let reaches = match sown.after {
            After::Over => sown.gain >= margin,
            After::Again(y) => {
                sown.gain + s.value(y, seeds(y), margin - sown.gain - 1, margin - sown.gain)?
                    >= margin
            }
            After::Turn(y) => {
                sown.gain - s.value(y, seeds(y), sown.gain - margin, sown.gain - margin + 1)?
                    >= margin
            }
        };
        if reaches {
            best = Some(i);
            break;
        }
    }
    Ok(Solved {
        margin,
        best,
        positions: s.positions,
        table: (s.table.used, s.table.capacity()),
        endgame: (max, of),
        probes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{EndRule, Rules};
    use crate::game::Game;
    use crate::search::cs10::{search, Options};
    use crate::search::{Algorithm, NullSink};

    #[test]
    fn the_solver_agrees_with_negamax_searched_to_the_end() {
        // Small boards under every rule set, searched by CS10's negamax far past their
        // longest game: a finished game scores 100 × the margin, so the root value / 100 is
        // the margin. The solver runs with no endgame database and with one, and with a
        // table of one bucket (every entry replaced) as well as a roomy one.
        for pits in 1..=3 {
            for seeds in 1..=3 {
                for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
                    for capture_empty in [false, true] {
                        let k = Kalah::new(pits, seeds, Rules { end, capture_empty });
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
                        for (memory, endgame) in [
                            (MEMORY, Some(0)),
                            (MEMORY, Some(5)),
                            (1, Some(0)),
                            (MEMORY, None),
                        ] {
                            let limits = Limits {
                                deadline: None,
                                memory,
                                endgame,
                            };
                            let solved = solve(&k, limits, &mut |_| {}).unwrap();
                            assert_eq!(
                                i64::from(solved.margin) * 100,
                                v,
                                "Kalah({pits}, {seeds}) {end:?} {capture_empty} {limits:?}"
                            );
                            // The best move reaches the margin: replay it and solve the rest
                            // by negamax.
                            let after = k.sow(
                                &k.start(),
                                crate::game::kalah::Pit {
                                    pit: solved.best.unwrap(),
                                    side: None,
                                },
                            );
                            let rest = crate::game::Playable::starting_at(&k, after);
                            let (r, _) = search(
                                &rest,
                                40,
                                Algorithm::AlphaBeta,
                                Options::default(),
                                &mut NullSink,
                            );
                            let Some(crate::game::Estimate::Guess(w)) = r.value else {
                                panic!("a value")
                            };
                            // The summary's value is p1's, whoever moves next.
                            assert_eq!(w, v, "the best move of Kalah({pits}, {seeds})");
                        }
                    }
                }
            }
        }
    }
}

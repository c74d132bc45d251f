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
use crate::game::kalah::Board;
use crate::game::kalah::Kalah;
use board::{pack, seeds, After, Pits, Rings};
use endgame::Endgame;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
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
    /// Threads that search together (Lazy SMP over the shared table); the answer is the
    /// same for any number.
    pub threads: usize,
}

/// The default memory: 2 GiB.
pub const MEMORY: usize = 2 << 30;

/// The most positions the endgame database takes unless asked for more: it builds at about
/// 7 million positions a second on 2 cores (4 on one), so larger ones cost more than they save
/// on the boards that finish. 19 seeds on 6 pits a side (141 million) fits.
pub const ENDGAME_POSITIONS: u64 = 150_000_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: None,
            memory: MEMORY,
            endgame: None,
            threads: 1,
        }
    }
}

struct Solver {
    rings: Rings,
    endgame: Arc<Endgame>,
    table: Arc<Table>,
    positions: u64,
    deadline: Option<Instant>,
    /// Threads that search each probe together (Lazy SMP): 1 searches alone.
    threads: usize,
    /// A helper's signal to stop: the probe it helps with is answered.
    stop: Option<Arc<AtomicBool>>,
    /// A helper tries each position's moves in another order than the main search near the
    /// probe's root, so that the two fill the table with different parts of the tree.
    helper: u32,
    /// How deep below the probe's root the search is.
    ply: u32,
    /// Searching alone, stop at this many positions (and go on with helpers).
    budget: u64,
    /// Positions to search alone before calling on helpers ([`ALONE_FIRST`]).
    alone_first: u64,
    /// The search stopped at its budget (not at the deadline).
    over_budget: bool,
}

/// Positions a search with helpers to call on searches alone first: most searches are over
/// by then, and helpers need the table at its full size, which costs a small search more
/// than it saves (measured: Kalah(5, 4) took 0.42 s alone and 1.27 s with a helper and the
/// full table from the start).
const ALONE_FIRST: u64 = 4 << 20;

/// How many plies below a probe's root a helper thread changes the order of the moves
/// (measured on Kalah(6, 4) under CS10's rules with a 22-seed database and a helper:
/// 0 plies 21.5 s, 1 16.9 s, 2 15.4 s, 8 18.6 s, 30 19.7 s; alone 20.4 to 20.8 s).
const HELPER_PLIES: u32 = 2;

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
    /// Where the database holds the child's value, if it does (`usize::MAX` if not).
    stored: usize,
}

impl Solver {
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
        self.count()?;
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
        let (mut children, n) = self.children(x, hint);
        // Enhanced transposition cutoff: a child whose known bound already reaches beta ends
        // the search here, before any child is searched; one known not to pass alpha need
        // not be searched at all (its bound is all a fail-soft node needs of it).
        for c in &mut children[..n] {
            let (at_least, at_most) = self.known(c);
            if at_least >= beta {
                self.table.put(x, at_least, left, c.pit, 0);
                return Ok(at_least);
            }
            (c.at_least, c.at_most) = (at_least, at_most);
        }
        let mut best = i32::MIN;
        let mut best_pit = 0xFF;
        for c in &children[..n] {
            let v = self.child_value(c, alpha, beta)?;
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

    /// Counts a position searched; now and then, whether to stop (a helper's signal, the
    /// budget, the deadline) and whether the table may grow.
    #[inline(always)]
    fn count(&mut self) -> Result<(), Unsolved> {
        self.positions += 1;
        if self.positions & 0x3FF == 0 {
            if self.stop.as_ref().is_some_and(|s| s.load(Relaxed)) {
                return Err(Unsolved::OutOfTime);
            }
            if self.positions >= self.budget {
                self.over_budget = true;
                return Err(Unsolved::OutOfTime);
            }
            if self.positions & 0xFFFF == 0 {
                // Alone with the table (no helper shares it): it may grow.
                if let Some(t) = Arc::get_mut(&mut self.table) {
                    t.grow_if_due();
                }
            }
            if self.positions & 0xF_FFFF == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(Unsolved::OutOfTime);
            }
        }
        Ok(())
    }

    /// The children of `x` in the order they are searched (the first `n` of the array), the
    /// table's best move `hint` first.
    #[inline(always)]
    fn children(&self, x: Pits, hint: u8) -> ([Child; 8], usize) {
        let mut children = [Child {
            order: 0,
            pit: 0,
            gain: 0,
            after: After::Over,
            at_least: i32::MIN,
            at_most: i32::MAX,
            stored: usize::MAX,
        }; 8];
        let mut n = 0;
        let mut moves = self.rings.moves(x);
        while moves != 0 {
            let i = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let sown = self.rings.sow(x, usize::from(i));
            // The child's bucket loads while the other moves are sown: the cutoff test below
            // reads it (positions in the database are never in the table).
            // So does the database's value of a child in it.
            let mut stored = usize::MAX;
            if let After::Again(y) | After::Turn(y) = sown.after {
                let t = seeds(y);
                if t > self.endgame.max {
                    self.table.prefetch(y);
                } else {
                    stored = self.endgame.locate(y, t);
                    self.endgame.prefetch(stored);
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
                stored,
            };
            n += 1;
        }
        // A helper tries the moves after the first in turn first, a different one in each of
        // its threads.
        if self.helper > 0 && n > 2 && self.ply < HELPER_PLIES {
            let k = 1 + (self.helper as usize - 1) % (n - 1);
            children[..n].rotate_left(k);
        }
        (children, n)
    }

    /// What a child is worth at least and at most (for the mover), as far as the table and
    /// the database know.
    #[inline(always)]
    fn known(&self, c: &Child) -> (i32, i32) {
        match c.after {
            After::Over => (c.gain, c.gain),
            // Positions in the database are never in the table: it has their value.
            After::Again(_) if c.stored != usize::MAX => {
                let v = c.gain + self.endgame.value_at(c.stored);
                (v, v)
            }
            After::Turn(_) if c.stored != usize::MAX => {
                let v = c.gain - self.endgame.value_at(c.stored);
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
        }
    }

    /// A child's value for the mover within (alpha, beta), searched only where its known
    /// bounds and its seeds leave it open.
    #[inline(always)]
    fn child_value(&mut self, c: &Child, alpha: i32, beta: i32) -> Result<i32, Unsolved> {
        let g = c.gain;
        Ok(match c.after {
            // Known not to pass alpha, or known exactly.
            _ if c.at_most <= alpha || c.at_least == c.at_most => c.at_most,
            After::Over => g,
            After::Again(y) => {
                let t = seeds(y);
                if g + t as i32 <= alpha {
                    g + t as i32
                } else {
                    self.ply += 1;
                    let v = self.value(y, t, alpha - g, beta - g)?;
                    self.ply -= 1;
                    g + v
                }
            }
            After::Turn(y) => {
                let t = seeds(y);
                if g + t as i32 <= alpha {
                    g + t as i32
                } else {
                    self.ply += 1;
                    let v = self.value(y, t, g - beta, g - alpha)?;
                    self.ply -= 1;
                    g - v
                }
            }
        })
    }
}

/// The endgame database's size, in seeds, for a board of `pits` a side with `total` seeds
/// under `rules`: three eighths of the seeds with empty capture, two fifths without, within a
/// quarter of `memory` and [`ENDGAME_POSITIONS`]. Without empty capture games run longer and
/// the search above the database is bigger, so a bigger database pays back within the one
/// solve. (Measured on 2 cores, the database built on both, 2026-11-27, one run each:
/// Kalah(6, 4) under CS10's rules 123 s with 16 seeds, 77 s with 19, 79 s with 20; with
/// either side empty 126 s with 16, 81 s with 19; with either side empty and empty capture
/// 40 s with 16, 34.5 s with 18, 47 s with 20; Kalah(5, 5) under CS10's rules 25 s with 16,
/// 18 s with 20; Kalah(6, 3) and (5, 4) the same within 0.1 s either way.)
fn endgame_seeds(pits: usize, total: u32, rules: crate::game::kalah::Rules, memory: usize) -> u32 {
    let budget = (memory as u64 / 4).min(ENDGAME_POSITIONS);
    let wanted = if rules.capture_empty {
        total * 3 / 8
    } else {
        total * 2 / 5
    };
    let mut max = 0;
    while max < wanted && max + 1 < 128 && endgame::size(pits, max + 1) <= budget {
        max += 1;
    }
    max
}

/// The bytes an endgame database of up to `max` seeds takes on `pits` pits a side (one a
/// position).
pub fn endgame_bytes(pits: usize, max: u32) -> u64 {
    endgame::size(pits, max)
}

/// An endgame database for one board and rule set: built, or read from a file written
/// before (the command line keeps them under the user's cache folder).
pub struct Database(Endgame);

pub use endgame::{Bytes, Unreadable};

impl Database {
    /// The most seeds its positions hold.
    pub fn seeds(&self) -> u32 {
        self.0.max
    }

    /// Writes it as a file (a header naming the board, rules and seeds, a checksum, then a
    /// byte a position), for [`Database::read`].
    pub fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.0.write(out)
    }

    /// A database for `kalah`'s board and rules with `seeds` seeds, from a file's bytes,
    /// checked whole against its header.
    pub fn read(kalah: &Kalah, seeds: u32, bytes: Bytes) -> Result<Database, Unreadable> {
        if kalah.pits > 8 || seeds > 127 {
            return Err(Unreadable("too large a board".to_owned()));
        }
        Endgame::read(Rings::new(kalah.pits, kalah.rules), seeds, bytes).map(Database)
    }

    /// Builds the database for `kalah`'s board and rules up to `seeds` seeds, reporting to
    /// `progress`, unless `deadline` passes first.
    pub fn build(
        kalah: &Kalah,
        seeds: u32,
        deadline: Option<Instant>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Database, Unsolved> {
        if kalah.pits > 8 {
            return Err(Unsolved::TooLarge);
        }
        let rings = Rings::new(kalah.pits, kalah.rules);
        let max = seeds.min(127);
        let of = endgame::size(kalah.pits, max);
        let mut out_of_time = false;
        let endgame = Endgame::build(rings, max, &mut |done| {
            progress(Progress::Endgame { done, of });
            out_of_time = deadline.is_some_and(|d| Instant::now() > d);
            !out_of_time
        });
        if out_of_time {
            return Err(Unsolved::OutOfTime);
        }
        Ok(Database(endgame))
    }
}

/// The seeds the endgame database holds when solving `kalah` within `limits`: `--endgame`,
/// or three eighths or two fifths of the seeds by the rules, within a quarter of the memory and
/// [`ENDGAME_POSITIONS`] (`endgame_seeds`).
pub fn database_seeds(kalah: &Kalah, limits: &Limits) -> u32 {
    let total = 2 * kalah.pits as u32 * u32::from(kalah.seeds);
    limits
        .endgame
        .unwrap_or_else(|| endgame_seeds(kalah.pits, total, kalah.rules, limits.memory))
        .min(127)
}

/// Whether the solver takes `kalah`'s board: up to 8 pits a side, fewer than 256 seeds (a
/// position packs into 64 bits). Asked before an endgame database is built for it: that
/// takes minutes on a large board, and would be built for nothing.
pub fn fits(kalah: &Kalah) -> Result<(), Unsolved> {
    let total = 2 * kalah.pits as u32 * u32::from(kalah.seeds);
    if kalah.pits > 8 || total > 255 || kalah.total(&kalah.start) > 255 {
        return Err(Unsolved::TooLarge);
    }
    Ok(())
}

impl Solver {
    /// A solver for `kalah` with this database, within `limits`.
    fn new(kalah: &Kalah, limits: Limits, database: Database) -> Result<Solver, Unsolved> {
        fits(kalah)?;
        let endgame = database.0;
        let of = endgame::size(kalah.pits, endgame.max);
        Ok(Solver {
            rings: Rings::new(kalah.pits, kalah.rules),
            endgame: Arc::new(endgame),
            table: Arc::new(Table::with_bytes(
                limits.memory.saturating_sub(of as usize).max(1 << 20),
            )),
            positions: 0,
            deadline: limits.deadline,
            threads: limits.threads.max(1),
            stop: None,
            helper: 0,
            ply: 0,
            budget: u64::MAX,
            alone_first: ALONE_FIRST,
            over_budget: false,
        })
    }

    /// A solver for `kalah` within `limits`, its database built first.
    fn build(
        kalah: &Kalah,
        limits: Limits,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Solver, Unsolved> {
        if kalah.pits > 8 {
            return Err(Unsolved::TooLarge);
        }
        let seeds = database_seeds(kalah, &limits);
        let database = Database::build(kalah, seeds, limits.deadline, progress)?;
        Solver::new(kalah, limits, database)
    }

    /// The exact value of `x` for the mover: MTD(f), null-window probes from a guess of 0,
    /// each moving one bound, reporting each to `progress`.
    fn exact(
        &mut self,
        x: Pits,
        probes: &mut u32,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<i32, Unsolved> {
        let total = seeds(x);
        let left = total as i32;
        let (mut lo, mut hi, mut g) = (-left, left, 0);
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.probe(x, total, beta)?;
            *probes += 1;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
            progress(Progress::Search {
                lo,
                hi,
                seeds: left,
                positions: self.positions,
            });
        }
        Ok(lo)
    }

    /// A null-window search of `x` at (beta − 1, beta), by this thread and `threads − 1`
    /// helpers searching the same probe into the shared table (Lazy SMP). The answer is this
    /// thread's alone, so it is the sequential search's (a bound from the table is a true
    /// bound, whoever found it); the helpers only make it come sooner, and stop when it has.
    fn probe(&mut self, x: Pits, s: u32, beta: i32) -> Result<i32, Unsolved> {
        self.ply = 0;
        if self.threads <= 1 || !crate::clock::TICKS {
            return self.value(x, s, beta - 1, beta);
        }
        // A shared table cannot grow while shared: helpers are called on once a search alone
        // has run long enough to show they are worth it (what it found stays in the table).
        if let Some(t) = Arc::get_mut(&mut self.table) {
            if t.capacity() < t.limit() && self.alone_first > 0 {
                self.budget = self.positions + self.alone_first;
                let alone = self.value(x, s, beta - 1, beta);
                self.budget = u64::MAX;
                if !std::mem::take(&mut self.over_budget) {
                    return alone;
                }
                self.ply = 0;
            }
        }
        // Room for what this probe adds: twice the table, within its limit.
        if let Some(t) = Arc::get_mut(&mut self.table) {
            t.grow_if_due();
            t.grow_once();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let helpers: Vec<Solver> = (1..self.threads)
            .map(|h| Solver {
                rings: self.rings,
                endgame: Arc::clone(&self.endgame),
                table: Arc::clone(&self.table),
                positions: 0,
                deadline: self.deadline,
                threads: 1,
                stop: Some(Arc::clone(&stop)),
                helper: h as u32,
                ply: 0,
                budget: u64::MAX,
                alone_first: 0,
                over_budget: false,
            })
            .collect();
        let (answer, searched) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    scope.spawn(move || {
                        // A helper stopped, or out of time, has nothing to say.
                        let _ = h.value(x, s, beta - 1, beta);
                        h.positions
                    })
                })
                .collect();
            let answer = self.value(x, s, beta - 1, beta);
            stop.store(true, Relaxed);
            let searched: u64 = running.into_iter().map(|r| r.join().unwrap_or(0)).sum();
            (answer, searched)
        });
        self.positions += searched;
        answer
    }

    /// Whether sowing pit `i` of `x` reaches `margin` for the mover (null-window tests).
    fn reaches(&mut self, x: Pits, i: u8, margin: i32) -> Result<bool, Unsolved> {
        let sown = self.rings.sow(x, usize::from(i));
        let g = sown.gain;
        Ok(match sown.after {
            After::Over => g >= margin,
            After::Again(y) => g + self.value(y, seeds(y), margin - g - 1, margin - g)? >= margin,
            After::Turn(y) => g - self.value(y, seeds(y), g - margin, g - margin + 1)? >= margin,
        })
    }

    /// A best move from `x` worth `margin`: the lowest pit that reaches it.
    fn best(&mut self, x: Pits, margin: i32) -> Result<Option<u8>, Unsolved> {
        let mut moves = self.rings.moves(x);
        while moves != 0 {
            let i = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            if self.reaches(x, i, margin)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }
}

impl Solver {
    /// `x`'s value for the mover by alpha-beta `depth` turns deep (a chain of moves again is
    /// one turn), counting only the kalahs where it stops: exact in the database, at the end of
    /// the game and where the table knows the value.
    fn limited(&mut self, x: Pits, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let s = seeds(x);
        if s <= self.endgame.max {
            return self.endgame.value(x, s);
        }
        if let Some(v) = self.rings.finished(x) {
            return v;
        }
        if let Some(k) = self.table.get(x).filter(|k| k.lo == k.hi) {
            return k.lo;
        }
        if depth == 0 {
            return 0;
        }
        let mut best = i32::MIN;
        let mut moves = self.rings.moves(x);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let sown = self.rings.sow(x, i);
            let g = sown.gain;
            let v = match sown.after {
                After::Over => g,
                After::Again(y) => g + self.limited(y, depth, alpha - g, beta - g),
                After::Turn(y) => g - self.limited(y, depth - 1, g - beta, g - alpha),
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Solves `kalah` from its start: p1's final margin with perfect play, unless the deadline
/// passes first. Boards of up to 8 pits a side with fewer than 256 seeds.
pub fn solve(
    kalah: &Kalah,
    limits: Limits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved, Unsolved> {
    let s = Solver::build(kalah, limits, progress)?;
    solve_from(kalah, s, progress)
}

/// [`solve`] with a database built or read before (its size overrides `limits.endgame`).
pub fn solve_with(
    kalah: &Kalah,
    limits: Limits,
    database: Database,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved, Unsolved> {
    let s = Solver::new(kalah, limits, database)?;
    solve_from(kalah, s, progress)
}

fn solve_from(
    kalah: &Kalah,
    mut s: Solver,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved, Unsolved> {
    let root: Pits = s.rings.start(kalah.seeds as u8);
    let mut probes = 0;
    let margin = s.exact(root, &mut probes, progress)?;
    let best = s.best(root, margin)?;
    Ok(Solved {
        margin,
        best,
        positions: s.positions,
        table: (s.table.used(), s.table.capacity()),
        endgame: (s.endgame.max, endgame::size(kalah.pits, s.endgame.max)),
        probes,
    })
}

/// A perfect Kalah player for one board and rule set: the exact final margin of any
/// position, and of each move from it (`gametrace play kalah --p2 perfect`, `--judge`).
/// Its database is built once and its table kept from one position to the next, so a whole
/// game costs little more than its hardest position.
pub struct Perfect {
    kalah: Kalah,
    solver: Solver,
}

/// A position's worth, or a move's, for the player to move: their kalah minus the other's at
/// the end of the game, with perfect play on both sides.
pub type Margin = i32;

impl Perfect {
    /// Builds the endgame database for `kalah`'s board and rules (within `limits`; its
    /// deadline bounds the build alone).
    pub fn new(
        kalah: &Kalah,
        limits: Limits,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Perfect, Unsolved> {
        let solver = Solver::build(kalah, limits, progress)?;
        Ok(Perfect {
            kalah: kalah.clone(),
            solver,
        })
    }

    /// [`Perfect::new`] with a database built or read before.
    pub fn with_database(
        kalah: &Kalah,
        limits: Limits,
        database: Database,
    ) -> Result<Perfect, Unsolved> {
        let solver = Solver::new(kalah, limits, database)?;
        Ok(Perfect {
            kalah: kalah.clone(),
            solver,
        })
    }

    /// The mover's packed pits and their kalah lead, for a board of this game.
    fn position(&self, board: &Board) -> Result<(Pits, i32), Unsolved> {
        if self.kalah.total(board) > 255 {
            return Err(Unsolved::TooLarge);
        }
        Ok((pack(&self.kalah, board), self.kalah.margin(board) as i32))
    }

    /// The final margin for the player to move at `board` with perfect play from here,
    /// unless `deadline` passes first.
    pub fn value(&mut self, board: &Board, deadline: Option<Instant>) -> Result<Margin, Unsolved> {
        let (x, lead) = self.position(board)?;
        if self.kalah.over(board) {
            return Ok(lead);
        }
        self.solver.deadline = deadline;
        Ok(lead + self.solver.exact(x, &mut 0, &mut |_| {})?)
    }

    /// The final margin for the player to move at `board` if they sow `pit` (not empty) and
    /// both sides play perfectly after.
    pub fn after(
        &mut self,
        board: &Board,
        pit: u8,
        deadline: Option<Instant>,
    ) -> Result<Margin, Unsolved> {
        let (x, lead) = self.position(board)?;
        self.solver.deadline = deadline;
        let sown = self.solver.rings.sow(x, usize::from(pit));
        let rest = match sown.after {
            After::Over => 0,
            After::Again(y) => self.solver.exact(y, &mut 0, &mut |_| {})?,
            After::Turn(y) => -self.solver.exact(y, &mut 0, &mut |_| {})?,
        };
        Ok(lead + sown.gain + rest)
    }

    /// A best move at `board` (the lowest pit among the best) and the final margin it keeps
    /// for the player to move; `None` if the game is over.
    pub fn best(
        &mut self,
        board: &Board,
        deadline: Option<Instant>,
    ) -> Result<Option<(u8, Margin)>, Unsolved> {
        let (x, lead) = self.position(board)?;
        if self.kalah.over(board) {
            return Ok(None);
        }
        self.solver.deadline = deadline;
        let margin = self.solver.exact(x, &mut 0, &mut |_| {})?;
        Ok(self.solver.best(x, margin)?.map(|pit| (pit, lead + margin)))
    }

    /// [`Perfect::after`] by a search `depth` turns deep instead of to the end (see
    /// `Solver::limited`): for a position not solved in the time there is.
    pub fn limited_after(
        &mut self,
        board: &Board,
        pit: u8,
        depth: u32,
    ) -> Result<Margin, Unsolved> {
        let (x, lead) = self.position(board)?;
        let sown = self.solver.rings.sow(x, usize::from(pit));
        let (lo, hi) = (-256, 256);
        let rest = match sown.after {
            After::Over => 0,
            After::Again(y) => self.solver.limited(y, depth, lo, hi),
            After::Turn(y) => -self.solver.limited(y, depth - 1, lo, hi),
        };
        Ok(lead + sown.gain + rest)
    }

    /// [`Perfect::best`] by a search `depth` turns deep: the lowest pit among the best.
    pub fn limited_best(
        &mut self,
        board: &Board,
        depth: u32,
    ) -> Result<Option<(u8, Margin)>, Unsolved> {
        let (x, _) = self.position(board)?;
        if self.kalah.over(board) {
            return Ok(None);
        }
        let mut best: Option<(u8, Margin)> = None;
        let mut moves = self.solver.rings.moves(x);
        while moves != 0 {
            let i = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let v = self.limited_after(board, i, depth)?;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
        }
        Ok(best)
    }

    /// Positions searched so far, above the database.
    pub fn positions(&self) -> u64 {
        self.solver.positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{EndRule, Rules};
    use crate::game::Game;
    use crate::search::cs10::{search, Options};
    use crate::search::{Algorithm, NullSink};

    /// p1's final margin from `b` by CS10's negamax searched past the end of the game (a
    /// finished game scores 100 × p1's margin).
    fn negamax_margin(k: &Kalah, b: Board) -> i64 {
        let rest = crate::game::Playable::starting_at(k, b);
        let (r, _) = search(
            &rest,
            60,
            Algorithm::AlphaBeta,
            Options::default(),
            &mut NullSink,
        );
        let Some(crate::game::Estimate::Guess(v)) = r.value else {
            panic!("a value")
        };
        assert_eq!(v % 100, 0, "the search reached the end");
        v / 100
    }

    #[test]
    fn the_perfect_player_agrees_with_negamax_on_every_position_of_random_games() {
        // Every position of random games, on small boards under every rule set: the value
        // and every move's value for the player to move, against negamax to the end; and
        // the best move keeps the value.
        let mut rng = 7u64;
        let mut next = move |n: usize| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) as usize % n
        };
        for pits in 1..=3 {
            for seeds in 1..=3 {
                for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
                    for capture_empty in [false, true] {
                        let k = Kalah::new(pits, seeds, Rules { end, capture_empty });
                        // A small database and a one-bucket table as well as a roomy one.
                        for (memory, endgame) in [(MEMORY, Some(2)), (1, Some(0))] {
                            let limits = Limits {
                                deadline: None,
                                memory,
                                endgame,
                                threads: 1,
                            };
                            let mut perfect = Perfect::new(&k, limits, &mut |_| {}).unwrap();
                            let mut b = k.start();
                            while !k.over(&b) {
                                let sign = match b.to_move {
                                    crate::game::Player::Maxie => 1,
                                    crate::game::Player::Minnie => -1,
                                };
                                let want = sign * negamax_margin(&k, b);
                                let here =
                                    format!("Kalah({pits}, {seeds}) {end:?} {capture_empty} {b:?}");
                                assert_eq!(
                                    i64::from(perfect.value(&b, None).unwrap()),
                                    want,
                                    "{here}"
                                );
                                let moves: Vec<_> = k.moves(&b).collect();
                                for &m in &moves {
                                    let child = k.sow(&b, m);
                                    let got = sign * negamax_margin(&k, child);
                                    assert_eq!(
                                        i64::from(perfect.after(&b, m.pit, None).unwrap()),
                                        got,
                                        "{here} pit {}",
                                        m.pit
                                    );
                                }
                                let (pit, margin) = perfect.best(&b, None).unwrap().unwrap();
                                assert_eq!(i64::from(margin), want, "{here}");
                                assert_eq!(i64::from(perfect.after(&b, pit, None).unwrap()), want);
                                b = k.sow(&b, moves[next(moves.len())]);
                            }
                            assert_eq!(perfect.best(&b, None).unwrap(), None);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn helpers_change_the_work_and_never_the_answer() {
        // Every board up to 4 pits × 3 seeds under every rule set, solved alone and with one
        // to three helpers called on from the first position, in a roomy table and in one of
        // a single bucket (every write replaces another's, so the threads race on it): the
        // margin and the best move are the same.
        for pits in 1..=4 {
            for seeds in 1..=3 {
                for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
                    for capture_empty in [false, true] {
                        let k = Kalah::new(pits, seeds, Rules { end, capture_empty });
                        for memory in [MEMORY, 1] {
                            let limits = |threads| Limits {
                                deadline: None,
                                memory,
                                endgame: Some(2),
                                threads,
                            };
                            let alone = solve(&k, limits(1), &mut |_| {}).unwrap();
                            for threads in 2..=4 {
                                let database = Database::build(&k, 2, None, &mut |_| {}).unwrap();
                                let mut s = Solver::new(&k, limits(threads), database).unwrap();
                                s.alone_first = 0;
                                let together = solve_from(&k, s, &mut |_| {}).unwrap();
                                assert_eq!(
                                    (together.margin, together.best),
                                    (alone.margin, alone.best),
                                    "Kalah({pits}, {seeds}) {end:?} {capture_empty} {memory} {threads}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

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
                                threads: 1,
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

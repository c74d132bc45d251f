//! The endgame database: the exact value, for the mover, of every position with at most
//! `max` seeds left in the pits, built before the search from one seed up. A position with
//! `s` seeds is found by its rank among the ways of placing `s` seeds in the 2p pits (the
//! combinatorial number system), so the database needs one byte a position and no keys.
//!
//! Within one seed count the only moves are those that put no seed in a kalah; they move
//! seeds towards the mover's kalah and never come back, so a count's positions depend on
//! each other without cycles and are filled by a memoized descent.

use super::board::{byte, seeds, After, Pits, Rings};

/// Not yet known (no value is below -127: boards hold fewer than 128 seeds here).
const UNKNOWN: i8 = i8::MIN;

pub struct Endgame {
    rings: Rings,
    /// The most seeds a stored position holds.
    pub max: u32,
    /// `levels[s][rank]`: the value of the position with `s` seeds of that rank.
    levels: Vec<Vec<i8>>,
    /// `skip[(c × (max+1) + r) × (max+1) + v]`: the placements of `r` seeds in `c` pits
    /// whose first pit holds fewer than `v`.
    skip: Vec<u64>,
}

/// The placements of `r` seeds in `c` pits: C(r + c − 1, c − 1).
pub fn placements(c: usize, r: u32) -> u64 {
    if c == 0 {
        return u64::from(r == 0);
    }
    let (n, k) = (u64::from(r) + c as u64 - 1, c as u64 - 1);
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// The positions a database up to `max` seeds holds on `pits` pits a side (its size in
/// bytes).
pub fn size(pits: usize, max: u32) -> u64 {
    (0..=max).map(|s| placements(2 * pits, s)).sum()
}

impl Endgame {
    /// Builds the database of every position of up to `max` seeds (fewer than 128), calling
    /// `progress` with the positions done so far now and then; it stops (with a database
    /// not to be used) when `progress` says false.
    pub fn build(rings: Rings, max: u32, progress: &mut dyn FnMut(u64) -> bool) -> Endgame {
        assert!(max < 128);
        let m = 2 * rings.pits;
        let w = max as usize + 1;
        let mut skip = vec![0u64; (m + 1) * w * w];
        for c in 1..=m {
            for r in 0..w {
                let mut acc = 0;
                for v in 0..w {
                    skip[(c * w + r) * w + v] = acc;
                    if v <= r {
                        acc += placements(c - 1, (r - v) as u32);
                    }
                }
            }
        }
        let mut e = Endgame {
            rings,
            max,
            levels: Vec::new(),
            skip,
        };
        let mut done = 0;
        for s in 0..=max {
            let n = placements(m, s) as usize;
            e.levels.push(vec![UNKNOWN; n]);
            super::table::huge_pages(&e.levels[s as usize]);
            // Every placement, in rank order, from all seeds in the last pit.
            let mut x: Pits = u128::from(s as u8) << (8 * (m - 1));
            let mut rank = 0;
            loop {
                if e.levels[s as usize][rank] == UNKNOWN {
                    e.fill(x, s);
                }
                rank += 1;
                if rank % (1 << 22) == 0 && !progress(done + rank as u64) {
                    return e;
                }
                match next_placement(x, m) {
                    Some(y) => x = y,
                    None => break,
                }
            }
            debug_assert_eq!(rank, n);
            done += n as u64;
            if !progress(done) {
                return e;
            }
        }
        e
    }

    /// The rank of `x` among the placements of its `s` seeds.
    fn rank(&self, x: Pits, s: u32) -> usize {
        let w = self.max as usize + 1;
        let m = 2 * self.rings.pits;
        let mut r = s as usize;
        let mut rank = 0;
        for k in 0..m - 1 {
            let v = byte(x, k) as usize;
            rank += self.skip[((m - k) * w + r) * w + v];
            r -= v;
        }
        rank as usize
    }

    /// The value of `x` (with `s` seeds, at most `max`) for the mover.
    pub fn value(&self, x: Pits, s: u32) -> i32 {
        i32::from(self.levels[s as usize][self.rank(x, s)])
    }

    /// Works out `x` (with `s` seeds) and every same-count position it needs.
    fn fill(&mut self, x: Pits, s: u32) -> i32 {
        let at = self.rank(x, s);
        let known = self.levels[s as usize][at];
        if known != UNKNOWN {
            return i32::from(known);
        }
        let v = match self.rings.finished(x) {
            Some(v) => v,
            None => {
                let mut best = i32::MIN;
                let mut moves = self.rings.moves(x);
                while moves != 0 {
                    let i = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    let sown = self.rings.sow(x, i);
                    let v = match sown.after {
                        After::Over => sown.gain,
                        After::Again(y) => sown.gain + self.child(y, s),
                        After::Turn(y) => sown.gain - self.child(y, s),
                    };
                    best = best.max(v);
                }
                best
            }
        };
        self.levels[s as usize][at] = v as i8;
        v
    }

    fn child(&mut self, y: Pits, s: u32) -> i32 {
        let t = seeds(y);
        if t < s {
            self.value(y, t)
        } else {
            self.fill(y, s)
        }
    }
}

/// The next placement of the same seeds in `m` pits in rank order (the first pit's count
/// rising slowest), or `None` after the last.
fn next_placement(x: Pits, m: usize) -> Option<Pits> {
    // Rank order is lexicographic on pits 0, 1, …, m−1 with the last pit taking the rest:
    // find the rightmost pit k < m−1 that can still grow (some seeds after it), grow it by
    // one, and put the other seeds after it in the last pit.
    let mut rest = byte(x, m - 1);
    for k in (0..m - 1).rev() {
        if rest > 0 {
            let below = x & ((1u128 << (8 * k)) - 1);
            let grown = below | (u128::from(byte(x, k) + 1) << (8 * k));
            return Some(grown | (u128::from(rest - 1) << (8 * (m - 1))));
        }
        rest += byte(x, k);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{EndRule, Rules};

    #[test]
    fn placements_are_counted_and_ranked_in_order() {
        assert_eq!(placements(12, 0), 1);
        assert_eq!(placements(12, 1), 12);
        assert_eq!(placements(12, 2), 78);
        assert_eq!(placements(2, 5), 6);
        assert_eq!(size(6, 20), 225_792_840); // C(32, 12)
        let e = Endgame::build(Rings::new(2, Rules::default()), 6, &mut |_| true);
        for s in 0..=6 {
            let mut x = u128::from(s as u8) << 24;
            let mut rank = 0;
            loop {
                assert_eq!(e.rank(x, s), rank);
                assert_eq!(seeds(x), s);
                rank += 1;
                match next_placement(x, 4) {
                    Some(y) => x = y,
                    None => break,
                }
            }
            assert_eq!(rank as u64, placements(4, s));
        }
    }

    #[test]
    fn the_database_agrees_with_a_plain_search() {
        // Every position of up to 8 seeds on 3 pits a side, each rule set: the database's
        // value against a plain memo-free search to the end.
        fn plain(r: &Rings, x: Pits) -> i32 {
            if let Some(v) = r.finished(x) {
                return v;
            }
            let mut best = i32::MIN;
            let mut moves = r.moves(x);
            while moves != 0 {
                let i = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let s = r.sow(x, i);
                best = best.max(match s.after {
                    After::Over => s.gain,
                    After::Again(y) => s.gain + plain(r, y),
                    After::Turn(y) => s.gain - plain(r, y),
                });
            }
            best
        }
        for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
            for capture_empty in [false, true] {
                let r = Rings::new(3, Rules { end, capture_empty });
                let e = Endgame::build(r, 8, &mut |_| true);
                for s in 0..=8 {
                    let mut x = u128::from(s as u8) << 40;
                    loop {
                        assert_eq!(e.value(x, s), plain(&r, x), "{x:x}");
                        match next_placement(x, 6) {
                            Some(y) => x = y,
                            None => break,
                        }
                    }
                }
            }
        }
    }
}

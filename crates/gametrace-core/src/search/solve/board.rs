//! Kalah positions as the solver sees them: the pits alone, from the mover's side, one byte a
//! pit in a `u128` (the mover's row in bytes 0..p, the opponent's in p..2p, each in sowing
//! order). The kalahs are left out: what is still to be won does not depend on them. Sowing
//! adds runs of ones to the bytes (a whole lap at once), so a move costs a few word
//! operations whatever the seeds; no byte overflows because a board holds fewer than 256.

use crate::game::kalah::{side, Board, EndRule, Kalah, Rules};

/// The pits of a position, the mover's row first.
pub type Pits = u128;

/// `0x0101…01`: a one in every byte.
const ONES: u128 = u128::MAX / 255;

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The last seed fell in the mover's kalah: the mover moves again from these pits.
    Again(Pits),
    /// The opponent moves, from these pits (already turned to the opponent's side).
    Turn(Pits),
    /// The game is over (the sweep is counted in the gain).
    Over,
}

/// A move's outcome: the seeds it adds to the mover's margin, and what follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    pub gain: i32,
    pub after: After,
}

/// The board's shape and rules, with the masks sowing uses.
#[derive(Clone, Copy, Debug)]
pub struct Rings {
    pub pits: usize,
    pub rules: Rules,
    my_row: u128,
    their_row: u128,
}

/// `n` bytes of one from byte `lo`.
fn ones(lo: usize, n: usize) -> u128 {
    if n == 0 {
        0
    } else {
        (ONES >> (8 * (16 - n))) << (8 * lo)
    }
}

/// The seeds in `x` (fewer than 256): the top byte of `x × 0x0101…01` sums every byte.
pub fn seeds(x: Pits) -> u32 {
    (x.wrapping_mul(ONES) >> 120) as u32
}

/// The seeds in pit `i` (byte `i`).
pub fn byte(x: Pits, i: usize) -> u32 {
    u32::from((x >> (8 * i)) as u8)
}

impl Rings {
    /// Boards of 1 to 8 pits a side.
    pub fn new(pits: usize, rules: Rules) -> Rings {
        assert!((1..=8).contains(&pits), "1 to 8 pits a side");
        let my_row = ones(0, pits) * 0xFF;
        Rings {
            pits,
            rules,
            my_row,
            their_row: my_row << (8 * pits),
        }
    }

    /// Every pit holding `seeds`.
    pub fn start(&self, seeds: u8) -> Pits {
        ones(0, 2 * self.pits) * u128::from(seeds)
    }

    /// The mover's non-empty pits, a bit each.
    pub fn moves(&self, x: Pits) -> u32 {
        let mut m = 0;
        for i in 0..self.pits {
            if (x >> (8 * i)) as u8 != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// The value of a position where the game is already over by the rules (a row empty
    /// when it should not be), for the mover: `None` if the game goes on.
    pub fn finished(&self, x: Pits) -> Option<i32> {
        let (mine, theirs) = (x & self.my_row, x & self.their_row);
        match self.rules.end {
            EndRule::Cs10 if mine == 0 => Some(-(seeds(theirs) as i32)),
            EndRule::EitherSideEmpty if mine == 0 || theirs == 0 => {
                Some(seeds(mine) as i32 - seeds(theirs) as i32)
            }
            _ => None,
        }
    }

    /// The pits seen from the other side.
    pub fn flip(&self, x: Pits) -> Pits {
        (x >> (8 * self.pits)) | ((x & self.my_row) << (8 * self.pits))
    }

    /// Adds a seed to ring places `a..=b` (0..p the mover's pits, p the mover's kalah, p+1..=2p
    /// the opponent's pits); returns the seeds that went to the kalah.
    fn add(&self, x: &mut Pits, a: usize, b: usize) -> i32 {
        let p = self.pits;
        if a > b {
            return 0;
        }
        if a < p {
            *x += ones(a, b.min(p - 1) + 1 - a);
        }
        let lo = a.max(p + 1);
        if lo <= b {
            *x += ones(lo - 1, b + 1 - lo);
        }
        i32::from(a <= p && p <= b)
    }

    /// Sows the mover's pit `i` (not empty) and applies the rules.
    #[inline]
    pub fn sow(&self, x: Pits, i: usize) -> Sown {
        let p = self.pits;
        let ring = 2 * p + 1;
        let n = byte(x, i) as usize;
        let mut x = x & !(0xFF << (8 * i));
        let (laps, rem) = (n / ring, n % ring);
        x += ones(0, 2 * p) * laps as u128;
        let mut gain = laps as i32;
        let end = i + rem;
        gain += self.add(&mut x, i + 1, end.min(ring - 1));
        if end >= ring {
            gain += self.add(&mut x, 0, end - ring);
        }
        let last = end % ring;
        if last < p && byte(x, last) == 1 {
            let opposite = 2 * p - 1 - last;
            let facing = byte(x, opposite);
            if facing > 0 || self.rules.capture_empty {
                gain += facing as i32 + 1;
                x &= !((0xFF << (8 * last)) | (0xFF << (8 * opposite)));
            }
        }
        let again = last == p;
        let (mine, theirs) = (x & self.my_row, x & self.their_row);
        let over = match self.rules.end {
            EndRule::Cs10 => {
                if again {
                    mine == 0
                } else {
                    theirs == 0
                }
            }
            EndRule::EitherSideEmpty => mine == 0 || theirs == 0,
        };
        if over {
            gain += seeds(mine) as i32 - seeds(theirs) as i32;
            return Sown {
                gain,
                after: After::Over,
            };
        }
        Sown {
            gain,
            after: if again {
                After::Again(x)
            } else {
                After::Turn(self.flip(x))
            },
        }
    }
}

/// The packed pits of a game board, from the mover's side. The board holds fewer than 256
/// seeds in its pits (the caller checks).
pub fn pack(k: &Kalah, b: &Board) -> Pits {
    let me = side(b.to_move);
    let mut x = 0u128;
    for (s, at) in [(me, 0), (1 - me, k.pits)] {
        for i in 0..k.pits {
            x |= u128::from(b.pits[s][i] as u8) << (8 * (at + i));
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{Board, Kalah};
    use crate::game::Game;

    #[test]
    fn sowing_packed_pits_is_sowing_the_board() {
        // Random play on every board shape and rule set: each move's gain and next pits
        // must be the game's own.
        let mut state = 2026u64;
        let mut next = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n)) as u32
        };
        for pits in 1..=8 {
            for seeds in 1..=(255 / (2 * pits as u16)).min(20) {
                for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
                    for capture_empty in [false, true] {
                        let rules = Rules { end, capture_empty };
                        let k = Kalah::new(pits, seeds, rules);
                        let r = Rings::new(pits, rules);
                        for _ in 0..20 {
                            let mut b = k.start();
                            assert_eq!(pack(&k, &b), r.start(seeds as u8));
                            while !k.over(&b) {
                                let x = pack(&k, &b);
                                let moves: Vec<_> = k.moves(&b).collect();
                                let mask = moves.iter().fold(0, |m, p| m | 1 << p.pit);
                                assert_eq!(r.moves(x), mask);
                                let m = moves[next(moves.len() as u32) as usize];
                                let after = k.sow(&b, m);
                                let s = r.sow(x, usize::from(m.pit));
                                let me = side(b.to_move);
                                let margin = |b: &Board| {
                                    i32::from(b.kalahs[me]) - i32::from(b.kalahs[1 - me])
                                };
                                assert_eq!(
                                    s.gain,
                                    margin(&after) - margin(&b),
                                    "{pits} {seeds} {rules:?}"
                                );
                                match s.after {
                                    After::Over => assert!(k.over(&after)),
                                    After::Again(y) => {
                                        assert_eq!(after.to_move, b.to_move);
                                        assert_eq!(y, pack(&k, &after));
                                    }
                                    After::Turn(y) => {
                                        assert_eq!(after.to_move, b.to_move.other());
                                        assert_eq!(y, pack(&k, &after));
                                    }
                                }
                                b = after;
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn seeds_are_counted_and_flipped() {
        let r = Rings::new(6, Rules::default());
        let x = r.start(4);
        assert_eq!(seeds(x), 48);
        assert_eq!(r.flip(r.flip(x | 7)), x | 7);
        // 4 | 7 = 7 seeds in the mover's pit 0: after the flip, the opponent's pit 0.
        assert_eq!(byte(r.flip(x | 7), 6), 7);
        assert_eq!(byte(r.flip(x | 7), 0), 4);
    }
}

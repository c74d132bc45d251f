//! The endgame database: the exact value, for the mover, of every position with at most
//! `max` seeds left in the pits, built before the search from one seed up. A position with
//! `s` seeds is found by its rank among the ways of placing `s` seeds in the 2p pits (the
//! combinatorial number system), so the database needs one byte a position and no keys.
//!
//! Within one seed count the only moves are those that put no seed in a kalah; they move
//! seeds towards the mover's kalah and never come back, so a count's positions depend on
//! each other without cycles and are filled by a memoized descent.

use super::board::{byte, seeds, After, Pits, Rings};
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering::Relaxed};

/// Not yet known (no value is below -127: boards hold fewer than 128 seeds here).
const UNKNOWN: i8 = i8::MIN;

/// Bytes that stay put for as long as a database reads them: a memory-mapped file, say.
pub type Bytes = std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The values, one byte a position: built here, or read from a file.
enum Values {
    Built(Vec<AtomicI8>),
    /// A database file's bytes, its values from [`HEADER`] on.
    Loaded(Bytes),
}

pub struct Endgame {
    rings: Rings,
    /// The most seeds a stored position holds.
    pub max: u32,
    /// The values, `starts[s] + rank` for the position with `s` seeds of that rank.
    values: Values,
    starts: Vec<usize>,
    /// `skip[(c × (max+1) + r) × (max+1) + v]`: the placements of `r` seeds in `c` pits
    /// whose first pit holds fewer than `v`.
    skip: Vec<u64>,
}

/// A database file's header: what it was built for, and a checksum of its values.
pub const HEADER: usize = 64;
const MAGIC: &[u8; 24] = b"gametrace kalah endgame\n";
const VERSION: u32 = 1;

/// Why a database file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

/// A quick checksum of the values (eight bytes at a time): a file cut short or damaged
/// would otherwise give wrong values, which is to say wrong verdicts, silently.
fn checksum(values: &[u8]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ values.len() as u64;
    let mut words = values.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(0x0100_0000_01B3).rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b))
            .wrapping_mul(0x0100_0000_01B3)
            .rotate_left(29);
    }
    h
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
    /// not to be used) when `progress` says false. Each seed count's positions are shared
    /// out to every core in blocks of ranks (see [`Endgame::fill_block`]).
    pub fn build(rings: Rings, max: u32, progress: &mut dyn FnMut(u64) -> bool) -> Endgame {
        let threads = if cfg!(target_arch = "wasm32") {
            1
        } else {
            std::thread::available_parallelism().map_or(1, usize::from)
        };
        Endgame::build_on(rings, max, threads, progress)
    }

    /// [`Endgame::build`] on `threads` threads (the values are the same for any number).
    pub fn build_on(
        rings: Rings,
        max: u32,
        threads: usize,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Endgame {
        assert!(max < 128);
        let m = 2 * rings.pits;
        let w = max as usize + 1;
        let skip = Endgame::skip_table(m, max);
        let mut starts = Vec::with_capacity(w);
        let mut total = 0usize;
        for s in 0..=max {
            starts.push(total);
            total += placements(m, s) as usize;
        }
        let values = atomic_bytes(vec![UNKNOWN; total]);
        crate::memory::huge_pages(&values);
        let e = Endgame {
            rings,
            max,
            values: Values::Built(values),
            starts,
            skip,
        };
        let mut done = 0u64;
        for s in 0..=max {
            let n = placements(m, s);
            let blocks = n.div_ceil(BLOCK);
            let next = AtomicU64::new(0);
            let stop = AtomicBool::new(false);
            let finished = AtomicU64::new(0);
            // Each thread takes the next block of ranks and fills it; the threads share the
            // values, so one may find a position already filled by another, or fill one
            // another is filling (the same value, written twice).
            let work = |report: &mut dyn FnMut(u64) -> bool| loop {
                if stop.load(Relaxed) {
                    break;
                }
                let b = next.fetch_add(1, Relaxed);
                if b >= blocks {
                    break;
                }
                e.fill_block(s, b * BLOCK, ((b + 1) * BLOCK).min(n));
                let f = finished.fetch_add(1, Relaxed) + 1;
                if f % 64 == 0 && !report(done + (f * BLOCK).min(n)) {
                    stop.store(true, Relaxed);
                }
            };
            if threads <= 1 || blocks < 2 {
                work(progress);
            } else {
                std::thread::scope(|scope| {
                    for _ in 1..threads {
                        scope.spawn(|| work(&mut |_| true));
                    }
                    work(progress);
                });
            }
            if stop.load(Relaxed) {
                return e;
            }
            done += n;
            if !progress(done) {
                return e;
            }
        }
        e
    }

    /// Fills the positions of `s` seeds ranked `from..to`, in rank order.
    fn fill_block(&self, s: u32, from: u64, to: u64) {
        let m = 2 * self.rings.pits;
        let mut x = self.unrank(from as usize, s);
        for rank in from..to {
            if self.get(s, rank as usize) == UNKNOWN {
                self.fill(x, s);
            }
            if rank + 1 < to {
                x = next_placement(x, m).unwrap_or(x);
            }
        }
    }

    /// The placement of `s` seeds of this rank (the inverse of [`Endgame::rank`]).
    fn unrank(&self, mut rank: usize, s: u32) -> Pits {
        let w = self.max as usize + 1;
        let m = 2 * self.rings.pits;
        let mut r = s as usize;
        let mut x: Pits = 0;
        for k in 0..m - 1 {
            let row = ((m - k) * w + r) * w;
            // The most seeds pit k can hold with the placements before it not past `rank`.
            let mut v = 0;
            while v < r && self.skip[row + v + 1] as usize <= rank {
                v += 1;
            }
            rank -= self.skip[row + v] as usize;
            x |= (v as u128) << (8 * k);
            r -= v;
        }
        x | (r as u128) << (8 * (m - 1))
    }

    /// The skip table for `m` pits and up to `max` seeds (see [`Endgame::skip`]).
    fn skip_table(m: usize, max: u32) -> Vec<u64> {
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
        skip
    }

    /// The stored value of the position with `s` seeds and this rank.
    #[inline]
    fn get(&self, s: u32, rank: usize) -> i8 {
        self.get_at(self.starts[s as usize] + rank)
    }

    /// The stored value at this place in the values.
    #[inline]
    fn get_at(&self, at: usize) -> i8 {
        match &self.values {
            Values::Built(v) => v[at].load(Relaxed),
            Values::Loaded(bytes) => (*bytes).as_ref().as_ref()[HEADER + at] as i8,
        }
    }

    /// Where the value of `x` (with `s` seeds, at most `max`) is, for
    /// [`Endgame::prefetch`] and [`Endgame::value_at`].
    #[inline]
    pub fn locate(&self, x: Pits, s: u32) -> usize {
        self.starts[s as usize] + self.rank(x, s)
    }

    /// The value found by [`Endgame::locate`], for the mover.
    #[inline]
    pub fn value_at(&self, at: usize) -> i32 {
        i32::from(self.get_at(at))
    }

    /// Starts loading the value at this place in the values.
    #[inline]
    pub fn prefetch(&self, at: usize) {
        match &self.values {
            Values::Built(v) => crate::memory::prefetch(&v[at]),
            Values::Loaded(bytes) => {
                crate::memory::prefetch(&(*bytes).as_ref().as_ref()[HEADER + at])
            }
        }
    }

    /// Writes the database as a file: a header naming the board, rules and seeds it holds,
    /// then its values.
    pub fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let values: &[u8] = match &self.values {
            Values::Built(v) => as_bytes(v),
            Values::Loaded(bytes) => &(*bytes).as_ref().as_ref()[HEADER..],
        };
        out.write_all(&self.header(checksum(values)))?;
        out.write_all(values)
    }

    fn header(&self, sum: u64) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..24].copy_from_slice(MAGIC);
        h[24..28].copy_from_slice(&VERSION.to_le_bytes());
        h[28..32].copy_from_slice(&(self.rings.pits as u32).to_le_bytes());
        h[32] = match self.rings.rules.end {
            crate::game::kalah::EndRule::Cs10 => 0,
            crate::game::kalah::EndRule::EitherSideEmpty => 1,
        };
        h[33] = u8::from(self.rings.rules.capture_empty);
        h[36..40].copy_from_slice(&self.max.to_le_bytes());
        h[40..48].copy_from_slice(&(size(self.rings.pits, self.max)).to_le_bytes());
        h[48..56].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// A database from a file's bytes (as [`Endgame::write`] wrote them), for this board and
    /// these rules with `max` seeds, checked whole against its header.
    pub fn read(rings: Rings, max: u32, bytes: Bytes) -> Result<Endgame, Unreadable> {
        let all: &[u8] = (*bytes).as_ref();
        let want = HEADER as u64 + size(rings.pits, max);
        if all.len() < HEADER || &all[..24] != MAGIC {
            return Err(Unreadable("not a gametrace endgame database".to_owned()));
        }
        let e = Endgame {
            rings,
            max,
            values: Values::Built(Vec::new()),
            starts: Vec::new(),
            skip: Vec::new(),
        };
        let mut expected = e.header(0);
        expected[48..56].copy_from_slice(&all[48..56]);
        if all[..HEADER] != expected {
            return Err(Unreadable(
                "built for another board, rule set, number of seeds or version".to_owned(),
            ));
        }
        if all.len() as u64 != want {
            return Err(Unreadable(format!(
                "{} bytes where {want} were expected: cut short or grown",
                all.len()
            )));
        }
        let sum = u64::from_le_bytes(all[48..56].try_into().unwrap_or([0; 8]));
        if checksum(&all[HEADER..]) != sum {
            return Err(Unreadable(
                "its checksum does not match: damaged".to_owned(),
            ));
        }
        let m = 2 * rings.pits;
        let mut starts = Vec::with_capacity(max as usize + 1);
        let mut total = 0usize;
        for s in 0..=max {
            starts.push(total);
            total += placements(m, s) as usize;
        }
        Ok(Endgame {
            values: Values::Loaded(bytes),
            starts,
            skip: Endgame::skip_table(m, max),
            ..e
        })
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
        i32::from(self.get(s, self.rank(x, s)))
    }

    /// Works out `x` (with `s` seeds) and every same-count position it needs.
    fn fill(&self, x: Pits, s: u32) -> i32 {
        let rank = self.rank(x, s);
        let known = self.get(s, rank);
        if known != UNKNOWN {
            return i32::from(known);
        }
        let v = match self.rings.finished(x) {
            Some(v) => v,
            None => {
                // Two passes: every child is sown and ranked, and its value's cache line
                // asked for, before any is read, so that the reads (random, across the whole
                // database) wait for memory together rather than one after another.
                let mut children = [Child::Over(0); 8];
                let mut n = 0;
                let mut moves = self.rings.moves(x);
                while moves != 0 {
                    let i = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    let sown = self.rings.sow(x, i);
                    children[n] = match sown.after {
                        After::Over => Child::Over(sown.gain),
                        After::Again(y) | After::Turn(y) => {
                            let t = seeds(y);
                            let at = self.starts[t as usize] + self.rank(y, t);
                            self.prefetch(at);
                            let again = matches!(sown.after, After::Again(_));
                            Child::Stored {
                                gain: sown.gain,
                                again,
                                y,
                                at,
                            }
                        }
                    };
                    n += 1;
                }
                let mut best = i32::MIN;
                for c in &children[..n] {
                    let v = match *c {
                        Child::Over(gain) => gain,
                        Child::Stored { gain, again, y, at } => {
                            let mut w = self.get_at(at);
                            // Only a child of the same count can still be unknown.
                            if w == UNKNOWN {
                                w = self.fill(y, s) as i8;
                            }
                            if again {
                                gain + i32::from(w)
                            } else {
                                gain - i32::from(w)
                            }
                        }
                    };
                    best = best.max(v);
                }
                best
            }
        };
        if let Values::Built(values) = &self.values {
            values[self.starts[s as usize] + rank].store(v as i8, Relaxed);
        }
        v
    }
}

/// The values as bytes, for the file (written once the build is over).
fn as_bytes(v: &[AtomicI8]) -> &[u8] {
    // SAFETY: AtomicI8 has the size, alignment and bit validity of i8, and so of u8; no
    // thread writes the values any more (the build's threads have all been joined).
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), v.len()) }
}

/// The values as atomics, shared by the build's threads, from a block filled at memset speed.
fn atomic_bytes(v: Vec<i8>) -> Vec<AtomicI8> {
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: AtomicI8 has the size and alignment of i8 (so the allocation's layout is the
    // same), and every i8 is a valid AtomicI8; the original Vec is never used or dropped.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicI8>(), v.len(), v.capacity()) }
}

/// A child of a position being filled: over, or stored (`at` in the values), for the mover
/// again or for the opponent.
#[derive(Clone, Copy)]
enum Child {
    Over(i32),
    Stored {
        gain: i32,
        again: bool,
        y: Pits,
        at: usize,
    },
}

/// Ranks a thread of the build takes at a time: large enough that taking one costs nothing,
/// small enough that the last blocks of a count keep every core busy.
const BLOCK: u64 = 1 << 14;

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
                assert_eq!(e.unrank(rank, s), x);
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
    fn a_database_built_on_many_threads_is_the_one_built_on_one() {
        // Blocks of 16 384 ranks: 4 pits a side up to 14 seeds has counts of 1 to 38 blocks,
        // shared out to 1, 2 and 5 threads, which race on the same-count positions.
        for end in [EndRule::Cs10, EndRule::EitherSideEmpty] {
            for capture_empty in [false, true] {
                let r = Rings::new(4, Rules { end, capture_empty });
                let bytes = |threads| {
                    let mut out = Vec::new();
                    Endgame::build_on(r, 14, threads, &mut |_| true)
                        .write(&mut out)
                        .unwrap();
                    out
                };
                let one = bytes(1);
                assert_eq!(one.len() as u64, HEADER as u64 + size(4, 14));
                assert!(
                    !one[HEADER..].contains(&(UNKNOWN as u8)),
                    "every value filled"
                );
                assert_eq!(bytes(2), one, "{end:?} {capture_empty}");
                assert_eq!(bytes(5), one, "{end:?} {capture_empty}");
            }
        }
    }

    #[test]
    fn a_database_file_reads_back_as_built_and_refuses_any_other() {
        let rules = Rules {
            end: EndRule::EitherSideEmpty,
            capture_empty: true,
        };
        let r = Rings::new(3, rules);
        let built = Endgame::build(r, 7, &mut |_| true);
        let mut file = Vec::new();
        built.write(&mut file).unwrap();
        assert_eq!(file.len() as u64, HEADER as u64 + size(3, 7));
        let bytes = |b: Vec<u8>| -> Bytes { std::sync::Arc::new(b) };
        let read = Endgame::read(r, 7, bytes(file.clone())).unwrap();
        for s in 0..=7 {
            let mut x = u128::from(s as u8) << 40;
            loop {
                assert_eq!(read.value(x, s), built.value(x, s), "{x:x}");
                match next_placement(x, 6) {
                    Some(y) => x = y,
                    None => break,
                }
            }
        }
        // Written again from the file, the same bytes.
        let mut again = Vec::new();
        read.write(&mut again).unwrap();
        assert_eq!(again, file);
        let refused = |r: Rings, max: u32, b: Vec<u8>, why: &str| {
            let e = Endgame::read(r, max, bytes(b)).err().expect("refused");
            assert!(e.0.contains(why), "{e:?} should say {why}");
        };
        // Another rule set, board or size; a file cut short; one byte changed; not a database.
        let other = Rings::new(3, Rules::default());
        refused(other, 7, file.clone(), "another board");
        refused(Rings::new(4, rules), 7, file.clone(), "another board");
        refused(r, 6, file.clone(), "another board");
        refused(r, 7, file[..file.len() - 1].to_vec(), "cut short");
        let mut damaged = file.clone();
        damaged[HEADER + 100] ^= 1;
        refused(r, 7, damaged, "checksum");
        refused(
            r,
            7,
            b"# a YAML spec".to_vec(),
            "not a gametrace endgame database",
        );
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

//! The transposition table: bounds on positions' values, in a fixed block of memory chosen
//! up front. Buckets of two entries: one kept for the position whose search took the most
//! work, one for the newest. A full table replaces entries, so memory never grows and the
//! answer stays exact (a lost entry is searched again).
//!
//! Searches on several threads share it (`--threads`): each word is atomic, and an entry's
//! key words are stored XORed with its data word, so an entry read while another thread
//! writes it (words of two writes) fails the key check and reads as absent instead of
//! giving one position another's bounds. Two writes of the same position may lose one's
//! bounds, never mix them: every bound kept is a true bound of its position.

use super::board::Pits;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// An entry: the pits (two words, each XORed with the third; 0 for none) and, in the third
/// word, the lower bound, the upper bound, the best move and the work (log2 of the positions
/// searched below it).
type Entry = [AtomicU64; 3];

/// Bytes an entry takes.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

pub struct Table {
    entries: Box<[Entry]>,
    /// Buckets − 1 (a power of two minus one).
    mask: usize,
    /// Entries in use.
    used: AtomicUsize,
    /// The most entries the table may grow to.
    limit: usize,
    /// The block the table will grow into, being allocated and its pages touched on another
    /// thread from when the table is half full: the kernel zeroes each fresh page as it is
    /// first written, which took 13% of Kalah(6, 4)'s solve on the search's own thread.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    next: Option<Next>,
}

#[cfg(not(target_arch = "wasm32"))]
type Next = std::thread::JoinHandle<Box<[Entry]>>;
/// The browser has no threads: the block is made when the table grows.
#[cfg(target_arch = "wasm32")]
type Next = std::convert::Infallible;

/// A table starts at this size and doubles while three quarters full, up to its limit: a
/// small table is touched in few pages (measured on Kalah(6, 3) with a 12-seed database:
/// 2.0 s with 4 M entries, 5.0 s with 64 M, the same positions searched).
const FIRST_BYTES: usize = 16 << 20;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    pub lo: i32,
    pub hi: i32,
    /// The move that was best or cut, or 0xFF.
    pub best: u8,
}

fn pack(lo: i32, hi: i32, best: u8, work: u8) -> u64 {
    u64::from(lo as i16 as u16)
        | u64::from(hi as i16 as u16) << 16
        | u64::from(best) << 32
        | u64::from(work) << 40
}

fn unpack(w: u64) -> (Known, u8) {
    (
        Known {
            lo: i32::from(w as u16 as i16),
            hi: i32::from((w >> 16) as u16 as i16),
            best: (w >> 32) as u8,
        },
        (w >> 40) as u8,
    )
}

impl Table {
    /// A table that grows within `bytes` (at least one bucket). Growing holds the old table
    /// and the new one at once, so the largest table takes two thirds of `bytes` at most.
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = |bytes: usize| {
            let b = (bytes / (2 * ENTRY_BYTES)).max(1);
            if b.is_power_of_two() {
                b
            } else {
                b.next_power_of_two() / 2
            }
        };
        let limit = 2 * buckets(bytes / 3 * 2);
        let mut t = Table::of(2 * buckets(bytes.min(FIRST_BYTES)));
        t.limit = limit;
        t
    }

    fn of(entries: usize) -> Table {
        Table::in_block(block(entries))
    }

    fn in_block(block: Box<[Entry]>) -> Table {
        let entries = block.len();
        Table {
            entries: block,
            mask: entries / 2 - 1,
            used: AtomicUsize::new(0),
            limit: entries,
            next: None,
        }
    }

    /// The most entries the table may grow to.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Doubles the table when it is three quarters full and may grow, keeping every entry;
    /// from half full, has the bigger block made ready on another thread.
    pub fn grow_if_due(&mut self) {
        let (used, len) = (self.used(), self.entries.len());
        if 2 * len > self.limit {
            return;
        }
        if 4 * used >= 3 * len {
            self.grow();
        } else if 2 * used >= len {
            self.prepare();
        }
    }

    /// Starts making the block the table will grow into, unless it is under way.
    fn prepare(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if self.next.is_none() {
            let n = 2 * self.entries.len();
            // A thread that cannot start leaves the block to be made when the table grows.
            self.next = std::thread::Builder::new()
                .name("table".into())
                .spawn(move || {
                    let block = block(n);
                    touch(&block);
                    block
                })
                .ok();
        }
    }

    /// The block of twice the entries: the one prepared, or a new one.
    fn bigger_block(&mut self) -> Box<[Entry]> {
        let n = 2 * self.entries.len();
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(Ok(b)) = self.next.take().map(std::thread::JoinHandle::join) {
            if b.len() == n {
                return b;
            }
        }
        block(n)
    }

    /// Doubles the table if it may grow (before threads share it: a shared table cannot
    /// grow).
    pub fn grow_once(&mut self) {
        if 2 * self.entries.len() <= self.limit {
            self.grow();
        }
    }

    /// Doubles the table, keeping every entry.
    fn grow(&mut self) {
        let mut bigger = Table::in_block(self.bigger_block());
        bigger.limit = self.limit;
        for e in self.entries.iter() {
            if let Some((x, w)) = read(e) {
                let (k, work) = unpack(w);
                bigger.put(x, k.lo, k.hi, k.best, work);
            }
        }
        *self = bigger;
    }

    /// The entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    fn bucket(&self, x: Pits) -> usize {
        // splitmix64's finaliser over both words.
        let mut h = (x as u64) ^ ((x >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        2 * (h as usize & self.mask)
    }

    /// Starts loading `x`'s bucket into the cache, for a [`Table::get`] soon after.
    #[inline]
    pub fn prefetch(&self, x: Pits) {
        // A bucket (48 bytes) lies across two cache lines half the time: both are asked for.
        let at = self.bucket(x);
        crate::memory::prefetch(&self.entries[at]);
        crate::memory::prefetch(&self.entries[at + 1][2]);
    }

    pub fn get(&self, x: Pits) -> Option<Known> {
        let at = self.bucket(x);
        self.entries[at..at + 2]
            .iter()
            .find_map(|e| read(e).filter(|&(y, _)| y == x))
            .map(|(_, w)| unpack(w).0)
    }

    /// Records that the value of `x` lies in `lo..=hi` (merged with what is known).
    pub fn put(&self, x: Pits, lo: i32, hi: i32, best: u8, work: u8) {
        let at = self.bucket(x);
        let bucket = &self.entries[at..at + 2];
        let held = [read(&bucket[0]), read(&bucket[1])];
        if let Some(slot) = held.iter().position(|h| h.is_some_and(|(y, _)| y == x)) {
            let (k, w) = unpack(held[slot].map_or(0, |(_, w)| w));
            write(
                &bucket[slot],
                x,
                pack(k.lo.max(lo), k.hi.min(hi), best, w.max(work)),
            );
            return;
        }
        // The first slot keeps the most work; the second takes what the first will not.
        let fresh = || {
            self.used.fetch_add(1, Relaxed);
        };
        let slot = match held[0] {
            None => {
                fresh();
                0
            }
            Some((y, w)) if work >= unpack(w).1 => {
                if held[1].is_none() {
                    fresh();
                }
                write(&bucket[1], y, w);
                0
            }
            Some(_) => {
                if held[1].is_none() {
                    fresh();
                }
                1
            }
        };
        write(&bucket[slot], x, pack(lo, hi, best, work));
    }
}

/// `n` empty entries on 2 MiB pages where the kernel gives them.
fn block(n: usize) -> Box<[Entry]> {
    let block = zeroed(n);
    crate::memory::huge_pages(&block);
    block
}

/// Writes a zero into every page of a fresh block, so that the kernel zeroes its pages now
/// (on the thread that calls this) rather than at each page's first use.
#[cfg(not(target_arch = "wasm32"))]
fn touch(block: &[Entry]) {
    const PAGE: usize = 4096;
    for e in block.iter().step_by((PAGE / ENTRY_BYTES).max(1)) {
        e[0].store(0, Relaxed);
    }
}

/// `n` empty entries, as zeroed memory straight from the allocator: its pages are the
/// kernel's zero pages until first written, so room a search never reaches costs nothing
/// (`Box::new_zeroed_slice` is newer than the crate's minimum Rust).
fn zeroed(n: usize) -> Box<[Entry]> {
    let layout = std::alloc::Layout::array::<Entry>(n.max(1)).expect("a table fits in memory");
    // SAFETY: the layout is not zero-sized (n.max(1)); all-zero bytes are a valid
    // `[AtomicU64; 3]`; the block comes from the global allocator with the layout of `n`
    // entries (or one, for n = 0, never asked for: a table has at least one bucket), as
    // `Box` requires to free it.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n.max(1)))
    }
}

/// An entry's position and data word, if it holds one (and was not being written).
fn read(e: &Entry) -> Option<(Pits, u64)> {
    let w = e[2].load(Relaxed);
    let (a, b) = (e[0].load(Relaxed) ^ w, e[1].load(Relaxed) ^ w);
    // An empty entry is all zeros: its key reads as 0, which no position is (a position
    // with no seeds left is finished, and never stored).
    (a | b != 0).then(|| (u128::from(a) | u128::from(b) << 64, w))
}

fn write(e: &Entry, x: Pits, w: u64) {
    e[0].store(x as u64 ^ w, Relaxed);
    e[1].store((x >> 64) as u64 ^ w, Relaxed);
    e[2].store(w, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_the_busiest_entry_stays() {
        let t = Table::with_bytes(1000);
        assert!(t.capacity() * ENTRY_BYTES <= 1000);
        t.put(7, -5, 3, 2, 10);
        t.put(7, -1, 9, 4, 1);
        let k = t.get(7).unwrap();
        assert_eq!((k.lo, k.hi, k.best), (-1, 3, 4));
        // Fill one bucket past its two slots: the entry with the most work survives.
        let t = Table::with_bytes(2 * ENTRY_BYTES);
        t.put(1, 0, 0, 0, 20);
        t.put(2, 0, 0, 0, 1);
        t.put(3, 0, 0, 0, 2);
        assert!(t.get(1).is_some() && t.get(2).is_none() && t.get(3).is_some());
        assert_eq!(t.used(), 2);
        // A table with room grows, and growing forgets nothing it held.
        let mut t = Table::with_bytes(1 << 30);
        let first = t.capacity();
        let key = |x: usize| (x as u128) << 70 | x as u128;
        let mut x = 0;
        while 4 * t.used() < 3 * first - 4 {
            x += 1;
            t.put(key(x), -1, 1, 0, 0);
            t.grow_if_due();
        }
        assert_eq!(t.capacity(), first);
        while 4 * t.used() < 3 * first {
            x += 1;
            t.put(key(x), -1, 1, 0, 0);
        }
        let held: Vec<usize> = (1..=x).filter(|&x| t.get(key(x)).is_some()).collect();
        assert_eq!(held.len(), t.used());
        // Three quarters full: the table grows, and narrowing a held entry's bounds still
        // finds it.
        t.grow_if_due();
        t.put(key(held[0]), 0, 1, 0, 0);
        assert_eq!(t.capacity(), 2 * first);
        assert_eq!(t.get(key(held[0])).unwrap().lo, 0);
        assert!(held.iter().all(|&x| t.get(key(x)).is_some()));
    }
}

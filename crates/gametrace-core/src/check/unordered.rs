//! Matching a trace some of whose blocks may come in any order: the children of a parallel
//! phase (`unordered: parallel`), or a `CHECK-UNORDERED` group of an expected file.
//!
//! An expected trace is a [`Shape`]: lines in order, and groups whose blocks may be printed in
//! any order, each block again a shape. Every block prints a fixed number of lines whatever
//! order its own groups take, so whether a group matches the output is decided by the group's
//! lines alone: [`arrange`] tries the blocks that match where the group is, backtracking
//! among them, and returns the expected lines in the order the output printed them. Then the
//! ordinary comparison runs on that order: a PASS exactly when some order of every group
//! gives the output, and otherwise the first real divergence and a diff that does not blame
//! the freedom the shape allows.

use crate::run::Block;
use std::collections::{HashMap, HashSet};

/// An expected trace's lines (by index) in order, and groups of blocks in any order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Line(usize),
    AnyOrder(Vec<Shape>),
}

/// A sequence of pieces.
pub type Shape = Vec<Piece>;

/// How many lines a shape prints.
pub fn len(shape: &[Piece]) -> usize {
    shape
        .iter()
        .map(|p| match p {
            Piece::Line(_) => 1,
            Piece::AnyOrder(blocks) => blocks.iter().map(|b| len(b)).sum(),
        })
        .sum()
}

/// How many groups the shape has, inner ones too.
pub fn groups(shape: &[Piece]) -> usize {
    shape
        .iter()
        .map(|p| match p {
            Piece::Line(_) => 0,
            Piece::AnyOrder(blocks) => 1 + blocks.iter().map(|b| groups(b)).sum::<usize>(),
        })
        .sum()
}

/// Does the shape leave any freedom (a group of two blocks or more)?
pub fn has_freedom(shape: &[Piece]) -> bool {
    shape.iter().any(|p| match p {
        Piece::Line(_) => false,
        Piece::AnyOrder(blocks) => blocks.len() > 1 || blocks.iter().any(|b| has_freedom(b)),
    })
}

/// The shape of lines `0..blocks.len()` whose parallel blocks are `blocks[i]` (outermost
/// first): consecutive lines in the same block of the same phase form one block.
pub fn from_blocks(blocks: &[&[Block]]) -> Shape {
    shape_of(blocks, 0, blocks.len(), 0)
}

fn shape_of(blocks: &[&[Block]], from: usize, to: usize, depth: usize) -> Shape {
    let mut shape = Vec::new();
    let mut i = from;
    while i < to {
        let Some(outer) = blocks[i].get(depth) else {
            shape.push(Piece::Line(i));
            i += 1;
            continue;
        };
        let mut group = Vec::new();
        let mut j = i;
        while j < to && blocks[j].get(depth).is_some_and(|b| b.phase == outer.phase) {
            let child = blocks[j][depth];
            let start = j;
            while j < to && blocks[j].get(depth) == Some(&child) {
                j += 1;
            }
            group.push(shape_of(blocks, start, j, depth + 1));
        }
        shape.push(Piece::AnyOrder(group));
        i = j;
    }
    shape
}

/// How many times the exact search may take back a block that fitted before it gives up (and
/// the output fails). Only sibling blocks that print the same lines at first and differ
/// further on cost any; a trace from a search has none that come near.
const TRIES: usize = 1_000_000;

/// The first line a shape prints, if it starts with one (a shape that starts with a group
/// may start with any of its blocks' lines).
fn first_line(shape: &[Piece]) -> Option<usize> {
    match shape.first()? {
        Piece::Line(i) => Some(*i),
        Piece::AnyOrder(_) => None,
    }
}

struct Matcher<'a> {
    expected: &'a [&'a str],
    actual: &'a [&'a str],
    tries: std::cell::Cell<usize>,
    /// Where each output line occurs, built the first time a block does not fit.
    positions: std::cell::OnceCell<HashMap<&'a str, Vec<usize>>>,
}

impl Matcher<'_> {
    fn agrees(&self, line: usize, at: usize) -> bool {
        self.actual
            .get(at)
            .is_some_and(|a| *a == self.expected[line])
    }

    /// Places `shape` at output line `at` so that every line agrees, appending the expected
    /// lines in the output's order to `out`; on `false`, `out` is as it was.
    fn place(&self, shape: &[Piece], at: usize, out: &mut Vec<usize>) -> bool {
        let mark = out.len();
        for piece in shape {
            let here = at + (out.len() - mark);
            let ok = match piece {
                Piece::Line(i) => {
                    let ok = self.agrees(*i, here);
                    if ok {
                        out.push(*i);
                    }
                    ok
                }
                Piece::AnyOrder(blocks) => self.place_group(blocks, here, out),
            };
            if !ok {
                out.truncate(mark);
                return false;
            }
        }
        true
    }

    /// Places a group's blocks from output line `at`, in some order that agrees, appending
    /// their lines to `out`; on `false`, `out` is as it was.
    ///
    /// A depth-first search over which block comes next, without recursion (a node may have
    /// thousands of children). The blocks that can come at a position are found by their first
    /// line. A block shaped like one that already fitted there and failed further on is not
    /// tried again, and for groups of up to 128 blocks the sets of blocks placed that were
    /// found not to lead anywhere are remembered (where the next block starts is fixed by
    /// that set, as each block prints a fixed number of lines).
    fn place_group(&self, blocks: &[Shape], at: usize, out: &mut Vec<usize>) -> bool {
        struct Frame {
            candidates: Vec<usize>,
            next: usize,
            /// `out`'s length where this position's block starts.
            mark: usize,
            chosen: Option<usize>,
            /// Blocks that fitted here and failed further on.
            fitted: Vec<usize>,
        }
        let k = blocks.len();
        if k == 0 {
            return true;
        }
        let start = out.len();
        let starts = Starts::of(self, blocks);
        let mut used = vec![false; k];
        let mut set: u128 = 0;
        let mut failed: HashSet<u128> = HashSet::new();
        let candidates = |mark: usize, used: &[bool]| starts.at(self, at + (mark - start), used);
        let mut frames = vec![Frame {
            candidates: candidates(start, &used),
            next: 0,
            mark: start,
            chosen: None,
            fitted: Vec::new(),
        }];
        let mut placed = 0;
        while let Some(frame) = frames.last_mut() {
            if let Some(b) = frame.chosen.take() {
                // What followed this choice failed: undo it.
                used[b] = false;
                if k <= 128 {
                    set &= !(1u128 << b);
                }
                placed -= 1;
                out.truncate(frame.mark);
                frame.fitted.push(b);
                let n = self.tries.get() + 1;
                self.tries.set(n);
                if n > TRIES {
                    out.truncate(start);
                    return false;
                }
            }
            let q = at + (frame.mark - start);
            let mut next = None;
            while frame.next < frame.candidates.len() {
                let b = frame.candidates[frame.next];
                frame.next += 1;
                if frame
                    .fitted
                    .iter()
                    .any(|&t| self.same_shape(&blocks[t], &blocks[b]))
                {
                    continue;
                }
                if !self.place(&blocks[b], q, out) {
                    continue;
                }
                if k <= 128 && failed.contains(&(set | 1u128 << b)) {
                    out.truncate(frame.mark);
                    continue;
                }
                next = Some(b);
                break;
            }
            let Some(b) = next else {
                // Nothing fits here after what is placed: that set leads nowhere.
                if k <= 128 {
                    failed.insert(set);
                }
                frames.pop();
                continue;
            };
            frame.chosen = Some(b);
            used[b] = true;
            if k <= 128 {
                set |= 1u128 << b;
            }
            placed += 1;
            if placed == k {
                return true;
            }
            let mark = out.len();
            frames.push(Frame {
                candidates: candidates(mark, &used),
                next: 0,
                mark,
                chosen: None,
                fitted: Vec::new(),
            });
        }
        out.truncate(start);
        false
    }

    /// Do two shapes accept the same outputs for certain (same lines, same groups in the same
    /// order)?
    fn same_shape(&self, a: &[Piece], b: &[Piece]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|pair| match pair {
                (Piece::Line(x), Piece::Line(y)) => self.expected[*x] == self.expected[*y],
                (Piece::AnyOrder(x), Piece::AnyOrder(y)) => {
                    x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.same_shape(p, q))
                }
                _ => false,
            })
    }

    /// Places `shape` at output line `at` as well as it can: at each step of a group, a
    /// block that agrees whole there; else, of the blocks the output does not hold whole
    /// further on, the one with the most lines agreeing there; else the first left in the
    /// reference's order. Every block prints a fixed number of lines, so after a block that
    /// disagrees the next one is still placed where the output has it, and one wrong line
    /// costs one line of diff. Returns how many lines agreed from the start.
    fn place_closest(&self, shape: &[Piece], at: usize, out: &mut Vec<usize>) -> usize {
        let start = out.len();
        let mut agreed = 0;
        let mut whole = true;
        for piece in shape {
            let here = at + (out.len() - start);
            match piece {
                Piece::Line(i) => {
                    out.push(*i);
                    if whole && self.agrees(*i, here) {
                        agreed += 1;
                    } else {
                        whole = false;
                    }
                }
                Piece::AnyOrder(blocks) => {
                    let n = self.closest_group(blocks, here, out, whole);
                    if whole {
                        agreed += n;
                    }
                    if n < blocks.iter().map(|b| len(b)).sum() {
                        whole = false;
                    }
                }
            }
        }
        agreed
    }

    /// [`Matcher::place_closest`] for a group's blocks. Returns how many lines agreed from
    /// the start (counting only while `whole`).
    fn closest_group(
        &self,
        blocks: &[Shape],
        at: usize,
        out: &mut Vec<usize>,
        whole: bool,
    ) -> usize {
        let start = out.len();
        let starts = Starts::of(self, blocks);
        let mut used = vec![false; blocks.len()];
        let mut left = blocks.len();
        let mut span: usize = blocks.iter().map(|b| len(b)).sum();
        let mut agreed = 0;
        let mut whole = whole;
        // Steps where no block agrees whole: each costs a look at every block left, so past a
        // few the rest simply follow the reference's order.
        let mut damaged = 0;
        while left > 0 {
            let q = at + (out.len() - start);
            let whole_here = starts.at(self, q, &used).into_iter().find(|&b| {
                let mut tmp = Vec::new();
                self.place(&blocks[b], q, &mut tmp)
            });
            let b = match whole_here {
                Some(b) => b,
                None if damaged < DAMAGED_STEPS => {
                    damaged += 1;
                    self.closest_block(blocks, &used, q, span)
                }
                None => (0..blocks.len()).find(|&b| !used[b]).unwrap_or(0),
            };
            used[b] = true;
            left -= 1;
            span -= len(&blocks[b]);
            let before = out.len();
            let n = self.place_closest(&blocks[b], q, out);
            if whole {
                agreed += n;
            }
            if n < out.len() - before {
                whole = false;
            }
        }
        agreed
    }

    /// Where no block agrees whole at `q`: of the blocks left that the output does not hold
    /// whole further on (within the `span` the group's blocks left cover), the one with the
    /// most lines agreeing at `q`; the first left if every block is held further on.
    fn closest_block(&self, blocks: &[Shape], used: &[bool], q: usize, span: usize) -> usize {
        let positions = self.positions.get_or_init(|| {
            let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, a) in self.actual.iter().enumerate() {
                at.entry(*a).or_default().push(i);
            }
            at
        });
        let held_later = |b: usize| {
            let Some(first) = first_line(&blocks[b]) else {
                return false;
            };
            let last = (q + span).saturating_sub(len(&blocks[b]));
            positions
                .get(self.expected[first])
                .into_iter()
                .flatten()
                .filter(|&&p| p > q && p <= last)
                .any(|&p| {
                    let mut tmp = Vec::new();
                    self.place(&blocks[b], p, &mut tmp)
                })
        };
        let left: Vec<usize> = (0..blocks.len()).filter(|&b| !used[b]).collect();
        let mut candidates: Vec<usize> = left.iter().copied().filter(|&b| !held_later(b)).collect();
        if candidates.is_empty() {
            candidates = left.clone();
        }
        // Scoring places every candidate in full: only a few of them.
        let mut best = (candidates[0], 0);
        for &b in candidates.iter().take(SCORED_BLOCKS) {
            let mut tmp = Vec::new();
            self.place_closest(&blocks[b], q, &mut tmp);
            let n = (0..tmp.len())
                .filter(|&j| self.agrees(tmp[j], q + j))
                .count();
            if n > best.1 {
                best = (b, n);
            }
        }
        best.0
    }
}

/// A group's blocks by the line each starts with, to find those that can start at an output
/// line without trying every block.
struct Starts<'a> {
    by_first: HashMap<&'a str, Vec<usize>>,
    /// Blocks that start with a group (or print nothing) may start with any line.
    anywhere: Vec<usize>,
}

impl<'a> Starts<'a> {
    fn of(m: &Matcher<'a>, blocks: &[Shape]) -> Starts<'a> {
        let mut starts = Starts {
            by_first: HashMap::new(),
            anywhere: Vec::new(),
        };
        for (b, block) in blocks.iter().enumerate() {
            match first_line(block) {
                Some(i) => starts.by_first.entry(m.expected[i]).or_default().push(b),
                None => starts.anywhere.push(b),
            }
        }
        starts
    }

    /// The blocks not `used` that can start at output line `q`, in the reference's order.
    fn at(&self, m: &Matcher, q: usize, used: &[bool]) -> Vec<usize> {
        let mut c: Vec<usize> = m
            .actual
            .get(q)
            .and_then(|a| self.by_first.get(a))
            .into_iter()
            .flatten()
            .chain(&self.anywhere)
            .copied()
            .filter(|&b| !used[b])
            .collect();
        c.sort_unstable();
        c
    }
}

/// How many steps of one group may look for the closest block before the rest of its blocks
/// follow the reference's order (an output that is mostly wrong costs no more than that).
const DAMAGED_STEPS: usize = 64;
/// How many candidate blocks a damaged step scores by placing them in full.
const SCORED_BLOCKS: usize = 64;

/// The expected lines (indices into `expected`) in the order that best follows `actual`: if
/// some order of every group prints exactly `actual`, that order; otherwise each group as far
/// as it agrees and then in the reference's order, so that the first difference is a real one.
pub fn arrange(shape: &[Piece], expected: &[&str], actual: &[&str]) -> Vec<usize> {
    let m = Matcher {
        expected,
        actual,
        tries: std::cell::Cell::new(0),
        positions: std::cell::OnceCell::new(),
    };
    let mut out = Vec::with_capacity(expected.len());
    if len(shape) == actual.len() && m.place(shape, 0, &mut out) {
        return out;
    }
    out.clear();
    m.place_closest(shape, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Piece::{AnyOrder, Line};

    fn arranged(shape: &[Piece], expected: &[&str], actual: &str) -> String {
        let actual: Vec<&str> = actual.split_whitespace().collect();
        arrange(shape, expected, &actual)
            .into_iter()
            .map(|i| expected[i])
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// a [b c | d e] f
    const ABCDEF: [&str; 6] = ["a", "b", "c", "d", "e", "f"];
    fn two_blocks() -> Shape {
        vec![
            Line(0),
            AnyOrder(vec![vec![Line(1), Line(2)], vec![Line(3), Line(4)]]),
            Line(5),
        ]
    }

    #[test]
    fn a_group_takes_its_blocks_in_the_output_order() {
        let (e, shape) = (ABCDEF, two_blocks());
        assert_eq!(arranged(&shape, &e, "a d e b c f"), "a d e b c f");
        assert_eq!(arranged(&shape, &e, "a b c d e f"), "a b c d e f");
        // A block is kept whole: its lines do not interleave with another's.
        assert_eq!(arranged(&shape, &e, "a b d c e f"), "a b c d e f");
    }

    #[test]
    fn a_wrong_line_inside_a_moved_block_is_the_first_difference() {
        let (e, shape) = (ABCDEF, two_blocks());
        // d X is block 2 with its second line wrong: block 2 goes first, so the first
        // difference is X against e, not d against b.
        assert_eq!(arranged(&shape, &e, "a d X b c f"), "a d e b c f");
    }

    #[test]
    fn blocks_after_a_wrong_one_still_follow_the_output() {
        // [b c | d e | f g]: d's block is wrong, and f's and b's still come where they are.
        let e = ["b", "c", "d", "e", "f", "g"];
        let shape = vec![AnyOrder(vec![
            vec![Line(0), Line(1)],
            vec![Line(2), Line(3)],
            vec![Line(4), Line(5)],
        ])];
        assert_eq!(arranged(&shape, &e, "d X f g b c"), "d e f g b c");
        // Nor when its first line is the wrong one.
        assert_eq!(arranged(&shape, &e, "X e f g b c"), "d e f g b c");
    }

    #[test]
    fn groups_nest() {
        // a [ b [c | d] | e ] : b d c e and e b c d both fit
        let e = ["a", "b", "c", "d", "e"];
        let inner = AnyOrder(vec![vec![Line(2)], vec![Line(3)]]);
        let shape = vec![Line(0), AnyOrder(vec![vec![Line(1), inner], vec![Line(4)]])];
        assert_eq!(arranged(&shape, &e, "a b d c e"), "a b d c e");
        assert_eq!(arranged(&shape, &e, "a e b c d"), "a e b c d");
        assert_eq!(arranged(&shape, &e, "a e b d c"), "a e b d c");
    }

    #[test]
    fn blocks_that_start_alike_are_backtracked() {
        // [x | x y]: the output x y x fits only with the longer block first, though the
        // shorter one matches at the start too.
        let e = ["x", "x", "y"];
        let shape = vec![AnyOrder(vec![vec![Line(0)], vec![Line(1), Line(2)]])];
        assert_eq!(arranged(&shape, &e, "x y x"), "x y x");
        assert_eq!(arranged(&shape, &e, "x x y"), "x x y");
    }

    #[test]
    fn shapes_from_blocks_group_consecutive_lines_of_a_child() {
        let b = |phase, child| Block { phase, child };
        let top: &[Block] = &[];
        let c0 = [b(0, 0)];
        let c0n = [b(0, 0), b(1, 0)];
        let c0m = [b(0, 0), b(1, 1)];
        let c1 = [b(0, 1)];
        let lines: Vec<&[Block]> = vec![top, &c0, &c0n, &c0m, &c0, &c1, top];
        assert_eq!(
            from_blocks(&lines),
            vec![
                Line(0),
                AnyOrder(vec![
                    vec![
                        Line(1),
                        AnyOrder(vec![vec![Line(2)], vec![Line(3)]]),
                        Line(4)
                    ],
                    vec![Line(5)],
                ]),
                Line(6),
            ]
        );
        assert_eq!(groups(&from_blocks(&lines)), 2);
        assert!(has_freedom(&from_blocks(&lines)));
        assert!(!has_freedom(&[Line(0), AnyOrder(vec![vec![Line(1)]])]));
    }

    #[test]
    fn too_few_or_too_many_lines_never_fit() {
        let e = ["a", "b"];
        let shape = vec![AnyOrder(vec![vec![Line(0)], vec![Line(1)]])];
        assert_eq!(arranged(&shape, &e, "b"), "b a");
        assert_eq!(arranged(&shape, &e, "b a a"), "b a");
    }
}

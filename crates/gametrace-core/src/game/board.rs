//! The board of the claim-a-cell games: tic-tac-toe with the other m,n,k-games, and CSC148's
//! Tippy. Both are played the same way — the players take turns claiming an empty cell, the
//! first to hold every cell of a winning *pattern* wins, a full board without one is a draw —
//! and differ only in their patterns (k in a row; a Z or S tetromino), in how they write a
//! cell, and in what a position is worth. This module is the shared part, so a rule fix or a
//! speed-up lands in both.
//!
//! Each player's cells are one 64-bit word, bit `row * columns + column` (0-based, row 0 at the
//! top), so a board has at most 8×8 cells; a pattern is a mask of its cells.

use super::{Outcome, Player, StateKey, Status};
use std::marker::PhantomData;

/// The widest and tallest board: 64 cells fit one word.
pub const MAX_SIDE: u8 = 8;

/// Who holds which cells, and who claims next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Maxie's cells (X, p1) and Minnie's (O, p2).
    pub cells: [u64; 2],
    pub to_move: Player,
}

fn side(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

impl Position {
    /// The cells the player holds.
    pub fn of(&self, p: Player) -> u64 {
        self.cells[side(p)]
    }

    /// The position after the mover claims cell `index`.
    #[inline]
    pub fn claim(&self, index: u32) -> Position {
        let mut next = *self;
        next.cells[side(self.to_move)] |= 1u64 << index;
        next.to_move = self.to_move.other();
        next
    }

    /// Both words and the mover, packed: positions are equal exactly when their keys are.
    pub fn key(&self) -> StateKey {
        StateKey::Packed(
            u128::from(self.cells[0]) | u128::from(self.cells[1]) << 64,
            self.to_move,
        )
    }
}

/// The cells of a board and its winning patterns.
#[derive(Clone, Debug)]
pub struct Board {
    pub columns: u8,
    pub rows: u8,
    patterns: Vec<u64>,
}

impl Board {
    /// An m,n,k board: every line of `k` cells in a row, a column or a diagonal. Sizes are
    /// checked by the caller (1 to [`MAX_SIDE`], k at most the longer side).
    pub fn lines(columns: u8, rows: u8, k: u8) -> Board {
        let (m, n, k) = (i32::from(columns), i32::from(rows), i32::from(k));
        let mut patterns = Vec::new();
        for r in 0..n {
            for c in 0..m {
                // Right, down, down-right and down-left from (r, c).
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if (0..n).contains(&er) && (0..m).contains(&ec) {
                        let mask = (0..k).fold(0u64, |acc, i| {
                            acc | 1u64 << ((r + dr * i) * m + (c + dc * i))
                        });
                        patterns.push(mask);
                    }
                }
            }
        }
        // A 1-in-a-row game counts each cell once, not in four directions.
        patterns.sort_unstable();
        patterns.dedup();
        Board {
            columns,
            rows,
            patterns,
        }
    }

    /// A Tippy board of `size`×`size`: every Z and S tetromino, lying and standing. The size is
    /// checked by the caller (3 to 8).
    pub fn tippies(size: u8) -> Board {
        let n = size;
        let bit = |x: u8, y: u8| 1u64 << (u32::from(y) * u32::from(n) + u32::from(x));
        let mut patterns = Vec::new();
        for y in 0..n {
            for x in 0..n {
                // Rows: two in row y, two in row y+1 shifted right (Z) or left (S).
                if x + 2 < n && y + 1 < n {
                    patterns
                        .push(bit(x, y) | bit(x + 1, y) | bit(x + 1, y + 1) | bit(x + 2, y + 1));
                    patterns
                        .push(bit(x + 1, y) | bit(x + 2, y) | bit(x, y + 1) | bit(x + 1, y + 1));
                }
                // Columns: the same turned a quarter.
                if x + 1 < n && y + 2 < n {
                    patterns
                        .push(bit(x, y) | bit(x, y + 1) | bit(x + 1, y + 1) | bit(x + 1, y + 2));
                    patterns
                        .push(bit(x + 1, y) | bit(x + 1, y + 1) | bit(x, y + 1) | bit(x, y + 2));
                }
            }
        }
        Board {
            columns: size,
            rows: size,
            patterns,
        }
    }

    /// Every winning pattern, as a mask.
    pub fn patterns(&self) -> &[u64] {
        &self.patterns
    }

    pub fn cell_count(&self) -> u32 {
        u32::from(self.columns) * u32::from(self.rows)
    }

    /// Every cell of the board.
    pub fn full(&self) -> u64 {
        match self.cell_count() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The bit index of a cell, both 0-based from the top left.
    pub fn index(&self, row: u8, column: u8) -> u32 {
        u32::from(row) * u32::from(self.columns) + u32::from(column)
    }

    /// Does this set of cells hold a whole pattern?
    pub fn completes(&self, cells: u64) -> bool {
        self.patterns.iter().any(|&p| p & !cells == 0)
    }

    /// The empty cells that would complete a pattern for the holder of `mine`.
    pub fn threats(&self, mine: u64, empty: u64) -> u64 {
        let mut out = 0;
        for &p in &self.patterns {
            let missing = p & !mine;
            if missing.count_ones() == 1 && missing & empty != 0 {
                out |= missing;
            }
        }
        out
    }

    /// Over when either player holds a pattern (Maxie's is looked at first) or the board is
    /// full.
    pub fn status(&self, s: &Position) -> Status {
        if self.completes(s.cells[0]) {
            Status::Over(Outcome::Winner(Player::Maxie))
        } else if self.completes(s.cells[1]) {
            Status::Over(Outcome::Winner(Player::Minnie))
        } else if s.cells[0] | s.cells[1] == self.full() {
            Status::Over(Outcome::Draw)
        } else {
            Status::InPlay
        }
    }

    /// The empty cells, none once the game is over.
    pub fn open(&self, s: &Position) -> u64 {
        match self.status(s) {
            Status::InPlay => self.full() & !(s.cells[0] | s.cells[1]),
            Status::Over(_) => 0,
        }
    }

    /// The cells one may claim, in move order (row by row from the top, left to right).
    pub fn moves<C: Indexed>(&self, s: &Position) -> Empties<C> {
        Empties {
            columns: self.columns,
            left: self.open(s),
            cell: PhantomData,
        }
    }

    /// The empty cells of a position in play, in move order: [`Board::moves`] without looking
    /// for a finished pattern again.
    pub fn moves_in_play<C: Indexed>(&self, s: &Position) -> Empties<C> {
        debug_assert_eq!(self.status(s), Status::InPlay);
        Empties {
            columns: self.columns,
            left: self.full() & !(s.cells[0] | s.cells[1]),
            cell: PhantomData,
        }
    }

    /// Why claiming cell `index` (written `name`) is against the rules, if it is.
    pub fn why_illegal(
        &self,
        s: &Position,
        index: u32,
        name: impl std::fmt::Display,
    ) -> Option<String> {
        if let Status::Over(_) = self.status(s) {
            return Some("the game is over".to_owned());
        }
        let b = 1u64 << index;
        (s.cells[0] & b != 0 || s.cells[1] & b != 0).then(|| format!("cell {name} is taken"))
    }

    /// The board's rows, top first: `X.O`
    pub fn rows_text(&self, s: &Position) -> Vec<String> {
        (0..self.rows)
            .map(|row| {
                (0..self.columns)
                    .map(|col| {
                        let b = 1u64 << self.index(row, col);
                        if s.cells[0] & b != 0 {
                            'X'
                        } else if s.cells[1] & b != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The rows in one line, `X.O/.X./...`: a position's label in traces.
    pub fn write_label(&self, s: &Position, out: &mut String) {
        for (i, row) in self.rows_text(s).iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            out.push_str(row);
        }
    }
}

/// A game's cell, made from its bit index on a board `columns` wide.
pub trait Indexed: Copy {
    fn from_index(index: u32, columns: u8) -> Self;
}

/// The empty cells of a position, in move order.
pub struct Empties<C> {
    columns: u8,
    left: u64,
    cell: PhantomData<C>,
}

impl<C: Indexed> Iterator for Empties<C> {
    type Item = C;
    #[inline]
    fn next(&mut self) -> Option<C> {
        (self.left != 0).then(|| {
            let i = self.left.trailing_zeros();
            self.left &= self.left - 1;
            C::from_index(i, self.columns)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.count_ones() as usize;
        (n, Some(n))
    }
}
impl<C: Indexed> ExactSizeIterator for Empties<C> {}

/// The two numbers of a cell written `(2,3)`, `2,3`, `2 3` or `(2, 3)`; `None` for anything
/// else. What the numbers mean (row and column, x and y, from 0 or 1) is the game's to say.
pub fn read_pair(text: &str) -> Option<[u16; 2]> {
    let t = text.trim();
    let inner = t
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t);
    let parts: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    let [a, b] = parts[..] else {
        return None;
    };
    Some([a.parse().ok()?, b.parse().ok()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_match_the_geometry() {
        assert_eq!(Board::lines(3, 3, 3).patterns().len(), 8);
        // 4×4 with 3 in a row: 2·4 per row and per column, 4 per diagonal direction.
        assert_eq!(Board::lines(4, 4, 3).patterns().len(), 8 + 8 + 4 + 4);
        // 7×6 with 4 in a row is Connect 4's 69 lines.
        assert_eq!(Board::lines(7, 6, 4).patterns().len(), 69);
        // One in a row: each cell once.
        assert_eq!(Board::lines(2, 2, 1).patterns().len(), 4);
        // 6 placements of each of the 4 tetromino orientations on a 4×4 board.
        assert_eq!(Board::tippies(4).patterns().len(), 24);
    }

    #[test]
    fn threats_are_the_one_missing_empty_cell() {
        let b = Board::lines(3, 3, 3);
        // X at (0,0) and (0,1): (0,2) completes the top row.
        let mine = 0b011;
        assert_eq!(b.threats(mine, b.full() & !mine), 0b100);
        // Taken by O: no threat.
        assert_eq!(b.threats(mine, b.full() & !mine & !0b100), 0);
    }

    #[test]
    fn pairs_read_four_ways_and_nothing_else() {
        for t in ["(2,3)", "2,3", "2 3", " (2, 3) "] {
            assert_eq!(read_pair(t), Some([2, 3]), "{t}");
        }
        for t in ["", "2", "(2,3,4)", "a,b", "(-1,2)", "2;3"] {
            assert_eq!(read_pair(t), None, "{t}");
        }
    }
}

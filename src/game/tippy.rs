//! Tippy as Toronto's CSC148 plays it, on an n×n board (3 ≤ n ≤ 8, 4 by default): p1 (X,
//! Maxie) and p2 (O, Minnie) take turns claiming an empty cell; the first whose cells hold a
//! *tippy* wins. A tippy is four cells in a Z or S tetromino: two adjacent cells in one row
//! and two adjacent cells in the next row shifted by one column (either way), or the same
//! with rows and columns swapped. A full board without one is a tie.
//!
//! **Cells** are (x, y) pairs counted from 1: x is the column (1 at the left), y the row (1
//! at the top), as a person reads the board. The Python driver accepts 0-based moves too
//! (`--base 0`). Moves are listed row by row from the top, left to right.
//!
//! **Positions** are written as rows of `.`, `X` and `O`, top row first (`X.../.O../...`
//! in one line, or a YAML list of rows). p1 moves first, so equal counts mean p1 to move and
//! one X more means p2 to move; a game p2 started has one O more with p1 to move.
//!
//! **rough_outcome** (the estimator, for the player to move): WIN (1.0) when one of their
//! moves completes a tippy; else LOSE (-1.0) when the opponent has two or more cells that
//! would each complete one of theirs (only one can be blocked); else DRAW (0.0).

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};
use std::fmt;

/// The largest board: its cells fit one 64-bit word.
pub const MAX_SIZE: u8 = 8;
/// The smallest board a tippy fits on.
pub const MIN_SIZE: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TippyState {
    /// p1's cells (X) and p2's (O): bit `y * n + x`, 0-based.
    pub cells: [u64; 2],
    pub to_move: Player,
}

/// A cell, 0-based inside; shown 1-based as `(x,y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x + 1, self.y + 1)
    }
}

#[derive(Clone, Debug)]
pub struct Tippy {
    pub size: u8,
    pub start: TippyState,
    /// Every tippy on the board, as a mask of its four cells.
    tippies: Vec<u64>,
}

fn side(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

impl Tippy {
    /// An empty board of `size` (checked by the caller: 3 to 8), p1 to move.
    pub fn new(size: u8) -> Tippy {
        let n = size;
        let bit = |x: u8, y: u8| 1u64 << (u32::from(y) * u32::from(n) + u32::from(x));
        let mut tippies = Vec::new();
        for y in 0..n {
            for x in 0..n {
                // Rows: two in row y, two in row y+1 shifted right (Z) or left (S).
                if x + 2 < n && y + 1 < n {
                    tippies.push(bit(x, y) | bit(x + 1, y) | bit(x + 1, y + 1) | bit(x + 2, y + 1));
                    tippies.push(bit(x + 1, y) | bit(x + 2, y) | bit(x, y + 1) | bit(x + 1, y + 1));
                }
                // Columns: the same turned a quarter.
                if x + 1 < n && y + 2 < n {
                    tippies.push(bit(x, y) | bit(x, y + 1) | bit(x + 1, y + 1) | bit(x + 1, y + 2));
                    tippies.push(bit(x + 1, y) | bit(x + 1, y + 1) | bit(x, y + 1) | bit(x, y + 2));
                }
            }
        }
        Tippy {
            size,
            start: TippyState {
                cells: [0, 0],
                to_move: Player::Maxie,
            },
            tippies,
        }
    }

    fn full(&self) -> u64 {
        let cells = u32::from(self.size) * u32::from(self.size);
        if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        }
    }

    /// Does this set of cells hold a tippy?
    pub fn has_tippy(&self, cells: u64) -> bool {
        self.tippies.iter().any(|&t| t & !cells == 0)
    }

    /// The empty cells that would complete a tippy for the holder of `mine`.
    fn threats(&self, mine: u64, empty: u64) -> u64 {
        let mut out = 0;
        for &t in &self.tippies {
            let missing = t & !mine;
            if missing.count_ones() == 1 && missing & empty != 0 {
                out |= missing;
            }
        }
        out
    }

    pub fn cell(&self, index: u32) -> Cell {
        let n = u32::from(self.size);
        Cell {
            x: (index % n) as u8,
            y: (index / n) as u8,
        }
    }

    pub fn index(&self, c: Cell) -> u32 {
        u32::from(c.y) * u32::from(self.size) + u32::from(c.x)
    }

    /// The board's rows, top first: `X.O.`
    pub fn rows_text(&self, s: &TippyState) -> Vec<String> {
        let n = self.size;
        (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| {
                        let b = 1u64 << self.index(Cell { x, y });
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

    /// The mover's rough outcome: 1, -1 or 0 (see the module's notes).
    pub fn rough_outcome(&self, s: &TippyState) -> i64 {
        let me = side(s.to_move);
        let empty = self.full() & !(s.cells[0] | s.cells[1]);
        if self.threats(s.cells[me], empty) != 0 {
            1
        } else if self.threats(s.cells[1 - me], empty).count_ones() >= 2 {
            -1
        } else {
            0
        }
    }
}

/// The empty cells of a state, in move order.
pub struct Empties<'a> {
    game: &'a Tippy,
    left: u64,
}

impl Iterator for Empties<'_> {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        (self.left != 0).then(|| {
            let i = self.left.trailing_zeros();
            self.left &= self.left - 1;
            self.game.cell(i)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.count_ones() as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Empties<'_> {}

impl Game for Tippy {
    type State = TippyState;
    type Move = Cell;
    type Moves<'a> = Empties<'a>;

    fn start(&self) -> TippyState {
        self.start
    }
    fn player(&self, s: &TippyState) -> Player {
        s.to_move
    }
    fn status(&self, s: &TippyState) -> Status {
        if self.has_tippy(s.cells[0]) {
            Status::Over(Outcome::Winner(Player::Maxie))
        } else if self.has_tippy(s.cells[1]) {
            Status::Over(Outcome::Winner(Player::Minnie))
        } else if s.cells[0] | s.cells[1] == self.full() {
            Status::Over(Outcome::Draw)
        } else {
            Status::InPlay
        }
    }
    fn moves(&self, s: &TippyState) -> Empties<'_> {
        let left = match self.status(s) {
            Status::InPlay => self.full() & !(s.cells[0] | s.cells[1]),
            Status::Over(_) => 0,
        };
        Empties { game: self, left }
    }
    fn play(&self, s: &TippyState, c: Cell) -> TippyState {
        let mut next = *s;
        next.cells[side(s.to_move)] |= 1u64 << self.index(c);
        next.to_move = s.to_move.other();
        next
    }
    fn estimate(&self, s: &TippyState) -> Estimate {
        let mine = self.rough_outcome(s);
        Estimate::Guess(match s.to_move {
            Player::Maxie => mine,
            Player::Minnie => -mine,
        })
    }
    /// `X.../.O../..../....`
    fn write_label(&self, s: &TippyState, out: &mut String) {
        for (i, row) in self.rows_text(s).iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            out.push_str(row);
        }
    }
    fn player_name(&self, p: Player) -> &'static str {
        p.course_name()
    }
    fn key(&self, s: &TippyState) -> StateKey {
        StateKey::Packed(
            u128::from(s.cells[0]) | u128::from(s.cells[1]) << 64,
            s.to_move,
        )
    }
}

/// Reads `(2,3)`, `2,3`, `2 3` or `(2, 3)` as 1-based (x, y); the error says how to write one.
pub fn read_cell(text: &str, size: u8, base: u8) -> Result<Cell, String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t);
    let parts: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    let bad = || {
        format!(
            "`{t}` is not a cell: write (x,y) with x the column and y the row, each {base} to {}",
            u16::from(size) + u16::from(base) - 1
        )
    };
    let [x, y] = parts[..] else {
        return Err(bad());
    };
    let read = |s: &str| -> Result<u8, String> {
        let v: u16 = s.parse().map_err(|_| bad())?;
        v.checked_sub(u16::from(base))
            .filter(|&v| v < u16::from(size))
            .map(|v| v as u8)
            .ok_or_else(bad)
    };
    Ok(Cell {
        x: read(x)?,
        y: read(y)?,
    })
}

impl Playable for Tippy {
    fn name(&self) -> &'static str {
        "tippy"
    }
    fn starting_at(&self, state: TippyState) -> Self {
        Tippy {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    fn read_move(&self, text: &str) -> Result<Cell, String> {
        read_cell(text, self.size, 1)
    }
    fn why_illegal(&self, s: &TippyState, c: Cell) -> Option<String> {
        if let Status::Over(_) = self.status(s) {
            return Some("the game is over".to_owned());
        }
        let b = 1u64 << self.index(c);
        (s.cells[0] & b != 0 || s.cells[1] & b != 0).then(|| format!("cell {c} is taken"))
    }
    fn render(&self, s: &TippyState) -> String {
        let mut out = String::from("   ");
        for x in 1..=self.size {
            out.push_str(&format!("{x:>2}"));
        }
        out.push('\n');
        for (y, row) in self.rows_text(s).iter().enumerate() {
            out.push_str(&format!("{:>2} ", y + 1));
            for c in row.chars() {
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out
    }
    fn move_name(&self, c: Cell) -> String {
        c.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "a cell (x,y): x the column from 1 at the left, y the row from 1 at the top, like (2,3)"
    }
    /// `{"game": "tippy", "next_player": "p1", "size": 4, "rows": ["X...", ...]}`: rows top
    /// first, x the column and y the row, both from 1.
    fn position_json(&self, s: &TippyState) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "game": "tippy",
            "next_player": s.to_move.course_name(),
            "size": self.size,
            "rows": self.rows_text(s),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: &Tippy, rows: &[&str], to_move: Player) -> TippyState {
        let mut s = TippyState {
            cells: [0, 0],
            to_move,
        };
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                let b = 1u64
                    << t.index(Cell {
                        x: x as u8,
                        y: y as u8,
                    });
                match ch {
                    'X' => s.cells[0] |= b,
                    'O' => s.cells[1] |= b,
                    _ => {}
                }
            }
        }
        s
    }

    #[test]
    fn four_orientations_and_nothing_else() {
        let t = Tippy::new(4);
        // 6 placements of each of the 4 orientations on a 4×4 board.
        assert_eq!(t.tippies.len(), 24);
        let wins = [
            ["XX..", ".XX.", "....", "...."],
            [".XX.", "XX..", "....", "...."],
            ["X...", "XX..", ".X..", "...."],
            [".X..", "XX..", "X...", "...."],
        ];
        for w in wins {
            let s = at(&t, &w, Player::Minnie);
            assert_eq!(
                t.status(&s),
                Status::Over(Outcome::Winner(Player::Maxie)),
                "{w:?}"
            );
        }
        for not in [
            ["XXXX", "....", "....", "...."], // a line
            ["XX..", "XX..", "....", "...."], // a square
            ["XX..", "..XX", "....", "...."], // shifted by two
            ["X...", "X...", "XX..", "...."], // an L
        ] {
            assert_eq!(
                t.status(&at(&t, &not, Player::Minnie)),
                Status::InPlay,
                "{not:?}"
            );
        }
    }

    #[test]
    fn a_full_board_without_a_tippy_is_a_tie() {
        let t = Tippy::new(3);
        let s = at(&t, &["XOX", "XOX", "OXO"], Player::Minnie);
        assert_eq!(t.status(&s), Status::Over(Outcome::Draw));
        assert_eq!(t.moves(&s).len(), 0);
    }

    #[test]
    fn moves_go_row_by_row_and_print_one_based() {
        let t = Tippy::new(3);
        let s = at(&t, &["X..", ".O.", "..."], Player::Maxie);
        let m: Vec<String> = t.moves(&s).map(|c| c.to_string()).collect();
        assert_eq!(
            m,
            ["(2,1)", "(3,1)", "(1,2)", "(3,2)", "(1,3)", "(2,3)", "(3,3)"]
        );
        let mut label = String::new();
        t.write_label(&s, &mut label);
        assert_eq!(label, "X../.O./...");
        assert_eq!(t.read_move("(3, 2)").unwrap(), Cell { x: 2, y: 1 });
        assert_eq!(read_cell("0 0", 3, 0).unwrap(), Cell { x: 0, y: 0 });
        assert!(t.read_move("(0,1)").is_err());
        assert!(t.parse_move(&s, "(1,1)").unwrap_err().contains("taken"));
    }

    #[test]
    fn rough_outcome_sees_one_move_ahead() {
        let t = Tippy::new(4);
        // X completes XX./.X? with (3,2).
        let s = at(&t, &["XX..", ".X..", "OO..", "O..."], Player::Maxie);
        assert_eq!(t.rough_outcome(&s), 1);
        // O to move, cannot win at once, and X has two ways to finish.
        let s = at(&t, &["XX..", ".X..", "O...", "O..O"], Player::Minnie);
        let mut two = s;
        two.cells[0] |= 1 << t.index(Cell { x: 0, y: 1 });
        two.cells[1] |= 1 << t.index(Cell { x: 3, y: 0 });
        assert_eq!(t.rough_outcome(&s), 0);
        assert_eq!(t.estimate(&s), Estimate::Guess(0));
        // XX.O/XX..: X now finishes at (3,1), (3,2) or (2,3); O can block only one.
        assert_eq!(t.rough_outcome(&two), -1);
        assert_eq!(t.estimate(&two), Estimate::Guess(1));
    }
}

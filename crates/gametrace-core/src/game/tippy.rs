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

use super::board::{self, Board, Indexed, Position};
use super::{Estimate, Estimator, Game, Playable, Player, StateKey, Status};
use std::fmt;

/// The largest board: its cells fit one 64-bit word.
pub const MAX_SIZE: u8 = board::MAX_SIDE;
/// The smallest board a tippy fits on.
pub const MIN_SIZE: u8 = 3;

/// p1's cells (X) and p2's (O), and who moves.
pub type TippyState = Position;

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

impl Indexed for Cell {
    #[inline]
    fn from_index(index: u32, columns: u8) -> Cell {
        let n = u32::from(columns);
        Cell {
            x: (index % n) as u8,
            y: (index / n) as u8,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Tippy {
    pub size: u8,
    pub start: TippyState,
    /// The cells and every tippy on them.
    board: Board,
}

impl Tippy {
    /// An empty board of `size` (checked by the caller: 3 to 8), p1 to move.
    pub fn new(size: u8) -> Tippy {
        Tippy {
            size,
            start: TippyState {
                cells: [0, 0],
                to_move: Player::Maxie,
            },
            board: Board::tippies(size),
        }
    }

    /// Does this set of cells hold a tippy?
    pub fn has_tippy(&self, cells: u64) -> bool {
        self.board.completes(cells)
    }

    pub fn cell(&self, index: u32) -> Cell {
        Cell::from_index(index, self.size)
    }

    pub fn index(&self, c: Cell) -> u32 {
        self.board.index(c.y, c.x)
    }

    /// The board's rows, top first: `X.O.`
    pub fn rows_text(&self, s: &TippyState) -> Vec<String> {
        self.board.rows_text(s)
    }

    /// The mover's rough outcome: 1, -1 or 0 (see the module's notes).
    pub fn rough_outcome(&self, s: &TippyState) -> i64 {
        let b = &self.board;
        let empty = b.full() & !(s.cells[0] | s.cells[1]);
        if b.threats(s.of(s.to_move), empty) != 0 {
            1
        } else if b.threats(s.of(s.to_move.other()), empty).count_ones() >= 2 {
            -1
        } else {
            0
        }
    }
}

impl Game for Tippy {
    type State = TippyState;
    type Move = Cell;
    type Moves<'a> = board::Empties<Cell>;

    fn start(&self) -> TippyState {
        self.start
    }
    fn player(&self, s: &TippyState) -> Player {
        s.to_move
    }
    fn status(&self, s: &TippyState) -> Status {
        self.board.status(s)
    }
    fn moves(&self, s: &TippyState) -> board::Empties<Cell> {
        self.board.moves(s)
    }
    fn moves_in_play(&self, s: &TippyState) -> board::Empties<Cell> {
        self.board.moves_in_play(s)
    }
    fn play(&self, s: &TippyState, c: Cell) -> TippyState {
        s.claim(self.index(c))
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
        self.board.write_label(s, out)
    }
    fn player_name(&self, p: Player) -> &'static str {
        p.course_name()
    }
    fn key(&self, s: &TippyState) -> StateKey {
        s.key()
    }
}

/// Reads `(2,3)`, `2,3`, `2 3` or `(2, 3)` as 1-based (x, y); the error says how to write one.
pub fn read_cell(text: &str, size: u8, base: u8) -> Result<Cell, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "`{t}` is not a cell: write (x,y) with x the column and y the row, each {base} to {}",
            u16::from(size) + u16::from(base) - 1
        )
    };
    let [x, y] = board::read_pair(t).ok_or_else(bad)?;
    let read = |v: u16| -> Result<u8, String> {
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
        self.board.why_illegal(s, self.index(c), c)
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
    use crate::game::Outcome;

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

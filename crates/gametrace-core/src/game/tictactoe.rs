//! Tic-tac-toe and the other m,n,k-games (AIMA's `TicTacToe(h, v, k)`, OpenSpiel's
//! `tic_tac_toe`): an m×n board (m columns, n rows, each 1 to 8), X (Maxie) moves first, the
//! players alternate claiming an empty cell, and the first with k of their cells in a row,
//! column or diagonal wins. A full board without one is a draw. 3,3,3 is tic-tac-toe.
//!
//! **Cells** are written `(row,col)`, both counted from 1 at the top left, as AIMA's
//! `TicTacToe` writes its moves; moves are listed row by row, left to right (OpenSpiel's
//! action order).
//!
//! **Positions** are rows of `.`, `X` and `O`, top row first (`X.O/.X./...` in one line, or a
//! YAML list of rows). X moves first, so equal counts mean X to move and one X more means O to
//! move; any other count, two winners, or a winner who could not have just moved is a
//! position no game reaches.
//!
//! **Utility** (what a finished game is worth to the searchers, as X's number): +1 for X's win,
//! -1 for O's, 0 for a draw, as AIMA and OpenSpiel score it; a spec may choose others.
//!
//! **Estimate** (at a depth cutoff): AIMA's evaluation (exercise 5.9), `Eval = 3·X2 + X1 −
//! (3·O2 + O1)` where `Xj` counts the lines with j X and no O; for k in a row the weights run
//! 1, 3, 9, … up to k−1 marks.

use super::board::{self, Board, Indexed, Position};
use super::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};
use std::fmt;

pub use board::MAX_SIDE;

/// X's cells and O's, and who moves.
pub type TttState = Position;

/// A cell, 0-based inside; shown 1-based as `(row,col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row + 1, self.col + 1)
    }
}

impl Indexed for Cell {
    #[inline]
    fn from_index(index: u32, columns: u8) -> Cell {
        let m = u32::from(columns);
        Cell {
            row: (index / m) as u8,
            col: (index % m) as u8,
        }
    }
}

/// What a finished game is worth, as X's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utility {
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
}

impl Default for Utility {
    fn default() -> Self {
        Utility {
            win: 1,
            draw: 0,
            loss: -1,
        }
    }
}

#[derive(Clone, Debug)]
pub struct TicTacToe {
    pub columns: u8,
    pub rows: u8,
    pub k: u8,
    pub utility: Utility,
    pub start: TttState,
    /// The cells and every line of k of them.
    board: Board,
}

/// Why an m,n,k board cannot be played, if it cannot.
pub fn check_size(columns: u64, rows: u64, k: u64) -> Result<(u8, u8, u8), String> {
    let side = 1..=u64::from(MAX_SIDE);
    if !side.contains(&columns) || !side.contains(&rows) {
        return Err(format!(
            "a {columns}×{rows} board is outside 1×1 to {MAX_SIDE}×{MAX_SIDE}"
        ));
    }
    if k == 0 || k > columns.max(rows) {
        return Err(format!(
            "{k} in a row cannot be made on a {columns}×{rows} board"
        ));
    }
    Ok((columns as u8, rows as u8, k as u8))
}

impl TicTacToe {
    /// An empty board (sizes checked by [`check_size`]), X to move.
    pub fn new(columns: u8, rows: u8, k: u8) -> TicTacToe {
        TicTacToe {
            columns,
            rows,
            k,
            utility: Utility::default(),
            start: TttState {
                cells: [0, 0],
                to_move: Player::Maxie,
            },
            board: Board::lines(columns, rows, k),
        }
    }

    pub fn with_utility(mut self, utility: Utility) -> TicTacToe {
        self.utility = utility;
        self
    }

    pub fn cell_count(&self) -> u32 {
        self.board.cell_count()
    }

    /// Does this set of cells hold k in a row?
    pub fn has_line(&self, cells: u64) -> bool {
        self.board.completes(cells)
    }

    pub fn cell(&self, index: u32) -> Cell {
        Cell::from_index(index, self.columns)
    }

    pub fn index(&self, c: Cell) -> u32 {
        self.board.index(c.row, c.col)
    }

    /// The board's rows, top first: `X.O`
    pub fn rows_text(&self, s: &TttState) -> Vec<String> {
        self.board.rows_text(s)
    }

    /// AIMA's evaluation, as X's number (see the module's notes).
    pub fn evaluation(&self, s: &TttState) -> i64 {
        let mut total = 0i64;
        for &l in self.board.patterns() {
            let (x, o) = (l & s.cells[0], l & s.cells[1]);
            let weight = |marks: u32| 3i64.pow(marks - 1);
            match (x.count_ones(), o.count_ones()) {
                (j, 0) if j > 0 => total += weight(j),
                (0, j) if j > 0 => total -= weight(j),
                _ => {}
            }
        }
        total
    }
}

impl Game for TicTacToe {
    type State = TttState;
    type Move = Cell;
    type Moves<'a> = board::Empties<Cell>;

    fn start(&self) -> TttState {
        self.start
    }
    fn player(&self, s: &TttState) -> Player {
        s.to_move
    }
    fn status(&self, s: &TttState) -> Status {
        self.board.status(s)
    }
    fn moves(&self, s: &TttState) -> board::Empties<Cell> {
        self.board.moves(s)
    }
    fn moves_in_play(&self, s: &TttState) -> board::Empties<Cell> {
        self.board.moves_in_play(s)
    }
    fn play(&self, s: &TttState, c: Cell) -> TttState {
        s.claim(self.index(c))
    }
    fn estimate(&self, s: &TttState) -> Estimate {
        Estimate::Guess(self.evaluation(s))
    }
    fn utility(&self, _: &TttState, outcome: Outcome) -> Estimate {
        Estimate::Guess(match outcome {
            Outcome::Winner(Player::Maxie) => self.utility.win,
            Outcome::Winner(Player::Minnie) => self.utility.loss,
            Outcome::Draw => self.utility.draw,
        })
    }
    /// `X.O/.X./...`
    fn write_label(&self, s: &TttState, out: &mut String) {
        self.board.write_label(s, out)
    }
    fn write_move(&self, c: Cell, out: &mut String) {
        out.push('(');
        out.push_str(itoa::Buffer::new().format(c.row + 1));
        out.push(',');
        out.push_str(itoa::Buffer::new().format(c.col + 1));
        out.push(')');
    }
    fn player_name(&self, p: Player) -> &'static str {
        match p {
            Player::Maxie => "X",
            Player::Minnie => "O",
        }
    }
    fn key(&self, s: &TttState) -> StateKey {
        s.key()
    }
}

/// Reads `(2,3)`, `2,3`, `2 3` or `(2, 3)` as 1-based (row, col); the error says how to
/// write one.
pub fn read_cell(text: &str, columns: u8, rows: u8) -> Result<Cell, String> {
    let t = text.trim();
    let bad = || {
        format!("`{t}` is not a cell: write (row,col), the row 1 to {rows} from the top and the column 1 to {columns} from the left")
    };
    let [r, c] = board::read_pair(t).ok_or_else(bad)?;
    let read = |v: u16, limit: u8| -> Result<u8, String> {
        v.checked_sub(1)
            .filter(|&v| v < u16::from(limit))
            .map(|v| v as u8)
            .ok_or_else(bad)
    };
    Ok(Cell {
        row: read(r, rows)?,
        col: read(c, columns)?,
    })
}

impl Playable for TicTacToe {
    fn name(&self) -> &'static str {
        "tictactoe"
    }
    fn starting_at(&self, state: TttState) -> Self {
        TicTacToe {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    fn read_move(&self, text: &str) -> Result<Cell, String> {
        read_cell(text, self.columns, self.rows)
    }
    fn why_illegal(&self, s: &TttState, c: Cell) -> Option<String> {
        self.board.why_illegal(s, self.index(c), c)
    }
    fn render(&self, s: &TttState) -> String {
        let mut out = String::from("  ");
        for c in 1..=self.columns {
            out.push_str(&format!("{c:>2}"));
        }
        out.push('\n');
        for (r, row) in self.rows_text(s).iter().enumerate() {
            out.push_str(&format!("{:>2}", r + 1));
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
        "a cell (row,col), both from 1 at the top left, like (2,3)"
    }
    fn longest_game(&self) -> Option<u32> {
        Some(self.cell_count())
    }
    /// `{"game": "tictactoe", "to_move": "X", "columns": 3, "rows": 3, "k": 3, "board":
    /// ["X..", ...]}`
    fn position_json(&self, s: &TttState) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "game": "tictactoe",
            "to_move": self.player_name(s.to_move),
            "columns": self.columns,
            "rows": self.rows,
            "k": self.k,
            "board": self.rows_text(s),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: &TicTacToe, rows: &[&str]) -> TttState {
        let mut s = TttState {
            cells: [0, 0],
            to_move: Player::Maxie,
        };
        for (r, text) in rows.iter().enumerate() {
            for (c, ch) in text.chars().enumerate() {
                let b = 1u64
                    << t.index(Cell {
                        row: r as u8,
                        col: c as u8,
                    });
                match ch {
                    'X' => s.cells[0] |= b,
                    'O' => s.cells[1] |= b,
                    _ => {}
                }
            }
        }
        let (x, o) = (s.cells[0].count_ones(), s.cells[1].count_ones());
        s.to_move = if x > o { Player::Minnie } else { Player::Maxie };
        s
    }

    #[test]
    fn three_by_three_has_eight_lines() {
        assert_eq!(TicTacToe::new(3, 3, 3).board.patterns().len(), 8);
    }

    #[test]
    fn rows_columns_and_both_diagonals_win() {
        let t = TicTacToe::new(3, 3, 3);
        for rows in [
            ["XXX", "OO.", "..."],
            ["XO.", "XO.", "X.."],
            ["XO.", "OX.", "..X"],
            ["OOX", ".X.", "X.."],
        ] {
            assert_eq!(
                t.status(&at(&t, &rows)),
                Status::Over(Outcome::Winner(Player::Maxie)),
                "{rows:?}"
            );
        }
        let o = at(&t, &["XX.", "OOO", "X.."]);
        assert_eq!(t.status(&o), Status::Over(Outcome::Winner(Player::Minnie)));
        assert_eq!(t.moves(&o).len(), 0);
        let draw = at(&t, &["XOX", "XOO", "OXX"]);
        assert_eq!(t.status(&draw), Status::Over(Outcome::Draw));
        assert_eq!(t.status(&at(&t, &["XX.", "O..", "O.."])), Status::InPlay);
    }

    #[test]
    fn moves_go_row_by_row_and_print_row_then_column() {
        let t = TicTacToe::new(3, 3, 3);
        let s = at(&t, &["X..", ".O.", "..."]);
        let m: Vec<String> = t.moves(&s).map(|c| c.to_string()).collect();
        assert_eq!(
            m,
            ["(1,2)", "(1,3)", "(2,1)", "(2,3)", "(3,1)", "(3,2)", "(3,3)"]
        );
        let mut out = String::new();
        t.write_move(Cell { row: 2, col: 0 }, &mut out);
        assert_eq!(out, "(3,1)");
        let mut label = String::new();
        t.write_label(&s, &mut label);
        assert_eq!(label, "X../.O./...");
        assert_eq!(t.read_move("(3, 2)").unwrap(), Cell { row: 2, col: 1 });
        assert!(t.read_move("(4,1)").is_err());
        assert!(t.parse_move(&s, "1,1").unwrap_err().contains("taken"));
    }

    #[test]
    fn evaluation_is_aimas_linear_function() {
        let t = TicTacToe::new(3, 3, 3);
        // X in the centre: 4 lines with one X and no O.
        assert_eq!(t.evaluation(&at(&t, &["...", ".X.", "..."])), 4);
        // O in a corner: the centre's row, column and anti-diagonal hold one X and no O
        // (X1 = 3), the corner's row and column one O and no X (O1 = 2); the main diagonal
        // holds both and counts for neither.
        assert_eq!(t.evaluation(&at(&t, &["O..", ".X.", "..."])), 1);
        // Two X in the top row (X2 = 1, worth 3); column 2 and the main diagonal hold one X
        // (X1 = 2); row 2 holds one O (O1 = 1); column 1 holds both.
        let s = at(&t, &["XX.", "O..", "..."]);
        assert_eq!(t.evaluation(&s), 3 + 2 - 1);
    }

    #[test]
    fn utility_is_configurable() {
        let t = TicTacToe::new(3, 3, 3).with_utility(Utility {
            win: 10,
            draw: 0,
            loss: -10,
        });
        let s = at(&t, &["XXX", "OO.", "..."]);
        assert_eq!(
            t.utility(&s, Outcome::Winner(Player::Maxie)),
            Estimate::Guess(10)
        );
    }
}

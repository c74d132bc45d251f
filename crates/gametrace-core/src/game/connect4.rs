//! Connect 4 on any board (7 columns × 6 rows by default) and its PopOut variant, as the
//! 15-150 S12 handout states them. (0,0) is the bottom-left corner; Maxie is X and moves
//! first; four in a row horizontally, vertically or on either diagonal wins; a full board
//! with no four is a draw.
//!
//! **PopOut** adds a move: the player to move may pop one of their own pieces out of the
//! bottom row, and the column above it drops by one. A pop can complete four for both
//! players at once; then **the player who popped wins** (the commercial PopOut rule). A full
//! board is a draw in both variants, so every state's status follows from its board alone.
//!
//! The board is a pair of bitboards: cell (x, y) is bit `x * (rows + 1) + y`, and the spare
//! top bit of each column keeps lines from wrapping into the next column, so a four is found
//! with four shift-and-mask steps.

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};
use num_traits::{CheckedShl, CheckedShr, PrimInt};
use std::fmt;

/// At most this many cells, counting one spare cell on top of each column.
pub const MAX_BITS: u32 = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Maxie's pieces (X) and Minnie's (O).
    pub pieces: [u128; 2],
    pub to_move: Player,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum C4Move {
    /// Drop a piece into this column.
    Drop(u8),
    /// PopOut: take one's own piece out of the bottom of this column.
    Pop(u8),
}

impl fmt::Display for C4Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            C4Move::Drop(c) => write!(f, "{c}"),
            C4Move::Pop(c) => write!(f, "p{c}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Connect4 {
    pub columns: u8,
    pub rows: u8,
    pub popout: bool,
    pub estimator: Estimator,
    pub start: Board,
    /// The board's masks, worked out once: the searchers test them at every node.
    masks: Masks,
}

/// Cells of a board size that the rules test again and again.
#[derive(Clone, Copy, Debug)]
struct Masks {
    /// The bottom cell of each column.
    bottom: u128,
    /// The top cell of each column: a column has room while its top cell is empty.
    top: u128,
    /// Every playable cell.
    full: u128,
    /// Column 0's playable cells (column x's are these shifted by x strides).
    column: u128,
}

impl Masks {
    fn new(columns: u8, rows: u8) -> Masks {
        let stride = u32::from(rows) + 1;
        let column = (1u128 << rows) - 1;
        let (mut bottom, mut full) = (0u128, 0u128);
        for x in 0..u32::from(columns) {
            bottom |= 1 << (x * stride);
            full |= column << (x * stride);
        }
        Masks {
            bottom,
            top: bottom << (rows - 1),
            full,
            column,
        }
    }
}

fn index(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

/// Why a board size cannot be used.
pub fn check_size(columns: u64, rows: u64) -> Result<(u8, u8), String> {
    if columns == 0 || rows == 0 {
        return Err("a board needs at least one column and one row".to_owned());
    }
    if columns.saturating_mul(rows.saturating_add(1)) > MAX_BITS as u64 {
        return Err(format!(
            "a {columns}×{rows} board is too large: columns × (rows + 1) must be at most {MAX_BITS}"
        ));
    }
    Ok((columns as u8, rows as u8))
}

impl Connect4 {
    /// An empty board of a size [`check_size`] accepts, Maxie to move.
    pub fn new(columns: u8, rows: u8, popout: bool) -> Connect4 {
        Connect4 {
            columns,
            rows,
            popout,
            estimator: Estimator::Naive,
            start: Board {
                pieces: [0, 0],
                to_move: Player::Maxie,
            },
            masks: Masks::new(columns, rows),
        }
    }

    pub fn variant(&self) -> &'static str {
        if self.popout {
            "popout"
        } else {
            "connect4"
        }
    }

    #[inline]
    fn stride(&self) -> u32 {
        u32::from(self.rows) + 1
    }

    #[inline]
    pub fn bit(&self, x: u8, y: u8) -> u128 {
        1u128 << (u32::from(x) * self.stride() + u32::from(y))
    }

    /// All playable cells of column `x`.
    #[inline]
    fn column_mask(&self, x: u8) -> u128 {
        self.masks.column << (u32::from(x) * self.stride())
    }

    /// The cell a piece dropped into column `x` lands in, as a mask: the column's pieces are
    /// a run from its bottom cell (the loader refuses floating pieces), so adding the bottom
    /// cell carries into the first empty one. The column must have room.
    #[inline]
    fn landing_cell(&self, b: &Board, x: u8) -> u128 {
        let shift = u32::from(x) * self.stride();
        let taken = b.pieces[0] | b.pieces[1];
        if self.fits_in_u64() {
            let column = (self.masks.column as u64) << shift;
            u128::from((taken as u64 & column) + (1u64 << shift))
        } else {
            (taken & self.column_mask(x)) + (1u128 << shift)
        }
    }

    /// Who holds (x, y), if anyone.
    pub fn at(&self, b: &Board, x: u8, y: u8) -> Option<Player> {
        let bit = self.bit(x, y);
        if b.pieces[0] & bit != 0 {
            Some(Player::Maxie)
        } else if b.pieces[1] & bit != 0 {
            Some(Player::Minnie)
        } else {
            None
        }
    }

    /// The handout's `lowestFreeRow`: the row a piece dropped into column `x` lands in.
    pub fn lowest_free_row(&self, b: &Board, x: u8) -> Option<u8> {
        let h = ((b.pieces[0] | b.pieces[1]) & self.column_mask(x)).count_ones() as u8;
        (h < self.rows).then_some(h)
    }

    /// Does `pieces` hold four in a row anywhere?
    #[inline]
    pub fn has_four(&self, pieces: u128) -> bool {
        if self.fits_in_u64() {
            four_in(pieces as u64, self.directions())
        } else {
            four_in(pieces, self.directions())
        }
    }

    /// The bit distance of one step in each direction: up a column, along a row, and the
    /// two diagonals.
    #[inline]
    fn directions(&self) -> [u32; 4] {
        let h = self.stride();
        [1, h, h + 1, h - 1]
    }

    /// Does every cell's bit fit in 64 (7×6 takes 49)? Then the bit tricks run on `u64`,
    /// where a shift is one instruction rather than a few.
    #[inline]
    fn fits_in_u64(&self) -> bool {
        u32::from(self.columns) * self.stride() <= 64
    }

    /// Pieces only ever fill playable cells.
    #[inline]
    fn is_full(&self, b: &Board) -> bool {
        b.pieces[0] | b.pieces[1] == self.masks.full
    }

    /// Drops in column order, then (PopOut) pops in column order, as one bit per column.
    #[inline]
    fn legal(&self, b: &Board) -> (u64, u64) {
        // The columns whose top cell is empty, and (PopOut) whose bottom cell is the mover's.
        let room = self.masks.top & !(b.pieces[0] | b.pieces[1]);
        let drops = self.per_column(room, self.rows - 1);
        let pops = if self.popout {
            self.per_column(self.masks.bottom & b.pieces[index(b.to_move)], 0)
        } else {
            0
        };
        (drops, pops)
    }

    /// One bit per column from a mask of cells all in row `y`: bit x for cell (x, y).
    #[inline]
    fn per_column(&self, cells: u128, y: u8) -> u64 {
        let stride = self.stride();
        let mut out = 0u64;
        if self.fits_in_u64() {
            let (cells, mut cell) = (cells as u64, 1u64 << y);
            for x in 0..self.columns {
                out |= u64::from(cells & cell != 0) << x;
                // Past the last column the cell is never read, so a wrapped shift is fine.
                cell = cell.wrapping_shl(stride);
            }
        } else {
            for x in 0..self.columns {
                out |= u64::from(cells & self.bit(x, y) != 0) << x;
            }
        }
        out
    }

    /// Why `mv` cannot be played in `b`, if it cannot.
    pub fn illegal(&self, b: &Board, mv: C4Move) -> Option<String> {
        if let Status::Over(o) = self.status(b) {
            return Some(format!("the game is over ({})", outcome_text(o)));
        }
        let last = self.columns - 1;
        let (C4Move::Drop(x) | C4Move::Pop(x)) = mv;
        if x > last {
            return Some(format!(
                "there is no column {x}: columns are numbered 0 to {last}"
            ));
        }
        match mv {
            C4Move::Drop(_) => self
                .lowest_free_row(b, x)
                .is_none()
                .then(|| format!("column {x} is full")),
            C4Move::Pop(_) if !self.popout => Some(format!(
                "`p{x}` pops a piece, and pops are PopOut moves; this game is Connect 4"
            )),
            C4Move::Pop(_) => match self.at(b, x, 0) {
                None => Some(format!("column {x} is empty: there is nothing to pop")),
                Some(p) if p != b.to_move => Some(format!(
                    "the bottom piece of column {x} is {p}'s ({}); {} may pop only their own pieces",
                    mark(p),
                    b.to_move
                )),
                Some(_) => None,
            },
        }
    }

    /// Maximal runs of exactly two and of exactly three pieces in `pieces`, over the four
    /// directions (see [`runs_in`]).
    #[cfg(test)]
    fn runs_of_two_and_three(&self, pieces: u128) -> (u32, u32) {
        if self.fits_in_u64() {
            runs_in(pieces as u64, self.directions())
        } else {
            runs_in(pieces, self.directions())
        }
    }

    /// The handout's naive estimator: 16 for each run of two, 64 for each run of three,
    /// Maxie's positive and Minnie's negative. A single piece is not a run.
    pub fn naive(&self, b: &Board) -> i64 {
        if self.fits_in_u64() {
            let [x, o] = b.pieces.map(|p| p as u64);
            naive_in_words(x, o, self.directions())
        } else {
            naive_score(runs_in(b.pieces[0], self.directions()))
                - naive_score(runs_in(b.pieces[1], self.directions()))
        }
    }

    /// The improved estimator: every line of four cells that only one player has pieces in
    /// could still become a four, and is worth 1, 8 or 40 to that player for one, two or
    /// three pieces in it; three whose missing cell is playable right now (a threat) are worth
    /// 120. Each piece in the centre column adds 3, since more lines pass through it.
    pub fn improved(&self, b: &Board) -> i64 {
        let mut score = 0i64;
        let (c, r) = (i32::from(self.columns), i32::from(self.rows));
        let cell = |x: i32, y: i32| self.bit(x as u8, y as u8);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for x in 0..c {
                for y in 0..r {
                    let (ex, ey) = (x + 3 * dx, y + 3 * dy);
                    if ex >= c || ey < 0 || ey >= r {
                        continue;
                    }
                    let mut window = 0u128;
                    for k in 0..4 {
                        window |= cell(x + k * dx, y + k * dy);
                    }
                    let (mx, mn) = (
                        (window & b.pieces[0]).count_ones(),
                        (window & b.pieces[1]).count_ones(),
                    );
                    let value = |n: u32| -> i64 {
                        match n {
                            1 => 1,
                            2 => 8,
                            3 => {
                                let gap = window & !(b.pieces[0] | b.pieces[1]);
                                let (gx, gy) = self.coordinates(gap);
                                if self.lowest_free_row(b, gx) == Some(gy) {
                                    120
                                } else {
                                    40
                                }
                            }
                            _ => 0,
                        }
                    };
                    if mn == 0 {
                        score += value(mx);
                    } else if mx == 0 {
                        score -= value(mn);
                    }
                }
            }
        }
        let centre = self.column_mask(self.columns / 2);
        score += 3 * i64::from((b.pieces[0] & centre).count_ones());
        score -= 3 * i64::from((b.pieces[1] & centre).count_ones());
        score
    }

    /// The (x, y) of a single-bit mask.
    fn coordinates(&self, bit: u128) -> (u8, u8) {
        let i = bit.trailing_zeros();
        ((i / self.stride()) as u8, (i % self.stride()) as u8)
    }

    /// Rows of `.XO` text, top row first: the spec's own form.
    pub fn rows_text(&self, b: &Board) -> Vec<String> {
        (0..self.rows)
            .rev()
            .map(|y| {
                (0..self.columns)
                    .map(|x| self.at(b, x, y).map_or('.', mark))
                    .collect()
            })
            .collect()
    }
}

/// A player's piece: Maxie is X, Minnie is O.
pub fn mark(p: Player) -> char {
    match p {
        Player::Maxie => 'X',
        Player::Minnie => 'O',
    }
}

/// Shifts that empty the board when they move every cell off it, rather than wrapping (a
/// 1×127 board's directions are 128 and 129 bits long).
#[inline]
fn shr<T: PrimInt + CheckedShr>(x: T, n: u32) -> T {
    x.checked_shr(n).unwrap_or_else(T::zero)
}

#[inline]
fn shl<T: PrimInt + CheckedShl>(x: T, n: u32) -> T {
    x.checked_shl(n).unwrap_or_else(T::zero)
}

/// Four in a row in any direction: pairs of neighbours, then pairs of pairs.
#[inline]
fn four_in<T: PrimInt + CheckedShl + CheckedShr>(pieces: T, directions: [u32; 4]) -> bool {
    directions.into_iter().any(|d| {
        let pairs = pieces & shr(pieces, d);
        pairs & shr(pairs, 2 * d) != T::zero()
    })
}

/// Runs of exactly two and of exactly three, all of a direction at once. A run starts at a
/// piece with no piece one step before it; `at_least[k]` marks the starts with pieces at the
/// next k steps too, so the runs of exactly two are the starts of two or more less those of
/// three or more. The spare top bit of each column is never set, so no run wraps into the
/// next column.
#[inline]
fn runs_in<T: PrimInt + CheckedShl + CheckedShr>(pieces: T, directions: [u32; 4]) -> (u32, u32) {
    let (mut two, mut three) = (0, 0);
    for d in directions {
        let starts = pieces & !shl(pieces, d);
        let two_or_more = starts & shr(pieces, d);
        let three_or_more = two_or_more & shr(pieces, 2 * d);
        let four_or_more = three_or_more & shr(pieces, 3 * d);
        two += two_or_more.count_ones() - three_or_more.count_ones();
        three += three_or_more.count_ones() - four_or_more.count_ones();
    }
    (two, three)
}

/// The naive estimator's worth of a player's runs of two and of three.
#[inline]
fn naive_score((two, three): (u32, u32)) -> i64 {
    16 * i64::from(two) + 64 * i64::from(three)
}

/// The naive estimator on a board that fits one word, with the processor's population count
/// instruction when it has one: it counts bits 24 times a position, and the portable count
/// takes a dozen instructions where the instruction takes one (a release build targets the
/// first x86-64 processors, which lack it, so it is chosen at run time).
#[inline]
fn naive_in_words(x: u64, o: u64, directions: [u32; 4]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has the instruction, as just checked.
        return unsafe { naive_with_popcnt(x, o, directions) };
    }
    naive_score(runs_in(x, directions)) - naive_score(runs_in(o, directions))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn naive_with_popcnt(x: u64, o: u64, directions: [u32; 4]) -> i64 {
    naive_score(runs_in(x, directions)) - naive_score(runs_in(o, directions))
}

fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Winner(p) => format!("{p} won"),
        Outcome::Draw => "a draw".to_owned(),
    }
}

/// The legal moves of a board: drops, then pops, each in column order.
pub struct C4Moves {
    drops: u64,
    pops: u64,
}

impl Iterator for C4Moves {
    type Item = C4Move;
    #[inline]
    fn next(&mut self) -> Option<C4Move> {
        if self.drops != 0 {
            let x = self.drops.trailing_zeros();
            self.drops &= self.drops - 1;
            Some(C4Move::Drop(x as u8))
        } else if self.pops != 0 {
            let x = self.pops.trailing_zeros();
            self.pops &= self.pops - 1;
            Some(C4Move::Pop(x as u8))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.drops.count_ones() + self.pops.count_ones()) as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for C4Moves {}

impl Game for Connect4 {
    type State = Board;
    type Move = C4Move;
    type Moves<'a> = C4Moves;

    fn start(&self) -> Board {
        self.start
    }
    fn player(&self, b: &Board) -> Player {
        b.to_move
    }
    fn status(&self, b: &Board) -> Status {
        match (self.has_four(b.pieces[0]), self.has_four(b.pieces[1])) {
            // Only a pop can make both fours at once, and the popper wins.
            (true, true) => Status::Over(Outcome::Winner(b.to_move.other())),
            (true, false) => Status::Over(Outcome::Winner(Player::Maxie)),
            (false, true) => Status::Over(Outcome::Winner(Player::Minnie)),
            (false, false) if self.is_full(b) => Status::Over(Outcome::Draw),
            (false, false) => Status::InPlay,
        }
    }
    fn moves(&self, b: &Board) -> C4Moves {
        // A finished game has no moves. A full board has no drops, so only PopOut needs the
        // full-board test here.
        if self.has_four(b.pieces[0])
            || self.has_four(b.pieces[1])
            || (self.popout && self.is_full(b))
        {
            return C4Moves { drops: 0, pops: 0 };
        }
        let (drops, pops) = self.legal(b);
        C4Moves { drops, pops }
    }
    /// In play, neither player has four and (PopOut) the board is not full: every open
    /// column is a drop and every bottom piece of the mover's a pop.
    #[inline]
    fn moves_in_play(&self, b: &Board) -> C4Moves {
        debug_assert_eq!(self.status(b), Status::InPlay);
        let (drops, pops) = self.legal(b);
        C4Moves { drops, pops }
    }
    fn play(&self, b: &Board, mv: C4Move) -> Board {
        let [mut x, mut o] = b.pieces;
        match mv {
            C4Move::Drop(column) => {
                debug_assert!(self.lowest_free_row(b, column).is_some(), "a legal drop");
                let cell = self.landing_cell(b, column);
                // Named words, not `pieces[index(mover)]`: a write to one half of the array
                // read back whole stalls the store buffer (a fifth of the searches' time).
                match b.to_move {
                    Player::Maxie => x |= cell,
                    Player::Minnie => o |= cell,
                }
            }
            C4Move::Pop(column) => {
                let col = self.column_mask(column);
                // The bottom cell shifts out into the spare bit below, which the mask drops.
                x = (x & !col) | (((x & col) >> 1) & col);
                o = (o & !col) | (((o & col) >> 1) & col);
            }
        }
        Board {
            pieces: [x, o],
            to_move: b.to_move.other(),
        }
    }
    fn estimate(&self, b: &Board) -> Estimate {
        Estimate::Guess(match self.estimator {
            Estimator::Naive => self.naive(b),
            Estimator::Improved => self.improved(b),
        })
    }
    /// Both bitboards in one word when they fit (7×6 needs 49 bits each); a larger board
    /// keys by its label, as the default does.
    fn key(&self, b: &Board) -> StateKey {
        if u32::from(self.columns) * self.stride() <= 64 {
            StateKey::Packed(b.pieces[0] | b.pieces[1] << 64, b.to_move)
        } else {
            let mut label = String::new();
            self.write_label(b, &mut label);
            StateKey::Text(b.to_move, label.into_boxed_str())
        }
    }
    /// Rows top first, runs of empty cells as a count, `/` between rows (like chess's FEN):
    /// `7/7/7/7/3O3/2XXO2`.
    fn write_label(&self, b: &Board, out: &mut String) {
        for y in (0..self.rows).rev() {
            let mut empty = 0u32;
            for x in 0..self.columns {
                match self.at(b, x, y) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(itoa::Buffer::new().format(empty));
                            empty = 0;
                        }
                        out.push(mark(p));
                    }
                }
            }
            if empty > 0 {
                out.push_str(itoa::Buffer::new().format(empty));
            }
            if y > 0 {
                out.push('/');
            }
        }
    }
}

impl Playable for Connect4 {
    fn name(&self) -> &'static str {
        self.variant()
    }
    fn starting_at(&self, state: Self::State) -> Self {
        Connect4 {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, estimator: Estimator) -> Self {
        Connect4 {
            estimator,
            ..self.clone()
        }
    }
    fn read_move(&self, text: &str) -> Result<C4Move, String> {
        let t = text.trim();
        let (pop, digits) = match t.strip_prefix(['p', 'P']) {
            Some(rest) => (true, rest.trim_start()),
            None => (false, t),
        };
        let x: u8 = digits
            .parse()
            .map_err(|_| format!("`{t}` is not a move: write {}", self.move_syntax()))?;
        Ok(if pop { C4Move::Pop(x) } else { C4Move::Drop(x) })
    }
    fn why_illegal(&self, b: &Board, mv: C4Move) -> Option<String> {
        self.illegal(b, mv)
    }
    /// The handout referee's picture: column numbers over the board.
    fn render(&self, b: &Board) -> String {
        let mut s = String::from(" ");
        for x in 0..self.columns {
            s.push_str(&format!("{x:>2}"));
        }
        s.push('\n');
        for row in self.rows_text(b) {
            s.push_str(" |");
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            s.push_str(&cells.join(" "));
            s.push_str("|\n");
        }
        s.push_str(" +");
        s.push_str(&"-".repeat(2 * usize::from(self.columns) - 1));
        s.push_str("+\n");
        s
    }
    fn move_name(&self, mv: C4Move) -> String {
        mv.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        if self.popout {
            "a column number to drop a piece (e.g. 3), or p and a column to pop your own piece out of its bottom (e.g. p3)"
        } else {
            "a column number (e.g. 3)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from rows of `.XO`, top first (the spec loader's checks are not needed here).
    pub(crate) fn board(game: &Connect4, rows: &[&str], to_move: Player) -> Board {
        let mut b = Board {
            pieces: [0, 0],
            to_move,
        };
        let top = rows.len() as u8;
        for (i, row) in rows.iter().enumerate() {
            let y = top - 1 - i as u8;
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    'X' => b.pieces[0] |= game.bit(x as u8, y),
                    'O' => b.pieces[1] |= game.bit(x as u8, y),
                    _ => {}
                }
            }
        }
        b
    }

    fn c4() -> Connect4 {
        Connect4::new(7, 6, false)
    }

    #[test]
    fn fours_in_every_direction_win_and_three_do_not() {
        let g = c4();
        let cases: [(&[&str], bool); 6] = [
            (&["XXXX..."], true),
            (&["...XXXX"], true),
            (&["X......", "X......", "X......", "X......"], true),
            (&["...X...", "..XO...", ".XOO...", "XOOO..."], true),
            (&["X......", "OX.....", "OOX....", "OOOX..."], true),
            (&["XXX.XXX"], false),
        ];
        for (rows, four) in cases {
            let b = board(&g, rows, Player::Minnie);
            let want = if four {
                Status::Over(Outcome::Winner(Player::Maxie))
            } else {
                Status::InPlay
            };
            assert_eq!(g.status(&b), want, "{rows:?}");
        }
    }

    #[test]
    fn lines_do_not_wrap_between_columns() {
        // Column 0's top and column 1's bottom are next to each other in the bits, but not on
        // the board.
        let g = c4();
        let b = board(
            &g,
            &[
                "X......", "X......", "X......", "O......", "O......", "OX.....",
            ],
            Player::Maxie,
        );
        assert_eq!(g.status(&b), Status::InPlay);
    }

    #[test]
    fn drops_land_on_the_lowest_free_row_and_full_columns_are_not_moves() {
        let g = Connect4::new(3, 2, false);
        let b = board(&g, &["X..", "O.X"], Player::Minnie);
        assert_eq!(g.lowest_free_row(&b, 0), None);
        assert_eq!(g.lowest_free_row(&b, 1), Some(0));
        assert_eq!(g.lowest_free_row(&b, 2), Some(1));
        let moves: Vec<String> = g.moves(&b).map(|m| m.to_string()).collect();
        assert_eq!(moves, ["1", "2"]);
        assert_eq!(
            g.parse_move(&b, "0").unwrap_err(),
            "cannot play 0: column 0 is full"
        );
        assert!(g.parse_move(&b, "7").unwrap_err().contains("no column 7"));
    }

    #[test]
    fn a_full_board_with_no_four_is_a_draw() {
        let g = Connect4::new(4, 2, false);
        let b = board(&g, &["OXOX", "XOXO"], Player::Maxie);
        assert_eq!(g.status(&b), Status::Over(Outcome::Draw));
        assert_eq!(g.moves(&b).len(), 0);
    }

    #[test]
    fn the_naive_estimator_counts_runs_of_two_and_three() {
        let g = c4();
        // Maxie: a horizontal three (64). Minnie: nothing (single pieces are not runs).
        let b = board(&g, &["XXX.O.O"], Player::Minnie);
        assert_eq!(g.naive(&b), 64);
        // Maxie XX (16) vertical in column 0; Minnie O O adjacent horizontally (−16) and the
        // diagonal O(1,0)-... none. X(0,0) X(0,1): one run of two.
        let b = board(&g, &["X......", "XOO...."], Player::Maxie);
        assert_eq!(g.naive(&b), 16 - 16);
    }

    /// Runs counted the slow way, cell by cell on the board: for each piece with no own
    /// piece just before it in a direction, walk while the cells are on the board and hold
    /// the same player's pieces.
    fn runs_by_walking(g: &Connect4, pieces: u128, len: u32) -> u32 {
        let (c, r) = (i32::from(g.columns), i32::from(g.rows));
        let has = |x: i32, y: i32| {
            (0..c).contains(&x) && (0..r).contains(&y) && pieces & g.bit(x as u8, y as u8) != 0
        };
        let mut count = 0;
        for (dx, dy) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for x in 0..c {
                for y in 0..r {
                    if !has(x, y) || has(x - dx, y - dy) {
                        continue;
                    }
                    let mut n = 0;
                    while has(x + n * dx, y + n * dy) {
                        n += 1;
                    }
                    count += u32::from(n == len as i32);
                }
            }
        }
        count
    }

    proptest::proptest! {
        #[test]
        fn runs_found_all_at_once_are_the_runs_on_the_board(
            (columns, rows) in proptest::sample::select(vec![(7u8, 6u8), (4, 4), (1, 127), (2, 63), (15, 7), (5, 1)]),
            cells in proptest::collection::vec(0u8..3, 128),
        ) {
            let g = Connect4::new(columns, rows, false);
            let mut pieces = [0u128; 2];
            for x in 0..columns {
                for y in 0..rows {
                    match cells[(usize::from(x) * 7 + usize::from(y)) % 128] {
                        1 => pieces[0] |= g.bit(x, y),
                        2 => pieces[1] |= g.bit(x, y),
                        _ => {}
                    }
                }
            }
            let worth = |p: u128| 16 * i64::from(runs_by_walking(&g, p, 2)) + 64 * i64::from(runs_by_walking(&g, p, 3));
            let b = Board { pieces, to_move: Player::Maxie };
            proptest::prop_assert_eq!(g.naive(&b), worth(pieces[0]) - worth(pieces[1]));
            for p in pieces {
                proptest::prop_assert_eq!(
                    g.runs_of_two_and_three(p),
                    (runs_by_walking(&g, p, 2), runs_by_walking(&g, p, 3))
                );
                let four = (4..=u32::from(columns.max(rows))).any(|l| runs_by_walking(&g, p, l) > 0);
                proptest::prop_assert_eq!(g.has_four(p), four);
            }
        }
    }

    proptest::proptest! {
        /// The masks worked out once (room at the top of a column, the landing cell by carry,
        /// the full board) against the rules written cell by cell, over random games on
        /// boards that fit one word and boards that do not, with and without pops.
        #[test]
        fn masks_agree_with_the_rules_cell_by_cell(
            (columns, rows) in proptest::sample::select(vec![(7u8, 6u8), (4, 2), (1, 127), (2, 63), (15, 7), (5, 1), (3, 15)]),
            popout: bool,
            picks in proptest::collection::vec(0usize..64, 1..200),
        ) {
            let g = Connect4::new(columns, rows, popout);
            let mut b = g.start;
            for pick in picks {
                let full = (0..columns).all(|x| g.lowest_free_row(&b, x).is_none());
                proptest::prop_assert_eq!(g.is_full(&b), full);
                let drops: Vec<C4Move> = (0..columns)
                    .filter(|&x| g.lowest_free_row(&b, x).is_some())
                    .map(C4Move::Drop)
                    .collect();
                let pops: Vec<C4Move> = (0..columns)
                    .filter(|&x| popout && g.at(&b, x, 0) == Some(b.to_move))
                    .map(C4Move::Pop)
                    .collect();
                let by_cells: Vec<C4Move> = drops.iter().chain(&pops).copied().collect();
                if g.status(&b) != Status::InPlay {
                    proptest::prop_assert_eq!(g.moves(&b).len(), 0);
                    break;
                }
                proptest::prop_assert_eq!(g.moves(&b).collect::<Vec<_>>(), by_cells.clone());
                proptest::prop_assert_eq!(g.moves_in_play(&b).collect::<Vec<_>>(), by_cells.clone());
                for &x in &drops {
                    let C4Move::Drop(x) = x else { unreachable!() };
                    let y = g.lowest_free_row(&b, x).unwrap();
                    proptest::prop_assert_eq!(g.landing_cell(&b, x), g.bit(x, y));
                }
                let mv = by_cells[pick % by_cells.len()];
                let next = g.play(&b, mv);
                proptest::prop_assert_eq!(next.to_move, b.to_move.other());
                if let C4Move::Drop(x) = mv {
                    let y = g.lowest_free_row(&b, x).unwrap();
                    proptest::prop_assert_eq!(g.at(&next, x, y), Some(b.to_move));
                    proptest::prop_assert_eq!(next.pieces[0] | next.pieces[1], b.pieces[0] | b.pieces[1] | g.bit(x, y));
                }
                b = next;
            }
        }
    }

    #[test]
    fn a_one_column_board_is_not_won_by_one_piece() {
        // 1×127: the directions are 1, 128, 129 and 127 bits; a shift by 128 once wrapped to
        // 0 and made a single piece four in a row.
        let g = Connect4::new(1, 127, false);
        let one = g.play(&g.start, C4Move::Drop(0));
        assert_eq!(g.status(&one), Status::InPlay);
        assert_eq!(g.naive(&one), 0);
        let mut b = g.start;
        for _ in 0..7 {
            b = g.play(&b, C4Move::Drop(0));
        }
        // X O X O X O X: no runs, no four.
        assert_eq!((g.status(&b), g.naive(&b)), (Status::InPlay, 0));
    }

    #[test]
    fn labels_are_rows_top_first_with_empty_runs_counted() {
        let g = c4();
        // The S12 handout's Figure 1 start: X at (2,0) and (3,0), O at (3,1) and (4,0).
        let b = board(&g, &["...O...", "..XXO.."], Player::Maxie);
        let mut s = String::new();
        g.write_label(&b, &mut s);
        assert_eq!(s, "7/7/7/7/3O3/2XXO2");
    }

    #[test]
    fn the_improved_estimator_counts_open_lines() {
        let g = c4();
        assert_eq!(g.improved(&g.start), 0);
        // One X at (3,0) lies in 7 lines of four (4 across, 1 up, 1 on each diagonal), each
        // worth 1, and in the centre column (3).
        let b = board(&g, &["...X..."], Player::Minnie);
        assert_eq!(g.improved(&b), 7 + 3);
        // X X X with (3,0) free and playable is a threat (120); O on (3,0) kills that line.
        let three = board(&g, &["OO.....", "XXX...."], Player::Minnie);
        let blocked = board(&g, &["OO.....", "XXXO..."], Player::Maxie);
        assert!(g.improved(&three) > g.improved(&blocked) + 100);
    }

    #[test]
    fn a_pop_shifts_the_column_down() {
        let g = Connect4::new(7, 6, true);
        // The handout's PopOut example: Maxie pops column 0 and wins.
        let b = board(&g, &["X......", "OXXX...", "XOXXO.."], Player::Maxie);
        assert_eq!(g.status(&b), Status::InPlay);
        let after = g.play(&b, C4Move::Pop(0));
        assert_eq!(
            g.rows_text(&after)[4..],
            ["XXXX...".to_string(), "OOXXO..".to_string()]
        );
        assert_eq!(
            g.status(&after),
            Status::Over(Outcome::Winner(Player::Maxie))
        );
    }
}

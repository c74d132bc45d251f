//! Subtract Square as Toronto's CSC148 plays it: a state is (current total, next player); a
//! move subtracts a positive perfect square no larger than the total; whoever brings the
//! total to 0 wins, so the player to move at 0 has lost. p1 is Maxie and p2 Minnie. States
//! are written as the course abbreviates them: `p1:6` is a total of 6 with p1 to move.
//!
//! Moves come **largest square first**, as the course's `subtract_square_state.py` lists
//! them (`range(self.current_total, 0, -1)`): traces, `game_descriptions`, `game_lengths` and
//! the first of equally good moves follow that order. A spec whose staff copy lists them the
//! other way says `square_order: smallest_first`.
//!
//! **rough_outcome** (the estimator, from the point of view of the player to move): WIN
//! (1.0) when the total is itself a square (subtract it all), else LOSE (-1.0) when every
//! move leaves the opponent a square, else DRAW (0.0). As an [`Estimate`] it is Maxie's:
//! `Guess(1)` when p1 stands to win, `Guess(-1)` when p2 does.

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SsState {
    pub total: u64,
    pub to_move: Player,
}

/// How much a move subtracts (a positive square).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subtract(pub u64);

impl fmt::Display for Subtract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The largest total a position may have: squares up to it are computed without overflow.
pub const MAX_TOTAL: u64 = 1 << 40;

/// The order a position's moves come in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareOrder {
    /// The course's: the largest square first.
    #[default]
    LargestFirst,
    SmallestFirst,
}

impl SquareOrder {
    pub const ALL: [SquareOrder; 2] = [SquareOrder::LargestFirst, SquareOrder::SmallestFirst];
    /// As specs write it.
    pub fn name(self) -> &'static str {
        match self {
            SquareOrder::LargestFirst => "largest_first",
            SquareOrder::SmallestFirst => "smallest_first",
        }
    }
    pub fn parse(s: &str) -> Option<SquareOrder> {
        SquareOrder::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// Subtract Square from a starting position.
#[derive(Clone, Debug)]
pub struct SubtractSquare {
    pub start: SsState,
    pub order: SquareOrder,
}

impl SubtractSquare {
    /// The course's game (largest square first) from `total` with `to_move` to move.
    pub fn new(total: u64, to_move: Player) -> SubtractSquare {
        SubtractSquare {
            start: SsState { total, to_move },
            order: SquareOrder::default(),
        }
    }

    /// This game with its moves in `order`.
    pub fn with_order(self, order: SquareOrder) -> SubtractSquare {
        SubtractSquare { order, ..self }
    }
}

/// Is `n` a perfect square (0 counts)?
pub fn is_square(n: u64) -> bool {
    let r = isqrt(n);
    r * r == n
}

/// The integer square root.
pub fn isqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// The squares 1, 4, 9, ... up to a total, in a [`SquareOrder`]: the roots `next..=last`,
/// from `last` down when `down`.
pub struct Squares {
    next: u64,
    last: u64,
    down: bool,
}

impl Iterator for Squares {
    type Item = Subtract;
    fn next(&mut self) -> Option<Subtract> {
        (self.next <= self.last).then(|| {
            let r = if self.down {
                self.last -= 1;
                self.last + 1
            } else {
                self.next += 1;
                self.next - 1
            };
            Subtract(r * r)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.last + 1).saturating_sub(self.next) as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Squares {}

impl Game for SubtractSquare {
    type State = SsState;
    type Move = Subtract;
    type Moves<'a> = Squares;

    fn start(&self) -> SsState {
        self.start
    }
    fn player(&self, s: &SsState) -> Player {
        s.to_move
    }
    fn status(&self, s: &SsState) -> Status {
        // The player who brought the total to 0 has won, and the other is left to move.
        if s.total == 0 {
            Status::Over(Outcome::Winner(s.to_move.other()))
        } else {
            Status::InPlay
        }
    }
    fn moves(&self, s: &SsState) -> Squares {
        Squares {
            next: 1,
            last: isqrt(s.total),
            down: self.order == SquareOrder::LargestFirst,
        }
    }
    fn play(&self, s: &SsState, Subtract(n): Subtract) -> SsState {
        SsState {
            total: s.total - n,
            to_move: s.to_move.other(),
        }
    }
    fn estimate(&self, s: &SsState) -> Estimate {
        let mine = rough_outcome(s.total);
        Estimate::Guess(match s.to_move {
            Player::Maxie => mine,
            Player::Minnie => -mine,
        })
    }
    /// `p1:6`
    fn write_label(&self, s: &SsState, out: &mut String) {
        out.push_str(s.to_move.course_name());
        out.push(':');
        out.push_str(itoa::Buffer::new().format(s.total));
    }
    fn player_name(&self, p: Player) -> &'static str {
        p.course_name()
    }
    fn key(&self, s: &SsState) -> StateKey {
        StateKey::Packed(u128::from(s.total), s.to_move)
    }
}

/// The course's rough outcome of a total for the player to move: 1 (WIN), -1 (LOSE) or 0.
pub fn rough_outcome(total: u64) -> i64 {
    if total > 0 && is_square(total) {
        1
    } else if (1..=isqrt(total)).all(|r| is_square(total - r * r)) {
        -1
    } else {
        0
    }
}

impl Playable for SubtractSquare {
    fn name(&self) -> &'static str {
        "subtract_square"
    }
    fn starting_at(&self, state: SsState) -> Self {
        SubtractSquare {
            start: state,
            order: self.order,
        }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    fn read_move(&self, text: &str) -> Result<Subtract, String> {
        let t = text.trim();
        t.parse().map(Subtract).map_err(|_| {
            format!("`{t}` is not a move: a move is the square to subtract, like 1, 4 or 9")
        })
    }
    fn why_illegal(&self, s: &SsState, Subtract(n): Subtract) -> Option<String> {
        if s.total == 0 {
            return Some("the game is over: the total is 0".to_owned());
        }
        if n == 0 || !is_square(n) {
            return Some(format!("{n} is not a positive perfect square"));
        }
        (n > s.total).then(|| format!("{n} is more than the total, {}", s.total))
    }
    fn render(&self, s: &SsState) -> String {
        format!(
            "total {}, {} ({}) to move\n",
            s.total,
            s.to_move.course_name(),
            s.to_move
        )
    }
    fn move_name(&self, m: Subtract) -> String {
        m.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "the square to subtract: 1, 4, 9, ... up to the total"
    }
    /// `{"game": "subtract_square", "next_player": "p1", "current_total": 6}`
    fn position_json(&self, s: &SsState) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "game": "subtract_square",
            "next_player": s.to_move.course_name(),
            "current_total": s.total,
            "square_order": self.order.name(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_the_squares_up_to_the_total() {
        let g = SubtractSquare::new(10, Player::Maxie);
        let m: Vec<u64> = g.moves(&g.start()).map(|s| s.0).collect();
        assert_eq!(m, [9, 4, 1], "the course's order");
        assert_eq!(g.moves(&g.start()).len(), 3);
        let g = g.with_order(SquareOrder::SmallestFirst);
        let m: Vec<u64> = g.moves(&g.start()).map(|s| s.0).collect();
        assert_eq!(m, [1, 4, 9]);
        assert_eq!(
            g.moves(&SsState {
                total: 3,
                to_move: Player::Minnie
            })
            .len(),
            1
        );
        assert!(g
            .parse_move(&g.start(), "3")
            .unwrap_err()
            .contains("not a positive perfect square"));
        assert!(g
            .parse_move(&g.start(), "16")
            .unwrap_err()
            .contains("more than the total"));
    }

    #[test]
    fn bringing_the_total_to_zero_wins() {
        let g = SubtractSquare::new(4, Player::Minnie);
        let s = g.play(&g.start(), Subtract(4));
        assert_eq!(
            s,
            SsState {
                total: 0,
                to_move: Player::Maxie
            }
        );
        assert_eq!(g.status(&s), Status::Over(Outcome::Winner(Player::Minnie)));
        let mut label = String::new();
        g.write_label(&s, &mut label);
        assert_eq!(label, "p1:0");
    }

    #[test]
    fn rough_outcome_as_documented() {
        assert_eq!(rough_outcome(9), 1); // subtract it all
        assert_eq!(rough_outcome(2), -1); // 1 leaves 1, a square
        assert_eq!(rough_outcome(5), -1); // 1 leaves 4, 4 leaves 1
        assert_eq!(rough_outcome(6), 0); // 1 leaves 5
        assert_eq!(rough_outcome(0), -1); // no move: lost
        let g = SubtractSquare::new(9, Player::Minnie);
        assert_eq!(g.estimate(&g.start()), Estimate::Guess(-1));
    }

    #[test]
    fn square_roots_are_exact() {
        for n in 0..2000u64 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
        assert_eq!(isqrt(MAX_TOTAL), 1 << 20);
    }
}

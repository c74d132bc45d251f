//! Nim as the 15-150 lecture slides play it: a state is (sticks, player to move), a move
//! takes 1 to min(3, sticks), and whoever takes the last stick loses.

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, Status};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimState {
    pub sticks: u64,
    pub to_move: Player,
}

/// How many sticks a move takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take(pub u64);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Nim from a starting position. Its one estimator is the slides' perfect one.
#[derive(Clone, Debug)]
pub struct Nim {
    pub start: NimState,
}

impl Nim {
    pub fn new(sticks: u64, to_move: Player) -> Nim {
        Nim {
            start: NimState { sticks, to_move },
        }
    }
}

pub struct Takes {
    next: u64,
    last: u64,
}

impl Iterator for Takes {
    type Item = Take;
    fn next(&mut self) -> Option<Take> {
        (self.next <= self.last).then(|| {
            self.next += 1;
            Take(self.next - 1)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.last + 1).saturating_sub(self.next) as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Takes {}

impl Game for Nim {
    type State = NimState;
    type Move = Take;
    type Moves<'a> = Takes;

    fn start(&self) -> NimState {
        self.start
    }
    fn player(&self, s: &NimState) -> Player {
        s.to_move
    }
    fn status(&self, s: &NimState) -> Status {
        // The player who took the last stick lost, so the one left to move has won.
        if s.sticks == 0 {
            Status::Over(Outcome::Winner(s.to_move))
        } else {
            Status::InPlay
        }
    }
    fn moves(&self, s: &NimState) -> Takes {
        Takes {
            next: 1,
            last: s.sticks.min(3),
        }
    }
    fn play(&self, s: &NimState, Take(n): Take) -> NimState {
        NimState {
            sticks: s.sticks - n,
            to_move: s.to_move.other(),
        }
    }
    /// The slides' perfect estimator: whoever must move at sticks mod 4 = 1 loses.
    fn estimate(&self, s: &NimState) -> Estimate {
        let loser = if s.sticks % 4 == 1 {
            s.to_move
        } else {
            s.to_move.other()
        };
        Estimate::Guess(match loser {
            Player::Maxie => -1,
            Player::Minnie => 1,
        })
    }
    fn write_label(&self, s: &NimState, out: &mut String) {
        out.push_str(itoa::Buffer::new().format(s.sticks));
    }
    fn key(&self, s: &NimState) -> super::StateKey {
        super::StateKey::Packed(u128::from(s.sticks), s.to_move)
    }
}

impl Playable for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }
    fn starting_at(&self, state: Self::State) -> Self {
        Nim { start: state }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    fn read_move(&self, text: &str) -> Result<Take, String> {
        let t = text.trim();
        t.parse().map(Take).map_err(|_| {
            format!("`{t}` is not a move: a move is how many sticks to take, 1, 2 or 3")
        })
    }
    fn why_illegal(&self, s: &NimState, Take(n): Take) -> Option<String> {
        if let Status::Over(_) = self.status(s) {
            return Some("the game is over: no sticks are left".to_owned());
        }
        let most = s.sticks.min(3);
        (n == 0 || n > most).then(|| {
            format!(
                "with {} stick{} left a move takes 1 to {most}",
                s.sticks,
                if s.sticks == 1 { "" } else { "s" }
            )
        })
    }
    fn render(&self, s: &NimState) -> String {
        let shown = s.sticks.min(60) as usize;
        let more = if s.sticks > 60 { " ..." } else { "" };
        let noun = if s.sticks == 1 { "stick" } else { "sticks" };
        format!("{}{more}  ({} {noun})\n", "|".repeat(shown), s.sticks)
    }
    fn move_name(&self, m: Take) -> String {
        m.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "how many sticks to take: 1, 2 or 3"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stick_is_one_stick() {
        let nim = Nim::new(1, Player::Maxie);
        assert_eq!(nim.render(&nim.start()), "|  (1 stick)\n");
        let nim = Nim::new(2, Player::Maxie);
        assert_eq!(nim.render(&nim.start()), "||  (2 sticks)\n");
    }

    #[test]
    fn taking_the_last_stick_loses() {
        let nim = Nim::new(1, Player::Maxie);
        let s = nim.play(&nim.start(), Take(1));
        assert_eq!(s.sticks, 0);
        assert_eq!(
            nim.status(&s),
            Status::Over(Outcome::Winner(Player::Minnie))
        );
    }

    #[test]
    fn moves_take_one_to_three_but_never_more_than_are_left() {
        let nim = Nim::new(2, Player::Maxie);
        let m: Vec<u64> = nim.moves(&nim.start()).map(|t| t.0).collect();
        assert_eq!(m, [1, 2]);
        assert_eq!(
            nim.moves(&NimState {
                sticks: 9,
                to_move: Player::Minnie
            })
            .len(),
            3
        );
        assert!(nim
            .parse_move(&nim.start(), "3")
            .unwrap_err()
            .contains("1 to 2"));
        assert!(nim.parse_move(&nim.start(), "two").is_err());
    }

    #[test]
    fn the_perfect_estimator_agrees_with_exhaustive_search() {
        // Solve each position to the end and compare with the slides' rule.
        for sticks in 1..=13 {
            for to_move in [Player::Maxie, Player::Minnie] {
                let nim = Nim::new(sticks, to_move);
                let solved = crate::search::minimax_value(&nim, &nim.start(), 64);
                let guess = nim.estimate(&nim.start());
                let winner_is_maxie = solved == Estimate::MaxieWins;
                assert_eq!(
                    winner_is_maxie,
                    guess == Estimate::Guess(1),
                    "{sticks} {to_move}"
                );
            }
        }
    }
}

//! Pig, the dice game, as OpenSpiel defines it (`pig`: two players, a die of `dice` faces, a
//! target score, a horizon of moves): on their turn a player rolls or stops. Rolling is a
//! chance node with each face equally likely: a 1 loses the turn total and passes the turn;
//! any other face adds to the turn total. Stopping banks the turn total and passes the turn.
//! The first to reach the target wins (+1 for the winner, -1 for the loser); a player whose
//! score and turn total reach it can only stop. After `horizon` decisions without a winner
//! the game is a draw (0).
//!
//! **Moves**: `roll` and `stop` for players; the die's faces `1` to `6` (OpenSpiel's
//! `Roll 1` ...) at a chance node. Listed roll, stop; faces from 1.
//!
//! **Positions**: `{scores: [p1, p2], turn_total: 4, decisions: 0}` with `to_move: p1` (p1
//! is Maxie); `decisions` counts the rolls and stops so far, for the horizon.
//!
//! **Estimate** at a depth cutoff: 0, an undecided game, so a depth-limited expectiminimax
//! values a position by the chance of winning within its depth minus that of losing.

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, Probability, StateKey, Status};
use std::fmt;

/// The largest target score and die (so that states pack into a key).
pub const MAX_TARGET: u32 = 1000;
pub const MAX_DICE: u8 = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    /// p1's (Maxie's) and p2's banked scores.
    pub scores: [u32; 2],
    pub turn_total: u32,
    pub to_move: Player,
    /// The die is in the air: a chance node.
    pub rolling: bool,
    /// Decisions made so far (rolls and stops), for the horizon.
    pub decisions: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PigMove {
    Roll,
    Stop,
    /// A face of the die, from 1.
    Face(u8),
}

impl fmt::Display for PigMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PigMove::Roll => f.write_str("roll"),
            PigMove::Stop => f.write_str("stop"),
            PigMove::Face(n) => write!(f, "{n}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pig {
    pub target: u32,
    pub dice: u8,
    pub horizon: u32,
    pub start: PigState,
}

fn side(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

impl Pig {
    /// A game to `target` with a `dice`-faced die, drawn after `horizon` decisions; p1 starts.
    pub fn new(target: u32, dice: u8, horizon: u32) -> Pig {
        Pig {
            target,
            dice,
            horizon,
            start: PigState {
                scores: [0, 0],
                turn_total: 0,
                to_move: Player::Maxie,
                rolling: false,
                decisions: 0,
            },
        }
    }
}

/// The moves of a state, in move order.
pub struct PigMoves {
    next: u8,
    end: u8,
    faces: bool,
}

impl Iterator for PigMoves {
    type Item = PigMove;
    fn next(&mut self) -> Option<PigMove> {
        (self.next < self.end).then(|| {
            let i = self.next;
            self.next += 1;
            match (self.faces, i) {
                (true, n) => PigMove::Face(n + 1),
                (false, 0) => PigMove::Roll,
                (false, _) => PigMove::Stop,
            }
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.end - self.next);
        (n, Some(n))
    }
}
impl ExactSizeIterator for PigMoves {}

impl Game for Pig {
    type State = PigState;
    type Move = PigMove;
    type Moves<'a> = PigMoves;

    fn start(&self) -> PigState {
        self.start
    }
    fn player(&self, s: &PigState) -> Player {
        s.to_move
    }
    fn status(&self, s: &PigState) -> Status {
        if s.scores[0] >= self.target {
            Status::Over(Outcome::Winner(Player::Maxie))
        } else if s.scores[1] >= self.target {
            Status::Over(Outcome::Winner(Player::Minnie))
        } else if s.decisions >= self.horizon && !s.rolling {
            Status::Over(Outcome::Draw)
        } else {
            Status::InPlay
        }
    }
    fn moves(&self, s: &PigState) -> PigMoves {
        let none = PigMoves {
            next: 0,
            end: 0,
            faces: false,
        };
        if let Status::Over(_) = self.status(s) {
            return none;
        }
        if s.rolling {
            return PigMoves {
                next: 0,
                end: self.dice,
                faces: true,
            };
        }
        // With the target in reach, only stopping is allowed (OpenSpiel's rule).
        let banked = s.scores[side(s.to_move)] + s.turn_total;
        PigMoves {
            next: if banked >= self.target { 1 } else { 0 },
            end: 2,
            faces: false,
        }
    }
    fn play(&self, s: &PigState, mv: PigMove) -> PigState {
        let mut n = *s;
        match mv {
            PigMove::Roll => {
                n.rolling = true;
                n.decisions += 1;
            }
            PigMove::Stop => {
                n.scores[side(s.to_move)] += s.turn_total;
                n.turn_total = 0;
                n.to_move = s.to_move.other();
                n.decisions += 1;
            }
            PigMove::Face(1) => {
                n.rolling = false;
                n.turn_total = 0;
                n.to_move = s.to_move.other();
            }
            PigMove::Face(f) => {
                n.rolling = false;
                n.turn_total += u32::from(f);
            }
        }
        n
    }
    fn estimate(&self, _: &PigState) -> Estimate {
        Estimate::Guess(0)
    }
    fn utility(&self, _: &PigState, outcome: Outcome) -> Estimate {
        Estimate::Guess(match outcome {
            Outcome::Winner(Player::Maxie) => 1,
            Outcome::Winner(Player::Minnie) => -1,
            Outcome::Draw => 0,
        })
    }
    fn chances(&self, s: &PigState) -> Option<Vec<Probability>> {
        (s.rolling && matches!(self.status(s), Status::InPlay)).then(|| {
            let p = Probability::new(1.into(), u32::from(self.dice).into());
            vec![p; usize::from(self.dice)]
        })
    }
    /// `3-5 turn 4 p1` (scores p1-p2, the turn total, who is on turn), `rolling` while the
    /// die is in the air.
    fn write_label(&self, s: &PigState, out: &mut String) {
        use std::fmt::Write as _;
        let _ = write!(
            out,
            "{}-{} turn {} {}",
            s.scores[0],
            s.scores[1],
            s.turn_total,
            s.to_move.course_name()
        );
        if s.rolling {
            out.push_str(" rolling");
        }
    }
    fn player_name(&self, p: Player) -> &'static str {
        p.course_name()
    }
    fn key(&self, s: &PigState) -> StateKey {
        let packed = u128::from(s.scores[0])
            | u128::from(s.scores[1]) << 32
            | u128::from(s.turn_total) << 64
            | u128::from(s.decisions) << 96
            | u128::from(s.rolling) << 127;
        StateKey::Packed(packed, s.to_move)
    }
}

impl Playable for Pig {
    fn name(&self) -> &'static str {
        "pig"
    }
    fn starting_at(&self, state: PigState) -> Self {
        Pig {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    fn read_move(&self, text: &str) -> Result<PigMove, String> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "roll" | "r" => Ok(PigMove::Roll),
            "stop" | "s" | "hold" | "h" => Ok(PigMove::Stop),
            _ => match t.parse::<u8>() {
                Ok(n) if (1..=self.dice).contains(&n) => Ok(PigMove::Face(n)),
                _ => Err(format!(
                    "`{}` is not a move: write roll or stop (or a face 1 to {} for the die)",
                    text.trim(),
                    self.dice
                )),
            },
        }
    }
    fn why_illegal(&self, s: &PigState, mv: PigMove) -> Option<String> {
        if let Status::Over(_) = self.status(s) {
            return Some("the game is over".to_owned());
        }
        if self.moves(s).any(|m| m == mv) {
            return None;
        }
        Some(match (s.rolling, mv) {
            (true, _) => "the die is rolling: the next move is its face".to_owned(),
            (false, PigMove::Face(_)) => "the die is not rolling".to_owned(),
            _ => "the target is in reach: the player can only stop".to_owned(),
        })
    }
    fn render(&self, s: &PigState) -> String {
        format!(
            "Scores: p1 {}, p2 {} (target {}). Turn total {}, {} on turn{}.\n",
            s.scores[0],
            s.scores[1],
            self.target,
            s.turn_total,
            s.to_move.course_name(),
            if s.rolling { ", rolling" } else { "" }
        )
    }
    fn move_name(&self, mv: PigMove) -> String {
        mv.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "roll or stop (the die's face, 1 to 6, when it is rolling)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_loses_the_turn_total_and_stopping_banks_it() {
        let g = Pig::new(10, 6, 1000);
        let s = g.start();
        let names = |s: &PigState| g.moves(s).map(|m| m.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&s), ["roll", "stop"]);
        let rolling = g.play(&s, PigMove::Roll);
        assert_eq!(names(&rolling), ["1", "2", "3", "4", "5", "6"]);
        assert_eq!(g.chances(&rolling).unwrap().len(), 6);
        let five = g.play(&rolling, PigMove::Face(5));
        assert_eq!((five.turn_total, five.to_move), (5, Player::Maxie));
        let lost = g.play(&g.play(&five, PigMove::Roll), PigMove::Face(1));
        assert_eq!(
            (lost.turn_total, lost.to_move, lost.scores),
            (0, Player::Minnie, [0, 0])
        );
        let banked = g.play(&five, PigMove::Stop);
        assert_eq!((banked.scores, banked.to_move), ([5, 0], Player::Minnie));
        let mut label = String::new();
        g.write_label(&g.play(&five, PigMove::Roll), &mut label);
        assert_eq!(label, "0-0 turn 5 p1 rolling");
    }

    #[test]
    fn reaching_the_target_allows_only_stopping_and_then_wins() {
        let g = Pig::new(10, 6, 1000);
        let s = PigState {
            scores: [6, 0],
            turn_total: 4,
            ..g.start()
        };
        assert_eq!(
            g.moves(&s).map(|m| m.to_string()).collect::<Vec<_>>(),
            ["stop"]
        );
        let won = g.play(&s, PigMove::Stop);
        assert_eq!(g.status(&won), Status::Over(Outcome::Winner(Player::Maxie)));
        assert_eq!(
            g.utility(&won, Outcome::Winner(Player::Maxie)),
            Estimate::Guess(1)
        );
        assert!(g.parse_move(&s, "roll").unwrap_err().contains("only stop"));
    }

    #[test]
    fn the_horizon_ends_the_game_in_a_draw() {
        let g = Pig::new(10, 6, 2);
        let s = g.play(&g.play(&g.start(), PigMove::Stop), PigMove::Stop);
        assert_eq!(g.status(&s), Status::Over(Outcome::Draw));
    }
}

//! Expectimax (CS188) and expectiminimax (AIMA) over chance nodes, with exact values.
//!
//! At a chance node ([`Game::chances`]) the value is the probability-weighted sum of the
//! children's values. At a player's node, expectiminimax takes Maxie's maximum and Minnie's
//! minimum; expectimax (CS188's model of a random opponent) takes Maxie's maximum and
//! averages Minnie's moves uniformly. The first best move in move order is chosen. Values are
//! [`Probability`] fractions, never rounded; printers round them only if a case asks.
//!
//! Depth counts every level, chance levels included.

use super::{Event, Sink, Summary};
use crate::game::{Estimate, Game, Player, Probability, Status};
use crate::search::Algorithm;
use num_traits::{One, Zero};

/// A node's answer (the search's, not a verdict on a case): what its value is made of, for
/// the printers.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<M> {
    /// A player's best (Maxie) or worst (Minnie) move and its value.
    Chose {
        value: Probability,
        best: (usize, M),
    },
    /// An average over the children: a chance node's, or Minnie's under expectimax.
    Averaged { value: Probability, uniform: bool },
    /// An estimate or a finished game's utility.
    Leaf { value: Probability },
}

impl<M> Answer<M> {
    pub fn value(&self) -> &Probability {
        match self {
            Answer::Chose { value, .. }
            | Answer::Averaged { value, .. }
            | Answer::Leaf { value } => value,
        }
    }
}

/// The events of an expectimax search: bounds are not used (`None`), values are exact.
pub type ExpectEvent<G> =
    Event<<G as Game>::State, <G as Game>::Move, Option<Probability>, Answer<<G as Game>::Move>>;

/// An estimate as an exact number. Expectimax is for games whose finished positions have
/// numeric utilities (trees, tic-tac-toe, Pig); a bare win or loss counts as ±1.
pub fn exact(e: Estimate) -> Probability {
    match e {
        Estimate::Guess(n) => Probability::from_integer(n.into()),
        Estimate::Draw => Probability::zero(),
        Estimate::MaxieWins => Probability::one(),
        Estimate::MinnieWins => -Probability::one(),
    }
}

/// Searches `game` from its start to `depth`, reporting to `sink`. The summary's value is the
/// root's rounded towards negative infinity (its exact value is in the `Done` event).
pub fn search<G, K>(game: &G, depth: u32, algorithm: Algorithm, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<ExpectEvent<G>>,
{
    let root = game.start();
    let mut s = Searcher {
        game,
        minimises: algorithm == Algorithm::Expectiminimax,
        terminals: 0,
    };
    let answer = s.node(&root, depth, sink);
    let best = match &answer {
        Answer::Chose { best, .. } => Some(*best),
        _ => None,
    };
    let value = answer.value().clone();
    sink.event(Event::Done {
        state: root.clone(),
        player: game.player(&root),
        value: Some(value.clone()),
        best,
        terminals: s.terminals,
        table_hits: 0,
        ties: Vec::new(),
    });
    Summary {
        value: value
            .floor()
            .to_integer()
            .try_into()
            .ok()
            .map(Estimate::Guess),
        best_index: best.map(|(i, _)| i),
        terminals: s.terminals,
        table_hits: 0,
        raised: false,
    }
}

/// The root's exact value, and each root move's (in move order), searched `depth` deep.
pub fn root_values<G: Game>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
) -> (Probability, Vec<Probability>) {
    let mut s = Searcher {
        game,
        minimises: algorithm == Algorithm::Expectiminimax,
        terminals: 0,
    };
    let root = game.start();
    let quiet = &mut super::NullSink;
    let value = s.node(&root, depth, quiet).value().clone();
    let children = if depth == 0 || game.chances(&root).is_some() {
        Vec::new()
    } else {
        game.moves(&root)
            .map(|m| {
                s.node(&game.play(&root, m), depth - 1, quiet)
                    .value()
                    .clone()
            })
            .collect()
    };
    (value, children)
}

struct Searcher<'g, G> {
    game: &'g G,
    minimises: bool,
    terminals: u64,
}

impl<G: Game> Searcher<'_, G> {
    /// Recursion is bounded by the depth (at most the tree's height or `MAX_DEPTH`).
    fn node<K: Sink<ExpectEvent<G>>>(
        &mut self,
        state: &G::State,
        depth: u32,
        sink: &mut K,
    ) -> Answer<G::Move> {
        let game = self.game;
        let player = game.player(state);
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth,
            bounds: (None, None),
        });
        let stop = match game.status(state) {
            Status::Over(o) => Some(game.utility(state, o)),
            Status::InPlay if depth == 0 || game.moves(state).len() == 0 => {
                Some(game.estimate(state))
            }
            Status::InPlay => None,
        };
        let answer = if let Some(estimate) = stop {
            self.terminals += 1;
            sink.event(Event::Estimate {
                state: state.clone(),
                estimate,
            });
            Answer::Leaf {
                value: exact(estimate),
            }
        } else if let Some(ps) = game.chances(state) {
            let mut sum = Probability::zero();
            for (m, p) in game.moves(state).zip(ps) {
                let v = self.node(&game.play(state, m), depth - 1, sink);
                sum += p * v.value();
            }
            Answer::Averaged {
                value: sum,
                uniform: false,
            }
        } else if player == Player::Minnie && !self.minimises {
            let n = game.moves(state).len();
            let mut sum = Probability::zero();
            for m in game.moves(state) {
                sum += self.node(&game.play(state, m), depth - 1, sink).value();
            }
            Answer::Averaged {
                value: sum / Probability::from_integer(n.into()),
                uniform: true,
            }
        } else {
            let mut best: Option<(Probability, (usize, G::Move))> = None;
            for (i, m) in game.moves(state).enumerate() {
                let v = self
                    .node(&game.play(state, m), depth - 1, sink)
                    .value()
                    .clone();
                let better = match &best {
                    None => true,
                    Some((b, _)) => match player {
                        Player::Maxie => v > *b,
                        Player::Minnie => v < *b,
                    },
                };
                if better {
                    best = Some((v, (i, m)));
                }
            }
            match best {
                Some((value, best)) => Answer::Chose { value, best },
                None => Answer::Leaf {
                    value: Probability::zero(),
                },
            }
        };
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: answer.clone(),
        });
        answer
    }
}

/// A value as the expectimax dialect prints it: a fraction in lowest terms (`19/3`, `-2`), or
/// with `decimals` places, rounded half away from zero (`6.33`).
pub fn write_value(out: &mut String, v: &Probability, decimals: Option<u8>) {
    use std::fmt::Write as _;
    match decimals {
        None => {
            let _ = write!(out, "{v}");
        }
        Some(places) => {
            let scale =
                Probability::from_integer(num_bigint::BigInt::from(10u32).pow(places.into()));
            let scaled = (v * &scale).round().to_integer();
            let negative = scaled < num_bigint::BigInt::zero();
            let digits = scaled.magnitude().to_string();
            let places = usize::from(places);
            let padded = format!("{digits:0>width$}", width = places + 1);
            let (whole, frac) = padded.split_at(padded.len() - places);
            if negative {
                out.push('-');
            }
            out.push_str(whole);
            if places > 0 {
                out.push('.');
                out.push_str(frac);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frac(a: i64, b: i64) -> Probability {
        Probability::new(a.into(), b.into())
    }

    #[test]
    fn values_print_as_fractions_or_rounded_decimals() {
        let s = |v: Probability, d| {
            let mut out = String::new();
            write_value(&mut out, &v, d);
            out
        };
        assert_eq!(s(frac(19, 3), None), "19/3");
        assert_eq!(s(frac(-4, 2), None), "-2");
        assert_eq!(s(frac(19, 3), Some(2)), "6.33");
        assert_eq!(s(frac(-1, 8), Some(2)), "-0.13");
        assert_eq!(s(frac(1, 200), Some(2)), "0.01");
        assert_eq!(s(frac(7, 1), Some(1)), "7.0");
        assert_eq!(s(frac(2, 3), Some(0)), "1");
    }
}

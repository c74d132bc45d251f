//! Toronto CSC148's game strategies (`dialect: csc148`): scores for the player to move, the
//! minimax, memoized, pruning and myopic strategies (`search::csc148`), the course's teaching
//! trace, and the starter's class names.

use super::{Course, Drawn, Events, Settings};
use crate::draw::overlay::{Bound, Outcome};
use crate::game::{Estimate, Game};
use crate::search::csc148::{self, Score, Strategy};
use crate::search::{Algorithm, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::{self, SearchFacts};
use crate::trace::{Csc148Printer, Dialect};
use std::io::Write;
use std::time::Duration;

/// CSC148's rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Csc148;

/// A mover's score as a drawing shows it: -1, 0 or 1.
fn drawn(s: Score) -> Estimate {
    Estimate::Guess(s.as_f64() as i64)
}

impl Course for Csc148 {
    type Value<M: Copy + Send> = Score;
    type Answer<M: Copy + Send> = csc148::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = Csc148Printer<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        let strategy = Strategy::of(how.algorithm, how.depth);
        csc148::search_variant(game, strategy, how.flaws, sink)
    }

    fn drawn_value<M: Copy + Send>(self, s: Score, _: &Settings) -> Bound {
        Bound::Value(drawn(s))
    }

    fn drawn_answer<M: Copy + Send>(self, r: csc148::Answer<M>, _: &Settings) -> Drawn<M> {
        match r {
            csc148::Answer::Searched {
                score,
                best,
                pruned,
            } => (
                Outcome::Value {
                    value: drawn(score),
                    cut: pruned.is_some(),
                },
                Some(best),
            ),
            csc148::Answer::Recalled { score } => (
                Outcome::Value {
                    value: drawn(score),
                    cut: false,
                },
                None,
            ),
        }
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::csc148_facts(game, case, limit)
    }

    /// `prune` and `myopic` are alpha-beta and minimax to a depth under CSC148's rules.
    fn algorithm_name(self, how: &Settings) -> &'static str {
        match how.algorithm {
            Algorithm::AlphaBeta => "prune",
            Algorithm::Minimax if how.depth != csc148::TO_THE_END => "myopic",
            a => a.name(),
        }
    }

    /// The strategy's class (`StrategyMinimaxMemoize`); a game-state tree is no strategy.
    fn class_name(self, how: &Settings) -> Option<&'static str> {
        match how.algorithm {
            Algorithm::GameStateTree => None,
            a => Some(Strategy::of(a, how.depth).class_name()),
        }
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::Csc148]
    }
}

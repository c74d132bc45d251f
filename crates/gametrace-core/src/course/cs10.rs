//! Dartmouth CS10's Kalah players (`dialect: cs10`): negamax and negamax with (low, high)
//! windows over integers (`search::cs10`), the course's hand method as a trace, and its
//! player classes.

use super::{Course, Drawn, Events, Settings};
use crate::draw::overlay::{Bound, Outcome};
use crate::game::{Estimate, Game};
use crate::search::{cs10, Algorithm, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::{self, SearchFacts};
use crate::trace::{Cs10Printer, Dialect};
use std::io::Write;
use std::time::Duration;

/// CS10's rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cs10;

impl Course for Cs10 {
    type Value<M: Copy + Send> = i64;
    type Answer<M: Copy + Send> = cs10::Answer;
    type Printer<'g, G: Game + 'g, W: Write> = Cs10Printer<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        cs10::search_variant(game, how.depth, how.algorithm, how.cs10, how.flaws, sink).0
    }

    /// `-Integer.MAX_VALUE` and its like kept within what a drawing writes.
    fn drawn_value<M: Copy + Send>(self, v: i64, _: &Settings) -> Bound {
        Bound::Value(Estimate::Guess(v.clamp(-(1 << 62), 1 << 62)))
    }

    /// A child's result comes from its parent, with the child's own value.
    fn drawn_answer<M: Copy + Send>(self, r: cs10::Answer, _: &Settings) -> Drawn<M> {
        let value = Estimate::Guess(r.value);
        (Outcome::Value { value, cut: false }, None)
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::cs10_facts(game, case, limit)
    }

    fn algorithm_name(self, how: &Settings) -> &'static str {
        match how.algorithm {
            Algorithm::AlphaBeta => "negamax_ab",
            _ => "negamax",
        }
    }

    fn class_name(self, how: &Settings) -> Option<&'static str> {
        Some(match how.algorithm {
            Algorithm::AlphaBeta => "ComputerKalahPlayerAB",
            _ => "ComputerKalahPlayerGTS",
        })
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::Cs10]
    }
}

//! The textbooks' expectimax and expectiminimax over chance nodes (`dialect: expectimax`):
//! exact expected values (`search::expectimax`), printed as fractions or decimals. The
//! catalogue has no mistakes for it: the searcher takes no flaws.

use super::{Course, Drawn, Events, Settings};
use crate::draw::overlay::{Bound, Outcome};
use crate::game::{Estimate, Game, Probability};
use crate::search::{expectimax, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::{self, SearchFacts};
use crate::trace::{Dialect, ExpectimaxPrinter};
use num_traits::Signed;
use std::io::Write;
use std::time::Duration;

/// The expectimax rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expectimax;

/// Drawings show whole numbers: an expected value is rounded to the nearest.
fn whole(v: &Probability) -> Estimate {
    Estimate::Guess(
        i64::try_from(v.round().to_integer()).unwrap_or(if v.is_positive() {
            i64::MAX
        } else {
            i64::MIN
        }),
    )
}

impl Course for Expectimax {
    type Value<M: Copy + Send> = Option<Probability>;
    type Answer<M: Copy + Send> = expectimax::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = ExpectimaxPrinter<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        expectimax::search(game, how.depth, how.algorithm, sink)
    }

    fn drawn_value<M: Copy + Send>(self, v: Option<Probability>, _: &Settings) -> Bound {
        match v {
            Some(v) => Bound::Value(whole(&v)),
            None => Bound::Value(Estimate::Guess(0)),
        }
    }

    fn drawn_answer<M: Copy + Send>(self, r: expectimax::Answer<M>, _: &Settings) -> Drawn<M> {
        let best = match &r {
            expectimax::Answer::Chose { best, .. } => Some(best.1),
            _ => None,
        };
        (
            Outcome::Value {
                value: whole(r.value()),
                cut: false,
            },
            best,
        )
    }

    /// Expectimax has no bounds to show.
    fn draws_bounds(self) -> bool {
        false
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::expectimax_facts(game, case, limit)
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::Expectimax]
    }
}

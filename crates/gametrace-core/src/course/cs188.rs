//! Berkeley CS188's multiagent search (`dialect: cs188`), the shape of a course:
//!
//! - the searcher, `search::cs188`: minimax, alpha-beta and expectimax over Pacman and the
//!   ghosts, depth in rounds, float values, the pruning convention (`prune_on:`), and the
//!   catalogue's CS188 mistakes as flaws it switches on (`search::mistakes`);
//! - the printer, `trace`'s `Cs188Printer`: the calls an agent makes on the autograder's
//!   tree state, as `multiagentTestClasses.py` logs them;
//! - here: how the two are put together, how a drawing shows a float, and what `stats`
//!   reports (`stats::facts::cs188`);
//! - the course's own test files read as specs (`spec::cs188`), and its specs (`specs/cs188/`).

use super::{Course, Drawn, Events, Settings};
use crate::draw::overlay::{Bound, Outcome};
use crate::game::Game;
use crate::search::{cs188, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::{self, SearchFacts};
use crate::trace::{Cs188Printer, Dialect};
use std::io::Write;
use std::time::Duration;

/// CS188's rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cs188;

impl Course for Cs188 {
    type Value<M: Copy + Send> = f64;
    type Answer<M: Copy + Send> = cs188::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = Cs188Printer<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        cs188::search_variant(game, how.depth, how.algorithm, how.cs188, how.flaws, sink)
    }

    fn drawn_value<M: Copy + Send>(self, v: f64, how: &Settings) -> Bound {
        Bound::Value(cs188::estimate_of(v, how.cs188.places))
    }

    fn drawn_answer<M: Copy + Send>(self, r: cs188::Answer<M>, how: &Settings) -> Drawn<M> {
        let (cut, best) = match r {
            cs188::Answer::Best { cut, best, .. } => (cut.is_some(), best.map(|b| b.1)),
            _ => (false, None),
        };
        let value = cs188::estimate_of(r.value(), how.cs188.places);
        (Outcome::Value { value, cut }, best)
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::cs188_facts(game, case, limit)
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::Cs188]
    }
}

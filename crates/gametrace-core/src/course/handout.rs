//! CMU 15-150's games homeworks: the S14 handout (HW11: `Leaf`/`Step` values, the `(* Pruned
//! *)` mark) and the S12 handout (HW09: `Pruned`/`ParentPrune`), each with its minimax,
//! alpha-beta and Jamboree (`search::s14`, `search::s12`), printed as its figures print
//! (`trace`'s s14 and s12 dialects) or, through [`Repl`], as the SML/NJ prompt shows the
//! support code's run.

use super::{Course, Drawn, Events, Settings};
use crate::draw::overlay::{Bound, Outcome};
use crate::game::Game;
use crate::search::{reference_or_variant, s12, s14, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::{self, SearchFacts};
use crate::trace::{self, Dialect, ReplPrinter, S12Printer, S14Printer};
use std::io::Write;
use std::time::Duration;

/// The S14 handout's rules (`dialect: s14`).
#[derive(Clone, Copy, Debug, Default)]
pub struct S14;

/// The S12 handout's rules (`dialect: s12`).
#[derive(Clone, Copy, Debug, Default)]
pub struct S12;

/// A 15-150 year's search as the SML/NJ prompt shows it (`dialect: repl`, `rules:` the
/// year): the year's searcher, the REPL's printer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Repl<C>(pub C);

impl Course for S14 {
    type Value<M: Copy + Send> = s14::Value<M>;
    type Answer<M: Copy + Send> = s14::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = S14Printer<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        let (depth, algorithm) = (how.depth, how.algorithm);
        reference_or_variant!(how.flaws, |f| s14::run(game, depth, algorithm, f, sink))
    }

    fn drawn_value<M: Copy + Send>(self, v: s14::Value<M>, _: &Settings) -> Bound {
        Bound::Value(v.estimate())
    }

    fn drawn_answer<M: Copy + Send>(self, r: s14::Answer<M>, _: &Settings) -> Drawn<M> {
        let value = r.value.estimate();
        (
            Outcome::Value {
                value,
                cut: r.pruned,
            },
            r.value.step(),
        )
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::handout_facts(game, case, limit, trace::push_s14_estimate)
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::S14, Dialect::Repl]
    }
}

impl Course for S12 {
    type Value<M: Copy + Send> = s12::Value<M>;
    type Answer<M: Copy + Send> = s12::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = S12Printer<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        let (depth, algorithm) = (how.depth, how.algorithm);
        reference_or_variant!(how.flaws, |f| s12::run(game, depth, algorithm, f, sink))
    }

    /// `Pruned` is no bound yet.
    fn drawn_value<M: Copy + Send>(self, v: s12::Value<M>, _: &Settings) -> Bound {
        v.estimate().map_or(Bound::Pruned, Bound::Value)
    }

    fn drawn_answer<M: Copy + Send>(self, r: s12::Answer<M>, _: &Settings) -> Drawn<M> {
        match r {
            s12::Answer::Value(s12::Value::Edge(m, value)) => {
                (Outcome::Value { value, cut: false }, Some(m))
            }
            s12::Answer::Value(s12::Value::Pruned) => (Outcome::Pruned, None),
            s12::Answer::ParentPrune => (Outcome::ParentPrune, None),
        }
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        facts::handout_facts(game, case, limit, trace::push_s12_estimate)
    }

    fn dialects(self) -> &'static [Dialect] {
        &[Dialect::S12, Dialect::Repl]
    }
}

/// The year's course in everything but the printer.
impl<C: Course> Course for Repl<C> {
    type Value<M: Copy + Send> = C::Value<M>;
    type Answer<M: Copy + Send> = C::Answer<M>;
    type Printer<'g, G: Game + 'g, W: Write> = ReplPrinter<'g, G, W>;

    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>,
    {
        self.0.search(game, how, sink)
    }

    fn drawn_value<M: Copy + Send>(self, v: C::Value<M>, how: &Settings) -> Bound {
        self.0.drawn_value(v, how)
    }

    fn drawn_answer<M: Copy + Send>(self, r: C::Answer<M>, how: &Settings) -> Drawn<M> {
        self.0.drawn_answer(r, how)
    }

    fn draws_bounds(self) -> bool {
        self.0.draws_bounds()
    }

    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
        self.0.facts(game, case, limit)
    }

    fn algorithm_name(self, how: &Settings) -> &'static str {
        self.0.algorithm_name(how)
    }

    fn class_name(self, how: &Settings) -> Option<&'static str> {
        self.0.class_name(how)
    }

    fn dialects(self) -> &'static [Dialect] {
        self.0.dialects()
    }
}

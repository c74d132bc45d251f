//! A course's rules as one value.
//!
//! Each rule set is a zero-sized type implementing [`Course`]: the 15-150 handout years
//! ([`S14`], [`S12`], and [`Repl`] for either year's search as the SML/NJ prompt shows it),
//! Toronto's CSC148 ([`Csc148`]), Dartmouth's CS10 ([`Cs10`]), the textbooks' expectimax
//! ([`Expectimax`]) and Berkeley's CS188 ([`Cs188`]). A course owns which searcher runs (and
//! how the catalogue's mistakes change it), its values and per-node answers, the printer of
//! its dialect, how a drawing shows its values, what `stats` and `run --format json` say of a
//! search, and what it calls its algorithms.
//!
//! [`with_course!`] is the one place a case's dialect and rules choose the course: `run`,
//! `draw`, `stats` and the browser's core ask the course it gives, and `play` asks the course
//! of each computer player.
//!
//! A new course is a searcher in `search/`, a printer in `trace/`, a module here implementing
//! [`Course`] (the shape of `cs188.rs`), an arm of [`with_course!`], the loader's names for it
//! (`spec/load`) and its specs.

mod cs10;
mod cs188;
mod csc148;
mod expectimax;
mod handout;

pub use cs10::Cs10;
pub use cs188::Cs188;
pub use csc148::Csc148;
pub use expectimax::Expectimax;
pub use handout::{Repl, S12, S14};

use crate::draw::overlay::{Bound, Outcome};
use crate::game::Game;
use crate::search::mistakes::Flaws;
use crate::search::{Algorithm, Event, Sink, Summary};
use crate::spec::Case;
use crate::stats::facts::SearchFacts;
use crate::trace::{Dialect, Printer, Style};
use std::io::Write;
use std::time::Duration;

/// What a course's searcher is told: a case's search, without how it is printed or judged,
/// and the catalogue's flaws it is to make (none for the reference).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub algorithm: Algorithm,
    /// In moves (a CS188 case's rounds times its agents).
    pub depth: u32,
    /// CS10's move ordering and aspiration window.
    pub cs10: crate::search::cs10::Options,
    /// CS188's agents, pruning convention and decimal places.
    pub cs188: crate::search::cs188::Options,
    pub flaws: Flaws,
}

impl Settings {
    /// The reference's `algorithm` to `depth`, with every course's options at their defaults.
    pub fn new(algorithm: Algorithm, depth: u32) -> Settings {
        Settings {
            algorithm,
            depth,
            cs10: Default::default(),
            cs188: Default::default(),
            flaws: Flaws::NONE,
        }
    }
}

impl Case {
    /// The case's search by the reference, as its course's searcher is told it.
    pub fn settings(&self) -> Settings {
        Settings {
            algorithm: self.algorithm,
            depth: self.depth,
            cs10: self.cs10,
            cs188: self.cs188,
            flaws: Flaws::NONE,
        }
    }
}

/// The events a course's searcher reports on `G`.
pub type Events<C, G> = Event<
    <G as Game>::State,
    <G as Game>::Move,
    <C as Course>::Value<<G as Game>::Move>,
    <C as Course>::Answer<<G as Game>::Move>,
>;

/// A node's result as a drawing shows it, and the move its value comes by, if it says.
pub type Drawn<M> = (Outcome, Option<M>);

/// A course's rules: its searcher, its printer, and what the rest of the program asks of
/// them. Implemented by zero-sized types; a value of one is the course.
pub trait Course: Copy + Send + Sync + 'static {
    /// A bound or a value as the searcher keeps it (S14's `Leaf`/`Step`, CS188's float).
    type Value<M: Copy + Send>: Send;
    /// A node's answer: what its search came to (S12's `ParentPrune`, CSC148's score from the
    /// table). A search's answer, not a judgement of a case: that is [`crate::report::Status`].
    type Answer<M: Copy + Send>: Send;
    /// The printer of the course's events in its dialect, made for a search by
    /// [`Printer::for_search`].
    type Printer<'g, G: Game + 'g, W: Write>: Sink<Events<Self, G>> + Printer<'g, G, W>;

    /// Searches `game` from its start as `how` says, reporting to `sink`.
    fn search<G: Game, K>(self, game: &G, how: &Settings, sink: &mut K) -> Summary
    where
        K: Sink<Events<Self, G>>;

    /// The course's printer of a search of `game` as `how` says, writing the line kinds of
    /// `style` to `out`.
    fn printer<'g, G: Game + 'g, W: Write>(
        self,
        game: &'g G,
        out: W,
        style: Style,
        how: &Settings,
    ) -> Self::Printer<'g, G, W> {
        Printer::for_search(game, out, style, how)
    }

    /// A bound or a value as a drawing shows it.
    fn drawn_value<M: Copy + Send>(self, value: Self::Value<M>, how: &Settings) -> Bound;

    /// A node's result as a drawing shows it.
    fn drawn_answer<M: Copy + Send>(self, answer: Self::Answer<M>, how: &Settings) -> Drawn<M>;

    /// Does a drawing show the bounds each node was entered with?
    fn draws_bounds(self) -> bool {
        true
    }

    /// What a search case finds (`stats`, `run --format json`), searched within `limit`.
    fn facts<G: Game>(self, game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts;

    /// The algorithm as the course names it (CSC148's `prune`, CS10's `negamax_ab`).
    fn algorithm_name(self, how: &Settings) -> &'static str {
        how.algorithm.name()
    }

    /// The course's class a program for such a case is (`StrategyMinimaxPrune`,
    /// `ComputerKalahPlayerAB`); `None` where programs are not told apart by class.
    fn class_name(self, _how: &Settings) -> Option<&'static str> {
        None
    }

    /// The dialects that print this course's searches, its own first.
    fn dialects(self) -> &'static [Dialect];
}

/// Runs `$body` with `$course` bound to the course of a case (`&Case`): the one place a case's
/// dialect and rules choose its searcher and printer. The body is compiled once for each
/// course.
macro_rules! with_course {
    ($case:expr, $course:ident => $body:expr) => {{
        let case: &$crate::spec::Case = $case;
        match (case.dialect, case.rules) {
            ($crate::trace::Dialect::Cs188, _) | (_, $crate::spec::Rules::Cs188) => {
                let $course = $crate::course::Cs188;
                $body
            }
            ($crate::trace::Dialect::Expectimax, _) | (_, $crate::spec::Rules::Expectimax) => {
                let $course = $crate::course::Expectimax;
                $body
            }
            ($crate::trace::Dialect::Csc148, _) | (_, $crate::spec::Rules::Csc148) => {
                let $course = $crate::course::Csc148;
                $body
            }
            ($crate::trace::Dialect::Cs10, _) | (_, $crate::spec::Rules::Cs10) => {
                let $course = $crate::course::Cs10;
                $body
            }
            ($crate::trace::Dialect::S14, _) => {
                let $course = $crate::course::S14;
                $body
            }
            ($crate::trace::Dialect::S12, _) => {
                let $course = $crate::course::S12;
                $body
            }
            ($crate::trace::Dialect::Repl, $crate::spec::Rules::S14) => {
                let $course = $crate::course::Repl($crate::course::S14);
                $body
            }
            ($crate::trace::Dialect::Repl, $crate::spec::Rules::S12) => {
                let $course = $crate::course::Repl($crate::course::S12);
                $body
            }
        }
    }};
}
pub(crate) use with_course;

/// The case's algorithm as its course names it: CSC148's `prune` and `myopic` are alpha-beta
/// and minimax to a depth under its rules, CS10's `negamax_ab` its alpha-beta.
pub fn algorithm_name(case: &Case) -> &'static str {
    with_course!(case, course => course.algorithm_name(&case.settings()))
}

/// The course's class a program for `case` is (see [`Course::class_name`]).
pub fn class_name(case: &Case) -> Option<&'static str> {
    with_course!(case, course => course.class_name(&case.settings()))
}

/// The dialects that print `case`'s search, the case's course's own first.
pub fn dialects(case: &Case) -> &'static [Dialect] {
    with_course!(case, course => course.dialects())
}

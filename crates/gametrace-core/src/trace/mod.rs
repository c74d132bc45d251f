//! Dialects: printers of the searchers' event stream, one per handout year plus the REPL.
//!
//! | kind        | s14                                   | s12                                  |
//! |-------------|---------------------------------------|--------------------------------------|
//! | `search`    | —                                     | `Searching state (Maxie,a) with ...` |
//! | `enter`     | `F: state (Maxie,a) with ab=(...)`    | `Evaluating state (Minnie,b) ...`    |
//! | `estimate`  | `Estimating state e[3]`               | same                                 |
//! | `result`    | `Result of (Minnie,g) is Step(0, Guess: 2) (* Pruned *)` | `Result of (Maxie,h) is ParentPrune` |
//! | `value`     | `Therefore value of (Maxie,a) is Guess: 3, and best move is 0.` | `... is Guess:3, ...` |
//! | `terminals` | `Terminals visited: 6`                | same                                 |
//! | `choice`    | `Overall choice: move 1[middle]`      | same                                 |
//!
//! `repl` prints what the support code prints at the SML/NJ prompt: the `estimate` lines and
//! `val it = 0 : HandoutBig.move` (its `choice`).
//!
//! `csc148` is a teaching trace of Toronto CSC148's strategies (scores for the player to
//! move; players p1 and p2):
//!
//! | kind        | csc148                                                             |
//! |-------------|--------------------------------------------------------------------|
//! | `enter`     | `Searching p2:5: p2 to move, moves 1, 4` (prune adds `; guaranteed p2 -1.0, p1 -1.0`, myopic `; 2 moves left`) |
//! | `estimate`  | `Outcome of p1:0 is -1.0 for p1: p2 won` / `Rough outcome of p1:4 is 0.0 for p1` |
//! | `result`    | `Score of p2:5 is -1.0 for p2, by move 1` (`, pruned after 1 of 2 moves`), or `Score of p1:1 is 1.0 for p1, from the table` |
//! | `value`     | `Therefore the score of p1:6 is 1.0 for p1, and best move is 1.`   |
//! | `terminals` | `Positions searched: 10` (memoize adds `, answered from the table: 2`) |
//! | `choice`    | `Suggested move: 1 (equally good: 1, 4)`                           |
//!
//! `cs10` is Dartmouth CS10's hand method for negamax with (low, high) windows (values for
//! the player to move; a child's value negated for its parent unless that player moves again):
//!
//! | kind        | cs10                                                                |
//! |-------------|---------------------------------------------------------------------|
//! | `enter`     | `Enter n20 (Minnie, depth 2) with range (-inf, 12)` (negamax: no range) |
//! | `estimate`  | `Evaluate l12 (Minnie): 12` (`(game over)` for a finished game)     |
//! | `result`    | `Value of n-20 is -20: 20 for n20, low 20, range (20, 12): low reaches high, prune` |
//! | `value`     | `Therefore n-8 is worth -8 for Maxie, and best move is 2.`          |
//! | `terminals` | `Positions evaluated: 4`                                            |
//! | `choice`    | `Best move: 2`                                                      |

//! `cs188` is Berkeley CS188's multiagent search as its autograder's test trees log it (the
//! calls a student's agent makes on the tree state, as `multiagentTestClasses.py` prints them
//! with `VERBOSE`), and the values the reference finds:
//!
//! | kind        | cs188                                                               |
//! |-------------|---------------------------------------------------------------------|
//! | `enter`     | `generateSuccessor(root, 0, pacLeft) -> minLeft`                    |
//! | `estimate`  | `getScore(A) -> 4.0` (or `-> Exception: ...` where the state has no score) |
//! | `result`    | `value(minLeft) -> 3.0 (agent 1, min)`, `... (agent 1, min, pruned after 1 of 2)`, `... (agent 1, mean of 2)` |
//! | `value`     | `getAction(root): value 3.0, action pacLeft`                        |
//! | `choice`    | `getAction(root) -> pacLeft`                                        |
//!
//! A program prints only what its calls show: the `result` and `value` lines are the
//! reference's, for people, and `check` never asks a program for them
//! ([`Dialect::printed_by_programs`]).

mod print;

pub use print::{
    push_s12_estimate, push_s14_estimate, Cs10Printer, Cs188Printer, Csc148Printer,
    ExpectimaxPrinter, ReplPrinter, S12Printer, S14Printer,
};

use std::fmt;
use std::io;

/// What every printer is besides a sink of its course's events: made for a search, what it
/// wrote so far, and its writer back when the search is over.
pub trait Printer<'g, G, W>: Sized {
    /// The printer of a search of `game` as `how` says (a CSC148 strategy, a CS10 window, a
    /// CS188 agent's mistake), writing the line kinds of `style` to `writer`.
    fn for_search(game: &'g G, writer: W, style: Style, how: &crate::course::Settings) -> Self;
    /// What was written so far.
    fn get_ref(&self) -> &W;
    /// Flushes and returns the writer, or the first write error.
    fn finish(self) -> io::Result<W>;
}

/// A trace dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    S14,
    S12,
    Repl,
    Csc148,
    Cs10,
    /// Expectimax and expectiminimax with exact expected values (no handout prints one; see
    /// the guide's Dialects chapter).
    Expectimax,
    /// Berkeley CS188's multiagent search, as its autograder logs a test tree's calls.
    Cs188,
}

impl Dialect {
    pub const ALL: [Dialect; 7] = [
        Dialect::S14,
        Dialect::S12,
        Dialect::Repl,
        Dialect::Csc148,
        Dialect::Cs10,
        Dialect::Expectimax,
        Dialect::Cs188,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Dialect::S14 => "s14",
            Dialect::S12 => "s12",
            Dialect::Repl => "repl",
            Dialect::Csc148 => "csc148",
            Dialect::Cs10 => "cs10",
            Dialect::Expectimax => "expectimax",
            Dialect::Cs188 => "cs188",
        }
    }

    pub fn parse(s: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == s)
    }

    /// The line kinds this dialect prints, in the order of the table above.
    pub fn kinds(self) -> &'static [LineKind] {
        use LineKind::*;
        match self {
            Dialect::S14 => &[Enter, Estimate, Result, Value, Terminals, Choice],
            Dialect::S12 => &[Search, Enter, Estimate, Result, Value, Terminals, Choice],
            Dialect::Repl => &[Estimate, Choice],
            Dialect::Csc148 | Dialect::Cs10 | Dialect::Expectimax => {
                &[Enter, Estimate, Result, Value, Terminals, Choice]
            }
            Dialect::Cs188 => &[Enter, Estimate, Result, Value, Choice],
        }
    }

    /// The line kinds a program under check can print: every kind of the dialect, but the
    /// cs188 dialect's values (`result`, `value`), which no agent shows (`getAction` returns
    /// only its action); they are the reference's, for people to read.
    pub fn printed_by_programs(self) -> LineSet {
        use LineKind::*;
        match self {
            Dialect::Cs188 => [Enter, Estimate, Choice].into_iter().collect(),
            d => LineSet::all_of(d),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of trace line (see the table above).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    Search,
    Enter,
    Estimate,
    Result,
    Value,
    Terminals,
    Choice,
    /// `Deepening to depth 2`: the line before each depth of an iteratively deepened case.
    /// Not a `lines:` choice: a deepened case always prints it, in every dialect.
    Deepening,
}

impl LineKind {
    pub const ALL: [LineKind; 7] = [
        LineKind::Search,
        LineKind::Enter,
        LineKind::Estimate,
        LineKind::Result,
        LineKind::Value,
        LineKind::Terminals,
        LineKind::Choice,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LineKind::Search => "search",
            LineKind::Enter => "enter",
            LineKind::Estimate => "estimate",
            LineKind::Result => "result",
            LineKind::Value => "value",
            LineKind::Terminals => "terminals",
            LineKind::Choice => "choice",
            LineKind::Deepening => "deepening",
        }
    }

    pub fn parse(s: &str) -> Option<LineKind> {
        LineKind::ALL.into_iter().find(|k| k.name() == s)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Which line kinds a case prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSet(u8);

impl LineSet {
    pub fn all_of(dialect: Dialect) -> LineSet {
        dialect.kinds().iter().copied().collect()
    }

    pub fn contains(self, kind: LineKind) -> bool {
        kind == LineKind::Deepening || self.0 & kind.bit() != 0
    }

    /// The kinds in the set, in the order of [`LineKind::ALL`].
    pub fn iter_kinds(self) -> impl Iterator<Item = LineKind> {
        LineKind::ALL.into_iter().filter(move |&k| self.contains(k))
    }
}

impl LineSet {
    /// The kinds in both sets.
    pub fn and(self, other: LineSet) -> LineSet {
        LineSet(self.0 & other.0)
    }
}

impl FromIterator<LineKind> for LineSet {
    fn from_iter<I: IntoIterator<Item = LineKind>>(iter: I) -> Self {
        LineSet(iter.into_iter().fold(0, |bits, k| bits | k.bit()))
    }
}

/// How a printer renders what the tree does not say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    pub lines: LineSet,
    /// Names of the root's moves by index, for `Overall choice: move 1[middle]`.
    pub move_names: Vec<String>,
    /// The order the root's moves are searched in, by index in the game's order, where a
    /// search reorders them (iterative deepening's `move_order: best_first`); empty otherwise.
    pub root_order: Vec<usize>,
    /// The structure in `val it = 0 : HandoutBig.move`.
    pub sml_structure: String,
    /// Expectimax values: `None` prints exact fractions (`19/3`), `Some(n)` decimals with n
    /// places, rounded half away from zero (`decimals:` in a case).
    pub decimals: Option<u8>,
    /// The tree's values are integers times 10^-places (a tree written with decimals).
    pub places: u8,
}

impl Style {
    /// The name of the root's move searched `i`th (its index in the game's order, through
    /// `root_order`), if the spec names it.
    pub fn move_name(&self, i: usize) -> Option<&str> {
        self.move_names.get(self.game_index(i)).map(String::as_str)
    }

    /// The index in the game's order of the root's move searched `i`th.
    pub fn game_index(&self, i: usize) -> usize {
        self.root_order.get(i).copied().unwrap_or(i)
    }

    /// The root's search order, where it is not the game's.
    pub fn root_order(&self) -> Option<&[usize]> {
        (!self.root_order.is_empty()).then_some(&self.root_order[..])
    }

    pub fn new(dialect: Dialect) -> Style {
        Style {
            lines: LineSet::all_of(dialect),
            move_names: Vec::new(),
            root_order: Vec::new(),
            sml_structure: "Game".to_owned(),
            decimals: None,
            places: 0,
        }
    }
}

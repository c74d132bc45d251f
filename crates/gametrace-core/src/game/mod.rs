//! The game model: what a searcher needs to know about a game, and nothing about traces.
//!
//! Explicit trees ([`tree`]) and real games ([`nim`], [`connect4`] with PopOut,
//! [`riskless`], and CSC148's [`subtract_square`] and [`tippy`]) implement the same trait, so every searcher and printer works on them
//! unchanged. Real games are also [`Playable`]: people type their moves and read their boards.

pub mod board;
pub mod connect4;
pub mod kalah;
pub mod nim;
pub mod pig;
pub mod riskless;
pub mod scenario;
pub mod state_tree;
pub mod subtract_square;
pub mod tictactoe;
pub mod tippy;
pub mod tree;

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;

/// The player to move. Maxie maximises estimates, Minnie minimises them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Maxie,
    Minnie,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::Maxie => Player::Minnie,
            Player::Minnie => Player::Maxie,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Player::Maxie => "Maxie",
            Player::Minnie => "Minnie",
        }
    }

    /// CSC148's name for the player: p1 (Maxie, who moves first) or p2 (Minnie).
    pub fn course_name(self) -> &'static str {
        match self {
            Player::Maxie => "p1",
            Player::Minnie => "p2",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Winner(Player),
    Draw,
}

/// Whether a state is still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    InPlay,
    Over(Outcome),
}

/// A game's estimate of a state, ordered `MinnieWins` < every guess < `MaxieWins`.
/// `Draw` ranks equal to `Guess(0)`: the S14 support code makes 0 *be* the draw.
#[derive(Clone, Copy, Debug)]
pub enum Estimate {
    MinnieWins,
    Guess(i64),
    Draw,
    MaxieWins,
}

impl Estimate {
    /// The key the ordering uses: one integer, so a comparison is one instruction pair.
    #[inline]
    fn key(self) -> i128 {
        match self {
            Estimate::MinnieWins => i128::MIN,
            Estimate::Guess(n) => i128::from(n),
            Estimate::Draw => 0,
            Estimate::MaxieWins => i128::MAX,
        }
    }

    pub fn of_outcome(outcome: Outcome) -> Estimate {
        match outcome {
            Outcome::Winner(Player::Maxie) => Estimate::MaxieWins,
            Outcome::Winner(Player::Minnie) => Estimate::MinnieWins,
            Outcome::Draw => Estimate::Draw,
        }
    }
}

impl PartialEq for Estimate {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Estimate {}
impl PartialOrd for Estimate {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Estimate {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Writes an integer the way SML prints it: `~2` for minus two.
#[inline]
pub fn write_sml_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('~');
    }
    out.push_str(itoa::Buffer::new().format(n.unsigned_abs()));
}

/// A two-player, alternating, deterministic game, as the course's `GAME` signature has it.
///
/// Moves are listed in move order; searchers visit children in that order.
pub trait Game: Sync {
    type State: Clone + Send + Sync + PartialEq + fmt::Debug;
    /// A move. Its `Display` is what traces print inside `Step(0, ...)`.
    type Move: Copy + Send + Sync + PartialEq + fmt::Display + fmt::Debug;
    type Moves<'a>: ExactSizeIterator<Item = Self::Move>
    where
        Self: 'a;

    fn start(&self) -> Self::State;
    fn player(&self, state: &Self::State) -> Player;
    fn status(&self, state: &Self::State) -> Status;
    fn moves<'a>(&'a self, state: &Self::State) -> Self::Moves<'a>;
    /// The moves of a state whose status is `InPlay`, the same as [`Game::moves`]. The
    /// searchers ask for a node's status first and its moves after, so a game whose `moves`
    /// tests again whether the game is over (Connect 4 looks for fours) can skip it here.
    #[inline]
    fn moves_in_play<'a>(&'a self, state: &Self::State) -> Self::Moves<'a> {
        self.moves(state)
    }
    /// Whether a state whose status is `InPlay` has no moves (the searchers estimate it),
    /// the same as `moves_in_play(state).len() == 0`. Every node asks, so a game that knows
    /// more cheaply says so: an explicit tree's node is a leaf or not, and making its moves
    /// starts loading its children.
    #[inline]
    fn no_moves_in_play(&self, state: &Self::State) -> bool {
        self.moves_in_play(state).len() == 0
    }
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;
    /// The estimator. Called only on in-play states where the search stops.
    fn estimate(&self, state: &Self::State) -> Estimate;
    /// Whether the game has an estimate of this state at all. Every game does, but an
    /// explicit tree only at its leaves and at inner nodes with a static value: CS188's
    /// `getScore()` raises on any other state, and a mistaken CS188 search that evaluates one
    /// stops there as the student's program does.
    fn has_estimate(&self, _state: &Self::State) -> bool {
        true
    }
    /// What a finished game is worth to the searchers. The 15-150 games make the outcome
    /// itself the value (`MaxieWins`, `MinnieWins`, a draw as 0); games from sources that
    /// score outcomes as numbers (AIMA's and OpenSpiel's +1/-1/0) say so here.
    fn utility(&self, _state: &Self::State, outcome: Outcome) -> Estimate {
        Estimate::of_outcome(outcome)
    }
    /// At a chance node (nature moves: a die, a random ghost), the probability of each move in
    /// move order, exact and summing to 1; `None` where a player moves. Only the expectimax
    /// searchers read it; the loader keeps chance nodes away from the others.
    fn chances(&self, _state: &Self::State) -> Option<Vec<Probability>> {
        None
    }
    /// The state's name in traces: `a` in `(Maxie,a)` and in `Estimating state a[3]`.
    fn write_label(&self, state: &Self::State, out: &mut String);

    /// A move as traces print it (its `Display`, unless a game has a faster way).
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{mv}");
    }

    /// What identifies a state in a memo table or a set of positions seen: two states with
    /// the same key are the same position. CSC148 keys its tables by `repr(state)`; so does
    /// this default (the label and the player to move). Games override it with something
    /// cheaper, and explicit trees with the node, since two nodes may share a name.
    fn key(&self, state: &Self::State) -> StateKey {
        let mut label = String::new();
        self.write_label(state, &mut label);
        StateKey::Text(self.player(state), label.into_boxed_str())
    }

    /// A player as the game's course names them: Maxie and Minnie (15-150), p1 and p2
    /// (CSC148's and CS10's games).
    fn player_name(&self, p: Player) -> &'static str {
        p.name()
    }

    /// A finished game's score as CS10 scores it, as Maxie's number: 100 × the margin. By
    /// default a game has no margin, and a win counts as one point (±100), a draw 0.
    fn final_score(&self, state: &Self::State) -> i64 {
        match self.status(state) {
            Status::Over(Outcome::Winner(Player::Maxie)) => 100,
            Status::Over(Outcome::Winner(Player::Minnie)) => -100,
            _ => 0,
        }
    }
}

/// A game that is another game seen through a wrapper: a time limit or a budget
/// (`search::deadline`), counters (`search::counts`), a reordered root (`search::deepening`),
/// states that remember their path (`run`), a table of a student's estimates (`check-game`).
/// Every method is the inner game's unless the wrapper says otherwise, so a wrapper writes
/// only what it changes; [`Game`] is implemented for every `Delegate`.
///
/// Implement it by path (`impl game::Delegate for ...`) without importing it: where both
/// traits are in scope, a wrapper's method calls name two methods.
pub trait Delegate: Sync {
    type Inner: Game;
    /// The wrapper's states: the inner game's, or states that hold one (`Borrow`) and are made
    /// from one (`From`: a default `start` or `play` makes them so).
    type State: Clone
        + Send
        + Sync
        + PartialEq
        + fmt::Debug
        + Borrow<<Self::Inner as Game>::State>
        + From<<Self::Inner as Game>::State>;
    /// The wrapper's move lists: the inner game's, or lists made from them.
    type Moves<'a>: ExactSizeIterator<Item = <Self::Inner as Game>::Move>
        + From<<Self::Inner as Game>::Moves<'a>>
    where
        Self: 'a;

    fn inner(&self) -> &Self::Inner;

    fn start(&self) -> Self::State {
        self.inner().start().into()
    }
    fn player(&self, state: &Self::State) -> Player {
        self.inner().player(state.borrow())
    }
    fn status(&self, state: &Self::State) -> Status {
        self.inner().status(state.borrow())
    }
    fn moves<'a>(&'a self, state: &Self::State) -> Self::Moves<'a> {
        self.inner().moves(state.borrow()).into()
    }
    fn play(&self, state: &Self::State, mv: <Self::Inner as Game>::Move) -> Self::State {
        self.inner().play(state.borrow(), mv).into()
    }
    fn estimate(&self, state: &Self::State) -> Estimate {
        self.inner().estimate(state.borrow())
    }
    fn has_estimate(&self, state: &Self::State) -> bool {
        self.inner().has_estimate(state.borrow())
    }
    fn utility(&self, state: &Self::State, outcome: Outcome) -> Estimate {
        self.inner().utility(state.borrow(), outcome)
    }
    fn chances(&self, state: &Self::State) -> Option<Vec<Probability>> {
        self.inner().chances(state.borrow())
    }
    fn write_label(&self, state: &Self::State, out: &mut String) {
        self.inner().write_label(state.borrow(), out)
    }
    fn write_move(&self, mv: <Self::Inner as Game>::Move, out: &mut String) {
        self.inner().write_move(mv, out)
    }
    fn key(&self, state: &Self::State) -> StateKey {
        self.inner().key(state.borrow())
    }
    fn final_score(&self, state: &Self::State) -> i64 {
        self.inner().final_score(state.borrow())
    }
    fn player_name(&self, p: Player) -> &'static str {
        self.inner().player_name(p)
    }
}

/// A wrapper is the game it wraps but for what it changes. `moves_in_play` and
/// `no_moves_in_play` keep [`Game`]'s own definitions (through the wrapper's `moves`), so a
/// wrapper that watches `moves` sees every node's.
impl<D: Delegate> Game for D {
    type State = D::State;
    type Move = <D::Inner as Game>::Move;
    type Moves<'a>
        = D::Moves<'a>
    where
        Self: 'a;

    #[inline]
    fn start(&self) -> D::State {
        Delegate::start(self)
    }
    #[inline]
    fn player(&self, state: &D::State) -> Player {
        Delegate::player(self, state)
    }
    #[inline]
    fn status(&self, state: &D::State) -> Status {
        Delegate::status(self, state)
    }
    #[inline]
    fn moves<'a>(&'a self, state: &D::State) -> D::Moves<'a> {
        Delegate::moves(self, state)
    }
    #[inline]
    fn play(&self, state: &D::State, mv: Self::Move) -> D::State {
        Delegate::play(self, state, mv)
    }
    #[inline]
    fn estimate(&self, state: &D::State) -> Estimate {
        Delegate::estimate(self, state)
    }
    #[inline]
    fn has_estimate(&self, state: &D::State) -> bool {
        Delegate::has_estimate(self, state)
    }
    #[inline]
    fn utility(&self, state: &D::State, outcome: Outcome) -> Estimate {
        Delegate::utility(self, state, outcome)
    }
    #[inline]
    fn chances(&self, state: &D::State) -> Option<Vec<Probability>> {
        Delegate::chances(self, state)
    }
    #[inline]
    fn write_label(&self, state: &D::State, out: &mut String) {
        Delegate::write_label(self, state, out)
    }
    #[inline]
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        Delegate::write_move(self, mv, out)
    }
    #[inline]
    fn key(&self, state: &D::State) -> StateKey {
        Delegate::key(self, state)
    }
    #[inline]
    fn final_score(&self, state: &D::State) -> i64 {
        Delegate::final_score(self, state)
    }
    #[inline]
    fn player_name(&self, p: Player) -> &'static str {
        Delegate::player_name(self, p)
    }
}

/// An exact probability (or an expected value): a fraction of big integers, so sums of
/// products never round and never overflow.
pub type Probability = num_rational::BigRational;

/// A state's identity for memo tables and sets of positions ([`Game::key`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateKey {
    /// A position packed into bits, with the player to move.
    Packed(u128, Player),
    /// The label, with the player to move.
    Text(Player, Box<str>),
}

impl StateKey {
    /// The key with the player to move forgotten: what a memo table keyed on the board alone
    /// (a catalogued mistake) confuses.
    pub fn without_player(self) -> StateKey {
        match self {
            StateKey::Packed(bits, _) => StateKey::Packed(bits, Player::Maxie),
            StateKey::Text(_, label) => StateKey::Text(Player::Maxie, label),
        }
    }
}

/// A real game: moves people can type, boards people can read. Scenarios and the referee
/// (`gametrace play`) go through this.
pub trait Playable: Game + Clone + fmt::Debug {
    /// The game's name as specs and `play` write it (`connect4`, `popout`, `riskless`, `nim`).
    fn name(&self) -> &'static str;
    /// This game with another start position.
    fn starting_at(&self, state: Self::State) -> Self;
    /// This game with another estimator.
    fn estimating_with(&self, estimator: Estimator) -> Self;
    /// Reads a move as a person writes it, legal or not; the error says how to write one.
    fn read_move(&self, text: &str) -> Result<Self::Move, String>;
    /// Why `mv` cannot be played in `state`, if it cannot.
    fn why_illegal(&self, state: &Self::State, mv: Self::Move) -> Option<String>;
    /// Reads a move and checks it is legal in `state`. The error says which move, and why
    /// it cannot be played.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, String> {
        let mv = self.read_move(text)?;
        match self.why_illegal(state, mv) {
            Some(why) => Err(format!("cannot play {}: {why}", self.move_name(mv))),
            None => Ok(mv),
        }
    }
    /// The position for people: a board, a map or a heap, one or more lines.
    fn render(&self, state: &Self::State) -> String;
    /// A move as a person writes it (what [`Playable::parse_move`] reads back).
    fn move_name(&self, mv: Self::Move) -> String;
    /// How moves are written, for prompts and hints.
    fn move_syntax(&self) -> &'static str;
    /// The most moves any game can last from any position, for games with such a bound
    /// (every move fills a cell): a search case without `depth` searches to the end.
    fn longest_game(&self) -> Option<u32> {
        None
    }
    /// The position as a student's driver rebuilds the course's state objects from it
    /// (`{position_json}` in `check --cmd`), for the games that have such a driver.
    fn position_json(&self, _state: &Self::State) -> Option<serde_json::Value> {
        None
    }
}

/// The deepest search of a real game a spec or a player may ask for. Searches recurse once
/// per ply, and no game here can be searched this deep in useful time anyway.
pub const MAX_DEPTH: u32 = 64;

/// Which estimator a real game's searches use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Estimator {
    /// The handout's: Maxie's armies minus Minnie's (Riskless), 16 per run of two and 64 per
    /// run of three (Connect 4), the perfect rule (Nim).
    #[default]
    Naive,
    /// A better one, documented with each game.
    Improved,
}

impl Estimator {
    pub const NAMES: &'static [&'static str] = &["naive", "improved"];

    pub fn name(self) -> &'static str {
        match self {
            Estimator::Naive => "naive",
            Estimator::Improved => "improved",
        }
    }

    pub fn parse(s: &str) -> Option<Estimator> {
        match s {
            "naive" => Some(Estimator::Naive),
            "improved" => Some(Estimator::Improved),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_order_outcomes_around_guesses() {
        assert!(Estimate::MinnieWins < Estimate::Guess(i64::MIN));
        assert!(Estimate::Guess(i64::MAX) < Estimate::MaxieWins);
        assert_eq!(Estimate::Draw, Estimate::Guess(0));
        assert!(Estimate::Guess(-1) < Estimate::Draw);
    }

    #[test]
    fn sml_ints_use_tilde() {
        let mut s = String::new();
        write_sml_int(&mut s, -2);
        s.push(' ');
        write_sml_int(&mut s, 10);
        s.push(' ');
        write_sml_int(&mut s, i64::MIN);
        assert_eq!(s, "~2 10 ~9223372036854775808");
    }
}

//! Spec files (YAML, version 1): a tree and the cases to search it with.
//!
//! ```yaml
//! title: HandoutSmall (15-150 S14 HW11, Figure 5)
//! move_names: [left, middle, right]        # defaults for every case
//! tree:
//!   a:
//!     b: {c: 3, d: 6, e: -2}
//!     f: {g: 6, h: 4, i: 10}
//!     j: {k: 1, l: 30, m: 9}
//! cases:
//!   jamboree:
//!     algorithm: jamboree                   # minimax | alphabeta | jamboree
//!     prune_percentage: 0.5
//!     depth: 2
//!     dialect: s14                          # s14 | s12 | repl
//!     lines: [enter, result, terminals, choice]
//! ```

pub mod cs188;
pub mod diagnostic;
mod load;
pub mod new;
pub mod public;
pub mod schema;
pub mod validate;
pub mod yaml;

pub use diagnostic::Diagnostic;
pub use load::{
    load, load_for_drawing, load_str, validate_str, validate_str_without_fast_tree, Validation,
};

use crate::notation::Value;
use crate::task::Task;

use crate::game::connect4::Connect4;
use crate::game::kalah::Kalah;
use crate::game::nim::Nim;
use crate::game::pig::Pig;
use crate::game::riskless::Riskless;
use crate::game::scenario::Scenario;
use crate::game::subtract_square::SubtractSquare;
use crate::game::tictactoe::TicTacToe;
use crate::game::tippy::Tippy;
use crate::game::tree::Tree;
use crate::game::{Playable, Player};
use crate::search::Algorithm;
use crate::trace::{Dialect, Style};
use std::path::{Component, Path, PathBuf};

/// Is `s` an SML structure name (a letter, then letters, digits, `_` and `'`)?
pub fn is_sml_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
}

/// Which handout year's search rules a case follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// `Leaf`/`Step` values and the `(* Pruned *)` mark (S14 HW11).
    S14,
    /// `Pruned`/`ParentPrune` results (S12 HW09).
    S12,
    /// Toronto CSC148's strategies: scores for the player to move (`search::csc148`).
    Csc148,
    /// Dartmouth CS10's negamax with (low, high) windows (`search::cs10`).
    Cs10,
    /// Expectimax and expectiminimax over chance nodes (`search::expectimax`).
    Expectimax,
    /// Berkeley CS188's multiagent search: Pacman and ghosts, depth in rounds, float values
    /// (`search::cs188`).
    Cs188,
}

impl Rules {
    pub fn name(self) -> &'static str {
        match self {
            Rules::S14 => "s14",
            Rules::S12 => "s12",
            Rules::Csc148 => "csc148",
            Rules::Cs10 => "cs10",
            Rules::Expectimax => "expectimax",
            Rules::Cs188 => "cs188",
        }
    }
}

/// A spec file: a game tree with search cases, a homework task with argument cases, or a
/// real game's position with search cases and rule scenarios.
#[derive(Clone, Debug)]
pub enum Document {
    Tree(Spec),
    Task(TaskSpec),
    Game(GameDocument),
}

impl Document {
    pub fn path(&self) -> &std::path::Path {
        match self {
            Document::Tree(s) => &s.path,
            Document::Task(s) => &s.path,
            Document::Game(g) => g.path(),
        }
    }

    /// The cases `check` grades: every case, but not a game spec's scenarios (they test the
    /// reference's own rules).
    pub fn checkable_names(&self) -> Vec<&str> {
        match self {
            Document::Game(g) => crate::with_game_spec!(g, s => s
                .cases
                .iter()
                .map(|c| c.case.name.as_str())
                .collect()),
            _ => self.case_names(),
        }
    }

    /// The course's class a program for case `name` is: a CSC148 strategy
    /// (`StrategyMinimaxMemoize`) or a CS10 player (`ComputerKalahPlayerAB`). `None` for the
    /// other courses, whose programs are not told apart by class.
    pub fn course_class(&self, name: &str) -> Option<&'static str> {
        let of = crate::course::class_name;
        match self {
            Document::Tree(s) => s.case(name).and_then(of),
            Document::Game(g) => {
                crate::with_game_spec!(g, s => s.case(name).and_then(|c| of(&c.case)))
            }
            Document::Task(_) => None,
        }
    }

    /// Who may see case `name`'s result (scenarios and unknown names: visible).
    pub fn visibility(&self, name: &str) -> Visibility {
        match self {
            Document::Tree(s) => s.case(name).map(|c| c.visibility),
            Document::Task(s) => s.case(name).map(|c| c.visibility),
            Document::Game(g) => {
                crate::with_game_spec!(g, s => s.case(name).map(|c| c.case.visibility))
            }
        }
        .unwrap_or_default()
    }

    /// Case `name`'s search (a tree or game case; not a task case or a scenario).
    pub fn search_case(&self, name: &str) -> Option<&Case> {
        match self {
            Document::Tree(s) => s.case(name),
            Document::Task(_) => None,
            Document::Game(g) => crate::with_game_spec!(g, s => s.case(name).map(|c| &c.case)),
        }
    }

    /// The names of the cases (and a game spec's scenarios).
    pub fn case_names(&self) -> Vec<&str> {
        match self {
            Document::Tree(s) => s.cases.iter().map(|c| c.name.as_str()).collect(),
            Document::Task(s) => s.cases.iter().map(|c| c.name.as_str()).collect(),
            Document::Game(g) => g.names(),
        }
    }
}

/// A game spec, whichever game it is. [`with_game_spec!`](crate::with_game_spec) reaches the
/// typed [`GameSpec`] inside.
#[derive(Clone, Debug)]
pub enum GameDocument {
    Nim(GameSpec<Nim>),
    Connect4(GameSpec<Connect4>),
    Riskless(GameSpec<Riskless>),
    SubtractSquare(GameSpec<SubtractSquare>),
    Tippy(GameSpec<Tippy>),
    Kalah(GameSpec<Kalah>),
    TicTacToe(GameSpec<TicTacToe>),
    Pig(GameSpec<Pig>),
}

/// Runs `$body` with `$s` bound to the typed [`GameSpec`] of a [`GameDocument`].
#[macro_export]
macro_rules! with_game_spec {
    ($doc:expr, $s:ident => $body:expr) => {
        match $doc {
            $crate::spec::GameDocument::Nim($s) => $body,
            $crate::spec::GameDocument::Connect4($s) => $body,
            $crate::spec::GameDocument::Riskless($s) => $body,
            $crate::spec::GameDocument::SubtractSquare($s) => $body,
            $crate::spec::GameDocument::Tippy($s) => $body,
            $crate::spec::GameDocument::Kalah($s) => $body,
            $crate::spec::GameDocument::TicTacToe($s) => $body,
            $crate::spec::GameDocument::Pig($s) => $body,
        }
    };
}

impl GameDocument {
    pub fn path(&self) -> &std::path::Path {
        crate::with_game_spec!(self, s => &s.path)
    }

    /// Scenario `name` judged by the game's rules ([`crate::game::scenario::judge`]): the
    /// steps checked, or what went wrong. `None` if there is no such scenario.
    pub fn judge_scenario(&self, name: &str) -> Option<Result<usize, String>> {
        crate::with_game_spec!(self, s => s.scenario(name).map(crate::game::scenario::judge))
    }

    pub fn names(&self) -> Vec<&str> {
        crate::with_game_spec!(self, s => s
            .cases
            .iter()
            .map(|c| c.case.name.as_str())
            .chain(s.scenarios.iter().map(|c| c.name.as_str()))
            .collect())
    }
}

/// A loaded, checked game spec: a game at a position, searches of it, and scenarios.
#[derive(Clone, Debug)]
pub struct GameSpec<G: Playable> {
    pub path: PathBuf,
    pub title: Option<String>,
    /// The game as configured (board, map, estimator), at the spec's position.
    pub game: G,
    pub cases: Vec<GameCase<G>>,
    pub scenarios: Vec<Scenario<G>>,
}

/// A search of a game spec's position: the case's settings and the game as it searches it
/// (with the case's estimator).
#[derive(Clone, Debug)]
pub struct GameCase<G: Playable> {
    pub case: Case,
    pub game: G,
}

impl<G: Playable> GameSpec<G> {
    pub fn case(&self, name: &str) -> Option<&GameCase<G>> {
        self.cases.iter().find(|c| c.case.name == name)
    }

    pub fn scenario(&self, name: &str) -> Option<&Scenario<G>> {
        self.scenarios.iter().find(|c| c.name == name)
    }
}

/// A loaded, checked tree spec: everything in it is searchable as written.
#[derive(Clone, Debug)]
pub struct Spec {
    pub path: PathBuf,
    pub title: Option<String>,
    pub tree: Tree,
    pub cases: Vec<Case>,
}

/// Who may see a case's result in a grading report (`visibility:`), as Gradescope names it.
/// A case that is not `visible` is hidden from students: `--for-students` reports give its
/// verdict, place and diagnosis but never its reference lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Visible,
    Hidden,
    AfterDueDate,
    AfterPublished,
}

impl Visibility {
    pub const ALL: [Visibility; 4] = [
        Visibility::Visible,
        Visibility::Hidden,
        Visibility::AfterDueDate,
        Visibility::AfterPublished,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }

    pub fn parse(s: &str) -> Option<Visibility> {
        Visibility::ALL.into_iter().find(|v| v.name() == s)
    }
}

/// Which blocks of a trace `check` accepts in any order (`unordered:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Unordered {
    /// Every line in the reference's order.
    #[default]
    None,
    /// The children of each parallel phase (Jamboree's after its sequential share, every
    /// node's in minimax), as a real parallel implementation may print them.
    Parallel,
}

impl Unordered {
    pub const ALL: [Unordered; 2] = [Unordered::None, Unordered::Parallel];

    pub fn name(self) -> &'static str {
        match self {
            Unordered::None => "none",
            Unordered::Parallel => "parallel",
        }
    }

    pub fn parse(s: &str) -> Option<Unordered> {
        Unordered::ALL.into_iter().find(|u| u.name() == s)
    }
}

/// One search of the spec's tree, and how to print it.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub algorithm: Algorithm,
    pub depth: u32,
    pub dialect: Dialect,
    pub rules: Rules,
    pub root_player: Player,
    pub style: Style,
    /// Compare with the expected file byte for byte (otherwise blank lines and runs of
    /// spaces are ignored).
    pub exact: bool,
    /// How `check` and `test --against` compare an implementation's output (`check:`).
    pub mode: crate::check::trace::Mode,
    /// Which of its trace's blocks an implementation may print in any order (`unordered:`).
    pub unordered: Unordered,
    /// The case's weight in a grade (`points:`, default 1).
    pub points: f64,
    /// Who may see its result (`visibility:`, default visible).
    pub visibility: Visibility,
    /// How long its search may run in `test` and `run` (`time_limit:`, seconds); without it,
    /// the command's `--time-limit`.
    pub time_limit: Option<std::time::Duration>,
    /// The measures a `game_state_tree` case prints (`metrics:`; all by default).
    pub metrics: Vec<&'static str>,
    /// CS10's move ordering and aspiration window (`ordering:`, `aspiration:`).
    pub cs10: crate::search::cs10::Options,
    /// Search once at the case's depth, or at every depth up to it (`deepening:`).
    pub deepening: Deepening,
    /// What the spec's `depth:` counts: moves, or rounds of every agent's move
    /// (`depth_unit:`). `depth` above is always in moves.
    pub depth_unit: DepthUnit,
    /// CS188's agents and pruning convention (`prune_on:`).
    pub cs188: crate::search::cs188::Options,
}

/// What a case's `depth:` counts (`depth_unit:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DepthUnit {
    /// Moves (plies): every player's move is one.
    #[default]
    Moves,
    /// Rounds, as CS188 counts depth: each agent (Pacman, then every ghost) moves once.
    Rounds,
}

impl DepthUnit {
    pub const ALL: [DepthUnit; 2] = [DepthUnit::Moves, DepthUnit::Rounds];

    pub fn name(self) -> &'static str {
        match self {
            DepthUnit::Moves => "moves",
            DepthUnit::Rounds => "rounds",
        }
    }

    pub fn parse(s: &str) -> Option<DepthUnit> {
        DepthUnit::ALL.into_iter().find(|u| u.name() == s)
    }
}

impl Case {
    /// The case's depth as its spec writes it: in moves, or in rounds of `agents` moves.
    pub fn written_depth(&self) -> u32 {
        match self.depth_unit {
            DepthUnit::Moves => self.depth,
            DepthUnit::Rounds => self.depth / u32::from(self.cs188.agents.max(1)),
        }
    }
}

/// Whether a case searches once at its depth or deepens to it (`deepening:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Deepening {
    /// One search at the case's depth.
    #[default]
    None,
    /// Iterative (MIT 6.034's "progressive") deepening: the case's search at depth 1, 2, ...,
    /// the case's depth, each traced in turn under a `Deepening to depth d` line, the root's
    /// moves tried in this order (`move_order:`).
    Iterative(MoveOrder),
}

impl Deepening {
    pub fn parse(s: &str) -> Option<Deepening> {
        match s {
            "iterative" => Some(Deepening::Iterative(MoveOrder::Game)),
            _ => None,
        }
    }

    pub fn is_iterative(self) -> bool {
        matches!(self, Deepening::Iterative(_))
    }
}

/// The order an iteratively deepened search tries the root's moves in at each depth
/// (`move_order:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveOrder {
    /// The game's (the tree's) move order at every depth.
    #[default]
    Game,
    /// After the first depth, best first by the previous depth's values (equal values keep
    /// the game's order), as aima-java's `IterativeDeepeningAlphaBetaSearch` does.
    BestFirst,
}

impl MoveOrder {
    pub const ALL: [MoveOrder; 2] = [MoveOrder::Game, MoveOrder::BestFirst];

    pub fn name(self) -> &'static str {
        match self {
            MoveOrder::Game => "game",
            MoveOrder::BestFirst => "best_first",
        }
    }

    pub fn parse(s: &str) -> Option<MoveOrder> {
        MoveOrder::ALL.into_iter().find(|o| o.name() == s)
    }
}

impl Spec {
    pub fn case(&self, name: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.name == name)
    }
}

/// A loaded, checked task spec (`task: from_edge_seq`): each case's arguments already have
/// the task's parameter types.
#[derive(Clone, Debug)]
pub struct TaskSpec {
    pub path: PathBuf,
    pub title: Option<String>,
    pub task: Task,
    pub cases: Vec<TaskCase>,
}

impl TaskSpec {
    pub fn case(&self, name: &str) -> Option<&TaskCase> {
        self.cases.iter().find(|c| c.name == name)
    }
}

#[derive(Clone, Debug)]
pub struct TaskCase {
    pub name: String,
    pub args: Vec<Value>,
    pub expect: Expect,
    /// `order: any`: sequences in the result compare as multisets.
    pub any_order: bool,
    /// `dialect: repl` prints `val it = <value>`; otherwise the bare value.
    pub repl: bool,
    /// The case's weight in a grade (`points:`, default 1).
    pub points: f64,
    /// Who may see its result (`visibility:`, default visible).
    pub visibility: Visibility,
}

/// What a task case should give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A value (possibly `raise not_in_graph`).
    Value(Value),
    /// A broken REQUIRES clause whose message contains this text.
    Error(String),
}

/// Where a case's expected trace lives: a spec at `.../specs/<rel>.yaml` keeps it at
/// `.../expected/<rel>/<case>.trace`; a spec outside any `specs/` directory keeps it beside
/// itself, at `<dir>/expected/<name>/<case>.trace`.
pub fn expected_path(spec_path: &Path, case: &str) -> PathBuf {
    let file = format!("{case}.trace");
    let parts: Vec<Component> = spec_path.components().collect();
    if let Some(i) = parts.iter().rposition(|c| c.as_os_str() == "specs") {
        let root: PathBuf = parts[..i].iter().collect();
        let rel: PathBuf = parts[i + 1..].iter().collect();
        return root
            .join("expected")
            .join(rel.with_extension(""))
            .join(file);
    }
    let stem = spec_path.file_stem().unwrap_or_default();
    spec_path
        .parent()
        .unwrap_or(Path::new(""))
        .join("expected")
        .join(stem)
        .join(file)
}

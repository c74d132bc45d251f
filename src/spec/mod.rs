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

pub mod diagnostic;
mod load;
pub mod yaml;

pub use diagnostic::Diagnostic;
pub use load::{load, load_str};

use crate::game::tree::Tree;
use crate::game::Player;
use crate::search::Algorithm;
use crate::trace::{Dialect, Style};
use std::path::PathBuf;

/// Which handout year's search rules a case follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// `Leaf`/`Step` values and the `(* Pruned *)` mark (S14 HW11).
    S14,
    /// `Pruned`/`ParentPrune` results (S12 HW09).
    S12,
}

impl Rules {
    pub fn name(self) -> &'static str {
        match self {
            Rules::S14 => "s14",
            Rules::S12 => "s12",
        }
    }
}

/// A loaded, checked spec: everything in it is searchable as written.
#[derive(Clone, Debug)]
pub struct Spec {
    pub path: PathBuf,
    pub title: Option<String>,
    pub tree: Tree,
    pub cases: Vec<Case>,
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
}

impl Spec {
    pub fn case(&self, name: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.name == name)
    }
}

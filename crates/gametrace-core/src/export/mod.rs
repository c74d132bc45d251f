//! Trees written out for other programs: JSON (also `{tree_json}` in `check --cmd`), SML
//! ([`sml`], an `ExplicitGame` structure) and Python ([`python`], AIMA and CS188 style).
//!
//! The JSON document (schema: `schema/tree.schema.json`, generated from [`TreeDocument`]):
//!
//! ```json
//! {"format": "gametrace-tree", "version": 1, "title": "HandoutSmall", "case": "alphabeta",
//!  "algorithm": "alphabeta", "prune_percentage": null, "depth": 2, "dialect": "s14",
//!  "lines": ["enter", "estimate", ...], "sml_structure": "Game", "root_player": "Maxie",
//!  "move_names": ["left", "middle", "right"],
//!  "tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c", "value": 3}, ...]}, ...]}}
//! ```
//!
//! An internal node has `name` and `children` (in move order); a leaf has `name` and `value`
//! (its estimate). Turns alternate by level from `root_player`. `run`, `validate`, `show` and
//! `check` read the document back as a spec with the one case it names.

pub mod python;
pub mod sml;

use crate::game::tree::{NodeId, Tree};
use crate::search::Algorithm;
use crate::spec::{Case, Spec};
use schemars::JsonSchema;
use serde::Serialize;

/// A tree and one case's search settings, as `export --to json` and `{tree_json}` write it.
#[derive(Serialize, JsonSchema)]
#[schemars(title = "gametrace tree export")]
pub struct TreeDocument {
    /// Always `gametrace-tree`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    pub title: Option<String>,
    /// The case the settings below come from.
    pub case: String,
    /// `minimax`, `alphabeta` or `jamboree`.
    pub algorithm: String,
    /// Jamboree's fraction of moves searched in turn; null for the other algorithms.
    pub prune_percentage: Option<f64>,
    /// How many moves the search looks ahead.
    pub depth: u32,
    /// The trace dialect: `s14`, `s12` or `repl`.
    pub dialect: String,
    /// The kinds of trace line the case prints (`enter`, `estimate`, ...).
    pub lines: Vec<String>,
    /// The structure the `repl` dialect names (`val it = 0 : HandoutBig.move`).
    pub sml_structure: String,
    /// `Maxie` or `Minnie`: who moves at the root (turns alternate by level).
    pub root_player: String,
    /// The root's moves' names, by move index (may be empty).
    pub move_names: Vec<String>,
    /// Who moves at each level in turn from the root, `max` or `min` (CS188's Pacman and
    /// ghosts); absent where Maxie and Minnie alternate from `root_player`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    /// `rounds` where `depth` counts rounds of every agent's move (CS188); absent for moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth_unit: Option<String>,
    /// The cs188 dialect's pruning convention, `>` or `>=`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prune_on: Option<String>,
    pub tree: TreeNode,
}

/// A node: children in move order, or a leaf's estimate.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum TreeNode {
    Node {
        name: String,
        /// The name of the move that reaches the node (CS188's action), where the tree names
        /// its moves.
        #[serde(skip_serializing_if = "Option::is_none")]
        action: Option<String>,
        /// `win` or `lose` for a finished position (CS188's win and lose states).
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<String>,
        /// The inner node's static value, if it has one: what a depth-limited search
        /// estimates when it stops there (a number with decimals in a tree that has them).
        #[serde(rename = "static", skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<f64>")]
        static_value: Option<serde_json::Number>,
        /// A chance node's children's probabilities, in move order, as exact fractions
        /// (`"1/3"`).
        #[serde(skip_serializing_if = "Option::is_none")]
        chance: Option<Vec<String>>,
        children: Vec<TreeNode>,
    },
    Leaf {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        action: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<String>,
        /// The leaf's estimate: an integer, or a number with decimals in a tree that has them.
        #[schemars(with = "f64")]
        value: serde_json::Number,
    },
}

impl TreeDocument {
    pub fn of(spec: &Spec, case: &Case) -> TreeDocument {
        TreeDocument {
            format: "gametrace-tree".to_owned(),
            version: 1,
            title: spec.title.clone(),
            case: case.name.clone(),
            algorithm: case.algorithm.name().to_owned(),
            prune_percentage: match case.algorithm {
                Algorithm::Jamboree { prune_percentage } => Some(prune_percentage),
                _ => None,
            },
            depth: case.written_depth(),
            dialect: case.dialect.name().to_owned(),
            lines: case
                .style
                .lines
                .iter_kinds()
                .map(|k| k.name().to_owned())
                .collect(),
            sml_structure: case.style.sml_structure.clone(),
            root_player: case.root_player.name().to_owned(),
            move_names: case.style.move_names.clone(),
            agents: (!spec.tree.agents().is_empty()).then(|| {
                spec.tree
                    .agents()
                    .iter()
                    .map(|p| match p {
                        crate::game::Player::Maxie => "max".to_owned(),
                        crate::game::Player::Minnie => "min".to_owned(),
                    })
                    .collect()
            }),
            depth_unit: (case.depth_unit == crate::spec::DepthUnit::Rounds)
                .then(|| crate::spec::DepthUnit::Rounds.name().to_owned()),
            prune_on: (case.rules == crate::spec::Rules::Cs188)
                .then(|| case.cs188.prune_on.name().to_owned()),
            tree: node(&spec.tree, spec.tree.root()),
        }
    }
}

/// The case's tree and search settings as JSON (one line).
pub fn tree_json(spec: &Spec, case: &Case) -> String {
    let mut s = serde_json::to_string(&TreeDocument::of(spec, case)).unwrap_or_default();
    s.push('\n');
    s
}

/// A tree's value as a JSON number: an integer, or with its decimals.
fn number(tree: &Tree, v: i64) -> serde_json::Number {
    match tree.places() {
        0 => v.into(),
        p => serde_json::Number::from_f64(crate::search::cs188::float_of(
            crate::game::Estimate::Guess(v),
            p,
        ))
        .unwrap_or_else(|| v.into()),
    }
}

/// Recursion is bounded by the tree's height, at most `MAX_HEIGHT`.
fn node(tree: &Tree, id: NodeId) -> TreeNode {
    let action = tree.move_name(id).map(str::to_owned);
    let outcome = tree.outcome(id).map(|o| match o {
        crate::game::Outcome::Winner(crate::game::Player::Maxie) => "win".to_owned(),
        _ => "lose".to_owned(),
    });
    match tree.leaf_value(id) {
        Some(value) => TreeNode::Leaf {
            name: tree.name(id),
            action,
            outcome,
            value: number(tree, value),
        },
        None => TreeNode::Node {
            name: tree.name(id),
            action,
            outcome,
            static_value: tree.inner_static(id).map(|v| number(tree, v)),
            chance: tree
                .chance(id)
                .map(|ps| ps.iter().map(|p| p.to_string()).collect()),
            children: tree.children(id).iter().map(|c| node(tree, c)).collect(),
        },
    }
}

/// The JSON Schema of [`TreeDocument`], as committed in `schema/tree.schema.json`.
pub fn tree_schema() -> String {
    let mut s =
        serde_json::to_string_pretty(&schemars::schema_for!(TreeDocument)).unwrap_or_default();
    s.push('\n');
    s
}

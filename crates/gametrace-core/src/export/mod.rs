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
    pub tree: TreeNode,
}

/// A node: children in move order, or a leaf's estimate.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum TreeNode {
    Node {
        name: String,
        /// The inner node's static value, if it has one: what a depth-limited search
        /// estimates when it stops there.
        #[serde(rename = "static", skip_serializing_if = "Option::is_none")]
        static_value: Option<i64>,
        /// A chance node's children's probabilities, in move order, as exact fractions
        /// (`"1/3"`).
        #[serde(skip_serializing_if = "Option::is_none")]
        chance: Option<Vec<String>>,
        children: Vec<TreeNode>,
    },
    Leaf {
        name: String,
        value: i64,
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
            depth: case.depth,
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

/// Recursion is bounded by the tree's height, at most `MAX_HEIGHT`.
fn node(tree: &Tree, id: NodeId) -> TreeNode {
    match tree.leaf_value(id) {
        Some(value) => TreeNode::Leaf {
            name: tree.name(id),
            value,
        },
        None => TreeNode::Node {
            name: tree.name(id),
            static_value: tree.inner_static(id),
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

//! Trees written out for other programs. JSON (`{tree_json}` in `check --cmd`):
//!
//! ```json
//! {"format": "gametrace-tree", "version": 1, "title": "HandoutSmall", "case": "alphabeta",
//!  "algorithm": "alphabeta", "prune_percentage": null, "depth": 2, "root_player": "Maxie",
//!  "move_names": ["left", "middle", "right"],
//!  "tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c", "value": 3}, ...]}, ...]}}
//! ```
//!
//! An internal node has `name` and `children` (in move order); a leaf has `name` and `value`
//! (its estimate). Turns alternate by level from `root_player`.

use crate::game::tree::{NodeId, Tree};
use crate::search::Algorithm;
use crate::spec::{Case, Spec};
use serde_json::{json, Value};

/// The case's tree and search settings as JSON.
pub fn tree_json(spec: &Spec, case: &Case) -> String {
    let prune = match case.algorithm {
        Algorithm::Jamboree { prune_percentage } => json!(prune_percentage),
        _ => Value::Null,
    };
    let doc = json!({
        "format": "gametrace-tree",
        "version": 1,
        "title": spec.title,
        "case": case.name,
        "algorithm": case.algorithm.name(),
        "prune_percentage": prune,
        "depth": case.depth,
        "root_player": case.root_player.name(),
        "move_names": case.style.move_names,
        "tree": node(&spec.tree, spec.tree.root()),
    });
    let mut s = doc.to_string();
    s.push('\n');
    s
}

/// Recursion is bounded by the tree's height, at most `MAX_HEIGHT`.
fn node(tree: &Tree, id: NodeId) -> Value {
    match tree.leaf_value(id) {
        Some(v) => json!({"name": tree.name(id), "value": v}),
        None => json!({
            "name": tree.name(id),
            "children": tree.children(id).iter().map(|&c| node(tree, c)).collect::<Vec<_>>(),
        }),
    }
}

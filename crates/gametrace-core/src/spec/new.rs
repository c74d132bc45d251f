//! `gametrace new`: a spec with a random tree, written out node by node so it can be edited,
//! with alpha-beta and Jamboree cases ready to bless. The tree is `Tree::generate`'s, so a
//! seed gives the same tree on every machine and version, and the same tree as
//! `tree: {generate: ...}` with the same settings.

use crate::game::tree::{Generate, NodeId, Tree};
use std::fmt::Write as _;

/// The most nodes `new` writes out; bigger trees belong in `tree: {generate: ...}`.
pub const MAX_WRITTEN_NODES: u64 = 100_000;

/// Names other YAML readers (YAML 1.1) take for booleans or null unless quoted.
fn yaml_key(name: &str) -> String {
    let special = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"];
    if special.contains(&name.to_ascii_lowercase().as_str()) {
        format!("'{name}'")
    } else {
        name.to_owned()
    }
}

/// The spec's text.
pub fn spec(g: &Generate) -> String {
    spec_of(g, false)
}

/// The spec's text with a static value on every inner node (MIT 6.034's trees), drawn from
/// the same range as the leaves: what a depth-limited search estimates where it stops.
pub fn spec_with_statics(g: &Generate) -> String {
    spec_of(g, true)
}

/// An inner node's static value: a SplitMix64 draw keyed by the seed and the node, reduced to
/// `min..=max` (fixed here, so it is the same on every machine and version).
pub fn static_value(g: &Generate, id: NodeId) -> i64 {
    let mut z = g.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(
        u64::from(id)
            .wrapping_add(1)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9),
    );
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let span = (i128::from(g.max) - i128::from(g.min) + 1) as u128;
    (i128::from(g.min) + (u128::from(z) % span) as i128) as i64
}

fn spec_of(g: &Generate, statics: bool) -> String {
    let tree = Tree::generate(g);
    let mut out = String::with_capacity(tree.len() * 12 + 512);
    let _ = writeln!(
        out,
        "# Made by `gametrace new --branching {} --depth {} --seed {} --min {} --max {}`.\n\
         # Bless its traces with `gametrace test --bless <this file>`.\n\
         title: Random tree (branching {}, depth {}, seed {}, estimates {} to {})\n\
         tree:",
        g.branching, g.depth, g.seed, g.min, g.max, g.branching, g.depth, g.seed, g.min, g.max
    );
    let statics = statics.then_some(g);
    node(&tree, tree.root(), 1, statics, &mut out);
    out.push_str(
        "cases:\n  alphabeta:\n    algorithm: alphabeta\n  jamboree:\n    algorithm: jamboree\n    prune_percentage: 0.5\n",
    );
    out
}

/// A node as a block (`name:` then its children indented), or, when all its children are
/// leaves, one flow line (`name: {c: 3, d: -2}`). Recursion is bounded by the depth.
fn node(tree: &Tree, id: NodeId, indent: usize, statics: Option<&Generate>, out: &mut String) {
    let pad = "  ".repeat(indent);
    let name = yaml_key(&tree.name(id));
    if let Some(v) = tree.leaf_value(id) {
        let _ = writeln!(out, "{pad}{name}: {v}");
        return;
    }
    let kids = tree.children(id);
    let own = statics.map(|g| static_value(g, id));
    if kids.iter().all(|c| tree.is_leaf(c)) {
        let leaves: Vec<String> = own
            .map(|v| format!("static: {v}"))
            .into_iter()
            .chain(kids.iter().map(|c| {
                format!(
                    "{}: {}",
                    yaml_key(&tree.name(c)),
                    tree.leaf_value(c).unwrap_or(0)
                )
            }))
            .collect();
        let _ = writeln!(out, "{pad}{name}: {{{}}}", leaves.join(", "));
        return;
    }
    let _ = writeln!(out, "{pad}{name}:");
    if let Some(v) = own {
        let _ = writeln!(out, "{pad}  static: {v}");
    }
    for c in kids {
        node(tree, c, indent + 1, statics, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_yaml_might_read_as_booleans_are_quoted() {
        assert_eq!(yaml_key("y"), "'y'");
        assert_eq!(yaml_key("n"), "'n'");
        assert_eq!(yaml_key("x"), "x");
        assert_eq!(yaml_key("ab"), "ab");
    }
}

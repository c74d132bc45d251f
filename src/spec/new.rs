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
    node(&tree, tree.root(), 1, &mut out);
    out.push_str(
        "cases:\n  alphabeta:\n    algorithm: alphabeta\n  jamboree:\n    algorithm: jamboree\n    prune_percentage: 0.5\n",
    );
    out
}

/// A node as a block (`name:` then its children indented), or, when all its children are
/// leaves, one flow line (`name: {c: 3, d: -2}`). Recursion is bounded by the depth.
fn node(tree: &Tree, id: NodeId, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let name = yaml_key(&tree.name(id));
    if let Some(v) = tree.leaf_value(id) {
        let _ = writeln!(out, "{pad}{name}: {v}");
        return;
    }
    let kids = tree.children(id);
    if kids.iter().all(|&c| tree.is_leaf(c)) {
        let leaves: Vec<String> = kids
            .iter()
            .map(|&c| {
                format!(
                    "{}: {}",
                    yaml_key(&tree.name(c)),
                    tree.leaf_value(c).unwrap_or(0)
                )
            })
            .collect();
        let _ = writeln!(out, "{pad}{name}: {{{}}}", leaves.join(", "));
        return;
    }
    let _ = writeln!(out, "{pad}{name}:");
    for &c in kids {
        node(tree, c, indent + 1, out);
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

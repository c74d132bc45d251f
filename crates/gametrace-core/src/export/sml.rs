//! The tree as SML, built the way the course's support code builds its explicit games
//! (HandoutSmall, HandoutBig), so a student can paste it next to them:
//!
//! ```sml
//! structure HandoutSmall : GAME = ExplicitGame (struct
//!   open GameTree
//!   val tree =
//!     Node ("a", [
//!       Node ("b", [Esti ("c", 3), Esti ("d", 6), Esti ("e", ~2)]),
//!       ...
//!     ])
//! end)
//! ```

use crate::game::tree::{NodeId, Tree};
use std::fmt::Write as _;

/// An SML string literal: printable ASCII as is, `"` and `\` escaped, every other byte (UTF-8
/// included) as `\ddd`, which SML/NJ reads back to the same bytes.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for &b in s.as_bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03}");
            }
        }
    }
    out.push('"');
    out
}

fn int(v: i64) -> String {
    if v < 0 {
        // `~9223372036854775808` is out of range for SML's literal parser, as in Rust.
        format!("~{}", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

/// The structure, named `name` (an SML identifier), with a comment saying where it came from.
pub fn structure(tree: &Tree, name: &str, comment: &str) -> String {
    let mut out = String::with_capacity(tree.len() * 24 + 256);
    let comment = comment.replace("*)", "* )").replace("(*", "( *");
    let _ = writeln!(out, "(* {comment} *)");
    let _ = writeln!(out, "structure {name} : GAME = ExplicitGame (struct");
    out.push_str("  open GameTree\n  val tree =\n    ");
    node(tree, tree.root(), 2, &mut out);
    out.push_str("\nend)\n");
    out
}

/// A node; a node whose children are all leaves goes on one line, others one child a line.
/// Recursion is bounded by the tree's height (at most `MAX_HEIGHT`).
fn node(tree: &Tree, id: NodeId, indent: usize, out: &mut String) {
    let name = string_literal(&tree.name(id));
    if let Some(v) = tree.leaf_value(id) {
        let _ = write!(out, "Esti ({name}, {})", int(v));
        return;
    }
    let kids = tree.children(id);
    let _ = write!(out, "Node ({name}, [");
    if kids.iter().all(|c| tree.is_leaf(c)) {
        for (i, c) in kids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            node(tree, c, indent, out);
        }
        out.push_str("])");
        return;
    }
    for (i, c) in kids.iter().enumerate() {
        out.push('\n');
        out.push_str(&"  ".repeat(indent + 1));
        node(tree, c, indent + 1, out);
        if i + 1 < kids.len() {
            out.push(',');
        }
    }
    out.push('\n');
    out.push_str(&"  ".repeat(indent));
    out.push_str("])");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_backslashes_and_non_ascii() {
        assert_eq!(string_literal("a"), "\"a\"");
        assert_eq!(string_literal("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
        // é is the UTF-8 bytes 195 169.
        assert_eq!(string_literal("é"), "\"\\195\\169\"");
    }

    #[test]
    fn negative_numbers_are_written_with_a_tilde() {
        assert_eq!(int(-2), "~2");
        assert_eq!(int(i64::MIN), "~9223372036854775808");
    }
}

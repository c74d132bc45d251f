//! The tree in the terminal: one node per line, children in move order under box-drawing
//! branches, and a case's search in a column to the right.
//!
//! ```text
//! ▲ a  =4                        (-∞,+∞) → 4
//! ├── [left] ▼ b  =-2            (-∞,+∞) → -2
//! │   ├── ■ c  3                 (-∞,+∞) est 3
//! ```

use super::{estimate_text_in, Bound, Outcome, Picture, Visit};
use crate::diff::Palette;
use crate::game::tree::NodeId;
use crate::game::Player;
use anstyle::{AnsiColor, Effects, Style};

/// Where the search column starts at most, so that deep trees stay within 80 columns.
const MAX_SEARCH_COLUMN: usize = 44;

pub fn draw(p: &Picture, palette: Palette) -> String {
    // Depth-first in move order without recursion (trees may be 200 levels deep): each
    // entry is a node, its row's text, and the prefix its children's rows start with.
    let root = p.tree.root();
    let mut lefts: Vec<(String, NodeId)> = Vec::with_capacity(p.tree.len());
    let mut stack: Vec<(NodeId, String, String)> = vec![(root, node_text(p, root), String::new())];
    while let Some((id, left, prefix)) = stack.pop() {
        lefts.push((left, id));
        let kids = p.tree.children(id);
        for (i, c) in kids.iter().enumerate().rev() {
            let last = i + 1 == kids.len();
            let chosen = p.on_path(id) && p.on_path(c);
            let branch = match (last, chosen) {
                (false, false) => "├── ",
                (true, false) => "└── ",
                (false, true) => "┝━━ ",
                (true, true) => "┕━━ ",
            };
            let named = p.tree.names_moves() || (id == root && p.move_names.get(i).is_some());
            let label = if named {
                format!("[{}] ", p.move_label(id, i))
            } else {
                String::new()
            };
            let left = format!("{prefix}{branch}{label}{}", node_text(p, c));
            let below = format!("{prefix}{}", if last { "    " } else { "│   " });
            stack.push((c, left, below));
        }
    }

    let mut out = String::new();
    if let Some(t) = p.title {
        out.push_str(&palette.paint(Style::new().effects(Effects::BOLD), t));
        out.push('\n');
    }
    out.push_str("▲ Maxie  ▼ Minnie  ■ leaf and its estimate  =v minimax value\n");
    if p.tree.has_chance() {
        out.push_str("◆ chance node: its value is the expectation, rounded\n");
    }
    let column = match &p.search {
        None => 0,
        Some(s) => {
            let names = if p.move_names.is_empty() {
                String::new()
            } else {
                p.chosen_name(s.chosen)
            };
            out.push_str(&format!(
                "case {}: {}, {} rules\nvalue {}, move {}{names}; {} terminals; {} of {} nodes visited\n",
                s.case,
                s.algorithm,
                s.rules.name(),
                s.value.map_or("none".to_owned(), |e| p.value_text(e)),
                s.chosen.map_or("none".to_owned(), |i| p.chosen_label(i)),
                s.terminals,
                s.nodes_visited(),
                p.tree.len(),
            ));
            out.push_str(
                "(α,β) bounds on entry  → result  est estimate  ✂ pruned  ━ chosen  · not reached\n",
            );
            let widest = lefts
                .iter()
                .map(|(l, _)| l.chars().count())
                .max()
                .unwrap_or(0);
            widest.min(MAX_SEARCH_COLUMN) + 2
        }
    };
    out.push('\n');
    let dim = Style::new().effects(Effects::DIMMED);
    for (left, id) in &lefts {
        let search = p.search.as_ref().map(|s| match s.visited(*id) {
            Some(v) => visit_text(v, p.tree.places()),
            None => "· not reached".to_owned(),
        });
        let reached = p.search.as_ref().is_none_or(|s| s.visited(*id).is_some());
        let mut line = if reached {
            if p.on_path(*id) {
                palette.paint(Style::new().effects(Effects::BOLD), left)
            } else {
                left.clone()
            }
        } else {
            palette.paint(dim, left)
        };
        if let Some(text) = search {
            let pad = column.saturating_sub(left.chars().count()).max(2);
            line.push_str(&" ".repeat(pad));
            let style = if !reached {
                dim
            } else if text.contains('✂') || text.contains("Prune") {
                Style::new().fg_color(Some(AnsiColor::Yellow.into()))
            } else {
                Style::new()
            };
            line.push_str(&palette.paint(style, &text));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `▲ a  =4` or `■ c  3`.
fn node_text(p: &Picture, id: NodeId) -> String {
    let name = p.tree.name(id);
    match p.tree.leaf_value(id) {
        Some(v) => format!(
            "■ {name}  {}",
            p.value_text(crate::game::Estimate::Guess(v))
        ),
        None => {
            let glyph = match p.player(id) {
                _ if p.is_chance(id) => '◆',
                Player::Maxie => '▲',
                Player::Minnie => '▼',
            };
            format!("{glyph} {name}  ={}", p.value_text(p.minimax[id as usize]))
        }
    }
}

fn bound_text(b: Bound, low: bool, places: u8) -> String {
    match b {
        Bound::Value(e) => estimate_text_in(e, places),
        // S12's Pruned is the lowest alpha and the highest beta.
        Bound::Pruned if low => "-∞".to_owned(),
        Bound::Pruned => "+∞".to_owned(),
    }
}

/// `(-∞,3) est 6 → Pruned`, `(-2,+∞) → 4 ✂`.
pub fn visit_text(v: &Visit, places: u8) -> String {
    let mut parts = Vec::new();
    if let Some((a, b)) = v.bounds {
        parts.push(format!(
            "({},{})",
            bound_text(a, true, places),
            bound_text(b, false, places)
        ));
    }
    if let Some(e) = v.estimate {
        parts.push(format!("est {}", estimate_text_in(e, places)));
    }
    match v.result {
        // A leaf's own estimate as its value says nothing new.
        Some(Outcome::Value { value, cut: false }) if Some(value) == v.estimate => {}
        Some(Outcome::Value { value, cut }) => parts.push(format!(
            "→ {}{}",
            estimate_text_in(value, places),
            if cut { " ✂" } else { "" }
        )),
        Some(Outcome::Pruned) => parts.push("→ Pruned".to_owned()),
        Some(Outcome::ParentPrune) => parts.push("→ ParentPrune".to_owned()),
        None => {}
    }
    parts.join(" ")
}

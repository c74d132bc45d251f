//! The tree as an SVG picture in the handouts' style: Maxie ▲ and Minnie ▼ as triangles,
//! leaves as squares holding their estimates, node names, move labels on the edges, and a
//! case's search on top (bounds and results under each node, unreached nodes greyed, the
//! chosen path in red, Jamboree's parallel children on dashed edges), and a legend.
//!
//! Layout: every node owns a column as wide as the widest label; leaves take columns left to
//! right in move order and a parent sits centred over its first and last child. So no two
//! nodes overlap whatever the tree's shape, and the picture grows linearly with the tree
//! (constant elements per node; width in proportion to the leaves).

use super::terminal::visit_text;
use super::Picture;
use crate::game::tree::NodeId;
use crate::game::Player;
use std::fmt::Write as _;

const FONT: f64 = 11.0;
const SMALL: f64 = 9.5;
/// A generous average glyph width of DejaVu Sans / Helvetica, as a fraction of the size.
const CHAR: f64 = 0.62;
const GLYPH: f64 = 13.0;
const LINE: f64 = 12.5;
const MARGIN: f64 = 20.0;
const PATH_COLOUR: &str = "#c0392b";
const GREY: &str = "#b0b0b0";
/// A check's marks: the node where an output first parts from the reference (a colour
/// nothing else in a drawing uses, so a screenshot can find it), and the nodes it named.
pub const DIVERGENCE_FILL: &str = "#ffd400";
const DIVERGENCE_STROKE: &str = "#c8102e";
const VISITED_FILL: &str = "#cdeccd";
const CURRENT_FILL: &str = "#d6e6ff";
const CURRENT_STROKE: &str = "#1f5fbf";

/// The lines of text under a node.
fn labels(p: &Picture, id: NodeId) -> Vec<String> {
    let name = p.tree.name(id);
    let mut lines = vec![match p.tree.leaf_value(id) {
        Some(_) => name,
        None => format!("{name} ={}", p.value_text(p.minimax[id as usize])),
    }];
    if let Some(s) = &p.search {
        match s.visited(id) {
            // Bounds on one line, what came of them on the next.
            Some(v) => {
                let text = visit_text(v, p.tree.places());
                match text.split_once(") ") {
                    Some((bounds, rest)) => {
                        lines.push(format!("{bounds})"));
                        lines.push(rest.to_owned());
                    }
                    None => lines.push(text),
                }
            }
            None => lines.push("not reached".to_owned()),
        }
    }
    lines
}

fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * CHAR
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Where everything goes: each node's lines of text and column, the levels' spacing, the
/// legend, and the picture's size.
struct Layout {
    labels: Vec<Vec<String>>,
    x: Vec<f64>,
    /// The root's centre line, and the distance from one level's to the next.
    top: f64,
    level_gap: f64,
    width: f64,
    height: f64,
    legend_y: f64,
    legend: Vec<(Legend, f64)>,
}

impl Layout {
    fn of(p: &Picture) -> Layout {
        let tree = p.tree;
        let n = tree.len();
        let labels: Vec<Vec<String>> = (0..n as NodeId).map(|id| labels(p, id)).collect();
        let widest = labels
            .iter()
            .flatten()
            .map(|l| text_width(l, SMALL))
            .chain((0..n as NodeId).filter_map(|id| {
                tree.leaf_value(id)
                    .map(|v| text_width(&p.value_text(crate::game::Estimate::Guess(v)), FONT) + 8.0)
            }))
            .fold(2.0 * GLYPH, f64::max);
        let column = widest + 12.0;
        let lines_below = labels.iter().map(Vec::len).max().unwrap_or(1) as f64;
        let level_gap = 2.0 * GLYPH + lines_below * LINE + 44.0;
        let (x, columns) = columns(p, column);
        let header = match (p.title, &p.search) {
            (None, None) => 0.0,
            (Some(_), None) | (None, Some(_)) => 1.0,
            (Some(_), Some(_)) => 2.0,
        } * 18.0;
        let top = MARGIN + header + GLYPH;
        let height_levels = p.levels.iter().copied().max().unwrap_or(0);
        let width = 2.0 * MARGIN + columns.max(1) as f64 * column;
        let legend_y =
            top + f64::from(height_levels) * level_gap + GLYPH + lines_below * LINE + 24.0;
        let legend = legend(p);
        let width = width.max(2.0 * MARGIN + legend.iter().map(|(_, w)| w).sum::<f64>());
        let height = legend_y + GLYPH + MARGIN;
        Layout {
            labels,
            x,
            top,
            level_gap,
            width,
            height,
            legend_y,
            legend,
        }
    }

    /// The centre line of node `id`'s level.
    fn y(&self, p: &Picture, id: NodeId) -> f64 {
        self.top + f64::from(p.levels[id as usize]) * self.level_gap
    }
}

/// Each node's x, and how many columns the leaves take: leaves in preorder take successive
/// columns of width `column`; parents centre over their children (children have higher ids,
/// so a reverse sweep sees them first).
fn columns(p: &Picture, column: f64) -> (Vec<f64>, usize) {
    let tree = p.tree;
    let n = tree.len();
    let mut x = vec![0.0f64; n];
    let mut next_column = 0usize;
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        if tree.is_leaf(id) {
            x[id as usize] = MARGIN + (next_column as f64 + 0.5) * column;
            next_column += 1;
        }
        stack.extend(tree.children(id).iter().rev());
    }
    for id in (0..n as NodeId).rev() {
        if let (Some(first), Some(last)) = (tree.children(id).first(), tree.children(id).last()) {
            x[id as usize] = (x[first as usize] + x[last as usize]) / 2.0;
        }
    }
    (x, next_column)
}

/// Did the search reach node `id` (every node, without a search)?
fn reached(p: &Picture, id: NodeId) -> bool {
    p.search.as_ref().is_none_or(|o| o.visited(id).is_some())
}

pub fn draw(p: &Picture) -> String {
    let at = Layout::of(p);
    let n = p.tree.len();
    let mut s = String::with_capacity(n * 420 + 1024);
    let (width, height) = (at.width, at.height);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
<rect width="100%" height="100%" fill="white"/>
<style>.halo {{ paint-order: stroke; stroke: white; stroke-width: 3px; stroke-linejoin: round; }}</style>
"##
    );
    header(&mut s, p);
    // Edges first, so nodes and labels sit on top of them.
    s.push_str("<g stroke-linecap=\"round\">\n");
    for id in 0..n as NodeId {
        edges(&mut s, p, &at, id);
    }
    s.push_str("</g>\n");
    for id in 0..n as NodeId {
        node(&mut s, p, &at, id);
    }
    legend_row(&mut s, &at);
    s.push_str("</g>\n</svg>\n");
    s
}

/// The title, and the search's outcome.
fn header(s: &mut String, p: &Picture) {
    let mut header_y = MARGIN + 12.0;
    if let Some(t) = p.title {
        let _ = writeln!(
            s,
            r#"<text x="{MARGIN}" y="{header_y}" font-size="13" font-weight="bold">{}</text>"#,
            escape(t)
        );
        header_y += 18.0;
    }
    if let Some(o) = &p.search {
        let _ = writeln!(
            s,
            r#"<text x="{MARGIN}" y="{header_y}" font-size="{SMALL}">case {} ({}, {} rules): value {}, move {}{}; {} terminals; {} of {} nodes visited</text>"#,
            escape(&o.case),
            escape(&o.algorithm),
            o.rules.name(),
            // Stepping through a search, the root's value and move come only at its end.
            o.value
                .map_or("not known yet".to_owned(), |e| p.value_text(e)),
            o.chosen
                .map_or("not chosen yet".to_owned(), |i| p.chosen_label(i)),
            escape(&p.chosen_name(o.chosen)),
            o.terminals,
            o.nodes_visited(),
            p.tree.len()
        );
    }
}

/// The edges from node `id` to its children, each with its move's label halfway down.
fn edges(s: &mut String, p: &Picture, at: &Layout, id: NodeId) {
    let tree = p.tree;
    for (i, c) in tree.children(id).iter().enumerate() {
        // From under the parent's labels, so no edge crosses a label.
        let below = at.labels[id as usize].len() as f64 * LINE + 6.0;
        let (x1, y1, x2, y2) = (
            at.x[id as usize],
            at.y(p, id) + GLYPH + below,
            at.x[c as usize],
            at.y(p, c) - GLYPH,
        );
        let parallel = p
            .search
            .as_ref()
            .is_some_and(|o| o.in_parallel(i, tree.children(id).len()));
        let dash = if parallel {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let (colour, w) = if p.on_path(id) && p.on_path(c) {
            (PATH_COLOUR, 3.0)
        } else if reached(p, c) {
            ("#333333", 1.2)
        } else {
            (GREY, 1.2)
        };
        let _ = writeln!(
            s,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{colour}" stroke-width="{w}"{dash}/>"#
        );
        // The move label halfway down, beside the edge.
        let (lx, ly) = (x1 + (x2 - x1) * 0.5, y1 + (y2 - y1) * 0.5 + 3.0);
        let _ = writeln!(
            s,
            r#"<text class="halo" x="{:.1}" y="{ly:.1}" font-size="{SMALL}" fill="{}" text-anchor="middle">{}</text>"#,
            lx + if x2 >= x1 { 7.0 } else { -7.0 },
            if reached(p, c) { "#555555" } else { GREY },
            escape(&p.move_label(id, i))
        );
    }
}

/// Node `id`: a check's mark under it, its shape, and its lines of text.
fn node(s: &mut String, p: &Picture, at: &Layout, id: NodeId) {
    let tree = p.tree;
    let (cx, cy) = (at.x[id as usize], at.y(p, id));
    let on = reached(p, id);
    let stroke = if p.on_path(id) {
        PATH_COLOUR
    } else if on {
        "#222222"
    } else {
        GREY
    };
    let ink = if on { "#000000" } else { GREY };
    let sw = if p.on_path(id) { 2.5 } else { 1.3 };
    // A check's marks go under the node: a ring where the output first parts from the
    // reference, a light disc under each node the output named.
    let class = if p.current == Some(id) {
        r#" class="current""#
    } else if p.marked_divergence(id) {
        r#" class="divergence""#
    } else if p.marked_visited(id) {
        r#" class="visited""#
    } else {
        ""
    };
    let _ = writeln!(
        s,
        r#"<g id="node-{id}"{class}><title>{}</title>"#,
        escape(&tree.name(id))
    );
    if p.current == Some(id) {
        let _ = writeln!(
            s,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{CURRENT_FILL}" stroke="{CURRENT_STROKE}" stroke-width="3"/>"#,
            GLYPH * 2.3
        );
    } else if p.marked_divergence(id) {
        let _ = writeln!(
            s,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{DIVERGENCE_FILL}" stroke="{DIVERGENCE_STROKE}" stroke-width="3"/>"#,
            GLYPH * 2.3
        );
    } else if p.marked_visited(id) {
        let _ = writeln!(
            s,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{VISITED_FILL}"/>"#,
            GLYPH * 1.8
        );
    }
    match tree.leaf_value(id) {
        Some(v) => {
            let value = p.value_text(crate::game::Estimate::Guess(v));
            let half = (text_width(&value, FONT) + 8.0).max(2.0 * GLYPH) / 2.0;
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="white" stroke="{stroke}" stroke-width="{sw}"/><text x="{cx:.1}" y="{:.1}" font-size="{FONT}" text-anchor="middle" fill="{ink}">{value}</text>"#,
                cx - half,
                cy - GLYPH,
                2.0 * half,
                2.0 * GLYPH,
                cy + FONT * 0.35,
            );
        }
        None => {
            let (apex, base) = match p.player(id) {
                Player::Maxie => (cy - GLYPH, cy + GLYPH),
                Player::Minnie => (cy + GLYPH, cy - GLYPH),
            };
            let fill = match (p.player(id), on) {
                (Player::Maxie, true) => "#dbe9f7",
                (Player::Minnie, true) => "#f7e3d4",
                (_, false) => "#f2f2f2",
            };
            let _ = writeln!(
                s,
                r#"<polygon points="{cx:.1},{apex:.1} {:.1},{base:.1} {:.1},{base:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}" stroke-linejoin="round"/>"#,
                cx - GLYPH * 1.15,
                cx + GLYPH * 1.15,
            );
        }
    }
    for (k, line) in at.labels[id as usize].iter().enumerate() {
        let colour = if !on {
            GREY
        } else if line.contains('✂') || line.contains("Prune") {
            "#b35900"
        } else if k == 0 {
            "#000000"
        } else {
            "#444444"
        };
        let weight = if k == 0 { "bold" } else { "normal" };
        let _ = writeln!(
            s,
            r#"<text class="halo" x="{cx:.1}" y="{:.1}" font-size="{SMALL}" font-weight="{weight}" fill="{colour}" text-anchor="middle">{}</text>"#,
            cy + GLYPH + 4.0 + (k as f64 + 1.0) * LINE - 2.0,
            escape(line)
        );
    }
    s.push_str("</g>\n");
}

/// The legend: one row along the bottom (its group left open for `draw` to close).
fn legend_row(s: &mut String, at: &Layout) {
    let _ = writeln!(s, r#"<g id="legend" font-size="{SMALL}">"#);
    let mut lx = MARGIN;
    for (item, w) in &at.legend {
        let (cx, cy) = (lx + GLYPH * 0.8, at.legend_y);
        let tx = lx + 2.0 * GLYPH;
        let _ = writeln!(
            s,
            r#"{}<text x="{tx:.1}" y="{:.1}">{}</text>"#,
            item.mark(cx, cy),
            cy + 3.5,
            escape(item.text())
        );
        lx += w;
    }
}

/// What the legend explains.
#[derive(Clone, Copy)]
enum Legend {
    Maxie,
    Minnie,
    Leaf,
    Path,
    Unreached,
    Parallel,
    Visited,
    Divergence,
    Current,
}

impl Legend {
    /// The legend's mark for the item, centred at (`cx`, `cy`).
    fn mark(self, cx: f64, cy: f64) -> String {
        match self {
            Legend::Maxie => format!(
                r##"<polygon points="{cx:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#dbe9f7" stroke="#222222"/>"##,
                cy - 7.0,
                cx - 8.0,
                cy + 7.0,
                cx + 8.0,
                cy + 7.0
            ),
            Legend::Minnie => format!(
                r##"<polygon points="{cx:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#f7e3d4" stroke="#222222"/>"##,
                cy + 7.0,
                cx - 8.0,
                cy - 7.0,
                cx + 8.0,
                cy - 7.0
            ),
            Legend::Leaf => format!(
                r##"<rect x="{:.1}" y="{:.1}" width="14" height="14" fill="white" stroke="#222222"/>"##,
                cx - 7.0,
                cy - 7.0
            ),
            Legend::Path => format!(
                r#"<line x1="{:.1}" y1="{cy:.1}" x2="{:.1}" y2="{cy:.1}" stroke="{PATH_COLOUR}" stroke-width="3"/>"#,
                cx - 9.0,
                cx + 9.0
            ),
            Legend::Unreached => format!(
                r#"<line x1="{:.1}" y1="{cy:.1}" x2="{:.1}" y2="{cy:.1}" stroke="{GREY}" stroke-width="1.2"/>"#,
                cx - 9.0,
                cx + 9.0
            ),
            Legend::Visited => {
                format!(r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="9" fill="{VISITED_FILL}"/>"#)
            }
            Legend::Divergence => format!(
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="9" fill="{DIVERGENCE_FILL}" stroke="{DIVERGENCE_STROKE}" stroke-width="2"/>"#
            ),
            Legend::Current => format!(
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="9" fill="{CURRENT_FILL}" stroke="{CURRENT_STROKE}" stroke-width="2"/>"#
            ),
            Legend::Parallel => format!(
                r##"<line x1="{:.1}" y1="{cy:.1}" x2="{:.1}" y2="{cy:.1}" stroke="#333333" stroke-width="1.2" stroke-dasharray="6 4"/>"##,
                cx - 12.0,
                cx + 12.0
            ),
        }
    }

    fn text(self) -> &'static str {
        match self {
            Legend::Maxie => "Maxie (=v: minimax value)",
            Legend::Minnie => "Minnie",
            Legend::Leaf => "leaf and its estimate",
            Legend::Path => "chosen path",
            Legend::Unreached => "not reached",
            Legend::Parallel => "searched in parallel (after Jamboree's sequential share)",
            Legend::Visited => "named by the output",
            Legend::Divergence => "where the output first parts from the reference",
            Legend::Current => "the state of the line shown",
        }
    }
}

/// The legend's items for this picture, each with the width it takes.
fn legend(p: &Picture) -> Vec<(Legend, f64)> {
    let mut items = vec![Legend::Maxie, Legend::Minnie, Legend::Leaf];
    if let Some(o) = &p.search {
        items.extend([Legend::Path, Legend::Unreached]);
        if o.jamboree.is_some() {
            items.push(Legend::Parallel);
        }
    }
    if p.current.is_some() {
        items.push(Legend::Current);
    }
    if let Some(m) = &p.marks {
        items.push(Legend::Visited);
        if m.divergence.is_some() {
            items.push(Legend::Divergence);
        }
    }
    items
        .into_iter()
        .map(|i| (i, 2.0 * GLYPH + text_width(i.text(), SMALL) + 18.0))
        .collect()
}

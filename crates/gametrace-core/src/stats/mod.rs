//! `gametrace stats`: how much each search does on a tree, and how much of it must happen
//! one step after another. Read off the same overlay a drawing uses. A game spec's figures
//! (its game-state tree and each search's counts) are in [`game`].
//!
//! Every node a search enters costs one unit. **Work** is the units in all; **span** is the
//! longest chain of units that must run in order: a node's span is 1, plus the spans of its
//! children searched one after another, plus the longest span among its children searched in
//! parallel (minimax: all in parallel; alpha-beta: all in turn; Jamboree: the first
//! floor(prune_percentage * n) in turn, the rest in parallel). This is the handout's
//! work–span trade-off: minimax does the most work in the least span, alpha-beta the least
//! work in the most span, and Jamboree sits between.

pub mod facts;
pub mod game;

use crate::draw::Overlay;
use crate::game::tree::NodeId;
use crate::search::{sequential_count, Algorithm};
use crate::spec::{Case, Spec};
use serde::Serialize;

/// One search's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// `case alphabeta`, or the algorithm for the sweep rows.
    pub search: String,
    pub algorithm: &'static str,
    pub prune_percentage: Option<f64>,
    pub rules: &'static str,
    pub nodes_visited: usize,
    pub terminals_visited: u64,
    pub work: u64,
    pub span: u64,
    /// The search's counts in other sources' conventions. On a tree they follow from the
    /// nodes and terminals: no position is reached twice, and every leaf or cutoff is one
    /// static evaluation.
    pub counts: crate::search::counts::Counts,
}

/// The prune percentages the sweep shows for Jamboree.
pub const SWEEP: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Each case, then minimax, alpha-beta and Jamboree at each of [`SWEEP`] on the whole tree
/// (under the first case's rules, root player and depth).
pub fn table(spec: &Spec) -> Vec<Row> {
    let mut rows: Vec<Row> = spec
        .cases
        .iter()
        .map(|c| row(spec, c, format!("case {}", c.name)))
        .collect();
    // Minimax, alpha-beta and Jamboree cannot search chance nodes: no sweep on such trees.
    if let Some(first) = spec.cases.first().filter(|_| !spec.tree.has_chance()) {
        let mut algorithms = vec![Algorithm::Minimax, Algorithm::AlphaBeta];
        algorithms.extend(SWEEP.iter().map(|&p| Algorithm::Jamboree {
            prune_percentage: p,
        }));
        for algorithm in algorithms {
            let case = Case {
                algorithm,
                ..first.clone()
            };
            rows.push(row(spec, &case, label(algorithm)));
        }
    }
    rows
}

fn label(a: Algorithm) -> String {
    match a {
        Algorithm::Jamboree { prune_percentage } => format!("jamboree {prune_percentage}"),
        a => a.name().to_owned(),
    }
}

/// The figures of one case's search.
pub fn row(spec: &Spec, case: &Case, search: String) -> Row {
    let overlay = Overlay::of(spec, case);
    let (work, span) = work_span(spec, case.algorithm, &overlay);
    Row {
        search,
        algorithm: case.algorithm.name(),
        prune_percentage: match case.algorithm {
            Algorithm::Jamboree { prune_percentage } => Some(prune_percentage),
            _ => None,
        },
        rules: case.rules.name(),
        nodes_visited: overlay.nodes_visited(),
        terminals_visited: overlay.terminals,
        work,
        span,
        counts: crate::search::counts::Counts {
            nodes_entered: overlay.nodes_visited() as u64,
            aima_expanded_nodes: (overlay.nodes_visited() as u64).saturating_sub(1),
            mit_static_evaluations: overlay.terminals,
            cs188_expanded_states: overlay.nodes_visited() as u64,
        },
    }
}

/// Work and span of a search, bottom up over the nodes it visited (children have higher ids).
fn work_span(spec: &Spec, algorithm: Algorithm, overlay: &Overlay) -> (u64, u64) {
    let tree = &spec.tree;
    let mut span = vec![0u64; tree.len()];
    for id in (0..tree.len() as NodeId).rev() {
        if overlay.visited(id).is_none() {
            continue;
        }
        let kids = tree.children(id);
        let in_turn = sequential_count(algorithm, kids.len());
        let sequential: u64 = kids.iter().take(in_turn).map(|c| span[c as usize]).sum();
        let parallel = kids
            .iter()
            .skip(in_turn)
            .map(|c| span[c as usize])
            .max()
            .unwrap_or(0);
        span[id as usize] = 1 + sequential + parallel;
    }
    (overlay.nodes_visited() as u64, span[tree.root() as usize])
}

/// A table for people.
pub fn human(spec: &Spec, rows: &[Row]) -> String {
    let leaves = (0..spec.tree.len() as NodeId)
        .filter(|&id| spec.tree.is_leaf(id))
        .count();
    let mut out = format!(
        "{}: {} nodes, {} leaves, height {}\n",
        spec.title.as_deref().unwrap_or("tree"),
        spec.tree.len(),
        leaves,
        spec.tree.height()
    );
    let width = rows
        .iter()
        .map(|r| r.search.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    out.push_str(&format!(
        "{:<width$}  {:>5}  {:>9}  {:>5}  {:>5}\n",
        "search", "nodes", "terminals", "work", "span"
    ));
    for r in rows {
        out.push_str(&format!(
            "{:<width$}  {:>5}  {:>9}  {:>5}  {:>5}\n",
            r.search, r.nodes_visited, r.terminals_visited, r.work, r.span
        ));
    }
    out.push_str("work: nodes entered; span: the longest chain of them that must run in order\n");
    out.push_str("other sources' counts (--format json gives each): AIMA's expanded nodes = nodes - 1, MIT 6.034's static evaluations = terminals, CS188's expanded states = nodes\n");
    out
}

/// `search,algorithm,prune_percentage,rules,nodes_visited,terminals_visited,work,span`.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "search,algorithm,prune_percentage,rules,nodes_visited,terminals_visited,work,span\n",
    );
    for r in rows {
        let quoted = if r.search.contains([',', '"', '\n']) {
            format!("\"{}\"", r.search.replace('"', "\"\""))
        } else {
            r.search.clone()
        };
        out.push_str(&format!(
            "{quoted},{},{},{},{},{},{},{}\n",
            r.algorithm,
            r.prune_percentage.map_or(String::new(), |p| p.to_string()),
            r.rules,
            r.nodes_visited,
            r.terminals_visited,
            r.work,
            r.span
        ));
    }
    out
}

/// Each case's coverage of the mistake catalogue.
pub fn coverage(spec: &Spec) -> Vec<(String, crate::check::coverage::Coverage)> {
    spec.cases
        .iter()
        .map(|case| {
            let subject = crate::check::trace::TreeCase { spec, case };
            (case.name.clone(), crate::check::coverage::of(&subject))
        })
        .collect()
}

/// The coverage as the table's closing section: what each case would let a mistaken program
/// pass with, and which mistakes it cannot tell apart.
pub fn coverage_human(coverage: &[(String, crate::check::coverage::Coverage)]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "\nCoverage: the catalogued mistakes (`gametrace bugs`) each case catches and tells apart\n",
    );
    let width = coverage.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, c) in coverage {
        let _ = write!(
            out,
            "  {name:<width$}  {} of {} caught, {} told apart",
            c.caught(),
            c.applicable.len(),
            c.distinguished()
        );
        if !c.missed.is_empty() {
            let _ = write!(out, "; a program with {} passes", c.missed.join(", "));
        }
        for group in &c.alike {
            let _ = write!(out, "; {} print the same trace", group.join(" and "));
        }
        for group in &c.inseparable {
            let _ = write!(
                out,
                "; {} print the same trace on every tree",
                group.join(" and ")
            );
        }
        out.push('\n');
    }
    out
}

pub fn json(spec: &Spec, rows: &[Row]) -> String {
    let coverage: Vec<serde_json::Value> = coverage(spec)
        .into_iter()
        .map(|(name, c)| {
            serde_json::json!({
                "case": name,
                "applicable": c.applicable,
                "missed": c.missed,
                "alike": c.alike,
                "inseparable": c.inseparable,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "spec": spec.path.display().to_string(),
        "title": spec.title,
        "nodes": spec.tree.len(),
        "height": spec.tree.height(),
        "searches": rows,
        "coverage": coverage,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn small() -> Spec {
        let text = "tree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\ncases: {ab: {algorithm: alphabeta}}\n";
        match crate::spec::load_str(Path::new("t.yaml"), text).unwrap() {
            crate::spec::Document::Tree(s) => s,
            _ => unreachable!(),
        }
    }

    fn figures(rows: &[Row], search: &str) -> (u64, u64) {
        let r = rows.iter().find(|r| r.search == search).unwrap();
        (r.work, r.span)
    }

    #[test]
    fn work_and_span_on_the_small_handout_tree_as_worked_by_hand() {
        let rows = table(&small());
        // Minimax: all 13 nodes, and the longest chain is a path of 3.
        assert_eq!(figures(&rows, "minimax"), (13, 3));
        // Alpha-beta: l and m are cut (11 nodes), all in turn: span = work.
        assert_eq!(figures(&rows, "alphabeta"), (11, 11));
        // Jamboree 0.5: one of three children in turn, two in parallel, at every node:
        // b, f, j each 1 + 1 + 1 = 3; a = 1 + 3 + max(3, 3) = 7. Nothing is cut.
        assert_eq!(figures(&rows, "jamboree 0.5"), (13, 7));
        // 0.75: two in turn. b = f = 1+1+1+1 = 4; j is entered with alpha 4 and cut after
        // k (span 2); a = 1 + 4 + 4 + 2 = 11, visiting 11 nodes: alpha-beta's figures.
        assert_eq!(figures(&rows, "jamboree 0.75"), (11, 11));
        // 0.25 rounds down to none in turn: minimax. 0 and 1 are minimax and alpha-beta.
        assert_eq!(figures(&rows, "jamboree 0.25"), (13, 3));
        assert_eq!(figures(&rows, "jamboree 0"), (13, 3));
        assert_eq!(figures(&rows, "jamboree 1"), (11, 11));
        assert_eq!(figures(&rows, "case ab"), (11, 11));
    }

    #[test]
    fn csv_has_a_header_and_a_row_per_search() {
        let rows = table(&small());
        let text = csv(&rows);
        assert_eq!(text.lines().count(), 1 + 1 + 7);
        assert!(
            text.contains("\njamboree 0.5,jamboree,0.5,s14,13,9,13,7\n"),
            "{text}"
        );
    }
}

//! `gametrace stats` of a game spec: the game-state tree of its position under CSC148's
//! starter names, and what each search case finds and how much it searches.

use super::facts::{self, SearchFacts, TreeFacts};
use crate::game::state_tree::{python_dict, Limits};
use crate::game::Playable;
use crate::spec::GameSpec;
use serde::Serialize;
use std::time::Duration;

/// A game spec's figures.
#[derive(Clone, Debug, Serialize)]
pub struct GameStats {
    pub spec: String,
    pub title: Option<String>,
    pub game: &'static str,
    /// The position as traces label it, and who moves.
    pub position: String,
    pub to_move: &'static str,
    /// `null` with `game_state_tree_error` when the tree is past the limits.
    pub game_state_tree: Option<TreeFacts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_state_tree_error: Option<String>,
    pub searches: Vec<SearchFacts>,
}

/// Measures `spec`'s position (within `limits`) and runs each search case (each within its
/// `time_limit`, else `limit`).
pub fn stats<G: Playable>(spec: &GameSpec<G>, limits: Limits, limit: Duration) -> GameStats {
    let game = &spec.game;
    let start = game.start();
    let mut position = String::new();
    game.write_label(&start, &mut position);
    let player = game.player(&start);
    let (tree, error) =
        match crate::search::deadline::within(game, limit, |g| TreeFacts::of(g, limits)) {
            Ok(Ok(t)) => (Some(t), None),
            Ok(Err(e)) => (None, Some(e.to_string())),
            Err(t) => (None, Some(format!("the count {t}"))),
        };
    GameStats {
        spec: spec.path.display().to_string(),
        title: spec.title.clone(),
        game: game.name(),
        position,
        to_move: game.player_name(player),
        game_state_tree: tree,
        game_state_tree_error: error,
        searches: spec
            .cases
            .iter()
            .filter(|c| facts::is_search(&c.case))
            .map(|c| facts::search(&c.game, &c.case, Some(c.case.time_limit.unwrap_or(limit))))
            .collect(),
    }
}

/// [`stats`] of whichever game `doc` is: not generic, so the command line compiles no search
/// of its own (see [`crate::run::trace_named`]).
pub fn of_document(doc: &crate::spec::GameDocument, limits: Limits, limit: Duration) -> GameStats {
    crate::with_game_spec!(doc, s => stats(s, limits, limit))
}

pub fn json(s: &GameStats) -> String {
    let mut out = serde_json::to_string_pretty(s).unwrap_or_default();
    out.push('\n');
    out
}

/// The measures, one per row: `measure,value` (maps and lists as Python prints them).
pub fn csv(s: &GameStats) -> String {
    let mut out = String::from("measure,value\n");
    for (name, value) in measures(s) {
        let quoted = if value.contains([',', '"']) {
            format!("\"{}\"", value.replace('"', "\"\""))
        } else {
            value
        };
        out.push_str(&format!("{name},{quoted}\n"));
    }
    out
}

/// Each measure's name and value as the starter's functions print them.
fn measures(s: &GameStats) -> Vec<(&'static str, String)> {
    let Some(t) = &s.game_state_tree else {
        return Vec::new();
    };
    let past = || "more than 2^128 - 1 nodes, too many to count".to_owned();
    let or_past = |v: Option<String>| v.unwrap_or_else(past);
    vec![
        ("node_count", or_past(t.node_count.map(|n| n.to_string()))),
        ("leaf_count", or_past(t.leaf_count.map(|n| n.to_string()))),
        ("distinct_node_count", t.distinct_node_count.to_string()),
        ("distinct_leaf_count", t.distinct_leaf_count.to_string()),
        (
            "branching_stats",
            or_past(t.branching_stats.as_ref().map(python_dict)),
        ),
        (
            "outcome_counts",
            or_past(t.outcome_counts.map(|[a, b, c]| format!("[{a}, {b}, {c}]"))),
        ),
        (
            "game_lengths",
            or_past(t.game_lengths.as_ref().map(python_dict)),
        ),
        (
            "game_descriptions",
            match (&t.game_descriptions, t.leaf_count) {
                (Some(d), _) => format!("{} games", d.len()),
                (None, Some(n)) => format!("{n} games (too many to list)"),
                (None, None) => past(),
            },
        ),
    ]
}

/// A table for people.
pub fn human(s: &GameStats) -> String {
    let mut out = format!(
        "{}: {} at {}, {} to move\n",
        s.title.as_deref().unwrap_or(&s.spec),
        s.game,
        s.position,
        s.to_move
    );
    out.push_str("game-state tree (every game from the position):\n");
    match &s.game_state_tree_error {
        Some(e) => out.push_str(&format!("  cannot count it: {e}\n")),
        None => {
            for (name, value) in measures(s) {
                out.push_str(&format!("  {name:<20} {value}\n"));
            }
        }
    }
    if s.searches.is_empty() {
        return out;
    }
    let width = s
        .searches
        .iter()
        .map(|f| f.case.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    // The longest algorithm name (expectiminimax) sets the column, as the case names do.
    let alg = s
        .searches
        .iter()
        .map(|f| f.algorithm.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    out.push_str(&format!(
        "{:<width$}  {:<alg$}  {:>5}  {:>12}  {:>10}  {:<12}  equally good\n",
        "case", "algorithm", "depth", "searched", "table hits", "value"
    ));
    for f in &s.searches {
        if f.timed_out {
            out.push_str(&format!(
                "{:<width$}  {:<alg$}  timed out\n",
                f.case, f.algorithm
            ));
            continue;
        }
        let depth = f.depth.map_or("end".to_owned(), |d| d.to_string());
        let searched = f.positions_searched.or(f.terminals_visited).unwrap_or(0);
        let hits = f.table_hits.map_or("-".to_owned(), |h| h.to_string());
        let again = match f.re_searches {
            Some(n) if n > 0 => format!(
                " ({n} aspiration re-search{})",
                if n == 1 { "" } else { "es" }
            ),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{:<width$}  {:<alg$}  {:>5}  {:>12}  {:>10}  {:<12}  {}{again}\n",
            f.case,
            f.algorithm,
            depth,
            searched,
            hits,
            f.value.as_deref().unwrap_or("-"),
            f.equally_good.join(", ")
        ));
    }
    out.push_str("searched: positions searched (CSC148, CS10) or terminals visited (15-150); table hits: positions answered from memoization's table\n");
    let counted: Vec<_> = s
        .searches
        .iter()
        .filter_map(|f| Some((&f.case, f.counts?)))
        .collect();
    if !counted.is_empty() {
        out.push_str(&format!(
            "\n{:<width$}  {:>14}  {:>14}  {:>14}  {:>14}\n",
            "counts", "nodes entered", "AIMA expanded", "MIT static ev", "CS188 states"
        ));
        for (case, c) in counted {
            out.push_str(&format!(
                "{case:<width$}  {:>14}  {:>14}  {:>14}  {:>14}\n",
                c.nodes_entered,
                c.aima_expanded_nodes,
                c.mit_static_evaluations,
                c.cs188_expanded_states
            ));
        }
        out.push_str("AIMA expanded: aima-java's expandedNodes (every state but the root); MIT static ev: 6.034's static evaluations (endgame scores and heuristic calls); CS188 states: distinct states generated, the start included\n");
    }
    out
}

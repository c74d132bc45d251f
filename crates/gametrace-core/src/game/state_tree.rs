//! CSC148's game-state trees (A3 option B): the tree of every game from a position, and the
//! starter module's measures of it, under the starter's function names.
//!
//! The counts are taken without building the tree: positions are expanded one game length
//! at a time, each distinct position of a length once, carrying how many tree nodes it
//! stands for (the number of ways to reach it in that many moves). Memory is one length's
//! positions plus the set of distinct ones; a tree of 10^13 nodes (Tippy 4×4) costs no more
//! than its few million positions. Only `game_descriptions` walks the games one by one, and
//! it refuses past [`MAX_DESCRIBED`] games.

use super::{Game, Outcome, StateKey, Status};
use hashbrown::{HashMap, HashSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// The measures, in the starter module's order and under its names.
pub const METRICS: [&str; 8] = [
    "node_count",
    "leaf_count",
    "distinct_node_count",
    "distinct_leaf_count",
    "branching_stats",
    "outcome_counts",
    "game_lengths",
    "game_descriptions",
];

/// The most games `game_descriptions` lists.
pub const MAX_DESCRIBED: u128 = 10_000;

/// A game-state tree's measures. Counts are exact (128-bit).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Measures {
    pub node_count: u128,
    pub leaf_count: u128,
    pub distinct_node_count: u64,
    pub distinct_leaf_count: u64,
    /// Branching factor -> how many nodes have it (leaves have 0).
    pub branching_stats: BTreeMap<usize, u128>,
    /// [p1 wins, p2 wins, ties] over the leaves.
    pub outcome_counts: [u128; 3],
    /// Game length in moves -> how many games have it.
    pub game_lengths: BTreeMap<usize, u128>,
    /// The tree has more than 2^128 - 1 nodes: the counts of nodes, leaves, branchings,
    /// outcomes and lengths stopped there (the distinct counts are exact).
    pub overflow: bool,
}

/// The measures that count paths through the tree, which overflow on huge trees.
pub const PATH_COUNTS: [&str; 5] = [
    "node_count",
    "leaf_count",
    "branching_stats",
    "outcome_counts",
    "game_lengths",
];

/// Why a tree could not be measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// More distinct positions than the limit.
    Positions(u64),
    /// Longer games than the limit.
    Length(usize),
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooLarge::Positions(n) => write!(f, "the tree has more than {n} distinct positions"),
            TooLarge::Length(n) => write!(f, "a game is longer than {n} moves"),
        }
    }
}

/// Limits on a measurement.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub positions: u64,
    pub length: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            positions: 20_000_000,
            length: 1_000_000,
        }
    }
}

/// `a += b`, stopping at the largest count (and saying so in `overflow`).
fn add(a: &mut u128, b: u128, overflow: &mut bool) {
    *a = a.checked_add(b).unwrap_or_else(|| {
        *overflow = true;
        u128::MAX
    });
}

/// Index in `outcome_counts`: p1 (Maxie) wins, p2 wins, tie.
fn outcome_index<G: Game>(game: &G, state: &G::State) -> usize {
    match game.status(state) {
        Status::Over(Outcome::Winner(crate::game::Player::Maxie)) => 0,
        Status::Over(Outcome::Winner(crate::game::Player::Minnie)) => 1,
        // A position in play with no move ends the game with no winner.
        _ => 2,
    }
}

/// Is this a leaf of the game-state tree (the game is over, or no move is left)?
fn is_leaf<G: Game>(game: &G, state: &G::State) -> bool {
    matches!(game.status(state), Status::Over(_)) || game.moves(state).len() == 0
}

/// Measures the tree of every game from `game`'s start.
pub fn measure<G: Game>(game: &G, limits: Limits) -> Result<Measures, TooLarge> {
    let mut m = Measures {
        node_count: 0,
        leaf_count: 0,
        distinct_node_count: 0,
        distinct_leaf_count: 0,
        branching_stats: BTreeMap::new(),
        outcome_counts: [0; 3],
        game_lengths: BTreeMap::new(),
        overflow: false,
    };
    let mut over = false;
    let mut seen: HashSet<StateKey> = HashSet::new();
    // The positions reached in `length` moves, each with how many ways it is reached.
    let mut layer: HashMap<StateKey, (G::State, u128)> = HashMap::new();
    let root = game.start();
    layer.insert(game.key(&root), (root, 1));
    let mut length = 0;
    while !layer.is_empty() {
        if length > limits.length {
            return Err(TooLarge::Length(limits.length));
        }
        let mut next: HashMap<StateKey, (G::State, u128)> = HashMap::new();
        for (key, (state, ways)) in layer {
            // The moves are listed once: a game's status is the costly part of a position.
            let moves = match game.status(&state) {
                Status::Over(_) => None,
                Status::InPlay => Some(game.moves(&state)).filter(|m| m.len() > 0),
            };
            let leaf = moves.is_none();
            if seen.insert(key) {
                m.distinct_node_count += 1;
                if m.distinct_node_count > limits.positions {
                    return Err(TooLarge::Positions(limits.positions));
                }
                if leaf {
                    m.distinct_leaf_count += 1;
                }
            }
            add(&mut m.node_count, ways, &mut over);
            let branching = moves.as_ref().map_or(0, |m| m.len());
            add(
                m.branching_stats.entry(branching).or_insert(0),
                ways,
                &mut over,
            );
            let Some(moves) = moves else {
                add(&mut m.leaf_count, ways, &mut over);
                add(
                    &mut m.outcome_counts[outcome_index(game, &state)],
                    ways,
                    &mut over,
                );
                add(m.game_lengths.entry(length).or_insert(0), ways, &mut over);
                continue;
            };
            for mv in moves {
                let child = game.play(&state, mv);
                let k = game.key(&child);
                match next.get_mut(&k) {
                    Some((_, w)) => add(w, ways, &mut over),
                    None => {
                        next.insert(k, (child, ways));
                    }
                }
            }
        }
        layer = next;
        length += 1;
    }
    m.overflow = over;
    Ok(m)
}

/// Every game from the start, as the starter writes it: `p1:6 -> p2:5 -> p1:4 -> p2:0 = p1
/// wins!` (a tie ends `= tie!`), in move order. `Err(n)` when there are `n` > [`MAX_DESCRIBED`].
pub fn descriptions<G: Game>(game: &G, games: u128) -> Result<Vec<String>, u128> {
    if games > MAX_DESCRIBED {
        return Err(games);
    }
    let mut out = Vec::new();
    let mut path = Vec::new();
    describe(game, &game.start(), &mut path, &mut out);
    Ok(out)
}

fn describe<G: Game>(game: &G, state: &G::State, path: &mut Vec<String>, out: &mut Vec<String>) {
    let mut label = String::new();
    game.write_label(state, &mut label);
    path.push(label);
    if is_leaf(game, state) {
        let end = match outcome_index(game, state) {
            0 => "p1 wins!",
            1 => "p2 wins!",
            _ => "tie!",
        };
        out.push(format!("{} = {end}", path.join(" -> ")));
    } else {
        for mv in game.moves(state) {
            describe(game, &game.play(state, mv), path, out);
        }
    }
    path.pop();
}

/// `{0: 4, 1: 6, 2: 3}`, as Python prints a dict.
pub fn python_dict(d: &BTreeMap<usize, u128>) -> String {
    let items: Vec<String> = d.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", items.join(", "))
}

/// The lines a `game_state_tree` case prints: `node_count: 13`, ... in [`METRICS`] order, the
/// chosen ones only; descriptions one per line as `game_description: ...`.
pub fn report<G: Game>(game: &G, chosen: &[&str], limits: Limits) -> String {
    let m = match measure(game, limits) {
        Ok(m) => m,
        Err(e) => return format!("cannot measure the game-state tree: {e}\n"),
    };
    let mut out = String::new();
    for &name in METRICS.iter().filter(|n| chosen.contains(n)) {
        if m.overflow && PATH_COUNTS.contains(&name) {
            out.push_str(&format!(
                "{name}: more than 2^128 - 1 nodes, too many to count\n"
            ));
            continue;
        }
        let line = match name {
            "node_count" => m.node_count.to_string(),
            "leaf_count" => m.leaf_count.to_string(),
            "distinct_node_count" => m.distinct_node_count.to_string(),
            "distinct_leaf_count" => m.distinct_leaf_count.to_string(),
            "branching_stats" => python_dict(&m.branching_stats),
            "outcome_counts" => {
                let [a, b, c] = m.outcome_counts;
                format!("[{a}, {b}, {c}]")
            }
            "game_lengths" => python_dict(&m.game_lengths),
            _ => {
                match descriptions(game, m.leaf_count) {
                    Ok(all) => {
                        for d in all {
                            out.push_str("game_description: ");
                            out.push_str(&d);
                            out.push('\n');
                        }
                    }
                    Err(n) => out.push_str(&format!(
                        "game_descriptions: {n} games, too many to list (at most {MAX_DESCRIBED})\n"
                    )),
                }
                continue;
            }
        };
        out.push_str(name);
        out.push_str(": ");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::subtract_square::SubtractSquare;
    use crate::game::Player;

    #[test]
    fn the_starters_doctests_from_p1_6() {
        let g = SubtractSquare::new(6, Player::Maxie);
        let m = measure(&g, Limits::default()).unwrap();
        assert_eq!(m.node_count, 13);
        assert_eq!(m.leaf_count, 4);
        assert_eq!(m.distinct_node_count, 10);
        assert_eq!(m.distinct_leaf_count, 2);
        assert_eq!(python_dict(&m.branching_stats), "{0: 4, 1: 6, 2: 3}");
        assert_eq!(m.outcome_counts, [3, 1, 0]);
        assert_eq!(python_dict(&m.game_lengths), "{3: 3, 6: 1}");
        assert_eq!(
            descriptions(&g, m.leaf_count).unwrap(),
            [
                // Depth first, the largest square first, as the course's starter lists moves.
                "p1:6 -> p2:2 -> p1:1 -> p2:0 = p1 wins!",
                "p1:6 -> p2:5 -> p1:1 -> p2:0 = p1 wins!",
                "p1:6 -> p2:5 -> p1:4 -> p2:0 = p1 wins!",
                "p1:6 -> p2:5 -> p1:4 -> p2:3 -> p1:2 -> p2:1 -> p1:0 = p2 wins!",
            ]
        );
    }

    #[test]
    fn counts_agree_with_walking_every_game() {
        // The layered count against a plain recursive walk, on every start up to 25.
        fn walk(g: &SubtractSquare, s: &crate::game::subtract_square::SsState) -> (u128, u128) {
            if is_leaf(g, s) {
                return (1, 1);
            }
            g.moves(s).fold((1, 0), |(n, l), m| {
                let (cn, cl) = walk(g, &g.play(s, m));
                (n + cn, l + cl)
            })
        }
        for total in 0..=25 {
            let g = SubtractSquare::new(total, Player::Minnie);
            let m = measure(&g, Limits::default()).unwrap();
            assert_eq!(
                (m.node_count, m.leaf_count),
                walk(&g, &g.start()),
                "{total}"
            );
            assert_eq!(m.game_lengths.values().sum::<u128>(), m.leaf_count);
            assert_eq!(m.branching_stats.values().sum::<u128>(), m.node_count);
        }
    }

    #[test]
    fn limits_are_reported_not_exceeded() {
        let g = SubtractSquare::new(40, Player::Maxie);
        let small = Limits {
            positions: 10,
            length: 1000,
        };
        assert_eq!(measure(&g, small), Err(TooLarge::Positions(10)));
        assert!(descriptions(&g, MAX_DESCRIBED + 1).is_err());
    }
}

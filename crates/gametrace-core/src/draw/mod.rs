//! Pictures of a tree, as the handouts draw them (Maxie ▲, Minnie ▼, leaves as squares with
//! their estimates), optionally with one case's search laid over it: which nodes it visited,
//! the bounds each was entered with, its result, where it pruned and the move it chose.
//!
//! [`Picture`] is what every drawing shows; [`terminal`] and [`svg`] only lay it out. The
//! overlay is built from the searcher's event stream ([`overlay`]), like every trace.

pub mod overlay;
pub mod steps;
pub mod svg;
pub mod terminal;

use crate::game::tree::{NodeId, Tree};
use crate::game::{Estimate, Player};
use crate::spec::{Case, Spec};
pub use overlay::{Bound, Outcome, Overlay, Visit};

/// A tree and what to write on it.
pub struct Picture<'s> {
    pub title: Option<&'s str>,
    pub tree: &'s Tree,
    pub root_player: Player,
    /// The root's move names (by move index), for the root's edges.
    pub move_names: &'s [String],
    /// Each node's minimax value over the whole tree (a leaf's is its estimate).
    pub minimax: Vec<Estimate>,
    /// Each node's distance from the root.
    pub levels: Vec<u32>,
    /// The player to move at each node (a chance node's is the one who moves after nature).
    pub players: Vec<Player>,
    pub search: Option<Overlay>,
    /// What a check marks on the tree: the nodes an output visited and where it first parts
    /// from the reference.
    pub marks: Option<Marks>,
    /// Stepping through a search one trace line at a time: the node of the line shown.
    pub current: Option<NodeId>,
}

/// The marks of a check on a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The nodes the output's lines name.
    pub visited: Vec<NodeId>,
    /// The node of the first divergence.
    pub divergence: Option<NodeId>,
}

impl<'s> Picture<'s> {
    /// The tree of `spec`; with a case, its search too (and its root player and move names;
    /// without one, the first case's).
    pub fn new(spec: &'s Spec, case: Option<&'s Case>) -> Picture<'s> {
        let shown = case.or(spec.cases.first());
        let root_player = shown.map_or(Player::Maxie, |c| c.root_player);
        let move_names = shown.map_or(&[][..], |c| &c.style.move_names[..]);
        let levels = spec.tree.levels();
        let players = players(&spec.tree, root_player);
        Picture {
            title: spec.title.as_deref(),
            tree: &spec.tree,
            root_player,
            move_names,
            minimax: minimax_values(&spec.tree, &players),
            levels,
            players,
            search: case.map(|c| Overlay::of(spec, c)),
            marks: None,
            current: None,
        }
    }

    /// The tree of `spec` as `case` plays it (its root player and move names), without the
    /// reference's search, with a check's `marks`: what a report shows a student.
    pub fn marked(spec: &'s Spec, case: &'s Case, marks: Marks) -> Picture<'s> {
        let levels = spec.tree.levels();
        let players = players(&spec.tree, case.root_player);
        Picture {
            title: spec.title.as_deref(),
            tree: &spec.tree,
            root_player: case.root_player,
            move_names: &case.style.move_names,
            minimax: minimax_values(&spec.tree, &players),
            levels,
            players,
            search: None,
            marks: Some(marks),
            current: None,
        }
    }

    /// Did the checked output visit this node?
    pub fn marked_visited(&self, id: NodeId) -> bool {
        self.marks.as_ref().is_some_and(|m| m.visited.contains(&id))
    }

    /// Is this the node of the first divergence?
    pub fn marked_divergence(&self, id: NodeId) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|m| m.divergence == Some(id))
    }

    pub fn player(&self, id: NodeId) -> Player {
        self.players[id as usize]
    }

    /// Is this node a chance node?
    pub fn is_chance(&self, id: NodeId) -> bool {
        self.tree.chance(id).is_some()
    }

    /// The move label of the edge into `child`, the `index`th child of its parent: the move
    /// name at the root when there is one, else the tree's name for the move (its action),
    /// else the index.
    pub fn move_label(&self, parent: NodeId, index: usize) -> String {
        let action = self
            .tree
            .children(parent)
            .get(index)
            .and_then(|c| self.tree.move_name(c));
        match (self.move_names.get(index), action) {
            (Some(name), _) if parent == self.tree.root() => name.clone(),
            (_, Some(action)) => action.to_owned(),
            _ => index.to_string(),
        }
    }

    /// The root's move `i` as a drawing's header names it: the tree's name for it (its
    /// action), else its index.
    pub fn chosen_label(&self, i: usize) -> String {
        let root = self.tree.root();
        match self
            .tree
            .children(root)
            .get(i)
            .and_then(|c| self.tree.move_name(c))
        {
            Some(name) => name.to_owned(),
            None => i.to_string(),
        }
    }

    /// A value as this tree's drawings show it (with its decimals, if it has them).
    pub fn value_text(&self, e: Estimate) -> String {
        estimate_text_in(e, self.tree.places())
    }

    /// `[middle]` after a chosen move index, when the root's moves have names.
    pub fn chosen_name(&self, chosen: Option<usize>) -> String {
        match chosen.and_then(|i| self.move_names.get(i)) {
            Some(name) => format!("[{name}]"),
            None => String::new(),
        }
    }

    /// Is this node on the path the search chose?
    pub fn on_path(&self, id: NodeId) -> bool {
        self.search.as_ref().is_some_and(|s| s.path.contains(&id))
    }
}

/// Each node's player, top down, as [`crate::game::tree::TreeGame`] plays them.
fn players(tree: &Tree, root_player: Player) -> Vec<Player> {
    tree.players(root_player)
}

/// Minimax over the whole tree, bottom up (children have higher ids than their parent); a
/// chance node's value is its expectation (expectiminimax), rounded to a whole number.
fn minimax_values(tree: &Tree, players: &[Player]) -> Vec<Estimate> {
    use crate::game::Probability;
    let mut values = vec![Estimate::Draw; tree.len()];
    for id in (0..tree.len() as NodeId).rev() {
        values[id as usize] = match tree.leaf_value(id) {
            Some(v) => Estimate::Guess(v),
            // A win or lose state is worth its value, whatever lies below it.
            None if tree.outcome(id).is_some() => {
                Estimate::Guess(tree.static_value(id).unwrap_or(0))
            }
            None => {
                let kids = tree.children(id).iter().map(|c| values[c as usize]);
                if let Some(ps) = tree.chance(id) {
                    let mean: Probability = kids
                        .zip(ps)
                        .map(|(v, p)| crate::search::expectimax::exact(v) * p)
                        .sum();
                    Estimate::Guess(i64::try_from(mean.round().to_integer()).unwrap_or(0))
                } else {
                    let best = if players[id as usize] == Player::Maxie {
                        kids.max()
                    } else {
                        kids.min()
                    };
                    best.unwrap_or(Estimate::Draw)
                }
            }
        };
    }
    values
}

/// An estimate as a drawing shows it: `3`, `-2`, `+∞` (Maxie wins), `-∞` (Minnie wins).
pub fn estimate_text(e: Estimate) -> String {
    estimate_text_in(e, 0)
}

/// [`estimate_text`] for a tree whose values have `places` decimal places: `3.01`.
pub fn estimate_text_in(e: Estimate, places: u8) -> String {
    match e {
        Estimate::Guess(n) if places > 0 => {
            let mut s = String::new();
            crate::search::cs188::write_float(
                &mut s,
                crate::search::cs188::float_of(Estimate::Guess(n), places),
            );
            s
        }
        Estimate::Guess(n) => n.to_string(),
        Estimate::Draw => "0".to_owned(),
        Estimate::MaxieWins => "+∞".to_owned(),
        Estimate::MinnieWins => "-∞".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn spec(text: &str) -> Spec {
        match crate::spec::load_str(Path::new("t.yaml"), text).unwrap() {
            crate::spec::Document::Tree(s) => s,
            _ => unreachable!(),
        }
    }

    #[test]
    fn minimax_values_follow_the_players() {
        // S14 Figure 5: b = min(3,6,-2) = -2, f = 4, j = 1, a = max = 4.
        let s = spec("tree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\ncases: {ab: {algorithm: alphabeta}}\n");
        let p = Picture::new(&s, None);
        let v: Vec<String> = p.minimax.iter().map(|&e| estimate_text(e)).collect();
        assert_eq!(v[0], "4");
        assert_eq!(
            (v[1].as_str(), v[5].as_str(), v[9].as_str()),
            ("-2", "4", "1")
        );
        // With Minnie at the root: b = 6, f = 10, j = 30; a = min = 6.
        let s = spec("root_player: Minnie\ntree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\ncases: {ab: {algorithm: alphabeta}}\n");
        let p = Picture::new(&s, None);
        assert_eq!(estimate_text(p.minimax[0]), "6");
        assert_eq!(p.player(1), Player::Maxie);
    }
}

//! Iterative deepening's move order: each depth may try the root's moves best first, by what
//! the previous depth found (aima-java's `IterativeDeepeningAlphaBetaSearch` keeps its root
//! actions sorted by their last values; alpha-beta then cuts more).
//!
//! The order is kept by a [`Game`] adapter ([`Ordered`]), so every searcher and printer runs
//! unchanged: the adapter lists the searched position's moves in the new order, and a move
//! still prints as itself (`Step(1, ...)` names move 1 whatever its place in the order).

use crate::game::{Estimate, Game, Player};

/// The root's moves, by index in the game's move order, best first by their values searched
/// `depth` deep (each exactly, with a full window: the values do not depend on the order or
/// on the searcher). Equal values keep the game's order, as aima-java's `ActionStore` does.
pub fn best_first<G: Game>(game: &G, depth: u32) -> Vec<usize> {
    let root = game.start();
    let values: Vec<Estimate> = game
        .moves(&root)
        .map(|m| super::exact_value(game, &game.play(&root, m), depth.saturating_sub(1)))
        .collect();
    let mut order: Vec<usize> = (0..values.len()).collect();
    match game.player(&root) {
        Player::Maxie => order.sort_by(|&a, &b| values[b].cmp(&values[a])),
        Player::Minnie => order.sort_by(|&a, &b| values[a].cmp(&values[b])),
    }
    order
}

/// `game` with the start position's moves tried in `order` (indices in the game's move
/// order); every other position's moves, and everything else, are the game's. A position
/// equal to the start met again deeper down (PopOut can repeat one) is ordered the same way.
pub struct Ordered<'g, G: Game> {
    game: &'g G,
    root: G::State,
    moves: Vec<G::Move>,
}

impl<'g, G: Game> Ordered<'g, G> {
    /// `order` must be a permutation of the start position's move indices; `None` keeps the
    /// game's order.
    pub fn new(game: &'g G, order: Option<&[usize]>) -> Self {
        let root = game.start();
        let moves = match order {
            None => Vec::new(),
            Some(order) => {
                let all: Vec<G::Move> = game.moves(&root).collect();
                order.iter().map(|&i| all[i]).collect()
            }
        };
        Ordered { game, root, moves }
    }
}

/// The moves of a position under [`Ordered`]: the game's own (`I`), or the start's in the
/// new order.
pub enum OrderedMoves<'a, I, M> {
    Game(I),
    Root(std::iter::Copied<std::slice::Iter<'a, M>>),
}

impl<I: Iterator<Item = M>, M: Copy> Iterator for OrderedMoves<'_, I, M> {
    type Item = M;
    #[inline]
    fn next(&mut self) -> Option<M> {
        match self {
            OrderedMoves::Game(m) => m.next(),
            OrderedMoves::Root(m) => m.next(),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            OrderedMoves::Game(m) => m.size_hint(),
            OrderedMoves::Root(m) => m.size_hint(),
        }
    }
}

impl<I: ExactSizeIterator<Item = M>, M: Copy> ExactSizeIterator for OrderedMoves<'_, I, M> {}

/// A position's moves in the game's order.
impl<I, M> From<I> for OrderedMoves<'_, I, M> {
    fn from(moves: I) -> Self {
        OrderedMoves::Game(moves)
    }
}

/// Lists the start's moves in the new order; the rest is the game's.
impl<G: Game> crate::game::Delegate for Ordered<'_, G> {
    type Inner = G;
    type State = G::State;
    type Moves<'a>
        = OrderedMoves<'a, G::Moves<'a>, G::Move>
    where
        Self: 'a;

    fn inner(&self) -> &G {
        self.game
    }
    fn moves<'a>(&'a self, state: &G::State) -> Self::Moves<'a> {
        if !self.moves.is_empty() && *state == self.root {
            OrderedMoves::Root(self.moves.iter().copied())
        } else {
            OrderedMoves::Game(self.game.moves(state))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tree::{Tree, TreeGame};

    fn tree(yaml: &str) -> Tree {
        let source = format!("tree:\n{yaml}\ncases: {{m: {{algorithm: minimax}}}}\n");
        match crate::spec::load_str(std::path::Path::new("t.yaml"), &source) {
            Ok(crate::spec::Document::Tree(spec)) => spec.tree,
            other => panic!("not a tree spec: {other:?}"),
        }
    }

    #[test]
    fn maxie_tries_the_best_move_first_and_ties_keep_the_game_order() {
        // Root values at depth 2: b = min(1, 5) = 1, c = min(4, 6) = 4, d = min(4, 9) = 4.
        let t = tree("  a:\n    b: {e: 1, f: 5}\n    c: {g: 4, h: 6}\n    d: {i: 4, j: 9}");
        let g = TreeGame::new(&t, Player::Maxie);
        assert_eq!(best_first(&g, 2), vec![1, 2, 0]);
        // Minnie at the root: b = max(1, 5) = 5, c = 6, d = 9: lowest first, as they are.
        let g = TreeGame::new(&t, Player::Minnie);
        assert_eq!(best_first(&g, 2), vec![0, 1, 2]);
    }

    #[test]
    fn the_start_lists_its_moves_in_the_order_and_others_do_not_change() {
        let t = tree("  a:\n    b: {e: 1, f: 5}\n    c: {g: 4, h: 6}\n    d: {i: 4, j: 9}");
        let g = TreeGame::new(&t, Player::Maxie);
        let o = Ordered::new(&g, Some(&[2, 0, 1]));
        let root = o.start();
        let shown: Vec<String> = o.moves(&root).map(|m| m.to_string()).collect();
        assert_eq!(shown, ["2", "0", "1"]);
        assert_eq!(o.moves(&root).len(), 3);
        let b = o.play(&root, g.moves(&root).next().unwrap());
        let under_b: Vec<String> = o.moves(&b).map(|m| m.to_string()).collect();
        assert_eq!(under_b, ["0", "1"]);
        let kept = Ordered::new(&g, None);
        let shown: Vec<String> = kept.moves(&root).map(|m| m.to_string()).collect();
        assert_eq!(shown, ["0", "1", "2"]);
    }
}

//! The counting conventions of other sources, measured on any search.
//!
//! gametrace's own count is "terminals visited" (15-150), or CSC148's positions searched.
//! Other references count differently, and a student checked against them must be told the
//! same number:
//!
//! | name | source | what it counts |
//! |---|---|---|
//! | `nodes_entered` | plain | every state the search visits, the root included |
//! | `aima_expanded_nodes` | aima-java's `expandedNodes` metric | each call of `maxValue`/`minValue`: every state visited except the root, which `makeDecision` handles itself |
//! | `mit_static_evaluations` | MIT 6.034 lab 3 | each endgame score plus each heuristic call at the depth cutoff |
//! | `cs188_expanded_states` | Berkeley CS188's multiagent autograder | the set of states `generateSuccessor` produced, started with the start state: distinct states, so a position reached twice counts once |
//!
//! All four are measured at the game, not in the searchers: [`Counted`] wraps a game and
//! counts each successor generated (`play`), each heuristic estimate and each endgame score,
//! and keeps the set of states generated. Every searcher generates a child exactly when it
//! descends into it, so the counts hold for every searcher and rule set.

use crate::game::{Estimate, Game, Outcome, Player, StateKey};
use serde::Serialize;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A search's counts in each convention (see the module's table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub nodes_entered: u64,
    pub aima_expanded_nodes: u64,
    pub mit_static_evaluations: u64,
    pub cs188_expanded_states: u64,
}

impl Counts {
    /// The names `stats` prints, with what each counts.
    pub const CONVENTIONS: [(&'static str, &'static str); 4] = [
        ("nodes_entered", "every state visited, the root included"),
        (
            "aima_expanded_nodes",
            "aima-java's expandedNodes: calls of maxValue/minValue (every state but the root)",
        ),
        (
            "mit_static_evaluations",
            "MIT 6.034: endgame scores plus heuristic calls at the cutoff",
        ),
        (
            "cs188_expanded_states",
            "CS188's autograder: distinct states generated, the start included",
        ),
    ];
}

/// `game`, counting what the conventions count. Everything else is the game's.
pub struct Counted<'g, G> {
    game: &'g G,
    generated: AtomicU64,
    evaluations: AtomicU64,
    states: Mutex<Seen>,
}

/// The distinct states generated so far. Small packed keys (an explicit tree's node numbers,
/// Nim's heaps, tic-tac-toe's boards) are bits in a bitset, a bit per key and player: a
/// 10⁷-node tree's set is a few MB rather than the hundreds a hash set of keys takes. Every
/// other key goes in the hash set.
#[derive(Default)]
struct Seen {
    bits: Vec<u64>,
    ones: u64,
    keys: HashSet<StateKey>,
}

impl Seen {
    /// Packed keys below this are bits (at most 2 × 2²⁶ bits: 16 MB).
    const DENSE: u128 = 1 << 26;

    fn insert(&mut self, key: StateKey) {
        match key {
            StateKey::Packed(n, p) if n < Self::DENSE => {
                let bit = (n as usize) * 2 + usize::from(p == Player::Minnie);
                let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                if word >= self.bits.len() {
                    self.bits.resize((word + 1).next_power_of_two(), 0);
                }
                if self.bits[word] & mask == 0 {
                    self.bits[word] |= mask;
                    self.ones += 1;
                }
            }
            other => {
                self.keys.insert(other);
            }
        }
    }

    fn len(&self) -> u64 {
        self.ones + self.keys.len() as u64
    }
}

impl<'g, G: Game> Counted<'g, G> {
    pub fn new(game: &'g G) -> Self {
        let mut seen = Seen::default();
        seen.insert(game.key(&game.start()));
        Counted {
            game,
            generated: AtomicU64::new(0),
            evaluations: AtomicU64::new(0),
            states: Mutex::new(seen),
        }
    }

    /// The counts so far.
    pub fn counts(&self) -> Counts {
        let generated = self.generated.load(Ordering::Relaxed);
        let distinct = self.states.lock().map_or(0, |s| s.len());
        Counts {
            nodes_entered: generated + 1,
            aima_expanded_nodes: generated,
            mit_static_evaluations: self.evaluations.load(Ordering::Relaxed),
            cs188_expanded_states: distinct,
        }
    }
}

/// Counts what the search generates and evaluates; the rest is the game's.
impl<G: Game> crate::game::Delegate for Counted<'_, G> {
    type Inner = G;
    type State = G::State;
    type Moves<'a>
        = G::Moves<'a>
    where
        Self: 'a;

    fn inner(&self) -> &G {
        self.game
    }
    fn play(&self, state: &G::State, mv: G::Move) -> G::State {
        self.generated.fetch_add(1, Ordering::Relaxed);
        let next = self.game.play(state, mv);
        if let Ok(mut seen) = self.states.lock() {
            seen.insert(self.game.key(&next));
        }
        next
    }
    fn estimate(&self, state: &G::State) -> Estimate {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        self.game.estimate(state)
    }
    fn utility(&self, state: &G::State, outcome: Outcome) -> Estimate {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        self.game.utility(state, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tree::{TreeBuilder, TreeGame};
    use crate::search::{s14, Algorithm, NullSink};

    #[test]
    fn small_and_large_keys_are_each_counted_once() {
        let mut seen = Seen::default();
        let big = Seen::DENSE + 5;
        for key in [
            StateKey::Packed(3, Player::Maxie),
            StateKey::Packed(3, Player::Minnie),
            StateKey::Packed(3, Player::Maxie),
            StateKey::Packed(1000, Player::Maxie),
            StateKey::Packed(big, Player::Maxie),
            StateKey::Packed(big, Player::Maxie),
            StateKey::Packed(Seen::DENSE - 1, Player::Minnie),
            StateKey::Text(Player::Maxie, "a".into()),
            StateKey::Text(Player::Maxie, "a".into()),
        ] {
            seen.insert(key);
        }
        // (3, Maxie), (3, Minnie), (1000, Maxie), (big, Maxie), (DENSE - 1, Minnie), "a".
        assert_eq!(seen.len(), 6);
    }

    #[test]
    fn handout_small_counts_by_hand() {
        // a: {b: {c, d, e}, f: {g, h, i}, j: {k, l, m}}: 13 nodes, 9 leaves.
        let mut b = TreeBuilder::new();
        b.open("a");
        for (inner, leaves) in [
            ("b", ["c", "d", "e"]),
            ("f", ["g", "h", "i"]),
            ("j", ["k", "l", "m"]),
        ] {
            b.open(inner);
            for (i, l) in leaves.iter().enumerate() {
                b.leaf(l, i as i64);
            }
            b.close();
        }
        b.close();
        let tree = b.finish();
        let game = TreeGame::new(&tree, Player::Maxie);
        let counted = Counted::new(&game);
        s14::search(&counted, 2, Algorithm::Minimax, &mut NullSink);
        assert_eq!(
            counted.counts(),
            Counts {
                nodes_entered: 13,
                aima_expanded_nodes: 12,
                mit_static_evaluations: 9,
                cs188_expanded_states: 13,
            }
        );
    }
}

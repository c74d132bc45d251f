//! Dartmouth CS10's game-tree search (the Kalah notes): **negamax**, which "always maximizes,
//! but negates the score returned by the opponent", plain (`ComputerKalahPlayerGTS`) and with
//! alpha-beta as a (low, high) window (`ComputerKalahPlayerAB`).
//!
//! * Scores are integers for the player to move: the game's static evaluation (Kalah: my
//!   kalah minus yours) at the depth limit, and a finished game's score (Kalah: 100 × the
//!   margin, so a certain one-point win beats an uncertain larger estimate).
//! * Depth drops only when the player to move changes: a chain of move-again moves is one
//!   ply, and a child whose player moves again is searched with the same depth and window,
//!   its value not negated.
//! * Minus infinity is `-Integer.MAX_VALUE` in the notes, so that negating it is safe; here it
//!   is `-i64::MAX` for the same reason, printed `-inf`.
//! * Ties keep the first best move (a later move must be strictly better).
//! * The window: a child is searched with (-high, -low); each value better than low raises
//!   low; the node stops when its best value **reaches** high (`best >= high`: the notes' loop
//!   runs `while bestMove.value < high`, and their worked example stops at (20, 12)). A node
//!   returns the best value it saw (which may lie outside its window).
//!
//! Options: **move ordering** (children searched best first by static evaluation, or by a
//! one-ply search) and **aspiration windows** (a narrow window around an expected value,
//! re-searched with the full window when the result falls outside it). Neither changes the
//! root's value.

use super::mistakes::{Flaw, Flaws};
use super::{Algorithm, Event, Sink, Summary};
use crate::game::{Estimate, Game, Player, Status};

/// Infinity as the notes use it: negating it is safe.
pub const INF: i64 = i64::MAX;

/// How deep a search recurses, counting every move of a move-again chain: a position this
/// deep is evaluated, so that no chain can exhaust the stack (no real game comes near).
pub const MAX_PLIES: u32 = crate::search::csc148::MAX_PLIES;

/// A node's answer (the search's, not a verdict on a case): its value as its parent takes
/// it, and what that did to the parent's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The child's value, for the child's player.
    pub value: i64,
    /// The value for the parent's player: negated, unless the child's player moves again.
    pub for_parent: i64,
    /// The parent moves again at the child (no negation).
    pub again: bool,
    /// The parent's (low, high) after this child (the window's search only).
    pub window: Option<(i64, i64)>,
    /// This child raised the parent's low (or best, without a window).
    pub improved: bool,
    /// The parent stops here: its best value reached high.
    pub cut: bool,
}

/// The events of a CS10 search: bounds are the (low, high) window, the value the root's.
pub type Cs10Event<G> = Event<<G as Game>::State, <G as Game>::Move, i64, Answer>;

/// How children are ordered before they are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ordering {
    /// As the game lists its moves.
    #[default]
    None,
    /// Best first by the static evaluation of the position each move leads to.
    Static,
    /// Best first by a one-ply search of each child.
    Shallow,
}

impl Ordering {
    pub const ALL: [Ordering; 3] = [Ordering::None, Ordering::Static, Ordering::Shallow];
    pub fn name(self) -> &'static str {
        match self {
            Ordering::None => "none",
            Ordering::Static => "static",
            Ordering::Shallow => "shallow",
        }
    }
    pub fn parse(s: &str) -> Option<Ordering> {
        Ordering::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// An aspiration window: search first with (guess - width, guess + width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aspiration {
    /// The expected value; `None`: the value of the same search one ply shallower.
    pub guess: Option<i64>,
    pub width: i64,
}

/// A CS10 case's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    pub ordering: Ordering,
    pub aspiration: Option<Aspiration>,
}

/// What a search did, beyond the root's value: for `stats` and `run --format json`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions entered (searched or evaluated).
    pub nodes: u64,
    /// Positions evaluated (static evaluation or a finished game).
    pub evaluations: u64,
    /// Aspiration re-searches with the full window.
    pub re_searches: u64,
}

/// The score of a finished game or a static evaluation, for `mover`.
fn for_mover(maxie: i64, mover: Player) -> i64 {
    match mover {
        Player::Maxie => maxie,
        Player::Minnie => -maxie,
    }
}

fn estimate_number(e: Estimate) -> i64 {
    match e {
        Estimate::Guess(n) => n,
        Estimate::Draw => 0,
        // Only finished games are wins, and those are scored by `final_score`.
        Estimate::MaxieWins => INF - 1,
        Estimate::MinnieWins => -(INF - 1),
    }
}

/// Searches `game` from its start to `depth`, reporting to `sink`.
pub fn search<G, K>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
    sink: &mut K,
) -> (Summary, Counts)
where
    G: Game,
    K: Sink<Cs10Event<G>>,
{
    search_variant(game, depth, algorithm, options, Flaws::NONE, sink)
}

/// [`search`] with the catalogue's `flaws` (none is the reference).
pub fn search_variant<G, K>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
    flaws: Flaws,
    sink: &mut K,
) -> (Summary, Counts)
where
    G: Game,
    K: Sink<Cs10Event<G>>,
{
    let window = algorithm != Algorithm::Minimax;
    let mut s = Searcher {
        game,
        window,
        options,
        flaws,
        counts: Counts::default(),
        ply: 0,
    };
    let root = game.start();
    let player = game.player(&root);
    let (value, best) = match (window, options.aspiration) {
        (true, Some(a)) => {
            let guess = a.guess.unwrap_or_else(|| {
                if depth == 0 {
                    0
                } else {
                    let mut quiet = Searcher {
                        game,
                        window: true,
                        options: Options {
                            aspiration: None,
                            ..options
                        },
                        flaws,
                        counts: Counts::default(),
                        ply: 0,
                    };
                    quiet
                        .node(&root, depth - 1, (-INF, INF), &mut super::NullSink)
                        .0
                }
            });
            let (low, high) = (
                guess.saturating_sub(a.width).max(-INF),
                guess.saturating_add(a.width),
            );
            let first = s.node(&root, depth, (low, high), sink);
            if (first.0 > low && first.0 < high) || flaws.has(Flaw::NoReSearch) {
                first
            } else {
                s.counts.re_searches += 1;
                s.node(&root, depth, (-INF, INF), sink)
            }
        }
        _ => s.node(&root, depth, (-INF, INF), sink),
    };
    let best = best.and_then(|m| game.moves(&root).position(|x| x == m).map(|i| (i, m)));
    sink.event(Event::Done {
        state: root.clone(),
        player,
        value,
        best,
        terminals: s.counts.evaluations,
        table_hits: 0,
        ties: Vec::new(),
    });
    (
        Summary {
            value: Some(Estimate::Guess(for_mover(value, player))),
            best_index: best.map(|(i, _)| i),
            terminals: s.counts.evaluations,
            table_hits: 0,
            raised: false,
        },
        s.counts,
    )
}

struct Searcher<'g, G> {
    game: &'g G,
    window: bool,
    options: Options,
    flaws: Flaws,
    counts: Counts,
    /// How deep the recursion is now (see [`MAX_PLIES`]).
    ply: u32,
}

impl<G: Game> Searcher<'_, G> {
    /// The value of `state` for its player, and the first move that reaches it (none at an
    /// evaluated position).
    fn node<K: Sink<Cs10Event<G>>>(
        &mut self,
        state: &G::State,
        depth: u32,
        (mut low, high): (i64, i64),
        sink: &mut K,
    ) -> (i64, Option<G::Move>) {
        let game = self.game;
        let player = game.player(state);
        self.counts.nodes += 1;
        let evaluated = match game.status(state) {
            // Without the scaling, a finished game is worth its bare margin.
            Status::Over(_) if self.flaws.has(Flaw::FinalUnscaled) => {
                Some(game.final_score(state) / 100)
            }
            Status::Over(_) => Some(game.final_score(state)),
            Status::InPlay
                if depth == 0 || self.ply >= MAX_PLIES || game.moves(state).len() == 0 =>
            {
                Some(estimate_number(game.estimate(state)))
            }
            Status::InPlay => None,
        };
        if let Some(maxie) = evaluated {
            self.counts.evaluations += 1;
            sink.event(Event::Estimate {
                state: state.clone(),
                estimate: Estimate::Guess(maxie),
            });
            return (for_mover(maxie, player), None);
        }
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth,
            bounds: (low, high),
        });
        let mut best: Option<(i64, G::Move)> = None;
        if self.window && high <= -INF {
            return (-INF, None);
        }
        let moves = self.ordered(state);
        let n = moves.len();
        for (i, (mv, child)) in moves.into_iter().enumerate() {
            let again = game.player(&child) == player;
            self.ply += 1;
            let flip_again = again && self.flaws.has(Flaw::AgainNegated);
            // The window for the opponent's turn, as the variant computes it.
            let window = if self.flaws.has(Flaw::WindowUnnegated) {
                (low, high)
            } else if self.flaws.has(Flaw::WindowUnswapped) {
                (neg(low), neg(high))
            } else {
                (neg(high), neg(low))
            };
            let (value, _) = if flip_again {
                // Searched as if the other player were to move, at the same depth.
                self.node(&child, depth, window, sink)
            } else if again {
                // A move-again chain is one ply: same depth, same window, same player.
                let d = if self.flaws.has(Flaw::DepthEveryMove) {
                    depth - 1
                } else {
                    depth
                };
                self.node(&child, d, (low, high), sink)
            } else {
                self.node(&child, depth - 1, window, sink)
            };
            self.ply -= 1;
            let negated = flip_again || (!again && !self.flaws.has(Flaw::ChildNotNegated));
            let for_parent = if negated { neg(value) } else { value };
            let improved = best.is_none_or(|(b, _)| for_parent > b);
            if improved {
                best = Some((for_parent, mv));
            }
            let raised = self.window && for_parent > low;
            if raised {
                low = for_parent;
            }
            let b = best.map_or(-INF, |(b, _)| b);
            let reaches = if self.flaws.has(Flaw::StrictCut) {
                b > high
            } else {
                b >= high
            };
            let cut = self.window && reaches && i + 1 < n;
            sink.event(Event::Result {
                state: child,
                player: if again { player } else { player.other() },
                result: Answer {
                    value,
                    for_parent,
                    // A search that does not know the rule does not say it applied it.
                    again: again && !flip_again,
                    window: self.window.then_some((low, high)),
                    improved: if self.window { raised } else { improved },
                    cut,
                },
            });
            if cut {
                break;
            }
        }
        match best {
            Some((value, mv)) => (value, Some(mv)),
            // Only a mistaken window starts empty (low >= high): the notes' loop `while
            // bestMove.value < high` then tries no move at all.
            None => (-INF, None),
        }
    }

    /// The moves and the positions they lead to, in the order the case searches them.
    fn ordered(&mut self, state: &G::State) -> Vec<(G::Move, G::State)> {
        let game = self.game;
        let mut out: Vec<(G::Move, G::State)> = game
            .moves(state)
            .map(|m| (m, game.play(state, m)))
            .collect();
        let player = game.player(state);
        let score = |child: &G::State, shallow: bool| -> i64 {
            // The child's worth for this node's player (higher first).
            let mine = |maxie: i64| for_mover(maxie, player);
            match game.status(child) {
                Status::Over(_) => mine(game.final_score(child)),
                Status::InPlay if !shallow => mine(estimate_number(game.estimate(child))),
                Status::InPlay => {
                    let mut quiet = Searcher {
                        game,
                        window: true,
                        options: Options::default(),
                        flaws: Flaws::NONE,
                        counts: Counts::default(),
                        ply: 0,
                    };
                    let (v, _) = quiet.node(child, 1, (-INF, INF), &mut super::NullSink);
                    if game.player(child) == player {
                        v
                    } else {
                        -v
                    }
                }
            }
        };
        let in_game_order: Vec<G::Move> = out.iter().map(|(m, _)| *m).collect();
        match self.options.ordering {
            _ if self.flaws.has(Flaw::OrderingSkipped) => {}
            Ordering::None => {}
            Ordering::Static => out.sort_by_key(|(_, c)| std::cmp::Reverse(score(c, false))),
            Ordering::Shallow => out.sort_by_key(|(_, c)| std::cmp::Reverse(score(c, true))),
        }
        if self.flaws.has(Flaw::OrderingMismatched) {
            // The positions were sorted, the list of moves beside them was not.
            for ((m, _), original) in out.iter_mut().zip(in_game_order) {
                *m = original;
            }
        }
        out
    }
}

/// Negation that keeps infinities infinite (and never overflows: -INF is -i64::MAX).
fn neg(v: i64) -> i64 {
    -v
}

/// `-inf`, `inf` or the number.
pub fn write_value(out: &mut String, v: i64) {
    if v == INF {
        out.push_str("inf");
    } else if v <= -INF {
        out.push_str("-inf");
    } else {
        out.push_str(itoa::Buffer::new().format(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{Kalah, Rules};
    use crate::game::tree::{TreeBuilder, TreeGame};
    use crate::search::{minimax_value, EventLog, NullSink};

    /// The W12 final exam's subtree as the notes narrate it: the node labelled -8 (here the
    /// root, p1), its leaf 12, its node 20 (children: node -20 with leaves 20 and 25, and a
    /// branch the window prunes) and its leaf 8. Labels are values for the player to move
    /// there; the tree holds p1's numbers.
    fn exam() -> crate::game::tree::Tree {
        let mut b = TreeBuilder::new();
        b.open("n-8");
        b.leaf("l12", -12);
        b.open("n20");
        b.open("n-20");
        b.leaf("l20", -20);
        b.leaf("l25", -25);
        b.close();
        b.leaf("pruned", 7);
        b.close();
        b.leaf("l8", -8);
        b.close();
        b.finish()
    }

    #[test]
    fn the_notes_worked_example() {
        let tree = exam();
        let game = TreeGame::new(&tree, Player::Maxie);
        let mut log = EventLog::default();
        let (summary, counts) =
            search(&game, 3, Algorithm::AlphaBeta, Options::default(), &mut log);
        assert_eq!(summary.value, Some(Estimate::Guess(-8)));
        assert_eq!(summary.best_index, Some(2));
        // The node labelled 20 gets (-inf, 12) and stops after its first child: (20, 12).
        let enter = |name: &str| {
            log.events.iter().find_map(|e| match e {
                Event::Enter { state, bounds, .. } if tree.name(state.node) == name => {
                    Some(*bounds)
                }
                _ => None,
            })
        };
        assert_eq!(enter("n20"), Some((-INF, 12)));
        assert_eq!(enter("n-20"), Some((-12, INF)));
        let cut = log.events.iter().find_map(|e| match e {
            Event::Result { state, result, .. } if tree.name(state.node) == "n-20" => Some(*result),
            _ => None,
        });
        assert_eq!(
            cut,
            Some(Answer {
                value: -20,
                for_parent: 20,
                again: false,
                window: Some((20, 12)),
                improved: true,
                cut: true,
            })
        );
        // The pruned branch is never evaluated: 4 leaves of 5.
        assert_eq!(counts.evaluations, 4);
    }

    #[test]
    fn negamax_agrees_with_minimax_and_pruning_does_not_change_it() {
        let tree = exam();
        for root in [Player::Maxie, Player::Minnie] {
            let game = TreeGame::new(&tree, root);
            let want = minimax_value(&game, &game.start(), 3);
            for a in [Algorithm::Minimax, Algorithm::AlphaBeta] {
                let (s, _) = search(&game, 3, a, Options::default(), &mut NullSink);
                assert_eq!(s.value, Some(want), "{root} {a:?}");
            }
        }
    }

    #[test]
    fn move_again_keeps_the_depth_and_the_sign() {
        // Kalah(3, 1): p1's pit 2 ends in p1's kalah, so p1 moves again: the chain is one ply.
        let k = Kalah::new(3, 1, Rules::default());
        let mut log = EventLog::default();
        search(&k, 1, Algorithm::Minimax, Options::default(), &mut log);
        let again = log.events.iter().find_map(|e| match e {
            Event::Result { result, .. } if result.again => Some(*result),
            _ => None,
        });
        let again = again.expect("a move-again child");
        assert_eq!(again.value, again.for_parent);
        // Its children were searched at depth 1 still: the move-again position is entered.
        assert!(log
            .events
            .iter()
            .any(|e| matches!(e, Event::Enter { depth: 1, state, .. } if state.to_move == Player::Maxie && state.kalahs[0] == 1)));
    }
}

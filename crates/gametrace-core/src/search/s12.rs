//! The S12 handout's alpha-beta (HW09 section 4) and Jamboree (section 5).
//!
//! A value is `BestEdge(move, e)` or `Pruned` (the lowest alpha, the highest beta, and "no
//! bound"); a node's result is a value or `ParentPrune`. A node scans its children updating
//! its own bound, stops at a child's `ParentPrune` (becoming `Pruned`), and labels the final
//! bound (the candidate) against the bounds it was given.

use super::mistakes::{Flaw, Flaws, Reference, Variant};
use super::{
    child_bounds, child_depth, fold_start, own, player_of, search_together, sequential_share,
    variant_stops_at, Algorithm, Descend, Event, Sink, Summary,
};
use crate::game::{Estimate, Game, Player};

/// An S12 value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<M> {
    /// `BestEdge` in the handout: the move at the parent that leads here, and the estimate.
    Edge(M, Estimate),
    Pruned,
}

impl<M: Copy> Value<M> {
    #[inline]
    pub fn estimate(&self) -> Option<Estimate> {
        match *self {
            Value::Edge(_, e) => Some(e),
            Value::Pruned => None,
        }
    }
}

/// A node's answer (the search's, not a verdict on a case): its value, or a prune.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer<M> {
    Value(Value<M>),
    /// "The parent of this node is not helpful to the grandparent."
    ParentPrune,
}

pub type Bounds<M> = (Value<M>, Value<M>);

/// `max` with `Pruned` at the bottom; on equal estimates the current edge stays.
#[inline]
pub fn maxalpha<M: Copy>(alpha: Value<M>, v: Value<M>) -> Value<M> {
    match (alpha, v) {
        (_, Value::Pruned) => alpha,
        (Value::Pruned, _) => v,
        (Value::Edge(_, a), Value::Edge(_, e)) => {
            if e > a {
                v
            } else {
                alpha
            }
        }
    }
}

/// `min` with `Pruned` at the top; on equal estimates the new edge is taken (as the course's
/// solution code does).
#[inline]
pub fn minbeta<M: Copy>(beta: Value<M>, v: Value<M>) -> Value<M> {
    match (beta, v) {
        (_, Value::Pruned) => beta,
        (Value::Pruned, _) => v,
        (Value::Edge(_, b), Value::Edge(_, e)) => {
            if e <= b {
                v
            } else {
                beta
            }
        }
    }
}

#[inline(always)]
fn improve<M: Copy>(player: Player, bound: Value<M>, v: Value<M>, flaws: impl Variant) -> Value<M> {
    let other_way = flaws.at(Flaw::TiesOtherWay, player);
    match (player, bound, v) {
        // Ties the other way: Maxie takes the new edge, Minnie keeps hers.
        (Player::Maxie, Value::Edge(_, a), Value::Edge(_, e)) if other_way && e == a => v,
        (Player::Minnie, Value::Edge(_, b), Value::Edge(_, e)) if other_way && e == b => bound,
        (Player::Maxie, ..) => maxalpha(bound, v),
        (Player::Minnie, ..) => minbeta(bound, v),
    }
}

/// The handout's spec for alpha-beta: a candidate at or below alpha makes a Maxie node
/// `ParentPrune` and a Minnie node `Pruned`; at or above beta, the reverse; otherwise it is
/// the node's value, as an edge from the parent's move `incoming`.
#[inline]
pub fn label<M: Copy>(
    player: Player,
    ab: Bounds<M>,
    candidate: Value<M>,
    incoming: M,
) -> Answer<M> {
    variant_label(player, ab, candidate, incoming, Flaws::NONE)
}

/// [`label`] as a variant does it.
#[inline(always)]
fn variant_label<M: Copy>(
    player: Player,
    (alpha, beta): Bounds<M>,
    candidate: Value<M>,
    incoming: M,
    flaws: impl Variant,
) -> Answer<M> {
    let Value::Edge(best, e) = candidate else {
        return Answer::Value(Value::Pruned);
    };
    let (at_or_below_alpha, at_or_above_beta) = if flaws.at(Flaw::StrictCut, player) {
        (
            matches!(alpha, Value::Edge(_, a) if e < a),
            matches!(beta, Value::Edge(_, b) if e > b),
        )
    } else {
        (
            matches!(alpha, Value::Edge(_, a) if e <= a),
            matches!(beta, Value::Edge(_, b) if e >= b),
        )
    };
    // Labels swapped: the tests are the other player's.
    let player = if flaws.at(Flaw::CutOnWrongBound, player) {
        player.other()
    } else {
        player
    };
    let own_edge = flaws.at(Flaw::ChildValueAsBound, player);
    match player {
        Player::Maxie if at_or_below_alpha => Answer::ParentPrune,
        Player::Minnie if at_or_below_alpha => Answer::Value(Value::Pruned),
        Player::Maxie if at_or_above_beta => Answer::Value(Value::Pruned),
        Player::Minnie if at_or_above_beta => Answer::ParentPrune,
        _ if own_edge => Answer::Value(Value::Edge(best, e)),
        _ => Answer::Value(Value::Edge(incoming, e)),
    }
}

/// How a node's scan of its children ended.
enum Scan<M> {
    /// A child said `ParentPrune`: the node is `Pruned` at once.
    Stopped,
    /// The final alpha (Maxie) or beta (Minnie).
    Candidate(Value<M>),
}

/// Searches `game` from its start to `depth`, reporting to `sink`. The root is searched, not
/// evaluated: its value and best move are its final bound.
pub fn search<G, K>(game: &G, depth: u32, algorithm: Algorithm, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<super::S12Event<G>>,
{
    run(game, depth, algorithm, Reference, sink)
}

/// [`search`] as the catalogue's variant `flaws` searches ([`Reference`] is none, and compiles
/// without the flaw tests).
pub fn run<G, K, F>(game: &G, depth: u32, algorithm: Algorithm, flaws: F, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<super::S12Event<G>>,
    F: Variant,
{
    let searcher = Searcher {
        game,
        algorithm,
        flaws,
    };
    let root = game.start();
    let player = player_of(game, &root, flaws);
    let ab = (Value::Pruned, Value::Pruned);
    sink.event(Event::Search {
        state: root.clone(),
        player,
        bounds: ab,
    });
    let (value, terminals) = match variant_stops_at(game, &root, depth, flaws) {
        // A terminal root has no move to choose; specs never search one.
        Some(estimate) => {
            sink.event(Event::Estimate {
                state: root.clone(),
                estimate,
            });
            (Value::Pruned, 1)
        }
        None => match searcher.scan(player, &root, depth, ab, sink) {
            (Scan::Stopped, t) => (Value::Pruned, t),
            (Scan::Candidate(v), t) => (v, t),
        },
    };
    let best = match value {
        Value::Edge(m, _) => super::root_move(game, &root, m),
        Value::Pruned => None,
    };
    super::done(sink, root, player, value, value.estimate(), best, terminals)
}

struct Searcher<'g, G, F> {
    game: &'g G,
    algorithm: Algorithm,
    flaws: F,
}

impl<G: Game, F: Variant> Searcher<'_, G, F> {
    /// `evaluate` of the handout: bounds checks at a terminal, otherwise a scan, then the label.
    fn evaluate<K: Sink<super::S12Event<G>>>(
        &self,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        incoming: G::Move,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        let player = player_of(self.game, state, self.flaws);
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth,
            bounds: ab,
        });
        let flaws = self.flaws;
        let (answer, terminals) = match variant_stops_at(self.game, state, depth, flaws) {
            Some(estimate) => {
                sink.event(Event::Estimate {
                    state: state.clone(),
                    estimate,
                });
                let leaf = Value::Edge(incoming, estimate);
                (variant_label(player, ab, leaf, incoming, flaws), 1)
            }
            None => match self.scan(player, state, depth, ab, sink) {
                (Scan::Stopped, t) => (Answer::Value(Value::Pruned), t),
                (Scan::Candidate(c), t) => (variant_label(player, ab, c, incoming, flaws), t),
            },
        };
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: answer,
        });
        (answer, terminals)
    }

    fn scan<K: Sink<super::S12Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Scan<G::Move>, u64) {
        match self.algorithm {
            Algorithm::AlphaBeta => self.alphabeta(player, state, depth, ab, sink),
            // The CSC148 algorithms never reach here (see `sequential_share`).
            // Nor do the expectimax algorithms (`search::expectimax`).
            Algorithm::Minimax
            | Algorithm::Memoize
            | Algorithm::GameStateTree
            | Algorithm::Expectimax
            | Algorithm::Expectiminimax => {
                let moves = self.game.moves_in_play(state);
                self.together(player, state, moves, depth, ab, own(player, ab), sink)
            }
            Algorithm::Jamboree { .. } => self.jamboree(player, state, depth, ab, sink),
        }
    }

    /// `search` of the handout: children left to right, the bound updated with each value,
    /// stopping at the first `ParentPrune`.
    fn alphabeta<K: Sink<super::S12Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Scan<G::Move>, u64) {
        self.in_turn(
            player,
            state,
            self.game.moves_in_play(state),
            depth,
            ab,
            own(player, ab),
            sink,
        )
    }

    /// Evaluates `moves` one after another from `bound`, as alpha-beta does.
    #[allow(clippy::too_many_arguments)]
    fn in_turn<K: Sink<super::S12Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        moves: impl Iterator<Item = G::Move>,
        depth: u32,
        ab: Bounds<G::Move>,
        mut bound: Value<G::Move>,
        sink: &mut K,
    ) -> (Scan<G::Move>, u64) {
        let flaws = self.flaws;
        let fail_soft = flaws.at(Flaw::FailSoft, player);
        // Fail-soft, the node's best starts with no value (`Pruned`), and the children's
        // bound is the better of it and the given one.
        if fail_soft {
            bound = Value::Pruned;
        }
        let mut terminals = 0;
        for mv in moves {
            let child = self.game.play(state, mv);
            let child_ab = child_bounds(player, ab, bound, flaws, |b, v| {
                improve(player, b, v, flaws)
            });
            let (r, t) = self.evaluate(&child, child_depth(depth, flaws), child_ab, mv, sink);
            terminals += t;
            match r {
                Answer::ParentPrune if flaws.at(Flaw::ParentPruneIgnored, player) => {}
                Answer::ParentPrune => return (Scan::Stopped, terminals),
                Answer::Value(v) => bound = improve(player, bound, v, flaws),
            }
        }
        (Scan::Candidate(bound), terminals)
    }

    /// abmoves sequentially as in alpha-beta, then mmmoves in parallel with the bounds the
    /// abmoves left, their values folded in move order.
    fn jamboree<K: Sink<super::S12Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Scan<G::Move>, u64) {
        let mut moves = self.game.moves_in_play(state);
        let sequential = sequential_share(self.algorithm, moves.len(), self.flaws);
        let abmoves = moves.by_ref().take(sequential);
        match self.in_turn(player, state, abmoves, depth, ab, own(player, ab), sink) {
            (Scan::Candidate(bound), t) => {
                let (scan, rest) = self.together(player, state, moves, depth, ab, bound, sink);
                (scan, t + rest)
            }
            stopped => stopped,
        }
    }

    /// Searches `moves` all with the same bounds, then folds every value into `bound` in move
    /// order; any `ParentPrune` among them makes the node `Pruned`.
    #[allow(clippy::too_many_arguments)]
    fn together<K: Sink<super::S12Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        moves: impl ExactSizeIterator<Item = G::Move>,
        depth: u32,
        ab: Bounds<G::Move>,
        bound: Value<G::Move>,
        sink: &mut K,
    ) -> (Scan<G::Move>, u64) {
        let flaws = self.flaws;
        let better = |b, v| improve(player, b, v, flaws);
        let descend = Child {
            searcher: self,
            bounds: child_bounds(player, ab, bound, flaws, better),
        };
        let mut bound = fold_start(player, ab, bound, self.algorithm, flaws);
        let ignore_parent_prune = flaws.has(Flaw::ParallelParentPruneIgnored);
        let mut parent_prune = false;
        let depth = child_depth(depth, flaws);
        let terminals = search_together(self.game, state, moves, depth, sink, &descend, flaws, {
            |_, r| match r {
                Answer::ParentPrune if ignore_parent_prune => {}
                Answer::ParentPrune => parent_prune = true,
                Answer::Value(v) => bound = better(bound, v),
            }
        });
        let scan = if parent_prune {
            Scan::Stopped
        } else {
            Scan::Candidate(bound)
        };
        (scan, terminals)
    }
}

struct Child<'s, 'g, G: Game, F> {
    searcher: &'s Searcher<'g, G, F>,
    bounds: Bounds<G::Move>,
}

impl<G: Game, F: Variant> Descend<G, super::S12Event<G>> for Child<'_, '_, G, F> {
    type Out = Answer<G::Move>;
    fn descend<K: Sink<super::S12Event<G>>>(
        &self,
        mv: G::Move,
        child: &G::State,
        depth: u32,
        sink: &mut K,
    ) -> (Self::Out, u64) {
        self.searcher.evaluate(child, depth, self.bounds, mv, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type V = Value<u32>;
    const G: fn(i64) -> Estimate = Estimate::Guess;

    #[test]
    fn pruned_is_the_bottom_alpha_and_the_top_beta() {
        let e: V = Value::Edge(0, G(3));
        assert_eq!(maxalpha(Value::Pruned, e), e);
        assert_eq!(maxalpha(e, Value::Pruned), e);
        assert_eq!(minbeta(Value::Pruned, e), e);
        assert_eq!(minbeta(e, Value::Pruned), e);
    }

    #[test]
    fn ties_keep_alpha_and_take_the_new_beta() {
        let old: V = Value::Edge(0, G(3));
        let new: V = Value::Edge(1, G(3));
        assert_eq!(maxalpha(old, new), old);
        assert_eq!(minbeta(old, new), new);
    }

    #[test]
    fn labels_follow_the_handout_spec() {
        let none: Bounds<u32> = (Value::Pruned, Value::Pruned);
        let b: Bounds<u32> = (Value::Edge(0, G(3)), Value::Edge(0, G(6)));
        let c = |e| Value::Edge(9, G(e));
        assert_eq!(
            label(Player::Maxie, none, c(5), 1),
            Answer::Value(Value::Edge(1, G(5)))
        );
        assert_eq!(label(Player::Maxie, b, c(3), 1), Answer::ParentPrune);
        assert_eq!(
            label(Player::Minnie, b, c(2), 1),
            Answer::Value(Value::Pruned)
        );
        assert_eq!(
            label(Player::Maxie, b, c(6), 1),
            Answer::Value(Value::Pruned)
        );
        assert_eq!(label(Player::Minnie, b, c(7), 1), Answer::ParentPrune);
        assert_eq!(
            label(Player::Minnie, b, c(4), 2),
            Answer::Value(Value::Edge(2, G(4)))
        );
        assert_eq!(
            label(Player::Maxie, b, Value::Pruned, 1),
            Answer::Value(Value::Pruned)
        );
    }
}

//! The S14 handout's alpha-beta (HW11 section 5) and Jamboree (section 6).
//!
//! A value is `Leaf(e)` (a terminal's estimate) or `Step(move, e)`; bounds start at
//! `(Leaf(Minnie wins!), Leaf(Maxie wins!))`. A Maxie node keeps `a := maxalpha(a, Step(i, r))`
//! over its children and stops ("(* Pruned *)") once `a >= beta`; Minnie is dual.

use super::mistakes::{Flaw, Reference, Variant};
use super::{
    child_bounds, child_depth, fold_start, own, player_of, search_together, sequential_share,
    variant_stops_at, Algorithm, Descend, Event, Sink, Summary,
};
use crate::game::{Estimate, Game, Player};
use std::cmp::Ordering;

/// An S14 value: a terminal's estimate, or a move with the estimate it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<M> {
    Leaf(Estimate),
    Step(M, Estimate),
}

impl<M: Copy> Value<M> {
    #[inline]
    pub fn estimate(&self) -> Estimate {
        match *self {
            Value::Leaf(e) | Value::Step(_, e) => e,
        }
    }

    #[inline]
    pub fn step(&self) -> Option<M> {
        match *self {
            Value::Step(m, _) => Some(m),
            Value::Leaf(_) => None,
        }
    }
}

/// A node's answer (the search's, not a verdict on a case): its value, and whether its scan
/// stopped on a bound (`(* Pruned *)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<M> {
    pub value: Value<M>,
    pub pruned: bool,
}

/// `(alpha, beta)`.
pub type Bounds<M> = (Value<M>, Value<M>);

pub fn initial_bounds<M>() -> Bounds<M> {
    (
        Value::Leaf(Estimate::MinnieWins),
        Value::Leaf(Estimate::MaxieWins),
    )
}

/// Keeps the better of the current bound and a new value (`better` is the ordering a better
/// estimate has). On equal estimates a `Step` beats a `Leaf` (so a valid move comes back);
/// otherwise the current bound stays.
#[inline(always)]
fn keep_better<M: Copy>(current: Value<M>, new: Value<M>, better: Ordering) -> Value<M> {
    match new.estimate().cmp(&current.estimate()) {
        o if o == better => new,
        Ordering::Equal if matches!((current, new), (Value::Leaf(_), Value::Step(..))) => new,
        _ => current,
    }
}

/// [`keep_better`] with ties going to the new value ([`Flaw::TiesOtherWay`]).
#[inline(always)]
fn keep_better_or_equal<M: Copy>(current: Value<M>, new: Value<M>, better: Ordering) -> Value<M> {
    match new.estimate().cmp(&current.estimate()) {
        o if o == better || o == Ordering::Equal => new,
        _ => current,
    }
}

#[inline]
pub fn maxalpha<M: Copy>(alpha: Value<M>, v: Value<M>) -> Value<M> {
    keep_better(alpha, v, Ordering::Greater)
}

#[inline]
pub fn minbeta<M: Copy>(beta: Value<M>, v: Value<M>) -> Value<M> {
    keep_better(beta, v, Ordering::Less)
}

#[inline(always)]
fn improve<M: Copy>(player: Player, bound: Value<M>, v: Value<M>, flaws: impl Variant) -> Value<M> {
    let better = match player {
        Player::Maxie => Ordering::Greater,
        Player::Minnie => Ordering::Less,
    };
    if flaws.at(Flaw::TiesOtherWay, player) {
        keep_better_or_equal(bound, v, better)
    } else {
        keep_better(bound, v, better)
    }
}

/// Has the node's bound crossed the other one, so the rest of its children can be skipped?
#[inline(always)]
fn cuts<M: Copy>(
    player: Player,
    bound: Value<M>,
    (alpha, beta): Bounds<M>,
    flaws: impl Variant,
) -> bool {
    let (b, a, beta) = (bound.estimate(), alpha.estimate(), beta.estimate());
    if flaws.is_none() {
        return match player {
            Player::Maxie => b >= beta,
            Player::Minnie => b <= a,
        };
    }
    let strict = flaws.at(Flaw::StrictCut, player);
    // The wrong bound: each player's test is the other's.
    let as_maxie = (player == Player::Maxie) != flaws.at(Flaw::CutOnWrongBound, player);
    match (as_maxie, strict) {
        (true, false) => b >= beta,
        (true, true) => b > beta,
        (false, false) => b <= a,
        (false, true) => b < a,
    }
}

/// The worst value for `player`: where a fail-soft node's running best starts.
fn worst<M>(player: Player) -> Value<M> {
    match player {
        Player::Maxie => Value::Leaf(Estimate::MinnieWins),
        Player::Minnie => Value::Leaf(Estimate::MaxieWins),
    }
}

/// Searches `game` from its start to `depth`, reporting to `sink`.
pub fn search<G, K>(game: &G, depth: u32, algorithm: Algorithm, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<super::S14Event<G>>,
{
    run(game, depth, algorithm, Reference, sink)
}

/// [`search`] as the catalogue's variant `flaws` searches ([`Reference`] is none, and compiles
/// without the flaw tests).
pub fn run<G, K, F>(game: &G, depth: u32, algorithm: Algorithm, flaws: F, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<super::S14Event<G>>,
    F: Variant,
{
    let searcher = Searcher {
        game,
        algorithm,
        flaws,
    };
    let root = game.start();
    let (answer, terminals) = searcher.node(&root, depth, initial_bounds(), sink);
    let best = answer
        .value
        .step()
        .and_then(|m| super::root_move(game, &root, m));
    let (player, value) = (player_of(game, &root, flaws), answer.value);
    super::done(
        sink,
        root,
        player,
        value,
        Some(value.estimate()),
        best,
        terminals,
    )
}

struct Searcher<'g, G, F> {
    game: &'g G,
    algorithm: Algorithm,
    flaws: F,
}

/// What entering a node found: a terminal (already reported), or a player to search for.
enum Entered<M> {
    Terminal(Answer<M>),
    Searching(Player),
}

impl<G: Game, F: Variant> Searcher<'_, G, F> {
    fn node<K: Sink<super::S14Event<G>>>(
        &self,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        match self.enter(state, depth, ab, sink) {
            Entered::Terminal(answer) => (answer, 1),
            Entered::Searching(player) => {
                let (answer, terminals) = match self.algorithm {
                    Algorithm::AlphaBeta => self.alphabeta(player, state, depth, ab, sink),
                    Algorithm::Minimax
                    | Algorithm::Memoize
                    | Algorithm::GameStateTree
                    | Algorithm::Expectimax
                    | Algorithm::Expectiminimax => self.minimax(player, state, depth, ab, sink),
                    Algorithm::Jamboree { .. } => self.jamboree(player, state, depth, ab, sink),
                };
                self.report(state, player, answer, sink);
                (answer, terminals)
            }
        }
    }

    /// `F: state ...` / `G: state ...`, and at a terminal its estimate and `Leaf` result.
    fn enter<K: Sink<super::S14Event<G>>>(
        &self,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> Entered<G::Move> {
        let player = player_of(self.game, state, self.flaws);
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth,
            bounds: ab,
        });
        match variant_stops_at(self.game, state, depth, self.flaws) {
            None => Entered::Searching(player),
            Some(estimate) => {
                sink.event(Event::Estimate {
                    state: state.clone(),
                    estimate,
                });
                let answer = Answer {
                    value: Value::Leaf(estimate),
                    pruned: false,
                };
                self.report(state, player, answer, sink);
                Entered::Terminal(answer)
            }
        }
    }

    fn report<K: Sink<super::S14Event<G>>>(
        &self,
        state: &G::State,
        player: Player,
        answer: Answer<G::Move>,
        sink: &mut K,
    ) {
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: answer,
        });
    }

    /// F and G of the handout: children left to right, the bound updated after each, stopping
    /// once it crosses the other bound.
    fn alphabeta<K: Sink<super::S14Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        self.in_turn(
            player,
            state,
            self.game.moves_in_play(state),
            depth,
            ab,
            sink,
        )
    }

    /// Searches `moves` one after another as alpha-beta does; `pruned` if the bound crossed.
    fn in_turn<K: Sink<super::S14Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        moves: impl Iterator<Item = G::Move>,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        let flaws = self.flaws;
        let fail_soft = flaws.at(Flaw::FailSoft, player);
        // Fail-soft, the node's best starts at the worst value, and the children's bound is
        // the better of it and the given one.
        let mut bound = if fail_soft {
            worst(player)
        } else {
            own(player, ab)
        };
        let mut terminals = 0;
        // The move kept apart from the bound: the one that last raised it, else the first.
        let apart = flaws.at(Flaw::MoveKeptApart, player);
        let mut kept_move: Option<G::Move> = None;
        for mv in moves {
            if kept_move.is_none() {
                kept_move = Some(mv);
            }
            let child = self.game.play(state, mv);
            let child_ab = child_bounds(player, ab, bound, flaws, |b, v| {
                improve(player, b, v, flaws)
            });
            let (r, t) = self.node(&child, child_depth(depth, flaws), child_ab, sink);
            terminals += t;
            if apart {
                // The child's own value replaces the bound when it is as good or better.
                let better = match player {
                    Player::Maxie => r.value.estimate() >= bound.estimate(),
                    Player::Minnie => r.value.estimate() <= bound.estimate(),
                };
                if better {
                    bound = r.value;
                    kept_move = Some(mv);
                }
            } else {
                bound = improve(player, bound, self.folded(player, mv, r), flaws);
            }
            if cuts(player, bound, ab, flaws) {
                let value = if flaws.at(Flaw::CutReturnsOwnWin, player) {
                    let win = match player {
                        Player::Maxie => Estimate::MaxieWins,
                        Player::Minnie => Estimate::MinnieWins,
                    };
                    Value::Step(mv, win)
                } else if apart {
                    Value::Step(mv, bound.estimate())
                } else {
                    bound
                };
                let answer = Answer {
                    value,
                    pruned: true,
                };
                return (answer, terminals);
            }
        }
        let value = match kept_move {
            Some(m) if apart => Value::Step(m, bound.estimate()),
            _ => bound,
        };
        let answer = Answer {
            value,
            pruned: false,
        };
        (answer, terminals)
    }

    /// Every child with the node's own bounds (in parallel), then the values folded in order.
    fn minimax<K: Sink<super::S14Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        let moves = self.game.moves_in_play(state);
        self.together(player, state, moves, depth, ab, own(player, ab), sink)
    }

    /// What a node folds into its bound for child `mv`'s result: `Step(mv, estimate)`.
    #[inline]
    fn folded(&self, player: Player, mv: G::Move, r: Answer<G::Move>) -> Value<G::Move> {
        if self.flaws.at(Flaw::ChildValueAsBound, player) {
            r.value
        } else {
            Value::Step(mv, r.value.estimate())
        }
    }

    /// The first floor(p * n) children as in alpha-beta; if that did not stop the node, the
    /// rest as in minimax with the bounds the first ones left.
    fn jamboree<K: Sink<super::S14Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        depth: u32,
        ab: Bounds<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        let mut moves = self.game.moves_in_play(state);
        let sequential = sequential_share(self.algorithm, moves.len(), self.flaws);
        let (first, t) = self.in_turn(
            player,
            state,
            moves.by_ref().take(sequential),
            depth,
            ab,
            sink,
        );
        if first.pruned {
            return (first, t);
        }
        let (answer, rest) = self.together(player, state, moves, depth, ab, first.value, sink);
        (answer, t + rest)
    }

    /// Searches `moves` all with the bounds `ab` has once `bound` is the node's own, then folds
    /// their values into `bound` in move order; the node is pruned if the fold crossed.
    #[allow(clippy::too_many_arguments)]
    fn together<K: Sink<super::S14Event<G>>>(
        &self,
        player: Player,
        state: &G::State,
        moves: impl ExactSizeIterator<Item = G::Move>,
        depth: u32,
        ab: Bounds<G::Move>,
        bound: Value<G::Move>,
        sink: &mut K,
    ) -> (Answer<G::Move>, u64) {
        let flaws = self.flaws;
        let better = |b, v| improve(player, b, v, flaws);
        let descend = Child {
            searcher: self,
            bounds: child_bounds(player, ab, bound, flaws, better),
        };
        let mut bound = fold_start(player, ab, bound, self.algorithm, flaws);
        let depth = child_depth(depth, flaws);
        let terminals = search_together(self.game, state, moves, depth, sink, &descend, flaws, {
            |mv, r| bound = better(bound, self.folded(player, mv, r))
        });
        let pruned = cuts(player, bound, ab, flaws);
        (
            Answer {
                value: bound,
                pruned,
            },
            terminals,
        )
    }
}

struct Child<'s, 'g, G: Game, F> {
    searcher: &'s Searcher<'g, G, F>,
    bounds: Bounds<G::Move>,
}

impl<G: Game, F: Variant> Descend<G, super::S14Event<G>> for Child<'_, '_, G, F> {
    type Out = Answer<G::Move>;
    fn descend<K: Sink<super::S14Event<G>>>(
        &self,
        _mv: G::Move,
        child: &G::State,
        depth: u32,
        sink: &mut K,
    ) -> (Self::Out, u64) {
        self.searcher.node(child, depth, self.bounds, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type V = Value<u32>;

    #[test]
    fn maxalpha_prefers_a_step_on_ties_and_otherwise_keeps_the_bound() {
        let leaf3: V = Value::Leaf(Estimate::Guess(3));
        let step0: V = Value::Step(0, Estimate::Guess(3));
        let step1: V = Value::Step(1, Estimate::Guess(3));
        assert_eq!(maxalpha(leaf3, step1), step1);
        assert_eq!(maxalpha(step0, step1), step0);
        assert_eq!(maxalpha(step1, leaf3), step1);
        assert_eq!(
            maxalpha(step0, Value::Step(2, Estimate::Guess(4))),
            Value::Step(2, Estimate::Guess(4))
        );
        assert_eq!(maxalpha(step0, Value::Step(2, Estimate::Guess(2))), step0);
    }

    #[test]
    fn minbeta_is_dual() {
        let max: V = Value::Leaf(Estimate::MaxieWins);
        let s: V = Value::Step(0, Estimate::Guess(3));
        assert_eq!(minbeta(max, s), s);
        assert_eq!(minbeta(s, Value::Step(1, Estimate::Guess(3))), s);
        assert_eq!(
            minbeta(s, Value::Step(1, Estimate::Guess(2))),
            Value::Step(1, Estimate::Guess(2))
        );
        // A Step from Minnie wins beats the Leaf bound of the same estimate.
        let min: V = Value::Leaf(Estimate::MinnieWins);
        assert_eq!(
            minbeta(min, Value::Step(4, Estimate::MinnieWins)),
            Value::Step(4, Estimate::MinnieWins)
        );
    }
}

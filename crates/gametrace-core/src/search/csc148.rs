//! Toronto CSC148's game strategies (A2's minimax and A3's memoization, pruning and myopia):
//! scores from the point of view of the player to move, WIN 1.0, LOSE -1.0, DRAW 0.0, and
//! a score the opponent gets counts negated ("minimax always takes the max score").
//!
//! ```text
//! score(s) = outcome of s for its next player             if s is over
//!          = rough_outcome(s)                             if myopia's n moves are used up
//!          = max over moves m of -score(s.apply_move(m))  otherwise
//! ```
//!
//! * **minimax** searches every game to its end (or to `depth` moves: **myopic**, scoring
//!   the positions there by the game's rough outcome).
//! * **memoize** keeps each position's score in a table keyed by the position
//!   ([`Game::key`], as the course keys by `repr(state)`) and answers repeats from it;
//!   finished positions are stored too. Positions searched and table hits are counted.
//! * **prune** (alpha-beta as the handout words it): each player starts guaranteed -1.0; a
//!   node stops ("abandons further search") as soon as the score guaranteed to its player
//!   is ≥ -1 times the score guaranteed to the opponent. A child is searched with the two
//!   guarantees swapped and its parent's raised by the best score so far. A node returns
//!   the best score it saw (which is the true score whenever it lies between the
//!   guarantees, and so always at the root).
//!
//! A search "to the end" has a horizon of [`MAX_PLIES`] moves (far past any game the course
//! plays): a position that deep is scored by its rough outcome, so that a game that goes
//! round in circles, or a Subtract Square total in the millions, cannot exhaust the stack.
//!
//! Every search also knows which of the root's moves are equally good (the course's
//! `suggest_move` may return any of them), except pruning, which stops at the first move
//! that cannot be beaten; [`best_moves`] finds them for any strategy.

use super::mistakes::{Flaw, Flaws};
use super::{Algorithm, Event, Sink, Summary};
use crate::game::{Estimate, Game, Outcome, Player, StateKey, Status};
use hashbrown::HashMap;
use std::fmt;

/// A score for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    Lose,
    Draw,
    Win,
}

impl Score {
    /// The course's float: -1.0, 0.0 or 1.0.
    pub fn as_f64(self) -> f64 {
        match self {
            Score::Lose => -1.0,
            Score::Draw => 0.0,
            Score::Win => 1.0,
        }
    }

    /// A finished game's score for `mover`.
    pub fn of_outcome(outcome: Outcome, mover: Player) -> Score {
        match outcome {
            Outcome::Draw => Score::Draw,
            Outcome::Winner(p) if p == mover => Score::Win,
            Outcome::Winner(_) => Score::Lose,
        }
    }

    /// An estimate (Maxie's) as a score for `mover`: its sign, from the mover's side.
    /// CSC148's own games estimate -1, 0 or 1; other games' estimates keep only their sign,
    /// so that a rough outcome stays within [LOSE, WIN] as the course requires.
    pub fn of_estimate(e: Estimate, mover: Player) -> Score {
        let sign = match e {
            Estimate::MaxieWins => 1,
            Estimate::MinnieWins => -1,
            Estimate::Draw => 0,
            Estimate::Guess(n) => n.signum(),
        };
        let mine = if mover == Player::Maxie { sign } else { -sign };
        match mine {
            1 => Score::Win,
            -1 => Score::Lose,
            _ => Score::Draw,
        }
    }

    /// The score as Maxie's estimate (for summaries shared with the 15-150 searchers).
    pub fn as_estimate(self, mover: Player) -> Estimate {
        let mine: i64 = match self {
            Score::Lose => -1,
            Score::Draw => 0,
            Score::Win => 1,
        };
        Estimate::Guess(if mover == Player::Maxie { mine } else { -mine })
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        match self {
            Score::Lose => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Lose,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::Lose => "-1.0",
            Score::Draw => "0.0",
            Score::Win => "1.0",
        })
    }
}

/// A position's answer (the search's, not a verdict on a case), as the trace reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer<M> {
    /// Every move searched (or as many as pruning needed): the score and the first move
    /// that reaches it. `pruned` is `Some((searched, of))` when the search stopped early.
    Searched {
        score: Score,
        best: M,
        pruned: Option<(usize, usize)>,
    },
    /// Answered from the memo table without a search.
    Recalled { score: Score },
}

impl<M: Copy> Answer<M> {
    pub fn score(&self) -> Score {
        match *self {
            Answer::Searched { score, .. } | Answer::Recalled { score } => score,
        }
    }
}

/// The events of a CSC148 search: bounds are the guarantees (the mover's, the opponent's);
/// the value is the root's score.
pub type Csc148Event<G> =
    Event<<G as Game>::State, <G as Game>::Move, Score, Answer<<G as Game>::Move>>;

/// How a case's settings choose a strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub memoize: bool,
    pub prune: bool,
    /// Myopia: score by rough outcome after this many moves (`None`: to the end).
    pub depth: Option<u32>,
}

/// The depth a case stores when it searches to the end of every game.
pub const TO_THE_END: u32 = u32::MAX;

/// How deep any search recurses: a search to the end stops here and takes the rough outcome
/// (each ply is a stack frame; this many fit the main thread's stack in a debug build).
pub const MAX_PLIES: u32 = 2000;

impl Strategy {
    /// The strategy of a case's algorithm and depth.
    pub fn of(algorithm: Algorithm, depth: u32) -> Strategy {
        Strategy {
            memoize: algorithm == Algorithm::Memoize,
            prune: algorithm == Algorithm::AlphaBeta,
            depth: (depth != TO_THE_END).then_some(depth),
        }
    }

    /// The case algorithm whose strategy this is (with [`Strategy::depth_searched`],
    /// [`Strategy::of`] undone): memoize, prune, or minimax. No case memoizes and prunes.
    pub fn algorithm(self) -> Algorithm {
        match (self.memoize, self.prune) {
            (true, _) => Algorithm::Memoize,
            (_, true) => Algorithm::AlphaBeta,
            _ => Algorithm::Minimax,
        }
    }

    /// The case depth whose strategy this is: the myopic depth, or [`TO_THE_END`].
    pub fn depth_searched(self) -> u32 {
        self.depth.unwrap_or(TO_THE_END)
    }

    /// The course's class name: `StrategyMinimaxPrune`.
    pub fn class_name(self) -> &'static str {
        match (self.memoize, self.prune, self.depth.is_some()) {
            (true, _, _) => "StrategyMinimaxMemoize",
            (_, true, _) => "StrategyMinimaxPrune",
            (_, _, true) => "StrategyMinimaxMyopic",
            _ => "StrategyMinimax",
        }
    }
}

/// Searches `game` from its start with `strategy`, reporting to `sink`.
pub fn search<G, K>(game: &G, strategy: Strategy, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<Csc148Event<G>>,
{
    search_variant(game, strategy, Flaws::NONE, sink)
}

/// [`search`] with the catalogue's `flaws` (none is the reference).
pub fn search_variant<G, K>(game: &G, strategy: Strategy, flaws: Flaws, sink: &mut K) -> Summary
where
    G: Game,
    K: Sink<Csc148Event<G>>,
{
    let mut s = Searcher {
        game,
        strategy,
        flaws,
        table: HashMap::new(),
        searched: 0,
        hits: 0,
        root_scores: Vec::new(),
    };
    let root = game.start();
    let player = game.player(&root);
    let depth = match strategy.depth {
        Some(d) if flaws.has(Flaw::SearchesOneDeeper) => Some(d + 1),
        d => d,
    };
    let (score, best) = s.node(&root, depth, (Score::Lose, Score::Lose), 0, sink);
    let best = best.and_then(|m| game.moves(&root).position(|x| x == m).map(|i| (i, m)));
    // Pruning cuts the root at the first move nothing beats: it does not know the others.
    let ties = if strategy.prune {
        Vec::new()
    } else {
        s.root_scores
            .iter()
            .enumerate()
            .filter(|&(_, &sc)| sc == score)
            .map(|(i, _)| i)
            .collect()
    };
    sink.event(Event::Done {
        state: root.clone(),
        player,
        value: score,
        best,
        terminals: s.searched,
        table_hits: s.hits,
        ties,
    });
    Summary {
        value: Some(score.as_estimate(player)),
        best_index: best.map(|(i, _)| i),
        terminals: s.searched,
        table_hits: s.hits,
        raised: false,
    }
}

struct Searcher<'g, G: Game> {
    game: &'g G,
    strategy: Strategy,
    flaws: Flaws,
    /// Memoization's table: a position (and, for a myopic search, the moves left) → score.
    table: HashMap<(StateKey, Option<u32>), Score>,
    searched: u64,
    hits: u64,
    /// The score of each of the root's moves, in move order.
    root_scores: Vec<Score>,
}

impl<G: Game> Searcher<'_, G> {
    /// The score of `state` for its player, who is guaranteed `mine` and whose opponent is
    /// guaranteed `theirs` (pruning only), and the first move that reaches it (none at a
    /// position scored without a search, or answered from the table).
    fn node<K: Sink<Csc148Event<G>>>(
        &mut self,
        state: &G::State,
        depth: Option<u32>,
        (mine, theirs): (Score, Score),
        ply: u32,
        sink: &mut K,
    ) -> (Score, Option<G::Move>) {
        let root = ply == 0;
        let game = self.game;
        let player = game.player(state);
        let key = self.strategy.memoize.then(|| {
            let key = game.key(state);
            if self.flaws.has(Flaw::MemoIgnoresPlayer) {
                (key.without_player(), depth)
            } else {
                (key, depth)
            }
        });
        if let Some(score) = key.as_ref().and_then(|k| self.table.get(k)) {
            self.hits += 1;
            let score = *score;
            sink.event(Event::Result {
                state: state.clone(),
                player,
                result: Answer::Recalled { score },
            });
            return (score, None);
        }
        self.searched += 1;
        // One short: a position below the root is estimated with one move still to look at
        // (the root itself is always searched: `suggest_move` loops over its moves).
        let horizon = if self.flaws.has(Flaw::EstimatesEarly) && !root {
            matches!(depth, Some(0 | 1))
        } else {
            depth == Some(0)
        };
        let estimated = match game.status(state) {
            Status::Over(o) => Some((game.utility(state, o), false)),
            Status::InPlay if horizon || ply >= MAX_PLIES || game.moves(state).len() == 0 => {
                Some((game.estimate(state), true))
            }
            Status::InPlay => None,
        };
        if let Some((estimate, rough)) = estimated {
            sink.event(Event::Estimate {
                state: state.clone(),
                estimate,
            });
            let seen_by = if rough && self.flaws.has(Flaw::RoughOutcomeSign) {
                player.other()
            } else {
                player
            };
            let score = Score::of_estimate(estimate, seen_by);
            if let Some(k) = key {
                self.table.insert(k, score);
            }
            return (score, None);
        }
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth: depth.unwrap_or(TO_THE_END),
            bounds: (mine, theirs),
        });
        let moves = game.moves(state);
        let n = moves.len();
        let mut best: Option<(Score, G::Move)> = None;
        let mut pruned = None;
        let child_depth = depth.map(|d| d - 1);
        for (i, mv) in moves.enumerate() {
            let child = game.play(state, mv);
            let guaranteed = if self.flaws.has(Flaw::OriginalBounds) {
                mine
            } else {
                best.map_or(mine, |(b, _)| b.max(mine))
            };
            let score = -self
                .node(&child, child_depth, (theirs, guaranteed), ply + 1, sink)
                .0;
            if root {
                self.root_scores.push(score);
            }
            let better = match best {
                None => true,
                Some((b, _)) if self.flaws.has(Flaw::TiesOtherWay) => score >= b,
                Some((b, _)) => score > b,
            };
            if better {
                best = Some((score, mv));
            }
            let guaranteed = best.map_or(mine, |(b, _)| b.max(mine));
            let prunes_here = !(root && self.flaws.has(Flaw::RootNotPruned));
            if self.strategy.prune && prunes_here && self.cuts(guaranteed, theirs) && i + 1 < n {
                pruned = Some((i + 1, n));
                break;
            }
        }
        let (score, best) = best.expect("a position in play has a move");
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: Answer::Searched {
                score,
                best,
                pruned,
            },
        });
        if let Some(k) = key {
            self.table.insert(k, score);
        }
        (score, Some(best))
    }

    /// The handout's test: is the score guaranteed to the mover ≥ -1 × the opponent's?
    fn cuts(&self, mine: Score, theirs: Score) -> bool {
        if self.flaws.has(Flaw::StrictCut) {
            mine > -theirs
        } else {
            mine >= -theirs
        }
    }
}

/// The root's score under `strategy`'s rules (exact, or myopic to its depth) and the indices
/// of every move that reaches it: what `suggest_move` may return. Memoized, untraced.
pub fn best_moves<G: Game>(game: &G, strategy: Strategy) -> (Score, Vec<usize>) {
    let exact = Strategy {
        memoize: true,
        prune: false,
        depth: strategy.depth,
    };
    let mut sink = super::NullSink;
    let mut s = Searcher {
        game,
        strategy: exact,
        flaws: Flaws::NONE,
        table: HashMap::new(),
        searched: 0,
        hits: 0,
        root_scores: Vec::new(),
    };
    let root = game.start();
    let (score, _) = s.node(&root, exact.depth, (Score::Lose, Score::Lose), 0, &mut sink);
    let ties = s
        .root_scores
        .iter()
        .enumerate()
        .filter(|&(_, &sc)| sc == score)
        .map(|(i, _)| i)
        .collect();
    (score, ties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::subtract_square::SubtractSquare;
    use crate::search::EventLog;

    fn run(total: u64, strategy: Strategy) -> (Summary, Vec<Csc148Event<SubtractSquare>>) {
        let g = SubtractSquare::new(total, Player::Maxie);
        let mut log = EventLog::default();
        let summary = search(&g, strategy, &mut log);
        (summary, log.events)
    }

    const MINIMAX: Strategy = Strategy {
        memoize: false,
        prune: false,
        depth: None,
    };

    #[test]
    fn scores_negate_and_order() {
        assert_eq!(-Score::Win, Score::Lose);
        assert_eq!(-Score::Draw, Score::Draw);
        assert!(Score::Lose < Score::Draw && Score::Draw < Score::Win);
        assert_eq!(
            Score::of_estimate(Estimate::Guess(64), Player::Minnie),
            Score::Lose
        );
        assert_eq!(Score::Win.to_string(), "1.0");
    }

    #[test]
    fn minimax_from_six_searches_the_whole_tree() {
        // p1:6 -> p2:5 (p2 then loses: 1 leaves p1:4, who takes 4; 4 leaves p1:1) and
        // p2:2 -> p1:1 -> p2:0: both moves win for p1. The tree has 13 positions.
        let (summary, _) = run(6, MINIMAX);
        assert_eq!(summary.terminals, 13);
        assert_eq!(summary.value, Some(Estimate::Guess(1)));
        assert_eq!(summary.best_index, Some(0));
        let g = SubtractSquare::new(6, Player::Maxie);
        assert_eq!(best_moves(&g, MINIMAX), (Score::Win, vec![0, 1]));
    }

    #[test]
    fn memoization_searches_each_position_once() {
        // 10 distinct positions; p2:0 (under p1:1) and p1:1 (under p2:2) come from the table.
        let (summary, events) = run(
            6,
            Strategy {
                memoize: true,
                ..MINIMAX
            },
        );
        assert_eq!((summary.terminals, summary.table_hits), (10, 2));
        let recalled = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Result {
                        result: Answer::Recalled { .. },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(recalled, 2);
    }

    #[test]
    fn pruning_stops_at_a_win() {
        // p1:6's first move (the largest square, 4) leaves p2:2, which loses whatever p2
        // does: p1 scores 1.0, which is ≥ -1 × p2's guaranteed -1.0, so the root abandons
        // its second move.
        let (summary, events) = run(
            6,
            Strategy {
                prune: true,
                ..MINIMAX
            },
        );
        assert_eq!(summary.best_index, Some(0));
        // The root stops after its first move scores 1.0: p2:5 is never searched.
        assert!(events.iter().all(|e| !matches!(
            e,
            Event::Enter { state, .. } if state.total == 5 && state.to_move == Player::Minnie
        )));
        let root_pruned = events.iter().any(|e| {
            matches!(e, Event::Result { state, result: Answer::Searched { pruned: Some((1, 2)), .. }, .. } if state.total == 6)
        });
        assert!(root_pruned);
    }

    #[test]
    fn the_handout_suggests_subtracting_four_from_99() {
        // "after memoization it promptly suggests subtracting 4".
        let g = SubtractSquare::new(99, Player::Maxie);
        let memo = Strategy {
            memoize: true,
            ..MINIMAX
        };
        let (score, ties) = best_moves(&g, memo);
        assert_eq!(score, Score::Win);
        let moves: Vec<u64> = g.moves(&g.start()).map(|m| m.0).collect();
        let winning: Vec<u64> = ties.iter().map(|&i| moves[i]).collect();
        assert_eq!(winning, [4]);
    }
}

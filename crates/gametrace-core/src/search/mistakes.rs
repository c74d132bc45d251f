//! The catalogue of mistakes: named, documented variants of the reference searchers, each one
//! thing students get wrong. A variant is the reference searcher with some [`Flaw`]s switched
//! on, so it emits the same events and prints in the same dialect; `check` runs them to name
//! the mistake behind a wrong trace, `explain` prints one beside the reference.
//!
//! Flaws are bits in two masks, one per player, because students write Maxie's and Minnie's
//! code separately (`F` and `G`) and often get only one of them wrong.

use super::Algorithm;
use crate::game::Player;
use crate::spec::{Case, Deepening, MoveOrder, Rules};
use std::fmt;

/// One way a searcher departs from the handout. What it means may differ between the rule
/// sets; [`Mistake`] says it for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Flaw {
    StrictCut,
    CutOnWrongBound,
    OriginalBounds,
    ChildValueAsBound,
    FailSoft,
    TiesOtherWay,
    PlayersSwapped,
    DepthTwice,
    DepthKept,
    EstimatesEarly,
    FoldFromStart,
    RoundsUp,
    ParentPruneIgnored,
    ParallelParentPruneIgnored,
    FoldOutOfOrder,
    DepthEveryMove,
    DeepeningKeepsOrder,
    RootNotPruned,
    MemoIgnoresPlayer,
    RoughOutcomeSign,
    SearchesOneDeeper,
    WindowUnswapped,
    WindowUnnegated,
    ChildNotNegated,
    AgainNegated,
    FinalUnscaled,
    NoReSearch,
    OrderingMismatched,
    OrderingSkipped,
    CutReturnsOwnWin,
    MoveKeptApart,
    // CS188's (see `search::cs188`).
    CutConventionSwapped,
    DepthPerAgent,
    GhostsOneLayer,
    GhostsMax,
    ExpectimaxMin,
    FirstGhostOnlyAverages,
    WinLoseUnchecked,
    WinLoseInfinite,
    GeneratesAll,
    PrunesNothing,
    RootAlphaKept,
    ReturnsValue,
    OwnEvaluation,
    DepthAtPacmanMove,
    OwnEvaluationAtDepth,
    ExpectimaxPrunes,
    WinUnchecked,
    NoAction,
    LoseUnchecked,
    IllegalAction,
}

/// The flaws a variant has, at each player's nodes. The reference has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flaws {
    maxie: u64,
    minnie: u64,
}

impl Flaws {
    pub const NONE: Flaws = Flaws {
        maxie: 0,
        minnie: 0,
    };

    /// `flaw` at the nodes of `side` (both players' when `None`).
    pub fn with(mut self, flaw: Flaw, side: Option<Player>) -> Flaws {
        let bit = 1u64 << flaw as u8;
        if side != Some(Player::Minnie) {
            self.maxie |= bit;
        }
        if side != Some(Player::Maxie) {
            self.minnie |= bit;
        }
        self
    }

    pub fn union(self, other: Flaws) -> Flaws {
        Flaws {
            maxie: self.maxie | other.maxie,
            minnie: self.minnie | other.minnie,
        }
    }

    pub fn is_none(self) -> bool {
        self == Flaws::NONE
    }

    /// Does a node of `player` have `flaw`?
    #[inline(always)]
    pub fn at(self, flaw: Flaw, player: Player) -> bool {
        let mask = match player {
            Player::Maxie => self.maxie,
            Player::Minnie => self.minnie,
        };
        mask & (1u64 << flaw as u8) != 0
    }

    /// Does the search have `flaw` anywhere (for flaws of the whole search)?
    #[inline(always)]
    pub fn has(self, flaw: Flaw) -> bool {
        (self.maxie | self.minnie) & (1u64 << flaw as u8) != 0
    }
}

/// The flaws a searcher is built with: any set, checked as it searches ([`Flaws`]), or none,
/// known when the searcher is compiled ([`Reference`]), so that the reference search's
/// hundred million flaw tests a second compile away.
pub trait Variant: Copy + Send + Sync {
    /// Does a node of `player` have `flaw`?
    fn at(self, flaw: Flaw, player: Player) -> bool;
    /// Does the search have `flaw` anywhere?
    fn has(self, flaw: Flaw) -> bool;
    /// Is this the reference (no flaw at all)?
    fn is_none(self) -> bool;
}

impl Variant for Flaws {
    #[inline(always)]
    fn at(self, flaw: Flaw, player: Player) -> bool {
        Flaws::at(self, flaw, player)
    }
    #[inline(always)]
    fn has(self, flaw: Flaw) -> bool {
        Flaws::has(self, flaw)
    }
    #[inline(always)]
    fn is_none(self) -> bool {
        Flaws::is_none(self)
    }
}

/// No flaw: the reference searcher.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Variant for Reference {
    #[inline(always)]
    fn at(self, _: Flaw, _: Player) -> bool {
        false
    }
    #[inline(always)]
    fn has(self, _: Flaw) -> bool {
        false
    }
    #[inline(always)]
    fn is_none(self) -> bool {
        true
    }
}

/// The algorithms a mistake can be made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Alpha-beta and Jamboree (anything that prunes).
    Pruning,
    /// Alpha-beta alone (a mistake in how one child after another is scanned).
    AlphaBeta,
    /// Jamboree only.
    Jamboree,
    /// Every searcher.
    Any,
    /// Iterative deepening that orders the root's moves best first (`move_order:
    /// best_first`), whatever the searcher.
    DeepeningBestFirst,
    /// Whatever chooses among equal children: 15-150's minimax, every CSC148 strategy.
    Choosing,
    /// CSC148's memoized minimax.
    Memo,
    /// CSC148's myopic minimax (a depth short of the game's end).
    Myopic,
    /// CS10's negamax_ab with an aspiration window.
    Aspiration,
    /// CS10's searches with move ordering.
    Ordered,
    /// CS188's alpha-beta under this pruning convention (`prune_on:`).
    Cs188Cut(crate::search::cs188::PruneOn),
    /// CS188's searches of trees with more than one ghost.
    Cs188Ghosts,
    /// CS188's expectimax.
    Cs188Expectimax,
    /// CS188's expectimax with more than one ghost.
    Cs188ExpectimaxGhosts,
}

/// A catalogue entry.
#[derive(Clone, Copy, Debug)]
pub struct Mistake {
    /// What students and `--bug` call it.
    pub name: &'static str,
    pub flaw: Flaw,
    /// Can it be made at one player's nodes only (and is worth naming so)?
    pub sided: bool,
    /// The rule sets it exists in.
    rules: &'static [Rules],
    family: Family,
    /// One sentence a student understands.
    pub sentence: &'static str,
    /// The handout line it breaks.
    pub handout: &'static str,
}

const BOTH: &[Rules] = &[Rules::S14, Rules::S12];
const S14: &[Rules] = &[Rules::S14];
const S12: &[Rules] = &[Rules::S12];
const CSC148: &[Rules] = &[Rules::Csc148];
const CS10: &[Rules] = &[Rules::Cs10];
const CS188: &[Rules] = &[Rules::Cs188];
/// The handout line every CS188 depth mistake breaks.
const CS188_DEPTH: &str = "CS188 multiagent q2: a single search ply is one Pacman move and all the ghosts' responses; depth 2 is two such rounds";

/// Every catalogued mistake. Names are unique; some flaws have a name in each year because
/// the years phrase the same step differently.
pub const CATALOGUE: &[Mistake] = &[
    Mistake {
        name: "strict-cut",
        flaw: Flaw::StrictCut,
        sided: true,
        rules: S14,
        family: Family::Pruning,
        sentence: "the cut test is strict: a node stops only when its bound passes the other one (alpha > beta), not when it reaches it (alpha >= beta)",
        handout: "S14 HW11 §5: children are skipped once alpha >= beta (the invariant is alpha < beta)",
    },
    Mistake {
        name: "strict-bounds-check",
        flaw: Flaw::StrictCut,
        sided: true,
        rules: S12,
        family: Family::Pruning,
        sentence: "the bounds check is strict: a candidate equal to alpha or beta is kept as the value instead of being labelled Pruned or ParentPrune",
        handout: "S12 HW09 §4: the label is ParentPrune/Pruned when the candidate is <= alpha or >= beta",
    },
    Mistake {
        name: "cut-on-wrong-bound",
        flaw: Flaw::CutOnWrongBound,
        sided: true,
        rules: S14,
        family: Family::Pruning,
        sentence: "the cut test looks at the wrong bound: a Maxie node stops when its alpha has not risen above the alpha it was given (Minnie's test) instead of when alpha >= beta, and Minnie's node dually",
        handout: "S14 HW11 §5: a Maxie node stops once alpha >= beta, a Minnie node once beta <= alpha",
    },
    Mistake {
        name: "labels-swapped",
        flaw: Flaw::CutOnWrongBound,
        sided: true,
        rules: S12,
        family: Family::Pruning,
        sentence: "the two labels are swapped: a Maxie node at or below alpha is labelled Pruned (it should be ParentPrune) and one at or above beta ParentPrune (it should be Pruned), and Minnie's node dually",
        handout: "S12 HW09 §4: the result is ParentPrune if s is a Maxie node and its value is <= alpha",
    },
    Mistake {
        name: "original-bounds",
        flaw: Flaw::OriginalBounds,
        sided: true,
        rules: BOTH,
        family: Family::Pruning,
        sentence: "every child is searched with the bounds the node was given, not with the bound its earlier children improved",
        handout: "each child is searched with the updated alpha (Maxie) or beta (Minnie)",
    },
    Mistake {
        name: "child-value-as-bound",
        flaw: Flaw::ChildValueAsBound,
        sided: true,
        rules: S14,
        family: Family::Any,
        sentence: "the child's own value (its Leaf or Step) is folded into the bound instead of Step(the move at this node, the child's estimate)",
        handout: "S14 HW11 §5, Hint 2: remember to update the move after processing each child node",
    },
    Mistake {
        name: "cut-returns-own-win",
        flaw: Flaw::CutReturnsOwnWin,
        sided: true,
        rules: S14,
        family: Family::Pruning,
        sentence: "a node that stops on a cut returns Step(the move, its own player's certain win) (Step(x, Game.Est.maxie_wins) at Maxie's node) instead of its bound",
        handout: "S14 HW11 §5: a node that stops early returns its bound, which its parent then discards",
    },
    Mistake {
        name: "move-kept-apart",
        flaw: Flaw::MoveKeptApart,
        sided: true,
        rules: S14,
        family: Family::AlphaBeta,
        sentence: "the move is kept apart from the bound: the bound handed to later children is a child's own value (its Leaf or Step, taken on an equal estimate too), and the node returns Step(the move that last raised it, the bound's estimate), its first move when none did (a 2014 student's updateA/updateB)",
        handout: "S14 HW11 §5, Hint 2: remember to update the move after processing each child node",
    },
    Mistake {
        name: "child-edge-returned",
        flaw: Flaw::ChildValueAsBound,
        sided: true,
        rules: S12,
        family: Family::Any,
        sentence: "a node's value is the edge to its own best child instead of BestEdge(the move that led to the node, its value)",
        handout: "S12 HW09 §4: a node's value is a BestEdge whose move is the one taken at its parent",
    },
    Mistake {
        name: "fail-soft",
        flaw: Flaw::FailSoft,
        sided: true,
        rules: BOTH,
        family: Family::Pruning,
        sentence: "the node's running best starts at the worst value instead of at its own bound (fail-soft), so a node whose children are all worse than the bound returns the best of them rather than the bound",
        handout: "the node's bound (alpha for Maxie, beta for Minnie) starts as the one it was given and is the value returned",
    },
    Mistake {
        name: "ties-other-way",
        flaw: Flaw::TiesOtherWay,
        sided: true,
        rules: BOTH,
        family: Family::Pruning,
        sentence: "on equal estimates maxalpha/minbeta keep the other value than the handout's: the new child instead of the current bound, or the reverse",
        handout: "maxalpha/minbeta: values compare by their estimates; on equal values the handout's rule decides which one stays",
    },
    Mistake {
        name: "last-best-move",
        flaw: Flaw::TiesOtherWay,
        sided: true,
        rules: BOTH,
        family: Family::Choosing,
        sentence: "when several moves are equally good, the last of them is taken instead of the first (a `>=` where the best is replaced only on `>`)",
        handout: "minimax: the best move is the first child with the best value",
    },
    Mistake {
        name: "players-swapped",
        flaw: Flaw::PlayersSwapped,
        sided: false,
        rules: BOTH,
        family: Family::Any,
        sentence: "Maxie and Minnie are swapped at the root, so every node is searched for the other player",
        handout: "the search starts with the player to move in the given state",
    },
    Mistake {
        name: "depth-twice",
        flaw: Flaw::DepthTwice,
        sided: false,
        rules: BOTH,
        family: Family::Any,
        sentence: "the depth goes down by two at each ply (once in the caller, once in the callee), so the search stops half as deep",
        handout: "each child is searched at depth d - 1",
    },
    Mistake {
        name: "depth-kept",
        flaw: Flaw::DepthKept,
        sided: false,
        rules: BOTH,
        family: Family::Any,
        sentence: "the depth is never decreased, so the search goes on to the ends of the game instead of stopping at the search depth",
        handout: "each child is searched at depth d - 1",
    },
    Mistake {
        name: "estimates-early",
        flaw: Flaw::EstimatesEarly,
        sided: false,
        rules: BOTH,
        family: Family::Any,
        sentence: "a node is estimated when one ply of depth is left (an off-by-one in the depth test) instead of being searched; only depth 0 is estimated",
        handout: "a state is estimated when the depth is 0 or the game is over; otherwise its children are searched",
    },
    Mistake {
        name: "jamboree-fold-from-start",
        flaw: Flaw::FoldFromStart,
        sided: false,
        rules: BOTH,
        family: Family::Jamboree,
        sentence: "the parallel children's values are folded into the bound the node was given instead of the bound its sequential children left",
        handout: "Jamboree: the remaining children are evaluated in parallel with the updated bounds, and their values combined with them",
    },
    Mistake {
        name: "jamboree-rounds-up",
        flaw: Flaw::RoundsUp,
        sided: false,
        rules: BOTH,
        family: Family::Jamboree,
        sentence: "the sequential share is rounded up (ceiling of prune_percentage * n) instead of down",
        handout: "abmoves is the first floor(prune_percentage * n) moves",
    },
    Mistake {
        name: "parentprune-ignored",
        flaw: Flaw::ParentPruneIgnored,
        sided: true,
        rules: S12,
        family: Family::Pruning,
        sentence: "a child's ParentPrune is treated like Pruned: the node goes on to its next child instead of stopping and being labelled Pruned",
        handout: "S12 HW09 §4: if the result of the child is ParentPrune, you stop and label the parent with Pruned",
    },
    Mistake {
        name: "parallel-parentprune-ignored",
        flaw: Flaw::ParallelParentPruneIgnored,
        sided: false,
        rules: S12,
        family: Family::Jamboree,
        sentence: "a parallel child's ParentPrune is mapped to Pruned and ignored instead of making the node Pruned",
        handout: "S12 HW09 §5: a ParentPrune among the parallel results makes the node Pruned",
    },
    Mistake {
        name: "jamboree-folds-out-of-order",
        flaw: Flaw::FoldOutOfOrder,
        sided: false,
        rules: BOTH,
        family: Family::Jamboree,
        sentence: "the parallel children's values are combined from the last to the first instead of in move order, so ties go to a later move",
        handout: "Jamboree: the parallel results are combined in the order of the moves",
    },
    Mistake {
        name: "deepening-keeps-order",
        flaw: Flaw::DeepeningKeepsOrder,
        sided: false,
        rules: BOTH,
        family: Family::DeepeningBestFirst,
        sentence: "every depth tries the root's moves in the game's order; after the first depth they must be tried best first by the values the previous depth found",
        handout: "aima-java IterativeDeepeningAlphaBetaSearch: each iteration searches the root's actions in the order of the previous iteration's results, best first",
    },
    Mistake {
        name: "depth-every-move",
        flaw: Flaw::DepthEveryMove,
        sided: false,
        rules: CS10,
        family: Family::Any,
        sentence: "depth drops on every move, also when the player moves again, so a chain of move-again moves uses up the lookahead",
        handout: "CS10 notes: the depth only is decreased when the player who is moving changes; a whole series of \"move again\" moves counts as a single move",
    },
    Mistake {
        name: "window-strict",
        flaw: Flaw::StrictCut,
        sided: false,
        rules: CS10,
        family: Family::Pruning,
        sentence: "the search stops only when a value passes high, not when it reaches it (the loop runs while best <= high)",
        handout: "CS10 notes, ComputerKalahPlayerAB: the moves are tried while bestMove.value < high",
    },
    Mistake {
        name: "prune-strict",
        flaw: Flaw::StrictCut,
        sided: false,
        rules: CSC148,
        family: Family::Pruning,
        sentence: "the pruning test is strict: search stops only when the score guaranteed to the player passes -1 times the opponent's, not when it reaches it (so a win found first does not end the search)",
        handout: "CSC148 A3, pruning: abandon further search whenever the score guaranteed to p1 is ≥ -1 times the score guaranteed to p2",
    },
    Mistake {
        name: "prune-root-unpruned",
        flaw: Flaw::RootNotPruned,
        sided: false,
        rules: CSC148,
        family: Family::Pruning,
        sentence: "`suggest_move` tries every move of the root: only the recursive helper abandons the search, so the root goes on after a move nothing can beat",
        handout: "CSC148 A3, pruning: avoid investigating moves that you can tell will not change the result (the root's moves too)",
    },
    Mistake {
        name: "bounds-never-updated",
        flaw: Flaw::OriginalBounds,
        sided: false,
        rules: CSC148,
        family: Family::Pruning,
        sentence: "every move is searched with the guarantees the position was given: the score the player is already guaranteed by its earlier moves is never passed down",
        handout: "CSC148 A3, pruning: the score guaranteed to p1 grows as p1's moves are scored, and each later move is searched knowing it",
    },
    Mistake {
        name: "memo-ignores-player",
        flaw: Flaw::MemoIgnoresPlayer,
        sided: false,
        rules: CSC148,
        family: Family::Memo,
        sentence: "the memo table is keyed on the position without the player to move (say `current_total` alone), so a position reached with the other player to move is answered from the table",
        handout: "CSC148 A3, memoization: store the value returned by recursive calls (keyed by the whole state, as `repr(state)` is)",
    },
    Mistake {
        name: "myopic-one-short",
        flaw: Flaw::EstimatesEarly,
        sided: false,
        rules: CSC148,
        family: Family::Myopic,
        sentence: "the look-ahead stops one move short: `rough_outcome` is used when one move is left (an off-by-one in the count of n moves)",
        handout: "CSC148 A3, myopia: look ahead n moves; if the game has not ended, use rough_outcome",
    },
    Mistake {
        name: "myopic-one-long",
        flaw: Flaw::SearchesOneDeeper,
        sided: false,
        rules: CSC148,
        family: Family::Myopic,
        sentence: "the look-ahead goes one move too far: n + 1 moves are searched before `rough_outcome` is used (the count starts at 0 and stops past n)",
        handout: "CSC148 A3, myopia: look ahead n moves; if the game has not ended, use rough_outcome",
    },
    Mistake {
        name: "rough-outcome-sign",
        flaw: Flaw::RoughOutcomeSign,
        sided: false,
        rules: CSC148,
        family: Family::Myopic,
        sentence: "`rough_outcome` is taken for the wrong player: it is the outlook of the player about to move at that position, and is negated one time too many (or too few) on the way up",
        handout: "CSC148 A2: rough_outcome is the outcome for the player about to move (next_player)",
    },
    Mistake {
        name: "window-unswapped",
        flaw: Flaw::WindowUnswapped,
        sided: false,
        rules: CS10,
        family: Family::Pruning,
        sentence: "the child's window is (-low, -high) instead of (-high, -low): negated but not swapped, so the child's low lies above its high and it stops after its first move",
        handout: "CS10 notes: the range passed to a child is (-high, -low)",
    },
    Mistake {
        name: "window-unnegated",
        flaw: Flaw::WindowUnnegated,
        sided: false,
        rules: CS10,
        family: Family::Pruning,
        sentence: "the child is searched with the node's own window (low, high) instead of (-high, -low), as if the child's player were the same",
        handout: "CS10 notes: the range passed to a child is (-high, -low)",
    },
    Mistake {
        name: "child-not-negated",
        flaw: Flaw::ChildNotNegated,
        sided: false,
        rules: CS10,
        family: Family::Any,
        sentence: "the value a child returns is taken as it is instead of negated, so each node picks the move best for the opponent",
        handout: "CS10 notes: negamax always maximizes, but negates the score returned by the opponent",
    },
    Mistake {
        name: "move-again-negated",
        flaw: Flaw::AgainNegated,
        sided: false,
        rules: CS10,
        family: Family::Any,
        sentence: "a move after which the same player moves again is treated as the opponent's turn: its window is negated and swapped and its value negated",
        handout: "CS10 notes: when the player moves again, the value is not negated (the same player is maximizing)",
    },
    Mistake {
        name: "final-unscaled",
        flaw: Flaw::FinalUnscaled,
        sided: false,
        rules: CS10,
        family: Family::Any,
        sentence: "a finished game scores its bare margin instead of 100 times it, so a large uncertain estimate beats a certain win",
        handout: "CS10 notes: a finished game is worth 100 times the difference in stones",
    },
    Mistake {
        name: "aspiration-no-re-search",
        flaw: Flaw::NoReSearch,
        sided: false,
        rules: CS10,
        family: Family::Aspiration,
        sentence: "a search whose value falls outside the aspiration window is believed instead of searched again with the full window",
        handout: "aspiration windows: a value at or beyond either end of the window is only a bound; search again with (-inf, inf)",
    },
    Mistake {
        name: "ordering-mismatched",
        flaw: Flaw::OrderingMismatched,
        sided: false,
        rules: CS10,
        family: Family::Ordered,
        sentence: "the children are sorted but the list of moves beside them is not, so the value is right and the move reported is the wrong one",
        handout: "move ordering changes which children are searched first, never the value or the move chosen",
    },
    Mistake {
        name: "ordering-skipped",
        flaw: Flaw::OrderingSkipped,
        sided: false,
        rules: CS10,
        family: Family::Ordered,
        sentence: "the children are searched in the game's order, not sorted; the value and the move are still right (ordering only saves work), but the trace and the work differ",
        handout: "move ordering: search the children best first so that the window closes sooner",
    },
    Mistake {
        name: "prune-on-equal",
        flaw: Flaw::CutConventionSwapped,
        sided: true,
        rules: CS188,
        family: Family::Cs188Cut(crate::search::cs188::PruneOn::Greater),
        sentence: "the prune test is not strict: a node stops once a value reaches the other bound (v >= beta at Pacman's node, v <= alpha at a ghost's), where CS188 stops only once a value passes it",
        handout: "CS188 multiagent q3: you must not prune on equality (the autograder's 6-tied-root test)",
    },
    Mistake {
        name: "no-prune-on-equal",
        flaw: Flaw::CutConventionSwapped,
        sided: true,
        rules: CS188,
        family: Family::Cs188Cut(crate::search::cs188::PruneOn::GreaterOrEqual),
        sentence: "the prune test is strict: a node stops only once a value passes the other bound, where this case (prune_on: \">=\") stops once it reaches it",
        handout: "15-150 handouts: children are skipped once alpha >= beta",
    },
    Mistake {
        name: "generates-before-pruning",
        flaw: Flaw::GeneratesAll,
        sided: false,
        rules: CS188,
        family: Family::Pruning,
        sentence: "every successor of a node is generated (generateSuccessor on each action) before any is searched, so the successors a prune skips are generated too",
        handout: "CS188 multiagent q3: the autograder counts every state generated; call generateSuccessor only when the successor is searched",
    },
    Mistake {
        name: "prunes-nothing",
        flaw: Flaw::PrunesNothing,
        sided: false,
        rules: CS188,
        family: Family::Pruning,
        sentence: "the prune test comes after every successor's value is computed (a max or min over all of them), so nothing is pruned: the search is minimax's",
        handout: "CS188 multiagent q3: stop a node's loop as soon as its value passes the bound",
    },
    Mistake {
        name: "root-alpha-kept",
        flaw: Flaw::RootAlphaKept,
        sided: false,
        rules: CS188,
        family: Family::Pruning,
        sentence: "getAction searches every action with alpha at -infinity: an earlier action's value is not passed to the later ones as alpha, so their ghosts prune less",
        handout: "CS188 multiagent q3: the root is a max node like the others; raise alpha with each action's value",
    },
    Mistake {
        name: "depth-per-agent",
        flaw: Flaw::DepthPerAgent,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the depth counts every agent's move as one instead of every round of Pacman's and all the ghosts' moves, so the search stops `depth` moves down",
        handout: CS188_DEPTH,
    },
    Mistake {
        name: "depth-at-pacman-move",
        flaw: Flaw::DepthAtPacmanMove,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the depth goes down when Pacman moves, not when the last ghost has moved, and is tested at every node: the search evaluates the first ghost's states one move after the round that uses it up (getAction's own move not counted, so one move past the depth)",
        handout: CS188_DEPTH,
    },
    Mistake {
        name: "one-round-deeper",
        flaw: Flaw::SearchesOneDeeper,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the search goes one round past the depth (the round getAction starts is not counted)",
        handout: CS188_DEPTH,
    },
    Mistake {
        name: "one-round-short",
        flaw: Flaw::EstimatesEarly,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the search stops one round before the depth (an off-by-one in the depth given to the root's successors, tested at every node: depth 1 evaluates the root's successors)",
        handout: CS188_DEPTH,
    },
    Mistake {
        name: "depth-twice-per-round",
        flaw: Flaw::DepthTwice,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the depth goes down twice in each round (as Pacman's node is entered, and again as it passes to the ghosts) and is tested at every node: the search stops after half the rounds (depth 3: at Pacman's states of round 2; depth 2: at the first ghost's after round 1)",
        handout: CS188_DEPTH,
    },
    Mistake {
        name: "ghosts-one-layer",
        flaw: Flaw::GhostsOneLayer,
        sided: false,
        rules: CS188,
        family: Family::Cs188Ghosts,
        sentence: "the search alternates Pacman and one ghost (getNumAgents is not used): the second ghost's moves are searched as Pacman's, by max, and a round is two moves",
        handout: "CS188 multiagent q2: every ghost moves in turn after Pacman; there are getNumAgents() - 1 of them",
    },
    Mistake {
        name: "ghosts-maximise",
        flaw: Flaw::GhostsMax,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the ghosts' nodes take the max of their successors, as Pacman's do",
        handout: "CS188 multiagent q2: each ghost minimises (q4: moves at random)",
    },
    Mistake {
        name: "expectimax-takes-min",
        flaw: Flaw::ExpectimaxMin,
        sided: false,
        rules: CS188,
        family: Family::Cs188Expectimax,
        sentence: "the expectimax ghosts take the min of their successors (minimax's ghosts), not the mean",
        handout: "CS188 multiagent q4: a ghost chooses uniformly at random among its legal moves; its value is the mean",
    },
    Mistake {
        name: "expectimax-as-alphabeta",
        flaw: Flaw::ExpectimaxPrunes,
        sided: false,
        rules: CS188,
        family: Family::Cs188Expectimax,
        sentence: "the expectimax agent is the alpha-beta agent: its ghosts take the min of their successors and prune past alpha, so it generates alpha-beta's states, not expectimax's",
        handout: "CS188 multiagent q4: a ghost chooses uniformly at random among its legal moves; its value is the mean of all of them, and nothing is pruned",
    },
    Mistake {
        name: "first-ghost-averages-only",
        flaw: Flaw::FirstGhostOnlyAverages,
        sided: false,
        rules: CS188,
        family: Family::Cs188ExpectimaxGhosts,
        sentence: "only the first ghost's node takes the mean of its successors; the later ghosts take the min",
        handout: "CS188 multiagent q4: every ghost chooses uniformly at random",
    },
    Mistake {
        name: "terminal-not-evaluated",
        flaw: Flaw::WinLoseUnchecked,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "isWin() and isLose() are never asked and a state with no actions is not evaluated: a win or lose state is worth the loop's starting -inf (Pacman) or +inf (a ghost), and one with actions is searched on",
        handout: "CS188 multiagent q2: evaluate win and lose states with the evaluation function (the autograder's 0-eval-function tests)",
    },
    Mistake {
        name: "win-not-terminal",
        flaw: Flaw::WinUnchecked,
        sided: true,
        rules: CS188,
        family: Family::Any,
        sentence: "only isLose() is asked (not isWin()) and a state's actions are not: a win is searched on, and a win (or any state) with no legal actions is worth the loop's starting -inf (Pacman) or +inf (a ghost), or divides by zero (an expectimax ghost)",
        handout: "CS188 multiagent q2: evaluate win and lose states with the evaluation function (the autograder's 0-eval-function-win-states tests)",
    },
    Mistake {
        name: "lose-not-terminal",
        flaw: Flaw::LoseUnchecked,
        sided: true,
        rules: CS188,
        family: Family::Any,
        sentence: "isLose() is not asked of the state searched (only isWin(), or isLose() of another state such as getAction's) and a state's actions are not: a loss is searched on, and a loss (or any state) with no legal actions is worth the loop's starting -inf (Pacman) or +inf (a ghost), or divides by zero (an expectimax ghost)",
        handout: "CS188 multiagent q2: evaluate win and lose states with the evaluation function (the autograder's 0-eval-function-lose-states tests)",
    },
    Mistake {
        name: "win-lose-infinite",
        flaw: Flaw::WinLoseInfinite,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "a win is worth +inf and a loss -inf (the agent's own evaluation) instead of the evaluation function's score",
        handout: "CS188 multiagent q2: evaluate win and lose states with self.evaluationFunction (the autograder's 0-eval-function tests)",
    },
    Mistake {
        name: "own-evaluation",
        flaw: Flaw::OwnEvaluation,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "the agent evaluates states with a function of its own (betterEvaluationFunction, or a changed evalFn default), which asks for Pacman's position: on the test's tree state that raises AttributeError at the first state evaluated",
        handout: "CS188 multiagent q2: the agents use self.evaluationFunction, scoreEvaluationFunction unless the command line names another",
    },
    Mistake {
        name: "own-evaluation-at-depth",
        flaw: Flaw::OwnEvaluationAtDepth,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "win and lose states are scored with getScore(), but a state the depth stops at with a function of the agent's own (betterEvaluationFunction), which asks for Pacman's position: on the test's tree state that raises AttributeError at the first such state",
        handout: "CS188 multiagent q2: the agents use self.evaluationFunction, scoreEvaluationFunction unless the command line names another",
    },
    Mistake {
        name: "last-best-action",
        flaw: Flaw::TiesOtherWay,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "getAction keeps the last of equally good actions (a >= where the best is replaced only on >) instead of the first",
        handout: "CS188 multiagent: the reference keeps the first best action",
    },
    Mistake {
        name: "no-action",
        flaw: Flaw::NoAction,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "getAction returns no action (None: the template's body, or a search that is never called or whose result is not returned), so no state is generated",
        handout: "CS188 multiagent q2: getAction returns the minimax action from the current gameState",
    },
    Mistake {
        name: "illegal-action",
        flaw: Flaw::IllegalAction,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "getAction returns an action that is not one of gameState.getLegalActions(0): Directions.STOP ('Stop'), the best action's starting value, kept (or a constant returned); a tree test's root offers no such action, so the test fails on the move (in a Pacman game Stop is legal: the agent stands still)",
        handout: "CS188 multiagent q2: getAction returns one of gameState.getLegalActions(0), the minimax action from the current gameState",
    },
    Mistake {
        name: "returns-value",
        flaw: Flaw::ReturnsValue,
        sided: false,
        rules: CS188,
        family: Family::Any,
        sentence: "getAction returns the best value instead of the action that gives it",
        handout: "CS188 multiagent q2: getAction returns the minimax action from the current gameState",
    },
];

impl Mistake {
    /// Can `case` make this mistake?
    pub fn applies(&self, case: &Case) -> bool {
        let algorithm = case.algorithm;
        self.rules.contains(&case.rules)
            && match self.family {
                Family::Any => true,
                Family::Pruning => {
                    matches!(algorithm, Algorithm::AlphaBeta | Algorithm::Jamboree { .. })
                }
                Family::Jamboree => matches!(algorithm, Algorithm::Jamboree { .. }),
                Family::AlphaBeta => algorithm == Algorithm::AlphaBeta,
                Family::DeepeningBestFirst => {
                    case.deepening == Deepening::Iterative(MoveOrder::BestFirst)
                }
                Family::Choosing => {
                    algorithm == Algorithm::Minimax
                        || (case.rules == Rules::Csc148 && algorithm == Algorithm::Memoize)
                }
                Family::Memo => algorithm == Algorithm::Memoize,
                Family::Myopic => {
                    algorithm == Algorithm::Minimax
                        && case.depth != crate::search::csc148::TO_THE_END
                }
                Family::Aspiration => {
                    algorithm == Algorithm::AlphaBeta && case.cs10.aspiration.is_some()
                }
                Family::Ordered => case.cs10.ordering != crate::search::cs10::Ordering::None,
                Family::Cs188Cut(p) => {
                    algorithm == Algorithm::AlphaBeta && case.cs188.prune_on == p
                }
                Family::Cs188Ghosts => case.cs188.agents > 2,
                Family::Cs188Expectimax => algorithm == Algorithm::Expectimax,
                Family::Cs188ExpectimaxGhosts => {
                    algorithm == Algorithm::Expectimax && case.cs188.agents > 2
                }
            }
    }

    /// How a report names the two sides of a sided mistake: Maxie's and Minnie's nodes, or
    /// CS188's Pacman's and the ghosts'.
    pub fn sides(&self) -> (&'static str, &'static str) {
        if self.rules == CS188 {
            ("Pacman's nodes", "the ghosts' nodes")
        } else {
            ("Maxie's nodes", "Minnie's nodes")
        }
    }

    /// `s14 and s12; alphabeta and jamboree`: where the mistake can be made.
    pub fn scope(&self) -> String {
        let years: Vec<&str> = self.rules.iter().map(|r| r.name()).collect();
        let algorithms = match self.family {
            Family::Pruning if self.rules == CSC148 => "prune (alphabeta)",
            Family::Pruning if self.rules == CS10 => "negamax_ab",
            Family::Pruning if self.rules == CS188 => "alphabeta",
            Family::Any if self.rules == CS188 => "minimax, alphabeta and expectimax",
            Family::Cs188Cut(p) => {
                return format!("cs188; alphabeta with prune_on: \"{}\"", p.name())
            }
            Family::Cs188Ghosts => "minimax, alphabeta and expectimax with two ghosts or more",
            Family::Cs188Expectimax => "expectimax",
            Family::Cs188ExpectimaxGhosts => "expectimax with two ghosts or more",
            Family::Any => "every searcher",
            Family::Pruning => "alphabeta and jamboree",
            Family::Jamboree => "jamboree",
            Family::AlphaBeta => "alphabeta",
            Family::DeepeningBestFirst => "iterative deepening with move_order: best_first",
            Family::Choosing if self.rules.contains(&Rules::Csc148) => {
                "minimax (and CSC148's memoize and myopic)"
            }
            Family::Choosing => "minimax",
            Family::Memo => "memoize",
            Family::Myopic => "myopic",
            Family::Aspiration => "negamax_ab with an aspiration window",
            Family::Ordered => "negamax and negamax_ab with move ordering",
        };
        format!("{}; {algorithms}", years.join(" and "))
    }

    pub fn find(name: &str) -> Option<&'static Mistake> {
        CATALOGUE.iter().find(|m| m.name == name)
    }
}

/// A catalogued mistake, possibly at one player's nodes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bug {
    pub mistake: &'static str,
    /// `None`: at every node.
    pub side: Option<Player>,
}

impl Bug {
    pub fn entry(&self) -> &'static Mistake {
        Mistake::find(self.mistake).expect("a bug names a catalogue entry")
    }

    pub fn flaws(&self) -> Flaws {
        Flaws::NONE.with(self.entry().flaw, self.side)
    }

    /// Reads `NAME` or `NAME:maxie` / `NAME:minnie`.
    pub fn parse(text: &str) -> Result<Bug, String> {
        let (name, side) = match text.split_once(':') {
            Some((n, s)) => (n, Some(s)),
            None => (text, None),
        };
        let Some(m) = Mistake::find(name) else {
            return Err(format!("no mistake `{name}` in the catalogue"));
        };
        let side = match side {
            None => None,
            Some("maxie") if m.sided => Some(Player::Maxie),
            Some("minnie") if m.sided => Some(Player::Minnie),
            Some(s) if m.sided => {
                return Err(format!(
                    "`{s}` is not a side: write {name}:maxie or {name}:minnie"
                ))
            }
            Some(_) => {
                return Err(format!(
                    "`{name}` is a mistake of the whole search and has no side"
                ))
            }
        };
        Ok(Bug {
            mistake: m.name,
            side,
        })
    }
}

impl fmt::Display for Bug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mistake)?;
        match self.side {
            Some(Player::Maxie) => f.write_str(":maxie"),
            Some(Player::Minnie) => f.write_str(":minnie"),
            None => Ok(()),
        }
    }
}

/// The bugs `case` can have, one mistake each: every applicable mistake at all nodes, and the
/// sided ones at each player's nodes alone.
pub fn bugs_for(case: &Case) -> Vec<Bug> {
    let mut out = Vec::new();
    for m in CATALOGUE.iter().filter(|m| m.applies(case)) {
        out.push(Bug {
            mistake: m.name,
            side: None,
        });
        if m.sided {
            for side in [Player::Maxie, Player::Minnie] {
                out.push(Bug {
                    mistake: m.name,
                    side: Some(side),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        for (i, m) in CATALOGUE.iter().enumerate() {
            assert!(
                CATALOGUE[..i].iter().all(|o| o.name != m.name),
                "{}",
                m.name
            );
            let all = Bug::parse(m.name).unwrap();
            assert_eq!(all.to_string(), m.name);
            assert_eq!(Bug::parse(&format!("{}:minnie", m.name)).is_ok(), m.sided);
        }
        assert!(Bug::parse("no-such").is_err());
        assert!(Bug::parse("strict-cut:nobody").is_err());
    }

    #[test]
    fn sides_set_one_mask() {
        let f = Flaws::NONE.with(Flaw::StrictCut, Some(Player::Minnie));
        assert!(f.at(Flaw::StrictCut, Player::Minnie));
        assert!(!f.at(Flaw::StrictCut, Player::Maxie));
        assert!(f.has(Flaw::StrictCut));
        assert!(!f.has(Flaw::FailSoft));
        let both = Flaws::NONE.with(Flaw::FailSoft, None);
        assert!(both.at(Flaw::FailSoft, Player::Maxie) && both.at(Flaw::FailSoft, Player::Minnie));
    }

    /// A case of a small tree with these rules and this algorithm (and, for `deepening`,
    /// iterative deepening best first).
    fn case(rules: Rules, algorithm: &str, deepening: bool) -> Case {
        let extra = if deepening {
            ", deepening: iterative, move_order: best_first"
        } else {
            ""
        };
        let yaml = format!(
            "tree:\n  a:\n    static: 0\n    b: {{static: 1, c: 1, d: 2}}\n    e: {{static: 2, f: 3, g: 4}}\ncases:\n  x: {{{algorithm}, dialect: {}, depth: 2{extra}}}\n",
            rules.name()
        );
        match crate::spec::load_str(std::path::Path::new("t.yaml"), &yaml) {
            Ok(crate::spec::Document::Tree(spec)) => spec.cases[0].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_family_has_mistakes() {
        let jam = "algorithm: jamboree, prune_percentage: 0.5";
        for rules in [Rules::S14, Rules::S12] {
            for a in ["algorithm: minimax", "algorithm: alphabeta", jam] {
                assert!(
                    bugs_for(&case(rules, a, false)).len() >= 4,
                    "{rules:?} {a:?}"
                );
                let deepened = bugs_for(&case(rules, a, true));
                assert!(deepened
                    .iter()
                    .any(|b| b.mistake == "deepening-keeps-order"));
                assert!(!bugs_for(&case(rules, a, false))
                    .iter()
                    .any(|b| b.mistake == "deepening-keeps-order"));
            }
        }
        assert!(bugs_for(&case(Rules::S12, jam, false))
            .iter()
            .any(|b| b.mistake == "parallel-parentprune-ignored"));
        assert!(!bugs_for(&case(Rules::S14, "algorithm: alphabeta", false))
            .iter()
            .any(|b| b.mistake == "jamboree-rounds-up"));
    }
}

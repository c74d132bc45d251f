//! Instrumented searchers. They report what they do as [`Event`]s to a [`Sink`] and never
//! format text; printers ([`crate::trace`]), counters and checkers are sinks.
//!
//! Two rule sets, one per handout year, share the algorithms' shape:
//! [`s14`] (values `Leaf`/`Step`, the `(* Pruned *)` mark) and [`s12`] (`Pruned`/`ParentPrune`).

pub mod counts;
pub mod cs10;
pub mod cs188;
pub mod csc148;
pub mod deadline;
pub mod deepening;
pub mod expectimax;
pub mod mistakes;
pub mod s12;
pub mod s14;
pub mod solve;

use crate::game::{Estimate, Game, Player, Status};
use mistakes::{Flaw, Flaws, Variant};

/// Which search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    Minimax,
    AlphaBeta,
    /// The first `floor(prune_percentage * n)` of a node's `n` moves are searched as in
    /// alpha-beta, the rest in parallel with the bounds those left.
    Jamboree {
        prune_percentage: f64,
    },
    /// CSC148's memoized minimax (the `csc148` rules only).
    Memoize,
    /// CSC148's game-state tree (option B): not a search, the tree of every game from the
    /// position, measured (the `csc148` rules only).
    GameStateTree,
    /// CS188's expectimax: Maxie maximises; Minnie's nodes and chance nodes average (Minnie's
    /// uniformly, chance nodes by their probabilities). The `expectimax` rules only.
    Expectimax,
    /// Maxie maximises, Minnie minimises, chance nodes average (AIMA's EXPECTIMINIMAX).
    Expectiminimax,
}

impl Algorithm {
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Jamboree { .. } => "jamboree",
            Algorithm::Memoize => "memoize",
            Algorithm::GameStateTree => "game_state_tree",
            Algorithm::Expectimax => "expectimax",
            Algorithm::Expectiminimax => "expectiminimax",
        }
    }
}

/// What a searcher reports. `S` is the game's state, `M` its move, `V` the rule set's bound
/// value and `R` its per-node answer (`s14::Answer`, ...).
#[derive(Clone, Debug, PartialEq)]
pub enum Event<S, M, V, R> {
    /// The root of an S12 search (`Searching state ...`); S14 enters the root like any node.
    Search {
        state: S,
        player: Player,
        bounds: (V, V),
    },
    /// A node is entered with these bounds and this much depth left.
    Enter {
        state: S,
        player: Player,
        depth: u32,
        bounds: (V, V),
    },
    /// A successor generated as a step of its own, before the search enters it: CS188's
    /// `generateSuccessor(agent, move)` on `parent`, which its autograder counts. Only the
    /// CS188 searchers report it (a mistaken one may generate all of a node's successors
    /// before it searches any, or some it never enters).
    Generate {
        parent: S,
        agent: u32,
        mv: M,
        child: S,
    },
    /// The search stopped at a state and took its estimate (or the game's outcome).
    Estimate { state: S, estimate: Estimate },
    /// A node's result.
    Result { state: S, player: Player, result: R },
    /// The search is over: the root's value, its best move (with its index in move order),
    /// and how many terminals were visited (CSC148: positions searched).
    Done {
        state: S,
        player: Player,
        value: V,
        best: Option<(usize, M)>,
        terminals: u64,
        /// Positions answered from a memo table (CSC148's memoization; 0 elsewhere).
        table_hits: u64,
        /// Every root move as good as the best, by index (empty where the search does not
        /// know them: the 15-150 searchers, and pruning).
        ties: Vec<usize>,
    },
}

impl<S, M, V, R> Event<S, M, V, R> {
    /// The state the event is about (the root for `Search` and `Done`, the successor for
    /// `Generate`).
    pub fn state(&self) -> &S {
        match self {
            Event::Generate { child: state, .. }
            | Event::Search { state, .. }
            | Event::Enter { state, .. }
            | Event::Estimate { state, .. }
            | Event::Result { state, .. }
            | Event::Done { state, .. } => state,
        }
    }
}

/// The events of a game under a rule set.
pub type S14Event<G> = Event<
    <G as Game>::State,
    <G as Game>::Move,
    s14::Value<<G as Game>::Move>,
    s14::Answer<<G as Game>::Move>,
>;
pub type S12Event<G> = Event<
    <G as Game>::State,
    <G as Game>::Move,
    s12::Value<<G as Game>::Move>,
    s12::Answer<<G as Game>::Move>,
>;

/// Receives a search's events in trace order.
///
/// Parallel children each report to a [`Sink::branch`]; the searcher then [`Sink::join`]s the
/// branches in move order, so a trace is the same whatever the thread count.
pub trait Sink<E> {
    type Branch: Sink<E, Branch = Self::Branch> + Send;
    fn event(&mut self, event: E);
    fn branch(&self) -> Self::Branch;
    fn join(&mut self, branch: Self::Branch);
    /// Where a parallel phase and each of its children begin and where it ends; the same
    /// marks whether or not the phase forked. Printers ignore them; `check` reads them to
    /// accept the children's blocks in any order (`unordered: parallel`).
    #[inline(always)]
    fn parallel(&mut self, _mark: Parallel) {}
    /// Whether running children at once pays. A printer's does not: its work is printing,
    /// which is in move order on one thread whatever the search does, and a forked branch
    /// holds every one of its events until it joins (a printed minimax of a 10⁷-node tree
    /// held 3.8 GB and ran 2.7× slower forked than not). The output is the same either way.
    #[inline(always)]
    fn forks(&self) -> bool {
        true
    }
}

/// The structure of a parallel phase (Jamboree's after its sequential share, every node's
/// children in minimax) in the event stream: `Begin`, then `Child` before each child's events,
/// then `End`. A real parallel implementation may print the children's blocks in any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    Begin,
    Child,
    End,
}

/// Discards everything: an untraced search.
#[derive(Clone, Copy, Debug, Default)]
pub struct NullSink;

impl<E> Sink<E> for NullSink {
    type Branch = NullSink;
    #[inline(always)]
    fn event(&mut self, _: E) {}
    #[inline(always)]
    fn branch(&self) -> NullSink {
        NullSink
    }
    #[inline(always)]
    fn join(&mut self, _: NullSink) {}
}

/// Records events to replay later; the branch type of every printing sink.
#[derive(Clone, Debug)]
pub struct EventLog<E> {
    pub events: Vec<E>,
    /// Each parallel mark with the number of events before it.
    pub marks: Vec<(usize, Parallel)>,
}

impl<E> Default for EventLog<E> {
    fn default() -> Self {
        EventLog {
            events: Vec::new(),
            marks: Vec::new(),
        }
    }
}

impl<E> EventLog<E> {
    /// The events in order, each after the marks that come before it; the marks after the last
    /// event come last, with no event.
    pub fn replay(self, mut f: impl FnMut(&[Parallel], Option<E>)) {
        let mut marks = self.marks.into_iter().peekable();
        let mut pending = Vec::new();
        for (i, e) in self.events.into_iter().enumerate() {
            pending.clear();
            while let Some(&(_, m)) = marks.peek().filter(|(at, _)| *at == i) {
                pending.push(m);
                marks.next();
            }
            f(&pending, Some(e));
        }
        let rest: Vec<Parallel> = marks.map(|(_, m)| m).collect();
        if !rest.is_empty() {
            f(&rest, None);
        }
    }
}

impl<E: Send> Sink<E> for EventLog<E> {
    type Branch = EventLog<E>;
    fn event(&mut self, event: E) {
        self.events.push(event);
    }
    fn branch(&self) -> Self {
        EventLog::default()
    }
    fn join(&mut self, branch: Self) {
        let offset = self.events.len();
        self.events.extend(branch.events);
        self.marks
            .extend(branch.marks.into_iter().map(|(at, m)| (at + offset, m)));
    }
    fn parallel(&mut self, mark: Parallel) {
        self.marks.push((self.events.len(), mark));
    }
}

/// What a search found at the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The root's value (`None` only if no child gave one, which a well-formed search cannot).
    pub value: Option<Estimate>,
    /// The chosen move's index in the root's move order.
    pub best_index: Option<usize>,
    pub terminals: u64,
    /// Positions answered from a memo table (CSC148's memoization; 0 elsewhere).
    pub table_hits: u64,
    /// The search stopped where the program it models raises (a mistaken CS188 search that
    /// evaluates a state with no score): it chose no move.
    pub raised: bool,
}

/// Reports the end of a search (its `Done` event, with no table hits and no ties) and says
/// what it found: `value` is the root's value as the searcher keeps it, `estimate` the same
/// as an estimate.
fn done<S, M: Copy, V, R, K: Sink<Event<S, M, V, R>>>(
    sink: &mut K,
    state: S,
    player: Player,
    value: V,
    estimate: Option<Estimate>,
    best: Option<(usize, M)>,
    terminals: u64,
) -> Summary {
    sink.event(Event::Done {
        state,
        player,
        value,
        best,
        terminals,
        table_hits: 0,
        ties: Vec::new(),
    });
    Summary {
        value: estimate,
        best_index: best.map(|(i, _)| i),
        terminals,
        table_hits: 0,
        raised: false,
    }
}

/// Children at this much remaining depth or more are searched on rayon's pool; below it the
/// "parallel" children are searched one after another. Both give the same values and trace
/// (the trace is assembled in move order either way); forking tiny subtrees only costs time.
pub const FORK_DEPTH: u32 = 3;

/// The bound a player's node improves: alpha for Maxie, beta for Minnie (either year).
#[inline]
fn own<V: Copy>(player: Player, (alpha, beta): (V, V)) -> V {
    match player {
        Player::Maxie => alpha,
        Player::Minnie => beta,
    }
}

/// The bounds for the next child, with the node's own bound replaced.
#[inline]
fn with_own<V: Copy>(player: Player, (alpha, beta): (V, V), bound: V) -> (V, V) {
    match player {
        Player::Maxie => (bound, beta),
        Player::Minnie => (alpha, bound),
    }
}

/// The bounds a node's children are searched with once `bound` is the node's own (either
/// 15-150 year): its own bound replaced by `bound` (fail-soft: by the better of the two, as
/// the year's `improve` keeps it), or, as a variant that never narrows them, the bounds the
/// node was given.
#[inline(always)]
fn child_bounds<V: Copy>(
    player: Player,
    ab: (V, V),
    bound: V,
    flaws: impl Variant,
    improve: impl Fn(V, V) -> V,
) -> (V, V) {
    if flaws.at(Flaw::OriginalBounds, player) {
        ab
    } else if flaws.at(Flaw::FailSoft, player) {
        with_own(player, ab, improve(own(player, ab), bound))
    } else {
        with_own(player, ab, bound)
    }
}

/// Where a parallel phase's fold starts (either 15-150 year): the node's bound, or, as a
/// variant that forgets what the sequential share found, the bound the node was given.
#[inline(always)]
fn fold_start<V: Copy>(
    player: Player,
    ab: (V, V),
    bound: V,
    algorithm: Algorithm,
    flaws: impl Variant,
) -> V {
    if flaws.has(Flaw::FoldFromStart) && algorithm != Algorithm::Minimax {
        own(player, ab)
    } else {
        bound
    }
}

/// Should a search stop at this state and estimate it?
#[inline]
fn stops_at<G: Game>(game: &G, state: &G::State, depth: u32) -> Option<Estimate> {
    match game.status(state) {
        Status::Over(outcome) => Some(game.utility(state, outcome)),
        Status::InPlay if depth == 0 || game.no_moves_in_play(state) => Some(game.estimate(state)),
        Status::InPlay => None,
    }
}

/// A searcher's recursion into one child, as a trait so that the same code can hand the child
/// either the parent's sink (sequential) or a branch of it (parallel).
trait Descend<G: Game, E>: Sync {
    type Out: Send;
    fn descend<K: Sink<E>>(
        &self,
        mv: G::Move,
        child: &G::State,
        depth: u32,
        sink: &mut K,
    ) -> (Self::Out, u64);
}

/// A child searched on the pool: its move, result, terminals and recorded events.
type Searched<G, R, B> = (<G as Game>::Move, R, u64, B);

/// Searches `moves` of `state`, all with the same bounds and `depth` left, as Jamboree's
/// parallel phase and minimax do, and hands each child's result to `fold` in move order (or,
/// as a variant that folds them backwards, in the reverse order once all are in). Near the
/// root the children run on rayon's pool, each reporting to its own branch of `sink`, and the
/// branches are joined in move order; deeper down they run one after another (no
/// allocation). Returns the terminals visited.
#[allow(clippy::too_many_arguments)]
fn search_together<G, E, K, D, I, F>(
    game: &G,
    state: &G::State,
    moves: I,
    depth: u32,
    sink: &mut K,
    descend: &D,
    flaws: impl Variant,
    mut fold: F,
) -> u64
where
    G: Game,
    K: Sink<E>,
    D: Descend<G, E>,
    I: ExactSizeIterator<Item = G::Move>,
    F: FnMut(G::Move, D::Out),
{
    let backwards = flaws.has(Flaw::FoldOutOfOrder);
    let mut held = Vec::new();
    let mut take = |mv, r| {
        if backwards {
            held.push((mv, r));
        } else {
            fold(mv, r);
        }
    };
    let mut terminals = 0;
    // One child is no phase: there is no order to choose.
    let marked = moves.len() > 1;
    if marked {
        sink.parallel(Parallel::Begin);
    }
    // On one thread, forking would only record and replay the same events.
    if depth >= FORK_DEPTH && moves.len() > 1 && sink.forks() && crate::par::threads() > 1 {
        let moves: Vec<G::Move> = moves.collect();
        // Branches are made here, not on the pool: a sink need not be shareable.
        let branches: Vec<K::Branch> = moves.iter().map(|_| sink.branch()).collect();
        let children: Vec<(G::Move, K::Branch)> = moves.into_iter().zip(branches).collect();
        let per_child: Vec<Searched<G, D::Out, K::Branch>> =
            crate::par::map(children, |(mv, mut branch)| {
                let (r, t) = descend.descend(mv, &game.play(state, mv), depth, &mut branch);
                (mv, r, t, branch)
            });
        for (mv, r, t, branch) in per_child {
            sink.parallel(Parallel::Child);
            sink.join(branch);
            terminals += t;
            take(mv, r);
        }
    } else {
        for mv in moves {
            if marked {
                sink.parallel(Parallel::Child);
            }
            let (r, t) = descend.descend(mv, &game.play(state, mv), depth, sink);
            terminals += t;
            take(mv, r);
        }
    }
    if marked {
        sink.parallel(Parallel::End);
    }
    for (mv, r) in held.into_iter().rev() {
        fold(mv, r);
    }
    terminals
}

/// Runs a 15-150 searcher generic in its [`Variant`]: with no flaws as the reference, which
/// compiles without its flaw tests; otherwise as the variant, which checks its flaws as it
/// goes.
macro_rules! reference_or_variant {
    ($flaws:expr, |$variant:ident| $run:expr) => {
        if $flaws.is_none() {
            let $variant = $crate::search::mistakes::Reference;
            $run
        } else {
            let $variant = $flaws;
            $run
        }
    };
}
pub(crate) use reference_or_variant;

/// How many of `n` moves Jamboree searches sequentially: floor(prune_percentage * n), as
/// the handout computes it in floating point.
pub fn sequential_count(algorithm: Algorithm, n: usize) -> usize {
    sequential_share(algorithm, n, Flaws::NONE)
}

/// [`sequential_count`] as a variant computes it (rounded up with [`Flaw::RoundsUp`]).
fn sequential_share(algorithm: Algorithm, n: usize, flaws: impl Variant) -> usize {
    match algorithm {
        // The CSC148 algorithms never reach the 15-150 searchers (the loader keeps them to
        // the csc148 rules); were they to, they would search as minimax.
        Algorithm::Minimax
        | Algorithm::Memoize
        | Algorithm::GameStateTree
        | Algorithm::Expectimax
        | Algorithm::Expectiminimax => 0,
        Algorithm::AlphaBeta => n,
        Algorithm::Jamboree { prune_percentage } => {
            let share = prune_percentage * n as f64;
            let share = if flaws.has(Flaw::RoundsUp) {
                share.ceil()
            } else {
                share.floor()
            };
            (share.max(0.0) as usize).min(n)
        }
    }
}

/// The depth a child is searched at: one less, or as a variant gets it wrong.
#[inline]
fn child_depth(depth: u32, flaws: impl Variant) -> u32 {
    if flaws.is_none() {
        depth - 1
    } else if flaws.has(Flaw::DepthKept) {
        depth
    } else if flaws.has(Flaw::DepthTwice) {
        depth.saturating_sub(2)
    } else {
        depth - 1
    }
}

/// [`stops_at`] as a variant decides it (one ply early with [`Flaw::EstimatesEarly`]).
#[inline]
fn variant_stops_at<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    flaws: impl Variant,
) -> Option<Estimate> {
    let depth = if flaws.has(Flaw::EstimatesEarly) {
        depth.saturating_sub(1)
    } else {
        depth
    };
    stops_at(game, state, depth)
}

/// The root's move `m` is, with its index: the move itself, or (for a mistaken search that
/// returns the move of another position, a grandchild's edge) the root's move written the
/// same way, which is what a student's program that made the mistake prints.
pub(crate) fn root_move<G: Game>(
    game: &G,
    root: &G::State,
    m: G::Move,
) -> Option<(usize, G::Move)> {
    if let Some(i) = game.moves(root).position(|x| x == m) {
        return Some((i, m));
    }
    let written = |mv: G::Move| {
        let mut s = String::new();
        game.write_move(mv, &mut s);
        s
    };
    let want = written(m);
    game.moves(root)
        .enumerate()
        .find(|&(_, x)| written(x) == want)
}

/// The player a variant searches a state for (the other one with [`Flaw::PlayersSwapped`]).
#[inline]
fn player_of<G: Game>(game: &G, state: &G::State, flaws: impl Variant) -> Player {
    let p = game.player(state);
    if flaws.has(Flaw::PlayersSwapped) {
        p.other()
    } else {
        p
    }
}

/// A plain recursive minimax value with no bounds, trace or parallelism: the yardstick the
/// tests hold every searcher to.
pub fn minimax_value<G: Game>(game: &G, state: &G::State, depth: u32) -> Estimate {
    if let Some(e) = stops_at(game, state, depth) {
        return e;
    }
    let values = game
        .moves(state)
        .map(|m| minimax_value(game, &game.play(state, m), depth - 1));
    match game.player(state) {
        Player::Maxie => values.max(),
        Player::Minnie => values.min(),
    }
    .unwrap_or(Estimate::Draw)
}

/// The exact value of `state` searched `depth` deep, by a plain alpha-beta within
/// `(alpha, beta)` (fail-soft: a value outside the window is a bound on the true one).
fn alphabeta_value<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    mut alpha: Estimate,
    mut beta: Estimate,
) -> Estimate {
    if let Some(e) = stops_at(game, state, depth) {
        return e;
    }
    let maxie = game.player(state) == Player::Maxie;
    let mut best = if maxie {
        Estimate::MinnieWins
    } else {
        Estimate::MaxieWins
    };
    for m in game.moves(state) {
        let v = alphabeta_value(game, &game.play(state, m), depth - 1, alpha, beta);
        if maxie {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The exact value of `state` searched `depth` deep (a full window).
pub(crate) fn exact_value<G: Game>(game: &G, state: &G::State, depth: u32) -> Estimate {
    alphabeta_value(
        game,
        state,
        depth,
        Estimate::MinnieWins,
        Estimate::MaxieWins,
    )
}

/// The root moves (by index in move order) whose value, searched `depth` deep, is the
/// root's: every move a correct searcher could choose. Each is searched exactly, with a
/// full window, so the set is the same whichever searcher a case runs.
pub fn equally_good<G: Game>(game: &G, depth: u32) -> Vec<usize> {
    let root = game.start();
    if depth == 0 || stops_at(game, &root, depth).is_some() {
        return Vec::new();
    }
    let values: Vec<Estimate> = game
        .moves(&root)
        .map(|m| exact_value(game, &game.play(&root, m), depth - 1))
        .collect();
    let best = match game.player(&root) {
        Player::Maxie => values.iter().max(),
        Player::Minnie => values.iter().min(),
    };
    match best {
        Some(&b) => (0..values.len()).filter(|&i| values[i] == b).collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference (`Reference`, its flaw tests compiled away) searches exactly as the
    /// run-time flaw set with no flaw does: the same events, marks and summary, in both rule
    /// sets, on trees of several shapes, under every algorithm that reaches them.
    #[test]
    fn the_reference_searches_as_the_empty_flaw_set_does() {
        use crate::game::tree::{Generate, Tree, TreeGame};
        use mistakes::Reference;
        let algorithms = [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Jamboree {
                prune_percentage: 0.5,
            },
        ];
        for (branching, depth, seed) in [(2, 6, 1), (3, 4, 7), (5, 3, 2026)] {
            let tree = Tree::generate(&Generate {
                branching,
                depth,
                seed,
                min: -3,
                max: 3,
            });
            for root in [Player::Maxie, Player::Minnie] {
                let game = TreeGame::new(&tree, root);
                for algorithm in algorithms {
                    for d in [depth, depth - 1] {
                        let mut reference: EventLog<S14Event<TreeGame>> = EventLog::default();
                        let mut dynamic: EventLog<S14Event<TreeGame>> = EventLog::default();
                        let a = s14::run(&game, d, algorithm, Reference, &mut reference);
                        let b = s14::run(&game, d, algorithm, Flaws::NONE, &mut dynamic);
                        assert_eq!((a, &reference.events), (b, &dynamic.events));
                        assert_eq!(reference.marks, dynamic.marks);
                        let mut reference: EventLog<S12Event<TreeGame>> = EventLog::default();
                        let mut dynamic: EventLog<S12Event<TreeGame>> = EventLog::default();
                        let a = s12::run(&game, d, algorithm, Reference, &mut reference);
                        let b = s12::run(&game, d, algorithm, Flaws::NONE, &mut dynamic);
                        assert_eq!((a, &reference.events), (b, &dynamic.events));
                        assert_eq!(reference.marks, dynamic.marks);
                    }
                }
            }
        }
    }

    #[test]
    fn jamboree_rounds_down() {
        let j = |p| Algorithm::Jamboree {
            prune_percentage: p,
        };
        assert_eq!(sequential_count(j(0.5), 3), 1);
        assert_eq!(sequential_count(j(0.5), 2), 1);
        assert_eq!(sequential_count(j(0.0), 5), 0);
        assert_eq!(sequential_count(j(1.0), 5), 5);
        assert_eq!(sequential_count(j(0.75), 3), 2);
        assert_eq!(sequential_count(Algorithm::Minimax, 4), 0);
        assert_eq!(sequential_count(Algorithm::AlphaBeta, 4), 4);
    }
}

//! Berkeley CS188's multiagent search (the Pacman project's q2-q4: `MinimaxAgent`,
//! `AlphaBetaAgent`, `ExpectimaxAgent`), as its autograder's game-tree tests grade it.
//!
//! Agent 0 (Pacman) maximises; agents 1..n-1 (the ghosts) move in turn after it, each
//! minimising (minimax, alpha-beta) or moving uniformly at random (expectimax: the mean of
//! its successors' values). Depth counts rounds, every agent moving once in a round; a state
//! is evaluated (the autograder's `scoreEvaluationFunction`: `getScore()`) when the rounds are
//! used up or it has no actions, and at once when it is a win or a lose state. Values are
//! Python floats: a tree's decimals (`3.01`) as `float()` reads them, a mean summed in move
//! order and divided, as the course's code computes them.
//!
//! ```text
//! value(s, agent, d):             d = rounds done
//!   if s is a win or a lose state, or d == depth: evaluate s
//!   next = (agent + 1) % n;  d' = d + 1 if next == 0 else d
//!   Pacman: the max over its successors; a ghost: the min (expectimax: the mean)
//! getAction(root): for each action in order, v = value(successor, 1, ...); keep the first
//!   strictly best (v > best, from best = -inf); alpha-beta raises alpha with each v and
//!   passes it on
//! alpha-beta: Pacman stops once v > beta, a ghost once v < alpha (never on equality)
//! ```
//!
//! The root is `getAction`'s loop, not a node of its own: it never prunes. Each successor is
//! reported as generated ([`Event::Generate`]: `generateSuccessor(agent, action)`, which the
//! autograder counts) before it is searched. `prune_on: ">="` is the 15-150 handouts'
//! convention, pruning on equality too.
//!
//! The catalogue's CS188 mistakes ([`Flaw`]s) are switched on here: each changes one thing
//! a student's `multiAgents.py` gets wrong, and a variant that evaluates a state with no
//! score stops there, as the student's program does when `getScore()` raises.

use super::mistakes::{Flaw, Flaws};
use super::{Algorithm, Event, Sink, Summary};
use crate::game::{Estimate, Game, Outcome, Player, Status};

/// When alpha-beta prunes: once a value passes the other bound (CS188), or reaches it too (the
/// 15-150 handouts, CSC148 and CS10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PruneOn {
    /// `v > beta` at Pacman's nodes, `v < alpha` at a ghost's: CS188.
    #[default]
    Greater,
    /// `v >= beta`, `v <= alpha`.
    GreaterOrEqual,
}

impl PruneOn {
    pub const ALL: [PruneOn; 2] = [PruneOn::Greater, PruneOn::GreaterOrEqual];

    pub fn name(self) -> &'static str {
        match self {
            PruneOn::Greater => ">",
            PruneOn::GreaterOrEqual => ">=",
        }
    }

    pub fn parse(s: &str) -> Option<PruneOn> {
        PruneOn::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// A CS188 case's settings besides its algorithm and depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Pacman and the ghosts: `getNumAgents()`.
    pub agents: u8,
    pub prune_on: PruneOn,
    /// The tree's values are integers times 10^-places (see [`crate::game::tree::Tree::places`]).
    pub places: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            agents: 2,
            prune_on: PruneOn::Greater,
            places: 0,
        }
    }
}

/// A node's answer (the search's, not a verdict on a case): what its value is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer<M> {
    /// An evaluation, or a win or lose state's score.
    Leaf { value: f64 },
    /// Pacman's max or a ghost's min, and the first move that gives it. `cut` is `(searched,
    /// of)` when alpha-beta stopped before the last successor.
    Best {
        value: f64,
        agent: u32,
        maximises: bool,
        best: Option<(usize, M)>,
        cut: Option<(usize, usize)>,
    },
    /// An expectimax ghost's mean over its `of` successors.
    Mean { value: f64, agent: u32, of: usize },
}

impl<M> Answer<M> {
    pub fn value(&self) -> f64 {
        match *self {
            Answer::Leaf { value } | Answer::Best { value, .. } | Answer::Mean { value, .. } => {
                value
            }
        }
    }
}

/// The events of a CS188 search: bounds are (alpha, beta) as floats (the infinities where
/// nothing bounds), values are floats.
pub type Cs188Event<G> =
    Event<<G as Game>::State, <G as Game>::Move, f64, Answer<<G as Game>::Move>>;

/// A value as Python's `repr` writes a float: `10.0`, `-3.01`, `7.666666666666667`, `1e-05`,
/// `inf`. What CS188's `getScore()` returns, and so what a student's program sees.
pub fn write_float(out: &mut String, v: f64) {
    if v.is_nan() {
        out.push_str("nan");
        return;
    }
    if v.is_infinite() {
        out.push_str(if v > 0.0 { "inf" } else { "-inf" });
        return;
    }
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    // The shortest digits that read back as `v` (Rust's and Python's are the same), and
    // where the decimal point goes.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let point = exp + 1;
    if v < 0.0 {
        out.push('-');
    }
    // Python's `repr`: positional from 1e-4 up to below 1e16, else exponential.
    if (-3..=16).contains(&point) {
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            out.push_str(&digits);
        } else {
            let point = point as usize;
            if digits.len() <= point {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', point - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = point - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        let e = e.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(itoa::Buffer::new().format(e));
    }
}

/// An estimate as the float CS188's code sees: a tree's value over 10^places, the infinities
/// for certain wins and losses.
pub fn float_of(e: Estimate, places: u8) -> f64 {
    match e {
        Estimate::Guess(n) => n as f64 / 10f64.powi(i32::from(places)),
        Estimate::Draw => 0.0,
        Estimate::MaxieWins => f64::INFINITY,
        Estimate::MinnieWins => f64::NEG_INFINITY,
    }
}

/// A float as an estimate in the tree's units (rounded; the infinities are the certain
/// outcomes), for the summaries every searcher shares.
pub fn estimate_of(v: f64, places: u8) -> Estimate {
    if v == f64::INFINITY {
        Estimate::MaxieWins
    } else if v == f64::NEG_INFINITY || v.is_nan() {
        Estimate::MinnieWins
    } else {
        let scaled = (v * 10f64.powi(i32::from(places))).round();
        if scaled >= i64::MAX as f64 {
            Estimate::MaxieWins
        } else if scaled <= i64::MIN as f64 {
            Estimate::MinnieWins
        } else {
            Estimate::Guess(scaled as i64)
        }
    }
}

/// Searches `game` from its start, `depth` moves deep (the case's rounds times its agents),
/// reporting to `sink`.
pub fn search<G, K>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
    sink: &mut K,
) -> Summary
where
    G: Game,
    K: Sink<Cs188Event<G>>,
{
    search_variant(game, depth, algorithm, options, Flaws::NONE, sink)
}

/// The course's `Directions.STOP`: an action no game-tree test's root has (the
/// `illegal-action` mistake's return).
pub const STOP: &str = "Stop";

/// What CS188's `getScore()` raises on a state with no evaluation.
pub const NO_SCORE: &str =
    "getScore() called on non-terminal state or before maximum depth achieved.";

/// `getScore()` raised (the state has no score): the program stops there.
#[derive(Debug)]
struct Raised;

/// The root's value and each root action's (in move order), searched exactly: alpha-beta's
/// as minimax's, since a pruned search's later values are only bounds. `None` where the
/// search raises (it cannot: the loader refuses a depth that evaluates a state with no
/// score).
pub fn root_values<G: Game>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
) -> Option<(f64, Vec<f64>)> {
    let algorithm = match algorithm {
        Algorithm::AlphaBeta => Algorithm::Minimax,
        a => a,
    };
    let agents = u32::from(options.agents.max(1));
    let mut s = Searcher {
        game,
        algorithm,
        options,
        flaws: Flaws::NONE,
        agents,
        limit: depth / agents * agents,
        terminals: 0,
    };
    let quiet = &mut super::NullSink;
    let root = game.start();
    let next = s.next(0);
    let mut values = Vec::new();
    for mv in game.moves(&root) {
        let child = game.play(&root, mv);
        values.push(
            s.value(&child, next, 1, f64::NEG_INFINITY, f64::INFINITY, quiet)
                .ok()?,
        );
    }
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((best, values))
}

/// [`search`] with the catalogue's `flaws` (none is the reference). A variant whose program
/// would raise stops where it raises: its summary says so, and it reports no `Done`.
pub fn search_variant<G, K>(
    game: &G,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
    flaws: Flaws,
    sink: &mut K,
) -> Summary
where
    G: Game,
    K: Sink<Cs188Event<G>>,
{
    let real = u32::from(options.agents.max(1));
    // The agents the search takes turns between: all ghosts as one makes it two.
    let agents = if flaws.has(Flaw::GhostsOneLayer) {
        real.min(2)
    } else {
        real
    };
    // Where the search stops (the number of moves down): after `rounds` rounds of every
    // agent's move, or as a mistaken depth count makes it. The off-by-one rounds compose
    // with the others, so a pair of them is one count too.
    let mut rounds = depth / real;
    if flaws.has(Flaw::SearchesOneDeeper) {
        rounds += 1;
    }
    if flaws.has(Flaw::EstimatesEarly) {
        rounds = rounds.saturating_sub(1);
    }
    let limit = if flaws.has(Flaw::DepthPerAgent) {
        rounds
    } else if flaws.has(Flaw::DepthTwice) {
        // Down one as Pacman's node is entered and one more as it passes to the ghosts,
        // tested at every node: an odd count runs out at Pacman's node of round (d + 1) / 2,
        // an even one at the first ghost's after round d / 2.
        if rounds % 2 == 1 {
            rounds.div_ceil(2) * agents
        } else {
            rounds / 2 * agents + 1
        }
    } else {
        rounds * agents + u32::from(flaws.has(Flaw::DepthAtPacmanMove))
    };
    let mut s = Searcher {
        game,
        algorithm,
        options,
        flaws,
        agents,
        limit,
        terminals: 0,
    };
    match s.root(sink) {
        Ok(summary) => summary,
        Err(Raised) => Summary {
            terminals: s.terminals,
            raised: true,
            ..Summary::default()
        },
    }
}

struct Searcher<'g, G> {
    game: &'g G,
    algorithm: Algorithm,
    options: Options,
    flaws: Flaws,
    /// How many agents take turns (the tree's, unless a mistake says otherwise).
    agents: u32,
    /// The ply at which a state is evaluated (the rounds times the agents, for the reference).
    limit: u32,
    terminals: u64,
}

/// What an agent does at its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Max,
    Min,
    Mean,
}

impl<G: Game> Searcher<'_, G> {
    fn kind(&self, agent: u32) -> Kind {
        let f = self.flaws;
        if agent == 0 || f.has(Flaw::GhostsMax) {
            return Kind::Max;
        }
        // Expectimax's ghosts take the min where a mistake makes them minimax's (or
        // alpha-beta's), or only the first ghost averages.
        let takes_min = f.has(Flaw::ExpectimaxMin) || f.has(Flaw::ExpectimaxPrunes);
        let averages = self.algorithm == Algorithm::Expectimax
            && !takes_min
            && !(agent > 1 && f.has(Flaw::FirstGhostOnlyAverages));
        if averages {
            Kind::Mean
        } else {
            Kind::Min
        }
    }

    fn player(kind: Kind) -> Player {
        match kind {
            Kind::Max => Player::Maxie,
            Kind::Min | Kind::Mean => Player::Minnie,
        }
    }

    fn next(&self, agent: u32) -> u32 {
        (agent + 1) % self.agents
    }

    /// Does alpha-beta prune here? It never does with `PrunesNothing` (the test comes after
    /// every successor's value).
    fn prunes(&self) -> bool {
        let alpha_beta = self.algorithm == Algorithm::AlphaBeta
            || (self.algorithm == Algorithm::Expectimax && self.flaws.has(Flaw::ExpectimaxPrunes));
        alpha_beta && !self.flaws.has(Flaw::PrunesNothing)
    }

    /// Reports the successors of `state` that `moves` reach as generated, all of them.
    fn generate_all<K: Sink<Cs188Event<G>>>(
        &self,
        state: &G::State,
        agent: u32,
        moves: &[G::Move],
        sink: &mut K,
    ) -> Vec<G::State> {
        moves
            .iter()
            .map(|&mv| {
                let child = self.game.play(state, mv);
                sink.event(Event::Generate {
                    parent: state.clone(),
                    agent,
                    mv,
                    child: child.clone(),
                });
                child
            })
            .collect()
    }

    /// The successor that move `mv` (the `i`th) reaches, generated now unless every successor
    /// was generated first.
    fn successor<K: Sink<Cs188Event<G>>>(
        &self,
        state: &G::State,
        agent: u32,
        (i, mv): (usize, G::Move),
        generated: &[G::State],
        sink: &mut K,
    ) -> G::State {
        if let Some(child) = generated.get(i) {
            return child.clone();
        }
        let child = self.game.play(state, mv);
        sink.event(Event::Generate {
            parent: state.clone(),
            agent,
            mv,
            child: child.clone(),
        });
        child
    }

    /// `getAction`: the root's loop over its actions.
    fn root<K: Sink<Cs188Event<G>>>(&mut self, sink: &mut K) -> Result<Summary, Raised> {
        let game = self.game;
        let root = game.start();
        let player = Self::player(self.kind(0));
        sink.event(Event::Enter {
            state: root.clone(),
            player,
            depth: self.limit,
            bounds: (f64::NEG_INFINITY, f64::INFINITY),
        });
        if self.flaws.has(Flaw::NoAction) {
            // The template's `getAction`: nothing searched, `None` returned.
            sink.event(Event::Done {
                state: root,
                player,
                value: f64::NEG_INFINITY,
                best: None,
                terminals: 0,
                table_hits: 0,
                ties: Vec::new(),
            });
            return Ok(Summary {
                value: None,
                best_index: None,
                terminals: 0,
                table_hits: 0,
                raised: false,
            });
        }
        let moves: Vec<G::Move> = game.moves(&root).collect();
        let generated = if self.flaws.has(Flaw::GeneratesAll) {
            self.generate_all(&root, 0, &moves, sink)
        } else {
            Vec::new()
        };
        let mut best: Option<(f64, (usize, G::Move))> = None;
        let mut alpha = f64::NEG_INFINITY;
        let next = self.next(0);
        for (i, &mv) in moves.iter().enumerate() {
            let child = self.successor(&root, 0, (i, mv), &generated, sink);
            let v = self.value(&child, next, 1, alpha, f64::INFINITY, sink)?;
            // The best starts at -infinity, as the course's code (and its students') has
            // it: a value of -infinity (a mistaken search's) is never an action's.
            let b = best.map_or(f64::NEG_INFINITY, |(b, _)| b);
            let better = v > b || (v == b && self.flaws.has(Flaw::TiesOtherWay));
            if better {
                best = Some((v, (i, mv)));
            }
            if self.prunes() && !self.flaws.has(Flaw::RootAlphaKept) {
                alpha = alpha.max(v);
            }
        }
        let value = best.map_or(f64::NEG_INFINITY, |(v, _)| v);
        let best = best.map(|(_, b)| b);
        sink.event(Event::Result {
            state: root.clone(),
            player,
            result: Answer::Best {
                value,
                agent: 0,
                maximises: true,
                best,
                cut: None,
            },
        });
        sink.event(Event::Done {
            state: root,
            player,
            value,
            best,
            terminals: self.terminals,
            table_hits: 0,
            ties: Vec::new(),
        });
        Ok(Summary {
            value: Some(estimate_of(value, self.options.places)),
            best_index: best.map(|(i, _)| i),
            terminals: self.terminals,
            table_hits: 0,
            raised: false,
        })
    }

    /// The state's evaluation, `getScore()`; raises where the state has no score.
    fn evaluate<K: Sink<Cs188Event<G>>>(
        &mut self,
        state: &G::State,
        player: Player,
        estimate: Estimate,
        sink: &mut K,
    ) -> Result<f64, Raised> {
        self.terminals += 1;
        if self.flaws.has(Flaw::OwnEvaluation) {
            // The student's own function asks the tree state for Pacman's position.
            return Err(Raised);
        }
        sink.event(Event::Estimate {
            state: state.clone(),
            estimate,
        });
        let over = matches!(self.game.status(state), Status::Over(_));
        if !over && !self.game.has_estimate(state) {
            return Err(Raised);
        }
        let value = float_of(estimate, self.options.places);
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: Answer::Leaf { value },
        });
        Ok(value)
    }

    /// Recursion is bounded by the tree's height (or the depth).
    fn value<K: Sink<Cs188Event<G>>>(
        &mut self,
        state: &G::State,
        agent: u32,
        ply: u32,
        alpha: f64,
        beta: f64,
        sink: &mut K,
    ) -> Result<f64, Raised> {
        let game = self.game;
        let flaws = self.flaws;
        let kind = self.kind(agent);
        let player = Self::player(kind);
        sink.event(Event::Enter {
            state: state.clone(),
            player,
            depth: self.limit.saturating_sub(ply),
            bounds: (alpha, beta),
        });
        // A win not asked of with isWin() (`WinUnchecked`, at this node's side), or a loss
        // not asked of with isLose() (`LoseUnchecked`), is searched on as if in play.
        let win_unchecked = match game.status(state) {
            Status::Over(Outcome::Winner(Player::Maxie)) => flaws.at(Flaw::WinUnchecked, player),
            Status::Over(_) => flaws.at(Flaw::LoseUnchecked, player),
            Status::InPlay => false,
        };
        if !flaws.has(Flaw::WinLoseUnchecked) && !win_unchecked {
            if let Status::Over(outcome) = game.status(state) {
                return self.over(state, player, outcome, sink);
            }
        }
        if ply >= self.limit {
            if flaws.has(Flaw::OwnEvaluationAtDepth) {
                self.terminals += 1;
                return Err(Raised);
            }
            let e = game.estimate(state);
            return self.evaluate(state, player, e, sink);
        }
        let moves: Vec<G::Move> = game.moves(state).collect();
        if moves.is_empty() {
            return self.no_moves(state, agent, sink);
        }
        let generated = if flaws.has(Flaw::GeneratesAll) {
            self.generate_all(state, agent, &moves, sink)
        } else {
            Vec::new()
        };
        let node = Expanded {
            state,
            agent,
            ply,
            moves: &moves,
            generated: &generated,
        };
        let result = if kind == Kind::Mean {
            self.mean(&node, (alpha, beta), sink)?
        } else {
            self.best(&node, (alpha, beta), sink)?
        };
        let value = result.value();
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result,
        });
        Ok(value)
    }

    /// A win or lose state's value: `getScore()`, or the student's own score for it.
    fn over<K: Sink<Cs188Event<G>>>(
        &mut self,
        state: &G::State,
        player: Player,
        outcome: Outcome,
        sink: &mut K,
    ) -> Result<f64, Raised> {
        if !self.flaws.has(Flaw::WinLoseInfinite) {
            let e = self.game.utility(state, outcome);
            return self.evaluate(state, player, e, sink);
        }
        // Scored by the student's own function, not `getScore()`.
        let e = match outcome {
            Outcome::Winner(Player::Maxie) => Estimate::MaxieWins,
            _ => Estimate::MinnieWins,
        };
        self.terminals += 1;
        sink.event(Event::Estimate {
            state: state.clone(),
            estimate: e,
        });
        let value = float_of(e, 0);
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: Answer::Leaf { value },
        });
        Ok(value)
    }

    /// The value of a state with no moves that the search did not stop at.
    fn no_moves<K: Sink<Cs188Event<G>>>(
        &mut self,
        state: &G::State,
        agent: u32,
        sink: &mut K,
    ) -> Result<f64, Raised> {
        let game = self.game;
        let kind = self.kind(agent);
        let player = Self::player(kind);
        // A search that asks isWin() or isLose() only (at this side) has no test for a
        // state without actions either: the loop's start value stays.
        let one_asked =
            self.flaws.at(Flaw::WinUnchecked, player) || self.flaws.at(Flaw::LoseUnchecked, player);
        if !self.flaws.has(Flaw::WinLoseUnchecked) && !one_asked {
            let e = match game.status(state) {
                Status::Over(o) => game.utility(state, o),
                Status::InPlay => game.estimate(state),
            };
            return self.evaluate(state, player, e, sink);
        }
        // The loop over no actions leaves the starting value; a mean of none divides
        // by zero.
        let value = match kind {
            Kind::Max => f64::NEG_INFINITY,
            Kind::Min => f64::INFINITY,
            Kind::Mean => return Err(Raised),
        };
        sink.event(Event::Result {
            state: state.clone(),
            player,
            result: Answer::Best {
                value,
                agent,
                maximises: kind == Kind::Max,
                best: None,
                cut: None,
            },
        });
        Ok(value)
    }

    /// An expectimax ghost's node: the mean of its successors' values.
    fn mean<K: Sink<Cs188Event<G>>>(
        &mut self,
        node: &Expanded<G>,
        (alpha, beta): (f64, f64),
        sink: &mut K,
    ) -> Result<Answer<G::Move>, Raised> {
        let next = self.next(node.agent);
        let n = node.moves.len();
        let mut total = 0.0;
        for (i, &mv) in node.moves.iter().enumerate() {
            let child = self.successor(node.state, node.agent, (i, mv), node.generated, sink);
            total += self.value(&child, next, node.ply + 1, alpha, beta, sink)?;
        }
        Ok(Answer::Mean {
            value: total / n as f64,
            agent: node.agent,
            of: n,
        })
    }

    /// Pacman's max or a ghost's min, alpha-beta pruning (by the course's convention) where
    /// the algorithm does.
    fn best<K: Sink<Cs188Event<G>>>(
        &mut self,
        node: &Expanded<G>,
        (mut alpha, mut beta): (f64, f64),
        sink: &mut K,
    ) -> Result<Answer<G::Move>, Raised> {
        let agent = node.agent;
        let kind = self.kind(agent);
        let player = Self::player(kind);
        let next = self.next(agent);
        let n = node.moves.len();
        let maximises = kind == Kind::Max;
        let strict = (self.options.prune_on == PruneOn::Greater)
            != self.flaws.at(Flaw::CutConventionSwapped, player);
        let mut v = if maximises {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best = None;
        let mut cut = None;
        for (i, &mv) in node.moves.iter().enumerate() {
            let child = self.successor(node.state, agent, (i, mv), node.generated, sink);
            let cv = self.value(&child, next, node.ply + 1, alpha, beta, sink)?;
            let better = match (best, maximises) {
                (None, _) => true,
                (Some(_), true) => cv > v,
                (Some(_), false) => cv < v,
            };
            if better {
                v = cv;
                best = Some((i, mv));
            }
            if !self.prunes() {
                continue;
            }
            let stop = match (maximises, strict) {
                (true, true) => v > beta,
                (true, false) => v >= beta,
                (false, true) => v < alpha,
                (false, false) => v <= alpha,
            };
            if stop {
                if i + 1 < n {
                    cut = Some((i + 1, n));
                }
                break;
            }
            if maximises {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        Ok(Answer::Best {
            value: v,
            agent,
            maximises,
            best,
            cut,
        })
    }
}

/// A node whose successors are searched: its state, agent and ply, its moves, and the
/// successors generated before any was searched (where every one is).
struct Expanded<'n, G: Game> {
    state: &'n G::State,
    agent: u32,
    ply: u32,
    moves: &'n [G::Move],
    generated: &'n [G::State],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(v: f64) -> String {
        let mut s = String::new();
        write_float(&mut s, v);
        s
    }

    /// Each as `python3 -c 'print(repr(x))'` prints it.
    #[test]
    fn floats_print_as_python_repr() {
        let cases: [(f64, &str); 18] = [
            (10.0, "10.0"),
            (-4.0, "-4.0"),
            (3.01, "3.01"),
            (-2.99, "-2.99"),
            (23.0 / 3.0, "7.666666666666667"),
            (0.1 + 0.2, "0.30000000000000004"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (1.5e-7, "1.5e-07"),
            (0.5, "0.5"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (1e100, "1e+100"),
        ];
        for (v, want) in cases {
            assert_eq!(repr(v), want, "{v:?}");
        }
    }

    #[test]
    fn decimals_read_as_python_reads_them() {
        // float("3.01") is the double nearest 3.01: 301 / 100 correctly rounded.
        assert_eq!(float_of(Estimate::Guess(301), 2), 3.01);
        assert_eq!(float_of(Estimate::Guess(-499), 2), -4.99);
        assert_eq!(float_of(Estimate::Guess(-4), 0), -4.0);
        assert_eq!(estimate_of(3.01, 2), Estimate::Guess(301));
        assert_eq!(estimate_of(f64::INFINITY, 2), Estimate::MaxieWins);
    }

    /// The course's 6-tied-root shape: after min1 (10) the root's alpha is 10, and min2's
    /// first leaf equals it.
    fn tied() -> crate::game::tree::Tree {
        use crate::game::tree::TreeBuilder;
        let mut b = TreeBuilder::new();
        b.open("max");
        b.open("min1");
        b.leaf("A", 10);
        b.close();
        b.open("min2");
        b.leaf("B", 10);
        b.leaf("C", 0);
        b.close();
        b.close();
        let mut t = b.finish();
        t.set_agents(vec![Player::Maxie, Player::Minnie]);
        t
    }

    fn generated(prune_on: PruneOn, flaws: Flaws) -> (Vec<String>, Summary) {
        use crate::game::tree::TreeGame;
        use crate::search::EventLog;
        let t = tied();
        let game = TreeGame::new(&t, Player::Maxie);
        let mut log: EventLog<Cs188Event<TreeGame>> = EventLog::default();
        let options = Options {
            prune_on,
            ..Options::default()
        };
        let summary = search_variant(&game, 2, Algorithm::AlphaBeta, options, flaws, &mut log);
        let names = log
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Generate { child, .. } => Some(t.name(child.node)),
                _ => None,
            })
            .collect();
        (names, summary)
    }

    #[test]
    fn alpha_beta_prunes_past_the_bound_or_on_reaching_it() {
        let (past, summary) = generated(PruneOn::Greater, Flaws::NONE);
        assert_eq!(past, ["min1", "A", "min2", "B", "C"]);
        assert_eq!((summary.best_index, summary.raised), (Some(0), false));
        let (reaching, _) = generated(PruneOn::GreaterOrEqual, Flaws::NONE);
        assert_eq!(reaching, ["min1", "A", "min2", "B"]);
        // The catalogue's mistake is the other convention.
        let swapped = Flaws::NONE.with(Flaw::CutConventionSwapped, None);
        assert_eq!(generated(PruneOn::Greater, swapped).0, reaching);
        // Generating a node's successors before searching them shows C anyway.
        let all = Flaws::NONE.with(Flaw::GeneratesAll, None).union(swapped);
        assert_eq!(
            generated(PruneOn::Greater, all).0,
            ["min1", "min2", "A", "B", "C"]
        );
    }

    #[test]
    fn a_mistaken_search_stops_where_get_score_raises() {
        // Depth counted per agent: one move down, at min1, which has no score.
        let (names, summary) = generated(
            PruneOn::Greater,
            Flaws::NONE.with(Flaw::DepthPerAgent, None),
        );
        assert_eq!(names, ["min1"]);
        assert!(summary.raised);
        assert_eq!(summary.best_index, None);
    }

    #[test]
    fn pruning_conventions_parse_back() {
        for p in PruneOn::ALL {
            assert_eq!(PruneOn::parse(p.name()), Some(p));
        }
        assert_eq!(PruneOn::parse("=>"), None);
    }
}

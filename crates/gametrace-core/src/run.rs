//! Running one case of a spec: the tree or game, the case's searcher, the case's printer.

use crate::course::{with_course, Course, Events, Settings};
use crate::game::tree::{NodeId, TreeGame};
use crate::game::{Game, Playable, Player};
use crate::search::deadline::{self, TimedOut};
use crate::search::deepening::{self, Ordered};
use crate::search::mistakes::{Flaw, Flaws};
use crate::search::Algorithm;
use crate::search::{EventLog, NullSink, Parallel, Sink, Summary};
use crate::spec::{Case, Deepening, GameCase, MoveOrder, Spec};
use crate::trace::{LineSet, Printer, Style};
use std::collections::HashMap;
use std::io::{self, Write};
use std::time::Duration;

/// Searches `game` from its start as `case` says and writes the case's trace to `out`,
/// stopping at `limit` if there is one (what was printed by then stays printed).
pub fn trace_game_within<G: Game, W: Write>(
    game: &G,
    case: &Case,
    out: W,
    limit: Option<Duration>,
) -> Result<io::Result<(W, Summary)>, TimedOut> {
    match limit.filter(|_| crate::clock::TICKS) {
        None => Ok(trace_game(game, case, out)),
        Some(limit) => deadline::within(game, limit, |g| trace_game(g, case, out)),
    }
}

/// What a spec names `name`, traced to `out` as `gametrace run` prints it: a tree or game
/// case searched (stopping at the case's `time_limit`, else at `limit`), or a game scenario's
/// transcript. `None` when the spec has no such case or scenario (a task spec has neither).
///
/// Not generic, and that is its point: a release build does not share generic code between
/// crates, so a caller elsewhere (the command line, `suite`) calling [`trace_game_within`]
/// would compile every game × searcher × printer again. Through here it compiles none.
pub fn trace_named(
    doc: &crate::spec::Document,
    name: &str,
    out: &mut dyn Write,
    limit: Option<Duration>,
) -> Option<Result<io::Result<Summary>, TimedOut>> {
    use crate::spec::Document;
    let summary = |traced: Result<io::Result<(&mut dyn Write, Summary)>, TimedOut>| {
        traced.map(|w| w.map(|(_, s)| s))
    };
    match doc {
        Document::Tree(spec) => spec.case(name).map(|case| {
            let game = TreeGame::new(&spec.tree, case.root_player);
            summary(trace_game_within(
                &game,
                case,
                out,
                case.time_limit.or(limit),
            ))
        }),
        Document::Task(_) => None,
        Document::Game(g) => crate::with_game_spec!(g, spec => {
            match (spec.case(name), spec.scenario(name)) {
                (Some(c), _) => Some(summary(trace_game_within(
                    &c.game,
                    &c.case,
                    out,
                    c.case.time_limit.or(limit),
                ))),
                (None, Some(s)) => Some(Ok(out
                    .write_all(crate::game::scenario::transcript(s).as_bytes())
                    .map(|()| Summary::default()))),
                (None, None) => None,
            }
        }),
    }
}

/// What [`trace_game_within`] finds, without printing: the same searches, reporting to a
/// [`NullSink`], so no line is formatted and no parallel branch keeps its events for replay
/// (a traced parallel minimax holds every event of a branch until the branch joins).
pub fn summarize_game_within<G: Game>(
    game: &G,
    case: &Case,
    limit: Option<Duration>,
) -> Result<Summary, TimedOut> {
    match limit.filter(|_| crate::clock::TICKS) {
        None => Ok(summarize_game(game, case)),
        Some(limit) => deadline::within(game, limit, |g| summarize_game(g, case)),
    }
}

/// [`trace_game`]'s summary, untraced.
pub fn summarize_game<G: Game>(game: &G, case: &Case) -> Summary {
    if !case.deepening.is_iterative() {
        return summarize_once(game, case);
    }
    deepening_steps(game, case, Flaws::NONE).fold(Summary::default(), |total, step| {
        add_iteration(total, summarize_once(game, &step.case))
    })
}

fn summarize_once<G: Game>(game: &G, case: &Case) -> Summary {
    let ordered = Ordered::new(game, case.style.root_order());
    let summary = if case.algorithm == Algorithm::GameStateTree {
        Summary::default()
    } else {
        let how = case.settings();
        with_course!(case, course => course.search(&ordered, &how, &mut NullSink))
    };
    in_game_order(case, summary)
}

/// Searches `game` from its start as `case` says and writes the case's trace to `out`.
pub fn trace_game<G: Game, W: Write>(game: &G, case: &Case, out: W) -> io::Result<(W, Summary)> {
    if !case.deepening.is_iterative() {
        return trace_once(game, case, out);
    }
    let mut out = out;
    let mut total = Summary::default();
    for step in deepening_steps(game, case, Flaws::NONE) {
        writeln!(out, "{}", step.line(game))?;
        let (o, summary) = trace_once(game, &step.case, out)?;
        out = o;
        total = add_iteration(total, summary);
    }
    Ok((out, total))
}

/// One depth of an iteratively deepened case.
pub struct DeepeningStep {
    pub depth: u32,
    /// The case as searched at this depth.
    pub case: Case,
    /// The order the root's moves are tried in, by index in the game's order (`None`: the
    /// game's order); the case's `style.root_order` too, which the searches follow.
    pub order: Option<Vec<usize>>,
}

impl DeepeningStep {
    /// `Deepening to depth 2`, and where the root's moves are reordered
    /// `Deepening to depth 2, moves in order 1, 2, 0`.
    pub fn line<G: Game>(&self, game: &G) -> String {
        let mut line = format!("Deepening to depth {}", self.depth);
        if let Some(order) = &self.order {
            let moves: Vec<G::Move> = game.moves(&game.start()).collect();
            line.push_str(", moves in order ");
            for (k, &i) in order.iter().enumerate() {
                if k > 0 {
                    line.push_str(", ");
                }
                game.write_move(moves[i], &mut line);
            }
        }
        line
    }
}

/// Each depth of an iteratively deepened case, with the case as searched at that depth and,
/// under `move_order: best_first`, the root's moves ordered by the depth before (or, with the
/// catalogue's `deepening-keeps-order` among `flaws`, left in the game's order).
pub fn deepening_steps<'a, G: Game>(
    game: &'a G,
    case: &'a Case,
    flaws: Flaws,
) -> impl Iterator<Item = DeepeningStep> + 'a {
    let best_first = case.deepening == Deepening::Iterative(MoveOrder::BestFirst);
    let keeps_order = flaws.has(Flaw::DeepeningKeepsOrder);
    (1..=case.depth).map(move |depth| {
        let order = (best_first && depth > 1).then(|| match keeps_order {
            true => (0..game.moves(&game.start()).len()).collect(),
            false => deepening::best_first(game, depth - 1),
        });
        let mut once = Case {
            depth,
            deepening: Deepening::None,
            ..case.clone()
        };
        if let Some(order) = &order {
            once.style.root_order = order.clone();
        }
        DeepeningStep {
            depth,
            case: once,
            order,
        }
    })
}

/// An iteratively deepened search's summary: the deepest search's value and move, and the
/// terminals and table hits of every depth.
fn add_iteration(total: Summary, last: Summary) -> Summary {
    Summary {
        terminals: total.terminals + last.terminals,
        table_hits: total.table_hits + last.table_hits,
        ..last
    }
}

/// One search of `game` at the case's depth, traced to `out`, the root's moves in the case's
/// order (`style.root_order`); the summary names the chosen move by its index in the game's
/// order.
fn trace_once<G: Game, W: Write>(game: &G, case: &Case, out: W) -> io::Result<(W, Summary)> {
    let ordered = Ordered::new(game, case.style.root_order());
    let (out, summary) = trace_ordered(&ordered, case, out)?;
    Ok((out, in_game_order(case, summary)))
}

/// A summary of a search in the case's root order, with the chosen move's index in the game's.
fn in_game_order(case: &Case, summary: Summary) -> Summary {
    Summary {
        best_index: summary.best_index.map(|i| case.style.game_index(i)),
        ..summary
    }
}

/// [`trace_once`] on the game as ordered.
fn trace_ordered<G: Game, W: Write>(game: &G, case: &Case, mut out: W) -> io::Result<(W, Summary)> {
    if case.algorithm == Algorithm::GameStateTree {
        let report = crate::game::state_tree::report(
            game,
            &case.metrics,
            crate::game::state_tree::Limits::default(),
        );
        out.write_all(report.as_bytes())?;
        return Ok((out, Summary::default()));
    }
    let (out, summary) = printed(game, case, case.style.clone(), Flaws::NONE, out);
    Ok((out?, summary))
}

/// One search of `game` by the case's course (the catalogue's variant `flaws`; none is the
/// reference), its events printed in the case's dialect with `style` to `out` as they come:
/// the writer back (or its first error), and the search's summary.
fn printed<G: Game, W: Write>(
    game: &G,
    case: &Case,
    style: Style,
    flaws: Flaws,
    out: W,
) -> (io::Result<W>, Summary) {
    let how = Settings {
        flaws,
        ..case.settings()
    };
    with_course!(case, course => {
        let mut p = course.printer(game, out, style, &how);
        let summary = course.search(game, &how, &mut p);
        (p.finish(), summary)
    })
}

/// Searches `spec`'s tree as `case` says and writes the case's trace to `out`.
pub fn run_case<W: Write>(spec: &Spec, case: &Case, out: W) -> io::Result<(W, Summary)> {
    trace_game(&TreeGame::new(&spec.tree, case.root_player), case, out)
}

fn text_of(bytes: Vec<u8>) -> String {
    // Printers write only UTF-8 (labels and names come from UTF-8 specs).
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The case's trace as text.
pub fn trace_of(spec: &Spec, case: &Case) -> String {
    // Through `dyn Write`, the writer [`trace_named`] prints to: one copy of the searchers.
    let mut bytes = Vec::new();
    let game = TreeGame::new(&spec.tree, case.root_player);
    trace_game(&game, case, &mut bytes as &mut dyn Write).expect("writing to memory cannot fail");
    text_of(bytes)
}

/// A game case's trace as text.
pub fn game_trace_of<G: Playable>(case: &GameCase<G>) -> String {
    let mut bytes = Vec::new();
    trace_game(&case.game, &case.case, &mut bytes as &mut dyn Write)
        .expect("writing to memory cannot fail");
    text_of(bytes)
}

/// Where a reference line's state is: a tree node, or the moves (by index in move order) that
/// reach a game state from the searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Node(NodeId, Player),
    Moves(Vec<usize>, Player),
}

/// A line of a reference trace, and the state it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefLine {
    pub text: String,
    pub place: Place,
    /// The parallel phases the line is printed in, outermost first: the blocks a parallel
    /// implementation may print in another order (`unordered: parallel`).
    pub blocks: Blocks,
}

/// A line's parallel blocks, outermost first (empty outside every parallel phase); shared by
/// the lines of a block.
pub type Blocks = std::sync::Arc<[Block]>;

/// One child's block in one parallel phase of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The phase, numbered in trace order.
    pub phase: u32,
    /// The child, numbered in move order within the phase.
    pub child: u32,
}

/// Follows [`Parallel`] marks to tell each line its [`Blocks`].
#[derive(Default)]
struct Nesting {
    stack: Vec<Block>,
    phases: u32,
    current: Blocks,
}

impl Nesting {
    fn mark(&mut self, marks: &[Parallel]) {
        if marks.is_empty() {
            return;
        }
        for m in marks {
            match m {
                Parallel::Begin => {
                    self.stack.push(Block {
                        phase: self.phases,
                        child: u32::MAX,
                    });
                    self.phases += 1;
                }
                Parallel::Child => {
                    if let Some(top) = self.stack.last_mut() {
                        top.child = top.child.wrapping_add(1);
                    }
                }
                Parallel::End => {
                    self.stack.pop();
                }
            }
        }
        self.current = self.stack.as_slice().into();
    }
}

/// What may stop a search whose lines are wanted: nothing, a number of expansions (a
/// variant of the catalogue that searches far more than the output it is compared with), or a
/// moment (the case's time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Unlimited,
    Expansions(u64),
    Until(crate::clock::Instant),
}

/// The trace of `case` searching `game` as the variant `flaws` of the catalogue prints it
/// (`Flaws::NONE`: the reference), with only the line kinds in `lines`, each line with the
/// place of its state: what `check` compares an implementation's output with and locates
/// divergences by. Stopped at `limit` (`None` then).
pub fn variant_lines_of<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
    flaws: Flaws,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    if !case.deepening.is_iterative() {
        return variant_lines_once(game, case, lines, place, flaws, limit);
    }
    let mut all = Vec::new();
    let mut total = Summary::default();
    let root = place(&game.start());
    for step in deepening_steps(game, case, flaws) {
        all.push(RefLine {
            text: step.line(game),
            place: root.clone(),
            blocks: Blocks::default(),
        });
        let (lines, summary) = variant_lines_once(game, &step.case, lines, &place, flaws, limit)?;
        all.extend(lines);
        total = add_iteration(total, summary);
    }
    Some((all, total))
}

/// [`variant_lines_of`] for one search at the case's depth, the root's moves in the case's
/// order.
fn variant_lines_once<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
    flaws: Flaws,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    let ordered = Ordered::new(game, case.style.root_order());
    let (lines, summary) = variant_lines_ordered(&ordered, case, lines, place, flaws, limit)?;
    Some((lines, in_game_order(case, summary)))
}

/// [`variant_lines_once`] on the game as ordered.
fn variant_lines_ordered<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
    flaws: Flaws,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    let mut style = case.style.clone();
    style.lines = lines;
    let how = Settings {
        flaws,
        ..case.settings()
    };
    with_course!(case, course => located(course, game, &how, style, place, limit))
}

/// A search by `course` as `how` says, stopped at `limit`, its events printed with `style`,
/// each line with the place of its state.
fn located<C: Course, G: Game>(
    course: C,
    game: &G,
    how: &Settings,
    style: Style,
    place: impl Fn(&G::State) -> Place,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    let (log, summary) = logged(course, game, how, limit)?;
    let mut p = course.printer(game, Vec::new(), style, how);
    let mut owners = Vec::new();
    let mut nesting = Nesting::default();
    log.replay(|marks, event| {
        nesting.mark(marks);
        let Some(event) = event else { return };
        let at = place(event.state());
        let before = p.get_ref().len();
        p.event(event);
        let new_lines = p.get_ref()[before..]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        owners.extend(std::iter::repeat_n(
            (at, nesting.current.clone()),
            new_lines,
        ));
    });
    let bytes = p.finish().expect("writing to memory cannot fail");
    let text = String::from_utf8_lossy(&bytes);
    let lines = text
        .lines()
        .zip(owners)
        .map(|(t, (place, blocks))| RefLine {
            text: t.to_owned(),
            place,
            blocks,
        })
        .collect();
    Some((lines, summary))
}

/// The events of a search by `course` as `how` says, and its summary; `None` when it went past
/// `limit`.
fn logged<C: Course, G: Game>(
    course: C,
    game: &G,
    how: &Settings,
    limit: Limit,
) -> Option<(EventLog<Events<C, G>>, Summary)> {
    let mut log = EventLog::default();
    let summary = match limit {
        Limit::Unlimited => course.search(game, how, &mut log),
        Limit::Expansions(b) => deadline::within_budget(game, b, |g| {
            let mut log_b = EventLog::default();
            let summary = course.search(g, how, &mut log_b);
            log = log_b;
            summary
        })
        .ok()?,
        // No clock in the browser (see `crate::clock`): the moment never comes, and the
        // searches watched for it need not be built there.
        #[cfg(target_arch = "wasm32")]
        Limit::Until(_) => course.search(game, how, &mut log),
        #[cfg(not(target_arch = "wasm32"))]
        Limit::Until(t) => {
            let left = t.saturating_duration_since(crate::clock::Instant::now());
            if left.is_zero() {
                return None;
            }
            deadline::within(game, left, |g| {
                let mut log_t = EventLog::default();
                let summary = course.search(g, how, &mut log_t);
                log = log_t;
                summary
            })
            .ok()?
        }
    };
    Some((log, summary))
}

/// A tree case's reference lines, each placed at its node.
pub fn reference_lines(spec: &Spec, case: &Case, lines: LineSet) -> (Vec<RefLine>, Summary) {
    variant_lines(spec, case, lines, Flaws::NONE, Limit::Unlimited).expect("no budget")
}

/// A tree case's lines as a variant of the catalogue prints them.
pub fn variant_lines(
    spec: &Spec,
    case: &Case,
    lines: LineSet,
    flaws: Flaws,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    let game = TreeGame::new(&spec.tree, case.root_player);
    variant_lines_of(
        &game,
        case,
        lines,
        |s| Place::Node(s.node, s.player),
        flaws,
        limit,
    )
}

/// A game case's lines as a variant of the catalogue prints them (`Flaws::NONE`: the
/// reference), each placed by the moves that reach its state.
pub fn game_variant_lines<G: Playable>(
    case: &GameCase<G>,
    lines: LineSet,
    flaws: Flaws,
    limit: Limit,
) -> Option<(Vec<RefLine>, Summary)> {
    let tracked = Tracked(&case.game);
    variant_lines_of(
        &tracked,
        &case.case,
        lines,
        |s| Place::Moves(s.path.clone(), case.game.player(&s.state)),
        flaws,
        limit,
    )
}

/// A game whose states remember the moves that reached them, so a reference line can say
/// where in the search it was printed. Everything else is the inner game's.
struct Tracked<'g, G>(&'g G);

#[derive(Clone, Debug, PartialEq)]
struct TrackedState<S> {
    state: S,
    path: Vec<usize>,
}

impl<S> std::borrow::Borrow<S> for TrackedState<S> {
    fn borrow(&self) -> &S {
        &self.state
    }
}

/// The start, reached by no move.
impl<S> From<S> for TrackedState<S> {
    fn from(state: S) -> Self {
        TrackedState {
            state,
            path: Vec::new(),
        }
    }
}

/// A state played remembers the move's index; the rest is the game's.
impl<G: Game> crate::game::Delegate for Tracked<'_, G> {
    type Inner = G;
    type State = TrackedState<G::State>;
    type Moves<'a>
        = G::Moves<'a>
    where
        Self: 'a;

    fn inner(&self) -> &G {
        self.0
    }
    fn play(&self, s: &Self::State, mv: G::Move) -> Self::State {
        let index = self.0.moves(&s.state).position(|m| m == mv).unwrap_or(0);
        let mut path = s.path.clone();
        path.push(index);
        TrackedState {
            state: self.0.play(&s.state, mv),
            path,
        }
    }
}

/// How far a variant's trace agrees with the lines an output holds, from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    /// Lines agreeing from the start.
    pub matched: usize,
    /// The search ran to its end (every line it printed agreed); its summary.
    pub finished: Option<Summary>,
}

/// Stops a variant's search at its first line that differs from the output's.
#[derive(Debug)]
struct Diverged;

/// The lines a variant is held against as it prints: an output's, read as `check` reads
/// lines (normalised unless `exact`).
#[derive(Clone, Copy)]
pub struct Want<'w> {
    pub lines: &'w [String],
    pub exact: bool,
    /// How often each line occurs, when the output may print blocks in any order: a variant
    /// then stops at its first line the output does not have (or has fewer times).
    pub any_order: Option<&'w HashMap<&'w str, u32>>,
    /// The output never prints S14's `(* Pruned *)` mark (a student's own tracing of a
    /// search that keeps no such flag): the variant's lines are compared without it.
    pub without_pruned_mark: bool,
}

/// The mark S14's traces put after a pruned node's result.
pub const PRUNED_MARK: &str = " (* Pruned *)";

/// How often each of `lines` occurs.
pub fn line_counts(lines: &[String]) -> HashMap<&str, u32> {
    let mut counts = HashMap::with_capacity(lines.len());
    for l in lines {
        *counts.entry(l.as_str()).or_insert(0) += 1;
    }
    counts
}

/// A writer that compares each finished line with the next line wanted (or, in any order,
/// with the lines not yet used), and unwinds at the first that differs.
struct Comparing<'w> {
    want: Want<'w>,
    used: HashMap<&'w str, u32>,
    matched: &'w std::cell::Cell<usize>,
    line: Vec<u8>,
    /// The search's budget, and whether it parted from the output: where nothing unwinds (the
    /// browser) a difference spends the budget to wind the search down, and the lines it
    /// prints meanwhile are not compared.
    budget: &'w deadline::Budget,
    diverged: &'w std::cell::Cell<bool>,
}

impl Write for Comparing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.diverged.get() || deadline::Tick::stopped(self.budget) {
            return Ok(buf.len());
        }
        for &b in buf {
            if b != b'\n' {
                self.line.push(b);
                continue;
            }
            let raw = String::from_utf8_lossy(&self.line);
            let normalised;
            let mut text: &str = if self.want.exact {
                &raw
            } else {
                normalised = crate::diff::normalize(&raw);
                &normalised
            };
            if self.want.without_pruned_mark {
                text = text.strip_suffix(PRUNED_MARK).unwrap_or(text);
            }
            let agrees = match self.want.any_order {
                None => self
                    .want
                    .lines
                    .get(self.matched.get())
                    .is_some_and(|w| w == text),
                Some(counts) => match counts.get_key_value(text) {
                    Some((&key, &n)) => {
                        let used = self.used.entry(key).or_insert(0);
                        *used += 1;
                        *used <= n
                    }
                    None => false,
                },
            };
            if !agrees {
                self.diverged.set(true);
                if deadline::UNWINDS {
                    std::panic::resume_unwind(Box::new(Diverged));
                }
                self.budget.spend();
                return Ok(buf.len());
            }
            self.matched.set(self.matched.get() + 1);
            self.line.clear();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs a variant of the catalogue (`flaws`) printing the line kinds `lines`, comparing as it
/// prints with `want` and stopping at the first line that differs: diagnosing a FAIL costs
/// each variant only the part of the search up to where it parts from the output. `None`
/// when it went past `budget` expansions first.
pub fn variant_prefix_of<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    flaws: Flaws,
    budget: u64,
    want: Want,
) -> Option<Prefix> {
    let matched = std::cell::Cell::new(0);
    let diverged = std::cell::Cell::new(false);
    let finished = deadline::within_budget(game, budget, |g| {
        let mut writer = Comparing {
            want,
            used: HashMap::new(),
            matched: &matched,
            line: Vec::new(),
            budget: g.watch(),
            diverged: &diverged,
        };
        let run = std::panic::AssertUnwindSafe(|| {
            if !case.deepening.is_iterative() {
                return compare_once(g, case, lines, flaws, writer).1;
            }
            let mut total = Summary::default();
            for step in deepening_steps(g, case, flaws) {
                let _ = writeln!(writer, "{}", step.line(g));
                let (w, summary) = compare_once(g, &step.case, lines, flaws, writer);
                writer = w;
                total = add_iteration(total, summary);
            }
            total
        });
        if !deadline::UNWINDS {
            return Some(run());
        }
        match std::panic::catch_unwind(run) {
            Ok(summary) => Some(summary),
            Err(payload) if payload.is::<Diverged>() => None,
            Err(other) => std::panic::resume_unwind(other),
        }
    });
    // A search that parted from the output is not finished, whatever stopped it after.
    let finished = match finished {
        _ if diverged.get() => None,
        Ok(finished) => finished,
        Err(deadline::OverBudget) => return None,
    };
    Some(Prefix {
        matched: matched.get(),
        finished,
    })
}

/// One search of a variant at the case's depth, the root's moves in the case's order,
/// printing the line kinds `lines` to `out`.
fn compare_once<G: Game, W: Write>(
    g: &G,
    case: &Case,
    lines: LineSet,
    flaws: Flaws,
    out: W,
) -> (W, Summary) {
    let ordered = Ordered::new(g, case.style.root_order());
    let (out, summary) = compare_ordered(&ordered, case, lines, flaws, out);
    (out, in_game_order(case, summary))
}

/// [`compare_once`] on the game as ordered.
fn compare_ordered<G: Game, W: Write>(
    g: &G,
    case: &Case,
    lines: LineSet,
    flaws: Flaws,
    out: W,
) -> (W, Summary) {
    let mut style = case.style.clone();
    style.lines = lines;
    let (out, summary) = printed(g, case, style, flaws, out);
    // The writer cannot fail (it unwinds instead), so `finish` always gives it back.
    (
        out.unwrap_or_else(|_| unreachable!("in-memory writer")),
        summary,
    )
}

//! Running one case of a spec: the tree or game, the case's searcher, the case's printer.

use crate::game::tree::{NodeId, TreeGame};
use crate::game::{Estimate, Game, Playable, Player, Status};
use crate::search::cs10;
use crate::search::csc148::{self, Strategy};
use crate::search::deadline::{self, TimedOut};
use crate::search::expectimax;
use crate::search::mistakes::Flaws;
use crate::search::Algorithm;
use crate::search::{s12, s14, EventLog, Parallel, Summary};
use crate::spec::{Case, Deepening, GameCase, Rules, Spec};
use crate::trace::{
    Cs10Printer, Csc148Printer, Dialect, ExpectimaxPrinter, LineSet, ReplPrinter, S12Printer,
    S14Printer,
};
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
    match limit {
        None => Ok(trace_game(game, case, out)),
        Some(limit) => deadline::within(game, limit, |g| trace_game(g, case, out)),
    }
}

/// Searches `game` from its start as `case` says and writes the case's trace to `out`.
pub fn trace_game<G: Game, W: Write>(game: &G, case: &Case, out: W) -> io::Result<(W, Summary)> {
    match case.deepening {
        Deepening::None => trace_once(game, case, out),
        Deepening::Iterative => {
            let mut out = out;
            let mut total = Summary::default();
            for (d, once) in deepening_steps(case) {
                writeln!(out, "{}", deepening_line(d))?;
                let (o, summary) = trace_once(game, &once, out)?;
                out = o;
                total = add_iteration(total, summary);
            }
            Ok((out, total))
        }
    }
}

/// The line before each depth of an iteratively deepened search.
pub fn deepening_line(depth: u32) -> String {
    format!("Deepening to depth {depth}")
}

/// Each depth of an iteratively deepened case, with the case as searched at that depth.
fn deepening_steps(case: &Case) -> impl Iterator<Item = (u32, Case)> + '_ {
    (1..=case.depth).map(move |d| {
        (
            d,
            Case {
                depth: d,
                deepening: Deepening::None,
                ..case.clone()
            },
        )
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

/// One search of `game` at the case's depth, traced to `out`.
fn trace_once<G: Game, W: Write>(game: &G, case: &Case, mut out: W) -> io::Result<(W, Summary)> {
    let style = case.style.clone();
    let (depth, algorithm) = (case.depth, case.algorithm);
    if algorithm == Algorithm::GameStateTree {
        let report = crate::game::state_tree::report(
            game,
            &case.metrics,
            crate::game::state_tree::Limits::default(),
        );
        out.write_all(report.as_bytes())?;
        return Ok((out, Summary::default()));
    }
    match (case.dialect, case.rules) {
        (Dialect::Expectimax, _) | (_, Rules::Expectimax) => {
            let mut p = ExpectimaxPrinter::new(game, out, style);
            let summary = expectimax::search(game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Csc148, _) | (_, Rules::Csc148) => {
            let strategy = Strategy::of(algorithm, depth);
            let mut p = Csc148Printer::new(game, out, style, strategy);
            let summary = csc148::search(game, strategy, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Cs10, _) | (_, Rules::Cs10) => {
            let windowed = algorithm != Algorithm::Minimax;
            let mut p = Cs10Printer::new(game, out, style, windowed);
            let (summary, _) = cs10::search(game, depth, algorithm, case.cs10, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::S14, _) => {
            let mut p = S14Printer::new(game, out, style);
            let summary = s14::search(game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::S12, _) => {
            let mut p = S12Printer::new(game, out, style);
            let summary = s12::search(game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Repl, Rules::S14) => {
            let mut p = ReplPrinter::new(game, out, style);
            let summary = s14::search(game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Repl, Rules::S12) => {
            let mut p = ReplPrinter::new(game, out, style);
            let summary = s12::search(game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
    }
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
    let (bytes, _) = run_case(spec, case, Vec::new()).expect("writing to memory cannot fail");
    text_of(bytes)
}

/// A game case's trace as text.
pub fn game_trace_of<G: Playable>(case: &GameCase<G>) -> String {
    let (bytes, _) =
        trace_game(&case.game, &case.case, Vec::new()).expect("writing to memory cannot fail");
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

/// The trace of `case` searching `game`, with only the line kinds in `lines`, each line with
/// the place of its state: what `check` compares an implementation's output with and locates
/// divergences by.
pub fn reference_lines_of<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
) -> (Vec<RefLine>, Summary) {
    variant_lines_of(game, case, lines, place, Flaws::NONE, None)
        .expect("a search without a budget is never over it")
}

/// [`reference_lines_of`] for a variant of the catalogue (`flaws`), stopped after `budget`
/// expansions if one is given (`None` then).
pub fn variant_lines_of<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
    flaws: Flaws,
    budget: Option<u64>,
) -> Option<(Vec<RefLine>, Summary)> {
    match case.deepening {
        Deepening::None => variant_lines_once(game, case, lines, place, flaws, budget),
        Deepening::Iterative => {
            let mut all = Vec::new();
            let mut total = Summary::default();
            let root = place(&game.start());
            for (d, once) in deepening_steps(case) {
                all.push(RefLine {
                    text: deepening_line(d),
                    place: root.clone(),
                    blocks: Blocks::default(),
                });
                let (lines, summary) =
                    variant_lines_once(game, &once, lines, &place, flaws, budget)?;
                all.extend(lines);
                total = add_iteration(total, summary);
            }
            Some((all, total))
        }
    }
}

/// [`variant_lines_of`] for one search at the case's depth.
fn variant_lines_once<G: Game>(
    game: &G,
    case: &Case,
    lines: LineSet,
    place: impl Fn(&G::State) -> Place,
    flaws: Flaws,
    budget: Option<u64>,
) -> Option<(Vec<RefLine>, Summary)> {
    let mut style = case.style.clone();
    style.lines = lines;
    let (depth, algorithm) = (case.depth, case.algorithm);
    // `search` runs a searcher on `g` into `log`; `printer` prints the events it recorded.
    macro_rules! located {
        (|$g:ident, $log:ident| $search:expr, $printer:expr) => {{
            let mut log = EventLog::default();
            let summary = match budget {
                None => {
                    let ($g, $log) = (game, &mut log);
                    $search
                }
                Some(b) => deadline::within_budget(game, b, |$g| {
                    let mut log_b = EventLog::default();
                    let summary = {
                        let $log = &mut log_b;
                        $search
                    };
                    log = log_b;
                    summary
                })
                .ok()?,
            };
            let mut p = $printer;
            let mut owners = Vec::new();
            let mut nesting = Nesting::default();
            log.replay(|marks, event| {
                nesting.mark(marks);
                let Some(event) = event else { return };
                let at = place(event.state());
                let before = p.get_ref().len();
                crate::search::Sink::event(&mut p, event);
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
        }};
        ($searcher:ident, $printer:ident) => {
            located!(
                |g, log| $searcher::search_variant(g, depth, algorithm, flaws, log),
                $printer::new(game, Vec::new(), style)
            )
        };
    }
    match (case.dialect, case.rules) {
        // The catalogue has no expectimax mistakes: `flaws` is always none here.
        (Dialect::Expectimax, _) | (_, Rules::Expectimax) => located!(
            |g, log| expectimax::search(g, depth, algorithm, log),
            ExpectimaxPrinter::new(game, Vec::new(), style)
        ),
        (Dialect::Csc148, _) | (_, Rules::Csc148) => {
            let strategy = Strategy::of(algorithm, depth);
            located!(
                |g, log| csc148::search_variant(g, strategy, flaws, log),
                Csc148Printer::new(game, Vec::new(), style, strategy)
            )
        }
        (Dialect::Cs10, _) | (_, Rules::Cs10) => {
            let windowed = algorithm != Algorithm::Minimax;
            located!(
                |g, log| cs10::search_variant(g, depth, algorithm, case.cs10, flaws, log).0,
                Cs10Printer::new(game, Vec::new(), style, windowed)
            )
        }
        (Dialect::S14, _) => located!(s14, S14Printer),
        (Dialect::S12, _) => located!(s12, S12Printer),
        (Dialect::Repl, Rules::S14) => located!(s14, ReplPrinter),
        (Dialect::Repl, Rules::S12) => located!(s12, ReplPrinter),
    }
}

/// A tree case's reference lines, each placed at its node.
pub fn reference_lines(spec: &Spec, case: &Case, lines: LineSet) -> (Vec<RefLine>, Summary) {
    variant_lines(spec, case, lines, Flaws::NONE, None).expect("no budget")
}

/// A tree case's lines as a variant of the catalogue prints them.
pub fn variant_lines(
    spec: &Spec,
    case: &Case,
    lines: LineSet,
    flaws: Flaws,
    budget: Option<u64>,
) -> Option<(Vec<RefLine>, Summary)> {
    let game = TreeGame::new(&spec.tree, case.root_player);
    variant_lines_of(
        &game,
        case,
        lines,
        |s| Place::Node(s.node, s.player),
        flaws,
        budget,
    )
}

/// A game case's reference lines, each placed by the moves that reach its state.
pub fn game_reference_lines<G: Playable>(
    case: &GameCase<G>,
    lines: LineSet,
) -> (Vec<RefLine>, Summary) {
    game_variant_lines(case, lines, Flaws::NONE, None).expect("no budget")
}

/// A game case's lines as a variant of the catalogue prints them.
pub fn game_variant_lines<G: Playable>(
    case: &GameCase<G>,
    lines: LineSet,
    flaws: Flaws,
    budget: Option<u64>,
) -> Option<(Vec<RefLine>, Summary)> {
    let tracked = Tracked(&case.game);
    variant_lines_of(
        &tracked,
        &case.case,
        lines,
        |s| Place::Moves(s.path.clone(), case.game.player(&s.state)),
        flaws,
        budget,
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

impl<G: Game> Game for Tracked<'_, G> {
    type State = TrackedState<G::State>;
    type Move = G::Move;
    type Moves<'a>
        = G::Moves<'a>
    where
        Self: 'a;

    fn start(&self) -> Self::State {
        TrackedState {
            state: self.0.start(),
            path: Vec::new(),
        }
    }
    fn player(&self, s: &Self::State) -> Player {
        self.0.player(&s.state)
    }
    fn status(&self, s: &Self::State) -> Status {
        self.0.status(&s.state)
    }
    fn moves<'a>(&'a self, s: &Self::State) -> G::Moves<'a> {
        self.0.moves(&s.state)
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
    fn estimate(&self, s: &Self::State) -> Estimate {
        self.0.estimate(&s.state)
    }
    fn utility(&self, s: &Self::State, outcome: crate::game::Outcome) -> Estimate {
        self.0.utility(&s.state, outcome)
    }
    fn chances(&self, s: &Self::State) -> Option<Vec<crate::game::Probability>> {
        self.0.chances(&s.state)
    }
    fn write_label(&self, s: &Self::State, out: &mut String) {
        self.0.write_label(&s.state, out)
    }
    fn write_move(&self, mv: G::Move, out: &mut String) {
        self.0.write_move(mv, out)
    }
    fn key(&self, s: &Self::State) -> crate::game::StateKey {
        self.0.key(&s.state)
    }
    fn final_score(&self, s: &Self::State) -> i64 {
        self.0.final_score(&s.state)
    }
    fn player_name(&self, p: Player) -> &'static str {
        self.0.player_name(p)
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
}

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
}

impl Write for Comparing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b != b'\n' {
                self.line.push(b);
                continue;
            }
            let raw = String::from_utf8_lossy(&self.line);
            let normalised;
            let text: &str = if self.want.exact {
                &raw
            } else {
                normalised = crate::check::diff::normalize(&raw);
                &normalised
            };
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
                std::panic::resume_unwind(Box::new(Diverged));
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
    let mut style = case.style.clone();
    style.lines = lines;
    let (depth, algorithm) = (case.depth, case.algorithm);
    let matched = std::cell::Cell::new(0);
    let finished = deadline::within_budget(game, budget, |g| {
        let writer = Comparing {
            want,
            used: HashMap::new(),
            matched: &matched,
            line: Vec::new(),
        };
        macro_rules! compared {
            ($searcher:ident, $printer:ident) => {{
                let mut p = $printer::new(g, writer, style);
                let summary = $searcher::search_variant(g, depth, algorithm, flaws, &mut p);
                let _ = p.finish();
                summary
            }};
        }
        let run = std::panic::AssertUnwindSafe(|| match (case.dialect, case.rules) {
            (Dialect::Expectimax, _) | (_, Rules::Expectimax) => {
                let mut p = ExpectimaxPrinter::new(g, writer, style);
                let summary = expectimax::search(g, depth, algorithm, &mut p);
                let _ = p.finish();
                summary
            }
            (Dialect::Csc148, _) | (_, Rules::Csc148) => {
                let strategy = Strategy::of(algorithm, depth);
                let mut p = Csc148Printer::new(g, writer, style, strategy);
                let summary = csc148::search_variant(g, strategy, flaws, &mut p);
                let _ = p.finish();
                summary
            }
            (Dialect::Cs10, _) | (_, Rules::Cs10) => {
                let windowed = algorithm != Algorithm::Minimax;
                let mut p = Cs10Printer::new(g, writer, style, windowed);
                let (summary, _) =
                    cs10::search_variant(g, depth, algorithm, case.cs10, flaws, &mut p);
                let _ = p.finish();
                summary
            }
            (Dialect::S14, _) => compared!(s14, S14Printer),
            (Dialect::S12, _) => compared!(s12, S12Printer),
            (Dialect::Repl, Rules::S14) => compared!(s14, ReplPrinter),
            (Dialect::Repl, Rules::S12) => compared!(s12, ReplPrinter),
        });
        match std::panic::catch_unwind(run) {
            Ok(summary) => Some(summary),
            Err(payload) if payload.is::<Diverged>() => None,
            Err(other) => std::panic::resume_unwind(other),
        }
    })
    .ok()?;
    Some(Prefix {
        matched: matched.get(),
        finished,
    })
}

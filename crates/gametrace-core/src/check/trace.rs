//! Checking an implementation's trace against the reference search of a case, in one of four
//! modes, and saying where it first goes wrong as a position in the tree.

use super::extract::{self, chosen_move, classify, classify_any, state_label, value_of};
use super::unordered;
use crate::diff::{self, Palette};
use crate::game::tree::{NodeId, Tree, TreeGame};
use crate::game::{Game, Playable, Player};
use crate::run::{
    game_variant_lines, variant_lines, variant_prefix_of, Block, Limit, Place, Prefix, RefLine,
    Want,
};
use crate::search::mistakes::Flaws;
use crate::search::Summary;
use crate::spec::{Case, GameCase, Spec, Unordered};
use crate::trace::{Dialect, LineKind, LineSet};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Trees with more nodes than this are not drawn in a report: the picture would be too big
/// to read, and to send.
pub const MAX_FIGURE_NODES: usize = 400;

/// What a check compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Mode {
    /// Every trace line the case prints, in order.
    Full,
    /// The estimated states in order, and the chosen move: what unmodified handout code prints.
    Terminals,
    /// The set of states visited, and the chosen move (order ignored, as CS188 grades).
    Visited,
    /// The root's value and the chosen move.
    Value,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Full, Mode::Terminals, Mode::Visited, Mode::Value];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Terminals => "terminals",
            Mode::Visited => "visited",
            Mode::Value => "value",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the implementation first parts from the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// `node h: child 1 of f, depth 2, Maxie to move; path a -1-> f -1-> h`
    pub position: Option<String>,
    /// The state it is about, where the reference can place it.
    pub place: Option<Place>,
    pub expected: String,
    pub actual: String,
    /// The output line the actual item came from.
    pub actual_line: Option<usize>,
}

/// The result of checking one output.
#[derive(Clone, Debug)]
pub struct TraceCheck {
    pub mode: Mode,
    pub passed: bool,
    /// Items compared: trace lines, or states and the move.
    pub compared: usize,
    pub extraction: extract::Extraction,
    pub divergence: Option<Divergence>,
    /// A unified diff of the compared items (empty when they agree or for `value`).
    pub diff: String,
    /// One line: what was compared and how it came out.
    pub summary: String,
    /// How many compared items disagree (`visited`: states missing or extra, and the move;
    /// `value`: the value and the move). Sequence modes leave it 0 and use the divergence.
    pub mismatches: usize,
    /// The differences side by side (expected, then the output's line by its number in the
    /// output), for reports that show them so; and the changed lines left out of them.
    pub rows: Vec<diff::Row>,
    pub more_rows: usize,
}

/// Rows shown side by side in a report at most (the rest are counted).
pub const MAX_ROWS: usize = 60;

/// The one row of a set mode's divergence.
fn divergence_rows(d: &Option<Divergence>) -> Vec<diff::Row> {
    d.iter()
        .map(|d| diff::Row {
            kind: "changed",
            expected: Some((1, d.expected.clone())),
            actual: Some((d.actual_line.unwrap_or(1), d.actual.clone())),
        })
        .collect()
}

impl TraceCheck {
    /// The report's body under a PASS/FAIL line: extraction counts, the divergence and the diff.
    pub fn details(&self, actual_name: &str) -> String {
        self.details_with(actual_name, "")
    }

    /// [`TraceCheck::details`] with `note` (a diagnosis) between the divergence and the diff.
    pub fn details_with(&self, actual_name: &str, note: &str) -> String {
        let mut out = String::new();
        let x = &self.extraction;
        let mut read = format!(
            "read {} of {actual_name}: {} kept, {} ignored",
            lines(x.read, "line"),
            lines(x.lines.len(), "trace line"),
            lines(x.ignored, "other line")
        );
        if x.left_out > 0 {
            let _ = write!(
                read,
                ", {} of kinds this mode does not compare",
                lines(x.left_out, "trace line")
            );
        }
        if x.binary > 0 {
            let _ = write!(read, " ({} lines hold NUL bytes: binary output?)", x.binary);
        }
        let _ = writeln!(out, "{read}");
        if let Some(d) = &self.divergence {
            if let Some(p) = &d.position {
                let _ = writeln!(out, "first divergence at {p}");
            } else {
                let _ = writeln!(out, "first divergence:");
            }
            // Mark words only between two real lines, not against "(nothing more ...)".
            let (om, nm) = if d.expected.starts_with("(nothing") || d.actual.starts_with("(nothing")
            {
                (Vec::new(), Vec::new())
            } else {
                diff::changed_words(&d.expected, &d.actual)
            };
            let _ = writeln!(out, "  expected: {}", diff::visible(&d.expected));
            if let Some(c) = diff::caret_under(&d.expected, &om, 12) {
                let _ = writeln!(out, "{c}");
            }
            match d.actual_line {
                Some(n) => {
                    let _ = writeln!(out, "    actual: {}   (line {n})", diff::visible(&d.actual));
                }
                None => {
                    let _ = writeln!(out, "    actual: {}", diff::visible(&d.actual));
                }
            }
            if let Some(c) = diff::caret_under(&d.actual, &nm, 12) {
                let _ = writeln!(out, "{c}");
            }
            if let Some(h) = super::conventions::hint(&d.expected, &d.actual) {
                let _ = writeln!(out, "  hint: {h}");
            }
        }
        out.push_str(note);
        out.push_str(&self.diff);
        out
    }
}

/// `1 line`, `2 lines`.
fn lines(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// One compared item: its text, the output line it came from, and (for the reference) its node.
#[derive(Clone, Debug)]
struct Item {
    text: String,
    line: Option<usize>,
    node: Option<Place>,
}

/// What a check compares an implementation with: one case of a tree spec or of a game spec.
pub trait Subject: Sync {
    fn case(&self) -> &Case;
    /// The reference trace's lines of these kinds, each with its state's place.
    fn reference(&self, kinds: LineSet) -> (Vec<RefLine>, Summary) {
        self.variant(kinds, Flaws::NONE, Limit::Unlimited)
            .expect("a search without a budget is never over it")
    }
    /// [`Subject::reference`], if its search ends within `limit`.
    fn reference_within(
        &self,
        kinds: LineSet,
        limit: std::time::Duration,
    ) -> Option<(Vec<RefLine>, Summary)> {
        let until = crate::clock::Instant::now() + limit;
        self.variant(kinds, Flaws::NONE, Limit::Until(until))
    }
    /// The lines a variant of the catalogue prints, if its search stops before `limit`.
    fn variant(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        limit: Limit,
    ) -> Option<(Vec<RefLine>, Summary)>;
    /// How far a variant's lines agree with `want` from the start, stopping it at the first
    /// that differs ([`crate::run::variant_prefix_of`]).
    fn variant_prefix(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        budget: u64,
        want: Want,
    ) -> Option<Prefix>;
    /// The chosen move as traces write it.
    fn chosen(&self, best: Option<usize>) -> Option<String>;
    fn root(&self) -> Place;
    fn root_label(&self) -> String;
    /// Where a state an implementation printed is, if the reference can place it.
    fn find(&self, label: &str) -> Option<Place>;
    /// A place for people: the node or the moves that reach it.
    fn describe(&self, place: &Place) -> String;
    /// Every root move as good as the chosen one, as traces write moves, when the course
    /// accepts any of them (CSC148's `suggest_move`); empty when only the chosen one counts.
    fn equally_good(&self) -> Vec<String> {
        Vec::new()
    }
    /// A picture of the case (an SVG) with the states an output visited and the place where
    /// it first parts from the reference marked; `None` where there is nothing to draw (a
    /// real game's positions).
    fn figure(&self, _visited: &[Place], _divergence: Option<&Place>) -> Option<String> {
        None
    }
    /// Whether [`Subject::figure`] draws anything: the states an output visited are placed
    /// only then (placing each is a search of the tree by name).
    fn draws(&self) -> bool {
        false
    }
}

/// The states an output's lines name that the reference can place, each once, in the order
/// the output names them.
pub fn visited_places(subject: &dyn Subject, reading: &Reading) -> Vec<Place> {
    let mut seen = HashSet::new();
    let mut places = Vec::new();
    for l in &reading.x.lines {
        if let Some(label) = state_label(l.kind, &l.text) {
            if seen.insert(label) {
                places.extend(subject.find(label));
            }
        }
    }
    places
}

/// The root moves equally good under a CSC148 case's strategy, written as traces write them.
fn csc148_equally_good<G: Game>(game: &G, case: &Case) -> Vec<String> {
    if case.rules != crate::spec::Rules::Csc148 {
        return Vec::new();
    }
    let strategy = crate::search::csc148::Strategy::of(case.algorithm, case.depth);
    let (_, ties) = crate::search::csc148::best_moves(game, strategy);
    let moves: Vec<G::Move> = game.moves(&game.start()).collect();
    ties.iter()
        .filter_map(|&i| moves.get(i))
        .map(|&m| {
            let mut s = String::new();
            game.write_move(m, &mut s);
            s
        })
        .collect()
}

/// A case of a tree spec.
pub struct TreeCase<'a> {
    pub spec: &'a Spec,
    pub case: &'a Case,
}

impl Subject for TreeCase<'_> {
    fn case(&self) -> &Case {
        self.case
    }
    fn variant(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        limit: Limit,
    ) -> Option<(Vec<RefLine>, Summary)> {
        variant_lines(self.spec, self.case, kinds, flaws, limit)
    }
    fn variant_prefix(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        budget: u64,
        want: Want,
    ) -> Option<Prefix> {
        let game = TreeGame::new(&self.spec.tree, self.case.root_player);
        variant_prefix_of(&game, self.case, kinds, flaws, budget, want)
    }
    fn chosen(&self, best: Option<usize>) -> Option<String> {
        let game = TreeGame::new(&self.spec.tree, self.case.root_player);
        let m = game.moves(&game.start()).nth(best?)?;
        let mut s = String::new();
        game.write_move(m, &mut s);
        Some(s)
    }
    fn root(&self) -> Place {
        Place::Node(self.spec.tree.root(), self.case.root_player)
    }
    fn root_label(&self) -> String {
        self.spec.tree.name(self.spec.tree.root())
    }
    fn find(&self, label: &str) -> Option<Place> {
        let tree = &self.spec.tree;
        find_label(tree, label).map(|n| Place::Node(n, player_at(tree, n, self.case.root_player)))
    }
    fn describe(&self, place: &Place) -> String {
        match place {
            Place::Node(n, p) => describe(&self.spec.tree, *n, *p, &self.case.style.move_names),
            Place::Moves(..) => String::new(),
        }
    }
    fn equally_good(&self) -> Vec<String> {
        let game = TreeGame::new(&self.spec.tree, self.case.root_player);
        csc148_equally_good(&game, self.case)
    }
    fn draws(&self) -> bool {
        self.spec.tree.len() <= MAX_FIGURE_NODES
    }
    fn figure(&self, visited: &[Place], divergence: Option<&Place>) -> Option<String> {
        if !self.draws() {
            return None;
        }
        let node = |p: &Place| match p {
            Place::Node(n, _) => Some(*n),
            Place::Moves(..) => None,
        };
        let marks = crate::draw::Marks {
            visited: visited.iter().filter_map(node).collect(),
            divergence: divergence.and_then(node),
        };
        let picture = crate::draw::Picture::marked(self.spec, self.case, marks);
        Some(crate::draw::svg::draw(&picture))
    }
}

impl<G: Playable> Subject for GameCase<G> {
    fn case(&self) -> &Case {
        &self.case
    }
    fn equally_good(&self) -> Vec<String> {
        csc148_equally_good(&self.game, &self.case)
    }
    fn variant(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        limit: Limit,
    ) -> Option<(Vec<RefLine>, Summary)> {
        game_variant_lines(self, kinds, flaws, limit)
    }
    fn variant_prefix(
        &self,
        kinds: LineSet,
        flaws: Flaws,
        budget: u64,
        want: Want,
    ) -> Option<Prefix> {
        variant_prefix_of(&self.game, &self.case, kinds, flaws, budget, want)
    }
    fn chosen(&self, best: Option<usize>) -> Option<String> {
        let m = self.game.moves(&self.game.start()).nth(best?)?;
        let mut s = String::new();
        self.game.write_move(m, &mut s);
        Some(s)
    }
    fn root(&self) -> Place {
        Place::Moves(Vec::new(), self.game.player(&self.game.start()))
    }
    fn root_label(&self) -> String {
        let mut s = String::new();
        self.game.write_label(&self.game.start(), &mut s);
        s
    }
    fn find(&self, _: &str) -> Option<Place> {
        // A state the reference never reached has no place in its search.
        None
    }
    /// `state 7/7/7/7/3O3/1OXXO2: depth 2, Maxie to move; moves from the position: 0, 1`
    fn describe(&self, place: &Place) -> String {
        let Place::Moves(path, player) = place else {
            return String::new();
        };
        let game = &self.game;
        let mut state = game.start();
        let mut names = Vec::new();
        for &i in path {
            let Some(m) = game.moves(&state).nth(i) else {
                break;
            };
            names.push(game.move_name(m));
            state = game.play(&state, m);
        }
        let mut label = String::new();
        game.write_label(&state, &mut label);
        let player = game.player_name(*player);
        if path.is_empty() {
            format!("state {label}: the searched position, {player} to move")
        } else {
            format!(
                "state {label}: depth {}, {player} to move; moves from the searched position: {}",
                path.len(),
                names.join(", ")
            )
        }
    }
}

/// The kinds whose lines name a visited state.
const VISITING: [LineKind; 4] = [
    LineKind::Search,
    LineKind::Enter,
    LineKind::Estimate,
    LineKind::Result,
];

/// Checks `output` (what the implementation printed) against the reference search of `case`.
///
/// `exact` compares the kept lines' spacing as printed (noise lines are still dropped).
#[allow(clippy::too_many_arguments)]
pub fn check(
    subject: &dyn Subject,
    mode: Mode,
    output: &str,
    names: (&str, &str),
    palette: Palette,
    exact: bool,
) -> Result<TraceCheck, String> {
    let reading = read(subject, mode, output, exact)?;
    let (reference, summary) = subject.reference(reading.kinds);
    Ok(judge(subject, reading, &reference, summary, names, palette))
}

/// What a mode reads of an output: ready to be compared with the reference or any variant.
#[derive(Clone, Debug)]
pub struct Reading {
    pub mode: Mode,
    exact: bool,
    /// The reference line kinds this mode compares.
    pub kinds: LineSet,
    x: extract::Extraction,
    /// The compared items, in order (`full` and `terminals`).
    actual: Vec<Item>,
    /// The states the output visits (`visited`), read once: a diagnosis holds one output to
    /// hundreds of variants, and a slow student search prints millions of lines.
    visits: std::sync::OnceLock<Visits>,
}

impl Reading {
    fn visits(&self) -> &Visits {
        self.visits.get_or_init(|| Visits::of(&self.x))
    }

    /// How many trace lines the output has (of any kind this mode reads).
    pub fn lines(&self) -> usize {
        self.x.lines.len()
    }

    /// In `full`, the kinds to hold a mistake's trace to: the case's, less the summary lines
    /// (`Therefore value ...`, `Terminals visited`, the choice) an output that prints its
    /// search's lines never prints at all (a student's own tracing of a search whose summary
    /// the course's code prints elsewhere). Those left out, for the report.
    pub fn kinds_printed(&self) -> (LineSet, Vec<LineKind>) {
        if self.mode != Mode::Full || self.x.lines.is_empty() {
            return (self.kinds, Vec::new());
        }
        let has = |k: LineKind| self.x.lines.iter().any(|l| l.kind == k);
        let summary = [LineKind::Value, LineKind::Terminals, LineKind::Choice];
        let dropped: Vec<LineKind> = summary
            .into_iter()
            .filter(|&k| self.kinds.contains(k) && !has(k))
            .collect();
        if dropped.is_empty() || dropped.len() == self.kinds.iter_kinds().count() {
            return (self.kinds, Vec::new());
        }
        let kept = self
            .kinds
            .iter_kinds()
            .filter(|k| !dropped.contains(k))
            .collect();
        (kept, dropped)
    }
}

/// Reads `output` as `mode` compares it. `Err` when the case cannot be checked in the mode.
pub fn read(
    subject: &dyn Subject,
    mode: Mode,
    output: &str,
    exact: bool,
) -> Result<Reading, String> {
    let case = subject.case();
    let dialect = case.dialect;
    let in_dialect = |t: &str| classify(dialect, t);
    Ok(match mode {
        Mode::Full => {
            // What a program can print: a CS188 agent shows its calls, never its values.
            let kinds = case.style.lines.and(dialect.printed_by_programs());
            let x = extract::extract(output, kinds, in_dialect);
            let actual = actual_items(&x.lines, exact);
            Reading {
                mode,
                exact,
                kinds,
                x,
                actual,
                visits: Default::default(),
            }
        }
        Mode::Terminals => {
            let movers: LineSet = [LineKind::Estimate, LineKind::Choice, LineKind::Value]
                .into_iter()
                .collect();
            let x = extract::extract(output, movers, classify_any);
            // An iteratively deepened case's `Deepening to depth d` lines stay: they say which
            // depth's search an estimate belongs to (the reference prints them in every mode).
            let estimates = x
                .lines
                .iter()
                .filter(|l| matches!(l.kind, LineKind::Estimate | LineKind::Deepening));
            let mut actual = actual_items(estimates, exact);
            let (mv, line) = last_move(&x);
            actual.push(Item {
                text: move_item(mv.as_deref()),
                line,
                node: None,
            });
            Reading {
                mode,
                exact,
                kinds: [LineKind::Estimate].into_iter().collect(),
                x,
                actual,
                visits: Default::default(),
            }
        }
        Mode::Visited => {
            // The choice too, where the case prints it: the move a search prints is the one
            // compared (a mistaken CS188 agent prints its value there).
            let kinds: LineSet = VISITING
                .into_iter()
                .chain([LineKind::Choice])
                .filter(|&k| case.style.lines.contains(k))
                .collect();
            if !VISITING.iter().any(|&k| kinds.contains(k)) {
                return Err(format!(
                    "case `{}` prints no line that names a state (search, enter, estimate or result), so `visited` has nothing to compare",
                    case.name
                ));
            }
            let movers: LineSet = [LineKind::Choice, LineKind::Value].into_iter().collect();
            let all: LineSet = VISITING.into_iter().chain(movers.iter_kinds()).collect();
            let x = extract::extract(output, all, |t| {
                classify(dialect, t)
                    .filter(|k| kinds.contains(*k))
                    .or_else(|| classify_any(t).filter(|k| movers.contains(*k)))
            });
            Reading {
                mode,
                exact,
                kinds,
                x,
                actual: Vec::new(),
                visits: Default::default(),
            }
        }
        Mode::Value => {
            let all: LineSet = [LineKind::Result, LineKind::Value, LineKind::Choice]
                .into_iter()
                .collect();
            let x = extract::extract(output, all, classify_any);
            Reading {
                mode,
                exact,
                kinds: [LineKind::Value].into_iter().collect(),
                x,
                actual: Vec::new(),
                visits: Default::default(),
            }
        }
    })
}

/// The items a sequence mode expects, from a search's lines.
fn expected_items(
    subject: &dyn Subject,
    reading: &Reading,
    reference: &[RefLine],
    summary: Summary,
) -> Vec<Item> {
    let any_order = subject.case().unordered == Unordered::Parallel;
    items_in_order(subject, reading, reference, summary, any_order)
}

/// Would the output agree with a search's lines if the case accepted its parallel phases'
/// children in any order (`unordered: parallel`)? `false` in the set modes, which ignore
/// order anyway.
pub fn agrees_in_any_parallel_order(
    subject: &dyn Subject,
    reading: &Reading,
    reference: &[RefLine],
    summary: Summary,
) -> bool {
    matches!(reading.mode, Mode::Full | Mode::Terminals)
        && reference.iter().any(|r| !r.blocks.is_empty())
        && items_in_order(subject, reading, reference, summary, true)
            .iter()
            .map(|i| &i.text)
            .eq(reading.actual.iter().map(|i| &i.text))
}

fn items_in_order(
    subject: &dyn Subject,
    reading: &Reading,
    reference: &[RefLine],
    summary: Summary,
    any_order: bool,
) -> Vec<Item> {
    let mut expected = items_of(reference, reading.exact);
    if reading.mode == Mode::Terminals {
        expected.push(Item {
            text: chosen_item(subject, summary.best_index),
            line: None,
            node: Some(subject.root()),
        });
    }
    if any_order {
        expected = in_output_order(expected, reference, &reading.actual);
    }
    expected
}

/// The expected items with each parallel phase's children in the order the output printed
/// them, as far as it can ([`unordered::arrange`]).
fn in_output_order(expected: Vec<Item>, reference: &[RefLine], actual: &[Item]) -> Vec<Item> {
    // The chosen move's item (`terminals`) comes after every block.
    let blocks: Vec<&[Block]> = (0..expected.len())
        .map(|i| reference.get(i).map_or(&[][..], |r| &r.blocks[..]))
        .collect();
    let shape = unordered::from_blocks(&blocks);
    if !unordered::has_freedom(&shape) {
        return expected;
    }
    let want: Vec<&str> = expected.iter().map(|i| i.text.as_str()).collect();
    let got: Vec<&str> = actual.iter().map(|i| i.text.as_str()).collect();
    let order = unordered::arrange(&shape, &want, &got);
    let mut items: Vec<Option<Item>> = expected.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| items[i].take()).collect()
}

/// Judges a reading against a search's lines (the reference's, or a variant's).
pub fn judge(
    subject: &dyn Subject,
    reading: Reading,
    reference: &[RefLine],
    summary: Summary,
    names: (&str, &str),
    palette: Palette,
) -> TraceCheck {
    let mode = reading.mode;
    match mode {
        Mode::Full | Mode::Terminals => {
            let expected = expected_items(subject, &reading, reference, summary);
            let what = if mode == Mode::Full {
                "trace lines"
            } else {
                "estimated states and the move"
            };
            sequence(
                subject,
                mode,
                expected,
                reading.actual,
                reading.x,
                names,
                palette,
                what,
            )
        }
        Mode::Visited => {
            let checked = visited(subject, reference, summary.best_index, reading.visits());
            TraceCheck {
                extraction: reading.x,
                ..checked
            }
        }
        Mode::Value => {
            let checked = value(subject, reference, summary.best_index, &reading.x);
            TraceCheck {
                extraction: reading.x,
                ..checked
            }
        }
    }
}

/// How closely an output agrees with a search's lines, without the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The output is exactly what the search prints (in this mode).
    pub exact: bool,
    /// Items agreeing from the start (`full`, `terminals`); `None` in the set modes.
    pub prefix: Option<usize>,
    /// The search's item count.
    pub total: usize,
    /// Items that disagree in the set modes (`visited`, `value`).
    pub mismatches: usize,
}

impl Reading {
    /// The lines a sequence mode compares one by one, and the chosen move's item after them
    /// (`terminals`). `None` in the set modes.
    pub fn sequence(&self) -> Option<(Vec<String>, Option<&str>)> {
        match self.mode {
            Mode::Full => Some((self.actual.iter().map(|i| i.text.clone()).collect(), None)),
            Mode::Terminals => {
                let (last, lines) = self.actual.split_last()?;
                Some((
                    lines.iter().map(|i| i.text.clone()).collect(),
                    Some(last.text.as_str()),
                ))
            }
            Mode::Visited | Mode::Value => None,
        }
    }

    pub fn exact(&self) -> bool {
        self.exact
    }
}

/// The chosen move as `terminals` compares it, for a search's summary.
pub fn chosen_move_item(subject: &dyn Subject, summary: Summary) -> String {
    chosen_item(subject, summary.best_index)
}

/// How closely `reading` agrees with a search's lines.
pub fn agreement(
    subject: &dyn Subject,
    reading: &Reading,
    reference: &[RefLine],
    summary: Summary,
) -> Agreement {
    match reading.mode {
        Mode::Full | Mode::Terminals => {
            let expected = expected_items(subject, reading, reference, summary);
            let prefix = expected
                .iter()
                .zip(&reading.actual)
                .take_while(|(e, a)| e.text == a.text)
                .count();
            Agreement {
                exact: prefix == expected.len() && prefix == reading.actual.len(),
                prefix: Some(prefix),
                total: expected.len(),
                mismatches: 0,
            }
        }
        Mode::Visited | Mode::Value => {
            let checked = match reading.mode {
                Mode::Visited => visited(subject, reference, summary.best_index, reading.visits()),
                _ => value(subject, reference, summary.best_index, &reading.x),
            };
            Agreement {
                exact: checked.passed,
                prefix: None,
                total: checked.compared,
                mismatches: checked.mismatches,
            }
        }
    }
}

fn items_of(reference: &[RefLine], exact: bool) -> Vec<Item> {
    reference
        .iter()
        .map(|r| Item {
            text: if exact {
                r.text.clone()
            } else {
                diff::normalize(&r.text).into_owned()
            },
            line: None,
            node: Some(r.place.clone()),
        })
        .collect()
}

fn actual_items<'a>(
    lines: impl IntoIterator<Item = &'a extract::TraceLine>,
    exact: bool,
) -> Vec<Item> {
    lines
        .into_iter()
        .map(|l| Item {
            text: if exact { l.raw.clone() } else { l.text.clone() },
            line: Some(l.line),
            node: None,
        })
        .collect()
}

/// The reference's chosen move as an item, read as the output's are (normalised).
fn chosen_item(subject: &dyn Subject, best: Option<usize>) -> String {
    let m = subject.chosen(best);
    move_item(m.as_deref().map(diff::normalize).as_deref())
}

/// Is the output's chosen move (as an item) one the case accepts, and what it expects, as
/// the report shows it: `chosen move: 1`, or `chosen move: 1 (or any of 1, 4: equally good)`.
fn judge_move(subject: &dyn Subject, best: Option<usize>, got: &str) -> (bool, String) {
    let want = chosen_item(subject, best);
    let others = subject.equally_good();
    let accepted: Vec<String> = others
        .iter()
        .map(|m| move_item(Some(&diff::normalize(m))))
        .collect();
    let ok = got == want || accepted.iter().any(|a| a == got);
    if others.len() > 1 {
        (
            ok,
            format!("{want} (or any of {}: equally good)", others.join(", ")),
        )
    } else {
        (ok, want)
    }
}

fn move_item(m: Option<&str>) -> String {
    match m {
        Some(m) => format!("chosen move: {m}"),
        None => "chosen move: (none printed)".to_owned(),
    }
}

/// The last move the output says was chosen, and its line.
fn last_move(x: &extract::Extraction) -> (Option<String>, Option<usize>) {
    x.lines
        .iter()
        .rev()
        .find_map(|l| chosen_move(l.kind, &l.text).map(|m| (Some(m.to_owned()), Some(l.line))))
        .unwrap_or((None, None))
}

#[allow(clippy::too_many_arguments)]
fn sequence(
    subject: &dyn Subject,
    mode: Mode,
    expected: Vec<Item>,
    actual: Vec<Item>,
    x: extract::Extraction,
    names: (&str, &str),
    palette: Palette,
    what: &str,
) -> TraceCheck {
    let old: Vec<&str> = expected.iter().map(|i| i.text.as_str()).collect();
    let new: Vec<&str> = actual.iter().map(|i| i.text.as_str()).collect();
    let first = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i));
    let compared = expected.len();
    let Some(i) = first else {
        return TraceCheck {
            mode,
            passed: true,
            compared,
            extraction: x,
            divergence: None,
            diff: String::new(),
            summary: format!("{mode}: all {compared} {what} match"),
            mismatches: 0,
            rows: Vec::new(),
            more_rows: 0,
        };
    };
    let d = diff::diff(&old, &new, diff::DEFAULT_DEADLINE);
    let text = diff::unified(&old, &new, &d, names, palette);
    let (mut rows, more_rows) = diff::side_by_side(&old, &new, &d, 3, MAX_ROWS);
    // The output's side by its lines in the output, as the report's other lines say them.
    for r in &mut rows {
        if let Some((n, _)) = &mut r.actual {
            *n = actual.get(*n - 1).and_then(|a| a.line).unwrap_or(*n);
        }
    }
    let node = expected
        .get(i)
        .or_else(|| expected.last())
        .and_then(|e| e.node.as_ref());
    let divergence = Divergence {
        position: node.map(|p| subject.describe(p)),
        place: node.cloned(),
        expected: old
            .get(i)
            .map_or("(nothing more: the reference ends here)".to_owned(), |s| {
                (*s).to_owned()
            }),
        actual: new
            .get(i)
            .map_or("(nothing more: the output ends here)".to_owned(), |s| {
                (*s).to_owned()
            }),
        actual_line: actual.get(i).and_then(|a| a.line),
    };
    let summary = format!(
        "{mode}: {} of {compared} reference {what} unmatched, {} unmatched in the output; first difference at item {}",
        d.removed,
        d.added,
        i + 1
    );
    TraceCheck {
        mode,
        passed: false,
        compared,
        extraction: x,
        divergence: Some(divergence),
        diff: text,
        summary,
        mismatches: d.removed + d.added,
        rows,
        more_rows,
    }
}

/// "once", "twice", "3 times".
fn count_of(n: usize) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

/// The states an output visits, as `visited` compares them (normalised, as extraction reads
/// them), and its last move.
#[derive(Clone, Debug, Default)]
struct Visits {
    /// Each state, in the order first visited, with the line of that first visit.
    first: Vec<(String, usize)>,
    /// Each state's visits in order: the visiting line's index among the trace lines (for
    /// the order of the output) and its line in the output.
    each: std::collections::HashMap<String, Vec<(usize, usize)>>,
    /// The last move printed, and its line.
    last_move: (Option<String>, Option<usize>),
}

impl Visits {
    fn of(x: &extract::Extraction) -> Visits {
        let mut v = Visits {
            last_move: last_move(x),
            ..Visits::default()
        };
        let visiting = x.lines.iter().enumerate();
        for (i, l) in visiting.filter(|(_, l)| VISITING.contains(&l.kind)) {
            if let Some(s) = state_label(l.kind, &l.text) {
                let seen = v.each.entry(s.to_owned()).or_default();
                if seen.is_empty() {
                    v.first.push((s.to_owned(), l.line));
                }
                seen.push((i, l.line));
            }
        }
        v
    }
}

/// `visited`'s check of an output's `visits` (the report's extraction left empty: the
/// caller has it).
fn visited(
    subject: &dyn Subject,
    reference: &[RefLine],
    best: Option<usize>,
    visits: &Visits,
) -> TraceCheck {
    let mut want: Vec<(&str, &Place)> = Vec::new();
    let mut seen = HashSet::new();
    // The reference is read as the output is: normalised, so a name with two spaces (or a
    // U+2028) reads the same on both sides.
    let ref_kinds: Vec<(LineKind, String, &RefLine)> = reference
        .iter()
        .filter_map(|r| {
            let text = diff::normalize(&r.text).into_owned();
            classify_any(&text).map(|k| (k, text, r))
        })
        .collect();
    // How often each state is visited: the reference's count is the most an output may have
    // (a memoized search expands each position once, and a search without the table that
    // expands one again is not the memoized one, whatever else it gets right).
    let mut times: std::collections::HashMap<&str, (usize, usize)> = Default::default();
    for (k, text, r) in &ref_kinds {
        if let Some(l) = state_label(*k, text) {
            times.entry(l).or_default().0 += 1;
            if seen.insert(l) {
                want.push((l, &r.place));
            }
        }
    }
    // States from the visiting lines only: the root's `Therefore value of` line (read for the
    // move) names the root, which an S12 case without `search` lines never lists as visited.
    let got: Vec<(&str, usize)> = visits.first.iter().map(|(s, l)| (s.as_str(), *l)).collect();
    // CS188's autograder keeps the generated states in a set: a state generated twice is
    // graded as generated once, so there the counts are not held (only the set is).
    let counted = subject.case().rules != crate::spec::Rules::Cs188;
    // A state visited more often than the reference visits it, at the visit past its count,
    // in the output's order.
    let mut again: Vec<(usize, &str, usize)> = Vec::new();
    for (s, (limit, n)) in times.iter_mut().filter(|_| counted) {
        if let Some(each) = visits.each.get(*s) {
            *n = each.len();
            if let Some(&(i, line)) = each.get(*limit) {
                again.push((i, s, line));
            }
        }
    }
    again.sort_unstable();
    let again: Vec<(&str, usize)> = again.into_iter().map(|(_, s, line)| (s, line)).collect();
    let missing: Vec<_> = want
        .iter()
        .filter(|w| !visits.each.contains_key(w.0))
        .collect();
    let mut extra: Vec<_> = got.iter().filter(|g| !seen.contains(g.0)).collect();
    extra.extend(again.iter());
    let (mv, mv_line) = (&visits.last_move.0, visits.last_move.1);
    let got_move = move_item(mv.as_deref());
    // The move the search printed, where it printed one (read as the output's are).
    let printed = ref_kinds
        .iter()
        .rev()
        .find_map(|(k, text, _)| chosen_move(*k, text));
    let (move_ok, want_move) = match printed {
        Some(m) if subject.equally_good().is_empty() => {
            let want = move_item(Some(m));
            (got_move == want, want)
        }
        _ => judge_move(subject, best, &got_move),
    };
    let moves_said = (!move_ok).then(|| (got_move.clone(), want_move.clone()));
    let compared = want.len() + 1;
    let mismatches = missing.len() + extra.len() + usize::from(!move_ok);
    let divergence = if let Some((label, place)) = missing.first() {
        Some(Divergence {
            position: Some(subject.describe(place)),
            place: Some((*place).clone()),
            expected: format!("state {label} visited"),
            actual: format!("state {label} never visited"),
            actual_line: None,
        })
    } else if let Some((label, line)) = extra.first() {
        let (expected, actual) = match times.get(label) {
            Some((limit, _)) => (
                format!("state {label} visited {}", count_of(*limit)),
                format!("state {label} visited again"),
            ),
            None => (
                format!("state {label} never visited"),
                format!("state {label} visited"),
            ),
        };
        Some(Divergence {
            position: subject.find(label).map(|p| subject.describe(&p)),
            place: subject.find(label),
            expected,
            actual,
            actual_line: Some(*line),
        })
    } else if !move_ok {
        Some(Divergence {
            position: Some(subject.describe(&subject.root())),
            place: Some(subject.root()),
            expected: want_move,
            actual: got_move,
            actual_line: mv_line,
        })
    } else {
        None
    };
    let m: Vec<&str> = missing.iter().map(|w| w.0).collect();
    let e: Vec<&str> = extra.iter().map(|g| g.0).collect();
    let moves = moves_said.as_ref().map(|(g, w)| (g.as_str(), w.as_str()));
    let summary = visited_summary(divergence.is_none(), want.len(), (&m, &e), &times, moves);
    TraceCheck {
        mode: Mode::Visited,
        mismatches,
        passed: divergence.is_none(),
        compared,
        extraction: extract::Extraction::default(),
        rows: divergence_rows(&divergence),
        more_rows: mismatches.saturating_sub(1),
        divergence,
        diff: String::new(),
        summary,
    }
}

/// The one line `visited` says: all matched, or the states `missing` and `extra` (the
/// reference's visits and the output's, by `times`) out of `wanted`; when the states agree
/// and only the move differs (`moves`: the output's and the reference's), that.
fn visited_summary(
    matched: bool,
    wanted: usize,
    (missing, extra): (&[&str], &[&str]),
    times: &std::collections::HashMap<&str, (usize, usize)>,
    moves: Option<(&str, &str)>,
) -> String {
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join(", ")
        }
    };
    if matched {
        match wanted {
            1 => "visited: the one state visited and the chosen move match".to_owned(),
            n => format!("visited: the {n} states visited and the chosen move match"),
        }
    } else if let Some((got, want)) = moves.filter(|_| missing.is_empty() && extra.is_empty()) {
        let bare = |m: &str| m.strip_prefix("chosen move: ").unwrap_or(m).to_owned();
        format!(
            "visited: the {} visited match; only the chosen move differs: {}, where the reference chooses {}",
            match wanted {
                1 => "one state".to_owned(),
                n => format!("{n} states"),
            },
            diff::visible(&bare(got)),
            bare(want)
        )
    } else {
        let m: Vec<String> = missing.iter().map(|w| (*w).to_owned()).collect();
        // What the output printed is shown escaped.
        let e: Vec<String> = extra
            .iter()
            .map(|g| match times.get(g) {
                Some((limit, n)) => format!(
                    "{} visited {}, the reference {}",
                    diff::visible(g),
                    count_of(*n),
                    count_of(*limit)
                ),
                None => diff::visible(g).into_owned(),
            })
            .collect();
        format!(
            "visited: {} of {} states missing ({}), {} extra ({})",
            m.len(),
            wanted,
            list(&m),
            e.len(),
            list(&e)
        )
    }
}

/// `value`'s check of an output's extraction `x` (the report's extraction left empty: the
/// caller has it).
fn value(
    subject: &dyn Subject,
    reference: &[RefLine],
    best: Option<usize>,
    x: &extract::Extraction,
) -> TraceCheck {
    let case = subject.case();
    // As the output's lines are read: normalised.
    let root_label = diff::normalize(&subject.root_label()).into_owned();
    // The last value line: an iteratively deepened search prints one per depth, and its
    // value is the deepest's.
    let want_value = reference
        .iter()
        .rev()
        .find_map(|r| value_of(LineKind::Value, &r.text));
    // The value line if there is one, else the root's last result line.
    let got = x
        .lines
        .iter()
        .rev()
        .find(|l| l.kind == LineKind::Value)
        .or_else(|| {
            x.lines.iter().rev().find(|l| {
                l.kind == LineKind::Result && state_label(l.kind, &l.text) == Some(&root_label)
            })
        })
        .and_then(|l| value_of(l.kind, &l.text).map(|v| (v, l.line)));
    let (mv, mv_line) = last_move(x);
    let got_move = move_item(mv.as_deref());
    let (move_ok, want_move) = judge_move(subject, best, &got_move);
    // The REPL prints the move only; a CSC148 case that prints no value line (a strategy's
    // `suggest_move` returns a move) is judged on the move.
    let compare_value = match case.dialect {
        // A CS188 agent returns its action alone.
        Dialect::Repl | Dialect::Cs188 => false,
        Dialect::Csc148 => case.style.lines.contains(LineKind::Value),
        _ => true,
    };
    let position = Some(subject.describe(&subject.root()));
    let want_v = format!("root value: {}", want_value.unwrap_or_default());
    let got_v = match &got {
        Some((v, _)) => format!("root value: {v}"),
        None => "root value: (none printed)".to_owned(),
    };
    let mismatches = usize::from(compare_value && want_v != got_v) + usize::from(!move_ok);
    let divergence = if compare_value && want_v != got_v {
        Some(Divergence {
            position,
            place: Some(subject.root()),
            expected: want_v.clone(),
            actual: got_v,
            actual_line: got.as_ref().map(|g| g.1),
        })
    } else if !move_ok {
        Some(Divergence {
            position,
            place: Some(subject.root()),
            expected: want_move.clone(),
            actual: got_move,
            actual_line: mv_line,
        })
    } else {
        None
    };
    let what = if compare_value {
        format!("{want_v}, {want_move}")
    } else if case.dialect == Dialect::Repl {
        format!("{want_move} (the repl dialect prints no value)")
    } else {
        want_move.clone()
    };
    TraceCheck {
        mode: Mode::Value,
        mismatches,
        passed: divergence.is_none(),
        compared: 1 + usize::from(compare_value),
        extraction: extract::Extraction::default(),
        summary: if divergence.is_none() {
            format!("value: {what}: match")
        } else {
            format!("value: expected {what}")
        },
        rows: divergence_rows(&divergence),
        more_rows: mismatches.saturating_sub(1),
        divergence,
        diff: String::new(),
    }
}

/// The path from the root to `node`: each step's parent, move index and child.
fn path_to(tree: &Tree, node: NodeId) -> Vec<(NodeId, usize, NodeId)> {
    // Ids are in preorder, so the child whose subtree holds `node` is the last child whose id
    // is not past it.
    let mut path = Vec::new();
    let mut at = tree.root();
    while at != node {
        let kids = tree.children(at);
        let Some((i, child)) = kids.iter().enumerate().rev().find(|&(_, c)| c <= node) else {
            break;
        };
        path.push((at, i, child));
        at = child;
    }
    path
}

fn player_at(tree: &Tree, node: NodeId, root: Player) -> Player {
    if tree.agents().is_empty() && !tree.has_chance() {
        return if path_to(tree, node).len() % 2 == 0 {
            root
        } else {
            root.other()
        };
    }
    tree.players(root)[node as usize]
}

fn find_label(tree: &Tree, label: &str) -> Option<NodeId> {
    (0..tree.len() as NodeId).find(|&n| tree.name(n) == label)
}

/// `node h: child 1 of f, depth 2, Maxie to move; path a -1[middle]-> f -1-> h`
pub fn describe(tree: &Tree, node: NodeId, player: Player, move_names: &[String]) -> String {
    let path = path_to(tree, node);
    let mut s = format!("node {}", tree.name(node));
    match path.last() {
        Some(&(parent, i, _)) => {
            let _ = write!(s, ": child {i} of {}", tree.name(parent));
        }
        None => s.push_str(": the root"),
    }
    let _ = write!(s, ", depth {}, {} to move", path.len(), player.name());
    if tree.is_leaf(node) {
        s.push_str(" (a leaf)");
    }
    if !path.is_empty() {
        let _ = write!(s, "; path {}", tree.name(tree.root()));
        for (k, &(_, i, child)) in path.iter().enumerate() {
            match move_names.get(i).filter(|_| k == 0) {
                Some(n) => {
                    let _ = write!(s, " -{i}[{n}]-> {}", tree.name(child));
                }
                None => {
                    let _ = write!(s, " -{i}-> {}", tree.name(child));
                }
            }
        }
    }
    s
}

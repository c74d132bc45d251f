//! `gametrace check-game`: a student's own game against the spec's reference model.
//!
//! The student's game runs behind a driver ([`probe`]) in the sandbox; gametrace asks it and
//! the reference ([`rules::Reference`]) the same questions after the same move names:
//!
//! 1. `parse_move`: the game's parser reads each move's printed name back as that move;
//! 2. every scenario of the spec, step by step;
//! 3. perft: how many move sequences of each length the game has from the start, with a
//!    per-first-move breakdown ("divide") where the counts part, every position on the way
//!    compared;
//! 4. seeded random playouts (in parallel, same report for any number of threads);
//! 5. the move order, judged apart (it matters for traces, less for rules);
//! 6. the 15-150 estimator criterion: the student's estimator against the naive one, both
//!    under the reference alpha-beta ([`duel`]).
//!
//! A difference is shrunk to a shortest move sequence from the start that still shows it,
//! printed with both positions and as a scenario to paste into the spec, and named when one
//! of the game's catalogued rule mutants ([`rules::Mutant`]) behaves exactly as the student's
//! game did everywhere it was looked at.

pub mod duel;
pub mod probe;
pub mod rules;

use crate::game::{Game, Playable, Status};
use crate::report::{CaseResult, Report, Status as Verdict};
use crate::sandbox::{Job, Limits, Policy, Scratch};
use crate::spec::GameSpec;
use probe::{Student, Trouble};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rules::{Compare, Mutant, Part, Reference, Rules, View};
use std::fmt::Write as _;

/// A game `check-game` knows how to check: its reference, its catalogue of rule mistakes
/// and what a driver needs to build the student's copy.
pub trait Checkable: Playable {
    /// The catalogued rule mistakes of this game.
    fn mutants(&self) -> Vec<Mutant>;
    /// Settings a driver reads from its environment (`GAMETRACE_COLUMNS=7`, ...).
    fn driver_env(&self) -> Vec<(String, String)>;
    /// The position a game's own `start` gives (drivers that cannot set up a position start
    /// every check here).
    fn course_start(&self) -> Self::State;
    /// An estimate as the course's game gives it (`16`; CSC148: 1, 0, -1 for the player to
    /// move).
    fn course_estimate(&self, s: &Self::State) -> String;
    /// A position a driver can build (the course's start, or that start with the other
    /// player first) and moves from it to `target`, for drivers that cannot set up a
    /// position (SML's GAME has only `start`; a CSC148 constructor builds only the empty
    /// board); `None` if this game has no way to find them.
    fn moves_to(&self, _target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        None
    }
    /// Whether the course grades the student's estimator against the handout's naive one
    /// ([`duel`]): the 15-150 games.
    fn judged_estimator(&self) -> bool {
        false
    }
    /// Whether the course asks for a parser, so `parse_move` earns a point: 15-150's GAME
    /// has `parse_move`; CSC148's starter has no `str_to_move` (checked where a game has
    /// one, worth nothing).
    fn graded_parser(&self) -> bool {
        true
    }
    /// A move as a player types it at the course's prompt, where the course fixes that form
    /// (S14 Riskless: `3 4`, the source and target vertex, though a move prints `(3, 4)`):
    /// what `parse_move` is handed. `None`: the game's own printed name.
    fn typed(&self, _mv: Self::Move) -> Option<String> {
        None
    }
}

impl Checkable for crate::game::connect4::Connect4 {
    fn mutants(&self) -> Vec<Mutant> {
        rules::connect4_mutants(self)
    }
    fn judged_estimator(&self) -> bool {
        true
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![
            ("GAMETRACE_GAME".into(), self.variant().into()),
            ("GAMETRACE_COLUMNS".into(), self.columns.to_string()),
            ("GAMETRACE_ROWS".into(), self.rows.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::connect4::Connect4::new(self.columns, self.rows, self.popout).start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::scenario::estimate_text(crate::game::scenario::estimate_of(self, s))
    }
    /// Drops only (so PopOut positions reached without a pop): each position on the way
    /// holds a subset of the target's pieces, so the search stays small.
    fn moves_to(&self, target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        use crate::game::connect4::{Board, C4Move};
        let game = crate::game::connect4::Connect4::new(self.columns, self.rows, false);
        fn dfs(
            g: &crate::game::connect4::Connect4,
            s: Board,
            target: &Board,
            path: &mut Vec<C4Move>,
            seen: &mut std::collections::HashSet<Board>,
        ) -> bool {
            if s == *target {
                return true;
            }
            if !seen.insert(s) || seen.len() > 200_000 {
                return false;
            }
            for m in g.moves(&s) {
                let next = g.play(&s, m);
                if next.pieces[0] & !target.pieces[0] == 0
                    && next.pieces[1] & !target.pieces[1] == 0
                {
                    path.push(m);
                    if dfs(g, next, target, path, seen) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        let mut path = Vec::new();
        dfs(
            &game,
            game.start(),
            target,
            &mut path,
            &mut Default::default(),
        )
        .then(|| (self.course_start(), path))
    }
}

impl Checkable for crate::game::riskless::Riskless {
    fn mutants(&self) -> Vec<Mutant> {
        rules::riskless_mutants(self)
    }
    fn judged_estimator(&self) -> bool {
        true
    }
    /// The map, for the SML driver to build the course's MAP structure from.
    fn driver_env(&self) -> Vec<(String, String)> {
        let m = &self.map;
        let roads: Vec<String> = m
            .roads
            .iter()
            .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect();
        vec![
            ("GAMETRACE_GAME".into(), "riskless".into()),
            ("GAMETRACE_TERRITORIES".into(), m.territories.join(",")),
            ("GAMETRACE_ROADS".into(), roads.join(";")),
            ("GAMETRACE_MIN_START".into(), m.min_start.to_string()),
            ("GAMETRACE_MAX_START".into(), m.max_start.to_string()),
            ("GAMETRACE_MAX_TERRI".into(), m.max_terri.to_string()),
            ("GAMETRACE_MAX_UNITS".into(), m.max_units.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::riskless::Riskless::new((*self.map).clone()).start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::scenario::estimate_text(crate::game::scenario::estimate_of(self, s))
    }
    /// The handout's support code reads a move typed as `3 4` (HW11 section 4.3).
    fn typed(&self, mv: Self::Move) -> Option<String> {
        Some(format!("{} {}", mv.from, mv.to))
    }
}

impl Checkable for crate::game::tippy::Tippy {
    fn graded_parser(&self) -> bool {
        false
    }
    fn mutants(&self) -> Vec<Mutant> {
        rules::tippy_mutants(self)
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![
            ("GAMETRACE_GAME".into(), "tippy".into()),
            ("GAMETRACE_SIZE".into(), self.size.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::tippy::Tippy::new(self.size).start()
    }
    /// p1's and p2's cells claimed in turn from the empty board. The course's constructor
    /// builds only the empty board, so a scenario's position is reached by moves; orders are
    /// tried until none passes through a finished game (a tippy completed too early).
    fn moves_to(&self, target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        let empty = crate::game::tippy::Tippy::new(self.size);
        let cells = |w: u64| -> Vec<crate::game::tippy::Cell> {
            (0..64)
                .filter(|i| w >> i & 1 == 1)
                .map(|i| empty.cell(i))
                .collect()
        };
        let (xs, os) = (cells(target.cells[0]), cells(target.cells[1]));
        // Who moved first: p1, unless the counts say p2 did (a CSC148 game may start with
        // either).
        let p2_first = if xs.len() == os.len() {
            target.to_move == crate::game::Player::Minnie
        } else {
            os.len() == xs.len() + 1
        };
        let (first, second) = if p2_first { (&os, &xs) } else { (&xs, &os) };
        if first.len() != second.len() && first.len() != second.len() + 1 {
            return None;
        }
        let mut start = empty.start();
        if p2_first {
            start.to_move = crate::game::Player::Minnie;
        }
        let game = empty.starting_at(start);
        let rotated = |v: &[crate::game::tippy::Cell], k: usize| {
            let mut v = v.to_vec();
            let n = v.len().max(1);
            v.rotate_left(k % n);
            v
        };
        for kx in 0..first.len().max(1) {
            for ko in 0..second.len().max(1) {
                let (x, o) = (rotated(first, kx), rotated(second, ko));
                let order: Vec<_> = (0..first.len())
                    .flat_map(|i| std::iter::once(x[i]).chain(o.get(i).copied()))
                    .collect();
                let mut s = game.start();
                let reaches = order.iter().all(|&c| {
                    let ok = game.status(&s) == Status::InPlay && game.moves(&s).any(|m| m == c);
                    if ok {
                        s = game.play(&s, c);
                    }
                    ok
                });
                if reaches && s == *target {
                    return Some((start, order));
                }
            }
        }
        None
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        self.rough_outcome(s).to_string()
    }
}

impl Checkable for crate::game::subtract_square::SubtractSquare {
    fn graded_parser(&self) -> bool {
        false
    }
    fn mutants(&self) -> Vec<Mutant> {
        rules::subtract_square_mutants(self)
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![("GAMETRACE_GAME".into(), "subtract_square".into())]
    }
    fn course_start(&self) -> Self::State {
        self.start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::subtract_square::rough_outcome(s.total).to_string()
    }
}

/// How thorough a check is.
#[derive(Clone, Debug)]
pub struct Options {
    pub playouts: usize,
    pub seed: u64,
    /// Perft to this depth (default: as deep as about 3,000 positions go).
    pub perft_depth: Option<u32>,
    /// Compare estimates (where the spec fixes the estimator).
    pub estimates: bool,
    pub threads: usize,
    /// Try the catalogue of rule mistakes on a difference.
    pub diagnose: bool,
    /// The estimator against the naive one (15-150 games): search depths, and how many
    /// openings (0: no duel).
    pub estimator_depths: Vec<u32>,
    pub estimator_openings: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            playouts: 200,
            seed: 1,
            perft_depth: None,
            estimates: false,
            threads: 1,
            diagnose: true,
            estimator_depths: vec![1, 2, 3],
            estimator_openings: 3,
        }
    }
}

/// How to start the student's driver.
pub struct Driver<'a> {
    pub argv: &'a [String],
    pub dir: Option<&'a std::path::Path>,
    pub limits: Limits,
    pub scratch: &'a Scratch,
    pub policy: &'a Policy,
}

impl<'a> Driver<'a> {
    fn job(&self) -> Job<'a> {
        Job {
            argv: self.argv,
            stdin: None,
            dir: self.dir,
            limits: self.limits,
            scratch: self.scratch,
            policy: self.policy,
        }
    }
}

/// A path from the start and the student's views along it: `views[i]` after `path[..i]`.
#[derive(Clone, Debug, Default)]
struct Line {
    path: Vec<String>,
    views: Vec<View>,
}

/// Where the student's game first parts from the reference on a line.
#[derive(Clone, Debug)]
struct Difference {
    /// The moves from the start to the position where it shows.
    path: Vec<String>,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    /// The views differ in this part.
    Differs {
        part: Part,
        reference: View,
        student: View,
    },
    /// Asking the game went wrong here (while playing this move, if it was a move).
    Trouble(Trouble, Option<String>),
}

impl Difference {
    /// The moves that show it: the path, and the move that failed if one did.
    fn whole(&self) -> Vec<String> {
        let mut all = self.path.clone();
        if let What::Trouble(_, Some(m)) = &self.what {
            all.push(m.clone());
        }
        all
    }

    fn sentence<G: Playable>(&self, game: &G) -> String {
        let at = if self.path.is_empty() {
            "at the start".to_owned()
        } else {
            format!("after {}", self.path.join(" "))
        };
        match &self.what {
            What::Differs {
                part,
                reference,
                student,
            } => {
                let (r, s) = show_part(game, *part, reference, student);
                let extra = if student.status == Status::InPlay && student.moves.is_empty() {
                    " (the game is in play and offers no move)"
                } else {
                    ""
                };
                format!("{at}, {}: reference {r}, student's {s}{extra}", part.word())
            }
            What::Trouble(t, None) => format!("{at}: {}", t.describe().0),
            What::Trouble(t, Some(m)) => format!("{at}, playing {m}: {}", t.describe().0),
        }
    }
}

fn show_part<G: Playable>(game: &G, part: Part, r: &View, s: &View) -> (String, String) {
    let status = |v: &View| crate::game::scenario::status_text(game, v.status);
    let list = |v: &View| format!("[{}]", v.moves.join(", "));
    match part {
        Part::Moves | Part::Order => (list(r), list(s)),
        Part::Status => (status(r), status(s)),
        Part::Player => (
            game.player_name(r.player).to_owned(),
            game.player_name(s.player).to_owned(),
        ),
        Part::Estimate => (
            r.estimate.clone().unwrap_or_default(),
            s.estimate.clone().unwrap_or_default(),
        ),
    }
}

/// The reference position after `path` (names from its own move lists), if it has one.
fn reference_after<G: Playable>(game: &G, path: &[String]) -> Option<G::State> {
    let r = Reference {
        game,
        estimate: None,
    };
    let mut s = r.start();
    for name in path {
        s = r.play(&s, name)?;
    }
    Some(s)
}

/// How the driver reaches `state`: `Ok(None)` for a plain `start`, `Ok(Some(json))` to set
/// it up, `Err` when this game's drivers have no way to.
fn start_arg<G: Checkable>(game: &G, state: &G::State) -> Result<Option<serde_json::Value>, ()> {
    match game.position_json(state) {
        Some(json) => Ok(Some(json)),
        None if *state == game.course_start() => Ok(None),
        None => Err(()),
    }
}

/// A scenario that was not replayed: SKIPPED, worth nothing (so every submission's report has
/// the same cases and the same maximum).
fn not_replayed(mut c: CaseResult) -> CaseResult {
    c.status = Verdict::Skipped;
    c.max_points = 0.0;
    c.points = 0.0;
    c.message = "not replayed: the game's driver cannot set up its position, and no moves from the game's start are known to reach it".into();
    c
}

/// How `parse_move` was handed the moves, for the report.
fn typed_form<G: Checkable>(game: &G) -> &'static str {
    match game.moves(&game.start()).next().and_then(|m| game.typed(m)) {
        Some(_) => "typed as the course's prompt reads them",
        None => "typed as the game prints them",
    }
}

/// One run of `check-game`: every check's result, in order.
pub fn check_game<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    driver: &Driver,
    options: &Options,
) -> Report {
    let game = &spec.game;
    let estimate_fn: fn(&G, &G::State) -> String = G::course_estimate;
    let reference = Reference {
        game,
        estimate: options.estimates.then_some(estimate_fn),
    };
    let rules_only = Compare {
        order: false,
        estimate: options.estimates,
    };
    let case = |name: &str, verdict: Verdict| CaseResult::new(spec_name, name, verdict, 1.0);
    let mut cases = Vec::new();
    let open = || -> Result<Student, Trouble> { open_student(game, driver, options.estimates) };
    let mut student = match open() {
        Ok(s) => s,
        Err(t) => {
            let (what, mut details) = t.describe();
            if let Trouble::Ended(ran) = &t {
                let compiler = compiler_errors(&String::from_utf8_lossy(ran.stdout()));
                if !compiler.is_empty() {
                    details = format!("the compiler says:\n{compiler}\n{details}");
                }
            }
            cases.push(
                CaseResult::new(spec_name, "driver", t.status(), 0.0)
                    .message(format!("the game's driver did not start: {what}"))
                    .details(details),
            );
            not_run(spec, spec_name, options, &mut cases, t.status());
            return Report {
                cases,
                sandbox: Some(crate::report::SandboxNote::of(driver.policy)),
            };
        }
    };
    let spec_start = start_arg(game, &game.start()).unwrap_or_default();
    let start_reachable = start_arg(game, &game.start()).is_ok();
    let mut lines: Vec<Line> = Vec::new();
    let mut differences: Vec<Difference> = Vec::new();

    // 1. parse_move reads each printed name back.
    {
        let mut wrong = Vec::new();
        let mut trouble = None;
        let first: Vec<G::Move> = game.moves(&game.start()).collect();
        let names: Vec<String> = first.iter().map(|&m| game.move_name(m)).collect();
        // Listing the moves first tells gametrace the game's own name for each.
        match student
            .start(spec_start.as_ref())
            .and_then(|ok| student.moves().map(|_| ok))
        {
            Ok(true) => {
                for (&mv, name) in first.iter().zip(&names) {
                    // The course's typed form where it has one, else the game's own name;
                    // the report shows the very text sent.
                    let sent = game
                        .typed(mv)
                        .unwrap_or_else(|| student.own_name(name).to_owned());
                    match student.parse_text(&sent) {
                        Ok(Some(back)) if back == *name => {}
                        Ok(got) => wrong.push(format!(
                            "`{sent}` (the move {name}) is read as {}",
                            got.map_or("no move".to_owned(), |g| format!("`{g}`"))
                        )),
                        Err(t) => {
                            trouble = Some(t);
                            break;
                        }
                    }
                }
            }
            Ok(false) => {}
            Err(t) => trouble = Some(t),
        }
        let c = match (trouble, wrong.is_empty()) {
            (Some(t), _) => {
                let (what, details) = t.describe();
                if matches!(t, Trouble::Ended(_)) {
                    student = match open() {
                        Ok(s) => s,
                        Err(t) => return dead(spec, spec_name, options, cases, t, driver.policy),
                    };
                }
                let c = case("parse_move", t.status());
                if let Trouble::Unsupported(_) = t {
                    c.message(format!("not checked: {what}"))
                } else {
                    c.message(format!("reading a move's printed name: {what}"))
                        .details(details)
                }
            }
            (None, true) => case("parse_move", Verdict::Pass).message(match names.len() {
                1 => format!(
                    "the parser reads the one first move, {}, back as that move",
                    typed_form(game)
                ),
                n => format!(
                    "the parser reads each of the {n} first moves, {}, back as that move",
                    typed_form(game)
                ),
            }),
            (None, false) => case("parse_move", Verdict::Fail)
                .message(format!(
                    "the parser does not read every one of the first moves, {}, back as that move",
                    typed_form(game)
                ))
                .details(wrong.join("\n")),
        };
        let mut c = c;
        if !game.graded_parser() {
            c.max_points = 0.0;
            c.points = 0.0;
        }
        cases.push(c);
    }

    // 2. The scenarios.
    for sc in &spec.scenarios {
        let sgame = &sc.game;
        // The scenario's position: set up directly where the driver can, else reached by
        // moves from the game's own start (a driver may refuse a position it cannot build).
        let by_moves: Option<(G::State, Vec<String>)> = game
            .moves_to(&sgame.start())
            .map(|(from, moves)| (from, moves.iter().map(|&m| game.move_name(m)).collect()));
        let direct = start_arg(game, &sgame.start()).ok();
        if direct.is_none() && by_moves.is_none() {
            cases.push(not_replayed(case(
                &format!("scenario {}", sc.name),
                Verdict::Skipped,
            )));
            continue;
        }
        let sref = Reference {
            game: sgame,
            estimate: options.estimates.then_some(estimate_fn),
        };
        let mut c = case(&format!("scenario {}", sc.name), Verdict::Pass);
        c.max_points = sc.points;
        c.points = sc.points;
        let mut setup_used: Vec<String> = Vec::new();
        let outcome = (|| -> Result<Option<(usize, Difference)>, (usize, Difference)> {
            let fail = |step: usize, path: &[String], what| {
                (
                    step,
                    Difference {
                        path: path.to_vec(),
                        what,
                    },
                )
            };
            let set_up = match &direct {
                Some(arg) => student
                    .start(arg.as_ref())
                    .map_err(|t| fail(0, &[], What::Trouble(t, None)))?,
                None => false,
            };
            let (from, setup) = match (set_up, &by_moves) {
                (true, _) => (sgame.start(), Vec::new()),
                (false, None) => return Ok(None),
                (false, Some((from, moves))) => {
                    let arg = start_arg(game, from).unwrap_or_default();
                    match student.start(arg.as_ref()) {
                        Ok(true) => (from.clone(), moves.clone()),
                        Ok(false) => return Ok(None),
                        Err(t) => return Err(fail(0, &[], What::Trouble(t, None))),
                    }
                }
            };
            setup_used = setup.clone();
            // Setting up by moves: every position on the way is one of the game's, compared too.
            let how = Compare {
                estimate: false,
                ..rules_only
            };
            follow(game, &from, &mut student, &setup, how).map_err(|d| (SETUP, d))?;
            let mut path = setup.clone();
            let mut s = sref.start();
            for (i, step) in std::iter::once(None)
                .chain(sc.steps.iter().map(Some))
                .enumerate()
            {
                if let Some((_, mv)) = step.and_then(|st| st.play.as_ref()) {
                    let name = sgame.move_name(*mv);
                    if let Err(t) = student.play(&name) {
                        return Err(fail(i, &path, What::Trouble(t, Some(name))));
                    }
                    s = sgame.play(&s, *mv);
                    path.push(name);
                }
                agree_here(&mut student, sref.view(&s), &path, rules_only).map_err(|d| (i, d))?;
            }
            Ok(Some((
                0,
                Difference {
                    path,
                    what: What::Trouble(Trouble::Garbage(String::new()), None),
                },
            )))
        })();
        match outcome {
            Ok(Some(_)) => {
                c.message = match sc.steps.len() {
                    1 => "the one step agrees with the reference".to_owned(),
                    n => format!("all {n} steps agree with the reference"),
                }
            }
            Ok(None) => {
                c = not_replayed(c);
            }
            Err((step, d)) => {
                let line = if step == SETUP {
                    "setting up the scenario's position by moves from the start: ".to_owned()
                } else if step == 0 {
                    String::new()
                } else {
                    format!("step {step} (line {}): ", sc.steps[step - 1].line)
                };
                c.status = match &d.what {
                    What::Trouble(t, _) => t.status(),
                    What::Differs { .. } => Verdict::Fail,
                };
                c.points = 0.0;
                c.message = format!("{line}{}", d.sentence(sgame));
                if let What::Trouble(t, _) = &d.what {
                    c.details = t.describe().1;
                    if matches!(t, Trouble::Ended(_)) {
                        student = match open() {
                            Ok(s) => s,
                            Err(t) => {
                                return dead(spec, spec_name, options, cases, t, driver.policy)
                            }
                        };
                    }
                }
                // A path from the spec's start can join the shrinking.
                if sgame.start() == game.start()
                    || (!setup_used.is_empty() && game.start() == game.course_start())
                {
                    differences.push(d);
                }
            }
        }
        cases.push(c);
    }

    // 3. Perft from the spec's start.
    if start_reachable {
        let asked = options.perft_depth.unwrap_or_else(|| auto_depth(game));
        // The walk is bounded; a depth whose reference tree does not fit is counted less deep
        // (cut counts would read as a difference).
        let mut depth = asked;
        while depth > 1 && inner_positions(&reference, &reference.start(), depth) > PERFT_BUDGET {
            depth -= 1;
        }
        let before = differences.len();
        let mut p = Perft {
            reference: &reference,
            student: &mut student,
            how: rules_only,
            counts: vec![(0, 0); depth as usize + 1],
            divide: Vec::new(),
            lines: &mut lines,
            differences: &mut differences,
            budget: PERFT_BUDGET,
            exhausted: false,
        };
        let result = match p.student.start(spec_start.as_ref()) {
            Ok(_) => p.walk(
                depth,
                &mut Vec::new(),
                &mut Vec::new(),
                Some(reference.start()),
            ),
            Err(t) => Err((Vec::new(), None, t)),
        };
        let counts = p.counts.clone();
        let divide = std::mem::take(&mut p.divide);
        let exhausted = p.exhausted;
        let shallower = if depth < asked {
            format!(
                " (counted to length {depth}, not {asked}: the reference has more than {PERFT_BUDGET} positions with moves before length {asked})"
            )
        } else {
            String::new()
        };
        let c = match result {
            Err((path, playing, t)) => {
                let d = Difference {
                    path,
                    what: What::Trouble(t.clone(), playing.clone()),
                };
                let what = d.sentence(game);
                differences.push(d);
                let details = t.describe().1;
                let status = t.status();
                if matches!(t, Trouble::Ended(_)) {
                    student = match open() {
                        Ok(s) => s,
                        Err(t) => return dead(spec, spec_name, options, cases, t, driver.policy),
                    };
                }
                case("perft", status)
                    .message(format!("counting move sequences, {what}"))
                    .details(details)
            }
            Ok(()) if exhausted => case("perft", Verdict::Fail).message(format!(
                "the game has more than {PERFT_BUDGET} positions with moves within {} moves of the start, the reference {}: the walk stopped there",
                depth,
                inner_positions(&reference, &reference.start(), depth)
            )),
            Ok(()) => {
                let c = perft_case(spec_name, game, depth, &counts, &divide, &reference);
                let c = if shallower.is_empty() {
                    c
                } else {
                    let m = c.message.clone();
                    c.message(format!("{m}{shallower}"))
                };
                // The counts may agree where a position does not (a status, a player).
                match differences[before..].iter().min_by_key(|d| d.path.len()) {
                    Some(d) if c.status.passed() => case("perft", Verdict::Fail).message(format!(
                        "the move sequences agree in number up to length {depth}, but not every position on them does: {}",
                        d.sentence(game)
                    )),
                    _ => c,
                }
            }
        };
        cases.push(c);
    }

    // What the driver noticed without judging it (asked before the driver is let go).
    let notes = student.notes();
    // 4. Random playouts, and 5. the move order.
    drop(student);
    if start_reachable && options.playouts > 0 {
        let results = playouts(game, &reference, driver, options, spec_start.as_ref());
        let mut first_rule: Option<(usize, Difference)> = None;
        let mut first_order: Option<(usize, Difference)> = None;
        let mut states = 0usize;
        for (i, r) in results.into_iter().enumerate() {
            states += r.line.views.len();
            if let Some(d) = r.difference {
                if first_rule.is_none() {
                    first_rule = Some((i, d.clone()));
                }
                differences.push(d);
            }
            if first_order.is_none() {
                first_order = r.order.map(|d| (i, d));
            }
            lines.push(r.line);
        }
        let n = options.playouts;
        cases.push(match &first_rule {
            None => case("playouts", Verdict::Pass).message(format!(
                "{n} random games (seed {}), {states} positions: moves, status and player{} agree with the reference",
                options.seed,
                if options.estimates { ", estimate" } else { "" }
            )),
            Some((i, d)) => {
                let status = match &d.what {
                    What::Trouble(t, _) => t.status(),
                    _ => Verdict::Fail,
                };
                let details = match &d.what {
                    What::Trouble(t, _) => t.describe().1,
                    _ => String::new(),
                };
                case("playouts", status)
                    .message(format!(
                        "game {} of {n} (seed {}): {}",
                        i + 1,
                        options.seed,
                        d.sentence(game)
                    ))
                    .details(details)
            }
        });
        cases.push(match first_order {
            // Nothing was compared (every game went wrong at its start): say so, not PASS.
            None if states == 0 => {
                // Worth its point still (0 earned): the rows of a class keep one maximum.
                case("move order", Verdict::Skipped).message(
                    "not checked: no random game reached a position where the two games could be compared",
                )
            }
            None => case("move order", Verdict::Pass).message(
                "the moves come in the reference's order wherever the two games agree on them",
            ),
            Some((i, d)) => case("move order", Verdict::Fail).message(format!(
                "game {} of {n}: {} (the same moves: the rules agree, but traces will not)",
                i + 1,
                d.sentence(game)
            )),
        });
    }

    // The notes go where the report is read: the playouts' line, else perft's.
    if !notes.is_empty() {
        let at = cases
            .iter()
            .position(|c| c.case == "playouts")
            .or_else(|| cases.iter().position(|c| c.case == "perft"));
        if let Some(i) = at {
            let _ = write!(
                cases[i].message,
                " (noted, not counted: {})",
                notes.join("; ")
            );
        }
    }

    // 6. The estimator against the handout's naive one.
    if start_reachable
        && game.judged_estimator()
        && options.estimator_openings > 0
        && !options.estimator_depths.is_empty()
    {
        let mut c = estimator_case(spec_name, game, driver, options, spec_start.as_ref());
        if !c.status.passed() && !differences.is_empty() {
            // The student's estimate reads the student's own status and board.
            c.message.push_str(
                " (the game's rules differ from the reference too, see above, and an estimate reads the game's own status: fix the rules first)",
            );
        }
        cases.push(c);
    }

    // The shortest difference, and its name: a difference of the rules before one of the
    // estimate alone (a game whose rules differ is named by them).
    let is_estimate = |d: &Difference| {
        matches!(
            d.what,
            What::Differs {
                part: Part::Estimate,
                ..
            }
        )
    };
    let of_rules: Vec<Difference> = differences
        .iter()
        .filter(|d| !is_estimate(d))
        .cloned()
        .collect();
    let candidates = if of_rules.is_empty() {
        &differences
    } else {
        &of_rules
    };
    if let Some(shortest) = shortest(
        game,
        &reference,
        driver,
        options,
        spec_start.as_ref(),
        candidates,
    ) {
        let mut shortest = shortest;
        let mut proven = false;
        let mut named = None;
        let mut sentence = String::new();
        let estimate_only = is_estimate(&shortest.0) && of_rules.is_empty();
        if estimate_only {
            // The rules agreed wherever they were compared: the estimator is what differs,
            // and no rule mistake can explain it.
            sentence.push_str(
                "    the rules agree at every position compared; only the estimate differs: the game's estimator (rough_outcome in CSC148, estimate in 15-150) is not the one the spec fixes\n",
            );
        } else if options.diagnose
            && !is_estimate(&shortest.0)
            && matches!(shortest.0.what, What::Differs { .. })
        {
            lines.push(shortest.1.clone());
            let (text, ids, tried) = name_the_mistake(game, &lines, rules_only);
            // With the mistake named, its model finds the shortest sequence that shows it (by
            // trying every shorter one, where there are few enough), confirmed on the game.
            if let [id] = ids.as_slice() {
                if let Some((d, sure)) = shortest_by_model(
                    game,
                    &reference,
                    driver,
                    options,
                    spec_start.as_ref(),
                    id,
                    &shortest.0,
                ) {
                    shortest.0 = d;
                    proven = sure;
                }
            }
            sentence = text.clone();
            named = (!ids.is_empty()).then(|| diagnosis_of(text, ids, tried));
        }
        let mut text = explain(game, &shortest.0, proven);
        text.push_str(&sentence);
        if let Some(c) = cases.iter_mut().find(|c| {
            !c.status.passed()
                && c.case != "parse_move"
                && c.case != "move order"
                && c.case != "estimator"
        }) {
            if !c.details.is_empty() && !c.details.ends_with('\n') {
                c.details.push('\n');
            }
            c.details.push_str(&text);
            // So that `grade` counts the mistakes it names, as it counts a searcher's.
            c.diagnosis = named;
        }
    }
    Report {
        cases,
        sandbox: Some(crate::report::SandboxNote::of(driver.policy)),
    }
}

/// The duel of the student's estimator against the naive one, as one case.
fn estimator_case<G: Checkable>(
    spec_name: &str,
    game: &G,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
) -> CaseResult {
    let plan = duel::Plan {
        depths: options.estimator_depths.clone(),
        openings: options.estimator_openings,
        seed: options.seed,
    };
    let pairings = duel::pairings(game, &plan);
    let played = duel::play_all(game, driver, options.threads, start, &pairings);
    let case = |verdict| CaseResult::new(spec_name, "estimator", verdict, 1.0);
    let openings = pairings
        .iter()
        .map(|p| &p.opening)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let depths: Vec<String> = plan.depths.iter().map(u32::to_string).collect();
    let setting = format!(
        "{} games: alpha-beta at depth {} on the reference rules, from {openings} opening{}, each side played by each estimator",
        played.len(),
        depths.join(", "),
        if openings == 1 { "" } else { "s" }
    );
    let mut details = String::new();
    for &depth in &plan.depths {
        let (w, d, l) = duel::tally(played.iter().filter(|p| p.pairing.depth == depth));
        let _ = writeln!(details, "depth {depth}: won {w}, drew {d}, lost {l}");
    }
    for p in &played {
        let opening = if p.pairing.opening.is_empty() {
            "the start".to_owned()
        } else {
            p.pairing.opening.join(" ")
        };
        let how = match &p.result {
            Ok(duel::Result::Won) => "won",
            Ok(duel::Result::Drew) => "drew",
            Ok(duel::Result::Lost) => "lost",
            Ok(duel::Result::Unfinished) => "unfinished (counted as drawn)",
            Err(_) => "could not be played",
        };
        let _ = writeln!(
            details,
            "  from {opening}, depth {}, the student's estimator as {}: {how} after {} moves",
            p.pairing.depth,
            game.player_name(p.pairing.student),
            p.moves.len()
        );
    }
    if let Some(t) = played.iter().find_map(|p| p.result.as_ref().err()) {
        let d = Difference {
            path: t.path.clone(),
            what: What::Trouble(t.trouble.clone(), t.playing.clone()),
        };
        let hint = if matches!(t.trouble, Trouble::Refused(_)) {
            " (the estimators play the reference's moves)"
        } else {
            ""
        };
        return case(t.trouble.status())
            .message(format!(
                "the estimator against the naive one: asking the game's estimate {}{hint}",
                d.sentence(game)
            ))
            .details(format!("{}\n{details}", t.trouble.describe().1));
    }
    let (w, d, l) = duel::tally(&played);
    let score = format!("won {w}, drew {d}, lost {l}");
    if w >= l {
        case(Verdict::Pass).message(format!(
            "the estimator against the handout's naive one: {score} ({setting}): no worse than the naive estimator"
        ))
    } else {
        case(Verdict::Fail).message(format!(
            "the estimator against the handout's naive one: {score} ({setting}): it does worse than the naive estimator, and the course asks for no worse"
        ))
    }
    .details(details)
}

/// [`check_game`] on the game a spec holds; `Err` names a game `check-game` cannot check.
pub fn check_document(
    doc: &crate::spec::GameDocument,
    spec_name: &str,
    driver: &Driver,
    options: &Options,
) -> Result<Report, &'static str> {
    use crate::spec::GameDocument as D;
    match doc {
        D::Connect4(s) => Ok(check_game(s, spec_name, driver, options)),
        D::Tippy(s) => Ok(check_game(s, spec_name, driver, options)),
        D::Riskless(s) => Ok(check_game(s, spec_name, driver, options)),
        D::SubtractSquare(s) => Ok(check_game(s, spec_name, driver, options)),
        other => Err(crate::with_game_spec!(other, s => Playable::name(&s.game))),
    }
}

/// The student's game behind its driver, its move names read as the reference reads them.
fn open_student<'a, G: Checkable>(
    game: &'a G,
    driver: &Driver<'a>,
    estimates: bool,
) -> Result<Student<'a>, Trouble> {
    let mut s =
        Student::open(driver.job(), &game.driver_env())?.with_names(Box::new(move |name: &str| {
            game.read_move(name)
                .map(|m| game.move_name(m))
                .unwrap_or_else(|_| name.to_owned())
        }));
    s.estimates = estimates;
    Ok(s)
}

/// The student's view of its current position against the reference's (`want`).
fn agree_here(
    student: &mut Student,
    want: View,
    path: &[String],
    how: Compare,
) -> Result<(), Difference> {
    let here = |what| Difference {
        path: path.to_vec(),
        what,
    };
    let got = student.view().map_err(|t| here(What::Trouble(t, None)))?;
    match want.differs(&got, how) {
        Some(part) => Err(here(What::Differs {
            part,
            reference: want,
            student: got,
        })),
        None => Ok(()),
    }
}

/// Plays `moves` (from [`Checkable::moves_to`]) from the course's start on the student's
/// game, comparing each position on the way with the reference's.
fn follow<G: Checkable>(
    game: &G,
    start: &G::State,
    student: &mut Student,
    moves: &[String],
    how: Compare,
) -> Result<(), Difference> {
    let from = game.starting_at(start.clone());
    let on_way = Reference {
        game: &from,
        estimate: None,
    };
    let mut s = on_way.start();
    for (i, name) in moves.iter().enumerate() {
        agree_here(student, on_way.view(&s), &moves[..i], how)?;
        student.play(name).map_err(|t| Difference {
            path: moves[..i].to_vec(),
            what: What::Trouble(t, Some(name.clone())),
        })?;
        s = on_way.play(&s, name).expect("moves_to's own move");
    }
    Ok(())
}

/// The "step" of a difference found while reaching a scenario's position by moves.
const SETUP: usize = usize::MAX;

/// The report when the driver cannot be started again after it died.
fn dead<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    options: &Options,
    mut cases: Vec<CaseResult>,
    t: Trouble,
    policy: &Policy,
) -> Report {
    let (what, details) = t.describe();
    cases.push(
        CaseResult::new(spec_name, "driver", t.status(), 0.0)
            .message(format!(
                "the game's driver could not be started again: {what}"
            ))
            .details(details),
    );
    not_run(spec, spec_name, options, &mut cases, t.status());
    Report {
        cases,
        sandbox: Some(crate::report::SandboxNote::of(policy)),
    }
}

/// The cases a run of `check-game` has for this spec, whatever the student's game does, with
/// their points: every submission's report lists the same cases (a gradebook's columns).
pub fn planned<G: Checkable>(spec: &GameSpec<G>, options: &Options) -> Vec<(String, f64)> {
    let game = &spec.game;
    let mut out = vec![(
        "parse_move".to_owned(),
        if spec.game.graded_parser() { 1.0 } else { 0.0 },
    )];
    for sc in &spec.scenarios {
        let s = sc.game.start();
        // One no driver can reach is listed too, SKIPPED and worth nothing, as check-game
        // lists it.
        let reachable = start_arg(game, &s).is_ok() || game.moves_to(&s).is_some();
        let points = if reachable { sc.points } else { 0.0 };
        out.push((format!("scenario {}", sc.name), points));
    }
    if start_arg(game, &game.start()).is_ok() {
        out.push(("perft".to_owned(), 1.0));
        if options.playouts > 0 {
            out.push(("playouts".to_owned(), 1.0));
            out.push(("move order".to_owned(), 1.0));
        }
        if game.judged_estimator()
            && options.estimator_openings > 0
            && !options.estimator_depths.is_empty()
        {
            out.push(("estimator".to_owned(), 1.0));
        }
    }
    out
}

/// Adds the planned cases a dead driver left unrun: each with its points lost, and the
/// driver's verdict.
fn not_run<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    options: &Options,
    cases: &mut Vec<CaseResult>,
    status: Verdict,
) {
    for (name, points) in planned(spec, options) {
        if !cases.iter().any(|c| c.case == name) {
            cases.push(
                CaseResult::new(spec_name, &name, status, points)
                    .message("not run: the game's driver could not be started (see `driver`)"),
            );
        }
    }
}

/// SML/NJ's error lines among a program's output, each with the indented lines that explain
/// it (`name: player`, `spec: ...`, `actual: ...`).
fn compiler_errors(out: &str) -> String {
    let mut kept = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if line.contains(" Error: ") || line.contains(" Error:") {
            inside = true;
            kept.push(line);
        } else if inside && line.starts_with(char::is_whitespace) {
            kept.push(line);
        } else {
            inside = false;
        }
        if kept.len() >= 20 {
            break;
        }
    }
    kept.join("\n")
}

/// The deepest perft that visits at most about 3,000 positions of the reference.
fn auto_depth<G: Playable>(game: &G) -> u32 {
    let mut level = vec![game.start()];
    let mut total = 1usize;
    let mut depth = 0;
    while depth < 8 {
        let next: Vec<G::State> = level
            .iter()
            .flat_map(|s| game.moves(s).map(move |m| game.play(s, m)))
            .collect();
        if next.is_empty() || total + next.len() > 3000 {
            break;
        }
        total += next.len();
        level = next;
        depth += 1;
    }
    depth.max(1)
}

struct Perft<'r, 'g, 's, 'a, G: Playable> {
    reference: &'r Reference<'g, G>,
    student: &'s mut Student<'a>,
    how: Compare,
    /// (reference, student) sequences of each length.
    counts: Vec<(u64, u64)>,
    /// Per first move: its name and the counts of each length under it.
    divide: Vec<(String, Vec<(u64, u64)>)>,
    lines: &'s mut Vec<Line>,
    differences: &'s mut Vec<Difference>,
    /// Positions with moves the walk may still open; when it runs out the counts are cut.
    budget: usize,
    exhausted: bool,
}

/// How many positions with moves perft opens at most (the reference's tree at the automatic
/// depth has at most 3,000 positions).
const PERFT_BUDGET: usize = 40_000;

/// The reference's positions with moves fewer than `left` moves below `s`, counted up to
/// just past the budget.
fn inner_positions<G: Playable>(r: &Reference<G>, s: &G::State, left: u32) -> usize {
    fn go<G: Playable>(r: &Reference<G>, s: &G::State, left: u32, n: &mut usize) {
        if left == 0 || *n > PERFT_BUDGET {
            return;
        }
        let mut any = false;
        for m in r.game.moves(s) {
            if !any {
                any = true;
                *n += 1;
            }
            go(r, &r.game.play(s, m), left - 1, n);
        }
    }
    let mut n = 0;
    go(r, s, left, &mut n);
    n
}

impl<G: Playable> Perft<'_, '_, '_, '_, G> {
    /// Walks the student's game (its own moves) and the reference beside it, where it has the
    /// same move; counts both.
    fn walk(
        &mut self,
        left: u32,
        path: &mut Vec<String>,
        views: &mut Vec<View>,
        reference: Option<G::State>,
    ) -> Result<(), (Vec<String>, Option<String>, Trouble)> {
        let d = path.len();
        let mine = self.student.view().map_err(|t| (path.clone(), None, t))?;
        let theirs = reference.as_ref().map(|s| self.reference.view(s));
        if d > 0 {
            self.counts[d].1 += 1;
            self.divide.last_mut().expect("a first move").1[d].1 += 1;
        }
        views.push(mine.clone());
        if let Some(t) = &theirs {
            if let Some(part) = t.differs(&mine, self.how) {
                self.differences.push(Difference {
                    path: path.clone(),
                    what: What::Differs {
                        part,
                        reference: t.clone(),
                        student: mine.clone(),
                    },
                });
            }
        }
        if left > 0 && !mine.moves.is_empty() && self.budget == 0 {
            self.exhausted = true;
        }
        if left == 0 || self.budget == 0 || mine.moves.is_empty() {
            self.lines.push(Line {
                path: path.clone(),
                views: views.clone(),
            });
            views.pop();
            return Ok(());
        }
        self.budget -= 1;
        for name in &mine.moves {
            let next_ref = reference
                .as_ref()
                .and_then(|s| self.reference.play(s, name));
            if d == 0 {
                let mut per = vec![(0u64, 0u64); self.counts.len()];
                if let Some(s) = &next_ref {
                    count_reference(self.reference, s, 1, left - 1, &mut per);
                }
                self.divide.push((name.clone(), per));
            }
            self.student
                .play(name)
                .map_err(|t| (path.clone(), Some(name.clone()), t))?;
            path.push(name.clone());
            self.walk(left - 1, path, views, next_ref)?;
            self.student.undo().map_err(|t| (path.clone(), None, t))?;
            path.pop();
        }
        if d == 0 {
            // Reference first moves the student does not offer still count for the reference.
            if let Some(s) = &reference {
                for name in self.reference.view(s).moves {
                    if !mine.moves.contains(&name) {
                        let mut per = vec![(0u64, 0u64); self.counts.len()];
                        let next = self.reference.play(s, &name).expect("its own move");
                        count_reference(self.reference, &next, 1, left - 1, &mut per);
                        self.divide.push((name, per));
                    }
                }
            }
            for (_, per) in &self.divide {
                for (k, c) in per.iter().enumerate() {
                    self.counts[k].0 += c.0;
                }
            }
        }
        views.pop();
        Ok(())
    }
}

fn count_reference<G: Playable>(
    r: &Reference<G>,
    s: &G::State,
    depth: usize,
    left: u32,
    per: &mut [(u64, u64)],
) {
    per[depth].0 += 1;
    if left == 0 {
        return;
    }
    for m in r.game.moves(s) {
        count_reference(r, &r.game.play(s, m), depth + 1, left - 1, per);
    }
}

fn perft_case<G: Playable>(
    spec_name: &str,
    _game: &G,
    depth: u32,
    counts: &[(u64, u64)],
    divide: &[(String, Vec<(u64, u64)>)],
    _reference: &Reference<G>,
) -> CaseResult {
    let mut table = String::from("depth  reference  student's\n");
    for (d, (r, s)) in counts.iter().enumerate().skip(1) {
        let _ = writeln!(
            table,
            "{d:>5}  {r:>9}  {s:>9}{}",
            if r == s { "" } else { "  <- differs" }
        );
    }
    match counts.iter().position(|(r, s)| r != s) {
        None => CaseResult::new(spec_name, "perft", Verdict::Pass, 1.0).message(format!(
            "move sequences from the start agree up to length {depth}: {}",
            counts
                .iter()
                .skip(1)
                .map(|c| c.0.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        Some(d) => {
            let _ = writeln!(
                table,
                "divide at length {d} (sequences under each first move):"
            );
            let _ = writeln!(table, "first move  reference  student's");
            for (name, per) in divide {
                let (r, s) = per[d];
                let _ = writeln!(
                    table,
                    "{name:>10}  {r:>9}  {s:>9}{}",
                    if r == s { "" } else { "  <- differs" }
                );
            }
            CaseResult::new(spec_name, "perft", Verdict::Fail, 1.0)
                .message(format!(
                    "move sequences of length {d} from the start: reference {}, student's {}",
                    counts[d].0, counts[d].1
                ))
                .details(table)
        }
    }
}

struct Playout {
    line: Line,
    difference: Option<Difference>,
    order: Option<Difference>,
}

/// The seeded random games, spread over `options.threads` drivers; the same results in the
/// same order for any number of threads (each game has its own seed and starts afresh).
fn playouts<G: Checkable>(
    game: &G,
    reference: &Reference<G>,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
) -> Vec<Playout> {
    let n = options.playouts;
    let threads = options.threads.clamp(1, n.max(1));
    let mut slots: Vec<Option<Playout>> = (0..n).map(|_| None).collect();
    let chunks: Vec<Vec<usize>> = (0..threads)
        .map(|t| (t..n).step_by(threads).collect())
        .collect();
    let done: Vec<Vec<(usize, Playout)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|mine| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut student: Option<Student> = None;
                    for i in mine {
                        if student.is_none() {
                            match open_student(game, driver, options.estimates) {
                                Ok(s) => {
                                    student = Some(s);
                                }
                                Err(t) => {
                                    out.push((i, troubled(Vec::new(), Vec::new(), t, None)));
                                    continue;
                                }
                            }
                        }
                        let s = student.as_mut().expect("opened above");
                        let p = one_playout(game, reference, s, options, start, i);
                        if matches!(
                            p.difference,
                            Some(Difference {
                                what: What::Trouble(Trouble::Ended(_), _),
                                ..
                            })
                        ) {
                            student = None;
                        }
                        out.push((i, p));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (i, p) in done.into_iter().flatten() {
        slots[i] = Some(p);
    }
    slots.into_iter().flatten().collect()
}

fn troubled(path: Vec<String>, views: Vec<View>, t: Trouble, playing: Option<String>) -> Playout {
    Playout {
        difference: Some(Difference {
            path: path.clone(),
            what: What::Trouble(t, playing),
        }),
        line: Line { path, views },
        order: None,
    }
}

fn one_playout<G: Playable>(
    _game: &G,
    reference: &Reference<G>,
    student: &mut Student,
    options: &Options,
    start: Option<&serde_json::Value>,
    index: usize,
) -> Playout {
    let how = Compare {
        order: false,
        estimate: options.estimates,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(
        options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut path = Vec::new();
    let mut views = Vec::new();
    let mut order = None;
    if let Err(t) = student.start(start) {
        return troubled(path, views, t, None);
    }
    let mut s = reference.start();
    loop {
        // The same question twice must get the same answer (judged before the answers are:
        // a listing that grows on each call would otherwise read as a rule difference).
        let mine = match student.view_and_moves_again() {
            Ok((v, again)) if again == v.moves => v,
            Ok((v, again)) => {
                let t = Trouble::Unsteady(v.moves, again, student.language);
                return troubled(path, views, t, None);
            }
            Err(t) => return troubled(path, views, t, None),
        };
        let theirs = reference.view(&s);
        views.push(mine.clone());
        if let Some(part) = theirs.differs(&mine, how) {
            return Playout {
                difference: Some(Difference {
                    path: path.clone(),
                    what: What::Differs {
                        part,
                        reference: theirs,
                        student: mine,
                    },
                }),
                line: Line { path, views },
                order,
            };
        }
        if order.is_none() && theirs.moves != mine.moves {
            order = Some(Difference {
                path: path.clone(),
                what: What::Differs {
                    part: Part::Order,
                    reference: theirs.clone(),
                    student: mine.clone(),
                },
            });
        }
        // A game may go round in circles (Riskless armies stuck at their caps): a playout
        // stops after so many moves.
        if theirs.moves.is_empty() || path.len() >= LONGEST_PLAYOUT {
            break;
        }
        let name = theirs.moves[rng.next_u32() as usize % theirs.moves.len()].clone();
        if let Err(t) = student.play(&name) {
            return troubled(path, views, t, Some(name));
        }
        s = reference.play(&s, &name).expect("the reference's own move");
        path.push(name);
    }
    Playout {
        line: Line { path, views },
        difference: None,
        order,
    }
}

/// Replays `path` on the student and the reference: the first difference on it, with the
/// student's views up to there.
fn replay<G: Playable>(
    reference: &Reference<G>,
    student: &mut Student,
    start: Option<&serde_json::Value>,
    path: &[String],
    how: Compare,
) -> (Option<Difference>, Line) {
    let mut line = Line::default();
    let trouble = |line: Line, t| {
        (
            Some(Difference {
                path: line.path.clone(),
                what: What::Trouble(t, None),
            }),
            line,
        )
    };
    if let Err(t) = student.start(start) {
        return trouble(line, t);
    }
    let mut s = reference.start();
    for i in 0..=path.len() {
        let mine = match student.view() {
            Ok(v) => v,
            Err(t) => return trouble(line, t),
        };
        let theirs = reference.view(&s);
        line.views.push(mine.clone());
        if let Some(part) = theirs.differs(&mine, how) {
            return (
                Some(Difference {
                    path: line.path.clone(),
                    what: What::Differs {
                        part,
                        reference: theirs,
                        student: mine,
                    },
                }),
                line,
            );
        }
        let Some(name) = path.get(i) else { break };
        let Some(next) = reference.play(&s, name) else {
            break;
        };
        if let Err(t) = student.play(name) {
            return (
                Some(Difference {
                    path: line.path.clone(),
                    what: What::Trouble(t, Some(name.clone())),
                }),
                line,
            );
        }
        s = next;
        line.path.push(name.clone());
    }
    (None, line)
}

/// The shortest move sequence from the start showing a difference: the shortest found, then
/// shrunk by leaving out one move, or two (one of each player's), while a difference still
/// shows.
fn shortest<G: Checkable>(
    game: &G,
    reference: &Reference<G>,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
    found: &[Difference],
) -> Option<(Difference, Line)> {
    let best = found.iter().min_by_key(|d| d.path.len())?.clone();
    let how = Compare {
        order: false,
        estimate: options.estimates,
    };
    let mut student = open_student(game, driver, options.estimates).ok()?;
    let (first, mut line) = replay(reference, &mut student, start, &best.whole(), how);
    let ended = |d: &Option<Difference>| {
        matches!(
            d,
            Some(Difference {
                what: What::Trouble(Trouble::Ended(_), _),
                ..
            })
        )
    };
    if ended(&first) {
        student = open_student(game, driver, options.estimates).ok()?;
    }
    let mut best = match first {
        Some(d) => d,
        // Seen elsewhere but not on a replay (a game that is not a function of its moves).
        None => return Some((best, line)),
    };
    let mut tries = 0usize;
    let mut improved = true;
    while improved && tries < 600 {
        improved = false;
        let whole = best.whole();
        let n = whole.len();
        let mut candidates: Vec<Vec<String>> = Vec::new();
        for i in 0..n {
            let mut c = whole.clone();
            c.remove(i);
            candidates.push(c);
        }
        for i in 0..n {
            for j in i + 1..n {
                let mut c = whole.clone();
                c.remove(j);
                c.remove(i);
                candidates.push(c);
            }
        }
        candidates.sort_by_key(Vec::len);
        for c in candidates {
            if tries >= 600 {
                break;
            }
            // Only sequences the reference can play.
            if reference_after(reference.game, &c).is_none() {
                continue;
            }
            tries += 1;
            let (d, l) = replay(reference, &mut student, start, &c, how);
            if ended(&d) {
                student = open_student(game, driver, options.estimates).ok()?;
            }
            if let Some(d) = d {
                if d.path.len() < best.path.len() {
                    best = d;
                    line = l;
                    improved = true;
                    break;
                }
            }
        }
    }
    // Then every shorter sequence, shortest first, while there are few enough to replay
    // them all (small games: the true shortest, which leaving moves out cannot always reach).
    let mut level: Vec<Vec<String>> = vec![Vec::new()];
    for _ in 0..best.path.len() {
        let mut next = Vec::new();
        for p in &level {
            let Some(s) = reference_after(reference.game, p) else {
                continue;
            };
            for m in reference.game.moves(&s) {
                let mut q = p.clone();
                q.push(reference.game.move_name(m));
                next.push(q);
            }
        }
        if next.is_empty() || tries + next.len() > BFS_BUDGET + 600 {
            break;
        }
        for c in &next {
            tries += 1;
            let (d, l) = replay(reference, &mut student, start, c, how);
            if ended(&d) {
                student = open_student(game, driver, options.estimates).ok()?;
            }
            if let Some(d) = d {
                if d.path.len() < best.path.len() {
                    return Some((d, l));
                }
            }
        }
        level = next;
        if level.first().map_or(0, Vec::len) + 1 >= best.path.len() {
            break;
        }
    }
    Some((best, line))
}

/// The most moves the search for a shortest sequence looks at, and the most sequences it
/// asks a named mistake's model about.
const SHORTEST_PLIES: usize = 12;
const SHORTEST_BUDGET: usize = 20_000;

/// With a mistake named (`id`), the shortest sequence that shows it: every sequence of the
/// reference shorter than `found` is asked of the mistake's model, shortest first; the first
/// the model differs on is replayed on the student's game. `Some((d, true))`: `d` is the
/// shortest (no shorter sequence shows the mistake); `Some((found, true))` when none is
/// shorter; `None` when there were too many to try (then `found` stays "shortest found").
fn shortest_by_model<G: Checkable>(
    game: &G,
    reference: &Reference<G>,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
    id: &str,
    found: &Difference,
) -> Option<(Difference, bool)> {
    let mutants = game.mutants();
    let model = mutants.iter().find(|m| m.id == id)?;
    let how = Compare {
        order: false,
        estimate: false,
    };
    let limit = found.whole().len().min(SHORTEST_PLIES + 1);
    let mut asked = 0usize;
    // Sequences at the last two depths, to foresee the next one's and stop before a depth
    // the budget cannot finish.
    let (mut before, mut last) = (1usize, 1usize);
    // Depth by depth: the first depth with a sequence the model differs on is the answer.
    for depth in 0..limit {
        let foreseen = last.saturating_mul(last.div_ceil(before.max(1)).max(1));
        if depth > 1 && asked.saturating_add(foreseen) > SHORTEST_BUDGET {
            return None;
        }
        let asked_before = asked;
        let mut hit: Option<Vec<String>> = None;
        let mut path = Vec::new();
        let mut views = vec![reference.view(&reference.start())];
        let complete = deepen(
            reference,
            model.rules.as_ref(),
            how,
            &reference.start(),
            depth,
            &mut path,
            &mut views,
            &mut asked,
            &mut hit,
        );
        if let Some(p) = hit {
            let mut student = open_student(game, driver, options.estimates).ok()?;
            let how = Compare {
                order: false,
                estimate: options.estimates,
            };
            let (d, _) = replay(reference, &mut student, start, &p, how);
            return d.filter(|d| d.whole().len() <= p.len()).map(|d| (d, true));
        }
        if !complete {
            return None;
        }
        before = last;
        last = asked - asked_before;
    }
    (found.whole().len() <= SHORTEST_PLIES).then(|| (found.clone(), true))
}

/// Every reference sequence of `left` more moves from `s`: stops at the first the model
/// differs on (its moves in `hit`). `false` when the budget ran out first.
#[allow(clippy::too_many_arguments)]
fn deepen<G: Playable>(
    reference: &Reference<G>,
    model: &dyn rules::Oracle,
    how: Compare,
    s: &G::State,
    left: usize,
    path: &mut Vec<String>,
    views: &mut Vec<View>,
    asked: &mut usize,
    hit: &mut Option<Vec<String>>,
) -> bool {
    if left == 0 {
        *asked += 1;
        if *asked > SHORTEST_BUDGET {
            return false;
        }
        if model.first_difference(path, views, how).is_some() {
            *hit = Some(path.clone());
        }
        return true;
    }
    let here = views.last().expect("a view of each position").clone();
    for name in here.moves {
        let Some(next) = reference.play(s, &name) else {
            continue;
        };
        path.push(name);
        views.push(reference.view(&next));
        let ok = deepen(
            reference,
            model,
            how,
            &next,
            left - 1,
            path,
            views,
            asked,
            hit,
        );
        path.pop();
        views.pop();
        if !ok {
            return false;
        }
        if hit.is_some() {
            return true;
        }
    }
    true
}

/// The most moves a random playout makes.
const LONGEST_PLAYOUT: usize = 300;

/// How many sequences the breadth-first search for a shorter difference may replay.
const BFS_BUDGET: usize = 400;

/// The shortest difference for people: the moves, both positions, and a scenario to paste.
fn explain<G: Checkable>(game: &G, d: &Difference, proven: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} that shows it ({} move{}): {}",
        if proven {
            "shortest sequence"
        } else {
            "shortest sequence found"
        },
        d.path.len(),
        if d.path.len() == 1 { "" } else { "s" },
        if d.path.is_empty() {
            "(none: the start)".to_owned()
        } else {
            d.path.join(" ")
        }
    );
    let _ = writeln!(out, "  {}", d.sentence(game));
    if let Some(s) = reference_after(game, &d.path) {
        let _ = writeln!(out, "the reference's position there:");
        for l in game.render(&s).lines() {
            let _ = writeln!(out, "  {l}");
        }
    }
    // A scenario the teacher can paste: the moves, then what the reference says there.
    if let (Some(s), What::Differs { reference, .. }) = (reference_after(game, &d.path), &d.what) {
        let _ = writeln!(out, "as a scenario to paste into the spec's `scenarios:`:");
        let _ = writeln!(out, "  student_game_differs:");
        let _ = writeln!(out, "    steps:");
        for m in &d.path {
            let _ = writeln!(out, "      - move: {}", yaml_scalar(m));
        }
        // The expectations go on the last move's step (or a step of their own at the start).
        let lead = if d.path.is_empty() {
            "      - "
        } else {
            "        "
        };
        let status = match game.status(&s) {
            Status::Over(crate::game::Outcome::Winner(p)) => {
                format!("{{winner: {}}}", game.player_name(p))
            }
            other => crate::game::scenario::status_text(game, other),
        };
        let _ = writeln!(out, "{lead}status: {status}");
        let _ = writeln!(
            out,
            "        to_move: {}",
            game.player_name(game.player(&s))
        );
        let names: Vec<String> = reference.moves.iter().map(|m| yaml_scalar(m)).collect();
        let _ = writeln!(out, "        moves: [{}]", names.join(", "));
        // Where the estimate is what differs, the scenario pins it (a spec's estimate is a
        // number: the course's guess, or CSC148's 1, 0, -1).
        if let What::Differs {
            part: Part::Estimate,
            ..
        } = &d.what
        {
            if let Some(n) = reference
                .estimate
                .as_deref()
                .and_then(|e| e.parse::<i64>().ok())
            {
                let _ = writeln!(out, "        estimate: {n}");
            }
        }
    }
    out
}

/// A move name as a YAML scalar: quoted unless it is plain digits or letters.
fn yaml_scalar(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()) {
        s.to_owned()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Which catalogued mistakes behave exactly as the student's game did at every position it
/// was asked about.
fn name_the_mistake<G: Checkable>(
    game: &G,
    lines: &[Line],
    how: Compare,
) -> (String, Vec<&'static str>, usize) {
    let how = Compare {
        estimate: false,
        ..how
    };
    let mutants = game.mutants();
    let explaining: Vec<&Mutant> = mutants
        .iter()
        .filter(|m| {
            lines
                .iter()
                .all(|l| m.rules.first_difference(&l.path, &l.views, how).is_none())
        })
        .collect();
    let positions: usize = lines.iter().map(|l| l.views.len()).sum();
    let ids = explaining.iter().map(|m| m.id).collect();
    let text = match explaining.as_slice() {
        [] => format!(
            "no catalogued rule mistake of {} explains it ({} tried against the {positions} positions asked about); the first difference is above\n",
            game.name(),
            mutants.len()
        ),
        [one] => format!(
            "the mistake: {} [{}] (it behaves exactly so at all {positions} positions asked about)\n",
            one.what, one.id
        ),
        several => {
            let mut s = format!(
                "the mistake is one of these (each behaves exactly so at all {positions} positions asked about):\n"
            );
            for m in several {
                let _ = writeln!(s, "  - {} [{}]", m.what, m.id);
            }
            s
        }
    };
    (text, ids, mutants.len())
}

/// The rule mistakes named, as a case's diagnosis (what `grade`'s summary counts).
fn diagnosis_of(text: String, ids: Vec<&'static str>, tried: usize) -> crate::diagnosis::Diagnosis {
    use crate::diagnosis::{Diagnosis, Finding, Named};
    Diagnosis {
        finding: Finding::Exact,
        tried,
        explanations: ids
            .into_iter()
            .map(|id| {
                vec![Named {
                    bug: id.to_owned(),
                    mistake: id,
                    side: None,
                    sentence: id,
                    handout: "",
                }]
            })
            .collect(),
        matched: None,
        of: None,
        reference_matched: None,
        separated_by: Vec::new(),
        text: text.trim_end().to_owned(),
    }
}

/// Whether a student's game agrees with the reference on the positions a search of `depth`
/// from `game`'s start goes through: said first when a searcher that runs on the student's
/// game is checked (`check --game-cmd`), so a searcher is never blamed for its game.
#[derive(Clone, Debug)]
pub struct Agreement {
    pub agrees: bool,
    /// One sentence, for the report's message.
    pub summary: String,
    /// The difference with the moves to it, when there is one.
    pub details: String,
}

/// The most positions [`game_on_searched_positions`] compares.
const SEARCHED_BUDGET: usize = 20_000;

pub fn game_on_searched_positions<G: Checkable>(
    game: &G,
    depth: u32,
    driver: &Driver,
) -> Agreement {
    let trouble = |what: String, details: String| Agreement {
        agrees: false,
        summary: what,
        details,
    };
    let mut student = match open_student(game, driver, false) {
        Ok(s) => s,
        Err(t) => {
            let (what, details) = t.describe();
            return trouble(
                format!("the student's game could not be asked about the searched positions: its driver did not start: {what}"),
                details,
            );
        }
    };
    let start = game.start();
    let (arg, from, setup) = match start_arg(game, &start) {
        Ok(a) => (a, start.clone(), Vec::new()),
        Err(()) => match game.moves_to(&start) {
            Some((from, moves)) => (
                start_arg(game, &from).unwrap_or_default(),
                from,
                moves.iter().map(|&m| game.move_name(m)).collect(),
            ),
            None => return trouble(
                "the student's game was not compared: its driver cannot set up the case's position"
                    .to_owned(),
                String::new(),
            ),
        },
    };
    // Reaching the position by moves: each position on the way is compared too.
    let mut early: Option<Difference> = None;
    let reached = student.start(arg.as_ref()).and_then(|ok| {
        let how = Compare {
            order: true,
            estimate: false,
        };
        match follow(game, &from, &mut student, &setup, how) {
            Ok(()) => Ok(ok),
            Err(Difference {
                what: What::Trouble(t, _),
                ..
            }) => Err(t),
            Err(d) => {
                early = Some(d);
                Ok(ok)
            }
        }
    });
    if let Some(d) = early {
        return trouble(
            format!(
                "the student's game differs from the reference on the way to the case's position (reached by moves from the start), so its searcher's trace cannot match: fix the game first ({})",
                d.sentence(&game.starting_at(from.clone()))
            ),
            "(`gametrace check-game` checks the game on its own and names the rule mistake)\n"
                .to_owned(),
        );
    }
    match reached {
        Ok(true) => {}
        Ok(false) => {
            return trouble(
                "the student's game was not compared: its driver cannot set up the case's position"
                    .to_owned(),
                String::new(),
            )
        }
        Err(t) => {
            let (what, details) = t.describe();
            return trouble(
                format!("the student's game could not reach the case's position: {what}"),
                details,
            );
        }
    }
    let reference = Reference {
        game,
        estimate: None,
    };
    let mut lines = Vec::new();
    let mut differences = Vec::new();
    let depth = depth.min(12);
    let mut p = Perft {
        reference: &reference,
        student: &mut student,
        how: Compare {
            order: true,
            estimate: false,
        },
        counts: vec![(0, 0); depth as usize + 1],
        divide: Vec::new(),
        lines: &mut lines,
        differences: &mut differences,
        budget: SEARCHED_BUDGET,
        exhausted: false,
    };
    let walked = p.walk(
        depth,
        &mut Vec::new(),
        &mut Vec::new(),
        Some(reference.start()),
    );
    let positions = 1 + p.counts.iter().skip(1).map(|c| c.1).sum::<u64>();
    let cut = if p.exhausted {
        format!(
            " (the first {positions}: the walk stops after {SEARCHED_BUDGET} positions with moves)"
        )
    } else {
        String::new()
    };
    let shown = |path: &[String]| {
        if path.is_empty() {
            "at the case's position".to_owned()
        } else {
            format!("after {} from the case's position", path.join(" "))
        }
    };
    if let Err((path, playing, t)) = walked {
        let (what, details) = t.describe();
        let playing = playing.map_or(String::new(), |m| format!(", playing {m}"));
        return trouble(
            format!(
                "the student's game fails on a searched position ({}{playing}): {what}; the searcher is not judged on its game",
                shown(&path)
            ),
            details,
        );
    }
    match differences.iter().min_by_key(|d| d.path.len()) {
        None => Agreement {
            agrees: true,
            summary: format!(
                "the student's game agrees with the reference on the {positions} positions a depth-{depth} search goes through{cut} (moves in the same order, status, player)"
            ),
            details: String::new(),
        },
        Some(d) => {
            let sentence = d.sentence(game);
            Agreement {
                agrees: false,
                summary: format!(
                    "the student's game differs from the reference on a searched position, so its searcher's trace cannot match: fix the game first ({})",
                    sentence.replacen("after ", "after the moves ", 1)
                ),
                details: format!(
                    "{}\n(`gametrace check-game` checks the game on its own and names the rule mistake)\n",
                    explain(game, d, false).trim_end()
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::Connect4;

    /// Perft's bound counts the reference's positions with moves, level by level: 1, 7, 49
    /// on an empty 7×6 board (no game ends before four pieces of one side).
    #[test]
    fn inner_positions_count_each_level_with_moves() {
        let g = Connect4::new(7, 6, false);
        let r = Reference {
            game: &g,
            estimate: None,
        };
        assert_eq!(inner_positions(&r, &g.start(), 1), 1);
        assert_eq!(inner_positions(&r, &g.start(), 2), 1 + 7);
        assert_eq!(inner_positions(&r, &g.start(), 3), 1 + 7 + 49);
        // Past the budget the count stops just beyond it rather than walking 7⁹ sequences.
        let n = inner_positions(&r, &g.start(), 9);
        assert!(n > PERFT_BUDGET && n < PERFT_BUDGET + 100, "{n}");
    }
}

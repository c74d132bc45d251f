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

// A Difference is large, but it travels only on the cold path of a game that differs.
#![allow(clippy::result_large_err)]

// The core's and the sandbox's modules by the paths the command line gives them.
use gametrace_core::{diagnosis, game, search, spec, with_game_spec};
#[cfg(not(target_arch = "wasm32"))]
use gametrace_sandbox as sandbox;
// In the browser the student's game is a Python driver in the page's worker: the sandbox's
// types, with a conversation through the page (see the module).
#[cfg(target_arch = "wasm32")]
#[path = "wasm_sandbox.rs"]
pub mod sandbox;

/// Drivers run side by side on threads; in the browser (no threads there) one after another,
/// with the same results in the same order.
#[cfg(not(target_arch = "wasm32"))]
use std::thread::scope as in_parallel;
#[cfg(target_arch = "wasm32")]
fn in_parallel<T>(f: impl FnOnce(&inline::Scope) -> T) -> T {
    f(&inline::Scope)
}
#[cfg(target_arch = "wasm32")]
mod inline {
    pub struct Scope;
    pub struct Handle<T>(T);
    impl<T> Handle<T> {
        pub fn join(self) -> std::thread::Result<T> {
            Ok(self.0)
        }
    }
    impl Scope {
        pub fn spawn<T>(&self, f: impl FnOnce() -> T) -> Handle<T> {
            Handle(f())
        }
    }
}

mod checkable;
mod difference;
pub mod duel;
mod naming;
mod parse;
mod perft;
mod playouts;
pub mod probe;
pub mod report;
pub mod rules;
mod scenarios;
mod searched;
mod shrink;

pub use checkable::Checkable;
use difference::*;
use naming::*;
use perft::*;
use playouts::*;
pub use searched::{game_on_case, game_on_searched_positions, Agreement};
use shrink::*;

use crate::game::{Game, Playable, Status};
use crate::report::{CaseResult, Report};
use crate::sandbox::{Job, Policy};
use crate::spec::GameSpec;
use probe::{Student, Trouble};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rules::{Compare, Mutant, Part, Reference, Rules, View};
use std::fmt::Write as _;

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

/// How to start the student's driver: the job the student view prepared (see the command
/// line's `student` module), and the settings of this one submission.
pub struct Driver<'a> {
    pub job: Job<'a>,
    /// Settings for this one submission, in the driver's environment after the game's own
    /// (`grade --roster`: `GAMETRACE_CLASS`, `GAMETRACE_MODULE`, `GAMETRACE_CONSTRUCT`, ...).
    pub env: Vec<(String, String)>,
}

impl<'a> Driver<'a> {
    pub fn job(&self) -> Job<'a> {
        self.job
    }
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
    c.status = report::Status::Skipped;
    c.max_points = 0.0;
    c.points = 0.0;
    c.message = "not replayed: the game's driver cannot set up its position, and no moves from the game's start are known to reach it".into();
    c
}

/// One run of `check-game`: every check's result, in order. The checks are phases of one
/// [`Checking`], run in turn; a driver that dies and cannot be started again ends the run
/// with what was found so far.
pub fn check_game<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    driver: &Driver,
    options: &Options,
) -> Report {
    let mut run = match Checking::open(spec, spec_name, driver, options) {
        Ok(run) => run,
        Err(report) => return report,
    };
    let phases: [Phase<G>; 5] = [
        Checking::steady,
        Checking::parse_move,
        Checking::scenarios,
        Checking::perft,
        Checking::playouts,
    ];
    for phase in phases {
        if let Err(report) = phase(&mut run) {
            return *report;
        }
    }
    run.estimator();
    run.name_the_shortest();
    run.report()
}

/// A phase of [`check_game`]: `Err` ends the run with this report.
type Phase<'s, 'a, G> = fn(&mut Checking<'s, 'a, G>) -> Result<(), Box<Report>>;

/// One run of `check-game` as it goes: the reference, the student's driver (while it is
/// talked to), the cases so far, and the differences found, for the shortest and its name.
struct Checking<'s, 'a, G: Checkable> {
    spec: &'s GameSpec<G>,
    spec_name: &'s str,
    driver: &'s Driver<'a>,
    options: &'s Options,
    reference: Reference<'s, G>,
    student: Option<Student<'s>>,
    cases: Vec<CaseResult>,
    lines: Vec<Line>,
    differences: Vec<Difference>,
    /// How the driver reaches the spec's start, where it can.
    spec_start: Option<serde_json::Value>,
    start_reachable: bool,
    /// What the driver found in place of what the command named (said once, on the first
    /// case, so a report and a gradebook row both show it).
    found: Vec<String>,
    /// What the driver noticed without judging it.
    notes: Vec<String>,
}

impl<'s, 'a: 's, G: Checkable> Checking<'s, 'a, G> {
    /// Starts the student's driver; `Err` is the report of a driver that did not start.
    fn open(
        spec: &'s GameSpec<G>,
        spec_name: &'s str,
        driver: &'s Driver<'a>,
        options: &'s Options,
    ) -> Result<Self, Report> {
        let game = &spec.game;
        let estimate_fn: fn(&G, &G::State) -> String = G::course_estimate;
        let reference = Reference {
            game,
            estimate: options.estimates.then_some(estimate_fn),
        };
        let mut student = match open_student(game, driver, options.estimates) {
            Ok(s) => s,
            Err(t) => return Err(unstarted(spec, spec_name, options, t, driver)),
        };
        let found = std::mem::take(&mut student.greeting_notes);
        Ok(Checking {
            spec,
            spec_name,
            driver,
            options,
            reference,
            student: Some(student),
            cases: Vec::new(),
            lines: Vec::new(),
            differences: Vec::new(),
            spec_start: start_arg(game, &game.start()).unwrap_or_default(),
            start_reachable: start_arg(game, &game.start()).is_ok(),
            found,
            notes: Vec::new(),
        })
    }

    fn game(&self) -> &'s G {
        &self.spec.game
    }

    fn case(&self, name: &str, verdict: report::Status) -> CaseResult {
        CaseResult::new(self.spec_name, name, verdict, 1.0)
    }

    fn student(&mut self) -> &mut Student<'s> {
        self.student
            .as_mut()
            .expect("the driver is talked to until the playouts")
    }

    /// The driver started again after it ended; `Err` is the run's end.
    fn reopen(&mut self) -> Result<(), Box<Report>> {
        match open_student(self.game(), self.driver, self.options.estimates) {
            Ok(s) => {
                self.student = Some(s);
                Ok(())
            }
            Err(t) => Err(Box::new(dead(
                self.spec,
                self.spec_name,
                self.options,
                std::mem::take(&mut self.cases),
                t,
                self.driver.job.policy,
            ))),
        }
    }

    /// 0. The start cannot lie: built twice, and once more after a game, it is the same.
    fn steady(&mut self) -> Result<(), Box<Report>> {
        if !self.start_reachable {
            return Ok(());
        }
        let (game, start) = (self.game(), self.spec_start.clone());
        if let Err(t) = steady_start(game, self.student(), start.as_ref()) {
            let cases = std::mem::take(&mut self.cases);
            let policy = self.driver.job.policy;
            let mut r = unsteady(self.spec, self.spec_name, self.options, cases, t, policy);
            if let Some(c) = r.cases.first_mut() {
                noted(c, &self.found);
            }
            return Err(Box::new(r));
        }
        Ok(())
    }

    /// 1. parse_move reads each printed name back.
    fn parse_move(&mut self) -> Result<(), Box<Report>> {
        let (game, start, name) = (self.game(), self.spec_start.clone(), self.spec_name);
        let (mut c, ended) = parse::parse_move_case(game, self.student(), start.as_ref(), name);
        noted(&mut c, &self.found);
        if ended {
            self.reopen()?;
        }
        self.cases.push(c);
        Ok(())
    }

    /// 2. The scenarios.
    fn scenarios(&mut self) -> Result<(), Box<Report>> {
        for sc in &self.spec.scenarios {
            let (game, options, name) = (self.game(), self.options, self.spec_name);
            let (c, difference, ended) =
                scenarios::scenario_case(game, sc, self.student(), options, name);
            if ended {
                self.reopen()?;
            }
            if let Some((d, line)) = difference {
                // What a scenario shows, the mistake's name must explain too.
                self.lines.extend(line);
                self.differences.push(d);
            }
            self.cases.push(c);
        }
        Ok(())
    }

    /// 3. Perft from the spec's start.
    fn perft(&mut self) -> Result<(), Box<Report>> {
        if !self.start_reachable {
            return Ok(());
        }
        let game = self.game();
        let asked = self.options.perft_depth.unwrap_or_else(|| auto_depth(game));
        // The walk is bounded; a depth whose reference tree does not fit is counted less deep
        // (cut counts would read as a difference).
        let mut depth = asked;
        while depth > 1
            && inner_positions(&self.reference, &self.reference.start(), depth) > PERFT_BUDGET
        {
            depth -= 1;
        }
        let before = self.differences.len();
        let start = self.spec_start.clone();
        let rules_only = rules_only(self.options);
        let mut student = self.student.take().expect("the driver is open");
        let mut p = Perft {
            reference: &self.reference,
            student: &mut student,
            how: rules_only,
            counts: vec![(0, 0); depth as usize + 1],
            divide: Vec::new(),
            lines: &mut self.lines,
            differences: &mut self.differences,
            budget: PERFT_BUDGET,
            exhausted: false,
        };
        let result = match p.student.start(start.as_ref()) {
            Ok(_) => p.walk(
                depth,
                &mut Vec::new(),
                &mut Vec::new(),
                Some(self.reference.start()),
            ),
            Err(t) => Err((Vec::new(), None, t)),
        };
        let (counts, divide, exhausted) =
            (p.counts.clone(), std::mem::take(&mut p.divide), p.exhausted);
        self.student = Some(student);
        let c = match result {
            Err((path, playing, t)) => {
                let d = Difference {
                    path,
                    what: What::Trouble(t.clone(), playing.clone()),
                };
                let what = d.sentence(game);
                self.differences.push(d);
                if matches!(t, Trouble::Ended(_)) {
                    self.reopen()?;
                }
                self.case("perft", t.status())
                    .message(format!("counting move sequences, {what}"))
                    .details(t.describe().1)
            }
            Ok(()) if exhausted => self.case("perft", report::Status::Fail).message(format!(
                "the game has more than {PERFT_BUDGET} positions with moves within {} moves of the start, the reference {}: the walk stopped there",
                depth,
                inner_positions(&self.reference, &self.reference.start(), depth)
            )),
            Ok(()) => self.perft_counted(depth, asked, &counts, &divide, before),
        };
        self.cases.push(c);
        Ok(())
    }

    /// Perft's case when the walk ended: the counts, and a position that differs on the way.
    fn perft_counted(
        &self,
        depth: u32,
        asked: u32,
        counts: &[(u64, u64)],
        divide: &[(String, Vec<(u64, u64)>)],
        before: usize,
    ) -> CaseResult {
        let game = self.game();
        let c = perft_case(self.spec_name, game, depth, counts, divide, &self.reference);
        let c = if depth < asked {
            let m = c.message.clone();
            c.message(format!(
                "{m} (counted to length {depth}, not {asked}: the reference has more than {PERFT_BUDGET} positions with moves before length {asked})"
            ))
        } else {
            c
        };
        // The counts may agree where a position does not (a status, a player).
        match self.differences[before..].iter().min_by_key(|d| d.path.len()) {
            Some(d) if c.status.passed() => self.case("perft", report::Status::Fail).message(format!(
                "the move sequences agree in number up to length {depth}, but not every position on them does: {}",
                d.sentence(game)
            )),
            _ => c,
        }
    }

    /// Random playouts (4) and the move order (5). The driver is let go first: the
    /// playouts start drivers of their own, in parallel.
    fn playouts(&mut self) -> Result<(), Box<Report>> {
        // What the driver noticed without judging it (asked before the driver is let go).
        if let Some(mut student) = self.student.take() {
            self.notes = student.notes();
        }
        if self.start_reachable && self.options.playouts > 0 {
            self.random_games();
        }
        self.note_what_was_noticed();
        Ok(())
    }

    fn random_games(&mut self) {
        let (game, options) = (self.game(), self.options);
        let results = playouts(
            game,
            &self.reference,
            self.driver,
            options,
            self.spec_start.as_ref(),
        );
        let mut first_rule: Option<(usize, Difference)> = None;
        let mut first_order: Option<(usize, Difference)> = None;
        let mut states = 0usize;
        for (i, r) in results.into_iter().enumerate() {
            states += r.line.views.len();
            if let Some(d) = r.difference {
                if first_rule.is_none() {
                    first_rule = Some((i, d.clone()));
                }
                self.differences.push(d);
            }
            if first_order.is_none() {
                first_order = r.order.map(|d| (i, d));
            }
            self.lines.push(r.line);
        }
        let n = options.playouts;
        let playouts = match &first_rule {
            None => self.case("playouts", report::Status::Pass).message(format!(
                "{n} random games (seed {}), {states} positions: moves, status and player{} agree with the reference",
                options.seed,
                if options.estimates { ", estimate" } else { "" }
            )),
            Some((i, d)) => {
                let (status, details) = match &d.what {
                    What::Trouble(t, _) => (t.status(), t.describe().1),
                    _ => (report::Status::Fail, String::new()),
                };
                self.case("playouts", status)
                    .message(format!(
                        "game {} of {n} (seed {}): {}",
                        i + 1,
                        options.seed,
                        d.sentence(game)
                    ))
                    .details(details)
            }
        };
        self.cases.push(playouts);
        let order = match first_order {
            // Nothing was compared (every game went wrong at its start): say so, not PASS.
            // Worth its point still (0 earned): the rows of a class keep one maximum.
            None if states == 0 => self.case("move order", report::Status::Skipped).message(
                "not checked: no random game reached a position where the two games could be compared",
            ),
            None => self.case("move order", report::Status::Pass).message(
                "the moves come in the reference's order wherever the two games agree on them",
            ),
            Some((i, d)) => self.case("move order", report::Status::Fail).message(format!(
                "game {} of {n}: {} (the same moves: the rules agree, but traces will not)",
                i + 1,
                d.sentence(game)
            )),
        };
        self.cases.push(order);
    }

    /// The notes go where the report is read: the playouts' line, else perft's.
    fn note_what_was_noticed(&mut self) {
        if self.notes.is_empty() {
            return;
        }
        let at = self
            .cases
            .iter()
            .position(|c| c.case == "playouts")
            .or_else(|| self.cases.iter().position(|c| c.case == "perft"));
        if let Some(i) = at {
            let _ = write!(
                self.cases[i].message,
                " (noted, not counted: {})",
                self.notes.join("; ")
            );
        }
    }

    /// 6. The estimator against the handout's naive one.
    fn estimator(&mut self) {
        let (game, options) = (self.game(), self.options);
        if !self.start_reachable
            || !game.judged_estimator()
            || options.estimator_openings == 0
            || options.estimator_depths.is_empty()
        {
            return;
        }
        let start = self.spec_start.as_ref();
        let mut c = estimator_case(self.spec_name, game, self.driver, options, start);
        if !c.status.passed() && !self.differences.is_empty() {
            // The student's estimate reads the student's own status and board.
            c.message.push_str(
                " (the game's rules differ from the reference too, see above, and an estimate reads the game's own status: fix the rules first)",
            );
        }
        self.cases.push(c);
    }

    /// The shortest difference, and its name: a difference of the rules before one of the
    /// estimate alone (a game whose rules differ is named by them), told on the first case
    /// that failed for it.
    fn name_the_shortest(&mut self) {
        let of_rules: Vec<Difference> = self
            .differences
            .iter()
            .filter(|d| !is_estimate(d))
            .cloned()
            .collect();
        let candidates = if of_rules.is_empty() {
            &self.differences
        } else {
            &of_rules
        };
        let (game, options, start) = (self.game(), self.options, self.spec_start.as_ref());
        let Some(mut shortest) = shortest(
            game,
            &self.reference,
            self.driver,
            options,
            start,
            candidates,
        ) else {
            return;
        };
        let mut proven = false;
        let mut named = None;
        let mut sentence = String::new();
        if is_estimate(&shortest.0) && of_rules.is_empty() {
            // The rules agreed wherever they were compared: the estimator is what differs,
            // and no rule mistake can explain it.
            sentence.push_str(
                "    the rules agree at every position compared; only the estimate differs: the game's estimator (rough_outcome in CSC148, estimate in 15-150) is not the one the spec fixes\n",
            );
        } else if options.diagnose
            && !is_estimate(&shortest.0)
            && matches!(shortest.0.what, What::Differs { .. })
        {
            self.lines.push(shortest.1.clone());
            let (text, diagnosis, better) = self.name_it(&shortest.0);
            if let Some((d, sure)) = better {
                shortest.0 = d;
                proven = sure;
            }
            sentence = text;
            named = diagnosis;
        }
        let mut text = explain(game, &shortest.0, proven);
        text.push_str(&sentence);
        let told = self.cases.iter_mut().find(|c| {
            !c.status.passed()
                && c.status != crate::report::Status::Skipped
                && c.case != "parse_move"
                && c.case != "move order"
                && c.case != "estimator"
        });
        if let Some(c) = told {
            if !c.details.is_empty() && !c.details.ends_with('\n') {
                c.details.push('\n');
            }
            c.details.push_str(&text);
            // So that `grade` counts the mistakes it names, as it counts a searcher's.
            c.diagnosis = named;
        }
    }

    /// The catalogued rule mistake behind a difference: its words (with the cells it
    /// explains), its diagnosis, and, with one mistake named, the shortest sequence its
    /// model finds that shows it (by trying every shorter one, where there are few enough),
    /// confirmed on the game, and whether that is proven the shortest.
    #[allow(clippy::type_complexity)]
    fn name_it(
        &self,
        shortest: &Difference,
    ) -> (
        String,
        Option<crate::diagnosis::Diagnosis>,
        Option<(Difference, bool)>,
    ) {
        let (game, driver, options) = (self.game(), self.driver, self.options);
        let start = self.spec_start.as_ref();
        let mut fresh = |paths: &[Vec<String>]| views_of(game, driver, options, start, paths);
        let naming = name_the_mistake(
            game,
            &self.lines,
            rules_only(options),
            options.seed,
            &mut fresh,
        );
        let cells = cells_text(
            game,
            &[&self.lines[..], &naming.fresh[..]].concat(),
            &naming.near,
        );
        let (text, ids, tried) = (naming.text, naming.ids, naming.tried);
        let better = match ids.as_slice() {
            [one] => shortest_by_model(
                game,
                &self.reference,
                driver,
                options,
                start,
                &one.join("+"),
                shortest,
            ),
            _ => None,
        };
        let named = (!ids.is_empty()).then(|| diagnosis_of(text.clone(), ids, tried));
        (format!("{text}{cells}"), named, better)
    }

    fn report(self) -> Report {
        Report {
            cases: self.cases,
            sandbox: Some(crate::report::sandbox_note(self.driver.job.policy)),
            questions: Vec::new(),
        }
    }
}

/// Is a difference the estimate's alone?
fn is_estimate(d: &Difference) -> bool {
    matches!(
        d.what,
        What::Differs {
            part: Part::Estimate,
            ..
        }
    )
}

/// How the rules alone are compared (the move order apart).
fn rules_only(options: &Options) -> Compare {
    Compare {
        order: false,
        estimate: options.estimates,
    }
}

/// The report of a driver that did not start: what it said (a compiler's errors, blamed on
/// the file they are in), and every planned case not run.
fn unstarted<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    options: &Options,
    t: Trouble,
    driver: &Driver,
) -> Report {
    let (what, mut details) = t.describe();
    let mut whose = None;
    if let Trouble::Ended(ran) = &t {
        let compiler = compiler_errors(&String::from_utf8_lossy(ran.stdout()));
        if !compiler.is_empty() {
            details = format!("the compiler says:\n{compiler}\n{details}");
            whose = compile_blame(&compiler);
        }
    }
    let message = match (&t, whose) {
        // The driver started and found nothing to check: it says what.
        (Trouble::Unusable(..), _) => what,
        (_, Some(blame)) => blame,
        _ => format!("the game's driver did not start: {what}"),
    };
    let mut cases = vec![CaseResult::new(spec_name, "driver", t.status(), 0.0)
        .message(message)
        .details(details)];
    not_run(spec, spec_name, options, &mut cases, t.status());
    Report {
        cases,
        sandbox: Some(crate::report::sandbox_note(driver.job.policy)),
        questions: Vec::new(),
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
        case(report::Status::Pass).message(format!(
            "the estimator against the handout's naive one: {score} ({setting}): no worse than the naive estimator"
        ))
    } else {
        case(report::Status::Fail).message(format!(
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
    let mut s = Student::open(
        driver.job(),
        &[game.driver_env(), driver.env.clone()].concat(),
    )?
    .with_names(Box::new(move |name: &str| {
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

/// The student's views along each of `paths` (as far as its game plays them), in a driver
/// of their own: the fresh positions a mistake's name is tested on.
fn views_of<G: Checkable>(
    game: &G,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
    paths: &[Vec<String>],
) -> Vec<Line> {
    let mut out = Vec::new();
    let Ok(mut student) = open_student(game, driver, false) else {
        return out;
    };
    let _ = options;
    for path in paths {
        match student.start(start) {
            Ok(true) => {}
            Ok(false) => return out,
            Err(Trouble::Ended(_)) => match open_student(game, driver, false) {
                Ok(s) => {
                    student = s;
                    continue;
                }
                Err(_) => return out,
            },
            Err(_) => continue,
        }
        let mut line = Line::default();
        for name in path.iter().map(Some).chain(std::iter::once(None)) {
            let Ok(view) = student.view() else { break };
            line.views.push(view);
            let Some(name) = name else { break };
            if !line.views.last().is_some_and(|v| v.moves.contains(name)) {
                break;
            }
            if student.play(name).is_err() {
                break;
            }
            line.path.push(name.clone());
        }
        // A line whose last move was played without its view read ends before it.
        line.path.truncate(line.views.len().saturating_sub(1));
        if !line.views.is_empty() {
            out.push(line);
        }
    }
    out
}

/// Adds what the driver said it checks in place of what was named, to a case's message.
fn noted(c: &mut CaseResult, found: &[String]) {
    if !found.is_empty() {
        let _ = write!(c.message, " (noted: {})", found.join("; "));
    }
}

/// The start as the driver builds it, twice, and once more after a game (the student's own
/// first moves to its end): the same moves, status, player and picture each time, or the
/// trouble that says how it differed. A driver that knows its game says more itself (the
/// Python driver builds a CSC148 start several times, `random` seeded differently, and
/// names a random size or a shared default that grows).
fn steady_start<G: Checkable>(
    game: &G,
    student: &mut Student,
    start: Option<&serde_json::Value>,
) -> Result<(), Trouble> {
    // What the start shows; `None` where it cannot be seen steadily (its listing changes
    // between two asks, or asking it goes wrong): the checks that follow judge that.
    let look = |student: &mut Student| -> Result<Option<(View, String)>, Trouble> {
        match student.start(start) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(t @ Trouble::Unbuildable { .. }) => return Err(t),
            Err(_) => return Ok(None),
        }
        let Ok((view, again)) = student.view_and_moves_again() else {
            return Ok(None);
        };
        if again != view.moves {
            return Ok(None);
        }
        let shown = student.show().unwrap_or_default();
        Ok(Some((view, shown)))
    };
    let Some(first) = look(student)? else {
        return Ok(());
    };
    let differs = |a: &(View, String), b: &(View, String)| a.0 != b.0 || a.1 != b.1;
    let say = |a: &(View, String), b: &(View, String), when: &str| {
        let moves = |v: &View| format!("{} moves", v.moves.len());
        let what = if a.0 != b.0 {
            format!(
                "{}, then {}",
                show_view(game, &a.0, &moves(&a.0)),
                show_view(game, &b.0, &moves(&b.0))
            )
        } else {
            format!(
                "the same moves, but shown as\n{}\nthen as\n{}",
                indent(&a.1),
                indent(&b.1)
            )
        };
        format!("the start built {when} is not the first start: {what}")
    };
    let Some(again) = look(student)? else {
        return Ok(());
    };
    if differs(&first, &again) {
        return Err(Trouble::Unbuildable {
            why: say(&first, &again, "again"),
            bug: false,
        });
    }
    // A game to its end on the game's own first moves, then the start again.
    for _ in 0..LONGEST_PLAYOUT.min(120) {
        let Ok(view) = student.view() else { break };
        let Some(m) = view.moves.first().cloned() else {
            break;
        };
        if view.status != Status::InPlay || student.play(&m).is_err() {
            break;
        }
    }
    let Some(after) = look(student)? else {
        return Ok(());
    };
    if differs(&first, &after) {
        return Err(Trouble::Unbuildable {
            why: format!(
                "{}: something the start is built from is kept, and a game changes it",
                say(&first, &after, "after a game")
            ),
            bug: true,
        });
    }
    Ok(())
}

/// A view's moves in a few words, for the start's report.
fn show_view<G: Playable>(_game: &G, v: &View, count: &str) -> String {
    const SHOWN: usize = 6;
    let mut list: Vec<&str> = v.moves.iter().take(SHOWN).map(String::as_str).collect();
    if v.moves.len() > SHOWN {
        list.push("...");
    }
    format!("{count} [{}]", list.join(", "))
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("      {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The report when the start cannot be built the same way twice: the `start` case says how
/// it differed, and every planned case is left unrun with its verdict (the student's bug, a
/// FAIL; else an ERROR: the grader must say how to build it, with `--construct`).
fn unsteady<G: Checkable>(
    spec: &GameSpec<G>,
    spec_name: &str,
    options: &Options,
    mut cases: Vec<CaseResult>,
    t: Trouble,
    policy: &Policy,
) -> Report {
    let (what, details) = t.describe();
    let status = t.status();
    cases.push(
        CaseResult::new(spec_name, "start", status, 0.0)
            .message(what)
            .details(details),
    );
    for (name, points) in planned(spec, options) {
        if !cases.iter().any(|c| c.case == name) {
            cases.push(
                CaseResult::new(spec_name, &name, status, points).message(
                    "not run: the start is not the same each time it is built (see `start`)",
                ),
            );
        }
    }
    Report {
        cases,
        sandbox: Some(crate::report::sandbox_note(policy)),
        questions: Vec::new(),
    }
}

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
        sandbox: Some(crate::report::sandbox_note(policy)),
        questions: Vec::new(),
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
    status: report::Status,
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

/// Whose code the compiler's errors are in, said in one sentence: the student's (or the
/// course folder's) file and line, or gametrace's own driver. `None` when no error names a
/// file.
fn compile_blame(errors: &str) -> Option<String> {
    let located: Vec<(&str, &str)> = errors
        .lines()
        .filter(|l| !l.starts_with(char::is_whitespace))
        .filter_map(|l| {
            let (place, _) = l.split_once(" Error")?;
            let (file, _) = place.rsplit_once(':')?;
            Some((file, l))
        })
        .collect();
    let gametraces = |f: &str| {
        let name = f.rsplit('/').next().unwrap_or(f);
        f.contains("adapters/sml/")
            || f.contains("drivers/sml/")
            || name == "gametrace-game.sml"
            || (name.starts_with("run-") && name.ends_with(".sml"))
    };
    if let Some((_, line)) = located.iter().find(|(f, _)| !gametraces(f)) {
        let files: std::collections::BTreeSet<&str> = located
            .iter()
            .filter(|(f, _)| !gametraces(f))
            .map(|(f, _)| f.rsplit('/').next().unwrap_or(f))
            .collect();
        let files: Vec<&str> = files.into_iter().collect();
        return Some(format!(
            "the game's code does not compile ({}; the compiler's messages are below): {}",
            files.join(", "),
            line.trim()
        ));
    }
    let (file, line) = located.first()?;
    let name = file.rsplit('/').next().unwrap_or(file);
    let unbound = line.contains("unbound functor");
    Some(if unbound {
        format!(
            "the loaded code has no functor the driver's {name} applies (is the student's file named in the command, or in the course folder's sources.cm?): {}",
            line.trim()
        )
    } else {
        format!(
            "gametrace's driver ({name}) does not compile against what the command loads, so nothing of the game was judged; the term-choosing driver, adapters/sml/gametrace-game.sml, says which term's library a folder has: {}",
            line.trim()
        )
    })
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

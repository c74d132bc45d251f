//! `grade --player-cmd`: each submission's Kalah player plays the solver's perfect player
//! twice, once from each side, and the judge weighs every move it makes: how many seeds of
//! final margin it gives away against perfect play. The player is a program behind a driver
//! speaking the probe protocol (`start`, `play`, and `choose` for its move).

use super::class::Staged;
use crate::check_game::probe::{Student, Trouble};
use crate::game::kalah::Kalah;
use crate::game::Player as Side;
use crate::play::{Chosen, Ending, Hands, KalahOracle, Played, Player, Program, Seats};
use crate::report::{CaseResult, Status};
use std::path::Path;
use std::sync::Mutex;

/// How the class's players are played and judged.
pub struct Players {
    /// The driver's command line (`{submission}` names the submission), its limits and
    /// sandbox.
    pub cmd: crate::student::Program,
    pub kalah: Kalah,
    /// The solver, shared by every submission (its table and database are built once); its
    /// answers do not depend on what it kept, only how soon they come.
    pub oracle: Mutex<KalahOracle>,
    /// A game passes when the player gave away at most this many seeds (`None`: any
    /// complete game of legal moves passes).
    pub margin_allowed: Option<i64>,
    pub max_moves: u64,
    pub solver: crate::play::SolverLimits,
}

impl std::fmt::Debug for Players {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Players")
            .field("cmd", &self.cmd.line)
            .field("board", &self.board())
            .field("margin_allowed", &self.margin_allowed)
            .finish()
    }
}

impl Players {
    /// `kalah 6x4 (cs10)`: the board and rules, as reports and the gradebook name them.
    pub fn board(&self) -> String {
        let k = &self.kalah;
        let mut rules = k.rules.end.name().to_owned();
        if k.rules.capture_empty {
            rules.push_str(", capture_empty");
        }
        format!("kalah {}x{} ({rules})", k.pits, k.seeds)
    }

    /// What the grading depends on, for `--resume` (see `graded_with`).
    pub fn graded_with(&self) -> String {
        format!(
            " | player {} | {} | margin allowed {:?} | max moves {} | solver time {:?}",
            self.cmd.line,
            self.board(),
            self.margin_allowed,
            self.max_moves,
            self.solver.time
        )
    }

    /// The environment the driver is started with: which game, and its settings.
    fn env(&self) -> Vec<(String, String)> {
        kalah_env(&self.kalah)
    }

    /// One submission's player, as p1 and as p2: a case each.
    pub(super) fn check(&self, dir: &Path, staged: &Staged) -> Vec<CaseResult> {
        [Side::Maxie, Side::Minnie]
            .into_iter()
            .map(|side| self.game(dir, staged, side))
            .collect()
    }

    /// A game with the submission's player on `side` and the perfect player on the other.
    fn game(&self, dir: &Path, staged: &Staged, side: Side) -> CaseResult {
        let case = match side {
            Side::Maxie => "plays p1",
            Side::Minnie => "plays p2",
        };
        let spec = self.board();
        let result = |status: Status| CaseResult::new(&spec, case, status, 1.0);
        let mut program = self.cmd.clone();
        program.submission = Some(dir.to_owned());
        staged.apply(&mut program.sandbox);
        let run = match program.for_driver(None) {
            Ok(run) => run,
            Err(d) => return result(Status::Error).message(d.message),
        };
        let driver = run.driver(Vec::new());
        let mut student = match Student::open(driver.job(), &self.env()) {
            Ok(s) => s,
            Err(t) => return troubled(result(Status::Error), &t, "its driver did not start"),
        };
        let mut seated = Seated::new(&mut student);
        let (maxie, minnie, judged) = match side {
            Side::Maxie => (Player::Program, Player::Perfect, [true, false]),
            Side::Minnie => (Player::Perfect, Player::Program, [false, true]),
        };
        let seats = Seats {
            maxie,
            minnie,
            max_moves: self.max_moves,
            judged,
            solver: self.solver,
            clock: false,
        };
        let mut record = Vec::new();
        let played = {
            let mut programs: [Option<&mut dyn Program>; 2] = [None, None];
            programs[crate::game::kalah::side(side)] = Some(&mut seated);
            let mut hands = Hands {
                input: &mut std::io::empty(),
                programs,
            };
            let mut oracle = self.oracle.lock().unwrap_or_else(|e| e.into_inner());
            crate::play::referee(
                &self.kalah,
                seats,
                Some(&mut *oracle),
                &mut hands,
                &mut record,
            )
        };
        let trouble = seated.trouble.take();
        let record = String::from_utf8_lossy(&record).into_owned();
        let ran = student.close();
        match played {
            Err(e) => result(Status::Error).message(format!("the game could not be played: {e}")),
            Ok(played) => self.verdict(result, side, played, trouble, record, &ran),
        }
    }

    /// The case a played game gives.
    fn verdict(
        &self,
        result: impl Fn(Status) -> CaseResult,
        side: Side,
        played: Played,
        trouble: Option<Trouble>,
        record: String,
        ran: &crate::sandbox::Ran,
    ) -> CaseResult {
        let seat = crate::game::kalah::side(side);
        let tally = played.tallies[seat].clone().unwrap_or_default();
        let who = format!("{}'s player", kalah_name(side));
        let summary = tally.summary(&who);
        match played.ending {
            Ending::Forfeited(_) => match trouble {
                // The program answered, with a move the game does not have.
                None => result(Status::Fail)
                    .message(format!(
                        "{who} {}",
                        played.forfeit.as_deref().unwrap_or("gave no legal move")
                    ))
                    .details(record),
                Some(t) => {
                    let (_, last_words) = t.describe();
                    result(t.status())
                        .message(format!(
                            "{who} {}",
                            played.forfeit.as_deref().unwrap_or("gave no move")
                        ))
                        .details(format!("{last_words}{record}"))
                }
            },
            Ending::Stopped => result(Status::Fail)
                .message(format!(
                    "the game did not end within {} moves",
                    self.max_moves
                ))
                .details(record),
            Ending::InputEnded => result(Status::Error).message("the game stopped early"),
            Ending::Over(_) => {
                let pass = self.margin_allowed.is_none_or(|m| tally.lost <= m);
                let mut c = if pass {
                    result(Status::Pass)
                } else {
                    result(Status::Fail)
                };
                if pass {
                    c.points = c.max_points;
                }
                let allowed = match self.margin_allowed {
                    Some(m) if !pass => format!(" (at most {} allowed)", plural(m as u64, "seed")),
                    _ => String::new(),
                };
                let stderr = ran.stderr().trim_end();
                let mut details = record;
                if !stderr.is_empty() {
                    details = format!("stderr:\n{stderr}\n{details}");
                }
                c.message(format!("{}{allowed}", summary.trim_end_matches('.')))
                    .details(details)
            }
        }
    }
}

/// The environment a Kalah player's driver is started with: the game and its settings.
pub(crate) fn kalah_env(k: &Kalah) -> Vec<(String, String)> {
    vec![
        ("GAMETRACE_GAME".into(), "kalah".into()),
        ("GAMETRACE_PITS".into(), k.pits.to_string()),
        ("GAMETRACE_SEEDS".into(), k.seeds.to_string()),
        ("GAMETRACE_END_RULE".into(), k.rules.end.name().into()),
        (
            "GAMETRACE_CAPTURE_EMPTY".into(),
            u8::from(k.rules.capture_empty).to_string(),
        ),
    ]
}

/// The course's name of a side.
fn kalah_name(side: Side) -> &'static str {
    match side {
        Side::Maxie => "p1",
        Side::Minnie => "p2",
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `c` with what went wrong with the driver: the sentence, after `context`, and its last
/// words.
fn troubled(c: CaseResult, t: &Trouble, context: &str) -> CaseResult {
    let (what, details) = t.describe();
    c.message(format!("{context}: {what}")).details(details)
}

/// The submission's player in its seat: the driver is brought to each position by the moves
/// made since it was last asked, then asked for its move.
pub(crate) struct Seated<'s, 'a> {
    student: &'s mut Student<'a>,
    /// The game's moves the driver has been told of.
    sent: usize,
    started: bool,
    /// What went wrong with the driver, for the verdict.
    trouble: Option<Trouble>,
}

impl<'s, 'a> Seated<'s, 'a> {
    pub(crate) fn new(student: &'s mut Student<'a>) -> Seated<'s, 'a> {
        Seated {
            student,
            sent: 0,
            started: false,
            trouble: None,
        }
    }

    fn ask(&mut self, moves: &[String]) -> Result<String, Trouble> {
        if !self.started {
            if !self.student.start(None)? {
                return Err(Trouble::Garbage(
                    "`start` was answered with an error".to_owned(),
                ));
            }
            self.started = true;
        }
        for m in &moves[self.sent..] {
            self.student.play(m)?;
            self.sent += 1;
        }
        self.student.choose()
    }
}

impl Program for Seated<'_, '_> {
    fn choose(&mut self, moves: &[String]) -> Chosen {
        self.ask(moves).map_err(|t| {
            let what = match &t {
                Trouble::Refused(m) => format!(
                    "its game does not offer the move {m}, which was just made (are its rules the notes'?)"
                ),
                // The player's own code, not its game's.
                Trouble::Raised(e) => format!("its code raised {e}"),
                other => other.describe().0,
            };
            self.trouble = Some(t);
            what
        })
    }
}

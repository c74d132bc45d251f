//! Scenarios: a start position and moves, each with what must hold after it. They pin a
//! game's rules down one by one; `gametrace test` judges them and `gametrace run` prints
//! them move by move.

use super::{Estimate, Outcome, Playable, Player, Status};
use std::fmt::Write;

#[derive(Clone, Debug)]
pub struct Scenario<G: Playable> {
    pub name: String,
    /// The game, starting at the scenario's start position.
    pub game: G,
    pub steps: Vec<Step<G>>,
    /// The scenario's weight in a grade (`points:`, default 1).
    pub points: f64,
}

/// One step: a move (or none, to look at the position as it stands) and what must hold after.
#[derive(Clone, Debug)]
pub struct Step<G: Playable> {
    /// The step's line in the spec.
    pub line: usize,
    /// The move as written, and as read (legal where it is played: the loader made sure).
    pub play: Option<(String, G::Move)>,
    pub position: Option<G::State>,
    pub to_move: Option<Player>,
    pub status: Option<Status>,
    pub moves: Option<Vec<G::Move>>,
    pub estimate: Option<Estimate>,
}

impl<G: Playable> Step<G> {
    pub fn new(line: usize) -> Self {
        Step {
            line,
            play: None,
            position: None,
            to_move: None,
            status: None,
            moves: None,
            estimate: None,
        }
    }
}

/// `in_play`, `draw`, `winner: Maxie` (`winner: p1`): the spec's own words.
pub fn status_text<G: Playable>(game: &G, s: Status) -> String {
    match s {
        Status::InPlay => "in_play".to_owned(),
        Status::Over(Outcome::Draw) => "draw".to_owned(),
        Status::Over(Outcome::Winner(p)) => format!("winner: {}", game.player_name(p)),
    }
}

pub fn estimate_text(e: Estimate) -> String {
    match e {
        Estimate::MinnieWins => "Minnie wins".to_owned(),
        Estimate::MaxieWins => "Maxie wins".to_owned(),
        Estimate::Draw => "draw".to_owned(),
        Estimate::Guess(n) => n.to_string(),
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// What a step found that it should not have: one message each.
fn mismatches<G: Playable>(game: &G, state: &G::State, step: &Step<G>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(p) = step.to_move {
        let actual = game.player(state);
        if actual != p {
            out.push(format!(
                "to_move: expected {}, found {}",
                game.player_name(p),
                game.player_name(actual)
            ));
        }
    }
    if let Some(want) = &step.position {
        if want != state {
            let label = |s: &G::State| {
                let mut l = String::new();
                game.write_label(s, &mut l);
                l
            };
            out.push(format!(
                "position: expected {}, found {}\n  expected:\n{}  found:\n{}",
                label(want),
                label(state),
                indent(&game.render(want)),
                indent(&game.render(state))
            ));
        }
    }
    if let Some(want) = step.status {
        let actual = game.status(state);
        if want != actual {
            out.push(format!(
                "status: expected {}, found {}",
                status_text(game, want),
                status_text(game, actual)
            ));
        }
    }
    if let Some(want) = &step.moves {
        let actual: Vec<G::Move> = game.moves(state).collect();
        if *want != actual {
            let names = |ms: &[G::Move]| {
                let v: Vec<String> = ms.iter().map(|&m| game.move_name(m)).collect();
                format!("[{}]", v.join(", "))
            };
            out.push(format!(
                "moves: expected {}, found {}",
                names(want),
                names(&actual)
            ));
        }
    }
    if let Some(want) = step.estimate {
        let actual = estimate_of(game, state);
        if want != actual {
            out.push(format!(
                "estimate: expected {}, found {}",
                estimate_text(want),
                estimate_text(actual)
            ));
        }
    }
    out
}

/// The estimator's value, or the outcome of a finished game (as a search would take it).
pub fn estimate_of<G: Playable>(game: &G, state: &G::State) -> Estimate {
    match game.status(state) {
        Status::Over(o) => game.utility(state, o),
        Status::InPlay => game.estimate(state),
    }
}

fn step_title<G: Playable>(game: &G, before: &G::State, number: usize, step: &Step<G>) -> String {
    match &step.play {
        Some((_, mv)) => format!(
            "step {number} (line {}): {} plays {}",
            step.line,
            game.player_name(game.player(before)),
            game.move_name(*mv)
        ),
        None => format!("step {number} (line {}): no move", step.line),
    }
}

/// Plays the scenario; `Err` describes every step that did not hold.
pub fn judge<G: Playable>(s: &Scenario<G>) -> Result<usize, String> {
    let mut state = s.game.start();
    let mut report = String::new();
    let mut checked = 0;
    for (i, step) in s.steps.iter().enumerate() {
        let before = state.clone();
        if let Some((_, mv)) = &step.play {
            state = s.game.play(&state, *mv);
        }
        let wrong = mismatches(&s.game, &state, step);
        checked += 1;
        if !wrong.is_empty() {
            let _ = writeln!(report, "{}", step_title(&s.game, &before, i + 1, step));
            for w in wrong {
                let _ = writeln!(report, "  {w}");
            }
        }
    }
    if report.is_empty() {
        Ok(checked)
    } else {
        Err(report)
    }
}

/// The scenario move by move, for people: each position, its status and moves, and whether
/// each step's expectations hold.
pub fn transcript<G: Playable>(s: &Scenario<G>) -> String {
    let game = &s.game;
    let mut state = game.start();
    let mut out = String::new();
    let describe = |out: &mut String, state: &G::State| {
        out.push_str(&game.render(state));
        let moves: Vec<String> = game.moves(state).map(|m| game.move_name(m)).collect();
        let _ = writeln!(
            out,
            "  status {}, {} to move, estimate {}; moves: {}",
            status_text(game, game.status(state)),
            game.player_name(game.player(state)),
            estimate_text(estimate_of(game, state)),
            if moves.is_empty() {
                "none".to_owned()
            } else {
                moves.join(" ")
            }
        );
    };
    let _ = writeln!(out, "scenario {} ({})", s.name, game.name());
    out.push_str("start:\n");
    describe(&mut out, &state);
    for (i, step) in s.steps.iter().enumerate() {
        let before = state.clone();
        if let Some((_, mv)) = &step.play {
            state = game.play(&state, *mv);
        }
        let _ = writeln!(out, "{}", step_title(game, &before, i + 1, step));
        describe(&mut out, &state);
        let wrong = mismatches(game, &state, step);
        if wrong.is_empty() {
            out.push_str("  holds\n");
        } else {
            for w in wrong {
                let _ = writeln!(out, "  DIFFERS {w}");
            }
        }
    }
    out
}

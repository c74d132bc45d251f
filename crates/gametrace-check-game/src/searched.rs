//! `check --game-cmd`: the student's game on the positions a searcher's case goes through.

use super::*;

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
pub(super) const SEARCHED_BUDGET: usize = 20_000;

/// `check --game-cmd`: the student's game on the positions case `name` of `doc` searches.
/// Not generic, so the command line compiles no copy of the checks (a release build shares
/// no generic code between crates). `path` is the spec's, for the messages.
pub fn game_on_case(
    doc: &gametrace_core::spec::GameDocument,
    name: &str,
    driver: &Driver,
    path: &std::path::Path,
) -> Result<Agreement, gametrace_core::spec::Diagnostic> {
    use gametrace_core::spec::{Diagnostic, GameDocument, GameSpec};
    fn on<G: Checkable>(
        s: &GameSpec<G>,
        name: &str,
        driver: &Driver,
        path: &std::path::Path,
    ) -> Result<Agreement, Diagnostic> {
        let case = s.case(name).ok_or_else(|| {
            Diagnostic::new(
                path,
                format!("`{name}` is a scenario, and --game-cmd goes with a search case"),
            )
            .expected("a search case")
            .found(format!("--case {name}"))
            .hint("check the game's rules with `gametrace check-game`")
        })?;
        Ok(game_on_searched_positions(
            &case.game,
            case.case.depth,
            driver,
        ))
    }
    match doc {
        GameDocument::Connect4(s) => on(s, name, driver, path),
        GameDocument::Tippy(s) => on(s, name, driver, path),
        GameDocument::Riskless(s) => on(s, name, driver, path),
        GameDocument::SubtractSquare(s) => on(s, name, driver, path),
        other => {
            let game = crate::with_game_spec!(other, s => crate::game::Playable::name(&s.game));
            Err(
                Diagnostic::new(path, format!("--game-cmd cannot run {game} yet"))
                    .expected("a spec of connect4 (or PopOut), tippy or subtract_square")
                    .found(format!("game: {game}"))
                    .hint("leave out --game-cmd"),
            )
        }
    }
}

/// The student's game on the positions a search of `depth` from `game`'s start goes through.
pub fn game_on_searched_positions<G: Checkable>(
    game: &G,
    depth: u32,
    driver: &Driver,
) -> Agreement {
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
    if let Err(a) = reach_case(game, &mut student) {
        return a;
    }
    walk_searched(game, depth, &mut student)
}

/// The student's game could not be compared, or failed: why.
fn trouble(what: String, details: String) -> Agreement {
    Agreement {
        agrees: false,
        summary: what,
        details,
    }
}

/// Sets the student's game up at the case's position: given as the start if its driver can
/// take it, else reached by moves from the start, each position on the way compared too.
fn reach_case<G: Checkable>(game: &G, student: &mut Student) -> Result<(), Agreement> {
    let start = game.start();
    let (arg, from, setup) = match start_arg(game, &start) {
        Ok(a) => (a, start.clone(), Vec::new()),
        Err(()) => match game.moves_to(&start) {
            Some((from, moves)) => (
                start_arg(game, &from).unwrap_or_default(),
                from,
                moves.iter().map(|&m| game.move_name(m)).collect(),
            ),
            None => return Err(trouble(
                "the student's game was not compared: its driver cannot set up the case's position"
                    .to_owned(),
                String::new(),
            )),
        },
    };
    // Reaching the position by moves: each position on the way is compared too.
    let mut early: Option<Difference> = None;
    let reached = student.start(arg.as_ref()).and_then(|ok| {
        let how = Compare {
            order: true,
            estimate: false,
        };
        match follow(game, &from, student, &setup, how) {
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
        return Err(trouble(
            format!(
                "the student's game differs from the reference on the way to the case's position (reached by moves from the start), so its searcher's trace cannot match: fix the game first ({})",
                d.sentence(&game.starting_at(from.clone()))
            ),
            "(`gametrace check-game` checks the game on its own and names the rule mistake)\n"
                .to_owned(),
        ));
    }
    match reached {
        Ok(true) => Ok(()),
        Ok(false) => Err(trouble(
            "the student's game was not compared: its driver cannot set up the case's position"
                .to_owned(),
            String::new(),
        )),
        Err(t) => {
            let (what, details) = t.describe();
            Err(trouble(
                format!("the student's game could not reach the case's position: {what}"),
                details,
            ))
        }
    }
}

/// The walk over the positions a search of `depth` goes through from the case's position,
/// each compared with the reference: the agreement, or the shortest difference.
fn walk_searched<G: Checkable>(game: &G, depth: u32, student: &mut Student) -> Agreement {
    let reference = Reference {
        game,
        estimate: None,
    };
    let mut lines = Vec::new();
    let mut differences = Vec::new();
    let depth = depth.min(12);
    let mut p = Perft {
        reference: &reference,
        student,
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

//! `parse_move`: the game's parser reads each of the first moves back as that move, handed
//! what a player types at the course's prompt where the course fixes that.

use super::*;

/// The parse_move check on the student's game, and whether its driver ended on the way (the
/// caller starts it again).
pub(super) fn parse_move_case<G: Checkable>(
    game: &G,
    student: &mut Student,
    start: Option<&serde_json::Value>,
    spec_name: &str,
) -> (CaseResult, bool) {
    let case = |name: &str, verdict: report::Status| CaseResult::new(spec_name, name, verdict, 1.0);
    let mut wrong = Vec::new();
    let mut trouble = None;
    let first: Vec<G::Move> = game.moves(&game.start()).collect();
    let names: Vec<String> = first.iter().map(|&m| game.move_name(m)).collect();
    // Listing the moves first tells gametrace the game's own name for each.
    match student
        .start(start)
        .and_then(|ok| student.moves().map(|_| ok))
    {
        Ok(true) => {
            for (&mv, name) in first.iter().zip(&names) {
                // The course's typed form where it has one, else the game's own name; the
                // report shows the very text sent.
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
    let ended = matches!(trouble, Some(Trouble::Ended(_)));
    let mut c = match (trouble, wrong.is_empty()) {
        (Some(t), _) => {
            let (what, details) = t.describe();
            let c = case("parse_move", t.status());
            if let Trouble::Unsupported(_) = t {
                c.message(format!("not checked: {what}"))
            } else {
                c.message(format!("reading a move's printed name: {what}"))
                    .details(details)
            }
        }
        (None, true) => case("parse_move", report::Status::Pass).message(match names.len() {
            1 => format!(
                "the parser reads the one first move, {}, back as that move",
                typed_form(game)
            ),
            n => format!(
                "the parser reads each of the {n} first moves, {}, back as that move",
                typed_form(game)
            ),
        }),
        (None, false) => case("parse_move", report::Status::Fail)
            .message(format!(
                "the parser does not read every one of the first moves, {}, back as that move",
                typed_form(game)
            ))
            .details(wrong.join("\n")),
    };
    if !game.graded_parser() {
        c.max_points = 0.0;
        c.points = 0.0;
    }
    (c, ended)
}

/// How `parse_move` was handed the moves, for the report.
fn typed_form<G: Checkable>(game: &G) -> &'static str {
    match game.moves(&game.start()).next().and_then(|m| game.typed(m)) {
        Some(_) => "typed as the course's prompt reads them",
        None => "typed as the game prints them",
    }
}

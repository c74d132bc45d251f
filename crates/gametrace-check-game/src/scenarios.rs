//! The spec's scenarios, step by step on the student's game: each position set up directly
//! where the driver can, else reached by moves from the game's own start.

use super::*;

/// One scenario replayed on the student's game: its case; the difference found, when it can
/// join the shrinking (the scenario starts at the spec's start, or is reached by moves from
/// it), with the line it shows when that line starts at the spec's start (for naming the
/// mistake); and whether the driver ended on the way (the caller starts it again).
pub(super) fn scenario_case<G: Checkable>(
    game: &G,
    sc: &crate::game::scenario::Scenario<G>,
    student: &mut Student,
    options: &Options,
    spec_name: &str,
) -> (CaseResult, Option<(Difference, Option<Line>)>, bool) {
    let name = format!("scenario {}", sc.name);
    let sgame = &sc.game;
    let by_moves: Option<(G::State, Vec<String>)> = game
        .moves_to(&sgame.start())
        .map(|(from, moves)| (from, moves.iter().map(|&m| game.move_name(m)).collect()));
    let direct = start_arg(game, &sgame.start()).ok();
    if direct.is_none() && by_moves.is_none() {
        let c = CaseResult::new(spec_name, &name, report::Status::Skipped, 1.0);
        return (not_replayed(c), None, false);
    }
    let estimate_fn: fn(&G, &G::State) -> String = G::course_estimate;
    let sref = Reference {
        game: sgame,
        estimate: options.estimates.then_some(estimate_fn),
    };
    let rules_only = Compare {
        order: false,
        estimate: options.estimates,
    };
    let mut c = CaseResult::new(spec_name, &name, report::Status::Pass, 1.0);
    c.max_points = sc.points;
    c.points = sc.points;
    let mut setup_used: Vec<String> = Vec::new();
    let mut origin: Option<G::State> = None;
    let outcome = (|| -> Result<Option<()>, (usize, Difference)> {
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
        origin = Some(from.clone());
        // Setting up by moves: every position on the way is one of the game's, compared too.
        let how = Compare {
            estimate: false,
            ..rules_only
        };
        follow(game, &from, student, &setup, how).map_err(|d| (SETUP, d))?;
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
            agree_here(student, sref.view(&s), &path, rules_only).map_err(|d| (i, d))?;
        }
        Ok(Some(()))
    })();
    match outcome {
        Ok(Some(())) => {
            c.message = match sc.steps.len() {
                1 => "the one step agrees with the reference".to_owned(),
                n => format!("all {n} steps agree with the reference"),
            };
            (c, None, false)
        }
        Ok(None) => (not_replayed(c), None, false),
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
                What::Differs { .. } => report::Status::Fail,
            };
            c.points = 0.0;
            c.message = format!("{line}{}", d.sentence(sgame));
            let mut ended = false;
            if let What::Trouble(t, _) = &d.what {
                c.details = t.describe().1;
                ended = matches!(t, Trouble::Ended(_));
            }
            // A path from the spec's start can join the shrinking.
            let joins = sgame.start() == game.start()
                || (!setup_used.is_empty() && game.start() == game.course_start());
            // The catalogue's models start at the spec's start: a line from elsewhere (a
            // start with the other player first) cannot be held against them.
            let reference = Reference {
                game,
                estimate: None,
            };
            let line = (origin.as_ref() == Some(&game.start()))
                .then(|| d.line(&reference))
                .flatten();
            (c, joins.then_some((d, line)), ended)
        }
    }
}

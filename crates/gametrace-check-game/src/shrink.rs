//! The shortest move sequence that shows a difference, and how a report explains it.

use super::*;

/// The shortest move sequence from the start showing a difference: the shortest found, then
/// shrunk by leaving out one move, or two (one of each player's), while a difference still
/// shows.
pub(super) fn shortest<G: Checkable>(
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
pub(super) const SHORTEST_PLIES: usize = 12;
pub(super) const SHORTEST_BUDGET: usize = 20_000;

/// With a mistake named (`id`), the shortest sequence that shows it: every sequence of the
/// reference shorter than `found` is asked of the mistake's model, shortest first; the first
/// the model differs on is replayed on the student's game. `Some((d, true))`: `d` is the
/// shortest (no shorter sequence shows the mistake); `Some((found, true))` when none is
/// shorter; `None` when there were too many to try (then `found` stays "shortest found").
pub(super) fn shortest_by_model<G: Checkable>(
    game: &G,
    reference: &Reference<G>,
    driver: &Driver,
    options: &Options,
    start: Option<&serde_json::Value>,
    id: &str,
    found: &Difference,
) -> Option<(Difference, bool)> {
    // `a+b`: a pair of mistakes.
    let mutants = game.mutants(id.contains('+'));
    let model = mutants.iter().find(|m| m.name() == id)?;
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
pub(super) fn deepen<G: Playable>(
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
pub(super) const LONGEST_PLAYOUT: usize = 300;

/// How many sequences the breadth-first search for a shorter difference may replay.
pub(super) const BFS_BUDGET: usize = 400;

/// The shortest difference for people: the moves, both positions, and a scenario to paste.
pub(super) fn explain<G: Checkable>(game: &G, d: &Difference, proven: bool) -> String {
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
pub(super) fn yaml_scalar(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()) {
        s.to_owned()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

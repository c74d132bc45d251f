//! Seeded random playouts, spread over drivers (the same results for any number), and the
//! replay of one move sequence on the student's game.

use super::*;

pub(super) struct Playout {
    pub(super) line: Line,
    pub(super) difference: Option<Difference>,
    pub(super) order: Option<Difference>,
}

/// The seeded random games, spread over `options.threads` drivers; the same results in the
/// same order for any number of threads (each game has its own seed and starts afresh).
pub(super) fn playouts<G: Checkable>(
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
    let done: Vec<Vec<(usize, Playout)>> = crate::in_parallel(|scope| {
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

pub(super) fn troubled(
    path: Vec<String>,
    views: Vec<View>,
    t: Trouble,
    playing: Option<String>,
) -> Playout {
    Playout {
        difference: Some(Difference {
            path: path.clone(),
            what: What::Trouble(t, playing),
        }),
        line: Line { path, views },
        order: None,
    }
}

pub(super) fn one_playout<G: Playable>(
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
pub(super) fn replay<G: Playable>(
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

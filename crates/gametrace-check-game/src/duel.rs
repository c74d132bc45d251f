//! The estimator criterion of the 15-150 game homeworks: "You will receive full credit as long
//! as estimate performs no worse than the naïve version" (S14 Riskless; S12 Connect 4 says "if
//! your estimator is at least this smart").
//!
//! Both sides search with the reference alpha-beta on the reference rules; only the estimates
//! at the search's leaves differ: one side's come from the student's game (asked through its
//! driver), the other's from the handout's naive estimator. So a game's result says something
//! about the estimator alone, never about the student's rules or searcher. Every pairing is
//! played twice with the sides swapped, from several openings, at several depths: the
//! estimator passes when it wins at least as many games as it loses.

use super::probe::{Step, Student, Trouble};
use super::{open_student, Checkable, Driver};
use crate::game::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};
use crate::search::{s14, Algorithm, NullSink};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::HashMap;

/// A duel game that has gone on this long is stopped and counted as unfinished (a Riskless
/// map can cycle).
pub const MAX_MOVES: usize = 200;

/// How many duel games, and how deep their searches go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub depths: Vec<u32>,
    /// The start, and then openings of two random moves (seeded) each.
    pub openings: usize,
    pub seed: u64,
}

/// One game of the duel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The moves before the searches take over (printed names).
    pub opening: Vec<String>,
    pub depth: u32,
    /// The side the student's estimator plays.
    pub student: Player,
}

/// How a duel game ended, for the student's estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Won,
    Drew,
    Lost,
    /// Stopped after [`MAX_MOVES`] moves, or where the side to move has no move.
    Unfinished,
}

/// A duel game's result, or what went wrong asking the student's game.
#[derive(Clone, Debug)]
pub struct Played {
    pub pairing: Pairing,
    pub moves: Vec<String>,
    pub result: std::result::Result<Result, Troubled>,
}

/// Asking the student's estimate went wrong: where (the moves from the start) and how.
#[derive(Clone, Debug)]
pub struct Troubled {
    pub path: Vec<String>,
    pub playing: Option<String>,
    pub trouble: Trouble,
}

/// The games to play: each opening, at each depth, with the student's estimator on each side.
pub fn pairings<G: Playable>(game: &G, plan: &Plan) -> Vec<Pairing> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(plan.seed);
    let mut openings: Vec<Vec<String>> = Vec::new();
    if plan.openings > 0 {
        openings.push(Vec::new());
    }
    // Distinct two-move openings while there are that many (a few tries each).
    let mut tries = 0;
    while openings.len() < plan.openings && tries < 20 * plan.openings {
        tries += 1;
        let mut s = game.start();
        let mut names = Vec::new();
        for _ in 0..2 {
            if game.status(&s) != Status::InPlay {
                break;
            }
            let moves: Vec<G::Move> = game.moves(&s).collect();
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            names.push(game.move_name(m));
            s = game.play(&s, m);
        }
        if game.status(&s) == Status::InPlay && !openings.contains(&names) {
            openings.push(names);
        }
    }
    let mut out = Vec::new();
    for opening in &openings {
        for &depth in &plan.depths {
            for student in [Player::Maxie, Player::Minnie] {
                out.push(Pairing {
                    opening: opening.clone(),
                    depth,
                    student,
                });
            }
        }
    }
    out
}

/// The reference game from `root`, estimating with a table of the student's estimates.
struct Tabled<'t, G: Game> {
    game: &'t G,
    root: G::State,
    table: &'t HashMap<StateKey, Estimate>,
}

/// Starts at `root` and estimates from the table; the rest is the reference game's.
impl<G: Game> crate::game::Delegate for Tabled<'_, G> {
    type Inner = G;
    type State = G::State;
    type Moves<'a>
        = G::Moves<'a>
    where
        Self: 'a;

    fn inner(&self) -> &G {
        self.game
    }
    fn start(&self) -> G::State {
        self.root.clone()
    }
    /// Every leaf a depth-limited search estimates was asked about before the search
    /// ([`leaves`]); a miss would be a bug here, and reads as a draw rather than a crash.
    fn estimate(&self, s: &G::State) -> Estimate {
        let found = self.table.get(&self.game.key(s)).copied();
        debug_assert!(found.is_some(), "a leaf the student was not asked about");
        found.unwrap_or(Estimate::Guess(0))
    }
}

/// The in-play positions `depth` moves below `s` (the leaves a depth-limited search
/// estimates; finished games are scored by their outcome), each once, with a path to it.
fn leaves<G: Game>(
    game: &G,
    s: &G::State,
    depth: u32,
    path: &mut Vec<G::Move>,
    seen: &mut HashMap<StateKey, Estimate>,
    out: &mut Vec<(Vec<G::Move>, StateKey)>,
) {
    if game.status(s) != Status::InPlay {
        return;
    }
    if depth == 0 {
        let key = game.key(s);
        if !seen.contains_key(&key) {
            seen.insert(key.clone(), Estimate::Guess(0));
            out.push((path.clone(), key));
        }
        return;
    }
    for m in game.moves(s) {
        path.push(m);
        leaves(game, &game.play(s, m), depth - 1, path, seen, out);
        path.pop();
    }
}

/// The steps that walk from the current position to each leaf in turn, asking its estimate,
/// and back: consecutive leaves share their path's beginning, so each costs a move or two.
/// Where a move's name has not been listed by the game yet (`knows`), its moves are listed
/// first, so that the move is played by the game's own name for it.
fn walk<G: Playable>(
    game: &G,
    leaves: &[(Vec<G::Move>, StateKey)],
    knows: impl Fn(&str) -> bool,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut here: &[G::Move] = &[];
    // listed[i]: the moves of the node `i` moves down the current path were listed.
    let mut listed: Vec<bool> = Vec::new();
    for (path, _) in leaves {
        let common = here.iter().zip(path).take_while(|(a, b)| a == b).count();
        steps.extend(std::iter::repeat_n(Step::Undo, here.len() - common));
        listed.resize(path.len() + 1, false);
        listed[common + 1..].fill(false);
        for i in common..path.len() {
            let name = game.move_name(path[i]);
            if !knows(&name) && !listed[i] {
                listed[i] = true;
                steps.push(Step::Moves);
            }
            steps.push(Step::Play(name));
        }
        steps.push(Step::Estimate);
        here = path;
    }
    steps.extend(std::iter::repeat_n(Step::Undo, here.len()));
    steps
}

/// An estimate as the student's game printed it, as the searchers rank estimates.
pub fn read_estimate(text: &str) -> Option<Estimate> {
    match text {
        "Maxie wins" => Some(Estimate::MaxieWins),
        "Minnie wins" => Some(Estimate::MinnieWins),
        t => t.parse::<i64>().ok().map(Estimate::Guess),
    }
}

/// Plays one duel game; the student's driver follows the game move by move.
pub fn play<G: Checkable>(
    game: &G,
    student: &mut Student,
    start: Option<&serde_json::Value>,
    pairing: &Pairing,
) -> Played {
    let naive = game.estimating_with(Estimator::Naive);
    let mut moves: Vec<String> = Vec::new();
    let mut table: HashMap<StateKey, Estimate> = HashMap::new();
    let fail = |moves: &[String], playing: Option<String>, trouble| Troubled {
        path: moves.to_vec(),
        playing,
        trouble,
    };
    let result = (|| -> std::result::Result<Result, Troubled> {
        student.start(start).map_err(|t| fail(&moves, None, t))?;
        let mut s = game.start();
        let mut opening = pairing.opening.iter();
        loop {
            match game.status(&s) {
                Status::Over(Outcome::Draw) => return Ok(Result::Drew),
                Status::Over(Outcome::Winner(p)) if p == pairing.student => return Ok(Result::Won),
                Status::Over(Outcome::Winner(_)) => return Ok(Result::Lost),
                Status::InPlay if moves.len() >= MAX_MOVES => return Ok(Result::Unfinished),
                // In play with no move (a Riskless side holding only lands without roads):
                // the game cannot go on.
                Status::InPlay if game.moves(&s).next().is_none() => return Ok(Result::Unfinished),
                Status::InPlay => {}
            }
            let mv = if let Some(name) = opening.next() {
                game.read_move(name)
                    .ok()
                    .filter(|m| game.moves(&s).any(|x| x == *m))
                    .expect("openings are drawn from the reference's own moves")
            } else {
                let index = if game.player(&s) == pairing.student {
                    let mut found = Vec::new();
                    leaves(
                        game,
                        &s,
                        pairing.depth,
                        &mut Vec::new(),
                        &mut table,
                        &mut found,
                    );
                    let steps = walk(game, &found, |n| student.knows(n));
                    let texts = student.estimates_along(&steps).map_err(|(at, t)| {
                        let (path, playing) = where_in(&moves, &steps, at);
                        fail(&path, playing, t)
                    })?;
                    for ((path, key), text) in found.iter().zip(&texts) {
                        let e = read_estimate(text).ok_or_else(|| {
                            let mut at = moves.clone();
                            at.extend(path.iter().map(|&m| game.move_name(m)));
                            fail(
                                &at,
                                None,
                                Trouble::Garbage(format!(
                                    "`estimate` was answered with `{text}`, which is neither a whole number nor a win"
                                )),
                            )
                        })?;
                        table.insert(key.clone(), e);
                    }
                    let tabled = Tabled {
                        game,
                        root: s.clone(),
                        table: &table,
                    };
                    s14::search(&tabled, pairing.depth, Algorithm::AlphaBeta, &mut NullSink)
                        .best_index
                } else {
                    let from_here = naive.starting_at(s.clone());
                    s14::search(
                        &from_here,
                        pairing.depth,
                        Algorithm::AlphaBeta,
                        &mut NullSink,
                    )
                    .best_index
                };
                game.moves(&s)
                    .nth(index.unwrap_or(0))
                    .expect("a position with moves (checked above)")
            };
            let name = game.move_name(mv);
            if !student.knows(&name) {
                student.moves().map_err(|t| fail(&moves, None, t))?;
            }
            student
                .play(&name)
                .map_err(|t| fail(&moves, Some(name.clone()), t))?;
            moves.push(name);
            s = game.play(&s, mv);
        }
    })();
    Played {
        pairing: pairing.clone(),
        moves,
        result,
    }
}

/// The position (and the move being played) at step `at` of a walk from `moves`.
fn where_in(moves: &[String], steps: &[Step], at: usize) -> (Vec<String>, Option<String>) {
    let mut path = moves.to_vec();
    for step in &steps[..at] {
        match step {
            Step::Play(name) => path.push(name.clone()),
            Step::Undo => {
                path.pop();
            }
            Step::Estimate | Step::Moves => {}
        }
    }
    let playing = match &steps[at] {
        Step::Play(name) => Some(name.clone()),
        _ => None,
    };
    (path, playing)
}

/// Every pairing played, spread over `threads` drivers; the same results in the same order
/// for any number of threads (each game starts afresh and keeps its own table).
pub fn play_all<G: Checkable>(
    game: &G,
    driver: &Driver,
    threads: usize,
    start: Option<&serde_json::Value>,
    pairings: &[Pairing],
) -> Vec<Played> {
    let n = pairings.len();
    let threads = threads.clamp(1, n.max(1));
    let done: Vec<Vec<(usize, Played)>> = crate::in_parallel(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut student: Option<Student> = None;
                    for i in (t..n).step_by(threads) {
                        if student.is_none() {
                            match open_student(game, driver, true) {
                                Ok(s) => student = Some(s),
                                Err(trouble) => {
                                    out.push((
                                        i,
                                        Played {
                                            pairing: pairings[i].clone(),
                                            moves: Vec::new(),
                                            result: Err(Troubled {
                                                path: Vec::new(),
                                                playing: None,
                                                trouble,
                                            }),
                                        },
                                    ));
                                    continue;
                                }
                            }
                        }
                        let s = student.as_mut().expect("opened above");
                        let p = play(game, s, start, &pairings[i]);
                        if matches!(
                            &p.result,
                            Err(Troubled {
                                trouble: Trouble::Ended(_),
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
    let mut slots: Vec<Option<Played>> = (0..n).map(|_| None).collect();
    for (i, p) in done.into_iter().flatten() {
        slots[i] = Some(p);
    }
    slots.into_iter().flatten().collect()
}

/// Won, drawn (unfinished games count as drawn) and lost games.
pub fn tally<'a>(played: impl IntoIterator<Item = &'a Played>) -> (usize, usize, usize) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for p in played {
        match p.result {
            Ok(Result::Won) => w += 1,
            Ok(Result::Drew | Result::Unfinished) => d += 1,
            Ok(Result::Lost) => l += 1,
            Err(_) => {}
        }
    }
    (w, d, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::Connect4;

    /// The walk visits every leaf, each at its own position, and comes back to the root.
    #[test]
    fn the_walk_reaches_each_leaf_and_returns() {
        let g = Connect4::new(4, 4, false);
        let mut found = Vec::new();
        leaves(
            &g,
            &g.start(),
            3,
            &mut Vec::new(),
            &mut HashMap::new(),
            &mut found,
        );
        // 4³ sequences, of which transpositions (the same pieces in other orders) are asked
        // once: column a then c by Maxie with b by Minnie between is the same as c, b, a.
        assert!(found.len() < 64 && found.len() > 16, "{}", found.len());
        let steps = walk(&g, &found, |_| true);
        let mut path: Vec<String> = Vec::new();
        let mut at = 0;
        for step in &steps {
            match step {
                Step::Play(n) => path.push(n.clone()),
                Step::Undo => {
                    path.pop().expect("never undoes past the root");
                }
                Step::Moves => {}
                Step::Estimate => {
                    let want: Vec<String> = found[at].0.iter().map(|&m| g.move_name(m)).collect();
                    assert_eq!(path, want);
                    at += 1;
                }
            }
        }
        assert_eq!(at, found.len());
        assert!(path.is_empty());
    }

    /// Alpha-beta over the table of leaf estimates chooses what it chooses over the
    /// estimator itself: the table holds every leaf it looks at.
    #[test]
    fn a_tabled_search_is_the_search() {
        let g = Connect4::new(5, 4, false);
        let mut s = g.start();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..8 {
            for depth in 1..=3 {
                let mut table = HashMap::new();
                let mut found = Vec::new();
                leaves(&g, &s, depth, &mut Vec::new(), &mut table, &mut found);
                for (path, key) in &found {
                    let leaf = path.iter().fold(s, |s, &m| g.play(&s, m));
                    table.insert(key.clone(), g.estimate(&leaf));
                }
                let tabled = Tabled {
                    game: &g,
                    root: s,
                    table: &table,
                };
                let a = s14::search(&tabled, depth, Algorithm::AlphaBeta, &mut NullSink);
                let b = s14::search(
                    &g.starting_at(s),
                    depth,
                    Algorithm::AlphaBeta,
                    &mut NullSink,
                );
                assert_eq!(a, b);
            }
            let moves: Vec<_> = g.moves(&s).collect();
            s = g.play(&s, moves[(rng.next_u64() % moves.len() as u64) as usize]);
            if g.status(&s) != Status::InPlay {
                break;
            }
        }
    }

    #[test]
    fn pairings_swap_sides_at_each_depth_from_distinct_openings() {
        let g = Connect4::new(7, 6, false);
        let plan = Plan {
            depths: vec![1, 2],
            openings: 3,
            seed: 1,
        };
        let p = pairings(&g, &plan);
        assert_eq!(p.len(), 3 * 2 * 2);
        assert!(p[0].opening.is_empty());
        assert_ne!(p[4].opening, p[8].opening);
        assert_eq!(p[4].opening.len(), 2);
        assert_eq!(
            (p[0].student, p[1].student),
            (Player::Maxie, Player::Minnie)
        );
        assert_eq!(pairings(&g, &plan), p, "seeded");
    }

    #[test]
    fn estimates_are_read_as_the_searchers_rank_them() {
        assert_eq!(read_estimate("-3"), Some(Estimate::Guess(-3)));
        assert_eq!(read_estimate("Maxie wins"), Some(Estimate::MaxieWins));
        assert_eq!(read_estimate("Minnie wins"), Some(Estimate::MinnieWins));
        assert_eq!(read_estimate("0.5"), None);
    }
}

//! Perft: move sequences of each length from the start against the reference, with a
//! per-first-move breakdown ("divide") where the counts part, every position compared.

use super::*;

/// The deepest perft that visits at most about 3,000 positions of the reference.
pub(super) fn auto_depth<G: Playable>(game: &G) -> u32 {
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

pub(super) struct Perft<'r, 'g, 's, 'a, G: Playable> {
    pub(super) reference: &'r Reference<'g, G>,
    pub(super) student: &'s mut Student<'a>,
    pub(super) how: Compare,
    /// (reference, student) sequences of each length.
    pub(super) counts: Vec<(u64, u64)>,
    /// Per first move: its name and the counts of each length under it.
    pub(super) divide: Vec<(String, Vec<(u64, u64)>)>,
    pub(super) lines: &'s mut Vec<Line>,
    pub(super) differences: &'s mut Vec<Difference>,
    /// Positions with moves the walk may still open; when it runs out the counts are cut.
    pub(super) budget: usize,
    pub(super) exhausted: bool,
}

/// How many positions with moves perft opens at most (the reference's tree at the automatic
/// depth has at most 3,000 positions).
pub(super) const PERFT_BUDGET: usize = 40_000;

/// The reference's positions with moves fewer than `left` moves below `s`, counted up to
/// just past the budget.
pub(super) fn inner_positions<G: Playable>(r: &Reference<G>, s: &G::State, left: u32) -> usize {
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
    pub(super) fn walk(
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

pub(super) fn count_reference<G: Playable>(
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

pub(super) fn perft_case<G: Playable>(
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
        None => CaseResult::new(spec_name, "perft", report::Status::Pass, 1.0).message(format!(
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
            CaseResult::new(spec_name, "perft", report::Status::Fail, 1.0)
                .message(format!(
                    "move sequences of length {d} from the start: reference {}, student's {}",
                    counts[d].0, counts[d].1
                ))
                .details(table)
        }
    }
}

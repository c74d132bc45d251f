//! The games `check-game` knows how to check: each one's reference, catalogue of rule
//! mistakes, what its drivers need, and how a position is reached where a driver cannot set
//! it up.

use super::*;

/// A game `check-game` knows how to check: its reference, its catalogue of rule mistakes
/// and what a driver needs to build the student's copy.
pub trait Checkable: Playable {
    /// The catalogued rule mistakes, alone or (`pairs`) two at a time.
    fn mutants(&self, pairs: bool) -> Vec<Mutant>;
    /// The catalogue's model with no mistake, where it can show the cells behind a status
    /// ([`rules::Rules::win_cells`]: Connect 4, Tippy).
    fn plain(&self) -> Option<Box<dyn rules::Oracle>> {
        None
    }
    /// Settings a driver reads from its environment (`GAMETRACE_COLUMNS=7`, ...).
    fn driver_env(&self) -> Vec<(String, String)>;
    /// The position a game's own `start` gives (drivers that cannot set up a position start
    /// every check here).
    fn course_start(&self) -> Self::State;
    /// An estimate as the course's game gives it (`16`; CSC148: 1, 0, -1 for the player to
    /// move).
    fn course_estimate(&self, s: &Self::State) -> String;
    /// A position a driver can build (the course's start, or that start with the other
    /// player first) and moves from it to `target`, for drivers that cannot set up a
    /// position (SML's GAME has only `start`; a CSC148 constructor builds only the empty
    /// board); `None` if this game has no way to find them.
    fn moves_to(&self, _target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        None
    }
    /// Whether the course grades the student's estimator against the handout's naive one
    /// ([`duel`]): the 15-150 games.
    fn judged_estimator(&self) -> bool {
        false
    }
    /// Whether the course asks for a parser, so `parse_move` earns a point: 15-150's GAME
    /// has `parse_move`; CSC148's starter has no `str_to_move` (checked where a game has
    /// one, worth nothing).
    fn graded_parser(&self) -> bool {
        true
    }
    /// A move as a player types it at the course's prompt, where the course fixes that form
    /// (S14 Riskless: `3 4`, the source and target vertex, though a move prints `(3, 4)`):
    /// what `parse_move` is handed. `None`: the game's own printed name.
    fn typed(&self, _mv: Self::Move) -> Option<String> {
        None
    }
}

impl Checkable for crate::game::connect4::Connect4 {
    fn mutants(&self, pairs: bool) -> Vec<Mutant> {
        rules::connect4_mutants(self, pairs)
    }
    fn plain(&self) -> Option<Box<dyn rules::Oracle>> {
        Some(Box::new(rules::C4Model::of(self, rules::C4Mistake::None)))
    }
    fn judged_estimator(&self) -> bool {
        true
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![
            ("GAMETRACE_GAME".into(), self.variant().into()),
            ("GAMETRACE_COLUMNS".into(), self.columns.to_string()),
            ("GAMETRACE_ROWS".into(), self.rows.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::connect4::Connect4::new(self.columns, self.rows, self.popout).start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::scenario::estimate_text(crate::game::scenario::estimate_of(self, s))
    }
    /// Drops only (so PopOut positions reached without a pop): each position on the way
    /// holds a subset of the target's pieces, so the search stays small.
    fn moves_to(&self, target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        use crate::game::connect4::{Board, C4Move};
        let game = crate::game::connect4::Connect4::new(self.columns, self.rows, false);
        fn dfs(
            g: &crate::game::connect4::Connect4,
            s: Board,
            target: &Board,
            path: &mut Vec<C4Move>,
            seen: &mut std::collections::HashSet<Board>,
        ) -> bool {
            if s == *target {
                return true;
            }
            if !seen.insert(s) || seen.len() > 200_000 {
                return false;
            }
            for m in g.moves(&s) {
                let next = g.play(&s, m);
                if next.pieces[0] & !target.pieces[0] == 0
                    && next.pieces[1] & !target.pieces[1] == 0
                {
                    path.push(m);
                    if dfs(g, next, target, path, seen) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        let mut path = Vec::new();
        dfs(
            &game,
            game.start(),
            target,
            &mut path,
            &mut Default::default(),
        )
        .then(|| (self.course_start(), path))
    }
}

impl Checkable for crate::game::riskless::Riskless {
    fn mutants(&self, pairs: bool) -> Vec<Mutant> {
        rules::riskless_mutants(self, pairs)
    }
    fn judged_estimator(&self) -> bool {
        true
    }
    /// The map, for the SML driver to build the course's MAP structure from.
    fn driver_env(&self) -> Vec<(String, String)> {
        let m = &self.map;
        let roads: Vec<String> = m
            .roads
            .iter()
            .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect();
        vec![
            ("GAMETRACE_GAME".into(), "riskless".into()),
            ("GAMETRACE_TERRITORIES".into(), m.territories.join(",")),
            ("GAMETRACE_ROADS".into(), roads.join(";")),
            ("GAMETRACE_MIN_START".into(), m.min_start.to_string()),
            ("GAMETRACE_MAX_START".into(), m.max_start.to_string()),
            ("GAMETRACE_MAX_TERRI".into(), m.max_terri.to_string()),
            ("GAMETRACE_MAX_UNITS".into(), m.max_units.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::riskless::Riskless::new((*self.map).clone()).start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::scenario::estimate_text(crate::game::scenario::estimate_of(self, s))
    }
    /// The handout's support code reads a move typed as `3 4` (HW11 section 4.3).
    fn typed(&self, mv: Self::Move) -> Option<String> {
        Some(format!("{} {}", mv.from, mv.to))
    }
}

impl Checkable for crate::game::tippy::Tippy {
    fn graded_parser(&self) -> bool {
        false
    }
    fn mutants(&self, pairs: bool) -> Vec<Mutant> {
        rules::tippy_mutants(self, pairs)
    }
    fn plain(&self) -> Option<Box<dyn rules::Oracle>> {
        Some(Box::new(rules::TippyModel::of(
            self,
            rules::TippyMistake::None,
        )))
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![
            ("GAMETRACE_GAME".into(), "tippy".into()),
            ("GAMETRACE_SIZE".into(), self.size.to_string()),
        ]
    }
    fn course_start(&self) -> Self::State {
        crate::game::tippy::Tippy::new(self.size).start()
    }
    /// p1's and p2's cells claimed in turn from the empty board. The course's constructor
    /// builds only the empty board, so a scenario's position is reached by moves; orders are
    /// tried until none passes through a finished game (a tippy completed too early).
    fn moves_to(&self, target: &Self::State) -> Option<(Self::State, Vec<Self::Move>)> {
        let empty = crate::game::tippy::Tippy::new(self.size);
        let cells = |w: u64| -> Vec<crate::game::tippy::Cell> {
            (0..64)
                .filter(|i| w >> i & 1 == 1)
                .map(|i| empty.cell(i))
                .collect()
        };
        let (xs, os) = (cells(target.cells[0]), cells(target.cells[1]));
        // Who moved first: p1, unless the counts say p2 did (a CSC148 game may start with
        // either).
        let p2_first = if xs.len() == os.len() {
            target.to_move == crate::game::Player::Minnie
        } else {
            os.len() == xs.len() + 1
        };
        let (first, second) = if p2_first { (&os, &xs) } else { (&xs, &os) };
        if first.len() != second.len() && first.len() != second.len() + 1 {
            return None;
        }
        let mut start = empty.start();
        if p2_first {
            start.to_move = crate::game::Player::Minnie;
        }
        let game = empty.starting_at(start);
        let rotated = |v: &[crate::game::tippy::Cell], k: usize| {
            let mut v = v.to_vec();
            let n = v.len().max(1);
            v.rotate_left(k % n);
            v
        };
        for kx in 0..first.len().max(1) {
            for ko in 0..second.len().max(1) {
                let (x, o) = (rotated(first, kx), rotated(second, ko));
                let order: Vec<_> = (0..first.len())
                    .flat_map(|i| std::iter::once(x[i]).chain(o.get(i).copied()))
                    .collect();
                let mut s = game.start();
                let reaches = order.iter().all(|&c| {
                    let ok = game.status(&s) == Status::InPlay && game.moves(&s).any(|m| m == c);
                    if ok {
                        s = game.play(&s, c);
                    }
                    ok
                });
                if reaches && s == *target {
                    return Some((start, order));
                }
            }
        }
        None
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        self.rough_outcome(s).to_string()
    }
}

impl Checkable for crate::game::subtract_square::SubtractSquare {
    fn graded_parser(&self) -> bool {
        false
    }
    fn mutants(&self, pairs: bool) -> Vec<Mutant> {
        rules::subtract_square_mutants(self, pairs)
    }
    fn driver_env(&self) -> Vec<(String, String)> {
        vec![("GAMETRACE_GAME".into(), "subtract_square".into())]
    }
    fn course_start(&self) -> Self::State {
        self.start()
    }
    fn course_estimate(&self, s: &Self::State) -> String {
        crate::game::subtract_square::rough_outcome(s.total).to_string()
    }
}

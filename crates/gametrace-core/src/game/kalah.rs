//! Kalah as Dartmouth's CS10 notes state it, with any number of pits a side (6 by default)
//! and seeds a pit (4 by default). p1 (Maxie) and p2 (Minnie) each have a row of pits and a
//! kalah at their left end; a move picks up every seed of one of the mover's non-empty pits
//! and sows them one by one clockwise: into the mover's following pits, the mover's kalah and
//! the opponent's pits, skipping the opponent's kalah.
//!
//! * The last seed in the mover's own kalah: the mover moves again.
//! * The last seed in an empty pit of the mover's own side, opposite a non-empty pit: that
//!   pit's seeds and the capturing seed go to the mover's kalah. (`capture_empty` is the
//!   common variant that captures the lone seed even when the opposite pit is empty.)
//! * When the player to move has no seeds on their side, the opponent's seeds go to the
//!   opponent's kalah and the game ends; the fuller kalah wins. ([`EndRule::EitherSideEmpty`]
//!   is the rule of Wikipedia and of the published solutions: the game ends as soon as either
//!   row is empty after a move, and each player's remaining seeds go to their own kalah.)
//!
//! **Pits** are numbered in sowing order, from 0 (the farthest from the player's own kalah)
//! to pits-1 (next to it), as CS10's `KalahGame` indexes its board: a move is a pit number
//! (`p2:3` names a side's pit, for scenarios).
//! Pit i faces the opponent's pit pits-1-i. Seen from above with p1 at the bottom, p1's
//! kalah is at the left end and p2's at the right. A position is written in specs as
//! `{p1: [4, 4, 4, 4, 4, 4], p2: [4, 4, 4, 4, 4, 4], kalahs: [0, 0]}` and labelled in
//! traces `4 4 4 4 4 4 [0] | 4 4 4 4 4 4 [0]`: p1's row and kalah, then p2's, in sowing order.
//!
//! **Scores** (CS10): the static evaluation is the mover's kalah minus the opponent's; a
//! finished game scores 100 × that margin.

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, StateKey, Status};

/// The most pits a side: a board fits one fixed array.
pub const MAX_PITS: usize = 15;
/// The most seeds a pit starts with.
pub const MAX_SEEDS: u16 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// `pits[side][i]`: side 0 is p1's, 1 is p2's; pits past the game's count stay 0.
    pub pits: [[u16; MAX_PITS]; 2],
    pub kalahs: [u16; 2],
    pub to_move: Player,
}

/// A move: the pit to sow from, and the side it was written for (`p2:3`), if any. Moves the
/// game lists carry the mover's side; a move written without a side is the mover's, and
/// equals the listed move of that pit.
#[derive(Clone, Copy, Debug)]
pub struct Pit {
    pub pit: u8,
    pub side: Option<Player>,
}

impl PartialEq for Pit {
    fn eq(&self, other: &Pit) -> bool {
        self.pit == other.pit
            && match (self.side, other.side) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

impl std::fmt::Display for Pit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.pit)
    }
}

/// When the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// CS10's notes: when the player to move has no seeds, the opponent's seeds go to the
    /// opponent's kalah and the game ends.
    #[default]
    Cs10,
    /// As soon as either row is empty after a move, each player's remaining seeds go to their
    /// own kalah and the game ends (Wikipedia's rule, and the published solutions').
    EitherSideEmpty,
}

impl EndRule {
    /// The name specs and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            EndRule::Cs10 => "cs10",
            EndRule::EitherSideEmpty => "either_side_empty",
        }
    }
}

/// The rules that vary between Kalah's sources; the default is CS10's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub end: EndRule,
    /// Capture the lone seed even when the opposite pit is empty (the "empty capture"
    /// variant); CS10's notes capture only facing a non-empty pit.
    pub capture_empty: bool,
}

impl Rules {
    /// CS10's rules, with or without empty capture.
    pub fn cs10(capture_empty: bool) -> Rules {
        Rules {
            end: EndRule::Cs10,
            capture_empty,
        }
    }
}

impl std::fmt::Display for Rules {
    /// `CS10's rules`, `either side empty ends the game, empty capture`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match (self.end, self.capture_empty) {
            (EndRule::Cs10, false) => "CS10's rules",
            (EndRule::Cs10, true) => "CS10's end rule, empty capture",
            (EndRule::EitherSideEmpty, false) => "either side empty ends the game",
            (EndRule::EitherSideEmpty, true) => "either side empty ends the game, empty capture",
        })
    }
}

#[derive(Clone, Debug)]
pub struct Kalah {
    pub pits: usize,
    pub seeds: u16,
    pub rules: Rules,
    pub start: Board,
}

pub fn side(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

impl Kalah {
    /// The start of Kalah(`pits`, `seeds`), p1 to move (sizes checked by the caller).
    pub fn new(pits: usize, seeds: u16, rules: Rules) -> Kalah {
        let mut start = Board {
            pits: [[0; MAX_PITS]; 2],
            kalahs: [0, 0],
            to_move: Player::Maxie,
        };
        for s in 0..2 {
            for i in 0..pits {
                start.pits[s][i] = seeds;
            }
        }
        Kalah {
            pits,
            seeds,
            rules,
            start,
        }
    }

    fn side_empty(&self, b: &Board, s: usize) -> bool {
        b.pits[s][..self.pits].iter().all(|&n| n == 0)
    }

    /// Sows from `pit` and applies the rules: the board after the move, with the player to
    /// move next (the same one after a last seed in their kalah), and the final sweep if
    /// that player has no seeds.
    pub fn sow(&self, b: &Board, Pit { pit, .. }: Pit) -> Board {
        let me = side(b.to_move);
        let mut next = *b;
        let mut seeds = next.pits[me][usize::from(pit)];
        next.pits[me][usize::from(pit)] = 0;
        // Positions around the board from the mover's view: my pits 0..p, my kalah (p),
        // their pits p+1..=2p; their kalah is skipped.
        let p = self.pits;
        let ring = 2 * p + 1;
        let mut at = usize::from(pit);
        while seeds > 0 {
            at = (at + 1) % ring;
            match at {
                a if a < p => next.pits[me][a] += 1,
                a if a == p => next.kalahs[me] += 1,
                a => next.pits[1 - me][a - p - 1] += 1,
            }
            seeds -= 1;
        }
        let again = at == p;
        if at < p && next.pits[me][at] == 1 {
            let opposite = p - 1 - at;
            let facing = next.pits[1 - me][opposite];
            if facing > 0 || self.rules.capture_empty {
                next.kalahs[me] += facing + 1;
                next.pits[1 - me][opposite] = 0;
                next.pits[me][at] = 0;
            }
        }
        next.to_move = if again { b.to_move } else { b.to_move.other() };
        let mover = side(next.to_move);
        let ends = match self.rules.end {
            EndRule::Cs10 => self.side_empty(&next, mover),
            EndRule::EitherSideEmpty => self.side_empty(&next, 0) || self.side_empty(&next, 1),
        };
        if ends {
            // Each side's seeds go to its own kalah (under CS10's rule, the mover has none).
            for s in 0..2 {
                let rest: u16 = next.pits[s][..p].iter().sum();
                next.kalahs[s] += rest;
                next.pits[s] = [0; MAX_PITS];
            }
        }
        next
    }

    /// Both rows empty: the game is over.
    pub fn over(&self, b: &Board) -> bool {
        self.side_empty(b, 0) && self.side_empty(b, 1)
    }

    /// The mover's kalah minus the opponent's.
    pub fn margin(&self, b: &Board) -> i64 {
        let me = side(b.to_move);
        i64::from(b.kalahs[me]) - i64::from(b.kalahs[1 - me])
    }

    /// `4 4 4 4 4 4 [0]`: a row in sowing order and its kalah.
    fn row(&self, b: &Board, s: usize, out: &mut String) {
        for i in 0..self.pits {
            out.push_str(itoa::Buffer::new().format(b.pits[s][i]));
            out.push(' ');
        }
        out.push('[');
        out.push_str(itoa::Buffer::new().format(b.kalahs[s]));
        out.push(']');
    }

    /// The seeds on the board and in the kalahs.
    pub fn total(&self, b: &Board) -> u32 {
        (0..2)
            .map(|s| {
                b.pits[s][..self.pits]
                    .iter()
                    .map(|&n| u32::from(n))
                    .sum::<u32>()
                    + u32::from(b.kalahs[s])
            })
            .sum()
    }
}

/// The non-empty pits of the mover, in pit order.
pub struct Sowable {
    left: u32,
    side: Player,
}

impl Iterator for Sowable {
    type Item = Pit;
    fn next(&mut self) -> Option<Pit> {
        (self.left != 0).then(|| {
            let i = self.left.trailing_zeros();
            self.left &= self.left - 1;
            Pit {
                pit: i as u8,
                side: Some(self.side),
            }
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.count_ones() as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Sowable {}

impl Game for Kalah {
    type State = Board;
    type Move = Pit;
    type Moves<'a> = Sowable;

    fn start(&self) -> Board {
        self.start
    }
    fn player(&self, b: &Board) -> Player {
        b.to_move
    }
    fn status(&self, b: &Board) -> Status {
        if !self.over(b) {
            return Status::InPlay;
        }
        Status::Over(match b.kalahs[0].cmp(&b.kalahs[1]) {
            std::cmp::Ordering::Greater => Outcome::Winner(Player::Maxie),
            std::cmp::Ordering::Less => Outcome::Winner(Player::Minnie),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }
    fn moves(&self, b: &Board) -> Sowable {
        let me = side(b.to_move);
        let mut left = 0u32;
        for i in 0..self.pits {
            if b.pits[me][i] > 0 {
                left |= 1 << i;
            }
        }
        Sowable {
            left,
            side: b.to_move,
        }
    }
    fn play(&self, b: &Board, pit: Pit) -> Board {
        self.sow(b, pit)
    }
    /// CS10's static evaluation, as p1's number: p1's kalah minus p2's.
    fn estimate(&self, b: &Board) -> Estimate {
        Estimate::Guess(i64::from(b.kalahs[0]) - i64::from(b.kalahs[1]))
    }
    /// `4 4 4 4 4 4 [0] | 4 4 4 4 4 4 [0]`: p1's row and kalah, then p2's.
    fn write_label(&self, b: &Board, out: &mut String) {
        self.row(b, 0, out);
        out.push_str(" | ");
        self.row(b, 1, out);
    }
    /// CS10: 100 × p1's margin.
    fn final_score(&self, b: &Board) -> i64 {
        100 * (i64::from(b.kalahs[0]) - i64::from(b.kalahs[1]))
    }
    fn player_name(&self, p: Player) -> &'static str {
        p.course_name()
    }
    fn key(&self, b: &Board) -> StateKey {
        // Up to 15 pits of up to 255 seeds a side fit in a u128 only for small boards; the
        // rest use the label.
        let fits = self.pits <= 6 && self.total(b) < 256;
        if !fits {
            let mut l = String::new();
            self.write_label(b, &mut l);
            return StateKey::Text(b.to_move, l.into_boxed_str());
        }
        let mut bits: u128 = 0;
        for s in 0..2 {
            for i in 0..self.pits {
                bits = bits << 8 | u128::from(b.pits[s][i]);
            }
            bits = bits << 8 | u128::from(b.kalahs[s]);
        }
        StateKey::Packed(bits, b.to_move)
    }
}

impl Playable for Kalah {
    fn name(&self) -> &'static str {
        "kalah"
    }
    fn starting_at(&self, state: Board) -> Self {
        Kalah {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, _: Estimator) -> Self {
        self.clone()
    }
    /// `3`, or `p2:3` for a pit of a named side.
    fn read_move(&self, text: &str) -> Result<Pit, String> {
        let t = text.trim();
        let (named, number) = match t.split_once(':') {
            Some((who, n)) => {
                let who = match who.trim().to_ascii_lowercase().as_str() {
                    "p1" | "maxie" => Player::Maxie,
                    "p2" | "minnie" => Player::Minnie,
                    _ => {
                        return Err(format!(
                            "`{t}` is not a pit: write 3, or p1:3 / p2:3 for a side's pit"
                        ))
                    }
                };
                (Some(who), n.trim())
            }
            None => (None, t),
        };
        let pit = number
            .parse::<u8>()
            .ok()
            .filter(|&p| usize::from(p) < self.pits)
            .ok_or_else(|| {
                format!(
                    "`{t}` is not a pit: pits are numbered 0 to {} from the one farthest from your kalah",
                    self.pits - 1
                )
            })?;
        Ok(Pit { pit, side: named })
    }
    fn why_illegal(&self, b: &Board, mv: Pit) -> Option<String> {
        if self.over(b) {
            return Some("the game is over".to_owned());
        }
        if let Some(s) = mv.side.filter(|&s| s != b.to_move) {
            return Some(format!(
                "pit {} is on {}'s side, and it is {}'s move",
                mv.pit,
                self.player_name(s),
                self.player_name(b.to_move)
            ));
        }
        (b.pits[side(b.to_move)][usize::from(mv.pit)] == 0)
            .then(|| format!("pit {} of {} is empty", mv.pit, self.player_name(b.to_move)))
    }
    /// The board from above, p1 at the bottom: sowing runs clockwise, so p1's row runs right
    /// to left into p1's kalah at the left end, and p2's row left to right into p2's kalah
    /// at the right end. Pit numbers are shown beside each row.
    fn render(&self, b: &Board) -> String {
        let p = self.pits;
        let cells = |order: &mut dyn Iterator<Item = usize>, s: usize| -> String {
            order.map(|i| format!("{:>3}", b.pits[s][i])).collect()
        };
        let numbers = |order: &mut dyn Iterator<Item = usize>| -> String {
            order.map(|i| format!("{i:>3}")).collect()
        };
        let pad = "      ";
        format!(
            "{pad}{}   p2's pits\n{pad}{}\n  [{:>2}]{}  [{:>2}]\n{pad}{}\n{pad}{}   p1's pits\n{} to move\n",
            numbers(&mut (0..p)),
            cells(&mut (0..p), 1),
            b.kalahs[0],
            " ".repeat(3 * p),
            b.kalahs[1],
            cells(&mut (0..p).rev(), 0),
            numbers(&mut (0..p).rev()),
            self.player_name(b.to_move)
        )
    }
    fn move_name(&self, mv: Pit) -> String {
        mv.to_string()
    }
    fn move_syntax(&self) -> &'static str {
        "a pit number, 0 (farthest from your kalah) up to the one next to it"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pit(n: u8) -> Pit {
        Pit { pit: n, side: None }
    }

    fn board(k: &Kalah, p1: &[u16], p2: &[u16], kalahs: [u16; 2], to_move: Player) -> Board {
        let mut b = Board {
            pits: [[0; MAX_PITS]; 2],
            kalahs,
            to_move,
        };
        b.pits[0][..k.pits].copy_from_slice(p1);
        b.pits[1][..k.pits].copy_from_slice(p2);
        b
    }

    #[test]
    fn sowing_skips_the_opponents_kalah() {
        let k = Kalah::new(6, 4, Rules::default());
        // 13 seeds from pit 0: pits 1-5, my kalah, their 6 pits (13 so far? 5+1+6 = 12),
        // their kalah skipped, and the 13th lands back in pit 0, now empty: a capture.
        let b = board(
            &k,
            &[13, 0, 0, 0, 0, 0],
            &[1, 1, 1, 1, 1, 1],
            [0, 0],
            Player::Maxie,
        );
        let n = k.sow(&b, pit(0));
        assert_eq!(n.kalahs, [1 + 2 + 1, 0]);
        assert_eq!(&n.pits[0][..6], &[0, 1, 1, 1, 1, 1]);
        assert_eq!(&n.pits[1][..6], &[2, 2, 2, 2, 2, 0]);
        assert_eq!(k.total(&n), k.total(&b));
        assert_eq!(n.to_move, Player::Minnie);
    }

    #[test]
    fn the_last_seed_in_ones_kalah_moves_again() {
        let k = Kalah::new(6, 4, Rules::default());
        let n = k.sow(&k.start(), pit(2));
        assert_eq!(&n.pits[0][..6], &[4, 4, 0, 5, 5, 5]);
        assert_eq!(n.kalahs, [1, 0]);
        assert_eq!(n.to_move, Player::Maxie);
    }

    #[test]
    fn captures_only_on_ones_own_side_and_facing_seeds() {
        let k = Kalah::new(6, 4, Rules::default());
        // Pit 0 (1 seed) sows into empty pit 1, facing p2's pit 4 (3 seeds).
        let b = board(
            &k,
            &[1, 0, 2, 0, 0, 0],
            &[1, 1, 1, 1, 3, 1],
            [0, 0],
            Player::Maxie,
        );
        let n = k.sow(&b, pit(0));
        assert_eq!(n.kalahs, [4, 0]);
        assert_eq!((n.pits[0][1], n.pits[1][4]), (0, 0));
        // Facing an empty pit: no capture, unless the variant says so.
        let b = board(
            &k,
            &[1, 0, 2, 0, 0, 0],
            &[1, 1, 1, 1, 0, 1],
            [0, 0],
            Player::Maxie,
        );
        assert_eq!(k.sow(&b, pit(0)).kalahs, [0, 0]);
        let variant = Kalah::new(6, 4, Rules::cs10(true));
        assert_eq!(variant.sow(&b, pit(0)).kalahs, [1, 0]);
        // The last seed in an empty pit on the opponent's side captures nothing.
        let b = board(
            &k,
            &[0, 0, 0, 0, 0, 2],
            &[0, 3, 3, 3, 3, 3],
            [0, 0],
            Player::Maxie,
        );
        let n = k.sow(&b, pit(5));
        assert_eq!((n.kalahs, n.pits[1][0]), ([1, 0], 1));
    }

    #[test]
    fn an_empty_side_ends_the_game_and_the_opponent_sweeps() {
        let k = Kalah::new(3, 1, Rules::default());
        // p1 sows its last seed into its kalah and would move again with nothing to sow:
        // p2's seeds go to p2's kalah.
        let b = board(&k, &[0, 0, 1], &[2, 0, 1], [5, 3], Player::Maxie);
        let n = k.sow(&b, pit(2));
        assert_eq!((n.kalahs, k.over(&n)), ([6, 6], true));
        assert_eq!(k.status(&n), Status::Over(Outcome::Draw));
        // p1 leaves p2 nothing to sow: p1's remaining seeds go to p1's kalah.
        let b = board(&k, &[1, 1, 0], &[0, 0, 0], [3, 3], Player::Maxie);
        let n = k.sow(&b, pit(0));
        assert_eq!(n.kalahs, [5, 3]);
        assert_eq!(k.status(&n), Status::Over(Outcome::Winner(Player::Maxie)));
        assert_eq!(k.moves(&n).len(), 0);
    }

    #[test]
    fn labels_read_in_sowing_order() {
        let k = Kalah::new(3, 2, Rules::default());
        let mut l = String::new();
        k.write_label(&k.start(), &mut l);
        assert_eq!(l, "2 2 2 [0] | 2 2 2 [0]");
        assert!(k.parse_move(&k.start(), "3").is_err());
        assert!(k
            .parse_move(&k.start(), "p2:1")
            .unwrap_err()
            .contains("on p2's side, and it is p1's move"));
        assert_eq!(k.parse_move(&k.start(), "p1:1").unwrap().pit, 1);
    }
}

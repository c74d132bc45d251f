//! Riskless, as section 4 of the 15-150 S14 handout states it.
//!
//! A map is a simple, connected, undirected graph of named territories, each empty or held by
//! Maxie or Minnie with some armies. A move mobilises all the armies of one of the mover's
//! territories onto a neighbouring territory: the source stays the mover's with 0 armies; an
//! empty target is occupied; an own target adds the armies; an enemy target is a battle that
//! the larger army wins, keeping the difference, with a tie going to the attacker. After every
//! move both players train one army on each territory they hold, up to the map's cap
//! (`max_terri`). The game ends when a player holds no territory (the other wins) or a
//! player's armies reach the map's target (`max_units`; both at once is a draw).
//!
//! Moves are listed by source territory in map order, then by the source's roads in the
//! order the map lists them. A territory with 0 armies may still move them: the rule says
//! "all the armies", and that can be none (it never happens in play, where training leaves
//! every held territory at least 1).

use super::{Estimate, Estimator, Game, Outcome, Playable, Player, Status};
use std::fmt;
use std::sync::Arc;

/// At most this many territories (a position is two bit sets and an army count each).
pub const MAX_TERRITORIES: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub name: String,
    pub territories: Vec<String>,
    /// Each territory's neighbours, by index, in the order the map lists them.
    pub roads: Vec<Vec<u8>>,
    pub min_start: u8,
    pub max_start: u8,
    /// The most armies a territory can hold.
    pub max_terri: u8,
    /// The army total that wins.
    pub max_units: u32,
}

impl Map {
    /// M1: a ring of six territories, Land i next to Land i±1.
    pub fn m1() -> Map {
        let n = 6u8;
        Map {
            name: "M1".to_owned(),
            territories: (0..n).map(|i| format!("Land{i}")).collect(),
            roads: (0..n)
                .map(|i| {
                    let mut r = vec![(i + n - 1) % n, (i + 1) % n];
                    r.sort_unstable();
                    r
                })
                .collect(),
            min_start: 0,
            max_start: 3,
            max_terri: 9,
            max_units: 40,
        }
    }

    /// M2: a 4×4 grid numbered row by row, each territory next to the ones above, below,
    /// left and right of it.
    pub fn m2() -> Map {
        let side = 4u8;
        let roads = (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                let mut n = Vec::new();
                if r > 0 {
                    n.push(i - side);
                }
                if c > 0 {
                    n.push(i - 1);
                }
                if c + 1 < side {
                    n.push(i + 1);
                }
                if r + 1 < side {
                    n.push(i + side);
                }
                n
            })
            .collect();
        Map {
            name: "M2".to_owned(),
            territories: (0..side * side).map(|i| format!("Land{i}")).collect(),
            roads,
            min_start: 0,
            max_start: 15,
            max_terri: 10,
            max_units: 80,
        }
    }

    pub fn builtin(name: &str) -> Option<Map> {
        match name {
            "M1" => Some(Map::m1()),
            "M2" => Some(Map::m2()),
            _ => None,
        }
    }

    pub fn index(&self, name: &str) -> Option<u8> {
        self.territories
            .iter()
            .position(|t| t == name)
            .map(|i| i as u8)
    }

    /// The handout's standing assumptions, checked with the graph tasks' own code: the
    /// territory at fault and why this map is not simple, undirected and connected, if it is not.
    pub fn not_a_map(&self) -> Option<(usize, String)> {
        let graph = crate::task::graph::Graph::from_adjacency(
            self.roads
                .iter()
                .map(|r| r.iter().map(|&v| usize::from(v)).collect())
                .collect(),
        );
        let name = |v: usize| &self.territories[v];
        if let Some(why) = graph.not_simple_at() {
            return Some(match why {
                (u, v) if u == v => (u, format!("{} has a road to itself", name(u))),
                (u, v) => (u, format!("{} lists {} twice", name(u), name(v))),
            });
        }
        if let Some((u, v)) = graph.missing_reverse() {
            return Some((
                u,
                format!(
                    "{} has a road to {}, but {} has none back: roads go both ways",
                    name(u),
                    name(v),
                    name(v)
                ),
            ));
        }
        if let Some(v) = graph.unreached() {
            return Some((
                v,
                format!(
                    "{} cannot be reached from {}: the map must be connected",
                    name(v),
                    name(0)
                ),
            ));
        }
        None
    }
}

/// Who holds a territory, and with how many armies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holding {
    Empty,
    Held(Player, u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Territories {
    /// Bit i: territory i is Maxie's (`held[0]`) or Minnie's (`held[1]`).
    pub held: [u64; 2],
    pub armies: [u8; MAX_TERRITORIES],
    pub to_move: Player,
}

impl Territories {
    pub fn empty(to_move: Player) -> Territories {
        Territories {
            held: [0, 0],
            armies: [0; MAX_TERRITORIES],
            to_move,
        }
    }

    pub fn holding(&self, t: u8) -> Holding {
        let bit = 1u64 << t;
        let a = self.armies[usize::from(t)];
        if self.held[0] & bit != 0 {
            Holding::Held(Player::Maxie, a)
        } else if self.held[1] & bit != 0 {
            Holding::Held(Player::Minnie, a)
        } else {
            Holding::Empty
        }
    }

    pub fn set(&mut self, t: u8, h: Holding) {
        let bit = 1u64 << t;
        self.held[0] &= !bit;
        self.held[1] &= !bit;
        self.armies[usize::from(t)] = match h {
            Holding::Empty => 0,
            Holding::Held(p, a) => {
                self.held[side(p)] |= bit;
                a
            }
        };
    }

    fn total(&self, p: Player) -> u32 {
        let mut mask = self.held[side(p)];
        let mut sum = 0u32;
        while mask != 0 {
            sum += u32::from(self.armies[mask.trailing_zeros() as usize]);
            mask &= mask - 1;
        }
        sum
    }
}

fn side(p: Player) -> usize {
    match p {
        Player::Maxie => 0,
        Player::Minnie => 1,
    }
}

/// Mobilise the armies of `from` onto its neighbour `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mobilise {
    pub from: u8,
    pub to: u8,
}

/// As the SML `move = vertex * vertex` prints: `(3,4)`.
impl fmt::Display for Mobilise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.from, self.to)
    }
}

/// The moves from a position without a list of them (a search asks at every node): each
/// territory the mover holds, lowest first, onto each of its roads in the map's order.
#[derive(Clone, Debug)]
pub struct Mobilisations<'a> {
    roads: &'a [Vec<u8>],
    /// The mover's territories not started yet.
    rest: u64,
    /// The territory being mobilised from, and its roads not taken yet.
    from: u8,
    to: std::slice::Iter<'a, u8>,
    left: usize,
}

impl<'a> Mobilisations<'a> {
    fn new(roads: &'a [Vec<u8>], mine: u64) -> Mobilisations<'a> {
        let mut left = 0;
        let mut bits = mine;
        while bits != 0 {
            left += roads[bits.trailing_zeros() as usize].len();
            bits &= bits - 1;
        }
        Mobilisations {
            roads,
            rest: mine,
            from: 0,
            to: [].iter(),
            left,
        }
    }
}

impl Iterator for Mobilisations<'_> {
    type Item = Mobilise;
    fn next(&mut self) -> Option<Mobilise> {
        loop {
            if let Some(&to) = self.to.next() {
                self.left -= 1;
                return Some(Mobilise {
                    from: self.from,
                    to,
                });
            }
            if self.rest == 0 {
                return None;
            }
            self.from = self.rest.trailing_zeros() as u8;
            self.rest &= self.rest - 1;
            self.to = self.roads[usize::from(self.from)].iter();
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Mobilisations<'_> {}

#[derive(Clone, Debug)]
pub struct Riskless {
    pub map: Arc<Map>,
    pub estimator: Estimator,
    pub start: Territories,
}

impl Riskless {
    /// The map's starting position: Maxie 1 army on `max_start`, Minnie 2 on `min_start`,
    /// Maxie to move.
    pub fn new(map: Map) -> Riskless {
        let mut start = Territories::empty(Player::Maxie);
        start.set(map.max_start, Holding::Held(Player::Maxie, 1));
        start.set(map.min_start, Holding::Held(Player::Minnie, 2));
        Riskless {
            map: Arc::new(map),
            estimator: Estimator::Naive,
            start,
        }
    }

    /// Why `mv` cannot be played, if it cannot.
    pub fn illegal(&self, s: &Territories, mv: Mobilise) -> Option<String> {
        if let Status::Over(o) = self.status(s) {
            return Some(match o {
                Outcome::Winner(p) => format!("the game is over ({p} won)"),
                Outcome::Draw => "the game is over (a draw)".to_owned(),
            });
        }
        let name = |t: u8| self.map.territories[usize::from(t)].as_str();
        match s.holding(mv.from) {
            Holding::Held(p, _) if p == s.to_move => {}
            Holding::Held(p, _) => {
                return Some(format!(
                    "{} is {p}'s, and {} moves only their own armies",
                    name(mv.from),
                    s.to_move
                ))
            }
            Holding::Empty => {
                return Some(format!(
                    "{} is empty: there are no armies to mobilise",
                    name(mv.from)
                ))
            }
        }
        let roads = &self.map.roads[usize::from(mv.from)];
        if !roads.contains(&mv.to) {
            let list: Vec<&str> = roads.iter().map(|&t| name(t)).collect();
            return Some(format!(
                "{} is not next to {}: its roads lead to {}",
                name(mv.to),
                name(mv.from),
                list.join(", ")
            ));
        }
        None
    }

    /// The handout's naive estimator: Maxie's armies minus Minnie's.
    pub fn naive(&self, s: &Territories) -> i64 {
        i64::from(s.total(Player::Maxie)) - i64::from(s.total(Player::Minnie))
    }

    /// The improved estimator: the naive army difference plus 3 for each territory a player
    /// holds more than the other, since every territory trains an army every turn and the
    /// army target is what ends most games. (A term for borders an enemy army could take
    /// next move did worse in self-play; see the guide's 15-150 chapter.)
    pub fn improved(&self, s: &Territories) -> i64 {
        let count = |p: Player| i64::from(s.held[side(p)].count_ones());
        self.naive(s) + 3 * (count(Player::Maxie) - count(Player::Minnie))
    }
}

impl Game for Riskless {
    type State = Territories;
    type Move = Mobilise;
    type Moves<'a> = Mobilisations<'a>;

    fn start(&self) -> Territories {
        self.start
    }
    fn player(&self, s: &Territories) -> Player {
        s.to_move
    }
    fn status(&self, s: &Territories) -> Status {
        let holds = |p: Player| s.held[side(p)] != 0;
        match (holds(Player::Maxie), holds(Player::Minnie)) {
            (false, _) => return Status::Over(Outcome::Winner(Player::Minnie)),
            (_, false) => return Status::Over(Outcome::Winner(Player::Maxie)),
            _ => {}
        }
        let target = self.map.max_units;
        match (
            s.total(Player::Maxie) >= target,
            s.total(Player::Minnie) >= target,
        ) {
            (true, true) => Status::Over(Outcome::Draw),
            (true, false) => Status::Over(Outcome::Winner(Player::Maxie)),
            (false, true) => Status::Over(Outcome::Winner(Player::Minnie)),
            (false, false) => Status::InPlay,
        }
    }
    fn moves(&self, s: &Territories) -> Self::Moves<'_> {
        let mine = match self.status(s) {
            Status::InPlay => s.held[side(s.to_move)],
            Status::Over(_) => 0,
        };
        Mobilisations::new(&self.map.roads, mine)
    }
    fn play(&self, s: &Territories, mv: Mobilise) -> Territories {
        let me = s.to_move;
        let mut next = *s;
        let moving = u16::from(s.armies[usize::from(mv.from)]);
        next.armies[usize::from(mv.from)] = 0;
        let cap = u16::from(self.map.max_terri);
        let capped = |a: u16| a.min(cap) as u8;
        let after = match s.holding(mv.to) {
            Holding::Empty => Holding::Held(me, capped(moving)),
            Holding::Held(p, a) if p == me => Holding::Held(me, capped(u16::from(a) + moving)),
            // A battle: the larger army wins and keeps the difference; a tie is the attacker's.
            Holding::Held(p, a) => {
                let defending = u16::from(a);
                if moving >= defending {
                    Holding::Held(me, capped(moving - defending))
                } else {
                    Holding::Held(p, capped(defending - moving))
                }
            }
        };
        next.set(mv.to, after);
        // Training: every held territory gains an army, up to the cap.
        let mut held = next.held[0] | next.held[1];
        while held != 0 {
            let t = held.trailing_zeros() as usize;
            held &= held - 1;
            next.armies[t] = capped(u16::from(next.armies[t]) + 1);
        }
        next.to_move = me.other();
        next
    }
    fn estimate(&self, s: &Territories) -> Estimate {
        Estimate::Guess(match self.estimator {
            Estimator::Naive => self.naive(s),
            Estimator::Improved => self.improved(s),
        })
    }
    /// Each territory in map order: `.` empty, `X3` Maxie's with 3 armies, `O2` Minnie's.
    fn write_label(&self, s: &Territories, out: &mut String) {
        for t in 0..self.map.territories.len() as u8 {
            match s.holding(t) {
                Holding::Empty => out.push('.'),
                Holding::Held(p, a) => {
                    out.push(super::connect4::mark(p));
                    out.push_str(itoa::Buffer::new().format(a));
                }
            }
        }
    }
}

impl Playable for Riskless {
    fn name(&self) -> &'static str {
        "riskless"
    }
    fn starting_at(&self, state: Self::State) -> Self {
        Riskless {
            start: state,
            ..self.clone()
        }
    }
    fn estimating_with(&self, estimator: Estimator) -> Self {
        Riskless {
            estimator,
            ..self.clone()
        }
    }
    fn read_move(&self, text: &str) -> Result<Mobilise, String> {
        let t = text.trim();
        let words: Vec<&str> = t
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        let bad = || format!("`{t}` is not a move: write {}", self.move_syntax());
        let [from, to] = words[..] else {
            return Err(bad());
        };
        let territory = |w: &str| -> Result<u8, String> {
            if let Some(i) = self.map.index(w) {
                return Ok(i);
            }
            match w.parse::<usize>() {
                Ok(i) if i < self.map.territories.len() => Ok(i as u8),
                _ => Err(format!(
                    "`{w}` is not a territory of {}: they are {} (or their numbers 0 to {})",
                    self.map.name,
                    self.map.territories.join(", "),
                    self.map.territories.len() - 1
                )),
            }
        };
        Ok(Mobilise {
            from: territory(from)?,
            to: territory(to)?,
        })
    }
    fn why_illegal(&self, s: &Territories, mv: Mobilise) -> Option<String> {
        self.illegal(s, mv)
    }
    fn render(&self, s: &Territories) -> String {
        let width = self
            .map
            .territories
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for (i, name) in self.map.territories.iter().enumerate() {
            let h = match s.holding(i as u8) {
                Holding::Empty => "   .".to_owned(),
                Holding::Held(p, a) => format!("{} {a:>2}", super::connect4::mark(p)),
            };
            let roads: Vec<&str> = self.map.roads[i]
                .iter()
                .map(|&t| self.map.territories[usize::from(t)].as_str())
                .collect();
            out.push_str(&format!(
                "  {i:>2} {name:<width$} {h}   roads to {}\n",
                roads.join(", ")
            ));
        }
        for p in [Player::Maxie, Player::Minnie] {
            out.push_str(&format!(
                "  {p} ({}): {} territories, {} armies of {}\n",
                super::connect4::mark(p),
                s.held[side(p)].count_ones(),
                s.total(p),
                self.map.max_units
            ));
        }
        out
    }
    fn move_name(&self, mv: Mobilise) -> String {
        let name = |t: u8| self.map.territories[usize::from(t)].as_str();
        format!("{}->{}", name(mv.from), name(mv.to))
    }
    fn move_syntax(&self) -> &'static str {
        "the source and the target territory, by name or number (e.g. Land3->Land4, or 3 4)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves as first written: every road of every held territory, into a list.
    fn moves_listed(g: &Riskless, s: &Territories) -> Vec<Mobilise> {
        let mut out = Vec::new();
        if let Status::InPlay = g.status(s) {
            let mut mine = s.held[side(s.to_move)];
            while mine != 0 {
                let from = mine.trailing_zeros() as u8;
                mine &= mine - 1;
                for &to in &g.map.roads[usize::from(from)] {
                    out.push(Mobilise { from, to });
                }
            }
        }
        out
    }

    #[test]
    fn moves_without_a_list_are_the_listed_moves_in_order() {
        let mut seed = 2026u64;
        let mut checked = 0;
        for g in [Riskless::new(Map::m1()), Riskless::new(Map::m2())] {
            for _ in 0..200 {
                let mut s = g.start();
                for _ in 0..30 {
                    let moves: Vec<_> = g.moves(&s).collect();
                    let want = moves_listed(&g, &s);
                    let pairs =
                        |v: &[Mobilise]| v.iter().map(|m| (m.from, m.to)).collect::<Vec<_>>();
                    assert_eq!(pairs(&moves), pairs(&want), "at {}", label(&g, &s));
                    assert_eq!(g.moves(&s).len(), want.len());
                    checked += 1;
                    if want.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    s = g.play(&s, want[(seed >> 33) as usize % want.len()]);
                }
            }
        }
        assert!(checked > 1000);
    }

    fn label(g: &Riskless, s: &Territories) -> String {
        let mut out = String::new();
        g.write_label(s, &mut out);
        out
    }

    fn at(g: &Riskless, spots: &[(u8, Player, u8)], to_move: Player) -> Territories {
        let mut s = Territories::empty(to_move);
        for &(t, p, a) in spots {
            s.set(t, Holding::Held(p, a));
        }
        let _ = g;
        s
    }

    #[test]
    fn the_handout_maps_start_as_stated() {
        let g = Riskless::new(Map::m1());
        assert_eq!(label(&g, &g.start()), "O2..X1..");
        assert_eq!(g.map.roads[0], [1, 5]);
        assert_eq!(g.map.not_a_map(), None);
        let m2 = Riskless::new(Map::m2());
        assert_eq!(m2.map.roads[5], [1, 4, 6, 9]);
        assert_eq!(m2.map.roads[15], [11, 14]);
        assert_eq!(m2.map.not_a_map(), None);
        assert_eq!(label(&m2, &m2.start()), "O2..............X1");
    }

    #[test]
    fn the_improved_estimator_adds_territories() {
        let g = Riskless::new(Map::m1());
        assert_eq!(g.improved(&g.start()), -1);
        let s = at(
            &g,
            &[
                (1, Player::Maxie, 2),
                (2, Player::Maxie, 1),
                (4, Player::Minnie, 5),
            ],
            Player::Maxie,
        );
        assert_eq!(g.naive(&s), -2);
        assert_eq!(g.improved(&s), -2 + 3);
    }

    #[test]
    fn moves_go_from_own_territories_along_roads() {
        let g = Riskless::new(Map::m1());
        let m: Vec<String> = g.moves(&g.start()).map(|m| m.to_string()).collect();
        assert_eq!(m, ["(3,2)", "(3,4)"]);
        assert!(g
            .parse_move(&g.start(), "Land0 Land1")
            .unwrap_err()
            .contains("Minnie's"));
        assert!(g
            .parse_move(&g.start(), "3 5")
            .unwrap_err()
            .contains("not next to"));
        assert_eq!(
            g.parse_move(&g.start(), "Land3->Land4"),
            Ok(Mobilise { from: 3, to: 4 })
        );
    }

    #[test]
    fn battles_are_won_by_the_larger_army_and_ties_by_the_attacker() {
        let g = Riskless::new(Map::m1());
        let mv = Mobilise { from: 1, to: 2 };
        // Attacker 5 against 3: the attacker keeps 2, then trains to 3; the source trains to 1.
        let s = at(
            &g,
            &[(1, Player::Maxie, 5), (2, Player::Minnie, 3)],
            Player::Maxie,
        );
        assert_eq!(label(&g, &g.play(&s, mv)), ".X1X3...");
        // Attacker 3 against 5: the defender keeps 2, then trains to 3.
        let s = at(
            &g,
            &[(1, Player::Maxie, 3), (2, Player::Minnie, 5)],
            Player::Maxie,
        );
        assert_eq!(label(&g, &g.play(&s, mv)), ".X1O3...");
        // A tie: the attacker takes the territory with 0, then trains to 1.
        let s = at(
            &g,
            &[(1, Player::Maxie, 4), (2, Player::Minnie, 4)],
            Player::Maxie,
        );
        assert_eq!(label(&g, &g.play(&s, mv)), ".X1X1...");
    }

    #[test]
    fn armies_are_capped_after_merging_and_after_training() {
        let g = Riskless::new(Map::m1());
        let s = at(
            &g,
            &[(1, Player::Maxie, 7), (2, Player::Maxie, 6)],
            Player::Maxie,
        );
        // 7 + 6 = 13 is cut to the cap 9 (training cannot lift it past 9 either).
        assert_eq!(
            label(&g, &g.play(&s, Mobilise { from: 1, to: 2 })),
            ".X1X9..."
        );
    }

    #[test]
    fn the_game_ends_on_no_territory_or_the_army_target() {
        let g = Riskless::new(Map::m1());
        let s = at(&g, &[(1, Player::Maxie, 5)], Player::Minnie);
        assert_eq!(g.status(&s), Status::Over(Outcome::Winner(Player::Maxie)));
        assert_eq!(g.moves(&s).len(), 0);
        let all = |p: Player| -> Vec<(u8, Player, u8)> { (0..5).map(|t| (t, p, 8)).collect() };
        let mut spots = all(Player::Maxie);
        spots.push((5, Player::Minnie, 1));
        let s = at(&g, &spots, Player::Minnie);
        assert_eq!(g.status(&s), Status::Over(Outcome::Winner(Player::Maxie)));
    }

    #[test]
    fn a_map_that_is_not_simple_or_connected_is_named() {
        let mut m = Map::m1();
        m.roads[2].push(2);
        assert_eq!(m.not_a_map().unwrap().1, "Land2 has a road to itself");
        let mut m = Map::m1();
        m.roads[2] = vec![1];
        assert!(m
            .not_a_map()
            .unwrap()
            .1
            .contains("Land3 has a road to Land2"));
        let mut m = Map::m1();
        m.territories.push("Island".into());
        m.roads.push(vec![]);
        assert!(m
            .not_a_map()
            .unwrap()
            .1
            .starts_with("Island cannot be reached"));
    }
}

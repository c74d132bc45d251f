//! Reading a game spec: the game and its options, a position in its readable form, search
//! cases and scenarios. Every position is checked for whether it can arise, and every
//! scenario is played as it loads, so an illegal move is reported at its step.

use super::{entry, Loader, Target};
use crate::game::connect4::{self, Board, Connect4};
use crate::game::kalah::{self, Kalah};
use crate::game::nim::{Nim, NimState};
use crate::game::pig::{self, Pig, PigState};
use crate::game::riskless::{Holding, Map, Riskless, Territories, MAX_TERRITORIES};
use crate::game::scenario::{Scenario, Step};
use crate::game::subtract_square::{self, SsState, SubtractSquare};
use crate::game::tictactoe::{self, TicTacToe, TttState, Utility};
use crate::game::tippy::{self, Tippy, TippyState};
use crate::game::{Estimate, Estimator, Outcome, Playable, Player, Status};
use crate::spec::diagnostic::{did_you_mean, Diagnostic};
use crate::spec::yaml::{Node, Pos, Yaml};
use crate::spec::{Document, GameCase, GameDocument, GameSpec};

pub(in crate::spec) const GAME_TOP_KEYS: &[&str] = &[
    "version",
    "title",
    "game",
    "variant",
    "columns",
    "rows",
    "map",
    "size",
    "pits",
    "seeds",
    "capture_empty",
    "end_rule",
    "square_order",
    "k",
    "utility",
    "target",
    "dice",
    "horizon",
    "position",
    "to_move",
    "estimator",
    "sml_structure",
    "cases",
    "scenarios",
];
pub(in crate::spec) const GAME_CASE_KEYS: &[&str] = &[
    "algorithm",
    "depth",
    "dialect",
    "prune_percentage",
    "lines",
    "sml_structure",
    "rules",
    "exact",
    "check",
    "unordered",
    "points",
    "visibility",
    "estimator",
    "time_limit",
    "metrics",
    "position",
    "to_move",
    "ordering",
    "aspiration",
    "deepening",
    "move_order",
    "decimals",
];
pub(in crate::spec) const SCENARIO_KEYS: &[&str] = &["position", "to_move", "steps", "points"];
pub(in crate::spec) const STEP_KEYS: &[&str] =
    &["move", "position", "to_move", "status", "moves", "estimate"];
pub(in crate::spec) const MAP_KEYS: &[&str] = &[
    "name",
    "roads",
    "min_start",
    "max_start",
    "max_terri",
    "max_units",
];
pub(in crate::spec) const VARIANTS: &[&str] = &["standard", "popout"];

/// Every game a spec can name, one row each: its name, the settings only it reads, and how
/// its spec is read. Adding a game is one row here (and its reading of positions,
/// [`Positions`]); the list of names, the "`map` is a Riskless setting" messages and the
/// estimator checks all come from this table.
struct GameKind {
    name: &'static str,
    /// Top-level keys that belong to this game (a key may belong to several).
    settings: &'static [&'static str],
    /// When the game has one estimator: why `estimator: improved` is refused, and a hint.
    one_estimator: Option<(&'static str, Option<&'static str>)>,
    /// Reads the game's settings, then its position, cases and scenarios.
    load: Load,
}

type Load = fn(
    &Loader<'_>,
    Estimator,
    Option<(Player, Pos)>,
    Parts<'_>,
) -> Result<Option<GameDocument>, Diagnostic>;

const GAME_KINDS: &[GameKind] = &[
    GameKind {
        name: "connect4",
        settings: &["variant", "columns", "rows"],
        one_estimator: None,
        load: |l, e, t, parts| {
            let Some(g) = l.connect4(parts.entries) else {
                return Ok(None);
            };
            Ok(l.game_parts(g, e, t, parts)?.map(GameDocument::Connect4))
        },
    },
    GameKind {
        name: "riskless",
        settings: &["map"],
        one_estimator: None,
        load: |l, e, t, parts| {
            let Some((_, v)) = entry(parts.entries, "map") else {
                return Err(l
                    .error(parts.game_key.pos, "a Riskless spec needs a `map`")
                    .expected("map: M1 or M2 (the handout's), or a map of your own")
                    .found(format!("keys {}", Loader::key_list(parts.entries)))
                    .hint("add `map: M1`"));
            };
            let Some(map) = l.soft(l.riskless_map(v)) else {
                return Ok(None);
            };
            Ok(l.game_parts(Riskless::new(map), e, t, parts)?
                .map(GameDocument::Riskless))
        },
    },
    GameKind {
        name: "nim",
        settings: &[],
        one_estimator: Some((
            "Nim has one estimator",
            Some("the slides' Nim estimator is already perfect"),
        )),
        load: |l, e, t, parts| {
            Ok(l.game_parts(Nim::new(0, Player::Maxie), e, t, parts)?
                .map(GameDocument::Nim))
        },
    },
    GameKind {
        name: "subtract_square",
        settings: &["square_order"],
        one_estimator: Some((
            "subtract_square has one estimator, the course's rough_outcome",
            ROUGH_OUTCOME_HINT,
        )),
        load: |l, e, t, parts| {
            let Some(order) = l.square_order(parts.entries) else {
                return Ok(None);
            };
            let g = SubtractSquare::new(0, Player::Maxie).with_order(order);
            Ok(l.game_parts(g, e, t, parts)?
                .map(GameDocument::SubtractSquare))
        },
    },
    GameKind {
        name: "tippy",
        settings: &["size"],
        one_estimator: Some((
            "tippy has one estimator, the course's rough_outcome",
            ROUGH_OUTCOME_HINT,
        )),
        load: |l, e, t, parts| {
            let Some(g) = l.tippy(parts.entries) else {
                return Ok(None);
            };
            Ok(l.game_parts(g, e, t, parts)?.map(GameDocument::Tippy))
        },
    },
    GameKind {
        name: "kalah",
        settings: &["pits", "seeds", "capture_empty", "end_rule"],
        one_estimator: Some((
            "kalah has one estimator, the course's rough_outcome",
            ROUGH_OUTCOME_HINT,
        )),
        load: |l, e, t, parts| {
            let Some(g) = l.kalah(parts.entries) else {
                return Ok(None);
            };
            Ok(l.game_parts(g, e, t, parts)?.map(GameDocument::Kalah))
        },
    },
    GameKind {
        name: "tictactoe",
        settings: &["columns", "rows", "k", "utility"],
        one_estimator: Some((
            "tic-tac-toe has one estimator, AIMA's evaluation",
            Some("3·X2 + X1 − (3·O2 + O1), counting the lines open to each player"),
        )),
        load: |l, e, t, parts| {
            let Some(g) = l.tictactoe(parts.entries) else {
                return Ok(None);
            };
            Ok(l.game_parts(g, e, t, parts)?.map(GameDocument::TicTacToe))
        },
    },
    GameKind {
        name: "pig",
        settings: &["target", "dice", "horizon"],
        one_estimator: None,
        load: |l, e, t, parts| {
            let Some(g) = l.pig(parts.entries) else {
                return Ok(None);
            };
            Ok(l.game_parts(g, e, t, parts)?.map(GameDocument::Pig))
        },
    },
];

/// The course games' rough_outcome needs no hint.
const ROUGH_OUTCOME_HINT: Option<&str> = None;

/// The games a spec can name, in the table's order.
pub(in crate::spec) fn game_names() -> Vec<&'static str> {
    GAME_KINDS.iter().map(|g| g.name).collect()
}

fn game_kind(name: &str) -> Option<&'static GameKind> {
    GAME_KINDS.iter().find(|g| g.name == name)
}

/// Which games a key belongs to, for "`map` is a Riskless setting" messages.
fn owners(key: &str) -> Vec<&'static str> {
    GAME_KINDS
        .iter()
        .filter(|g| g.settings.contains(&key))
        .map(|g| g.name)
        .collect()
}

/// A game's own reading of positions from the spec.
trait Positions: Playable {
    /// The position `v` describes. `to_move` is the player said to move (and where it was
    /// said), if anyone said.
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<Self::State, Diagnostic>;

    /// The start position when the spec gives none, with `to_move` if given.
    fn default_position(
        &self,
        l: &Loader,
        to_move: Option<(Player, Pos)>,
        key: &Node,
    ) -> Result<Self::State, Diagnostic>;
}

impl Positions for Nim {
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<NimState, Diagnostic> {
        let n = l.integer(v, "a Nim position", "7 (sticks left)")?;
        let sticks = u64::try_from(n).map_err(|_| {
            l.error(v.pos, "a Nim position cannot have fewer than 0 sticks")
                .expected("how many sticks are left: 0 or more")
                .found(v.describe())
        })?;
        Ok(NimState {
            sticks,
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
        })
    }
    fn default_position(
        &self,
        l: &Loader,
        _: Option<(Player, Pos)>,
        key: &Node,
    ) -> Result<NimState, Diagnostic> {
        Err(l
            .error(key.pos, "a Nim spec needs a `position`")
            .expected("position: the number of sticks, like `position: 7`")
            .found("no `position`")
            .hint("the slides start games at 21 sticks or fewer"))
    }
}

impl Positions for Connect4 {
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<Board, Diagnostic> {
        let rows = l.board_rows(v)?;
        let (columns, height) = (self.columns, self.rows);
        if rows.len() > usize::from(height) {
            return Err(l
                .error(
                    rows[usize::from(height)].1,
                    "the position has more rows than the board",
                )
                .expected(format!(
                    "at most {height} rows of {columns} cells, top row first"
                ))
                .found(format!("{} rows", rows.len()))
                .hint(format!("set `rows: {}` for a taller board", rows.len())));
        }
        let mut b = Board {
            pieces: [0, 0],
            to_move: Player::Maxie,
        };
        let top = rows.len();
        for (i, (text, at)) in rows.iter().enumerate() {
            let y = (top - 1 - i) as u8;
            let cells: Vec<char> = text.chars().collect();
            if cells.len() != usize::from(columns) {
                return Err(l
                    .error(*at, format!("row {y} of the position has {} cells", cells.len()))
                    .expected(format!("{columns} cells, each `.`, `X` or `O` (rows are numbered from 0 at the bottom)"))
                    .found(format!("`{text}`"))
                    .hint(format!("the board is {columns} columns wide; set `columns:` for another width")));
            }
            for (x, &c) in cells.iter().enumerate() {
                let bit = self.bit(x as u8, y);
                match c {
                    '.' => {}
                    'X' | 'x' => b.pieces[0] |= bit,
                    'O' | 'o' => b.pieces[1] |= bit,
                    _ => {
                        return Err(l
                            .error(
                                Pos {
                                    line: at.line,
                                    col: at.col + x,
                                },
                                format!("`{c}` at column {x}, row {y} is not a cell"),
                            )
                            .expected("`.` (empty), `X` (Maxie) or `O` (Minnie)")
                            .found(format!("`{c}`"))
                            .hint(if c == '0' {
                                "that is a zero; Minnie's pieces are the letter O"
                            } else {
                                ""
                            }))
                    }
                }
            }
        }
        // Pieces fall to the lowest free row: none can hang over an empty cell.
        for (i, (_, at)) in rows.iter().enumerate() {
            let y = (top - 1 - i) as u8;
            if y == 0 {
                continue;
            }
            for x in 0..columns {
                if self.at(&b, x, y).is_some() && self.at(&b, x, y - 1).is_none() {
                    return Err(l
                        .error(
                            Pos { line: at.line, col: at.col + usize::from(x) },
                            format!("the piece at column {x}, row {y} floats over an empty cell"),
                        )
                        .expected(format!("pieces stacked up from row 0 (the bottom); row {} of column {x} is empty", y - 1))
                        .found(format!("a piece in row {y} of column {x}"))
                        .hint("a dropped piece falls to the lowest free row, so this position cannot arise"));
                }
            }
        }
        let (xs, os) = (b.pieces[0].count_ones(), b.pieces[1].count_ones());
        let derived = match xs.checked_sub(os) {
            Some(0) => Some(Player::Maxie),
            Some(1) => Some(Player::Minnie),
            _ => None,
        };
        b.to_move = match (to_move, derived) {
            (Some((p, _)), _) if self.popout => p,
            (Some((p, _)), Some(d)) if p == d => p,
            (Some((p, at)), Some(d)) => {
                return Err(l
                    .error(at, format!("it cannot be {p}'s move in this position"))
                    .expected(format!("{d}: Maxie (X) moves first and the players alternate, and the board has {xs} X and {os} O"))
                    .found(format!("to_move: {p}"))
                    .hint("leave `to_move` out and it follows from the pieces"))
            }
            (None, Some(d)) => d,
            (None, None) if self.popout => {
                return Err(l
                    .error(v.pos, "say whose move it is in this PopOut position")
                    .expected("`to_move: Maxie` or `to_move: Minnie`")
                    .found(format!("{xs} X and {os} O, which pops can make of either player's turn"))
                    .hint("in PopOut the piece counts do not tell whose move it is"))
            }
            (_, None) => {
                return Err(l
                    .error(v.pos, format!("a Connect 4 position with {xs} X and {os} O cannot arise"))
                    .expected("as many X as O (Maxie to move) or one X more (Minnie to move)")
                    .found(format!("{xs} X and {os} O"))
                    .hint("Maxie (X) moves first and the players alternate; for PopOut add `variant: popout`"))
            }
        };
        if !self.popout && self.has_four(b.pieces[0]) && self.has_four(b.pieces[1]) {
            return Err(l
                .error(v.pos, "both players have four in a row")
                .expected("at most one four: the game ends at the first")
                .found("an X four and an O four")
                .hint("only a PopOut pop can make two fours at once (`variant: popout`)"));
        }
        Ok(b)
    }
    fn default_position(
        &self,
        _: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<Board, Diagnostic> {
        Ok(Board {
            pieces: [0, 0],
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
        })
    }
}

impl Positions for Riskless {
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<Territories, Diagnostic> {
        let map = &self.map;
        let entries = l.map(v, "a Riskless position").map_err(|d| {
            d.hint("list the held territories, like `position: {Land0: Minnie 2, Land3: Maxie 1}`; the rest are empty")
        })?;
        l.keys(entries, "the position");
        let mut s = Territories::empty(to_move.map_or(Player::Maxie, |t| t.0));
        let names: Vec<&str> = map.territories.iter().map(String::as_str).collect();
        for (k, h) in entries {
            let name = k.scalar().unwrap_or("");
            let Some(t) = map.index(name) else {
                return Err(l.not_one_of(
                    k,
                    format!("`{name}` is not a territory of {}", map.name),
                    &names,
                ));
            };
            let text = h.scalar().unwrap_or("").trim().to_owned();
            let words: Vec<&str> = text.split_whitespace().collect();
            let bad = || {
                l.error(h.pos, format!("cannot read who holds {name}"))
                    .expected("`Maxie 3`, `Minnie 2` or `empty`")
                    .found(h.describe())
            };
            let holding = match words[..] {
                ["empty" | "Empty"] => Holding::Empty,
                [who, n] => {
                    let p = match who.to_ascii_lowercase().as_str() {
                        "maxie" => Player::Maxie,
                        "minnie" => Player::Minnie,
                        _ => return Err(bad()),
                    };
                    let armies: u64 = n.parse().map_err(|_| bad())?;
                    if armies > u64::from(map.max_terri) {
                        return Err(l
                            .error(h.pos, format!("{name} has {armies} armies, over the cap"))
                            .expected(format!(
                                "at most {} armies on a territory (max_terri of {})",
                                map.max_terri, map.name
                            ))
                            .found(format!("{who} {armies}"))
                            .hint("training stops at the cap, so this position cannot arise"));
                    }
                    Holding::Held(p, armies as u8)
                }
                _ => return Err(bad()),
            };
            s.set(t, holding);
        }
        if s.held == [0, 0] {
            return Err(l
                .error(v.pos, "no one holds a territory in this position")
                .expected("at least one held territory")
                .found("every territory empty")
                .hint(
                    "the game ends when a player holds none, so at most one player can be without",
                ));
        }
        Ok(s)
    }
    fn default_position(
        &self,
        _: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<Territories, Diagnostic> {
        let mut s = Riskless::new((*self.map).clone()).start;
        s.to_move = to_move.map_or(Player::Maxie, |t| t.0);
        Ok(s)
    }
}

impl Positions for SubtractSquare {
    /// `p1:6` (the course's abbreviation), or a total with `to_move`.
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<SsState, Diagnostic> {
        let text = v.scalar().filter(|_| !v.is_null()).unwrap_or("").trim();
        let (said, digits) = match text.split_once(':') {
            Some((p, n)) => {
                let p = match p.trim().to_ascii_lowercase().as_str() {
                    "p1" => Player::Maxie,
                    "p2" => Player::Minnie,
                    _ => {
                        return Err(l
                            .error(
                                v.pos,
                                format!("`{}` is not a player of Subtract Square", p.trim()),
                            )
                            .expected("p1 or p2 before the colon, like `p1:6`")
                            .found(v.describe()))
                    }
                };
                (Some(p), n.trim())
            }
            None => (None, text),
        };
        let total: i128 = digits.parse().map_err(|_| {
            l.error(v.pos, "cannot read the Subtract Square position")
                .expected("`p1:6` (the next player and the current total) or a total like 6")
                .found(v.describe())
        })?;
        if total < 0 {
            return Err(l
                .error(v.pos, "a Subtract Square total cannot be below 0")
                .expected("a total of 0 or more")
                .found(format!("{total}"))
                .hint(
                    "moves subtract squares no larger than the total, so it never goes below 0",
                ));
        }
        if total > i128::from(subtract_square::MAX_TOTAL) {
            return Err(l
                .error(v.pos, "the Subtract Square total is too large")
                .expected(format!("at most {}", subtract_square::MAX_TOTAL))
                .found(format!("{total}")));
        }
        let to_move = match (said, to_move) {
            (Some(p), Some((q, at))) if p != q => {
                return Err(l
                    .error(
                        at,
                        format!(
                            "the position says {} moves, and `to_move` says {}",
                            p.course_name(),
                            q.course_name()
                        ),
                    )
                    .expected(format!("to_move: {} (or no `to_move`)", p.course_name()))
                    .found(format!("to_move: {}", q.course_name())))
            }
            (Some(p), _) => p,
            (None, t) => t.map_or(Player::Maxie, |t| t.0),
        };
        Ok(SsState {
            total: total as u64,
            to_move,
        })
    }
    fn default_position(
        &self,
        l: &Loader,
        _: Option<(Player, Pos)>,
        key: &Node,
    ) -> Result<SsState, Diagnostic> {
        Err(l
            .error(key.pos, "a Subtract Square spec needs a `position`")
            .expected("position: the next player and the total, like `position: p1:6`")
            .found("no `position`"))
    }
}

impl Positions for Tippy {
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<TippyState, Diagnostic> {
        let n = self.size;
        let grid = Grid {
            columns: n,
            rows: n,
            marks: "`.` (empty), `X` (p1) or `O` (p2)",
            size_hint: &|rows| format!("set `size: {rows}` for another board"),
            width_hint: &format!("the board is {n}×{n}; set `size:` for another"),
            cell_name: &|row, col| format!("({},{})", col + 1, row + 1),
        };
        let cells = l.xo_cells(v, &grid)?;
        let mut s = TippyState {
            cells,
            to_move: Player::Maxie,
        };
        let (xs, os) = (s.cells[0].count_ones(), s.cells[1].count_ones());
        // p1 starts unless the position has one O more (a game p2 started).
        let derived: &[Player] = match i64::from(xs) - i64::from(os) {
            0 => &[Player::Maxie, Player::Minnie],
            1 => &[Player::Minnie],
            -1 => &[Player::Maxie],
            _ => &[],
        };
        s.to_move = match (to_move, derived) {
            (_, []) => {
                return Err(l
                    .error(
                        v.pos,
                        format!("a Tippy position with {xs} X and {os} O cannot arise"),
                    )
                    .expected("as many X as O, or one more of either (the players alternate)")
                    .found(format!("{xs} X and {os} O"))
                    .hint("p1 (X) and p2 (O) take turns claiming one cell each"))
            }
            (Some((p, _)), d) if d.contains(&p) => p,
            (Some((p, at)), d) => {
                return Err(l
                    .error(
                        at,
                        format!("it cannot be {}'s move in this position", p.course_name()),
                    )
                    .expected(format!(
                        "{}: the board has {xs} X and {os} O",
                        d[0].course_name()
                    ))
                    .found(format!("to_move: {}", p.course_name()))
                    .hint("leave `to_move` out and it follows from the cells"))
            }
            (None, d) => d[0],
        };
        if self.has_tippy(s.cells[0]) && self.has_tippy(s.cells[1]) {
            return Err(l
                .error(v.pos, "both players have a tippy")
                .expected("at most one tippy: the game ends at the first")
                .found("an X tippy and an O tippy"));
        }
        Ok(s)
    }
    fn default_position(
        &self,
        _: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<TippyState, Diagnostic> {
        Ok(TippyState {
            cells: [0, 0],
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
        })
    }
}

impl Positions for TicTacToe {
    /// Rows of `.XO`, top first. X moves first, so the counts say who moves; a position with
    /// O ahead, X two ahead, two winners, or a winner who did not make the last move cannot
    /// arise.
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<TttState, Diagnostic> {
        let (m, n) = (self.columns, self.rows);
        let grid = Grid {
            columns: m,
            rows: n,
            marks: "`.` (empty), `X` or `O`",
            size_hint: &|rows| format!("set `rows: {rows}` for another board"),
            width_hint: &format!("the board is {m} columns × {n} rows; set `columns:` for another"),
            cell_name: &|row, col| format!("({},{})", row + 1, col + 1),
        };
        let cells = l.xo_cells(v, &grid)?;
        let (xs, os) = (cells[0].count_ones(), cells[1].count_ones());
        let derived = match i64::from(xs) - i64::from(os) {
            0 => Player::Maxie,
            1 => Player::Minnie,
            _ => {
                return Err(l
                    .error(
                        v.pos,
                        format!("a tic-tac-toe position with {xs} X and {os} O cannot arise"),
                    )
                    .expected("as many X as O (X to move) or one X more (O to move)")
                    .found(format!("{xs} X and {os} O"))
                    .hint(if os > xs {
                        "X moves first, so O is never ahead"
                    } else {
                        "the players alternate, one cell each"
                    }))
            }
        };
        if let Some((p, at)) = to_move.filter(|(p, _)| *p != derived) {
            let name = |p: Player| crate::game::Game::player_name(self, p);
            return Err(l
                .error(
                    at,
                    format!("it cannot be {}'s move in this position", name(p)),
                )
                .expected(format!(
                    "{}: the board has {xs} X and {os} O",
                    name(derived)
                ))
                .found(format!("to_move: {}", p.name()))
                .hint("leave `to_move` out and it follows from the cells"));
        }
        let (x_won, o_won) = (self.has_line(cells[0]), self.has_line(cells[1]));
        let k = self.k;
        let impossible = if x_won && o_won {
            Some((
                "both players have a line".to_owned(),
                format!("at most one {k} in a row: the game ends at the first"),
                "an X line and an O line".to_owned(),
            ))
        } else if x_won && derived == Player::Maxie {
            Some((
                "X has won, yet O has moved since".to_owned(),
                "one X more than O when X has a line (X's move ended the game)".to_owned(),
                format!("{xs} X and {os} O"),
            ))
        } else if o_won && derived == Player::Minnie {
            Some((
                "O has won, yet X has moved since".to_owned(),
                "as many X as O when O has a line (O's move ended the game)".to_owned(),
                format!("{xs} X and {os} O"),
            ))
        } else {
            None
        };
        if let Some((message, expected, found)) = impossible {
            return Err(l
                .error(v.pos, message)
                .expected(expected)
                .found(found)
                .hint("no game of tic-tac-toe reaches this position"));
        }
        Ok(TttState {
            cells,
            to_move: derived,
        })
    }
    fn default_position(
        &self,
        l: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<TttState, Diagnostic> {
        if let Some((Player::Minnie, at)) = to_move {
            return Err(l
                .error(at, "it cannot be O's move on the empty board")
                .expected("X: X moves first")
                .found("to_move: Minnie")
                .hint("leave `to_move` out, or give a `position` with one X more than O"));
        }
        Ok(TttState {
            cells: [0, 0],
            to_move: Player::Maxie,
        })
    }
}

/// How a board of `.XO` rows is read and its mistakes described ([`Loader::xo_cells`]).
struct Grid<'a> {
    columns: u8,
    rows: u8,
    /// The marks a cell may hold, for "expected".
    marks: &'a str,
    /// The hint for a wrong number of rows, given the number found.
    size_hint: &'a dyn Fn(usize) -> String,
    /// The hint for a row of the wrong width.
    width_hint: &'a str,
    /// A cell as the game writes it, from its 0-based row and column.
    cell_name: &'a dyn Fn(usize, usize) -> String,
}

impl Loader<'_> {
    /// X's and O's cells (bit `row * columns + col`) of a board written as rows of `.`, `X`
    /// and `O`, top first: a YAML list, a `|` block, or one line with `/` between the rows.
    fn xo_cells(&self, v: &Node, g: &Grid) -> Result<[u64; 2], Diagnostic> {
        let (m, n) = (usize::from(g.columns), usize::from(g.rows));
        let mut rows = self.board_rows(v)?;
        // One line may hold every row: `X.../.O../..../....`.
        if rows.len() == 1 && rows[0].0.contains('/') {
            let (text, at) = rows.remove(0);
            let mut col = at.col;
            for part in text.split('/') {
                rows.push((part.to_owned(), Pos { line: at.line, col }));
                col += part.chars().count() + 1;
            }
        }
        if rows.len() != n {
            let at = rows.get(n).map_or(v.pos, |r| r.1);
            let board = if m == n {
                format!("{n}")
            } else {
                format!("{n} rows")
            };
            return Err(self
                .error(
                    at,
                    format!(
                        "the position has {} rows, and the board {board}",
                        rows.len()
                    ),
                )
                .expected(format!("{n} rows of {m} cells, top row first"))
                .found(format!("{} rows", rows.len()))
                .hint((g.size_hint)(rows.len())));
        }
        let mut cells = [0u64; 2];
        for (y, (text, at)) in rows.iter().enumerate() {
            let row: Vec<char> = text.chars().collect();
            if row.len() != m {
                return Err(self
                    .error(
                        *at,
                        format!("row {} of the position has {} cells", y + 1, row.len()),
                    )
                    .expected(format!("{m} cells, each `.`, `X` or `O`"))
                    .found(format!("`{text}`"))
                    .hint(g.width_hint));
            }
            for (x, &c) in row.iter().enumerate() {
                let bit = 1u64 << (y * m + x);
                match c {
                    '.' => {}
                    'X' | 'x' => cells[0] |= bit,
                    'O' | 'o' => cells[1] |= bit,
                    _ => {
                        return Err(self
                            .error(
                                Pos {
                                    line: at.line,
                                    col: at.col + x,
                                },
                                format!("`{c}` at {} is not a cell", (g.cell_name)(y, x)),
                            )
                            .expected(g.marks)
                            .found(format!("`{c}`"))
                            .hint(if c == '0' {
                                "that is a zero; O is the letter O"
                            } else {
                                ""
                            }))
                    }
                }
            }
        }
        Ok(cells)
    }
}

impl Positions for Pig {
    /// `{scores: [3, 5], turn_total: 4, decisions: 0}`; who is on turn comes from `to_move` (p1
    /// by default); `decisions` (rolls and stops so far, for the horizon) defaults to 0.
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<PigState, Diagnostic> {
        let entries = l
            .map(v, "a Pig position")
            .map_err(|d| d.hint("write `{scores: [3, 5], turn_total: 4}` (p1's score first)"))?;
        let known = ["scores", "turn_total", "decisions"];
        for (k, _) in entries {
            if !known.contains(&k.scalar().unwrap_or("")) {
                return Err(l.unknown_key(k, &known, "a Pig position"));
            }
        }
        let mut s = PigState {
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
            ..self.start
        };
        let number = |n: &Node, what: &str| -> Result<u32, Diagnostic> {
            let x = l.integer(n, what, "0")?;
            u32::try_from(x)
                .ok()
                .filter(|&x| x <= pig::MAX_TARGET)
                .ok_or_else(|| {
                    l.error(n.pos, format!("{what} is out of range"))
                        .expected(format!("0 to {}", pig::MAX_TARGET))
                        .found(n.describe())
                })
        };
        if let Some((_, sc)) = entry(entries, "scores") {
            let Yaml::Seq(items) = &sc.yaml else {
                return Err(l
                    .error(sc.pos, "`scores` must be a list of two")
                    .expected("[p1's score, p2's score]")
                    .found(sc.describe()));
            };
            if items.len() != 2 {
                return Err(l
                    .error(sc.pos, "`scores` must be a list of two")
                    .expected("[p1's score, p2's score]")
                    .found(format!("{} numbers", items.len())));
            }
            s.scores = [
                number(&items[0], "p1's score")?,
                number(&items[1], "p2's score")?,
            ];
            if s.scores.iter().all(|&x| x >= self.target) {
                return Err(l
                    .error(sc.pos, "both players have reached the target")
                    .expected(format!(
                        "at most one score of {} or more: the game ends at the first",
                        self.target
                    ))
                    .found(format!("{} and {}", s.scores[0], s.scores[1])));
            }
        }
        if let Some((_, t)) = entry(entries, "turn_total") {
            s.turn_total = number(t, "the turn total")?;
        }
        // The decisions made so far count towards the horizon (OpenSpiel's total moves).
        if let Some((_, d)) = entry(entries, "decisions") {
            s.decisions = number(d, "the number of decisions")?;
        }
        Ok(s)
    }
    fn default_position(
        &self,
        _: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<PigState, Diagnostic> {
        Ok(PigState {
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
            ..self.start
        })
    }
}

impl Positions for Kalah {
    /// `{p1: [4, 4, 4, 4, 4, 4], p2: [4, 4, 4, 4, 4, 4], kalahs: [0, 0]}`, rows in sowing
    /// order; the seeds must add up to the game's.
    fn position(
        &self,
        l: &Loader,
        v: &Node,
        to_move: Option<(Player, Pos)>,
    ) -> Result<kalah::Board, Diagnostic> {
        let example = "{p1: [4, 4, 4, 4, 4, 4], p2: [4, 4, 4, 4, 4, 4], kalahs: [0, 0]}";
        let entries = l.map(v, "a Kalah position").map_err(|d| {
            d.hint(format!(
                "write both rows in sowing order and the kalahs: {example}"
            ))
        })?;
        l.keys(entries, "the position");
        for (k, _) in entries {
            let key = k.scalar().unwrap_or("");
            if !["p1", "p2", "kalahs"].contains(&key) {
                return Err(l.not_one_of(
                    k,
                    format!("`{key}` is not part of a Kalah position"),
                    &["p1", "p2", "kalahs"],
                ));
            }
        }
        let need = |key: &str| {
            entry(entries, key).map(|(_, n)| n).ok_or_else(|| {
                l.error(v.pos, format!("the position has no `{key}`"))
                    .expected(format!("`p1`, `p2` and `kalahs`, like {example}"))
                    .found(format!("keys {}", Loader::key_list(entries)))
            })
        };
        let counts = |node: &Node, what: &str, want: usize| -> Result<Vec<u16>, Diagnostic> {
            let Yaml::Seq(items) = &node.yaml else {
                return Err(l
                    .error(node.pos, format!("{what} must be a list of seed counts"))
                    .expected(format!("{want} whole numbers, like [4, 4, 4]"))
                    .found(node.describe()));
            };
            if items.len() != want {
                return Err(l
                    .error(node.pos, format!("{what} has {} entries", items.len()))
                    .expected(format!(
                        "{want}: {}",
                        if what == "`kalahs`" {
                            "p1's kalah, then p2's".to_owned()
                        } else {
                            format!("one per pit (the game has {} pits a side)", self.pits)
                        }
                    ))
                    .found(format!("{}", items.len()))
                    .hint("set `pits:` for another board"));
            }
            items
                .iter()
                .map(|it| {
                    let n = l.integer(it, "a seed count", "4")?;
                    u16::try_from(n).map_err(|_| {
                        l.error(it.pos, format!("{what} cannot hold {n} seeds"))
                            .expected("0 seeds or more")
                            .found(it.describe())
                            .hint(if n < 0 {
                                "a pit holds no fewer than 0 seeds"
                            } else {
                                "that is far more seeds than a game holds"
                            })
                    })
                })
                .collect()
        };
        let p1 = counts(need("p1")?, "p1's row", self.pits)?;
        let p2 = counts(need("p2")?, "p2's row", self.pits)?;
        let kalahs_node = need("kalahs")?;
        let kalahs = counts(kalahs_node, "`kalahs`", 2)?;
        let mut b = kalah::Board {
            pits: [[0; kalah::MAX_PITS]; 2],
            kalahs: [kalahs[0], kalahs[1]],
            to_move: to_move.map_or(Player::Maxie, |t| t.0),
        };
        b.pits[0][..self.pits].copy_from_slice(&p1);
        b.pits[1][..self.pits].copy_from_slice(&p2);
        let want = 2 * self.pits as u32 * u32::from(self.seeds);
        let total = self.total(&b);
        if total != want {
            return Err(l
                .error(v.pos, format!("the position holds {total} seeds, and the game {want}"))
                .expected(format!("{want} seeds in all: {} pits a side of {} seeds", self.pits, self.seeds))
                .found(format!("{} in p1's row, {} in p2's, {} and {} in the kalahs", p1.iter().map(|&n| u32::from(n)).sum::<u32>(), p2.iter().map(|&n| u32::from(n)).sum::<u32>(), kalahs[0], kalahs[1]))
                .hint("seeds are never added or taken away; set `seeds:` if the game started with another number"));
        }
        // A side with no seeds while the other has some cannot be the player to move's, nor
        // anyone's when an empty row ends the game.
        let mover = kalah::side(b.to_move);
        let empty = |s: usize| b.pits[s][..self.pits].iter().all(|&n| n == 0);
        if self.rules.end == kalah::EndRule::EitherSideEmpty && empty(0) != empty(1) {
            let who = if empty(0) {
                Player::Maxie
            } else {
                Player::Minnie
            };
            return Err(l
                .error(v.pos, format!("{}'s row is empty and the game goes on", who.course_name()))
                .expected("both rows with seeds, or both empty (under `end_rule: either_side_empty` the game ends the moment a row is empty)")
                .found(format!("{}'s row empty", who.course_name()))
                .hint("write the position after the sweep: every seed in the kalahs, or use `end_rule: cs10`"));
        }
        if empty(mover) && !empty(1 - mover) {
            return Err(l
                .error(v.pos, format!("{} is to move with no seeds to sow", b.to_move.course_name()))
                .expected("seeds on the mover's side (the game ends, and the other side sweeps, the moment a player to move has none)")
                .found(format!("{}'s row empty", b.to_move.course_name()))
                .hint("write the position after the sweep: every seed in the kalahs"));
        }
        Ok(b)
    }
    fn default_position(
        &self,
        _: &Loader,
        to_move: Option<(Player, Pos)>,
        _: &Node,
    ) -> Result<kalah::Board, Diagnostic> {
        let mut b = self.start;
        b.to_move = to_move.map_or(Player::Maxie, |t| t.0);
        Ok(b)
    }
}

impl Loader<'_> {
    /// `pits:` (1 to 15, default 6), `seeds:` (1 to 100, default 4), `capture_empty:` and
    /// `end_rule:` (CS10's rules by default).
    fn kalah(&self, entries: &[(Node, Node)]) -> Option<Kalah> {
        let number = |key: &str,
                      default: i64,
                      range: std::ops::RangeInclusive<i64>,
                      why: &str|
         -> Option<i64> {
            let Some((_, v)) = entry(entries, key) else {
                return Some(default);
            };
            let n = self.soft(self.integer(v, &format!("`{key}`"), &default.to_string()))?;
            if range.contains(&n) {
                return Some(n);
            }
            self.problem(
                self.error(
                    v.pos,
                    format!("`{key}` must be {} to {}", range.start(), range.end()),
                )
                .expected(format!(
                    "{key}: {} to {} (default {default})",
                    range.start(),
                    range.end()
                ))
                .found(v.describe())
                .hint(why.to_owned()),
            );
            None
        };
        let pits = number(
            "pits",
            6,
            1..=kalah::MAX_PITS as i64,
            "a side needs at least one pit; the notes play 6",
        );
        let seeds = number(
            "seeds",
            4,
            1..=i64::from(kalah::MAX_SEEDS),
            "the notes start with 4 seeds a pit",
        );
        let capture_empty = match entry(entries, "capture_empty") {
            None => Some(false),
            Some((_, v)) => match v.scalar() {
                Some("true") => Some(true),
                Some("false") => Some(false),
                _ => {
                    self.problem(
                        self.error(v.pos, "`capture_empty` must be true or false")
                            .expected("true (capture the lone seed even when the opposite pit is empty) or false (the notes' rule)")
                            .found(v.describe()),
                    );
                    None
                }
            },
        };
        let end = match entry(entries, "end_rule") {
            None => Some(kalah::EndRule::Cs10),
            Some((_, v)) => match v.scalar() {
                Some("cs10") => Some(kalah::EndRule::Cs10),
                Some("either_side_empty") => Some(kalah::EndRule::EitherSideEmpty),
                _ => {
                    self.problem(
                        self.error(v.pos, "`end_rule` must be cs10 or either_side_empty")
                            .expected("cs10 (the notes: the game ends when the player to move has no seeds, and the opponent sweeps their own) or either_side_empty (the game ends as soon as a row is empty, and each player sweeps their own)")
                            .found(v.describe()),
                    );
                    None
                }
            },
        };
        let rules = kalah::Rules {
            end: end?,
            capture_empty: capture_empty?,
        };
        Some(Kalah::new(pits? as usize, seeds? as u16, rules))
    }
}

impl Loader<'_> {
    /// `target:` (default 100), `dice:` (6) and `horizon:` (1000) of a Pig game.
    fn pig(&self, entries: &[(Node, Node)]) -> Option<Pig> {
        let number = |key: &str,
                      default: i64,
                      range: std::ops::RangeInclusive<i64>|
         -> Option<i64> {
            let Some((_, v)) = entry(entries, key) else {
                return Some(default);
            };
            let n = self.soft(self.integer(v, &format!("`{key}`"), &default.to_string()))?;
            if range.contains(&n) {
                return Some(n);
            }
            self.problem(
                self.error(v.pos, format!("`{key}` is out of range"))
                    .expected(format!("{} to {}", range.start(), range.end()))
                    .found(v.describe())
                    .hint("OpenSpiel's pig plays to 100 with a 6-faced die; searches want small targets, like 10"),
            );
            None
        };
        let target = number("target", 100, 1..=i64::from(pig::MAX_TARGET))?;
        let dice = number("dice", 6, 2..=i64::from(pig::MAX_DICE))?;
        let horizon = number("horizon", 1000, 1..=1_000_000)?;
        Some(Pig::new(target as u32, dice as u8, horizon as u32))
    }

    /// `columns:`, `rows:` and `k:` of an m,n,k-game (3, 3, 3 by default) and its `utility:`.
    fn tictactoe(&self, entries: &[(Node, Node)]) -> Option<TicTacToe> {
        let number = |key: &str, default: u64| -> Option<(u64, Option<Pos>)> {
            match entry(entries, key) {
                None => Some((default, None)),
                Some((_, v)) => {
                    let n = self.soft(self.integer(v, &format!("`{key}`"), "3"))?;
                    Some((u64::try_from(n).unwrap_or(0), Some(v.pos)))
                }
            }
        };
        let (columns, c_at) = number("columns", 3)?;
        let (rows, r_at) = number("rows", 3)?;
        let (k, k_at) = number("k", 3)?;
        let board = match tictactoe::check_size(columns, rows, k) {
            Ok((m, n, k)) => TicTacToe::new(m, n, k),
            Err(why) => {
                let at = if (1..=u64::from(tictactoe::MAX_SIDE)).contains(&columns)
                    && (1..=u64::from(tictactoe::MAX_SIDE)).contains(&rows)
                {
                    k_at.or(c_at).or(r_at)
                } else {
                    c_at.or(r_at).or(k_at)
                };
                self.problem(
                    self.error(at.unwrap_or(Pos { line: 1, col: 1 }), why)
                        .expected(format!(
                            "`columns` and `rows` from 1 to {}, and `k` from 1 to the longer side",
                            tictactoe::MAX_SIDE
                        ))
                        .found(format!("columns: {columns}, rows: {rows}, k: {k}"))
                        .hint("tic-tac-toe is columns: 3, rows: 3, k: 3 (the defaults)"),
                );
                return None;
            }
        };
        let Some((_, u)) = entry(entries, "utility") else {
            return Some(board);
        };
        let es = self.soft(self.map(u, "`utility`"))?;
        let mut utility = Utility::default();
        for (key, value) in es {
            let slot = match key.scalar() {
                Some("win") => &mut utility.win,
                Some("draw") => &mut utility.draw,
                Some("loss") => &mut utility.loss,
                _ => {
                    self.problem(self.unknown_key(key, &["win", "draw", "loss"], "`utility`"));
                    continue;
                }
            };
            *slot = self.soft(self.integer(
                value,
                &format!("`utility.{}`", key.scalar().unwrap_or("")),
                "1",
            ))?;
        }
        if utility.loss > utility.draw || utility.draw > utility.win {
            self.problem(
                self.error(
                    u.pos,
                    "the utility does not rank X's win above a draw above X's loss",
                )
                .expected("win ≥ draw ≥ loss, as X's numbers")
                .found(format!(
                    "win: {}, draw: {}, loss: {}",
                    utility.win, utility.draw, utility.loss
                ))
                .hint("utilities are X's: O's win is X's loss (AIMA: win 1, draw 0, loss -1)"),
            );
            return None;
        }
        Some(board.with_utility(utility))
    }

    /// `square_order:` of Subtract Square's moves (default the course's, largest first).
    fn square_order(&self, entries: &[(Node, Node)]) -> Option<subtract_square::SquareOrder> {
        use subtract_square::SquareOrder;
        let Some((_, v)) = entry(entries, "square_order") else {
            return Some(SquareOrder::default());
        };
        let names: Vec<&str> = SquareOrder::ALL.iter().map(|o| o.name()).collect();
        match v.scalar().and_then(SquareOrder::parse) {
            Some(order) => Some(order),
            None => {
                self.problem(
                    self.not_one_of(v, "unknown order of Subtract Square's moves", &names)
                        .hint("the course's subtract_square_state.py lists the largest square first (largest_first, the default)"),
                );
                None
            }
        }
    }

    /// `size:` of a Tippy board (3 to 8, default 4).
    fn tippy(&self, entries: &[(Node, Node)]) -> Option<Tippy> {
        let Some((_, v)) = entry(entries, "size") else {
            return Some(Tippy::new(4));
        };
        let n = self.soft(self.integer(v, "`size`", "4"))?;
        if (i64::from(tippy::MIN_SIZE)..=i64::from(tippy::MAX_SIZE)).contains(&n) {
            return Some(Tippy::new(n as u8));
        }
        self.problem(
            self.error(v.pos, "a Tippy board is 3×3 to 8×8")
                .expected(format!(
                    "`size:` from {} to {}",
                    tippy::MIN_SIZE,
                    tippy::MAX_SIZE
                ))
                .found(v.describe())
                .hint(if n < i64::from(tippy::MIN_SIZE) {
                    "a tippy is 3 cells wide, so a smaller board could never be won"
                } else {
                    "the course plays on 4×4; larger boards could never be searched"
                }),
        );
        None
    }
}

impl Loader<'_> {
    /// `message` at `v`, which should have been one of `names`: says which, and the nearest.
    fn not_one_of(&self, v: &Node, message: impl Into<String>, names: &[&str]) -> Diagnostic {
        let text = v.scalar().unwrap_or("");
        let d = self
            .error(v.pos, message)
            .expected(format!("one of {}", names.join(", ")))
            .found(v.describe());
        match did_you_mean(text, names) {
            Some(n) => d.hint(format!("did you mean `{n}`?")),
            None => d,
        }
    }

    /// A game spec (the document has a `game` key).
    pub(super) fn game_spec(
        &self,
        doc: &Node,
        entries: &[(Node, Node)],
    ) -> Result<Option<Document>, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        let (game_key, game_value) = get("game").expect("called on specs with `game`");
        let name = game_value.scalar().unwrap_or("");
        let Some(kind) = game_kind(name) else {
            let d = self.not_one_of(game_value, "unknown game", &game_names());
            return Err(match name {
                "popout" => d.hint("PopOut is `game: connect4` with `variant: popout`"),
                _ => d,
            });
        };
        let mut title = None;
        for (k, v) in entries {
            let key = k.scalar().unwrap_or("");
            match key {
                "version" => _ = self.soft(self.version(v)),
                "title" => title = self.soft(self.string(v, "title")),
                "sml_structure" => _ = self.soft(self.sml_structure(v)),
                "root_player" | "move_names" | "tree" | "task" => self.problem(
                    self.error(k.pos, format!("`{key}` is not a setting of a game spec"))
                        .expected(format!("one of {}", GAME_TOP_KEYS.join(", ")))
                        .found(format!("`{key}`"))
                        .hint(match key {
                            "root_player" => "a game position says who moves with `to_move`",
                            "move_names" => "a game's moves have names of their own",
                            _ => "a spec has one of `tree`, `task` or `game`",
                        }),
                ),
                _ if !GAME_TOP_KEYS.contains(&key) => {
                    self.problem(self.unknown_key(k, GAME_TOP_KEYS, "the spec"))
                }
                _ => match owners(key) {
                    gs if !gs.is_empty() && !gs.contains(&kind.name) => self.problem(
                        self.error(
                            k.pos,
                            format!(
                                "`{key}` is a {} setting, and this spec's game is {}",
                                gs.join(" and "),
                                kind.name
                            ),
                        )
                        .expected(format!("settings of {}", kind.name))
                        .found(format!("`{key}`"))
                        .hint("remove it"),
                    ),
                    _ => {}
                },
            }
        }
        let estimator = match get("estimator") {
            Some((_, v)) => self.soft(self.estimator(v, Some(kind))),
            None => Some(Estimator::Naive),
        };
        let to_move = match get("to_move") {
            Some((_, v)) => self
                .soft(self.player_for(v, "to_move"))
                .map(|p| Some((p, v.pos))),
            None => Some(None),
        };
        let position = get("position").map(|(_, v)| v);
        let parts = Parts {
            doc,
            game_key,
            entries,
            title,
            position,
        };
        let (Some(estimator), Some(to_move)) = (estimator, to_move) else {
            return Ok(None);
        };
        Ok((kind.load)(self, estimator, to_move, parts)?.map(Document::Game))
    }

    fn connect4(&self, entries: &[(Node, Node)]) -> Option<Connect4> {
        let get = |k: &str| entry(entries, k);
        let size = |key: &str, default: u64| -> Option<(u64, Pos)> {
            match get(key) {
                None => Some((default, Pos { line: 1, col: 1 })),
                Some((_, v)) => {
                    let n = self.soft(self.integer(v, &format!("`{key}`"), "7"))?;
                    match u64::try_from(n) {
                        Ok(n) if n > 0 => Some((n, v.pos)),
                        _ => {
                            self.problem(
                                self.error(v.pos, format!("`{key}` must be 1 or more"))
                                    .expected(format!("how many {key} the board has, like 7"))
                                    .found(v.describe()),
                            );
                            None
                        }
                    }
                }
            }
        };
        let variant = match get("variant") {
            None => Some(false),
            Some((_, v)) => match v.scalar() {
                Some("standard") => Some(false),
                Some("popout") => Some(true),
                _ => {
                    self.problem(self.not_one_of(v, "unknown Connect 4 variant", VARIANTS));
                    None
                }
            },
        };
        let (columns, rows, popout) = (size("columns", 7)?, size("rows", 6)?, variant?);
        match connect4::check_size(columns.0, rows.0) {
            Ok((c, r)) => Some(Connect4::new(c, r, popout)),
            Err(why) => {
                self.problem(
                    self.error(
                        columns.1.max(rows.1),
                        "the board cannot be searched at this size",
                    )
                    .expected(format!(
                        "columns × (rows + 1) at most {}",
                        connect4::MAX_BITS
                    ))
                    .found(why)
                    .hint("the default board is 7 columns × 6 rows"),
                );
                None
            }
        }
    }

    /// `map: M1`, `map: M2`, or a map of one's own.
    fn riskless_map(&self, v: &Node) -> Result<Map, Diagnostic> {
        if let Some(name) = v.scalar().filter(|_| !v.is_null()) {
            return Map::builtin(name).ok_or_else(|| {
                self.not_one_of(
                    v,
                    format!("there is no built-in map `{name}`"),
                    &["M1", "M2"],
                )
                .expected("M1 (a ring of six), M2 (a 4×4 grid), or a map with `roads`")
            });
        }
        let entries = self.map(v, "`map`")?;
        self.keys(entries, "the map");
        for (k, _) in entries {
            if !MAP_KEYS.contains(&k.scalar().unwrap_or("")) {
                self.problem(self.unknown_key(k, MAP_KEYS, "the map"));
            }
        }
        let get = |k: &str| entry(entries, k);
        let need = |k: &str, example: &str| {
            get(k).map(|(_, v)| v).ok_or_else(|| {
                self.error(v.pos, format!("the map has no `{k}`"))
                    .expected(format!("`{k}:` ({example})"))
                    .found(format!("keys {}", Self::key_list(entries)))
            })
        };
        let roads_node = need("roads", "each territory and the territories next to it")?;
        let roads = self.map(roads_node, "`roads`")?;
        self.keys(roads, "`roads`");
        if roads.len() < 2 || roads.len() > MAX_TERRITORIES {
            return Err(self
                .error(
                    roads_node.pos,
                    format!("a map has 2 to {MAX_TERRITORIES} territories"),
                )
                .expected(format!("2 to {MAX_TERRITORIES} territories under `roads`"))
                .found(format!("{}", roads.len())));
        }
        let territories: Vec<String> = roads
            .iter()
            .map(|(k, _)| k.scalar().unwrap_or("").to_owned())
            .collect();
        for (k, _) in roads {
            let name = k.scalar().unwrap_or("");
            let word = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '\'');
            if !word || name.chars().all(|c| c.is_ascii_digit()) {
                return Err(self
                    .error(k.pos, format!("`{name}` cannot name a territory"))
                    .expected("a name of letters, digits, _ and ' that is not just a number")
                    .found(k.describe())
                    .hint(
                        "moves are written `Land3->Land4` or by number, so names must be words",
                    ));
            }
        }
        let names: Vec<&str> = territories.iter().map(String::as_str).collect();
        let lookup = |n: &Node| -> Result<u8, Diagnostic> {
            let text = n.scalar().unwrap_or("");
            names
                .iter()
                .position(|t| *t == text)
                .or_else(|| text.parse::<usize>().ok().filter(|&i| i < names.len()))
                .map(|i| i as u8)
                .ok_or_else(|| {
                    self.not_one_of(
                        n,
                        format!("`{text}` is not a territory of this map"),
                        &names,
                    )
                    .expected(format!("one of {} (or their numbers)", names.join(", ")))
                })
        };
        let mut adjacency = Vec::with_capacity(roads.len());
        for (k, ns) in roads {
            let Yaml::Seq(items) = &ns.yaml else {
                return Err(self
                    .error(
                        ns.pos,
                        format!("the roads of {} must be a list", k.scalar().unwrap_or("")),
                    )
                    .expected("the territories next to it, like [Land1, Land5]")
                    .found(ns.describe()));
            };
            adjacency.push(items.iter().map(lookup).collect::<Result<Vec<u8>, _>>()?);
        }
        let bound = |k: &str, example: &str, lo: i64, hi: i64| -> Result<i64, Diagnostic> {
            let node = need(k, example)?;
            let n = self.integer(node, &format!("`{k}`"), example)?;
            if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(self
                    .error(node.pos, format!("`{k}` is out of range"))
                    .expected(format!("{lo} to {hi}"))
                    .found(node.describe()))
            }
        };
        let max_terri = bound("max_terri", "9", 1, 255)?;
        let max_units = bound("max_units", "40", 1, i64::from(u32::MAX))?;
        let min_start = lookup(need("min_start", "Minnie's first territory")?)?;
        let max_start_node = need("max_start", "Maxie's first territory")?;
        let max_start = lookup(max_start_node)?;
        if min_start == max_start {
            return Err(self
                .error(
                    max_start_node.pos,
                    "Maxie and Minnie cannot start on the same territory",
                )
                .expected("two different territories")
                .found(format!("both on {}", names[usize::from(max_start)])));
        }
        let map = Map {
            name: get("name")
                .and_then(|(_, n)| n.scalar())
                .unwrap_or("the map")
                .to_owned(),
            territories,
            roads: adjacency,
            min_start,
            max_start,
            max_terri: max_terri as u8,
            max_units: max_units as u32,
        };
        if let Some((t, why)) = map.not_a_map() {
            return Err(self
                .error(roads[t].0.pos, format!("the map is not a simple, connected, undirected graph: {why}"))
                .expected("roads that go both ways, no territory listed twice or next to itself, every territory reachable")
                .found(format!("the roads of {}", map.territories[t]))
                .hint("the handout's maps are simple, connected and undirected, and Riskless assumes it"));
        }
        Ok(map)
    }

    fn estimator(&self, v: &Node, game: Option<&GameKind>) -> Result<Estimator, Diagnostic> {
        let text = v.scalar().unwrap_or("");
        match (Estimator::parse(text), game.and_then(|g| g.one_estimator)) {
            (Some(Estimator::Improved), Some((why, hint))) => {
                let d = self
                    .error(v.pos, why)
                    .expected("`estimator: naive`, or no `estimator`")
                    .found(v.describe());
                Err(match hint {
                    Some(h) => d.hint(h),
                    None => d,
                })
            }
            (Some(e), _) => Ok(e),
            (None, _) => Err(self.not_one_of(v, "unknown estimator", Estimator::NAMES)),
        }
    }

    /// The parts every game spec has: its position, cases and scenarios.
    fn game_parts<G: Positions>(
        &self,
        game: G,
        estimator: Estimator,
        to_move: Option<(Player, Pos)>,
        parts: Parts,
    ) -> Result<Option<GameSpec<G>>, Diagnostic> {
        let game = game.estimating_with(estimator);
        let start = match parts.position {
            Some(v) => self.soft(game.position(self, v, to_move)),
            None => self.soft(game.default_position(self, to_move, parts.game_key)),
        };
        let get = |k: &str| entry(parts.entries, k);
        let (cases_node, scenarios_node) = (get("cases"), get("scenarios"));
        if cases_node.is_none() && scenarios_node.is_none() {
            return Err(self
                .error(parts.doc.pos, "the spec has no `cases` and no `scenarios`")
                .expected("`cases:` (searches of the position) or `scenarios:` (moves and what must hold after them)")
                .found(format!("keys {}", Self::key_list(parts.entries)))
                .hint("add for example `cases: {ab: {algorithm: alphabeta, depth: 2}}`"));
        }
        let Some(start) = start else {
            return Ok(None);
        };
        let to_move = game.player(&start);
        let game = game.starting_at(start);
        let mut cases = Vec::new();
        if let Some((k, v)) = cases_node {
            // CSC148's and CS10's games print their course's dialect unless a case says
            // otherwise.
            let defaults = super::Defaults {
                dialect: match game.name() {
                    "subtract_square" | "tippy" => Some(crate::trace::Dialect::Csc148),
                    "kalah" => Some(crate::trace::Dialect::Cs10),
                    _ => None,
                },
                ..Default::default()
            };
            let plain = self.cases(k, v, Target::Game(to_move, game.longest_game()), &defaults)?;
            let case_entries = self.map(v, "`cases`")?;
            for case in plain {
                if let Some(c) = self.game_case(&game, case, (k, case_entries), parts.game_key) {
                    cases.push(c);
                }
            }
        }
        let mut scenarios = Vec::new();
        if let Some((k, v)) = scenarios_node {
            let entries = self.map(v, "`scenarios`")?;
            if entries.is_empty() {
                return Err(self
                    .error(k.pos, "`scenarios` is empty")
                    .expected("at least one scenario: a name, then `steps:`")
                    .found("an empty map"));
            }
            self.keys(entries, "`scenarios`");
            for (name, body) in entries {
                if let Some(s) = self.scenario(&game, name, body) {
                    scenarios.push(s);
                }
            }
        }
        Ok(Some(GameSpec {
            path: self.path.to_owned(),
            title: parts.title,
            game,
            cases,
            scenarios,
        }))
    }

    /// One case of a game spec (of the spec's `cases`, whose key is `k`, as `case_entries`
    /// hold them): the game it searches, at its own position and with its own estimator if
    /// it has them; `None` with its problems noted.
    fn game_case<G: Positions>(
        &self,
        game: &G,
        mut case: super::Case,
        (k, case_entries): (&Node, &[(Node, Node)]),
        game_key: &Node,
    ) -> Option<GameCase<G>> {
        use crate::search::Algorithm;
        let expect = matches!(
            case.algorithm,
            Algorithm::Expectimax | Algorithm::Expectiminimax
        );
        // Pig rolls dice: only the searchers of chance nodes can search it.
        if game.name() == "pig" && !expect {
            let at = case_entries
                .iter()
                .find(|(ck, _)| ck.scalar() == Some(case.name.as_str()))
                .map_or(k.pos, |(ck, _)| ck.pos);
            self.problem(
                self.error(
                    at,
                    format!(
                        "Pig rolls dice, which {} cannot search",
                        case.algorithm.name()
                    ),
                )
                .expected("algorithm: expectiminimax or expectimax")
                .found(format!("algorithm: {}", case.algorithm.name()))
                .hint("minimax, alpha-beta and Jamboree know two players and no dice"),
            );
            return None;
        }
        // Expectimax needs numeric utilities: wins worth a number, not `Maxie wins!`.
        if matches!(
            case.algorithm,
            Algorithm::Expectimax | Algorithm::Expectiminimax
        ) && !matches!(game.name(), "tictactoe" | "pig")
        {
            let at = case_entries
                .iter()
                .find(|(ck, _)| ck.scalar() == Some(case.name.as_str()))
                .map_or(k.pos, |(ck, _)| ck.pos);
            self.problem(
                self.error(at, format!("{} has no expectimax search", game.name()))
                    .expected("expectimax in tree specs, tic-tac-toe and Pig")
                    .found(format!("algorithm: {}", case.algorithm.name()))
                    .hint("its finished games are wins and losses, not numbers to average"),
            );
            return None;
        }
        let own: &[(Node, Node)] = case_entries
            .iter()
            .find(|(ck, _)| ck.scalar() == Some(case.name.as_str()))
            .and_then(|(_, cv)| match &cv.yaml {
                Yaml::Map(es) => Some(&es[..]),
                _ => None,
            })
            .unwrap_or(&[]);
        let estimator = entry(own, "estimator")
            .map(|(_, e)| self.soft(self.estimator(e, game_kind(game.name()))));
        let case_game = match estimator {
            None => game.clone(),
            Some(Some(e)) => game.estimating_with(e),
            Some(None) => return None,
        };
        // A case may search a position of its own (`position:`, `to_move:`).
        let case_to_move = match entry(own, "to_move") {
            Some((_, t)) => match self.soft(self.player_for(t, "to_move")) {
                Some(p) => Some((p, t.pos)),
                None => return None,
            },
            None => None,
        };
        let case_game = match (entry(own, "position"), case_to_move) {
            (Some((_, p)), t) => match self.soft(case_game.position(self, p, t)) {
                Some(s) => case_game.starting_at(s),
                None => return None,
            },
            (None, Some(t)) => {
                match self.soft(case_game.default_position(self, Some(t), game_key)) {
                    Some(s) => case_game.starting_at(s),
                    None => return None,
                }
            }
            (None, None) => case_game,
        };
        case.root_player = case_game.player(&case_game.start());
        Some(GameCase {
            case,
            game: case_game,
        })
    }

    /// One scenario, played as it loads; `None` with its problems noted.
    fn scenario<G: Positions>(&self, game: &G, key: &Node, v: &Node) -> Option<Scenario<G>> {
        let name = self.soft(self.case_name(key))?;
        let what = format!("scenario `{name}`");
        let entries = self.soft(self.map(v, &what))?;
        self.keys(entries, &what);
        for (k, _) in entries {
            if !SCENARIO_KEYS.contains(&k.scalar().unwrap_or("")) {
                self.problem(self.unknown_key(k, SCENARIO_KEYS, &what));
            }
        }
        let get = |k: &str| entry(entries, k);
        let to_move = match get("to_move") {
            Some((_, t)) => Some((self.soft(self.player_for(t, "to_move"))?, t.pos)),
            None => None,
        };
        let start = match (get("position"), to_move) {
            (Some((_, p)), _) => self.soft(game.position(self, p, to_move))?,
            (None, Some(t)) => {
                let mut s = game.start();
                if game.player(&s) != t.0 {
                    s = self.soft(game.default_position(self, Some(t), key))?;
                }
                s
            }
            (None, None) => game.start(),
        };
        let points = match get("points") {
            Some((_, p)) => self.soft(self.points(p))?,
            None => 1.0,
        };
        let Some((steps_key, steps_node)) = get("steps") else {
            self.problem(
                self.error(key.pos, format!("{what} has no `steps`"))
                    .expected("`steps:`, a list of moves, each with what must hold after it")
                    .found(format!("keys {}", Self::key_list(entries)))
                    .hint("for example `steps: [{move: 3, status: in_play}]`"),
            );
            return None;
        };
        let Yaml::Seq(items) = &steps_node.yaml else {
            self.problem(
                self.error(steps_node.pos, "`steps` must be a list")
                    .expected("a list of steps, each `- move: ...` with what must hold after it")
                    .found(steps_node.describe()),
            );
            return None;
        };
        if items.is_empty() {
            self.problem(
                self.error(steps_key.pos, format!("{what} has no steps"))
                    .expected("at least one step")
                    .found("an empty list"),
            );
            return None;
        }
        let game = game.starting_at(start);
        let mut state = game.start();
        let mut steps = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let (step, after) = self.soft(self.step(&game, &state, i + 1, item))?;
            state = after;
            steps.push(step);
        }
        Some(Scenario {
            name: name.to_owned(),
            game,
            steps,
            points,
        })
    }

    /// Step `number` played from `state`: the step and the state after it.
    fn step<G: Positions>(
        &self,
        game: &G,
        state: &G::State,
        number: usize,
        v: &Node,
    ) -> Result<(Step<G>, G::State), Diagnostic> {
        let what = format!("step {number}");
        let entries = self.map(v, &what).map_err(|d| {
            d.hint("write each step as `- move: 3` with what must hold after it on the lines below")
        })?;
        self.keys(entries, &what);
        for (k, _) in entries {
            if !STEP_KEYS.contains(&k.scalar().unwrap_or("")) {
                return Err(self.unknown_key(k, STEP_KEYS, &what));
            }
        }
        let get = |k: &str| entry(entries, k);
        let mut step = Step::new(v.pos.line);
        let mut after = state.clone();
        if let Some((_, m)) = get("move") {
            let text = move_text(m).ok_or_else(|| {
                self.error(m.pos, format!("{what}: cannot read the move"))
                    .expected(game.move_syntax())
                    .found(m.describe())
            })?;
            let mv = game.parse_move(state, &text).map_err(|why| {
                let mut legal: Vec<String> = game.moves(state).map(|m| game.move_name(m)).collect();
                if legal.len() > 12 {
                    legal.truncate(12);
                    legal.push("...".to_owned());
                }
                self.error(m.pos, format!("{what}: {why}"))
                    .expected(format!(
                        "a legal move for {} here: {}",
                        game.player_name(game.player(state)),
                        if legal.is_empty() {
                            "none, the game is over".to_owned()
                        } else {
                            legal.join(", ")
                        }
                    ))
                    .found(format!("`{text}`"))
                    .hint(format!("moves are written as {}", game.move_syntax()))
            })?;
            after = game.play(state, mv);
            step.play = Some((text, mv));
        }
        if let Some((_, t)) = get("to_move") {
            step.to_move = Some(self.player_for(t, "to_move")?);
        }
        if let Some((_, p)) = get("position") {
            let said = step.to_move.unwrap_or(game.player(&after));
            step.position = Some(game.position(self, p, Some((said, p.pos)))?);
        }
        if let Some((_, s)) = get("status") {
            step.status = Some(self.status(s)?);
        }
        if let Some((_, ms)) = get("moves") {
            let Yaml::Seq(items) = &ms.yaml else {
                return Err(self
                    .error(ms.pos, "`moves` must be a list")
                    .expected(format!(
                        "the legal moves in order, each {}",
                        game.move_syntax()
                    ))
                    .found(ms.describe()));
            };
            let mut moves = Vec::new();
            for item in items {
                let text = move_text(item).unwrap_or_default();
                moves.push(game.read_move(&text).map_err(|why| {
                    self.error(item.pos, format!("{what}: cannot read a move in `moves`"))
                        .expected(game.move_syntax())
                        .found(why)
                })?);
            }
            step.moves = Some(moves);
        }
        if let Some((_, e)) = get("estimate") {
            step.estimate = Some(Estimate::Guess(self.integer(e, "`estimate`", "64")?));
        }
        Ok((step, after))
    }

    /// `in_play`, `draw` or `winner: Maxie`.
    fn status(&self, v: &Node) -> Result<Status, Diagnostic> {
        let bad = || {
            self.error(v.pos, "unknown status")
                .expected("`in_play`, `draw`, or `{winner: Maxie}` / `{winner: Minnie}`")
                .found(v.describe())
        };
        match &v.yaml {
            Yaml::Scalar { text, .. } => match text.as_str() {
                "in_play" => Ok(Status::InPlay),
                "draw" => Ok(Status::Over(Outcome::Draw)),
                t if t.starts_with("winner") => {
                    Err(bad().hint("write it as a map: `status: {winner: Maxie}`"))
                }
                _ => Err(bad()),
            },
            Yaml::Map(es) if es.len() == 1 && es[0].0.scalar() == Some("winner") => Ok(
                Status::Over(Outcome::Winner(self.player_for(&es[0].1, "winner")?)),
            ),
            _ => Err(bad()),
        }
    }

    /// A board's rows with where each starts: a list of strings, or a block of lines.
    fn board_rows(&self, v: &Node) -> Result<Vec<(String, Pos)>, Diagnostic> {
        let bad = || {
            self.error(v.pos, "cannot read the board")
                .expected("rows of `.XO` text, top row first, as a list or a `|` block")
                .found(v.describe())
        };
        match &v.yaml {
            Yaml::Seq(items) => items
                .iter()
                .map(|it| match it.scalar() {
                    Some(t) if !it.is_null() => Ok((t.trim().to_owned(), it.pos)),
                    _ => Err(bad()),
                })
                .collect(),
            Yaml::Scalar { text, .. } if !v.is_null() => {
                let rows: Vec<&str> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                if !text.trim_end().contains('\n') {
                    return Ok(rows.iter().map(|r| (r.to_string(), v.pos)).collect());
                }
                // A block's lines follow its `|`: find each in the file for its place.
                let source: Vec<&str> = self.source.lines().collect();
                let mut at = v.pos.line.saturating_sub(1);
                let mut out = Vec::new();
                for row in rows {
                    while at < source.len() && source[at].trim() != row {
                        at += 1;
                    }
                    let line = source.get(at).copied().unwrap_or("");
                    let col = line.len() - line.trim_start().len() + 1;
                    out.push((row.to_owned(), Pos { line: at + 1, col }));
                    at += 1;
                }
                Ok(out)
            }
            _ => Err(bad()),
        }
    }
}

/// The spec's top-level parts a game's loading needs.
struct Parts<'n> {
    doc: &'n Node,
    game_key: &'n Node,
    entries: &'n [(Node, Node)],
    title: Option<String>,
    position: Option<&'n Node>,
}

/// A move as written: a scalar, or a pair `[Land3, Land4]`.
fn move_text(v: &Node) -> Option<String> {
    match &v.yaml {
        Yaml::Scalar { text, .. } if !v.is_null() => Some(text.to_string()),
        Yaml::Seq(items) => {
            let words: Option<Vec<&str>> = items.iter().map(Node::scalar).collect();
            Some(words?.join(" "))
        }
        _ => None,
    }
}

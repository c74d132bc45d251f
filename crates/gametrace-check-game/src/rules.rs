//! Games as `check-game` sees them: by the names of their moves. The reference model, the
//! catalogued rule mutants and the student's program are all asked the same thing of a
//! position (its [`View`]) after the same move names, so they compare line for line.

use crate::game::{Game, Outcome, Playable, Player, Status};

/// What can be seen of a position from outside: its moves (printed names, in the game's own
/// order), status, the player to move and, when compared, the estimate (as text the course
/// writes it: `16`, `Maxie wins`, `1` for CSC148's WIN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub moves: Vec<String>,
    pub status: Status,
    pub player: Player,
    pub estimate: Option<String>,
}

/// How two views are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compare {
    /// The moves' order too, not just which moves.
    pub order: bool,
    pub estimate: bool,
}

/// Where two views part: the first field that differs, in the order a report names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Moves,
    Order,
    Status,
    Player,
    Estimate,
}

impl Part {
    pub fn word(self) -> &'static str {
        match self {
            Part::Moves => "moves",
            Part::Order => "move order",
            Part::Status => "status",
            Part::Player => "player to move",
            Part::Estimate => "estimate",
        }
    }
}

impl View {
    /// The first part in which `other` differs, if any.
    pub fn differs(&self, other: &View, how: Compare) -> Option<Part> {
        if self.status != other.status {
            return Some(Part::Status);
        }
        if self.player != other.player {
            return Some(Part::Player);
        }
        // Both courses ask for moves only while the game is on (15-150's `moves` requires
        // it; CSC148 checks the winner first): at a finished position they are not compared.
        let over = matches!(self.status, Status::Over(_));
        if self.moves != other.moves && !over {
            let mut a = self.moves.clone();
            let mut b = other.moves.clone();
            a.sort();
            b.sort();
            if a != b {
                return Some(Part::Moves);
            }
            if how.order {
                return Some(Part::Order);
            }
        }
        if how.estimate && self.estimate != other.estimate {
            return Some(Part::Estimate);
        }
        None
    }
}

/// A game driven by move names.
pub trait Rules: Sync {
    type S: Clone + Send;
    fn start(&self) -> Self::S;
    fn view(&self, s: &Self::S) -> View;
    /// The position after the move of that name, if the game offers one.
    fn play(&self, s: &Self::S, name: &str) -> Option<Self::S>;
    /// The cells behind the position's status as this model's win test sees them (the
    /// winner's four, or four empty cells a mistaken test takes for a tippy), for reports.
    fn win_cells(&self, _s: &Self::S) -> Option<WinCells> {
        None
    }
}

/// The cells a win test took for a win, in words and as a board with them marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinCells {
    /// Whose pieces they are (`None`: empty cells).
    pub owner: Option<Player>,
    /// `(x, y)` counted from 0: x the column from the left, y the row from the top
    /// (Tippy) or from the bottom (Connect 4).
    pub cells: Vec<(usize, usize)>,
    /// The shape in words: `the upright tippy leaning left, touching the left column`.
    pub shape: String,
    /// The cells by name, as moves name them: `(1,2) (1,3) (2,3) (2,4)`, `column 3`.
    pub named: String,
    /// The board, the cells marked `[X]`.
    pub board: String,
}

/// Move sequences and the views seen along them, merged into one tree: each position is
/// asked about once, however many sequences pass through it.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Node 0 is the start (when there is any node).
    pub nodes: Vec<TreeNode>,
}

#[derive(Clone, Debug)]
pub struct TreeNode {
    pub view: View,
    /// The moves played from here, each to its node.
    pub children: Vec<(String, usize)>,
}

impl Tree {
    /// The tree of `lines`: each a path and the views after each of its prefixes (as many
    /// as were seen). Where two lines saw different views at one position, the first is
    /// kept.
    pub fn of<'a>(lines: impl IntoIterator<Item = (&'a [String], &'a [View])>) -> Tree {
        let mut t = Tree::default();
        for (path, views) in lines {
            let Some(first) = views.first() else { continue };
            if t.nodes.is_empty() {
                t.nodes.push(TreeNode {
                    view: first.clone(),
                    children: Vec::new(),
                });
            }
            let mut at = 0;
            for (i, view) in views.iter().enumerate().skip(1) {
                let Some(name) = path.get(i - 1) else { break };
                let next = t.nodes[at]
                    .children
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, k)| *k);
                at = match next {
                    Some(k) => k,
                    None => {
                        t.nodes.push(TreeNode {
                            view: view.clone(),
                            children: Vec::new(),
                        });
                        let k = t.nodes.len() - 1;
                        t.nodes[at].children.push((name.clone(), k));
                        k
                    }
                };
            }
        }
        t
    }

    /// The moves from the start to each node.
    pub fn paths(&self) -> Vec<Vec<String>> {
        let mut out = vec![Vec::new(); self.nodes.len()];
        for i in 0..self.nodes.len() {
            for (name, k) in &self.nodes[i].children {
                let mut p = out[i].clone();
                p.push(name.clone());
                out[*k] = p;
            }
        }
        out
    }
}

/// A game that can be asked about whole move sequences (object-safe, for catalogues).
pub trait Oracle: Sync {
    /// How many of the tree's positions this model agrees at, every position on the way to
    /// each agreeing too (`how` compares them).
    fn agreement_on(&self, tree: &Tree, how: Compare) -> usize;
    /// This model's view at each of the tree's positions (`None` past a move it does not
    /// offer).
    fn views_on(&self, tree: &Tree) -> Vec<Option<View>>;
    /// Walks `path` from the start, comparing its views with `views` (the view after each
    /// prefix of `path`, as many as were seen): the index of the first that differs.
    fn first_difference(&self, path: &[String], views: &[View], how: Compare) -> Option<usize>;
    /// The views along `path` (as far as the game offers its moves).
    fn views_along(&self, path: &[String]) -> Vec<View>;
    /// A walk of up to `max` moves from the end of `path`, each move the one `pick` chooses
    /// among the position's (given how many there are): the whole path.
    fn walk(
        &self,
        path: &[String],
        pick: &mut dyn FnMut(usize) -> usize,
        max: usize,
    ) -> Vec<String>;
    /// The cells behind the status after `path` ([`Rules::win_cells`]).
    fn win_cells_after(&self, path: &[String]) -> Option<WinCells>;
}

impl<R: Rules> Oracle for R {
    fn agreement_on(&self, tree: &Tree, how: Compare) -> usize {
        let Some(root) = tree.nodes.first() else {
            return 0;
        };
        let mut agreed = 0;
        let mut stack = vec![(root, self.start())];
        while let Some((node, s)) = stack.pop() {
            if self.view(&s).differs(&node.view, how).is_some() {
                continue;
            }
            agreed += 1;
            for (name, k) in &node.children {
                if let Some(next) = self.play(&s, name) {
                    stack.push((&tree.nodes[*k], next));
                }
            }
        }
        agreed
    }
    fn views_on(&self, tree: &Tree) -> Vec<Option<View>> {
        let mut out = vec![None; tree.nodes.len()];
        if tree.nodes.is_empty() {
            return out;
        }
        let mut stack = vec![(0usize, self.start())];
        while let Some((i, s)) = stack.pop() {
            out[i] = Some(self.view(&s));
            for (name, k) in &tree.nodes[i].children {
                if let Some(next) = self.play(&s, name) {
                    stack.push((*k, next));
                }
            }
        }
        out
    }
    fn first_difference(&self, path: &[String], views: &[View], how: Compare) -> Option<usize> {
        let mut s = self.start();
        for (i, seen) in views.iter().enumerate() {
            if self.view(&s).differs(seen, how).is_some() {
                return Some(i);
            }
            if let Some(name) = path.get(i) {
                match self.play(&s, name) {
                    Some(next) => s = next,
                    None => return Some(i + 1),
                }
            }
        }
        None
    }
    fn views_along(&self, path: &[String]) -> Vec<View> {
        let mut s = self.start();
        let mut out = vec![self.view(&s)];
        for name in path {
            match self.play(&s, name) {
                Some(next) => s = next,
                None => break,
            }
            out.push(self.view(&s));
        }
        out
    }
    fn walk(
        &self,
        path: &[String],
        pick: &mut dyn FnMut(usize) -> usize,
        max: usize,
    ) -> Vec<String> {
        let mut s = self.start();
        let mut out = Vec::new();
        for name in path {
            match self.play(&s, name) {
                Some(next) => s = next,
                None => return out,
            }
            out.push(name.clone());
        }
        while out.len() < max {
            let moves = self.view(&s).moves;
            if moves.is_empty() {
                break;
            }
            let name = moves[pick(moves.len()) % moves.len()].clone();
            match self.play(&s, &name) {
                Some(next) => s = next,
                None => break,
            }
            out.push(name);
        }
        out
    }
    fn win_cells_after(&self, path: &[String]) -> Option<WinCells> {
        let mut s = self.start();
        for name in path {
            s = self.play(&s, name)?;
        }
        self.win_cells(&s)
    }
}

/// A board of rows (top first) with some cells marked: `[X]`, the others ` X `; column
/// numbers over it, row numbers beside it.
fn marked_board(
    rows: &[String],
    marked: &[(usize, usize)],
    columns_from: usize,
    row_numbers: &[usize],
) -> String {
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut out = String::from("    ");
    for x in 0..width {
        out.push_str(&format!("{:^3}", x + columns_from));
    }
    out.push('\n');
    for (i, row) in rows.iter().enumerate() {
        let label = row_numbers.get(i).map_or(String::new(), |n| n.to_string());
        out.push_str(&format!("{label:>3} "));
        for (x, c) in row.chars().enumerate() {
            if marked.contains(&(x, i)) {
                out.push_str(&format!("[{c}]"));
            } else {
                out.push_str(&format!(" {c} "));
            }
        }
        out.push('\n');
    }
    out
}

/// The spec's reference model, by move names.
pub struct Reference<'g, G: Playable> {
    pub game: &'g G,
    /// How the course writes an estimate, when estimates are compared.
    pub estimate: Option<fn(&G, &G::State) -> String>,
}

impl<G: Playable> Rules for Reference<'_, G> {
    type S = G::State;
    fn start(&self) -> G::State {
        self.game.start()
    }
    fn view(&self, s: &G::State) -> View {
        View {
            moves: self.game.moves(s).map(|m| self.game.move_name(m)).collect(),
            status: self.game.status(s),
            player: self.game.player(s),
            estimate: self.estimate.map(|f| f(self.game, s)),
        }
    }
    fn play(&self, s: &G::State, name: &str) -> Option<G::State> {
        let mv = self
            .game
            .moves(s)
            .find(|&m| self.game.move_name(m) == name)?;
        Some(self.game.play(s, mv))
    }
}

/// A catalogued rule mistake: a copy of the reference's rules with that one thing wrong.
pub struct Mutant {
    /// A short name for reports and tests (`no-vertical`).
    pub id: &'static str,
    /// A second mistake made together with the first (`rows-wrap` with `no-vertical`): a
    /// pair, tried when no single mistake explains a game.
    pub also: Option<&'static str>,
    /// The mistake in the student's words (`the vertical four is not checked`).
    pub what: String,
    pub rules: Box<dyn Oracle>,
}

impl Mutant {
    /// The mistake's names: one, or two joined by `+` (`no-vertical+rows-wrap`).
    pub fn name(&self) -> String {
        match self.also {
            Some(b) => format!("{}+{b}", self.id),
            None => self.id.to_owned(),
        }
    }
}

/// A game's catalogue as a table: each mistake's name, its words and its value for the
/// game's model.
type Table<M> = Vec<(&'static str, String, M)>;

/// The catalogue's single mistakes (`pairs` false) or every pair of two of them, each a
/// model `model` builds from its mistakes.
fn catalogue<M: Copy>(
    table: Table<M>,
    pairs: bool,
    model: impl Fn(M, Option<M>) -> Box<dyn Oracle>,
) -> Vec<Mutant> {
    let mut out = Vec::new();
    for (i, (id, what, m)) in table.iter().enumerate() {
        if !pairs {
            out.push(Mutant {
                id,
                also: None,
                what: what.clone(),
                rules: model(*m, None),
            });
            continue;
        }
        for (id2, what2, m2) in &table[i + 1..] {
            out.push(Mutant {
                id,
                also: Some(id2),
                what: format!("{what}, and {what2}"),
                rules: model(*m, Some(*m2)),
            });
        }
    }
    out
}

/// A grid of cells, each empty or a player's, for the mutants' simple models.
type Grid = Vec<Option<Player>>;

fn winner_of(fours: (bool, bool), to_move: Player) -> Option<Player> {
    match fours {
        (true, true) => Some(to_move.other()),
        (true, false) => Some(Player::Maxie),
        (false, true) => Some(Player::Minnie),
        (false, false) => None,
    }
}

// ---------------------------------------------------------------- Connect 4 and PopOut

/// Connect 4's rules, written plainly on a grid, with one mistake or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum C4Mistake {
    None,
    /// A direction the four test skips: 0 horizontal, 1 vertical, 2 ↗, 3 ↘.
    Skips(usize),
    /// Both diagonals skipped.
    NoDiagonals,
    /// This many in a row win instead of four.
    Run(usize),
    FullBoardNotDraw,
    FullColumnOffered,
    /// The piece lands one row above the lowest free one (or in the top row).
    OneRowHigh,
    PlayerNotSwitched,
    /// The player is not switched, and the status names the winner as the player who did
    /// not move last (the player to move's opponent), whoever holds the four.
    PlayerNotSwitchedWinnerFromMover,
    /// The horizontal test skips the bottom row (0) or the top row (1).
    AcrossSkipsRow(usize),
    /// The horizontal test runs over the board flattened row by row: a run wraps from the
    /// end of one row to the start of the next.
    RowsWrap,
    /// PopOut: a player may pop the other's piece too.
    PopsOthers,
    /// PopOut: when a pop makes fours for both, the other player (not the popper) wins.
    PopWinnerWrong,
    /// The diagonals of direction 2 (↗) or 3 (↘) are read only from the cells of the
    /// bottom row: those that start in the left column (↗) or end in the right one (↘)
    /// above the corner are never checked.
    DiagonalsFromBottomRow(usize),
}

pub struct C4Model {
    pub columns: usize,
    pub rows: usize,
    pub popout: bool,
    pub start: (Grid, Player),
    pub mistake: C4Mistake,
    /// A second mistake made with it (`None` for one alone).
    pub also: C4Mistake,
}

impl C4Model {
    fn has(&self, m: C4Mistake) -> bool {
        self.mistake == m || self.also == m
    }

    pub fn of(game: &crate::game::connect4::Connect4, mistake: C4Mistake) -> C4Model {
        let (c, r) = (usize::from(game.columns), usize::from(game.rows));
        let b = game.start();
        let mut grid = vec![None; c * r];
        for x in 0..c {
            for y in 0..r {
                grid[x * r + y] = game.at(&b, x as u8, y as u8);
            }
        }
        C4Model {
            columns: c,
            rows: r,
            popout: game.popout,
            start: (grid, b.to_move),
            mistake,
            also: C4Mistake::None,
        }
    }

    fn at(&self, g: &Grid, x: isize, y: isize) -> Option<Player> {
        if x < 0 || y < 0 || x as usize >= self.columns || y as usize >= self.rows {
            return None;
        }
        g[x as usize * self.rows + y as usize]
    }

    fn has_run(&self, g: &Grid, p: Player) -> bool {
        self.run_of(g, p).is_some()
    }

    /// The first run the (possibly mistaken) test sees for `p`: its direction (0 across,
    /// 1 up, 2 ↗, 3 ↘, 4 wrapping from one row to the next) and its cells, `(x, y)` with
    /// y from the bottom.
    fn run_of(&self, g: &Grid, p: Player) -> Option<(usize, Vec<(usize, usize)>)> {
        let need = [self.mistake, self.also]
            .into_iter()
            .find_map(|m| match m {
                C4Mistake::Run(n) => Some(n),
                _ => None,
            })
            .unwrap_or(4);
        let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for (d, &(dx, dy)) in dirs.iter().enumerate() {
            let skipped =
                self.has(C4Mistake::Skips(d)) || (d >= 2 && self.has(C4Mistake::NoDiagonals));
            if skipped {
                continue;
            }
            if d == 0 && self.has(C4Mistake::RowsWrap) {
                // Row after row as one line: cell i is (i % columns, i / columns).
                let n = (self.columns * self.rows) as isize;
                let cols = self.columns as isize;
                for i in 0..n - need as isize + 1 {
                    if (i..i + need as isize).all(|j| self.at(g, j % cols, j / cols) == Some(p)) {
                        let cells = (i..i + need as isize)
                            .map(|j| ((j % cols) as usize, (j / cols) as usize))
                            .collect();
                        let wraps = (i % cols) + need as isize > cols;
                        return Some((if wraps { 4 } else { 0 }, cells));
                    }
                }
                continue;
            }
            // Only the starts whose run stays on the board.
            let (cols, rows) = (self.columns as isize, self.rows as isize);
            let reach = need as isize - 1;
            let x_end = cols - reach * dx;
            let (y_from, y_end) = match dy {
                1 => (0, rows - reach),
                -1 => (reach, rows),
                _ => (0, rows),
            };
            let skip_bottom = d == 0 && self.has(C4Mistake::AcrossSkipsRow(0));
            let skip_top = d == 0 && self.has(C4Mistake::AcrossSkipsRow(1));
            let half_rising = d == 2 && self.has(C4Mistake::DiagonalsFromBottomRow(2));
            let half_falling = d == 3 && self.has(C4Mistake::DiagonalsFromBottomRow(3));
            for x in 0..x_end.max(0) {
                for y in y_from..y_end.max(y_from) {
                    if (skip_bottom && y == 0) || (skip_top && y == rows - 1) {
                        continue;
                    }
                    // Diagonals read only from the bottom row: a ↗ one whose cells have
                    // x < y starts in the left column; a ↘ one whose x + y reaches past the
                    // last column ends in the right one.
                    if (half_rising && x < y) || (half_falling && x + y >= cols) {
                        continue;
                    }
                    let mut k = 0;
                    while k < need as isize
                        && g[((x + k * dx) * rows + y + k * dy) as usize] == Some(p)
                    {
                        k += 1;
                    }
                    if k == need as isize {
                        let cells = (0..need as isize)
                            .map(|k| ((x + k * dx) as usize, (y + k * dy) as usize))
                            .collect();
                        return Some((d, cells));
                    }
                }
            }
        }
        None
    }

    fn height(&self, g: &Grid, x: usize) -> usize {
        (0..self.rows)
            .find(|&y| g[x * self.rows + y].is_none())
            .unwrap_or(self.rows)
    }

    fn full(&self, g: &Grid) -> bool {
        g.iter().all(Option::is_some)
    }
}

impl Rules for C4Model {
    type S = (Grid, Player);
    fn start(&self) -> Self::S {
        self.start.clone()
    }
    fn win_cells(&self, (g, p): &Self::S) -> Option<WinCells> {
        match self.view(&(g.clone(), *p)).status {
            Status::Over(Outcome::Winner(w)) => self.cells_of(g, w),
            _ => None,
        }
    }
    fn view(&self, (g, p): &Self::S) -> View {
        let fours = (
            self.has_run(g, Player::Maxie),
            self.has_run(g, Player::Minnie),
        );
        let winner = if self.has(C4Mistake::PopWinnerWrong) && fours == (true, true) {
            Some(*p)
        } else if self.has(C4Mistake::PlayerNotSwitchedWinnerFromMover) {
            (fours.0 || fours.1).then(|| p.other())
        } else {
            winner_of(fours, *p)
        };
        let full = self.full(g);
        let status = match winner {
            Some(w) => Status::Over(Outcome::Winner(w)),
            None if full && !self.has(C4Mistake::FullBoardNotDraw) => Status::Over(Outcome::Draw),
            None => Status::InPlay,
        };
        let mut moves = Vec::new();
        if status == Status::InPlay {
            for x in 0..self.columns {
                if self.height(g, x) < self.rows || self.has(C4Mistake::FullColumnOffered) {
                    moves.push(x.to_string());
                }
            }
            if self.popout {
                for x in 0..self.columns {
                    let bottom = g[x * self.rows];
                    if bottom == Some(*p) || (self.has(C4Mistake::PopsOthers) && bottom.is_some()) {
                        moves.push(format!("p{x}"));
                    }
                }
            }
        }
        View {
            moves,
            status,
            player: *p,
            estimate: None,
        }
    }
    fn play(&self, s: &Self::S, name: &str) -> Option<Self::S> {
        if !self.view(s).moves.iter().any(|m| m == name) {
            return None;
        }
        let (mut g, p) = s.clone();
        let r = self.rows;
        if let Some(col) = name.strip_prefix('p') {
            let x: usize = col.parse().ok()?;
            for y in 0..r - 1 {
                g[x * r + y] = g[x * r + y + 1];
            }
            g[x * r + r - 1] = None;
        } else {
            let x: usize = name.parse().ok()?;
            let h = self.height(&g, x);
            if h >= r {
                // A full column offered anyway: the piece has nowhere to go.
                return Some((g, self.next(p)));
            }
            let y = if self.has(C4Mistake::OneRowHigh) {
                (h + 1).min(r - 1)
            } else {
                h
            };
            if g[x * r + y].is_none() {
                g[x * r + y] = Some(p);
            }
        }
        Some((g, self.next(p)))
    }
}

impl C4Model {
    /// The run behind a winner, in words and on the board (rows top first).
    fn cells_of(&self, g: &Grid, p: Player) -> Option<WinCells> {
        let (d, cells) = self.run_of(g, p)?;
        let shape = match d {
            0 => "across",
            1 => "up a column",
            2 => "on a rising diagonal (/)",
            3 => "on a falling diagonal (\\)",
            _ => "across, wrapping from the end of one row to the start of the next",
        };
        let rows: Vec<String> = (0..self.rows)
            .rev()
            .map(|y| {
                (0..self.columns)
                    .map(|x| match g[x * self.rows + y] {
                        Some(Player::Maxie) => 'X',
                        Some(Player::Minnie) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        // Marked as rows top first.
        let marked: Vec<(usize, usize)> =
            cells.iter().map(|&(x, y)| (x, self.rows - 1 - y)).collect();
        let numbers: Vec<usize> = (0..self.rows).rev().collect();
        let named = cells
            .iter()
            .map(|(x, y)| format!("({x},{y})"))
            .collect::<Vec<_>>()
            .join(" ");
        Some(WinCells {
            owner: Some(p),
            shape: format!("{} in a row {shape}", cells.len()),
            named: format!("{named} (column, row from the bottom, both from 0)"),
            board: marked_board(&rows, &marked, 0, &numbers),
            cells,
        })
    }

    fn next(&self, p: Player) -> Player {
        if self.has(C4Mistake::PlayerNotSwitched)
            || self.has(C4Mistake::PlayerNotSwitchedWinnerFromMover)
        {
            p
        } else {
            p.other()
        }
    }
}

/// Connect 4's (and PopOut's) rule mistakes, alone or (`pairs`) two at a time.
pub fn connect4_mutants(game: &crate::game::connect4::Connect4, pairs: bool) -> Vec<Mutant> {
    let mut list = vec![
        (
            "no-horizontal",
            "a horizontal four is not checked",
            C4Mistake::Skips(0),
        ),
        (
            "no-vertical",
            "a vertical four is not checked",
            C4Mistake::Skips(1),
        ),
        (
            "no-rising-diagonal",
            "a four on a rising diagonal (/, bottom-left to top-right) is not checked",
            C4Mistake::Skips(2),
        ),
        (
            "no-falling-diagonal",
            "a four on a falling diagonal (\\, top-left to bottom-right) is not checked",
            C4Mistake::Skips(3),
        ),
        (
            "no-diagonals",
            "neither diagonal is checked",
            C4Mistake::NoDiagonals,
        ),
        (
            "three-wins",
            "three in a row wins (four counted as three)",
            C4Mistake::Run(3),
        ),
        (
            "five-wins",
            "it takes five in a row to win (four counted as five)",
            C4Mistake::Run(5),
        ),
        (
            "full-board-not-draw",
            "a full board without a four is not a draw",
            C4Mistake::FullBoardNotDraw,
        ),
        (
            "full-column-offered",
            "a full column is still offered as a move",
            C4Mistake::FullColumnOffered,
        ),
        (
            "wrong-row",
            "the piece lands one row above the lowest free row",
            C4Mistake::OneRowHigh,
        ),
        (
            "player-not-switched",
            "the player to move is not switched after a move",
            C4Mistake::PlayerNotSwitched,
        ),
        (
            "not-switched-winner-from-mover",
            "the player to move is not switched after a move, and the status names the winner as the player to move's opponent (whoever holds the four)",
            C4Mistake::PlayerNotSwitchedWinnerFromMover,
        ),
        (
            "across-skips-bottom-row",
            "the horizontal test skips the bottom row",
            C4Mistake::AcrossSkipsRow(0),
        ),
        (
            "across-skips-top-row",
            "the horizontal test skips the top row",
            C4Mistake::AcrossSkipsRow(1),
        ),
        (
            "rows-wrap",
            "the horizontal test reads the board flattened row after row, so a run wraps from the end of one row to the start of the next",
            C4Mistake::RowsWrap,
        ),
        (
            "rising-diagonals-from-bottom-row",
            "the rising diagonals (/) are read only from the cells of the bottom row, so those that start in the left column above the corner are never checked",
            C4Mistake::DiagonalsFromBottomRow(2),
        ),
        (
            "falling-diagonals-from-bottom-row",
            "the falling diagonals (\\) are read only from the cells of the bottom row, so those that end in the right column above the corner are never checked",
            C4Mistake::DiagonalsFromBottomRow(3),
        ),
    ];
    if game.popout {
        list.push((
            "pops-other-piece",
            "a player may pop the other player's piece out",
            C4Mistake::PopsOthers,
        ));
        list.push((
            "pop-wrong-winner",
            "when a pop makes a four for both players, the other player wins, not the one who popped",
            C4Mistake::PopWinnerWrong,
        ));
    }
    let table = list
        .into_iter()
        .map(|(id, what, m)| (id, what.to_owned(), m))
        .collect();
    catalogue(table, pairs, |m, also| {
        Box::new(C4Model {
            also: also.unwrap_or(C4Mistake::None),
            ..C4Model::of(game, m)
        })
    })
}

// ---------------------------------------------------------------- Tippy

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TippyMistake {
    None,
    /// A tippy shape the winner test does not know: 0 Z across, 1 S across, 2 down
    /// leaning right, 3 down leaning left.
    Shape(usize),
    /// A border the winner test skips: a tippy touching it is not seen. 0 top row, 1 bottom
    /// row, 2 left column, 3 right column.
    Border(usize),
    /// The winner test looks from each shape's first cell (in reading order), and a cell one
    /// before the first column (0) or row (1) is Python's index -1: the last one. The two
    /// shapes that reach back from their first cell then also "win" wrapped around the
    /// board's edge (the cells past the far edges raise IndexError, which the test catches).
    Wraps(usize),
    /// A full board without a tippy is not over: the game stays in play with no move.
    FullNotOver,
    /// The cells are compared with each other, never with the player's letter: once seven
    /// cells are claimed (enough for a tippy), four empty cells in a tippy's shape are a
    /// win, for the player who moved last.
    EmptyTippyWins,
    /// A T (three cells in a column, one beside the middle on the left) is taken for a
    /// tippy.
    TShapeWins,
    /// The upright tippy leaning left is looked for one column in: touching the leftmost
    /// column, it is missed.
    DownLeftMissesLeftColumn,
}

/// A shape a winner test knows: its kind and its four (x, y) cells.
pub type Shape = (usize, [(usize, usize); 4]);

pub struct TippyModel {
    pub size: usize,
    pub start: (Grid, Player),
    pub mistake: TippyMistake,
    /// A second mistake made with it (`None` for one alone).
    pub also: TippyMistake,
    /// The shapes its winner test knows, worked out once.
    pub shapes: std::sync::OnceLock<Vec<Shape>>,
}

impl TippyModel {
    pub fn of(game: &crate::game::tippy::Tippy, mistake: TippyMistake) -> TippyModel {
        let n = usize::from(game.size);
        let s = game.start();
        let mut grid = vec![None; n * n];
        for (i, cell) in grid.iter_mut().enumerate() {
            let bit = 1u64 << i;
            *cell = if s.cells[0] & bit != 0 {
                Some(Player::Maxie)
            } else if s.cells[1] & bit != 0 {
                Some(Player::Minnie)
            } else {
                None
            };
        }
        TippyModel {
            size: n,
            start: (grid, s.to_move),
            mistake,
            also: TippyMistake::None,
            shapes: Default::default(),
        }
    }

    fn has(&self, m: TippyMistake) -> bool {
        self.mistake == m || self.also == m
    }

    /// Every shape the (possibly mistaken) winner test takes for a tippy, as four (x, y)
    /// cells, each with its kind: 0-3 the four tippies (Z across, S
    /// across, upright leaning right, upright leaning left), 4 a T, 5 one wrapped around an
    /// edge.
    fn shapes(&self) -> &[(usize, [(usize, usize); 4])] {
        self.shapes.get_or_init(|| self.work_out_shapes())
    }

    fn work_out_shapes(&self) -> Vec<(usize, [(usize, usize); 4])> {
        let n = self.size;
        let mut out = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let mut shapes: Vec<(usize, [(usize, usize); 4])> = Vec::new();
                if x + 2 < n && y + 1 < n {
                    shapes.push((0, [(x, y), (x + 1, y), (x + 1, y + 1), (x + 2, y + 1)]));
                    shapes.push((1, [(x + 1, y), (x + 2, y), (x, y + 1), (x + 1, y + 1)]));
                }
                if x + 1 < n && y + 2 < n {
                    shapes.push((2, [(x, y), (x, y + 1), (x + 1, y + 1), (x + 1, y + 2)]));
                    shapes.push((3, [(x + 1, y), (x + 1, y + 1), (x, y + 1), (x, y + 2)]));
                    if self.has(TippyMistake::TShapeWins) {
                        out.push((4, [(x + 1, y), (x, y + 1), (x + 1, y + 1), (x + 1, y + 2)]));
                    }
                }
                for axis in (0..2).filter(|&a| self.has(TippyMistake::Wraps(a))) {
                    // Anchored on the left column: the S across and the tippy leaning left
                    // reach one column back, to the last column; the same turned a quarter
                    // for the top row.
                    let turn = |cells: [(usize, usize); 4]| match axis {
                        0 => cells,
                        _ => cells.map(|(a, b)| (b, a)),
                    };
                    if x == 0 && y + 1 < n {
                        out.push((5, turn([(0, y), (1, y), (n - 1, y + 1), (0, y + 1)])));
                    }
                    if x == 0 && y + 2 < n {
                        out.push((
                            5,
                            turn([(0, y), (0, y + 1), (n - 1, y + 1), (n - 1, y + 2)]),
                        ));
                    }
                }
                for (kind, cells) in shapes {
                    let touches = |b: usize| {
                        cells.iter().any(|&(cx, cy)| match b {
                            0 => cy == 0,
                            1 => cy == n - 1,
                            2 => cx == 0,
                            _ => cx == n - 1,
                        })
                    };
                    let edge_column_missed =
                        kind == 3 && x == 0 && self.has(TippyMistake::DownLeftMissesLeftColumn);
                    let known = !self.has(TippyMistake::Shape(kind))
                        && !(0..4).any(|b| self.has(TippyMistake::Border(b)) && touches(b))
                        && !edge_column_missed;
                    if known {
                        out.push((kind, cells));
                    }
                }
            }
        }
        out
    }

    fn wins(&self, g: &Grid, p: Player) -> bool {
        self.tippy_of(g, Some(p)).is_some()
    }

    /// The first shape the test knows whose four cells are `who`'s (`None`: empty).
    fn tippy_of(&self, g: &Grid, who: Option<Player>) -> Option<(usize, [(usize, usize); 4])> {
        self.shapes()
            .iter()
            .find(|(_, t)| t.iter().all(|&(x, y)| g[y * self.size + x] == who))
            .copied()
    }

    /// Four empty cells the test takes for a tippy (once seven cells are claimed).
    fn empty_tippy(&self, g: &Grid) -> Option<(usize, [(usize, usize); 4])> {
        if !self.has(TippyMistake::EmptyTippyWins) || g.iter().flatten().count() < 7 {
            return None;
        }
        self.tippy_of(g, None)
    }

    /// The winner as the (possibly mistaken) test sees it.
    fn winner(&self, g: &Grid, to_move: Player) -> Option<Player> {
        winner_of(
            (self.wins(g, Player::Maxie), self.wins(g, Player::Minnie)),
            to_move,
        )
        .or_else(|| self.empty_tippy(g).map(|_| to_move.other()))
    }

    /// A shape in words, with the edges it touches.
    fn shape_words(&self, kind: usize, cells: &[(usize, usize); 4]) -> String {
        let n = self.size;
        let name = match kind {
            0 => "the Z tippy lying across (XX. over .XX)",
            1 => "the S tippy lying across (.XX over XX.)",
            2 => "the upright tippy leaning right (X., XX, .X)",
            3 => "the upright tippy leaning left (.X, XX, X.)",
            4 => "a T, not a tippy (.X, XX, .X)",
            _ => "a tippy wrapped around the board's edge",
        };
        let mut edges = Vec::new();
        if cells.iter().any(|c| c.0 == 0) {
            edges.push("the leftmost column");
        }
        if cells.iter().any(|c| c.0 == n - 1) {
            edges.push("the rightmost column");
        }
        if cells.iter().any(|c| c.1 == 0) {
            edges.push("the top row");
        }
        if cells.iter().any(|c| c.1 == n - 1) {
            edges.push("the bottom row");
        }
        if edges.is_empty() || kind == 5 {
            name.to_owned()
        } else {
            format!("{name}, touching {}", edges.join(" and "))
        }
    }

    fn cells_text(
        &self,
        g: &Grid,
        owner: Option<Player>,
        kind: usize,
        t: &[(usize, usize); 4],
    ) -> WinCells {
        let n = self.size;
        let rows: Vec<String> = (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| match g[y * n + x] {
                        Some(Player::Maxie) => 'X',
                        Some(Player::Minnie) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        let numbers: Vec<usize> = (1..=n).collect();
        WinCells {
            owner,
            cells: t.to_vec(),
            shape: self.shape_words(kind, t),
            named: t
                .iter()
                .map(|(x, y)| format!("({},{})", x + 1, y + 1))
                .collect::<Vec<_>>()
                .join(" "),
            board: marked_board(&rows, t, 1, &numbers),
        }
    }
}

impl Rules for TippyModel {
    type S = (Grid, Player);
    fn start(&self) -> Self::S {
        self.start.clone()
    }
    fn win_cells(&self, (g, p): &Self::S) -> Option<WinCells> {
        let w = self.winner(g, *p)?;
        if let Some((kind, t)) = self.tippy_of(g, Some(w)) {
            return Some(self.cells_text(g, Some(w), kind, &t));
        }
        let (kind, t) = self.empty_tippy(g)?;
        Some(self.cells_text(g, None, kind, &t))
    }
    fn view(&self, (g, p): &Self::S) -> View {
        let winner = self.winner(g, *p);
        let status = match winner {
            Some(w) => Status::Over(Outcome::Winner(w)),
            None if g.iter().all(Option::is_some) && !self.has(TippyMistake::FullNotOver) => {
                Status::Over(Outcome::Draw)
            }
            None => Status::InPlay,
        };
        let mut moves = Vec::new();
        if status == Status::InPlay {
            for y in 0..self.size {
                for x in 0..self.size {
                    if g[y * self.size + x].is_none() {
                        moves.push(format!("({},{})", x + 1, y + 1));
                    }
                }
            }
        }
        View {
            moves,
            status,
            player: *p,
            estimate: None,
        }
    }
    fn play(&self, s: &Self::S, name: &str) -> Option<Self::S> {
        if !self.view(s).moves.iter().any(|m| m == name) {
            return None;
        }
        let inner = name.trim_start_matches('(').trim_end_matches(')');
        let (x, y) = inner.split_once(',')?;
        let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        let (mut g, p) = s.clone();
        g[(y - 1) * self.size + (x - 1)] = Some(p);
        Some((g, p.other()))
    }
}

/// Tippy's rule mistakes, alone or (`pairs`) two at a time.
pub fn tippy_mutants(game: &crate::game::tippy::Tippy, pairs: bool) -> Vec<Mutant> {
    let shapes = [
        (
            "no-z-across",
            "the Z tippy lying across (XX. over .XX) is not checked",
        ),
        (
            "no-s-across",
            "the S tippy lying across (.XX over XX.) is not checked",
        ),
        (
            "no-down-right",
            "the upright tippy leaning right (X., XX, .X) is not checked",
        ),
        (
            "no-down-left",
            "the upright tippy leaning left (.X, XX, X.) is not checked",
        ),
    ];
    let borders = [
        ("skips-top-row", "the winner test skips the top row"),
        ("skips-bottom-row", "the winner test skips the bottom row"),
        ("skips-left-column", "the winner test skips the left column"),
        (
            "skips-right-column",
            "the winner test skips the right column",
        ),
    ];
    let mut table: Table<TippyMistake> = Vec::new();
    for (k, (id, what)) in shapes.into_iter().enumerate() {
        table.push((id, what.to_owned(), TippyMistake::Shape(k)));
    }
    for (k, (id, what)) in borders.into_iter().enumerate() {
        table.push((id, what.to_owned(), TippyMistake::Border(k)));
    }
    let wraps = [
        (
            "wraps-left-edge",
            "the winner test reads the column left of the first as the last column (Python's index -1), so a tippy wraps around the left and right edges",
        ),
        (
            "wraps-top-edge",
            "the winner test reads the row above the first as the last row (Python's index -1), so a tippy wraps around the top and bottom edges",
        ),
    ];
    for (k, (id, what)) in wraps.into_iter().enumerate() {
        table.push((id, what.to_owned(), TippyMistake::Wraps(k)));
    }
    table.push((
        "full-board-not-over",
        "a full board without a tippy is not over (a tie): the game stays in play with no move"
            .to_owned(),
        TippyMistake::FullNotOver,
    ));
    // Three slips of one real submission's winner test.
    table.push((
        "empty-tippy-wins",
        "the winner test compares the four cells with each other, not with the player's letter: once seven cells are claimed, four empty cells in a tippy's shape win, for the player who moved last"
            .to_owned(),
        TippyMistake::EmptyTippyWins,
    ));
    table.push((
        "t-shape-wins",
        "the winner test takes a T (three cells in a column and one beside the middle, on the left) for a tippy"
            .to_owned(),
        TippyMistake::TShapeWins,
    ));
    table.push((
        "down-left-misses-left-column",
        "the winner test looks for the upright tippy leaning left (.X, XX, X.) one column in, so it is missed where it touches the leftmost column"
            .to_owned(),
        TippyMistake::DownLeftMissesLeftColumn,
    ));
    catalogue(table, pairs, |m, also| {
        Box::new(TippyModel {
            also: also.unwrap_or(TippyMistake::None),
            ..TippyModel::of(game, m)
        })
    })
}

// ---------------------------------------------------------------- Subtract Square

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsMistake {
    None,
    /// The next square above the total is offered too (`range(1, isqrt + 2)`).
    TooLarge,
    /// 0 is offered as a square.
    Zero,
    /// `over` is never set (the starter's GameState leaves it False): a total of 0 is still
    /// in play, with no move, and the course's game_view never ends.
    NeverOver,
}

pub struct SsModel {
    pub start: (u64, Player),
    pub mistake: SsMistake,
    /// A second mistake made with it (`None` for one alone).
    pub also: SsMistake,
    /// The order the game lists its moves in (the mistaken list reversed with them).
    pub order: crate::game::subtract_square::SquareOrder,
}

impl Rules for SsModel {
    type S = (i64, Player);
    fn start(&self) -> Self::S {
        (self.start.0 as i64, self.start.1)
    }
    fn view(&self, &(total, p): &Self::S) -> View {
        // As the course's state has it: over when the total is 0 (or below, once a square
        // too large was taken); the winner is whoever moved last.
        let has = |m: SsMistake| self.mistake == m || self.also == m;
        let status = if total <= 0 && !has(SsMistake::NeverOver) {
            Status::Over(Outcome::Winner(p.other()))
        } else {
            Status::InPlay
        };
        // A mistaken student's list comes from the total alone, as CSC148's
        // possible_next_moves is usually written: even a finished game offers what it finds.
        let mut moves = Vec::new();
        let total = total.max(0);
        let first = if has(SsMistake::Zero) { 0 } else { 1 };
        let past = if has(SsMistake::TooLarge) { 1 } else { 0 };
        if status == Status::InPlay || self.mistake != SsMistake::None {
            let mut i = first;
            while i * i <= total {
                moves.push((i * i).to_string());
                i += 1;
            }
            if past == 1 {
                moves.push((i * i).to_string());
            }
        }
        if self.order == crate::game::subtract_square::SquareOrder::LargestFirst {
            moves.reverse();
        }
        View {
            moves,
            status,
            player: p,
            estimate: None,
        }
    }
    fn play(&self, s: &Self::S, name: &str) -> Option<Self::S> {
        if !self.view(s).moves.iter().any(|m| m == name) {
            return None;
        }
        let n: i64 = name.parse().ok()?;
        Some((s.0 - n, s.1.other()))
    }
}

/// Subtract Square's rule mistakes, alone or (`pairs`) two at a time.
pub fn subtract_square_mutants(
    game: &crate::game::subtract_square::SubtractSquare,
    pairs: bool,
) -> Vec<Mutant> {
    let s = game.start();
    let start = (s.total, s.to_move);
    let table = vec![
        (
            "square-too-large",
            "a square larger than the total is offered".to_owned(),
            SsMistake::TooLarge,
        ),
        (
            "zero-offered",
            "0 is offered as a square to subtract".to_owned(),
            SsMistake::Zero,
        ),
        (
            "never-over",
            "`over` is never set, so a total of 0 is still in play with no move (the course's game_view loops while not over)".to_owned(),
            SsMistake::NeverOver,
        ),
    ];
    catalogue(table, pairs, |mistake, also| {
        Box::new(SsModel {
            start,
            mistake,
            also: also.unwrap_or(SsMistake::None),
            order: game.order,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::{RngCore, SeedableRng};

    /// Random games on both: every view agrees, move for move.
    fn agree<A: Rules, B: Rules>(a: &A, b: &B, games: usize) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..games {
            let (mut x, mut y) = (a.start(), b.start());
            loop {
                let (vx, vy) = (a.view(&x), b.view(&y));
                assert_eq!(vx, vy);
                if vx.moves.is_empty() {
                    break;
                }
                let name = &vx.moves[rng.next_u32() as usize % vx.moves.len()];
                x = a.play(&x, name).unwrap();
                y = b.play(&y, name).unwrap();
            }
        }
    }

    #[test]
    fn the_plain_models_are_the_reference() {
        use crate::game::{connect4::Connect4, subtract_square::SubtractSquare, tippy::Tippy};
        for g in [
            Connect4::new(7, 6, false),
            Connect4::new(5, 4, true),
            Connect4::new(4, 2, false),
        ] {
            let r = Reference {
                game: &g,
                estimate: None,
            };
            agree(&r, &C4Model::of(&g, C4Mistake::None), 300);
        }
        for n in [3, 4, 5] {
            let g = Tippy::new(n);
            let r = Reference {
                game: &g,
                estimate: None,
            };
            agree(&r, &TippyModel::of(&g, TippyMistake::None), 300);
        }
        let g = SubtractSquare::new(40, Player::Maxie);
        let r = Reference {
            game: &g,
            estimate: None,
        };
        let model = SsModel {
            start: (40, Player::Maxie),
            mistake: SsMistake::None,
            also: SsMistake::None,
            order: Default::default(),
        };
        agree(&r, &model, 300);
    }

    #[test]
    fn each_mutant_differs_from_the_reference_somewhere() {
        use crate::game::{connect4::Connect4, tippy::Tippy};
        let how = Compare {
            order: true,
            estimate: false,
        };
        let g = Connect4::new(7, 6, true);
        let r = Reference {
            game: &g,
            estimate: None,
        };
        let t = Tippy::new(4);
        let rt = Reference {
            game: &t,
            estimate: None,
        };
        let small = Connect4::new(4, 3, false);
        let rs = Reference {
            game: &small,
            estimate: None,
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut seen = std::collections::BTreeMap::new();
        for (mutants, lines) in [
            (
                connect4_mutants(&g, false),
                random_lines(&r, 2000, &mut rng),
            ),
            (
                connect4_mutants(&small, false),
                random_lines(&rs, 2000, &mut rng),
            ),
            (tippy_mutants(&t, false), random_lines(&rt, 2000, &mut rng)),
        ] {
            for m in mutants {
                let differs = lines
                    .iter()
                    .any(|(p, v)| m.rules.first_difference(p, v, how).is_some());
                *seen.entry(m.id).or_insert(false) |= differs;
            }
        }
        for (id, differs) in seen {
            assert!(differs, "{id} never differs from the reference");
        }
    }

    fn random_lines<R: Rules>(
        r: &R,
        n: usize,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Vec<(Vec<String>, Vec<View>)> {
        (0..n)
            .map(|_| {
                let mut s = r.start();
                let (mut path, mut views) = (Vec::new(), Vec::new());
                loop {
                    let v = r.view(&s);
                    views.push(v.clone());
                    if v.moves.is_empty() {
                        break;
                    }
                    let name = v.moves[rng.next_u32() as usize % v.moves.len()].clone();
                    s = r.play(&s, &name).unwrap();
                    path.push(name);
                }
                (path, views)
            })
            .collect()
    }
}

// ---------------------------------------------------------------- Riskless

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RisklessMistake {
    None,
    /// `max_terri` never caps a territory's armies.
    NoCap,
    /// Nobody trains after a move.
    NoTraining,
    /// A battle's winner keeps its whole army (the loser's is not taken off).
    WinnerKeepsAll,
    /// When both reach `max_units`, Maxie wins instead of a draw.
    NoDrawAtTarget,
    /// A player left with no territory has not lost (only the army target ends the game).
    NoLastStanding,
    /// A battle of equal armies goes to the defender (`moving > a`, not `>=`): the target
    /// stays the defender's, with none left.
    TieToDefender,
    /// The territory a move leaves keeps its armies: they are copied to the target, not
    /// moved.
    SourceKeepsArmies,
}

/// Riskless's rules on a plain list of holdings, with one mistake or none.
pub struct RisklessModel {
    pub map: std::sync::Arc<crate::game::riskless::Map>,
    pub start: (Vec<Option<(Player, u32)>>, Player),
    pub mistake: RisklessMistake,
    /// A second mistake made with it (`None` for one alone).
    pub also: RisklessMistake,
}

impl RisklessModel {
    pub fn of(game: &crate::game::riskless::Riskless, mistake: RisklessMistake) -> RisklessModel {
        use crate::game::riskless::Holding;
        let s = game.start();
        let held = (0..game.map.territories.len() as u8)
            .map(|t| match s.holding(t) {
                Holding::Empty => None,
                Holding::Held(p, a) => Some((p, u32::from(a))),
            })
            .collect();
        RisklessModel {
            map: game.map.clone(),
            start: (held, s.to_move),
            mistake,
            also: RisklessMistake::None,
        }
    }

    fn has(&self, m: RisklessMistake) -> bool {
        self.mistake == m || self.also == m
    }

    fn name(&self, t: usize) -> &str {
        &self.map.territories[t]
    }
}

impl Rules for RisklessModel {
    type S = (Vec<Option<(Player, u32)>>, Player);
    fn start(&self) -> Self::S {
        self.start.clone()
    }
    fn view(&self, (held, p): &Self::S) -> View {
        let holds = |who: Player| held.iter().any(|h| matches!(h, Some((q, _)) if *q == who));
        let total = |who: Player| -> u32 {
            held.iter()
                .filter_map(|h| h.filter(|(q, _)| *q == who).map(|(_, a)| a))
                .sum()
        };
        let target = self.map.max_units;
        let standing = if self.has(RisklessMistake::NoLastStanding) {
            None
        } else {
            match (holds(Player::Maxie), holds(Player::Minnie)) {
                (false, _) => Some(Player::Minnie),
                (_, false) => Some(Player::Maxie),
                _ => None,
            }
        };
        let status = match standing {
            Some(w) => Status::Over(Outcome::Winner(w)),
            None => match (
                total(Player::Maxie) >= target,
                total(Player::Minnie) >= target,
            ) {
                (true, true) if self.has(RisklessMistake::NoDrawAtTarget) => {
                    Status::Over(Outcome::Winner(Player::Maxie))
                }
                (true, true) => Status::Over(Outcome::Draw),
                (true, false) => Status::Over(Outcome::Winner(Player::Maxie)),
                (false, true) => Status::Over(Outcome::Winner(Player::Minnie)),
                (false, false) => Status::InPlay,
            },
        };
        let mut moves = Vec::new();
        if status == Status::InPlay {
            for (t, h) in held.iter().enumerate() {
                if matches!(h, Some((q, _)) if q == p) {
                    for &to in &self.map.roads[t] {
                        moves.push(format!("{}->{}", self.name(t), self.name(usize::from(to))));
                    }
                }
            }
        }
        View {
            moves,
            status,
            player: *p,
            estimate: None,
        }
    }
    fn play(&self, s: &Self::S, name: &str) -> Option<Self::S> {
        if !self.view(s).moves.iter().any(|m| m == name) {
            return None;
        }
        let (from, to) = name.split_once("->")?;
        let index = |n: &str| self.map.territories.iter().position(|t| t == n);
        let (from, to) = (index(from)?, index(to)?);
        let (mut held, me) = s.clone();
        let cap = |a: u32| {
            if self.has(RisklessMistake::NoCap) {
                a
            } else {
                a.min(u32::from(self.map.max_terri))
            }
        };
        let moving = held[from].map_or(0, |(_, a)| a);
        if !self.has(RisklessMistake::SourceKeepsArmies) {
            held[from] = Some((me, 0));
        }
        held[to] = Some(match held[to] {
            None => (me, cap(moving)),
            Some((q, a)) if q == me => (me, cap(a + moving)),
            Some((q, a)) => {
                let attacker_wins = if self.has(RisklessMistake::TieToDefender) {
                    moving > a
                } else {
                    moving >= a
                };
                if attacker_wins {
                    let left = if self.has(RisklessMistake::WinnerKeepsAll) {
                        moving
                    } else {
                        moving - a
                    };
                    (me, cap(left))
                } else {
                    let left = if self.has(RisklessMistake::WinnerKeepsAll) {
                        a
                    } else {
                        a - moving
                    };
                    (q, cap(left))
                }
            }
        });
        if !self.has(RisklessMistake::NoTraining) {
            for h in held.iter_mut().flatten() {
                h.1 = cap(h.1 + 1);
            }
        }
        Some((held, me.other()))
    }
}

/// Riskless's rule mistakes, alone or (`pairs`) two at a time.
pub fn riskless_mutants(game: &crate::game::riskless::Riskless, pairs: bool) -> Vec<Mutant> {
    let table = [
        (
            "no-cap",
            "max_terri does not cap a territory's armies",
            RisklessMistake::NoCap,
        ),
        (
            "no-training",
            "no army is trained after a move",
            RisklessMistake::NoTraining,
        ),
        (
            "winner-keeps-all",
            "a battle's winner keeps its whole army (the loser's armies are not taken off)",
            RisklessMistake::WinnerKeepsAll,
        ),
        (
            "no-draw-at-target",
            "when both players reach max_units, Maxie wins instead of a draw",
            RisklessMistake::NoDrawAtTarget,
        ),
        (
            "no-last-standing",
            "a player left without territory has not lost",
            RisklessMistake::NoLastStanding,
        ),
        (
            "tie-to-defender",
            "a battle of equal armies goes to the defender, not the attacker",
            RisklessMistake::TieToDefender,
        ),
        (
            "source-keeps-armies",
            "the territory a move leaves keeps its armies: they are copied to the target, not moved",
            RisklessMistake::SourceKeepsArmies,
        ),
    ]
    .into_iter()
    .map(|(id, what, m)| (id, what.to_owned(), m))
    .collect();
    catalogue(table, pairs, |m, also| {
        Box::new(RisklessModel {
            also: also.unwrap_or(RisklessMistake::None),
            ..RisklessModel::of(game, m)
        })
    })
}

#[cfg(test)]
mod riskless_tests {
    use super::*;
    use crate::game::riskless::{Map, Riskless};
    use rand_chacha::rand_core::{RngCore, SeedableRng};

    #[test]
    fn the_plain_model_is_the_reference_and_each_mutant_differs() {
        let how = Compare {
            order: true,
            estimate: false,
        };
        for map in [Map::m1(), Map::m2()] {
            let g = Riskless::new(map);
            let r = Reference {
                game: &g,
                estimate: None,
            };
            let plain = RisklessModel::of(&g, RisklessMistake::None);
            let mutants = riskless_mutants(&g, false);
            let mut differs = vec![false; mutants.len()];
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
            for _ in 0..300 {
                let (mut a, mut b) = (r.start(), plain.start());
                let (mut path, mut views) = (Vec::new(), Vec::new());
                for _ in 0..200 {
                    let (va, vb) = (r.view(&a), plain.view(&b));
                    assert_eq!(va, vb);
                    views.push(va.clone());
                    if va.moves.is_empty() {
                        break;
                    }
                    let name = va.moves[rng.next_u32() as usize % va.moves.len()].clone();
                    a = r.play(&a, &name).unwrap();
                    b = plain.play(&b, &name).unwrap();
                    path.push(name);
                }
                path.truncate(views.len().saturating_sub(1).min(path.len()));
                for (i, m) in mutants.iter().enumerate() {
                    differs[i] |= m.rules.first_difference(&path, &views, how).is_some();
                }
            }
            // Both at the target at once, and a player losing every territory (a source
            // stays its mover's), are rare in random play: the specs' scenarios pin them.
            for (m, d) in mutants.iter().zip(differs) {
                let rare = ["no-draw-at-target", "no-last-standing"].contains(&m.id);
                assert!(d || rare, "{} never differs", m.id);
            }
        }
    }
}

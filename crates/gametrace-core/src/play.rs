//! The terminal referee (`gametrace play`): two players, human or computer, take turns on a
//! real game, as the handouts' `Referee` runs them. The board is shown after every move, and
//! each computer move with the time its search took.

use crate::clock::Instant;
use crate::course::{Course, Cs10, Csc148, Settings, S14};
use crate::game::kalah::{Board, Kalah, Pit};
use crate::game::{Estimator, Game, Outcome, Playable, Status};
use crate::search::solve::{Database, Unsolved};
use crate::search::{csc148, Algorithm, NullSink};
use crate::spec::GameDocument;
use std::io::{self, BufRead, Write};

/// Who makes a side's moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player {
    Human,
    /// A search to this depth, with this estimator.
    Computer {
        algorithm: Algorithm,
        depth: u32,
        estimator: Estimator,
    },
    /// One of CSC148's strategies (`minimax`, `memoize` and `prune` to the end of every
    /// game, `myopic:D`), scoring with the game's rough outcome.
    Strategy(csc148::Strategy),
    /// CS10's negamax (`negamax:D`) or negamax with a window (`negamax_ab:D`).
    Negamax {
        window: bool,
        depth: u32,
    },
    /// The solver's perfect play (`perfect`; Kalah only), depth-limited where a position is
    /// not solved within the time allowed.
    Perfect,
    /// A program outside gametrace (a student's player), asked for each move through
    /// [`Hands::programs`]; `grade --player-cmd` seats it.
    Program,
}

impl Player {
    /// `human`, `minimax:D`, `alphabeta:D` or `jamboree:D:P`, each computer player optionally
    /// followed by `:improved` (or `:naive`, the default).
    pub fn parse(s: &str) -> Result<Player, String> {
        let usage = "human, minimax:D, alphabeta:D or jamboree:D:P (D a depth, P a fraction from 0 to 1), optionally followed by :improved; CSC148's minimax, memoize, prune or myopic:D; CS10's negamax:D or negamax_ab:D; or perfect (Kalah)";
        let mut parts: Vec<&str> = s.split(':').collect();
        let estimator = match parts.last().and_then(|p| Estimator::parse(p)) {
            Some(e) if parts.len() > 1 => {
                parts.pop();
                e
            }
            _ => Estimator::Naive,
        };
        let depth = |d: &str| -> Result<u32, String> {
            d.parse::<u32>()
                .ok()
                .filter(|&d| (1..=crate::game::MAX_DEPTH).contains(&d))
                .ok_or_else(|| {
                    format!(
                        "`{d}` is not a search depth (1 to {}) in `{s}`",
                        crate::game::MAX_DEPTH
                    )
                })
        };
        let computer = |algorithm, d: &str| -> Result<Player, String> {
            Ok(Player::Computer {
                algorithm,
                depth: depth(d)?,
                estimator,
            })
        };
        let strategy = |memoize, prune, depth| {
            Ok(Player::Strategy(csc148::Strategy {
                memoize,
                prune,
                depth,
            }))
        };
        match parts[..] {
            ["human"] => Ok(Player::Human),
            ["perfect"] => Ok(Player::Perfect),
            ["minimax"] => strategy(false, false, None),
            ["memoize"] => strategy(true, false, None),
            ["prune"] => strategy(false, true, None),
            ["myopic", d] => strategy(false, false, Some(depth(d)?)),
            ["negamax", d] => Ok(Player::Negamax {
                window: false,
                depth: depth(d)?,
            }),
            ["negamax_ab", d] => Ok(Player::Negamax {
                window: true,
                depth: depth(d)?,
            }),
            ["minimax", d] => computer(Algorithm::Minimax, d),
            ["alphabeta", d] => computer(Algorithm::AlphaBeta, d),
            ["jamboree", d, p] => {
                let prune_percentage = p
                    .parse::<f64>()
                    .ok()
                    .filter(|p| (0.0..=1.0).contains(p))
                    .ok_or_else(|| {
                        format!("`{p}` is not a prune percentage from 0 to 1 in `{s}`")
                    })?;
                computer(Algorithm::Jamboree { prune_percentage }, d)
            }
            _ => Err(format!("`{s}` is not a player: write {usage}")),
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Perfect => f.write_str("perfect"),
            Player::Program => f.write_str("program"),
            Player::Computer {
                algorithm,
                depth,
                estimator,
            } => {
                write!(f, "{}:{depth}", algorithm.name())?;
                if let Algorithm::Jamboree { prune_percentage } = algorithm {
                    write!(f, ":{prune_percentage}")?;
                }
                if *estimator != Estimator::Naive {
                    write!(f, ":{}", estimator.name())?;
                }
                Ok(())
            }
            Player::Strategy(s) => match (s.memoize, s.prune, s.depth) {
                (true, _, _) => f.write_str("memoize"),
                (_, true, _) => f.write_str("prune"),
                (_, _, Some(d)) => write!(f, "myopic:{d}"),
                _ => f.write_str("minimax"),
            },
            Player::Negamax { window, depth } => {
                write!(
                    f,
                    "{}:{depth}",
                    if *window { "negamax_ab" } else { "negamax" }
                )
            }
        }
    }
}

/// How a game under the referee ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Over(Outcome),
    /// The move limit was reached first.
    Stopped,
    /// A human's input ended before the game did.
    InputEnded,
    /// This side's program gave no move, or an illegal one: the game stops there (what
    /// happened is written to the game's record).
    Forfeited(crate::game::Player),
}

/// A finished game: how it ended, and the judge's tally of each judged side's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub ending: Ending,
    /// Maxie's tally and Minnie's, for the sides `--judge` weighed.
    pub tallies: [Option<Tally>; 2],
    /// Why a program forfeited the game ([`Ending::Forfeited`]): "gave no move at move 3:
    /// ..." or "chose `9` at move 3, which is not a legal move there (...)".
    pub forfeit: Option<String>,
}

/// A move a program outside gametrace chose, or why it chose none.
pub type Chosen = Result<String, String>;

/// A player outside gametrace: a program that picks moves (a student's player, behind a
/// driver speaking the probe protocol).
pub trait Program {
    /// The name of the move the program picks now, `moves` being every move of the game so
    /// far, by name, from the start; `Err` says why it gave none.
    fn choose(&mut self, moves: &[String]) -> Chosen;
}

/// Where the moves gametrace does not compute come from: a person's (`human`) are read from
/// `input`, a program's (`program`) asked of the program in that side's seat.
pub struct Hands<'i, 'p> {
    pub input: &'i mut dyn BufRead,
    /// Maxie's program and Minnie's.
    pub programs: [Option<&'p mut dyn Program>; 2],
}

impl<'i> Hands<'i, '_> {
    /// Only people, reading from `input`.
    pub fn people(input: &'i mut dyn BufRead) -> Self {
        Hands {
            input,
            programs: [None, None],
        }
    }
}

/// Who plays a game under the referee, for how many moves, and whose moves are judged.
#[derive(Clone, Copy, Debug)]
pub struct Seats {
    pub maxie: Player,
    pub minnie: Player,
    /// At most this many moves are made.
    pub max_moves: u64,
    /// Judge Maxie's moves, Minnie's, against perfect play (`--judge`).
    pub judged: [bool; 2],
    /// What the solver may use on each position (perfect play and judging).
    pub solver: SolverLimits,
    /// Say how long each move took (`play` does; `grade`'s game records leave it out, so
    /// that the same submission gets the same report on every run).
    pub clock: bool,
}

/// What the solver may use: its time for each position before it falls back to a
/// depth-limited search (`None`: until it is solved), and its memory.
#[derive(Clone, Copy, Debug)]
pub struct SolverLimits {
    pub time: Option<std::time::Duration>,
    pub memory: usize,
}

impl Seats {
    /// Does a player or the judge need the solver?
    pub fn need_solver(&self) -> bool {
        self.judged.contains(&true) || [self.maxie, self.minnie].contains(&Player::Perfect)
    }
}

/// How a move's worth was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// Solved: perfect play on both sides to the end of the game.
    Exact,
    /// Not solved in the time allowed: a search this many turns deep, which counts the seeds
    /// in the kalahs where it stops.
    DepthLimited(u32),
}

/// A move weighed against the best one at its position, in the game's final margin for the
/// player making it (their kalah minus the other's at the end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighed {
    /// The move, as the judge names it (`pit 3`).
    pub this_move: String,
    pub best_move: String,
    pub best: i64,
    pub this: i64,
    pub exactness: Exactness,
}

/// Perfect play, for a game the solver solves: the perfect player's moves and the judge's
/// weighing of every move.
pub trait Oracle<G: Playable> {
    /// A best move at `state` (a game in play), and how it was found.
    fn best(&mut self, game: &G, state: &G::State) -> (G::Move, Exactness);
    /// `mv` at `state`, weighed against the best move there.
    fn weigh(&mut self, game: &G, state: &G::State, mv: G::Move) -> Weighed;
}

/// The judge's tally of a side's moves (which `grade` makes a case's verdict of): how much
/// final margin they gave away against perfect play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The side's moves weighed.
    pub moves: u64,
    /// Seeds of final margin given away, over all of them.
    pub lost: i64,
    /// The move that gave away the most: its number in the game, its name, what it lost.
    pub worst: Option<(u64, String, i64)>,
    /// Moves weighed by a depth-limited search (not solved in the time allowed).
    pub depth_limited: u64,
}

impl Tally {
    fn add(&mut self, number: u64, w: &Weighed) {
        let loss = w.best - w.this;
        self.moves += 1;
        self.lost += loss;
        if loss > 0 && self.worst.as_ref().is_none_or(|(_, _, l)| loss > *l) {
            self.worst = Some((number, w.this_move.clone(), loss));
        }
        if w.exactness != Exactness::Exact {
            self.depth_limited += 1;
        }
    }

    /// The judge's last word on the side `who`: "p1 (negamax:1) lost 6 seeds of margin ...".
    pub fn summary(&self, who: &str) -> String {
        let moves = plural(self.moves, "move");
        let mut line = match &self.worst {
            None if self.moves == 0 => format!("{who} made no move"),
            None => format!("{who} gave away no margin over {moves}: every move was a best move"),
            Some((number, name, loss)) => format!(
                "{who} lost {} of margin over {moves}; its worst move was {name} at move {number}, \u{2212}{loss}",
                plural(self.lost as u64, "seed")
            ),
        };
        if self.depth_limited > 0 {
            line += &format!(
                " ({} weighed by a depth-limited search, not solved in the time allowed)",
                plural(self.depth_limited, "move")
            );
        }
        line + "."
    }
}

/// Maxie's seat is 0, Minnie's 1.
fn seat(p: crate::game::Player) -> usize {
    match p {
        crate::game::Player::Maxie => 0,
        crate::game::Player::Minnie => 1,
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// What the judge says of one move, under it.
fn judgement(number: u64, w: &Weighed) -> String {
    let name = &w.this_move;
    let how = match w.exactness {
        Exactness::Exact => String::new(),
        Exactness::DepthLimited(d) => format!(" (depth-limited, {d} turns)"),
    };
    let signed = |v: i64| {
        if v > 0 {
            format!("+{v}")
        } else {
            v.to_string()
        }
    };
    if w.this >= w.best {
        format!(
            "Judge: move {number}, {name}, is a best move: the final margin stays {}{how}.",
            signed(w.best)
        )
    } else {
        format!(
            "Judge: move {number}, {name}, gives away {}: the final margin goes to {}, where {} keeps {}{how}.",
            plural((w.best - w.this) as u64, "seed"),
            signed(w.this),
            w.best_move,
            signed(w.best)
        )
    }
}

/// Plays `game` from its start between the seats' players, taking people's and programs'
/// moves from `hands` and writing everything to `out`. `oracle` plays `perfect` and weighs
/// the judged sides' moves; without one, neither may be asked for.
pub fn referee<G: Playable>(
    game: &G,
    seats: Seats,
    mut oracle: Option<&mut dyn Oracle<G>>,
    hands: &mut Hands<'_, '_>,
    out: &mut dyn Write,
) -> io::Result<Played> {
    let (maxie, minnie) = (seats.maxie, seats.minnie);
    if seats.need_solver() && oracle.is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} has no perfect player and no judge", game.name()),
        ));
    }
    for (seat, player) in [maxie, minnie].into_iter().enumerate() {
        if player == Player::Program && hands.programs[seat].is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a program's seat has no program to ask",
            ));
        }
    }
    let mut tallies = [Tally::default(), Tally::default()];
    let mut forfeit = None;
    let mut history: Vec<String> = Vec::new();
    let mut state = game.start();
    writeln!(
        out,
        "{}: {} ({maxie}) against {} ({minnie})\n",
        game.name(),
        game.player_name(crate::game::Player::Maxie),
        game.player_name(crate::game::Player::Minnie)
    )?;
    write!(out, "{}", game.render(&state))?;
    let ending = loop {
        if let Status::Over(outcome) = game.status(&state) {
            match outcome {
                Outcome::Winner(p) => writeln!(out, "\n{} wins!", game.player_name(p))?,
                Outcome::Draw => writeln!(out, "\nIt's a draw.")?,
            }
            break Ending::Over(outcome);
        }
        let made = history.len() as u64;
        if made == seats.max_moves {
            writeln!(out, "\nStopped after {made} moves (--max-moves).")?;
            break Ending::Stopped;
        }
        let mover = game.player(&state);
        let seat = seat(mover);
        let who = game.player_name(mover);
        let started = Instant::now();
        let (mv, exactness) = match ([maxie, minnie][seat], oracle.as_deref_mut()) {
            (Player::Human, _) => match human_move(game, &state, who, hands.input, out)? {
                Some(mv) => (mv, Exactness::Exact),
                None => break Ending::InputEnded,
            },
            (Player::Program, _) => {
                let program = hands.programs[seat]
                    .as_deref_mut()
                    .expect("checked above: a program's seat has a program");
                match program_move(game, &state, program, &history) {
                    Ok(mv) => (mv, Exactness::Exact),
                    Err(why) => {
                        writeln!(out, "\n{who}'s program {why}: {who} forfeits the game.")?;
                        forfeit = Some(why);
                        break Ending::Forfeited(mover);
                    }
                }
            }
            (Player::Perfect, Some(o)) => o.best(game, &state),
            (computer, _) => (computer_move(game, &state, computer), Exactness::Exact),
        };
        let seconds = started.elapsed().as_secs_f64();
        let name = game.move_name(mv);
        let note = match exactness {
            Exactness::Exact => String::new(),
            Exactness::DepthLimited(d) => {
                format!(" (not solved in the time allowed: a search {d} turns deep chose it)")
            }
        };
        if !seats.clock {
            writeln!(out, "\n{who} decides to make the move {name}{note}.")?;
        } else {
            writeln!(
                out,
                "\n{who} decides to make the move {name} in {seconds:.3} seconds{note}."
            )?;
        }
        if let (true, Some(o)) = (seats.judged[seat], oracle.as_deref_mut()) {
            let w = o.weigh(game, &state, mv);
            writeln!(out, "{}", judgement(made + 1, &w))?;
            tallies[seat].add(made + 1, &w);
        }
        writeln!(out)?;
        state = game.play(&state, mv);
        history.push(name);
        write!(out, "{}", game.render(&state))?;
    };
    let mut judged = [None, None];
    for p in [crate::game::Player::Maxie, crate::game::Player::Minnie] {
        let seat = seat(p);
        if seats.judged[seat] {
            let who = format!("{} ({})", game.player_name(p), [maxie, minnie][seat]);
            writeln!(out, "\n{}", tallies[seat].summary(&who))?;
            judged[seat] = Some(std::mem::take(&mut tallies[seat]));
        }
    }
    Ok(Played {
        ending,
        tallies: judged,
        forfeit,
    })
}

/// A program's move: the name it gives, read as the game reads a person's move; `Err` says
/// what went wrong ("gave no move: ...", "chose 9, which is not a legal move here ...").
fn program_move<G: Playable>(
    game: &G,
    state: &G::State,
    program: &mut dyn Program,
    history: &[String],
) -> Result<G::Move, String> {
    let number = history.len() + 1;
    let name = program
        .choose(history)
        .map_err(|why| format!("gave no move at move {number}: {why}"))?;
    // A move is taken only by its exact printed name: `parse_move` is forgiving with what
    // people type, and a program is held to the names the game gives.
    game.moves(state)
        .find(|&m| game.move_name(m) == name)
        .ok_or_else(|| {
            let legal: Vec<String> = game.moves(state).map(|m| game.move_name(m)).collect();
            format!(
                "chose `{name}` at move {number}, which is not a legal move there (the legal moves: {})",
                legal.join(" ")
            )
        })
}

/// A human's move, read from `input` until it is legal; `None` when the input ends.
fn human_move<G: Playable>(
    game: &G,
    state: &G::State,
    who: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Option<G::Move>> {
    loop {
        write!(out, "\n{who}, please type your move: ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nNo more input: the game stops here.")?;
            return Ok(None);
        }
        match game.parse_move(state, &line) {
            Ok(mv) => return Ok(Some(mv)),
            Err(why) => {
                let legal: Vec<String> = game.moves(state).map(|m| game.move_name(m)).collect();
                writeln!(out, "{why}")?;
                writeln!(out, "Legal moves: {}", legal.join(" "))?;
            }
        }
    }
}

/// A searching player's move (the first move for a player that does not search): each
/// computer player is its course's searcher (15-150's S14, CSC148's strategies, CS10's
/// negamax), searching from the position.
fn computer_move<G: Playable>(game: &G, state: &G::State, player: Player) -> G::Move {
    let from_here = game.starting_at(state.clone());
    let summary = match player {
        Player::Computer {
            algorithm,
            depth,
            estimator,
        } => {
            let estimating = from_here.estimating_with(estimator);
            let how = Settings::new(algorithm, depth);
            Some(S14.search(&estimating, &how, &mut NullSink))
        }
        Player::Negamax { window, depth } => {
            let algorithm = if window {
                Algorithm::AlphaBeta
            } else {
                Algorithm::Minimax
            };
            let how = Settings::new(algorithm, depth);
            Some(Cs10.search(&from_here, &how, &mut NullSink))
        }
        Player::Strategy(strategy) => {
            let how = Settings::new(strategy.algorithm(), strategy.depth_searched());
            Some(Csc148.search(&from_here, &how, &mut NullSink))
        }
        Player::Human | Player::Perfect | Player::Program => None,
    };
    let index = summary.and_then(|s| s.best_index);
    game.moves(state)
        .nth(index.unwrap_or(0))
        .expect("a game in play has a move")
}

/// The solver as Kalah's perfect player and judge.
pub struct KalahOracle {
    perfect: crate::search::solve::Perfect,
    time: Option<std::time::Duration>,
}

/// Where the solver's endgame database comes from: given a game and the seeds it should hold
/// at least, built (`Database::build`) or read from a file kept before.
pub type Databases<'a> = dyn FnMut(&Kalah, u32) -> Result<Database, Unsolved> + 'a;

/// How many turns deep a position not solved in time is searched.
pub const FALLBACK_DEPTH: u32 = 8;

impl KalahOracle {
    /// The solver for `kalah`, within `limits`, with the endgame database `databases` gives
    /// for its board, rules and size.
    pub fn new(
        kalah: &Kalah,
        limits: SolverLimits,
        databases: &mut Databases,
    ) -> Result<KalahOracle, Unsolved> {
        crate::search::solve::fits(kalah)?;
        let solving = crate::search::solve::Limits {
            memory: limits.memory,
            ..Default::default()
        };
        let database = databases(kalah, crate::search::solve::database_seeds(kalah, &solving))?;
        let perfect = crate::search::solve::Perfect::with_database(kalah, solving, database)?;
        Ok(KalahOracle {
            perfect,
            time: limits.time,
        })
    }

    fn deadline(&self) -> Option<Instant> {
        self.time.map(|t| Instant::now() + t)
    }
}

impl Oracle<Kalah> for KalahOracle {
    fn best(&mut self, kalah: &Kalah, b: &Board) -> (Pit, Exactness) {
        let (found, exactness) = match self.perfect.best(b, self.deadline()) {
            Ok(found) => (found, Exactness::Exact),
            Err(_) => (
                self.perfect.limited_best(b, FALLBACK_DEPTH).ok().flatten(),
                Exactness::DepthLimited(FALLBACK_DEPTH),
            ),
        };
        let mv = match found {
            Some((pit, _)) => Pit { pit, side: None },
            None => kalah.moves(b).next().expect("a game in play has a move"),
        };
        (mv, exactness)
    }

    fn weigh(&mut self, kalah: &Kalah, b: &Board, mv: Pit) -> Weighed {
        let deadline = self.deadline();
        let mut exact = || -> Result<Option<(u8, i32, i32)>, Unsolved> {
            let Some((pit, best)) = self.perfect.best(b, deadline)? else {
                return Ok(None);
            };
            Ok(Some((pit, best, self.perfect.after(b, mv.pit, deadline)?)))
        };
        let (found, exactness) = match exact() {
            Ok(found) => (found, Exactness::Exact),
            Err(_) => {
                let mut limited = || -> Result<Option<(u8, i32, i32)>, Unsolved> {
                    let Some((pit, best)) = self.perfect.limited_best(b, FALLBACK_DEPTH)? else {
                        return Ok(None);
                    };
                    Ok(Some((
                        pit,
                        best,
                        self.perfect.limited_after(b, mv.pit, FALLBACK_DEPTH)?,
                    )))
                };
                (
                    limited().ok().flatten(),
                    Exactness::DepthLimited(FALLBACK_DEPTH),
                )
            }
        };
        let (pit, best, this) = found.unwrap_or((mv.pit, 0, 0));
        let name = |pit| format!("pit {}", kalah.move_name(Pit { pit, side: None }));
        Weighed {
            this_move: name(mv.pit),
            best_move: name(pit),
            best: i64::from(best),
            this: i64::from(this),
            exactness,
        }
    }
}

macro_rules! tables {
    ($($variant:ident($game:ty)),*) => {
        /// A game the referee plays, whichever it is: [`Table::referee`] is not generic, so the
        /// command line compiles no search of its own (see [`crate::run::trace_named`]).
        pub enum Table {
            $($variant($game),)*
        }

        $(impl From<$game> for Table {
            fn from(g: $game) -> Table {
                Table::$variant(g)
            }
        })*

        impl Table {
            /// [`referee`] on this game. Where a player is `perfect` or a side is judged, the
            /// solver gets its endgame database from `databases` first; only Kalah has a
            /// solver ([`Table::solvable`]).
            pub fn referee(
                &self,
                seats: Seats,
                hands: &mut Hands<'_, '_>,
                out: &mut dyn Write,
                databases: &mut Databases,
            ) -> io::Result<Played> {
                if let (Table::Kalah(k), true) = (self, seats.need_solver()) {
                    let mut oracle = KalahOracle::new(k, seats.solver, databases).map_err(|_| {
                        io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!(
                                "this Kalah board has {} pits a side and {} seeds: the solver takes boards of up to 8 pits a side with fewer than 256 seeds",
                                k.pits,
                                k.total(&k.start)
                            ),
                        )
                    })?;
                    return referee(k, seats, Some(&mut oracle), hands, out);
                }
                match self {
                    $(Table::$variant(g) => referee(g, seats, None, hands, out),)*
                }
            }

            /// Can the solver play this game perfectly and judge it?
            pub fn solvable(&self) -> bool {
                matches!(self, Table::Kalah(_))
            }

            /// A game spec's game at its position; `None` for Pig (the referee has no dice,
            /// and its computer players know no chance nodes).
            pub fn of_spec(doc: &GameDocument) -> Option<Table> {
                match doc {
                    $(GameDocument::$variant(s) => Some(Table::$variant(s.game.clone())),)*
                    GameDocument::Pig(_) => None,
                }
            }
        }
    };
}

tables!(
    Nim(crate::game::nim::Nim),
    Connect4(crate::game::connect4::Connect4),
    Riskless(crate::game::riskless::Riskless),
    SubtractSquare(crate::game::subtract_square::SubtractSquare),
    Tippy(crate::game::tippy::Tippy),
    Kalah(crate::game::kalah::Kalah),
    TicTacToe(crate::game::tictactoe::TicTacToe)
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nim::Nim;

    #[test]
    fn players_are_read_as_the_issue_writes_them() {
        assert_eq!(Player::parse("human"), Ok(Player::Human));
        assert_eq!(
            Player::parse("jamboree:3:0.5").unwrap().to_string(),
            "jamboree:3:0.5"
        );
        assert_eq!(
            Player::parse("alphabeta:4:improved").unwrap().to_string(),
            "alphabeta:4:improved"
        );
        assert!(Player::parse("alphabeta").is_err());
        assert!(Player::parse("minimax:0").is_err());
        assert!(Player::parse("jamboree:3:2").is_err());
    }

    #[test]
    fn a_perfect_player_wins_nim_from_a_winning_start() {
        // 6 sticks, Maxie to move: take 1 leaves 5 (= 1 mod 4), a loss for Minnie.
        let nim = Nim::new(6, crate::game::Player::Maxie);
        let ab = Player::parse("alphabeta:2").unwrap();
        let mut out = Vec::new();
        let seats = Seats {
            maxie: ab,
            minnie: ab,
            max_moves: 100,
            judged: [false, false],
            solver: SolverLimits {
                time: Some(std::time::Duration::from_secs(1)),
                memory: 1 << 20,
            },
            clock: true,
        };
        let mut input = io::empty();
        let end = referee(&nim, seats, None, &mut Hands::people(&mut input), &mut out)
            .unwrap()
            .ending;
        assert_eq!(
            end,
            Ending::Over(Outcome::Winner(crate::game::Player::Maxie))
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("Maxie decides to make the move 1 in "),
            "{text}"
        );
    }
}

//! The terminal referee (`gametrace play`): two players, human or computer, take turns on a
//! real game, as the handouts' `Referee` runs them. The board is shown after every move, and
//! each computer move with the time its search took.

use crate::clock::Instant;
use crate::game::{Estimator, Outcome, Playable, Status};
use crate::search::{csc148, s14, Algorithm, NullSink};
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
}

impl Player {
    /// `human`, `minimax:D`, `alphabeta:D` or `jamboree:D:P`, each computer player optionally
    /// followed by `:improved` (or `:naive`, the default).
    pub fn parse(s: &str) -> Result<Player, String> {
        let usage = "human, minimax:D, alphabeta:D or jamboree:D:P (D a depth, P a fraction from 0 to 1), optionally followed by :improved; CSC148's minimax, memoize, prune or myopic:D; or CS10's negamax:D or negamax_ab:D";
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
}

/// Plays `game` from its start between `maxie` and `minnie`, reading human moves from
/// `input` and writing everything to `out`. At most `max_moves` moves are made.
pub fn referee<G: Playable>(
    game: &G,
    maxie: Player,
    minnie: Player,
    max_moves: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Ending> {
    let mut state = game.start();
    writeln!(
        out,
        "{}: {} ({maxie}) against {} ({minnie})\n",
        game.name(),
        game.player_name(crate::game::Player::Maxie),
        game.player_name(crate::game::Player::Minnie)
    )?;
    write!(out, "{}", game.render(&state))?;
    let mut made = 0u64;
    loop {
        if let Status::Over(outcome) = game.status(&state) {
            match outcome {
                Outcome::Winner(p) => writeln!(out, "\n{} wins!", game.player_name(p))?,
                Outcome::Draw => writeln!(out, "\nIt's a draw.")?,
            }
            return Ok(Ending::Over(outcome));
        }
        if made == max_moves {
            writeln!(out, "\nStopped after {made} moves (--max-moves).")?;
            return Ok(Ending::Stopped);
        }
        let side = match game.player(&state) {
            crate::game::Player::Maxie => maxie,
            crate::game::Player::Minnie => minnie,
        };
        let who = game.player_name(game.player(&state));
        let started = Instant::now();
        let mv = match side {
            Player::Human => loop {
                write!(out, "\n{who}, please type your move: ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out, "\nNo more input: the game stops here.")?;
                    return Ok(Ending::InputEnded);
                }
                match game.parse_move(&state, &line) {
                    Ok(mv) => break mv,
                    Err(why) => {
                        let legal: Vec<String> =
                            game.moves(&state).map(|m| game.move_name(m)).collect();
                        writeln!(out, "{why}")?;
                        writeln!(out, "Legal moves: {}", legal.join(" "))?;
                    }
                }
            },
            Player::Computer {
                algorithm,
                depth,
                estimator,
            } => {
                let from_here = game.starting_at(state.clone()).estimating_with(estimator);
                let summary = s14::search(&from_here, depth, algorithm, &mut NullSink);
                let index = summary.best_index.unwrap_or(0);
                game.moves(&state)
                    .nth(index)
                    .expect("a game in play has a move")
            }
            Player::Negamax { window, depth } => {
                let from_here = game.starting_at(state.clone());
                let algorithm = if window {
                    Algorithm::AlphaBeta
                } else {
                    Algorithm::Minimax
                };
                let (summary, _) = crate::search::cs10::search(
                    &from_here,
                    depth,
                    algorithm,
                    Default::default(),
                    &mut NullSink,
                );
                let index = summary.best_index.unwrap_or(0);
                game.moves(&state)
                    .nth(index)
                    .expect("a game in play has a move")
            }
            Player::Strategy(strategy) => {
                let from_here = game.starting_at(state.clone());
                let summary = csc148::search(&from_here, strategy, &mut NullSink);
                let index = summary.best_index.unwrap_or(0);
                game.moves(&state)
                    .nth(index)
                    .expect("a game in play has a move")
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        writeln!(
            out,
            "\n{who} decides to make the move {} in {seconds:.3} seconds.\n",
            game.move_name(mv)
        )?;
        state = game.play(&state, mv);
        made += 1;
        write!(out, "{}", game.render(&state))?;
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
            /// [`referee`] on this game.
            pub fn referee(
                &self,
                maxie: Player,
                minnie: Player,
                max_moves: u64,
                input: &mut dyn BufRead,
                out: &mut dyn Write,
            ) -> io::Result<Ending> {
                match self {
                    $(Table::$variant(g) => referee(g, maxie, minnie, max_moves, input, out),)*
                }
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
        let end = referee(&nim, ab, ab, 100, &mut io::empty(), &mut out).unwrap();
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

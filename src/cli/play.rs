//! `gametrace play`: a real game in the terminal, people and computer players.

use super::common::*;
use crate::spec::{self, Diagnostic, Document};
use std::io;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// connect4, popout, riskless, nim, subtract_square, tippy, kalah or tictactoe; or a game
    /// spec (YAML) to play from its position
    pub game: String,
    /// Maxie's (p1's) player: human, minimax:D, alphabeta:D or jamboree:D:P (add :improved
    /// for the improved estimator), or CSC148's minimax, memoize, prune or myopic:D
    #[arg(
        long,
        visible_alias = "p1",
        default_value = "human",
        value_name = "PLAYER"
    )]
    pub maxie: String,
    /// Minnie's (p2's) player, as for --maxie
    #[arg(
        long,
        visible_alias = "p2",
        default_value = "minimax:3",
        value_name = "PLAYER"
    )]
    pub minnie: String,
    /// Riskless: the handout's map M1 (default) or M2
    #[arg(long, value_name = "M")]
    pub map: Option<String>,
    /// Connect 4 and PopOut: the board's width (default 7); tic-tac-toe's (default 3)
    #[arg(long, value_name = "N")]
    pub columns: Option<u64>,
    /// Connect 4 and PopOut: the board's height (default 6); tic-tac-toe's (default 3)
    #[arg(long, value_name = "N")]
    pub rows: Option<u64>,
    /// Nim: the sticks to start with (default 21)
    #[arg(long, value_name = "N")]
    pub sticks: Option<u64>,
    /// Subtract Square: the total to start from (default 20)
    #[arg(long, value_name = "N")]
    pub total: Option<u64>,
    /// Tippy: the board's size, 3 to 8 (default 4)
    #[arg(long, value_name = "N")]
    pub size: Option<u64>,
    /// Kalah: pits a side (default 6)
    #[arg(long, value_name = "N")]
    pub pits: Option<u64>,
    /// Kalah: seeds a pit at the start (default 4)
    #[arg(long, value_name = "N")]
    pub seeds: Option<u64>,
    /// Kalah: when the game ends (default cs10, the notes' rule)
    #[arg(long, value_enum, value_name = "RULE")]
    pub end_rule: Option<super::solve::EndRuleArg>,
    /// Kalah: capture the lone seed even when the opposite pit is empty
    #[arg(long)]
    pub capture_empty: bool,
    /// Tic-tac-toe: how many in a row win (default 3; --columns and --rows size the board)
    #[arg(long, value_name = "N")]
    pub k: Option<u64>,
    /// Stop after this many moves (PopOut games can go round in circles)
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_moves: u64,
    /// Kalah: weigh each move of this side against perfect play (the seeds of final margin
    /// it gives away), and sum them up at the end
    #[arg(long, value_enum, value_name = "SIDE")]
    pub judge: Option<JudgeArg>,
    /// Kalah: the solver's time for each position (for `perfect` and --judge) before it
    /// falls back to a search 8 turns deep, in seconds
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds)]
    pub solver_time: f64,
    /// Kalah: memory for the solver's endgame database and table (K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = parse_bytes)]
    pub memory: usize,
    #[command(flatten)]
    pub keeping: super::endgame::Keeping,
    /// Kalah: p1's moves come from this program, a player behind a driver speaking the probe
    /// protocol's `choose` (adapters/java/GametracePlayer.java for a CS10 player), run in the
    /// sandbox
    #[arg(
        long,
        value_name = "COMMAND",
        conflicts_with = "maxie",
        help_heading = "Programs as players"
    )]
    pub p1_cmd: Option<String>,
    /// Kalah: p2's moves come from this program, as for --p1-cmd
    #[arg(
        long,
        value_name = "COMMAND",
        conflicts_with = "minnie",
        help_heading = "Programs as players"
    )]
    pub p2_cmd: Option<String>,
    #[command(flatten, next_help_heading = "Programs as players")]
    pub run: RunArgs,
}

/// Whose moves `--judge` weighs.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum JudgeArg {
    /// p1's (Maxie's)
    P1,
    /// p2's (Minnie's)
    P2,
    /// both sides'
    Both,
}

pub fn execute(a: Args) -> Exit {
    let options = PlayOptions {
        map: a.map,
        columns: a.columns,
        rows: a.rows,
        sticks: a.sticks,
        total: a.total,
        size: a.size,
        pits: a.pits,
        seeds: a.seeds,
        end_rule: a.end_rule,
        capture_empty: a.capture_empty,
        k: a.k,
    };
    let judged = match a.judge {
        None => [false, false],
        Some(JudgeArg::P1) => [true, false],
        Some(JudgeArg::P2) => [false, true],
        Some(JudgeArg::Both) => [true, true],
    };
    let rules = Rules {
        endgame_dir: a.keeping.dir(),
        max_moves: a.max_moves,
        judged,
        solver: crate::play::SolverLimits {
            time: Some(std::time::Duration::from_secs_f64(a.solver_time)),
            memory: a.memory,
        },
    };
    if a.p1_cmd.is_some() || a.p2_cmd.is_some() {
        a.run.confined()?;
    }
    let programs = Programs {
        cmds: [a.p1_cmd, a.p2_cmd],
        run: a.run,
    };
    play(&a.game, (&a.maxie, &a.minnie), options, rules, &programs)
}

/// `--p1-cmd` and `--p2-cmd`: the programs in the players' seats, and how they run.
struct Programs {
    cmds: [Option<String>; 2],
    run: RunArgs,
}

impl Programs {
    /// Starts the seats' programs for Kalah `k` and runs `game` with them in their seats;
    /// `Err` is the failure that stops the game.
    fn seated<R>(
        &self,
        k: &crate::game::kalah::Kalah,
        game: impl FnOnce([Option<&mut dyn crate::play::Program>; 2]) -> R,
    ) -> Result<R, Failure> {
        use crate::check_game::probe::Student;
        use crate::grade::players::{kalah_env, Seated};
        let mut runs: [Option<crate::student::Run>; 2] = [None, None];
        for (seat, cmd) in self.cmds.iter().enumerate() {
            let Some(cmd) = cmd else { continue };
            let flag = if seat == 0 { "--p1-cmd" } else { "--p2-cmd" };
            let program = self.run.command(flag, cmd.clone())?;
            match program.for_driver(None) {
                Ok(run) => runs[seat] = Some(run),
                Err(d) => {
                    return Err(Failure::message(format!(
                        "error: {}\n  = found: {cmd}\n  = hint: {}",
                        d.message,
                        d.hint.as_deref().unwrap_or("check the command line")
                    )));
                }
            }
        }
        let mut students: [Option<Student>; 2] = [None, None];
        for seat in 0..2 {
            let Some(run) = &runs[seat] else { continue };
            match Student::open(run.job(), &kalah_env(k)) {
                Ok(s) => students[seat] = Some(s),
                Err(t) => {
                    let (what, details) = t.describe();
                    return Err(Failure::Program(format!(
                        "error: p{}'s program did not start: {what}\n{details}\n",
                        seat + 1
                    )));
                }
            }
        }
        let [a, b] = &mut students;
        let mut seated = [a.as_mut().map(Seated::new), b.as_mut().map(Seated::new)];
        let [x, y] = &mut seated;
        let programs: [Option<&mut dyn crate::play::Program>; 2] = [
            x.as_mut().map(|s| s as &mut dyn crate::play::Program),
            y.as_mut().map(|s| s as &mut dyn crate::play::Program),
        ];
        Ok(game(programs))
    }
}

/// How `play` referees, whatever the game: the move limit, the judge, the solver's limits.
struct Rules {
    endgame_dir: Option<std::path::PathBuf>,
    max_moves: u64,
    judged: [bool; 2],
    solver: crate::play::SolverLimits,
}

/// `play`'s game options, for a game named on the command line.
struct PlayOptions {
    map: Option<String>,
    columns: Option<u64>,
    rows: Option<u64>,
    sticks: Option<u64>,
    total: Option<u64>,
    size: Option<u64>,
    pits: Option<u64>,
    seeds: Option<u64>,
    end_rule: Option<super::solve::EndRuleArg>,
    capture_empty: bool,
    k: Option<u64>,
}

/// The games `play` knows by name.
const PLAYABLE: [&str; 8] = [
    "connect4",
    "popout",
    "riskless",
    "nim",
    "subtract_square",
    "tippy",
    "kalah",
    "tictactoe",
];

fn play(
    game: &str,
    players: (&str, &str),
    o: PlayOptions,
    rules: Rules,
    programs: &Programs,
) -> Exit {
    let played = seats(players, programs, &rules)
        .and_then(|seats| Ok((seats, table(game, &o)?)))
        .and_then(|(seats, table)| referee(game, table, seats, &rules, programs));
    exit_code(played?)
}

/// `error: MESSAGE` with its hint: exit 2.
fn usage(message: String, hint: &str) -> Failure {
    Failure::message(format!("error: {message}\n  hint: {hint}"))
}

/// Who sits in each seat (a program where `--pN-cmd` seats one).
fn seats(
    players: (&str, &str),
    programs: &Programs,
    rules: &Rules,
) -> Result<crate::play::Seats, Failure> {
    use crate::play::{Player, Seats};
    let parse = |seat: usize, player: &str| {
        if programs.cmds[seat].is_some() {
            Ok(Player::Program)
        } else {
            Player::parse(player)
        }
    };
    let maxie = parse(0, players.0)
        .map_err(|why| usage(format!("--maxie: {why}"), "for example --maxie alphabeta:4"))?;
    let minnie = parse(1, players.1)
        .map_err(|why| usage(format!("--minnie: {why}"), "for example --minnie minimax:2"))?;
    Ok(Seats {
        maxie,
        minnie,
        max_moves: rules.max_moves,
        judged: rules.judged,
        solver: rules.solver,
        clock: true,
    })
}

/// Referees `table`'s game with `seats` in the terminal: how it ended.
fn referee(
    game: &str,
    table: crate::play::Table,
    seats: crate::play::Seats,
    rules: &Rules,
    programs: &Programs,
) -> Result<io::Result<crate::play::Ending>, Failure> {
    use crate::play::Table;
    if seats.need_solver() && !table.solvable() {
        return Err(Failure::message(format!("error: {game} has no perfect player and no judge: the solver solves Kalah only\n  hint: leave out `perfect` and --judge, or play kalah")));
    }
    let with_programs = programs.cmds.iter().any(Option::is_some);
    let kalah = match &table {
        Table::Kalah(k) => Some(k.clone()),
        _ => None,
    };
    if with_programs && kalah.is_none() {
        return Err(Failure::message("error: --p1-cmd and --p2-cmd seat Kalah players only\n  hint: play kalah, or leave them out"));
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let bar = super::solve::Bar::new();
    let dir = rules.endgame_dir.as_deref();
    let memory = seats.solver.memory;
    let mut referee = |programs: [Option<&mut dyn crate::play::Program>; 2]| {
        let mut hands = crate::play::Hands {
            input: &mut input,
            programs,
        };
        table.referee(seats, &mut hands, &mut out, &mut |kalah, seeds| {
            let size = super::endgame::Size::AtLeast { seeds, memory };
            super::endgame::database(kalah, size, None, dir, &bar)
        })
    };
    let played = match &kalah {
        Some(k) if with_programs => programs.seated(k, referee)?,
        _ => referee([None, None]),
    };
    bar.finish();
    Ok(played.map(|p| p.ending))
}

/// The game to play: a game spec's, or a game by name with its options (each checked to be
/// that game's).
fn table(game: &str, o: &PlayOptions) -> Result<crate::play::Table, Failure> {
    // Each option, whether it was given, and the games it belongs to.
    let options: [(&str, bool, &[&str]); 11] = [
        ("--map", o.map.is_some(), &["riskless"]),
        (
            "--columns",
            o.columns.is_some(),
            &["connect4", "popout", "tictactoe"],
        ),
        (
            "--rows",
            o.rows.is_some(),
            &["connect4", "popout", "tictactoe"],
        ),
        ("--k", o.k.is_some(), &["tictactoe"]),
        ("--sticks", o.sticks.is_some(), &["nim"]),
        ("--total", o.total.is_some(), &["subtract_square"]),
        ("--size", o.size.is_some(), &["tippy"]),
        ("--pits", o.pits.is_some(), &["kalah"]),
        ("--seeds", o.seeds.is_some(), &["kalah"]),
        ("--end-rule", o.end_rule.is_some(), &["kalah"]),
        ("--capture-empty", o.capture_empty, &["kalah"]),
    ];
    let spec_path = std::path::Path::new(game);
    let is_spec = game.ends_with(".yaml") || game.ends_with(".yml") || spec_path.is_file();
    if is_spec {
        if options.iter().any(|(_, given, _)| *given) {
            return Err(usage(
                format!("{game} is a spec, and the game's options come from it"),
                "leave out the game's options (--map, --columns, --rows, --k, --sticks, --total, --size, --pits, --seeds, --end-rule, --capture-empty), or name a game instead",
            ));
        }
        return spec_table(game, spec_path);
    }
    if !PLAYABLE.contains(&game) {
        let hint = match crate::spec::diagnostic::did_you_mean(game, &PLAYABLE) {
            Some(g) => format!("did you mean `{g}`?"),
            None => format!("one of {}, or a game spec file", PLAYABLE.join(", ")),
        };
        return Err(usage(format!("unknown game `{game}`"), &hint));
    }
    if let Some((option, _, _)) = options
        .iter()
        .find(|(_, given, owners)| *given && !owners.contains(&game))
    {
        return Err(usage(
            format!("{option} is not an option of {game}"),
            "--map is Riskless's, --columns and --rows Connect 4's, PopOut's and tic-tac-toe's, --k tic-tac-toe's, --sticks Nim's, --total Subtract Square's, --size Tippy's, --pits, --seeds, --end-rule and --capture-empty Kalah's",
        ));
    }
    named_table(game, o)
}

/// A game spec's game.
fn spec_table(game: &str, spec_path: &std::path::Path) -> Result<crate::play::Table, Failure> {
    match spec::load(spec_path) {
        // The referee has no dice, and its computer players know no chance nodes.
        Ok(Document::Game(g)) => crate::play::Table::of_spec(&g).ok_or_else(|| {
            usage(
                format!("{game}: `play` does not play Pig"),
                "search Pig with `gametrace run` (expectiminimax or expectimax cases)",
            )
        }),
        Ok(_) => Err(Diagnostic::new(spec_path, "`play` plays real games")
            .expected("a game spec (with `game:`)")
            .found("a tree or task spec")
            .hint(format!("gametrace play {}", PLAYABLE.join(", ")))
            .into()),
        Err(d) => Err(d.into()),
    }
}

/// A game by name, with its options' values (or their defaults).
fn named_table(game: &str, o: &PlayOptions) -> Result<crate::play::Table, Failure> {
    use crate::game::{connect4, kalah, nim::Nim, riskless, tictactoe, tippy, Player as Side};
    use crate::play::Table;
    Ok(match game {
        "connect4" | "popout" => {
            let (c, r) = connect4::check_size(o.columns.unwrap_or(7), o.rows.unwrap_or(6))
                .map_err(|why| usage(why, "the default board is 7 columns × 6 rows"))?;
            Table::from(connect4::Connect4::new(c, r, game == "popout"))
        }
        "riskless" => {
            let name = o.map.as_deref().unwrap_or("M1");
            let map = riskless::Map::builtin(name).ok_or_else(|| {
                usage(
                    format!("there is no built-in map `{name}`"),
                    "--map M1 (a ring of six) or M2 (a 4×4 grid); for a map of your own, write a game spec and play it",
                )
            })?;
            Table::from(riskless::Riskless::new(map))
        }
        "nim" => Table::from(Nim::new(o.sticks.unwrap_or(21), Side::Maxie)),
        "subtract_square" => {
            let total = o.total.unwrap_or(20);
            if total > crate::game::subtract_square::MAX_TOTAL {
                return Err(usage(
                    format!("--total {total} is too large"),
                    &format!("at most {}", crate::game::subtract_square::MAX_TOTAL),
                ));
            }
            Table::from(crate::game::subtract_square::SubtractSquare::new(
                total,
                Side::Maxie,
            ))
        }
        "kalah" => {
            let (pits, seeds) = (o.pits.unwrap_or(6), o.seeds.unwrap_or(4));
            if !(1..=kalah::MAX_PITS as u64).contains(&pits)
                || !(1..=u64::from(kalah::MAX_SEEDS)).contains(&seeds)
            {
                return Err(usage(
                    format!("Kalah cannot be played with {pits} pits of {seeds} seeds"),
                    &format!(
                        "--pits 1 to {} and --seeds 1 to {} (the notes play 6 and 4)",
                        kalah::MAX_PITS,
                        kalah::MAX_SEEDS
                    ),
                ));
            }
            let rules = kalah::Rules {
                end: o.end_rule.map_or(kalah::EndRule::Cs10, Into::into),
                capture_empty: o.capture_empty,
            };
            Table::from(kalah::Kalah::new(pits as usize, seeds as u16, rules))
        }
        "tictactoe" => {
            let (c, r, k) = (
                o.columns.unwrap_or(3),
                o.rows.unwrap_or(3),
                o.k.unwrap_or(3),
            );
            let (c, r, k) = tictactoe::check_size(c, r, k).map_err(|why| {
                usage(
                    why,
                    "--columns and --rows from 1 to 8, --k at most the longer side (tic-tac-toe is 3, 3, 3)",
                )
            })?;
            Table::from(tictactoe::TicTacToe::new(c, r, k))
        }
        _ => {
            let size = o.size.unwrap_or(4);
            if !(u64::from(tippy::MIN_SIZE)..=u64::from(tippy::MAX_SIZE)).contains(&size) {
                return Err(usage(
                    format!("a Tippy board cannot be {size}×{size}"),
                    "--size from 3 to 8 (a tippy is 3 cells wide; the course plays 4)",
                ));
            }
            Table::from(tippy::Tippy::new(size as u8))
        }
    })
}

/// `play`'s exit code for how the game ended.
fn exit_code(ended: io::Result<crate::play::Ending>) -> Exit {
    use crate::play::Ending;
    match ended {
        Ok(Ending::Over(_) | Ending::Stopped) => Ok(0),
        Ok(Ending::InputEnded) => Ok(2),
        // A program's failing is a verdict on it, as `check` gives.
        Ok(Ending::Forfeited(_)) => Ok(1),
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => Err(Failure::message(format!(
            "error: {e}\n  hint: leave out `perfect` and --judge, or play a smaller board"
        ))),
        Err(e) => write_failed(e),
    }
}

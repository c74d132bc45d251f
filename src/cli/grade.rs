//! `gametrace grade`: a whole class, a folder of submissions, graded at once.

use super::common::*;
use crate::check::case;
use crate::check::trace::Mode;
use crate::grade::class::{self, Graded, Progress, Submission};
use crate::grade::players as class_players;
use crate::report::{number, Format};
use crate::student::Program;
use crate::suite;
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("graded").required(true).multiple(true).args(["against", "game_cmd", "player_cmd"])))]
pub struct Args {
    /// The folder of submissions: each folder under it is one submission
    pub submissions: PathBuf,
    /// The command that prints a case's trace, run inside each submission (placeholders:
    /// {submission} {spec} {case} {depth} {tree_json} {position_json})
    #[arg(long, value_name = "COMMAND")]
    pub against: Option<String>,
    /// Check each submission's own game too: the driver's command line, run inside the
    /// submission ({submission} names it), as `check-game --cmd` takes it; one for every
    /// --game, or one a --game, in the same order
    #[arg(
        long,
        value_name = "COMMAND",
        requires = "game",
        help_heading = "Students' own games"
    )]
    pub game_cmd: Vec<String>,
    /// Settings for single submissions that cannot be found in them: a CSV file of
    /// `submission,setting,value` rows; the settings are class, module, construct and base
    /// (the Python driver's), each for every game or, written `tippy:class`, for one
    #[arg(
        long,
        value_name = "FILE",
        requires = "game_cmd",
        help_heading = "Students' own games"
    )]
    pub roster: Option<PathBuf>,
    /// The game spec each submission's game is checked against (repeat for more)
    #[arg(
        long,
        value_name = "SPEC",
        requires = "game_cmd",
        help_heading = "Students' own games"
    )]
    pub game: Vec<PathBuf>,
    #[command(flatten, next_help_heading = "Students' own games")]
    pub game_args: GameArgs,
    #[command(flatten, next_help_heading = "Students' Kalah players")]
    pub players: PlayerArgs,
    /// The course's folder (its library, its build files): copied afresh for each
    /// submission, the submission's files put over it at --submission-into, and every
    /// command run there; the original is only read
    #[arg(long, value_name = "DIR", value_parser = super::check_game::existing_dir)]
    pub course_dir: Option<PathBuf>,
    /// With --against, CS188's course folder (with autograder.py): its Pacman-game tests are
    /// played by the course's own autograder, with each submission's multiAgents.py, in the
    /// sandbox
    #[arg(long, value_name = "DIR", requires = "against")]
    pub project: Option<PathBuf>,
    /// Where a submission's files go inside the course folder (a path relative to it, such
    /// as `hw/11/code`)
    #[arg(
        long,
        value_name = "SUBDIR",
        requires = "course_dir",
        default_value = ".",
        value_parser = inside_path
    )]
    pub submission_into: PathBuf,
    /// A file each submission must bring (a path inside the submission, repeatable): a
    /// submission without it is NOT-FOUND, never graded on the course folder's own copy.
    /// Without it, a submission that replaces none of the course's files is graded with a
    /// note saying that the course's own files were graded
    #[arg(long, value_name = "PATH", requires = "course_dir", value_parser = inside_path)]
    pub student_file: Vec<PathBuf>,
    /// The specs to grade with: files or directories [default: specs]
    #[arg(long = "specs", value_name = "PATH")]
    pub specs: Vec<PathBuf>,
    /// Grade only the case of this name (repeat for more)
    #[arg(long, value_name = "NAME")]
    pub case: Vec<String>,
    /// Grade only the cases whose names match this glob (repeat for more)
    #[arg(long, value_name = "GLOB")]
    pub filter: Vec<String>,
    /// Where the reports (reports/), the gradebook (gradebook.csv, gradebook.json) and the
    /// summary (summary.txt) go
    #[arg(long, value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
    /// Each submission's report format
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    pub format: Format,
    /// Grade only shard K of N: the submissions whose place in name order is K, K + N,
    /// K + 2N, ... (counting from 1), for spreading a class over N machines; `gametrace
    /// gradebook merge` joins the shards' --out folders into what one run writes
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Keep the submissions an earlier run of the same grading finished (their reports are
    /// complete); grade the rest
    #[arg(long)]
    pub resume: bool,
    /// Submissions graded at once, each command in its own process group under its limits
    /// (default: one per core); the reports and the gradebook are the same for any number
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// What to compare (default: each case's `check:`, else full)
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<Mode>,
    /// On a FAIL, do not try the catalogue of mistakes to name the mistake
    #[arg(long)]
    pub no_diagnosis: bool,
    /// Stop a case's reference search after this many seconds and report the case as too
    /// big to check (a case's `time_limit:` wins)
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Reports to hand to students: cases whose `visibility:` is not `visible` show no
    /// reference lines
    #[arg(long)]
    pub for_students: bool,
    /// Show each failure's whole diff (by default a diff stops after 200 lines)
    #[arg(long)]
    pub full_diff: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub parallel: Parallel,
}

/// `grade --player-cmd`: each submission's Kalah player against the perfect player, judged.
#[derive(clap::Args, Debug)]
pub struct PlayerArgs {
    /// Play each submission's Kalah player against the solver's perfect player, once from
    /// each side, and weigh each of its moves against perfect play: the driver's command line,
    /// run inside the submission ({submission} names it), speaking the probe protocol with
    /// `choose` (adapters/java/GametracePlayer.java for a CS10 player)
    #[arg(long, value_name = "COMMAND")]
    pub player_cmd: Option<String>,
    /// Pits a side
    #[arg(long, value_name = "N", default_value_t = 6, requires = "player_cmd")]
    pub pits: u64,
    /// Seeds a pit at the start
    #[arg(long, value_name = "N", default_value_t = 4, requires = "player_cmd")]
    pub seeds: u64,
    /// When the game ends [default: cs10, the notes' rule]
    #[arg(long, value_enum, value_name = "RULE", requires = "player_cmd")]
    pub end_rule: Option<super::solve::EndRuleArg>,
    /// Capture the lone seed even when the opposite pit is empty
    #[arg(long, requires = "player_cmd")]
    pub capture_empty: bool,
    /// A game passes when the player gave away at most this many seeds of final margin
    /// [default: any complete game of legal moves passes; the margin is reported]
    #[arg(long, value_name = "SEEDS", requires = "player_cmd")]
    pub margin_allowed: Option<u32>,
    /// The solver's time for each position before it falls back to a search 8 turns deep (a
    /// move weighed that way is marked depth-limited) [default: until it is solved, so that
    /// the reports are the same on every run: what a limit cuts short depends on the machine]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, requires = "player_cmd")]
    pub solver_time: Option<f64>,
    /// Memory for the solver's endgame database and table (K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = parse_bytes, requires = "player_cmd")]
    pub memory: usize,
    /// A game stops, and fails, after this many moves
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1000,
        requires = "player_cmd"
    )]
    pub max_moves: u64,
    #[command(flatten)]
    pub keeping: super::endgame::Keeping,
}

impl PlayerArgs {
    /// The players' grading, with the solver ready (its endgame database built or read);
    /// `Err` is the failure that stops the grading.
    fn players(&self, cmd: Program) -> Result<Option<class_players::Players>, Failure> {
        use crate::game::kalah;
        let Some(line) = &self.player_cmd else {
            return Ok(None);
        };
        if !cmd.shell && crate::sandbox::split(line).is_none() {
            return Err(Failure::message(format!("error: cannot split --player-cmd into arguments\n  = found: {line}\n  = hint: close every quote, or pass --shell to hand the line to sh")));
        }
        let (pits, seeds) = (self.pits, self.seeds);
        if !(1..=kalah::MAX_PITS as u64).contains(&pits)
            || !(1..=u64::from(kalah::MAX_SEEDS)).contains(&seeds)
        {
            return Err(Failure::message(format!("error: Kalah cannot be played with {pits} pits of {seeds} seeds\n  = hint: --pits 1 to {} and --seeds 1 to {} (the notes play 6 and 4)",
                kalah::MAX_PITS,
                kalah::MAX_SEEDS)));
        }
        let rules = kalah::Rules {
            end: self.end_rule.map_or(kalah::EndRule::Cs10, Into::into),
            capture_empty: self.capture_empty,
        };
        let game = kalah::Kalah::new(pits as usize, seeds as u16, rules);
        let solver = crate::play::SolverLimits {
            time: self.solver_time.map(std::time::Duration::from_secs_f64),
            memory: self.memory,
        };
        let bar = super::solve::Bar::new();
        let dir = self.keeping.dir();
        let oracle = crate::play::KalahOracle::new(&game, solver, &mut |k, seeds| {
            let size = super::endgame::Size::AtLeast {
                seeds,
                memory: solver.memory,
            };
            super::endgame::database(k, size, None, dir.as_deref(), &bar)
        });
        bar.finish();
        let Ok(oracle) = oracle else {
            return Err(Failure::message(format!("error: the solver cannot play Kalah with {pits} pits of {seeds} seeds\n  hint: the solver takes boards of up to 8 pits a side with fewer than 256 seeds")));
        };
        Ok(Some(class_players::Players {
            cmd: Program {
                line: line.clone(),
                ..cmd
            },
            kalah: game,
            oracle: std::sync::Mutex::new(oracle),
            margin_allowed: self.margin_allowed.map(i64::from),
            max_moves: self.max_moves,
            solver,
        }))
    }
}

/// `K/N` with 1 <= K <= N (`--shard`).
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, such as 2/3, found `{s}`");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A relative path that stays inside the folder it is relative to (`--submission-into`).
fn inside_path(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    let inside = p.components().all(|c| {
        matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    });
    if inside {
        Ok(p)
    } else {
        Err(format!(
            "expected a path inside the course folder (such as `hw/11/code`), found `{s}`"
        ))
    }
}

pub fn execute(a: Args) -> Exit {
    refuse_where_unconfined(&a)
        .and_then(|()| specs(&a))
        .and_then(|(suite, games)| Ok((suite, games, roster(&a)?, class(&a)?)))
        .and_then(|(suite, games, roster, subs)| {
            note_unknown_in_roster(&roster, &subs, a.shard.is_some());
            let options = options(&a, &suite, games, roster)?;
            grade(&a, &suite, &subs, &options)
        })
}

/// A class's code is other people's: without the Linux sandbox it is graded only when the
/// grader says so; where the sandbox cannot confine it, never.
fn refuse_where_unconfined(a: &Args) -> Result<(), Failure> {
    if let Some(system) = crate::sandbox::unsandboxed_system() {
        if !a.run.no_sandbox {
            return Err(Failure::message(format!("error: no sandbox on {system}: `grade` runs a class's code, which needs gametrace's Linux sandbox\n  = hint: grade on Linux (a container, WSL 2, a CI runner), or pass --no-sandbox to run the submissions with your user's rights")));
        }
    }
    a.run.confined()
}

type GameSpecs = Vec<(PathBuf, std::sync::Arc<crate::spec::GameDocument>)>;

/// The suite of `--specs` (with `--against`) and the `--game` specs, each a game check-game
/// checks, with their `--game-cmd`s in step.
fn specs(a: &Args) -> Result<(crate::grade::Suite, GameSpecs), Failure> {
    let select = suite::Selection::new(a.case.clone(), a.filter.clone()).map_err(|e| {
        Failure::message(format!(
            "error: {e}\n  = hint: a glob uses * and ? and [abc], as in `jamboree-*`"
        ))
    })?;
    let project = match a.project.as_deref().map(crate::grade::cs188::project) {
        Some(Err(e)) => return Err(Failure::message(format!("error: {e}"))),
        Some(Ok(p)) => Some(p),
        None => None,
    };
    // Without --against only the students' games are graded.
    let (specs, others) = if a.against.is_some() {
        let (specs, others) =
            super::common::specs_and_others_played(a.specs.clone(), project.is_some())?;
        if let Some(f) = nothing_selected(&specs, &select) {
            return Err(f);
        }
        (specs, others)
    } else {
        (Vec::new(), Vec::new())
    };
    let games = a
        .game
        .iter()
        .map(|p| game_spec(p))
        .collect::<Result<GameSpecs, Failure>>()?;
    for cmd in &a.game_cmd {
        if !a.run.shell && crate::sandbox::split(cmd).is_none() {
            return Err(Failure::message(format!("error: cannot split --game-cmd into arguments\n  = found: {cmd}\n  = hint: close every quote, or pass --shell to hand the line to sh")));
        }
    }
    if a.game_cmd.len() > 1 && a.game_cmd.len() != games.len() {
        return Err(Failure::message(format!("error: {} --game-cmd for {} --game\n  = expected: one --game-cmd for every --game, or one a --game, in the same order\n  = hint: a Tippy driver and a Subtract Square driver: --game tippy-rules.yaml --game-cmd '...TippyGameState' --game subtract-square-rules.yaml --game-cmd '...SubtractSquareState'",
            a.game_cmd.len(),
            games.len())));
    }
    let suite = crate::grade::Suite::load_for(&specs, &select, a.against.as_deref())
        .not_running(others, &select)
        .with_project(project);
    super::test::note_left_out(&suite);
    Ok((suite, games))
}

/// A `--game` spec: a game spec of a game check-game checks.
fn game_spec(
    path: &std::path::Path,
) -> Result<(PathBuf, std::sync::Arc<crate::spec::GameDocument>), Failure> {
    use crate::spec::{Diagnostic, Document, GameDocument};
    match crate::spec::load(path) {
        Ok(Document::Game(g)) => {
            let checkable = matches!(
                g,
                GameDocument::Connect4(_)
                    | GameDocument::Riskless(_)
                    | GameDocument::Tippy(_)
                    | GameDocument::SubtractSquare(_)
            );
            if !checkable {
                let game = crate::with_game_spec!(&g, s => crate::game::Playable::name(&s.game));
                return Err(Diagnostic::new(
                    path,
                    format!("--game: check-game cannot check {game} yet"),
                )
                .expected("a spec of connect4 (or PopOut), riskless, tippy or subtract_square")
                .found(format!("game: {game}"))
                .into());
            }
            Ok((path.to_owned(), std::sync::Arc::new(g)))
        }
        Ok(_) => Err(
            Diagnostic::new(path, "--game takes a game spec, and this spec has none")
                .expected("a game spec (`game: connect4`, `riskless`, `tippy`, `subtract_square`)")
                .found("a tree or task spec")
                .hint("grade searchers with --against and --specs")
                .into(),
        ),
        Err(d) => Err(d.into()),
    }
}

/// `--roster FILE`, read (none: an empty roster).
fn roster(a: &Args) -> Result<class::Roster, Failure> {
    let Some(path) = &a.roster else {
        return Ok(class::Roster::default());
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::from(
            crate::spec::Diagnostic::new(path, format!("cannot read the roster: {e}"))
                .expected("a CSV file of submission,setting,value rows"),
        )
    })?;
    class::Roster::parse(&text).map_err(|(line, why)| {
        Failure::message(format!("error: {}:{line}: {why}\n  = expected: submission,setting,value (settings: class, module, construct, base; `tippy:class` for one game)",
            path.display()))
    })
}

/// The submissions to grade: the folders under SUBMISSIONS, this shard's share of them.
fn class(a: &Args) -> Result<Vec<Submission>, Failure> {
    let (subs, skipped) = class::submissions(&a.submissions)?;
    let all_subs = subs.len();
    let subs = match a.shard {
        Some((k, n)) => class::shard(subs, k, n),
        None => subs,
    };
    if !skipped.is_empty() {
        eprintln!(
            "note: {} not a folder (links are not followed), so not graded: {}",
            plural(skipped.len(), "entry is"),
            skipped
                .iter()
                .map(|n| crate::diff::visible_name(n).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if all_subs == 0 {
        return Err(Failure::message(format!("error: no submissions under {}\n  = expected: a folder for each submission\n  = hint: put each student's files in a folder of their own",
            a.submissions.display())));
    }
    if let Some((k, n)) = a.shard {
        eprintln!(
            "note: shard {k}/{n}: {} of the {all_subs}",
            plural(subs.len(), "submission")
        );
    }
    Ok(subs)
}

/// A roster's rows for folders that are not here (a typo's rows would be lost silently).
fn note_unknown_in_roster(roster: &class::Roster, subs: &[Submission], sharded: bool) {
    if roster.rows.is_empty() || sharded {
        return;
    }
    let names: std::collections::HashSet<&str> = subs.iter().map(|s| s.name.as_str()).collect();
    let unknown: Vec<&str> = roster
        .rows
        .keys()
        .map(String::as_str)
        .filter(|n| !names.contains(n))
        .collect();
    if !unknown.is_empty() {
        eprintln!(
            "note: the roster names {} that {} not a submission here: {}",
            plural(unknown.len(), "folder"),
            if unknown.len() == 1 { "is" } else { "are" },
            unknown.join(", ")
        );
    }
}

/// How the class is graded: each program's command line and sandbox (what no student's
/// program reads: every spec of the run, its answers, the reports), the checks, the course
/// folder.
fn options(
    a: &Args,
    suite: &crate::grade::Suite,
    game_specs: GameSpecs,
    roster: class::Roster,
) -> Result<class::Options, Failure> {
    let grader: Vec<PathBuf> = suite
        .spec_paths()
        .chain(game_specs.iter().map(|(p, _)| p.as_path()))
        .flat_map(crate::sandbox::grader_paths)
        .chain([a.out.clone()])
        .collect();
    // Never copied with a course folder they lie in, nor the class either.
    let left_out: Vec<PathBuf> = grader
        .iter()
        .cloned()
        .chain([a.submissions.clone()])
        .collect();
    let program = |flag: &'static str, line: String| -> Result<Program, Failure> {
        Ok(Program {
            sandbox: a.run.sandbox(grader.clone()),
            ..a.run.command(flag, line)?
        })
    };
    let games = if a.game_cmd.is_empty() {
        None
    } else {
        Some(class::Games {
            specs: game_specs
                .into_iter()
                .enumerate()
                .map(|(i, (path, doc))| {
                    let line = a.game_cmd[i.min(a.game_cmd.len() - 1)].clone();
                    Ok(class::GameCheck {
                        path,
                        doc,
                        cmd: program("--game-cmd", line)?,
                    })
                })
                .collect::<Result<_, Failure>>()?,
            options: a.game_args.options(1, !a.no_diagnosis),
            roster,
        })
    };
    let players = a
        .players
        .players(program("--player-cmd", String::new())?)?
        .map(std::sync::Arc::new);
    Ok(class::Options {
        against: program("--against", a.against.clone().unwrap_or_default())?,
        check: case::Options {
            mode: a.mode,
            palette: crate::diff::Palette { color: false },
            exact: false,
            max_input: case::MAX_ACTUAL,
            diagnose: !a.no_diagnosis,
            figures: a.format.draws_trees(),
            time_limit: std::time::Duration::from_secs_f64(a.time_limit),
            cut_short: false,
        },
        jobs: a.jobs.map_or_else(crate::grade::default_jobs, usize::from),
        format: a.format,
        for_students: a.for_students,
        out: a.out.clone(),
        resume: a.resume,
        games,
        players,
        course: a.course_dir.as_ref().map(|dir| class::Course {
            dir: std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
            into: a.submission_into.clone(),
            left_out,
            must_bring: a.student_file.clone(),
        }),
    })
}

/// Grades the class and writes the gradebook; the summary on stdout; the exit code.
fn grade(
    a: &Args,
    suite: &crate::grade::Suite,
    subs: &[Submission],
    options: &class::Options,
) -> Exit {
    let started = Instant::now();
    let show = Show::new(subs.len());
    let all = class::grade_all(
        suite,
        subs,
        options,
        |p| show.progress(p),
        |s, g| show.done(s, g),
    );
    show.finish();
    let book = class::Gradebook {
        rows: all.iter().map(|g| g.row().clone()).collect(),
    };
    let unwritten: Vec<String> = all
        .iter()
        .filter_map(|g| match g {
            Graded::Unwritten { row, why } => Some(format!(
                "{}: {why}",
                crate::diff::visible_name(&row.submission)
            )),
            _ => None,
        })
        .collect();
    let kept = all
        .iter()
        .filter(|g| matches!(g, Graded::Before { .. }))
        .count();
    let out = &a.out;
    if let Err(e) = book.write_to(out) {
        return Err(Failure::message(format!(
            "error: {e}\n  = hint: check that the directory is writable"
        )));
    }
    // The time goes to the terminal only: the files are the same for any run of the same
    // grading (and for shards merged).
    let mut summary = book.summary();
    summary.push_str(&format!(
        "\ngraded in {:.1} s, {} at a time{}\n",
        started.elapsed().as_secs_f64(),
        options.jobs,
        if kept > 0 {
            format!("; {kept} kept from an earlier run (--resume)")
        } else {
            String::new()
        }
    ));
    summary.push_str(&format!(
        "reports in {}, gradebook in {} and {}\n",
        out.join("reports").display(),
        out.join("gradebook.csv").display(),
        out.join("gradebook.json").display()
    ));
    let code = print_all(&summary);
    if !unwritten.is_empty() {
        return Err(Failure::message(format!(
            "error: {} could not be written:\n  {}",
            plural(unwritten.len(), "report"),
            unwritten.join("\n  ")
        )));
    }
    code
}

/// The progress display: a bar on a terminal (submissions done, those being graded, the time
/// left), else a line a submission, in the submissions' order.
struct Show {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    current: Mutex<BTreeSet<String>>,
    shown: Mutex<usize>,
}

impl Show {
    fn new(total: usize) -> Show {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            let style = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta}  {wide_msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("█▌ ");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Show {
            bar,
            total,
            current: Mutex::new(BTreeSet::new()),
            shown: Mutex::new(0),
        }
    }

    fn progress(&self, p: Progress) {
        let Some(bar) = &self.bar else { return };
        let Ok(mut current) = self.current.lock() else {
            return;
        };
        match p {
            Progress::Started(s) => {
                current.insert(s.name.clone());
            }
            Progress::Finished(s, _) => {
                current.remove(&s.name);
                bar.inc(1);
            }
        }
        // A folder's name is a student's to choose: escaped, never sent to the terminal raw.
        let names: Vec<String> = current
            .iter()
            .map(|n| crate::diff::visible_name(n).into_owned())
            .collect();
        bar.set_message(format!("grading {}", names.join(", ")));
    }

    fn done(&self, s: &Submission, g: &Graded) {
        if self.bar.is_some() {
            return;
        }
        let Ok(mut shown) = self.shown.lock() else {
            return;
        };
        *shown += 1;
        let row = g.row();
        let how = match g {
            Graded::Now { elapsed, .. } => format!("{:.1} s", elapsed.as_secs_f64()),
            Graded::Before { .. } => "kept from an earlier run".to_owned(),
            Graded::Unwritten { why, .. } => format!("the report could not be written: {why}"),
        };
        eprintln!(
            "[{}/{}] {}: {} / {} ({how})",
            *shown,
            self.total,
            crate::diff::visible_name(&s.name),
            number(row.score),
            number(row.max_score)
        );
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

//! The cases real public submissions showed (issue 62), each rebuilt as a fixture of the
//! project's own in the same shape, and run as a TA would run the real one: the guide's
//! recipe first, then what the report tells the TA to do.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::{gametrace, require_sml};

const PY: &str = "python3 adapters/python/gametrace_game.py";
const TIPPY: &str = "specs/csc148/tippy-rules.yaml";
const RANDOM_SIZE: &str =
    "tests/fixtures/python/csc148/games/tippy_random_size/tippy_game_state.py";
const SHARED: &str =
    "tests/fixtures/python/csc148/games_buggy/tippy_shared_default/tippy_game_state.py";

/// Case 1: a correct Tippy whose class is `TippyState(p, grid_num=...)` and whose
/// interactive constructor draws the board's size at random. The guide's recipe names
/// `TippyGameState`: the driver says which class it checks instead, and the report stops at
/// the start, saying how the two builds differed and what to give (an ERROR: the grader's
/// to fix, never a FAIL of the student's). With the line it gives, the game passes.
#[test]
fn a_random_size_constructor_is_said_so_with_the_construct_line_that_fits() {
    gametrace()
        .args(["check-game", TIPPY, "--color", "never", "--cmd"])
        .arg(format!("{PY} {RANDOM_SIZE} TippyGameState"))
        .assert()
        .code(2)
        .stdout(contains("ERROR   specs/csc148/tippy-rules.yaml start: the constructor, called as the course's game_view calls it (TippyState('p1', interactive=True), 4 answered to its questions), gave a"))
        .stdout(contains("it picks a random size, so there is no one start to compare with the spec's"))
        .stdout(contains("give the driver --construct 'TippyState({player}, grid_num={size})' (tried: it builds the spec's start, the same each time)"))
        .stdout(contains("(noted: tippy_game_state.py has no class TippyGameState; its GameState subclasses: TippyState; TippyState is checked)"))
        .stdout(contains("ERROR   specs/csc148/tippy-rules.yaml perft: not run: the start is not the same each time it is built (see `start`)"))
        .stdout(contains("FAIL").not());
    gametrace()
        .args(["check-game", TIPPY, "--color", "never", "--cmd"])
        .arg(format!(
            "{PY} {RANDOM_SIZE} TippyState --construct 'TippyState({{player}}, grid_num={{size}})'"
        ))
        .assert()
        .code(0)
        .stdout(contains("11 passed, 0 failed, 1 skipped; score 11 / 11"));
}

/// "A correct game with a random-size interactive constructor never FAILs": twenty runs of
/// the recipe, each an ERROR at the start and nothing else.
#[test]
fn a_correct_random_size_game_never_fails_in_twenty_runs() {
    for run in 0..20 {
        let out = gametrace()
            .args(["check-game", TIPPY, "--color", "never", "--cmd"])
            .arg(format!("{PY} {RANDOM_SIZE} TippyState"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "run {run}:\n{text}");
        assert!(
            text.lines().all(|l| !l.starts_with("FAIL")),
            "run {run}:\n{text}"
        );
        assert!(
            text.starts_with("ERROR   specs/csc148/tippy-rules.yaml start: "),
            "run {run}:\n{text}"
        );
    }
}

/// Case 3, first half: a Tippy whose `grid=[]` default collects the rows of every
/// interactive construction. The start grows; the report names the student's bug, with
/// the `--construct` line that builds a fresh board, and checks nothing else.
#[test]
fn a_start_that_grows_names_the_shared_mutable_default() {
    gametrace()
        .args(["check-game", TIPPY, "--color", "never", "--cmd"])
        .arg(format!("{PY} {SHARED} TippyGameState"))
        .assert()
        .code(1)
        .stdout(contains("FAIL    specs/csc148/tippy-rules.yaml start: the start grows each time it is built: a 4×4 board (16 moves), then a board of 8 rows of 4 (32 moves): `grid=[]` in __init__'s signature is one object shared by every call, and each construction adds to it: a shared mutable default"))
        .stdout(contains("give the driver --construct 'TippyGameState({player}, grid=[[None] * {size} for _ in range({size})])' (tried: it builds the spec's start, the same each time)"))
        .stdout(contains("FAIL    specs/csc148/tippy-rules.yaml playouts: not run: the start is not the same each time it is built (see `start`)"));
}

/// Copies a fixture folder's files into `to` (made if need be), renaming `rename`'s file.
fn copy_fixture(from: &str, to: &std::path::Path, rename: Option<(&str, &str)>) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let name = match rename {
            Some((a, b)) if a == name => b.to_owned(),
            _ => name,
        };
        std::fs::copy(entry.path(), to.join(name)).unwrap();
    }
}

/// Case 2: a class whose students named things their own way, graded on Tippy and Subtract
/// Square at once, each spec with its own driver: the random-size student is told apart
/// (ERROR at the start) until the roster gives its constructor, the student whose Tippy is
/// in `tippy_state.py` is found, and the rest pass. Mismatched driver counts are refused.
#[test]
fn a_class_is_graded_with_a_driver_a_spec_and_a_roster_for_what_cannot_be_found() {
    let root = env!("CARGO_MANIFEST_DIR");
    let class = tempfile::tempdir().unwrap();
    let subs = class.path().join("subs");
    let games = format!("{root}/tests/fixtures/python/csc148/games");
    for (name, tippy, rename) in [
        ("random-size", "tippy_random_size", None),
        (
            "other-file",
            "tippy",
            Some(("tippy_game_state.py", "tippy_state.py")),
        ),
        ("course-names", "tippy", None),
    ] {
        let to = subs.join(name);
        copy_fixture(&format!("{games}/{tippy}"), &to, rename);
        copy_fixture(&format!("{games}/subtract_square"), &to, None);
    }
    let driver = format!("python3 {root}/adapters/python/gametrace_game.py");
    let grade = |out: &str, roster: Option<&std::path::Path>| {
        let mut cmd = gametrace();
        cmd.current_dir(class.path())
            .args([
                "grade",
                "subs",
                "--jobs",
                "2",
                "--playouts",
                "20",
                "--out",
                out,
            ])
            .args(["--game", &format!("{root}/specs/csc148/tippy-rules.yaml")])
            .args([
                "--game-cmd",
                &format!("{driver} tippy_game_state.py TippyGameState"),
            ])
            .args([
                "--game",
                &format!("{root}/specs/csc148/subtract-square-rules.yaml"),
            ])
            .args([
                "--game-cmd",
                &format!("{driver} subtract_square_state.py SubtractSquareState"),
            ]);
        if let Some(r) = roster {
            cmd.args(["--roster", r.to_str().unwrap()]);
        }
        cmd.assert().success();
        std::fs::read_to_string(class.path().join(out).join("gradebook.csv")).unwrap()
    };
    let book = grade("first", None);
    let score = |book: &str, who: &str| {
        let row = book
            .lines()
            .find(|l| l.starts_with(who))
            .unwrap()
            .to_owned();
        row.split(',').skip(1).take(2).collect::<Vec<_>>().join("/")
    };
    assert_eq!(score(&book, "course-names"), "18/18", "{book}");
    assert_eq!(score(&book, "other-file"), "18/18", "{book}");
    assert_eq!(score(&book, "random-size"), "7/18", "{book}");
    let report =
        std::fs::read_to_string(class.path().join("first/reports/random-size.txt")).unwrap();
    assert!(
        report.contains("give the driver --construct 'TippyState({player}, grid_num={size})'"),
        "{report}"
    );
    let other = std::fs::read_to_string(class.path().join("first/reports/other-file.txt")).unwrap();
    assert!(
        other.contains("(noted: the submission has no tippy_game_state.py: tippy_state.py holds TippyGameState, which is checked)"),
        "{other}"
    );
    let roster = class.path().join("roster.csv");
    std::fs::write(
        &roster,
        "submission,setting,value\nrandom-size,tippy:construct,\"TippyState({player}, grid_num={size})\"\n",
    )
    .unwrap();
    let book = grade("second", Some(&roster));
    assert_eq!(score(&book, "random-size"), "18/18", "{book}");
    // Three drivers for two specs: which goes with which cannot be known.
    gametrace()
        .current_dir(class.path())
        .args(["grade", "subs", "--out", "third"])
        .args(["--game", &format!("{root}/specs/csc148/tippy-rules.yaml")])
        .args(["--game-cmd", "a", "--game-cmd", "b", "--game-cmd", "c"])
        .assert()
        .code(2)
        .stderr(contains("error: 3 --game-cmd for 1 --game"));
    std::fs::write(&roster, "random-size,colour,blue\n").unwrap();
    gametrace()
        .current_dir(class.path())
        .args(["grade", "subs", "--out", "fourth"])
        .args(["--game", &format!("{root}/specs/csc148/tippy-rules.yaml")])
        .args(["--game-cmd", "true", "--roster", roster.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains(
            "roster.csv:1: no setting `colour`: the settings are class, module, construct, base",
        ));
}

/// Case 4, a hint that claims what was not seen: a Connect 4 whose `moves` puts the next
/// column in a full column's place lists a column twice, the same list on every call. It
/// is told so, never "a ref kept between calls, grows on every call".
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_move_listed_twice_in_the_same_list_every_call_is_not_called_a_growing_list() {
    require_sml();
    let (a, c) = ("adapters/sml/s12", "adapters/sml/s12/course");
    let student = "tests/fixtures/sml/games_buggy/connect4_full_column_next.sml";
    gametrace()
        .args(["check-game", "specs/games/connect4/rules.yaml", "--color", "never"])
        .args(["--estimator-openings", "0", "--playouts", "20", "--cmd"])
        .arg(format!(
            "sml {c}/sequence.sml {c}/matrix.sml {c}/game.sig {student} {a}/gametrace-game.sml {a}/run-connect4.sml"
        ))
        .assert()
        .code(1)
        .stdout(contains("scenario a_full_column_is_not_a_move: after 0 0 0 0 0 0: the game listed the move 1 twice in one list of 7 moves, [1, 1, 2, 3, 4, 5, 6]: a game lists each move once (asked again, it gave the same list: the move is listed twice on every call, nothing kept between calls)"))
        .stdout(contains("ref kept").not())
        .stdout(contains("grows").not());
}

/// Case 3, second half: with the `--construct` line the report gave, the same Tippy FAILs
/// on its winner test, and each of its three slips is shown by its cells on a board, with
/// the catalogue's name for it: four empty cells taken for a tippy, a T taken for one, and
/// the tippy leaning left missed in the leftmost column.
#[test]
fn three_slips_of_one_winner_test_are_each_shown_by_their_cells() {
    let out = gametrace()
        .args(["check-game", TIPPY, "--color", "never", "--cmd"])
        .arg(format!(
            "{PY} {SHARED} TippyGameState --construct 'TippyGameState({{player}}, grid=[[None] * {{size}} for _ in range({{size}})])'"
        ))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for want in [
        "the win test, cell by cell (where its status differs from the reference's; the cells marked [ ]):",
        "the game says p1 won, where the reference sees no win: it takes four empty cells, (",
        "for a win [empty-tippy-wins]:",
        "a T, not a tippy (.X, XX, .X)",
        "[t-shape-wins]",
        "the game says in play, where p1 holds the upright tippy leaning left (.X, XX, X.), touching the leftmost column",
        "its win test misses these four cells [down-left-misses-left-column]:",
        // A board, four cells marked.
        "          3  . [X][X] O\n",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

/// Case 4: a Riskless whose moves leave the source territory its armies. On the
/// three-territory map of `army-target.yaml` it shows on one position only, where a winner
/// keeping its army behaves the same: both are given, never one of them as the name. On
/// M1 it is named, tested on fresh positions.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_mistake_the_spec_cannot_tell_from_another_is_never_named_alone() {
    require_sml();
    let (a, c) = ("adapters/sml/s14", "adapters/sml/s14/course");
    let student = "tests/fixtures/sml/games_buggy/riskless_source_keeps_armies.sml";
    let cmd = format!(
        "sml {c}/sequence.sml {c}/game.sig {student} {a}/gametrace-game.sml {a}/run-riskless.sml"
    );
    gametrace()
        .args(["check-game", "specs/games/riskless/army-target.yaml", "--color", "never"])
        .args(["--estimator-openings", "0", "--cmd", &cmd])
        .assert()
        .code(1)
        .stdout(contains("the mistake is one of these (each behaves exactly so at all"))
        .stdout(contains("it differs from the reference at 1 of them; no position asked about tells them apart):"))
        .stdout(contains("[winner-keeps-all]"))
        .stdout(contains("[source-keeps-armies]"))
        .stdout(contains("the mistake: ").not());
    gametrace()
        .args(["check-game", "specs/games/riskless/rules.yaml", "--color", "never"])
        .args(["--estimator-openings", "0", "--cmd", &cmd])
        .assert()
        .code(1)
        .stdout(contains("the mistake: the territory a move leaves keeps its armies: they are copied to the target, not moved [source-keeps-armies] (it behaves exactly so at all"));
}

const SS_GRADING: &str = "specs/csc148/subtract-square-grading.yaml";

fn strategy(file: &str, class: &str) -> String {
    format!(
        "python3 adapters/python/gametrace_csc148.py strategy tests/fixtures/python/csc148/{file} {class} {{position_json}}"
    )
}

/// Case 4, CSC148: a correct myopic strategy whose depth is a helper's default argument
/// (`_search(self, state, depth=3)`, called without one) used to be graded at 3 whatever
/// the case asked, and named `myopic-one-long; rough-outcome-sign`. The depth is now given
/// as the student's code takes it, and it passes.
#[test]
fn a_depth_that_is_a_helpers_default_is_given_there_and_a_correct_strategy_passes() {
    gametrace()
        .args(["test", SS_GRADING, "--color", "never", "--against"])
        .arg(strategy(
            "strategy_minimax_myopic_helper_default.py",
            "StrategyMinimaxMyopic",
        ))
        .assert()
        .code(0)
        .stdout(contains("4 passed, 0 failed; score 4 / 4"))
        .stdout(contains("myopic-one-long").not());
}

/// A depth written into the call (`self._look(state, 3)`) cannot be given: each case is
/// graded at the strategy's own depth, and the report says so.
#[test]
fn a_depth_that_cannot_be_given_is_graded_as_the_student_wrote_it_and_said_so() {
    gametrace()
        .args(["test", SS_GRADING, "--color", "never", "--against"])
        .arg(strategy("strategy_minimax_myopic_fixed.py", "StrategyMinimaxMyopic"))
        .assert()
        .code(0)
        .stdout(contains("PASS    specs/csc148/subtract-square-grading.yaml myopic-1-at-10: value: chosen move: 9 (or any of 9, 4, 1: equally good): match (graded at the strategy's own depth 3: the case's 1 cannot be given)"))
        .stdout(contains("note: the strategy searches 3 moves ahead, fixed by the student: suggest_move calls _look(..., n=3) with the number written in; the case's depth, 1, cannot be given to it, so it is graded against the reference at depth 3"));
}

/// A depth that can be neither found nor given (a module's constant): graded at the
/// case's depth, and no mistake is named from a depth the strategy may ignore.
#[test]
fn a_depth_that_cannot_be_found_names_no_mistake() {
    gametrace()
        .args(["test", SS_GRADING, "--color", "never", "--against"])
        .arg(strategy(
            "strategy_minimax_myopic_constant.py",
            "StrategyMinimaxMyopic",
        ))
        .assert()
        .code(1)
        .stdout(contains("FAIL    specs/csc148/subtract-square-grading.yaml myopic-1-at-10: value: expected chosen move: 4 (the strategy's depth is unknown: no mistake is named)"))
        .stdout(contains("diagnosis").not());
}

/// The research's other two false verdicts: a Winter 2015 class name
/// (`StrategyMinimaxPruning`) is read as the course's `StrategyMinimaxPrune`, not graded on
/// every strategy's cases; and a spec with no case for the class named grades none of its
/// cases, saying so, instead of grading a memoizing strategy as a pruning one.
#[test]
fn a_strategy_is_graded_on_its_own_class_cases_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("strategy_minimax_pruning.py");
    let source =
        std::fs::read_to_string("tests/fixtures/python/csc148/strategy_minimax_prune.py").unwrap();
    std::fs::write(
        &file,
        source.replace("class StrategyMinimaxPrune", "class StrategyMinimaxPruning"),
    )
    .unwrap();
    gametrace()
        .args(["test", SS_GRADING, "--color", "never", "--against"])
        .arg(format!(
            "python3 adapters/python/gametrace_csc148.py strategy {} StrategyMinimaxPruning {{position_json}} --trace",
            file.display()
        ))
        .assert()
        .code(0)
        .stdout(contains("1 passed, 0 failed; score 1 / 1"))
        .stderr(contains("note: the command's StrategyMinimaxPruning is taken for the course's StrategyMinimaxPrune (another term's name for it)"));
    gametrace()
        .args(["test", "specs/csc148/tippy-grading.yaml", "--color", "never", "--against"])
        .arg(strategy("strategy_minimax_memoize.py", "StrategyMinimaxMemoize"))
        .assert()
        .stdout(contains("0 passed, 0 failed"))
        .stdout(contains("FAIL").not())
        .stderr(contains("note: specs/csc148/tippy-grading.yaml has no case for StrategyMinimaxMemoize: none of its 2 cases graded"));
}

/// The term-choosing SML driver, after `files` (each relative to the project's root).
fn sml_any_term(files: &[&str], run: &str) -> String {
    format!(
        "sml {} adapters/sml/gametrace-game.sml adapters/sml/{run}",
        files.join(" ")
    )
}

const F11: [&str; 3] = [
    "adapters/sml/f11/course/sequence.sml",
    "adapters/sml/f11/course/matrix.sml",
    "adapters/sml/f11/course/game.sig",
];

/// Case 5: a Fall 2011 folder (its Seq.nth takes the sequence first, its GAME prints with
/// `move_to_string`) used to get "CRASHED driver did not start" with every compiler error in
/// gametrace's own driver. The driver now finds the term by trying, says which, and checks
/// the game; the old one-term driver's errors are said to be gametrace's, never the
/// student's; a student's file that does not compile is named with its line.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn every_terms_library_is_recognised_and_compiler_errors_name_whose_file() {
    require_sml();
    let c4 = "specs/games/connect4/rules.yaml";
    let quick = [
        "--playouts",
        "20",
        "--estimator-openings",
        "0",
        "--color",
        "never",
    ];
    let f11 = [&F11[..], &["tests/fixtures/sml/terms/connect4_f11.sml"]].concat();
    gametrace()
        .args(["check-game", c4])
        .args(quick)
        .args(["--cmd", &sml_any_term(&f11, "run-connect4.sml")])
        .assert()
        .code(0)
        .stdout(contains(
            "(noted: the course folder matches Fall 2011's GAME and Seq (HW10 Connect 4))",
        ))
        .stdout(contains("12 passed, 0 failed; score 12 / 12"));
    let (a, _) = ("adapters/sml/s12", ());
    gametrace()
        .args(["check-game", c4])
        .args(quick)
        .args([
            "--cmd",
            &format!("sml {} {a}/gametrace-game.sml {a}/run-connect4.sml", f11.join(" ")),
        ])
        .assert()
        .code(1)
        .stdout(contains("driver: gametrace's driver (gametrace-game.sml) does not compile against what the command loads, so nothing of the game was judged; the term-choosing driver, adapters/sml/gametrace-game.sml, says which term's library a folder has"));
    // Spring or Fall 2012: Fall 2011's GAME over the index-first library.
    let y2012 = [
        "adapters/sml/s12/course/sequence.sml",
        "adapters/sml/s12/course/matrix.sml",
        "adapters/sml/f11/course/game.sig",
        "tests/fixtures/sml/terms/connect4_2012.sml",
    ];
    gametrace()
        .args(["check-game", c4])
        .args(quick)
        .args(["--cmd", &sml_any_term(&y2012, "run-connect4.sml")])
        .assert()
        .code(0)
        .stdout(contains(
            "(noted: the course folder matches Spring or Fall 2012's GAME and Seq",
        ));
    // A later term's Riskless: no profile fits; the nearest and what differs.
    let later = [
        "adapters/sml/s14/course/sequence.sml",
        "tests/fixtures/sml/terms/later_riskless/game.sig",
        "tests/fixtures/sml/terms/later_riskless/riskless.sml",
    ];
    gametrace()
        .args(["check-game", "specs/games/riskless/rules.yaml", "--color", "never"])
        .args(["--cmd", &sml_any_term(&later, "run-riskless.sml")])
        .assert()
        .code(2)
        .stdout(contains("ERROR   specs/games/riskless/rules.yaml driver: this course folder's GAME and Seq match no 15-150 term gametrace knows (Fall 2011, Spring or Fall 2012, Fall 2013, CMU-Q Fall 2014); nearest Fall 2013: it has no `Draw` among the outcomes, which Fall 2013 has; its MAP has max_turns and mapID, which no known term's MAP has"));
    // A student's file that does not parse: its own name and line.
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("connect4.sml");
    let source = std::fs::read_to_string("tests/fixtures/sml/terms/connect4_f11.sml").unwrap();
    std::fs::write(
        &broken,
        source.replace("  fun player (S (_, p)) = p", "  fun player (S (_, p) = p"),
    )
    .unwrap();
    let files = [&F11[..], &[broken.to_str().unwrap()]].concat();
    gametrace()
        .args(["check-game", c4])
        .args(quick)
        .args(["--cmd", &sml_any_term(&files, "run-connect4.sml")])
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"driver: the game's code does not compile \(connect4.sml; the compiler's messages are below\): \S*connect4.sml:\d+\.\d+(-\d+\.\d+)? Error: syntax error").unwrap());
}

/// Case 6: the 2014 student's alpha-beta, traced as it is (the handout's F/G and Result
/// lines; no `(* Pruned *)` mark, no summary lines, which that code never prints), is named
/// as its pair of slips: the move kept apart from the bound, and a cut that returns the
/// node's own player's certain win.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn the_2014_alpha_beta_pair_is_named_from_its_traced_output_as_it_is() {
    require_sml();
    gametrace()
        .args(["check", "specs/15150-s14/handout-big.yaml", "--case", "alphabeta"])
        .args(["--color", "never", "--cmd"])
        .arg("sml tests/fixtures/sml/alphabeta-2014-pair.sml tests/fixtures/sml/big.sml")
        .assert()
        .code(1)
        .stdout(contains("diagnosis: this output is exactly what the reference prints with any of these mistakes (on this case they print the same): cut-returns-own-win together with move-kept-apart; cut-returns-own-win together with move-kept-apart at Minnie's nodes only"))
        .stdout(contains("(the output prints no `(* Pruned *)` mark and no value or terminals line anywhere: the traces are compared without them)"))
        .stdout(contains("case `minnie-alphabeta` tells cut-returns-own-win+move-kept-apart and cut-returns-own-win+move-kept-apart:minnie apart"));
}

//! `gametrace check-game`: students' own games, run for real through the shipped drivers.
//! SML/NJ runs 15-150 Connect4 functors written against the course's GAME signature; Python
//! runs CSC148 Subtract Square and Tippy states written against the course's GameState API.
//! Correct games pass every check; each buggy copy (one catalogued mistake) fails with the
//! mistake named and a shortest sequence no longer than the one worked out by hand.

use predicates::prelude::*;
use predicates::str::contains;
use std::fs;

mod common;
use common::cli::{gametrace, require_sml};

const PY: &str = "python3 adapters/python/gametrace_game.py";
const PY_GAMES: &str = "tests/fixtures/python/csc148";
const SS: &str = "specs/csc148/subtract-square-rules.yaml";
const TIPPY: &str = "specs/csc148/tippy-rules.yaml";
const C4: &str = "specs/games/connect4/rules.yaml";
const C4_SMALL: &str = "specs/games/connect4/small-board.yaml";

/// The command that runs an SML Connect4 functor (Spring 2012's GAME) behind the driver.
fn sml_connect4(student: &str) -> String {
    let (a, c) = ("adapters/sml/s12", "adapters/sml/s12/course");
    format!(
        "sml {c}/sequence.sml {c}/matrix.sml {c}/game.sig {student} {a}/gametrace-game.sml {a}/run-connect4.sml"
    )
}

fn check_game(spec: &str, cmd: &str, extra: &[&str]) -> (i32, String) {
    let out = gametrace()
        .args(["check-game", spec, "--color", "never", "--cmd", cmd])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), stdout)
}

/// The length of the shortest sequence the report gives.
fn shortest(report: &str) -> usize {
    let (at, phrase) = [
        "shortest sequence that shows it (",
        "shortest sequence found that shows it (",
    ]
    .iter()
    .find_map(|p| report.find(p).map(|at| (at, *p)))
    .unwrap_or_else(|| panic!("no shortest sequence in:\n{report}"));
    let rest = &report[at + phrase.len()..];
    rest[..rest.find(' ').unwrap()].parse().unwrap()
}

#[test]
fn correct_csc148_games_pass_every_check() {
    for (spec, module, class) in [
        (
            SS,
            "games/subtract_square/subtract_square_state.py",
            "SubtractSquareState",
        ),
        (TIPPY, "games/tippy/tippy_game_state.py", "TippyGameState"),
    ] {
        let cmd = format!("{PY} {PY_GAMES}/{module} {class}");
        let (code, out) = check_game(spec, &cmd, &[]);
        assert_eq!(code, 0, "{out}");
        for check in ["parse_move", "perft", "playouts", "move order", "scenario "] {
            assert!(out.contains(&format!("PASS    {spec} {check}")), "{out}");
        }
        assert!(out.contains("200 random games (seed 1)"), "{out}");
        // Subtract Square's rules have scenarios of one step, which read as one.
        assert!(!out.contains("all 1 steps"), "{out}");
        if spec == SS {
            assert!(
                out.contains("the one step agrees with the reference"),
                "{out}"
            );
        }
    }
}

/// Each buggy copy: its mistake's name, and the longest shortest sequence allowed. The
/// bounds are the shortest sequences worked out by hand: a square too large or 0 shows in
/// the start's move list (0 moves); a tippy needs four X cells, so three O moves between
/// (7 moves).
#[test]
fn each_csc148_mistake_is_named_with_a_shortest_sequence() {
    for (spec, module, class, id, by_hand) in [
        (
            SS,
            "games_buggy/square_too_large/subtract_square_state.py",
            "SubtractSquareState",
            "[square-too-large]",
            0,
        ),
        (
            SS,
            "games_buggy/zero_offered/subtract_square_state.py",
            "SubtractSquareState",
            "[zero-offered]",
            0,
        ),
        (
            TIPPY,
            "games_buggy/tippy_no_down_left/tippy_game_state.py",
            "TippyGameState",
            "[no-down-left]",
            7,
        ),
        (
            TIPPY,
            "games_buggy/tippy_skips_bottom_row/tippy_game_state.py",
            "TippyGameState",
            "[skips-bottom-row]",
            7,
        ),
        // A wrapped tippy is four p1 cells too: 7 moves.
        (
            TIPPY,
            "games_buggy/tippy_wraps_left_edge/tippy_game_state.py",
            "TippyGameState",
            "[wraps-left-edge]",
            7,
        ),
    ] {
        let cmd = format!("{PY} {PY_GAMES}/{module} {class}");
        let (code, out) = check_game(spec, &cmd, &[]);
        assert_eq!(code, 1, "{module}: {out}");
        assert!(
            out.contains("the mistake: ") && out.contains(id),
            "{module} should be named {id}:\n{out}"
        );
        assert!(shortest(&out) <= by_hand, "{module}:\n{out}");
        assert!(out.contains(&format!("FAIL    {spec} playouts")), "{out}");
    }
}

/// The fixture's `moves` does not look for a win again: Spring 2012's GAME requires
/// `status s <> Over _` of it, so the driver never asks it at a finished position and a
/// correct game is not failed for listing moves there.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_correct_sml_connect4_functor_passes_every_check() {
    require_sml();
    for spec in [C4, C4_SMALL] {
        let (code, out) = check_game(
            spec,
            &sml_connect4("tests/fixtures/sml/games/connect4.sml"),
            &[],
        );
        assert_eq!(code, 0, "{out}");
        // The scenarios start from positions: they are reached by moves from `start`.
        assert!(out.contains("scenario"), "{out}");
        assert!(!out.contains("not replayed"), "{out}");
        assert!(out.contains(&format!("PASS    {spec} perft")), "{out}");
    }
}

/// By hand: a vertical four is 4 X and 3 O (7); three in a column is 3 X and 2 O (5); a full
/// column of six is 6 moves; the player not switched shows after 1 move; the 4×2 board is
/// full after 8, the 7×6 board after 42 (rules.yaml's full-board scenario: with the default
/// flags, 200 playouts alone never fill a board without a four). A falling diagonal four
/// needs 6 pieces under it: Minnie can make one in 10 moves (the shrinker, removing moves
/// from a random game, finds Maxie's in 11).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn each_sml_connect4_mistake_is_named_with_a_shortest_sequence() {
    require_sml();
    for (spec, file, id, bound) in [
        (C4, "no_vertical", "[no-vertical]", 7),
        (C4, "three_wins", "[three-wins]", 5),
        (C4, "full_column_offered", "[full-column-offered]", 6),
        (C4, "player_not_switched", "[player-not-switched]", 1),
        (C4, "no_falling_diagonal", "[no-falling-diagonal]", 11),
        (C4_SMALL, "full_board_not_draw", "[full-board-not-draw]", 8),
        (C4, "full_board_not_draw", "[full-board-not-draw]", 42),
    ] {
        let student = format!("tests/fixtures/sml/games_buggy/connect4_{file}.sml");
        let (code, out) = check_game(spec, &sml_connect4(&student), &[]);
        assert_eq!(code, 1, "{file}: {out}");
        assert!(out.contains(id), "{file} should be named {id}:\n{out}");
        assert!(
            shortest(&out) <= bound,
            "{file}: longer than {bound}:\n{out}"
        );
    }
}

#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_functor_that_does_not_match_the_signature_gets_the_compilers_message() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("connect4.sml");
    let src = fs::read_to_string("tests/fixtures/sml/games/connect4.sml").unwrap();
    fs::write(
        &broken,
        src.replace("  fun player (S (_, p)) = p", "  fun player (S (_, p)) = 3"),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, out) = check_game(C4, &sml_connect4(broken.to_str().unwrap()), &[]);
    assert_eq!(code, 1, "{out}");
    // The student's file and line, never the driver's fault.
    assert!(
        out.contains("driver: the game's code does not compile (connect4.sml; the compiler's messages are below): "),
        "{out}"
    );
    assert!(out.contains("the compiler says:"), "{out}");
    assert!(out.contains("doesn't match signature"), "{out}");
    assert!(out.contains("name: player"), "{out}");
    // Not a hang until the timeout: SML/NJ stops at the error.
    assert!(started.elapsed() < std::time::Duration::from_secs(9));
}

/// The scenario the report prints is one the spec can take: pasted under `scenarios:`, the
/// reference passes it (`gametrace test`), and the buggy game fails it.
#[test]
fn the_printed_scenario_pastes_into_the_spec_and_holds_for_the_reference() {
    let cmd = format!(
        "{PY} {PY_GAMES}/games_buggy/tippy_no_down_left/tippy_game_state.py TippyGameState"
    );
    let (_, out) = check_game(TIPPY, &cmd, &[]);
    let start = out
        .find("as a scenario to paste into the spec's `scenarios:`:\n")
        .expect("a scenario");
    let block: Vec<&str> = out[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("the mistake"))
        .collect();
    // The report indents details by four spaces.
    let scenario: String = block.iter().map(|l| format!("{}\n", &l[4..])).collect();
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("tippy.yaml");
    let mut text = fs::read_to_string(TIPPY).unwrap();
    assert!(text.contains("\nscenarios:\n"));
    text.push_str(&scenario);
    fs::write(&spec, &text).unwrap();
    gametrace()
        .arg("test")
        .arg(&spec)
        .assert()
        .success()
        .stdout(contains("PASS").and(contains("student_game_differs")));
    let (code, out) = check_game(spec.to_str().unwrap(), &cmd, &["--playouts", "0"]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL"), "{out}");
    assert!(out.contains("scenario student_game_differs"), "{out}");
}

#[test]
fn the_report_is_the_same_for_any_number_of_drivers() {
    let cmd = format!(
        "{PY} {PY_GAMES}/games_buggy/tippy_skips_bottom_row/tippy_game_state.py TippyGameState"
    );
    let run = |threads: &str| {
        gametrace()
            .args([
                "check-game",
                TIPPY,
                "--format",
                "json",
                "--threads",
                threads,
            ])
            .args(["--cmd", &cmd, "--playouts", "60"])
            .output()
            .unwrap()
            .stdout
    };
    let one = run("1");
    assert!(!one.is_empty());
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
}

/// A student's Subtract Square with a bad move in it: `apply_move` raising at a total of 7,
/// or looping forever at 3. Each gets its verdict with the moves that lead there.
#[test]
fn a_raising_or_hanging_game_gets_its_verdict_with_the_moves_that_cause_it() {
    let dir = tempfile::tempdir().unwrap();
    let correct = fs::read_to_string(format!(
        "{PY_GAMES}/games/subtract_square/subtract_square_state.py"
    ))
    .unwrap();
    fs::copy(
        format!("{PY_GAMES}/games/subtract_square/subtract_square_move.py"),
        dir.path().join("subtract_square_move.py"),
    )
    .unwrap();
    let hook = "        if move in self.possible_next_moves():\n";
    assert!(correct.contains(hook));
    let raising = correct.replace(
        hook,
        &format!(
            "        if self.current_total == 7:\n            raise ValueError('seven')\n{hook}"
        ),
    );
    let module = dir.path().join("subtract_square_state.py");
    fs::write(&module, raising).unwrap();
    let cmd = format!("{PY} {} SubtractSquareState", module.display());
    let (code, out) = check_game(SS, &cmd, &[]);
    assert_eq!(code, 1, "{out}");
    // 10 - 1 - 1 - 1 = 7: the shortest way there is three moves, and any move from 7 raises;
    // the first tried is the course's first, the largest square, 4.
    assert!(
        out.contains("the game raised ValueError: seven in apply_move"),
        "{out}"
    );
    assert!(out.contains("CRASHED"), "{out}");
    assert!(
        out.contains("after 1 1 1, playing 4: the game raised"),
        "{out}"
    );
    assert_eq!(shortest(&out), 3, "{out}");

    let looping = correct.replace(
        hook,
        &format!("        while self.current_total == 3:\n            pass\n{hook}"),
    );
    fs::write(&module, looping).unwrap();
    let (code, out) = check_game(SS, &cmd, &["--timeout", "2", "--playouts", "5"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("TIMEOUT"), "{out}");
    assert!(out.contains("ran past the 2 s timeout"), "{out}");
    // 10 - 3 = 7 takes four squares at least (4 + 1 + 1 + 1): four moves, then any move hangs.
    assert_eq!(shortest(&out), 4, "{out}");
    assert!(out.contains(", playing "), "{out}");
}

/// The sandbox holds for check-game's drivers too: a game module that reads the spec when
/// imported is stopped (and succeeds without the sandbox, which proves the test's attack).
#[test]
fn a_game_that_reads_the_spec_is_stopped_by_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let correct = fs::read_to_string(format!(
        "{PY_GAMES}/games/subtract_square/subtract_square_state.py"
    ))
    .unwrap();
    fs::copy(
        format!("{PY_GAMES}/games/subtract_square/subtract_square_move.py"),
        dir.path().join("subtract_square_move.py"),
    )
    .unwrap();
    let spec = std::path::absolute(SS).unwrap();
    let hostile = format!(
        "import sys\nsys.stderr.write(open({:?}).read()[:40])\n{correct}",
        spec.display().to_string()
    );
    let module = dir.path().join("subtract_square_state.py");
    fs::write(&module, hostile).unwrap();
    let cmd = format!("{PY} {} SubtractSquareState", module.display());
    let (code, out) = check_game(SS, &cmd, &[]);
    assert_eq!(code, 1, "{out}");
    // Refused (PermissionError) where the spec's folder is in sight, absent
    // (FileNotFoundError) where it lies under a folder the sandbox replaces, as /tmp is when
    // the repository is cloned there.
    assert!(
        ["PermissionError", "FileNotFoundError"]
            .iter()
            .any(|e| out.contains(&format!(
                "driver: importing subtract_square_state.py raised {e}"
            ))),
        "{out}"
    );
    let (code, out) = check_game(SS, &cmd, &["--no-sandbox"]);
    assert_eq!(code, 0, "without the sandbox the attack works: {out}");
}

#[test]
fn a_spec_without_a_game_or_with_an_unchecked_game_is_refused_clearly() {
    gametrace()
        .args([
            "check-game",
            "specs/15150-s14/handout-small.yaml",
            "--cmd",
            "true",
        ])
        .assert()
        .code(2)
        .stderr(contains("check-game checks a game"));
    gametrace()
        .args(["check-game", "specs/games/nim/rules.yaml", "--cmd", "true"])
        .assert()
        .code(2)
        .stderr(contains("check-game cannot check nim yet"));
}

/// `grade --course-dir`: a Spring 2014 course folder as a TA has it (the library in `lib/`,
/// the homework's `sources.cm` in `hw/11/code` reaching it by `../../../lib`, a stub
/// `riskless.sml`), and submissions that hold only the student's `riskless.sml`. Each
/// submission is graded in its own copy of the folder with its file over the stub, SML/NJ
/// writes its `.cm/` caches in the copy, and the course folder is never written.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn grade_runs_each_submission_inside_a_copy_of_the_course_folder() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    let code = course.join("hw/11/code");
    fs::create_dir_all(course.join("lib")).unwrap();
    fs::create_dir_all(&code).unwrap();
    for f in ["sequence.sml", "game.sig"] {
        fs::copy(
            format!("adapters/sml/s14/course/{f}"),
            course.join("lib").join(f),
        )
        .unwrap();
    }
    fs::write(
        code.join("sources.cm"),
        "Group is\n  $/basis.cm\n  ../../../lib/sequence.sml\n  ../../../lib/game.sig\n  riskless.sml\n",
    )
    .unwrap();
    fs::write(code.join("riskless.sml"), "(* Your Riskless here. *)\n").unwrap();
    let subs = dir.path().join("subs");
    for (who, file) in [
        ("alice", "tests/fixtures/sml/games/riskless.sml"),
        ("bob", "tests/fixtures/sml/games_buggy/riskless_no_cap.sml"),
    ] {
        fs::create_dir_all(subs.join(who)).unwrap();
        fs::copy(file, subs.join(who).join("riskless.sml")).unwrap();
    }
    let a = format!("{}/adapters/sml/s14", env!("CARGO_MANIFEST_DIR"));
    let cmd = format!("sml sources.cm {a}/gametrace-game.sml {a}/run-riskless.sml");
    let out = dir.path().join("grades");
    gametrace()
        .arg("grade")
        .arg(&subs)
        .args([
            "--game-cmd",
            &cmd,
            "--game",
            "specs/games/riskless/rules.yaml",
        ])
        .args(["--playouts", "20", "--course-dir"])
        .arg(&course)
        .args(["--submission-into", "hw/11/code", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("2 submissions graded"))
        .stdout(contains("1 of 2  no-cap"));
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let score = |who: &str| {
        let row = csv.lines().find(|l| l.starts_with(who)).unwrap();
        let f: Vec<&str> = row.split(',').collect();
        (f[1].to_owned(), f[2].to_owned())
    };
    let (alice, bob) = (score("alice"), score("bob"));
    assert_eq!(
        alice.0, alice.1,
        "alice's correct game has full marks:\n{csv}"
    );
    assert!(bob.0 < bob.1, "bob's game caps no territory:\n{csv}");
    let names = |d: &std::path::Path| {
        let mut v: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&code),
        ["riskless.sml", "sources.cm"],
        "the course folder is only read"
    );
    assert_eq!(
        fs::read_to_string(code.join("riskless.sml")).unwrap(),
        "(* Your Riskless here. *)\n"
    );
    // A place outside the course folder is refused before anything runs.
    gametrace()
        .arg("grade")
        .arg(&subs)
        .args([
            "--game-cmd",
            &cmd,
            "--game",
            "specs/games/riskless/rules.yaml",
        ])
        .arg("--course-dir")
        .arg(&course)
        .args(["--submission-into", "../elsewhere", "--out"])
        .arg(dir.path().join("never"))
        .assert()
        .code(2)
        .stderr(contains("--submission-into").and(contains("../elsewhere")));
    assert!(!dir.path().join("never").exists());
}

/// `check --game-cmd`: a searcher run on the student's own game. The report first says
/// whether that game agrees with the reference on the positions the case's search goes
/// through (Figure 1's position is reached by moves from `start`): 1 + 7 + 49 = 57 positions
/// at depth 2, none of them finished.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_searchers_report_first_says_whether_the_students_game_agrees() {
    require_sml();
    let spec = "specs/games/connect4/figure1-search.yaml";
    let trace = "expected/games/connect4/figure1-search/alphabeta.trace";
    let good = sml_connect4("tests/fixtures/sml/games/connect4.sml");
    gametrace()
        .args(["check", spec, "--case", "alphabeta", "--actual", trace, "--color", "never"])
        .args(["--game-cmd", &good])
        .assert()
        .success()
        .stdout(contains(
            "the student's game agrees with the reference on the 57 positions a depth-2 search goes through",
        ));
    let bad = sml_connect4("tests/fixtures/sml/games_buggy/connect4_three_wins.sml");
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.trace");
    fs::write(&wrong, "F: nothing like the reference\n").unwrap();
    gametrace()
        .args([
            "check",
            spec,
            "--case",
            "alphabeta",
            "--color",
            "never",
            "--actual",
        ])
        .arg(&wrong)
        .args(["--game-cmd", &bad])
        .assert()
        .code(1)
        .stdout(contains(
            "the student's game differs from the reference on a searched position",
        ))
        .stdout(contains("fix the game first"))
        // Column 1 makes X X X in the bottom row: a win only for three-in-a-row rules.
        .stdout(contains(
            "after 1, status: reference in_play, student's winner: Maxie",
        ))
        .stdout(contains(
            "(and the student's game differs from the reference",
        ));
    // A game that goes wrong before the position: found on the way there.
    let bad = sml_connect4("tests/fixtures/sml/games_buggy/connect4_player_not_switched.sml");
    gametrace()
        .args([
            "check",
            spec,
            "--case",
            "alphabeta",
            "--color",
            "never",
            "--actual",
        ])
        .arg(&wrong)
        .args(["--game-cmd", &bad])
        .assert()
        .code(1)
        .stdout(contains(
            "differs from the reference on the way to the case's position",
        ))
        .stdout(contains(
            "after 2, player to move: reference Minnie, student's Maxie",
        ));
}

/// The command that runs an SML Riskless functor (Spring 2014's GAME and MAP) behind the
/// driver.
fn sml_riskless(student: &str) -> String {
    let (a, c) = ("adapters/sml/s14", "adapters/sml/s14/course");
    format!(
        "sml {c}/sequence.sml {c}/game.sig {student} {a}/gametrace-game.sml {a}/run-riskless.sml"
    )
}

#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_correct_sml_riskless_functor_passes_every_check() {
    require_sml();
    for spec in [
        "specs/games/riskless/rules.yaml",
        "specs/games/riskless/draw-from-the-start.yaml",
    ] {
        let (code, out) = check_game(
            spec,
            &sml_riskless("tests/fixtures/sml/games/riskless.sml"),
            &[],
        );
        assert_eq!(code, 0, "{out}");
        // The student prints a move as its vertex pair, (3, 4): read as the reference reads
        // it; the parser is handed what a player types at the support code's prompt, 3 4.
        assert!(
            out.contains(&format!("PASS    {spec} parse_move: the parser reads "))
                && out.contains("typed as the course's prompt reads them"),
            "{out}"
        );
        assert!(out.contains(&format!("PASS    {spec} playouts")), "{out}");
    }
}

/// By hand: a battle takes two moves (A->B, C->B on Line3), so the winner keeping its whole
/// army shows after 2; without training Minnie's C->B on A->B leaves B hers and A->B again
/// shows different moves after 3; the draw of draw-from-the-start.yaml takes 2. Without the
/// cap, M1's Land2 first exceeds 9 at move 5 and only a battle (move 6) can show it. The
/// last territory lost: 14 is what the shrinker finds (not worked out by hand).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn each_sml_riskless_mistake_is_named_with_a_shortest_sequence() {
    require_sml();
    let rules = "specs/games/riskless/rules.yaml";
    let line3 = "specs/games/riskless/army-target.yaml";
    let draw = "specs/games/riskless/draw-from-the-start.yaml";
    for (spec, file, id, bound) in [
        (line3, "winner_keeps_all", "[winner-keeps-all]", 2),
        (line3, "no_training", "[no-training]", 3),
        (draw, "no_draw_at_target", "[no-draw-at-target]", 2),
        (rules, "no_cap", "[no-cap]", 6),
        (rules, "no_last_standing", "[no-last-standing]", 14),
    ] {
        let student = format!("tests/fixtures/sml/games_buggy/riskless_{file}.sml");
        let (code, out) = check_game(spec, &sml_riskless(&student), &[]);
        assert_eq!(code, 1, "{file}: {out}");
        assert!(out.contains(id), "{file} should be named {id}:\n{out}");
        assert!(
            shortest(&out) <= bound,
            "{file}: longer than {bound}:\n{out}"
        );
    }
}

/// Bad command lines and specs: exit 2 and a message naming the file and what was wrong.
#[test]
fn bad_input_to_check_game_exits_2_naming_the_problem() {
    // A command line that cannot be split.
    gametrace()
        .args(["check-game", SS, "--cmd", "python3 'unclosed"])
        .assert()
        .code(2)
        .stderr(contains("subtract-square-rules.yaml"))
        .stderr(contains("cannot split the --cmd line"));
    // A spec that does not exist.
    gametrace()
        .args(["check-game", "specs/no/such.yaml", "--cmd", "true"])
        .assert()
        .code(2)
        .stderr(contains("specs/no/such.yaml"));
    // A spec with a mistake in it: its file, line and column.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.yaml");
    fs::write(&spec, "game: tippy\nsize: 99\n").unwrap();
    gametrace()
        .arg("check-game")
        .arg(&spec)
        .args(["--cmd", "true"])
        .assert()
        .code(2)
        .stderr(contains("bad.yaml:2"));
    // A course folder that is not a folder: the flag and the path named.
    for course in ["/no/such/course", "Cargo.toml"] {
        gametrace()
            .args(["check-game", SS, "--cmd", "true", "--course-dir", course])
            .assert()
            .code(2)
            .stderr(contains("--course-dir"))
            .stderr(contains(course))
            .stderr(contains("expected the course's folder"));
    }
    // Numbers out of range.
    gametrace()
        .args(["check-game", SS, "--cmd", "true", "--perft-depth", "0"])
        .assert()
        .code(2)
        .stderr(contains("--perft-depth"));
    // --game-cmd with a spec that has no game, or a line that cannot be split.
    gametrace()
        .args([
            "check",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabeta",
        ])
        .args([
            "--actual",
            "expected/15150-s14/handout-small/alphabeta.trace",
        ])
        .args(["--game-cmd", "true"])
        .assert()
        .code(2)
        .stderr(contains(
            "--game-cmd runs the student's game, and this spec has none",
        ));
    gametrace()
        .args([
            "check",
            "specs/games/connect4/figure1-search.yaml",
            "--case",
            "alphabeta",
        ])
        .args([
            "--actual",
            "expected/games/connect4/figure1-search/alphabeta.trace",
        ])
        .args(["--game-cmd", "sml 'unclosed"])
        .assert()
        .code(2)
        .stderr(contains("figure1-search.yaml"))
        .stderr(contains("cannot split the --game-cmd line"));
}

/// The won, drawn and lost games the estimator case reports.
fn duel_score(report: &str) -> (u32, u32, u32) {
    let line = report
        .lines()
        .find(|l| l.contains(" estimator: "))
        .unwrap_or_else(|| panic!("no estimator case in:\n{report}"));
    let n = |word: &str| -> u32 {
        let at = line
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {line}"))
            + word.len();
        line[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (n("won "), n("drew "), n("lost "))
}

/// S12's and S14's estimator criterion ("no worse than the naive version"). Both sides search
/// with the reference alpha-beta on the reference rules, so a student whose estimator *is* the
/// naive one plays every pairing exactly as the naive side does, and with the sides swapped
/// the same game is played again: it wins exactly as many games as it loses. An estimator
/// that counts the armies backwards, or one never written (always 0), does worse; one that
/// also counts territories does no worse.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn the_estimator_is_judged_against_the_naive_one() {
    require_sml();
    let m2 = "specs/games/riskless/m2-search.yaml";
    let rules = "specs/games/riskless/rules.yaml";
    let naive_ones = [
        (C4, sml_connect4("tests/fixtures/sml/games/connect4.sml")),
        (m2, sml_riskless("tests/fixtures/sml/games/riskless.sml")),
    ];
    for (spec, cmd) in &naive_ones {
        let (code, out) = check_game(spec, cmd, &[]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(&format!("PASS    {spec} estimator")), "{out}");
        let (w, d, l) = duel_score(&out);
        assert_eq!(w, l, "{out}");
        assert_eq!(w + d + l, 18, "3 openings x 3 depths x 2 sides:\n{out}");
    }
    let (code, out) = check_game(
        m2,
        &sml_riskless("tests/fixtures/sml/games/riskless_territories.sml"),
        &[],
    );
    assert_eq!(code, 0, "{out}");
    let (w, _, l) = duel_score(&out);
    assert!(w >= l, "{out}");

    for (spec, cmd) in [
        (
            rules,
            sml_riskless("tests/fixtures/sml/games_buggy/riskless_estimate_backwards.sml"),
        ),
        (
            C4,
            sml_connect4("tests/fixtures/sml/games_buggy/connect4_estimate_missing.sml"),
        ),
    ] {
        let (code, out) = check_game(spec, &cmd, &[]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(&format!("FAIL    {spec} estimator")), "{out}");
        assert!(out.contains("does worse than the naive estimator"), "{out}");
        // The rules are right: the estimator is the only failure.
        assert_eq!(out.matches("\nFAIL").count(), 1, "{out}");
        let (w, _, l) = duel_score(&out);
        assert!(l > w, "{out}");
    }

    // Turned off, and on a game whose course does not judge estimators.
    let (code, out) = check_game(
        rules,
        &sml_riskless("tests/fixtures/sml/games_buggy/riskless_estimate_backwards.sml"),
        &["--estimator-openings", "0"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("estimator"), "{out}");
}

/// An estimate that raises (the student's `estimate` has a case left to do) is CRASHED, with
/// the moves to the position it was asked about.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn an_estimate_that_raises_is_reported_with_its_position() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("connect4.sml");
    let src = fs::read_to_string("tests/fixtures/sml/games/connect4.sml").unwrap();
    let at = src.find("      | In_play =>\n          let").unwrap();
    let end = src.find("  (* The handout's printing").unwrap();
    let raising = format!(
        "{}      | In_play => raise Fail \"estimate: not done yet\"\n\n{}",
        &src[..at],
        &src[end..]
    );
    fs::write(&student, raising).unwrap();
    let (code, out) = check_game(C4, &sml_connect4(student.to_str().unwrap()), &[]);
    assert_eq!(code, 1, "{out}");
    let line = out.lines().find(|l| l.contains(" estimator: ")).unwrap();
    assert!(line.starts_with("CRASHED"), "{out}");
    // Depth 1 from the start: the first leaf is after Maxie's first move, 0.
    assert!(line.contains("after 0: the game raised"), "{line}");
    assert!(line.contains("not done yet"), "{line}");
}

/// A class's own games: `grade --game-cmd` checks each submission's game as `check-game`
/// does, the driver started inside the submission. Every row has the same cases and the same
/// maximum (a submission that does not compile loses every case, and its report has the
/// compiler's message), the rule mistakes named are counted in the summary, and the
/// gradebook is the same for any number of jobs.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn grade_checks_each_submissions_own_game() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    for (who, file) in [
        ("alice", "tests/fixtures/sml/games/connect4.sml"),
        (
            "bob",
            "tests/fixtures/sml/games_buggy/connect4_three_wins.sml",
        ),
    ] {
        fs::create_dir_all(subs.join(who)).unwrap();
        fs::copy(file, subs.join(who).join("connect4.sml")).unwrap();
    }
    fs::create_dir_all(subs.join("carol")).unwrap();
    fs::write(
        subs.join("carol/connect4.sml"),
        "functor Connect4 (Dim : CONNECT4_BOARD_SPEC) : GAME =\nstruct\n  val start = 0\nend\n",
    )
    .unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let (a, c) = (
        format!("{root}/adapters/sml/s12"),
        format!("{root}/adapters/sml/s12/course"),
    );
    // Inside each submission, its own file is just `connect4.sml`.
    let cmd = format!(
        "sml {c}/sequence.sml {c}/matrix.sml {c}/game.sig connect4.sml {a}/gametrace-game.sml {a}/run-connect4.sml"
    );
    let grade = |out: &str, jobs: &str| {
        gametrace()
            .args(["grade", subs.to_str().unwrap(), "--game-cmd", &cmd])
            .args(["--game", C4, "--playouts", "30", "--jobs", jobs, "--out"])
            .arg(dir.path().join(out))
            .assert()
            .success()
            .stdout(contains("3 submissions graded"))
    };
    grade("one", "1");
    let csv = fs::read_to_string(dir.path().join("one/gradebook.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let row = |who: &str| rows.iter().find(|r| r[0] == who).unwrap().clone();
    let (alice, bob, carol) = (row("alice"), row("bob"), row("carol"));
    assert_eq!(alice[1], alice[2], "full marks:\n{csv}");
    assert_eq!(alice[2], bob[2], "the same maximum:\n{csv}");
    assert_eq!(alice[2], carol[2], "the same maximum:\n{csv}");
    assert!(bob[1].parse::<f64>().unwrap() < bob[2].parse::<f64>().unwrap());
    assert_eq!(carol[1], "0", "{csv}");
    assert!(
        rows[0].contains(&"specs/games/connect4/rules.yaml perft"),
        "{csv}"
    );
    let summary = fs::read_to_string(dir.path().join("one/summary.txt")).unwrap();
    assert!(summary.contains("three-wins"), "{summary}");
    let json = fs::read_to_string(dir.path().join("one/gradebook.json")).unwrap();
    assert!(json.contains("\"three-wins\""), "{json}");
    let carol_report = fs::read_to_string(dir.path().join("one/reports/carol.txt")).unwrap();
    assert!(carol_report.contains("unmatched"), "{carol_report}");
    assert!(carol_report.contains("not run"), "{carol_report}");

    grade("two", "2");
    assert_eq!(
        csv,
        fs::read_to_string(dir.path().join("two/gradebook.csv")).unwrap()
    );
    for who in ["alice", "bob", "carol"] {
        let report = |out: &str| {
            fs::read_to_string(dir.path().join(format!("{out}/reports/{who}.txt"))).unwrap()
        };
        assert_eq!(report("one"), report("two"), "{who}");
    }
}

/// PopOut (S12 HW09 Task 6.1): the student's own `PopOut` functor, pops printed `P3` and read
/// as the reference reads them (`p3`). The correct one passes every check. By hand: a pop of
/// the other player's piece shows after Maxie's first drop (1 move); a pop making fours for
/// both takes 11 (worked in popout.yaml's two_fours_by_a_pop_from_the_start).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn popout_functors_are_checked_pops_and_all() {
    require_sml();
    let popout = "specs/games/connect4/popout.yaml";
    let cmd = |student: &str| sml_connect4(student).replace("run-connect4.sml", "run-popout.sml");
    let (code, out) = check_game(popout, &cmd("tests/fixtures/sml/games/popout.sml"), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!(
            "PASS    {popout} scenario two_fours_by_a_pop_from_the_start"
        )),
        "{out}"
    );
    // Pops are in the perft counts: Minnie has nothing to pop at move 2, and at move 3 Maxie
    // may drop (7) or pop her first piece, still at the bottom of its column: 49 x 8 = 392.
    assert!(out.contains("7, 49, 392"), "{out}");
    for (file, id, bound) in [
        ("pops_other_piece", "[pops-other-piece]", 1),
        ("pop_wrong_winner", "[pop-wrong-winner]", 11),
    ] {
        let student = format!("tests/fixtures/sml/games_buggy/popout_{file}.sml");
        let (code, out) = check_game(popout, &cmd(&student), &[]);
        assert_eq!(code, 1, "{file}: {out}");
        assert!(out.contains(id), "{file} should be named {id}:\n{out}");
        assert!(
            shortest(&out) <= bound,
            "{file}: longer than {bound}:\n{out}"
        );
    }
}

/// `grade`'s game flags: a game command needs a game spec, the spec must be a game
/// check-game checks, and grading nothing at all is refused; each exits 2 naming what is
/// wrong.
#[test]
fn grades_game_flags_are_checked_before_grading() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("subs/alice")).unwrap();
    let subs = dir.path().join("subs");
    let out = dir.path().join("out");
    let grade = || {
        let mut c = gametrace();
        c.arg("grade").arg(&subs).arg("--out").arg(&out);
        c
    };
    grade()
        .assert()
        .code(2)
        .stderr(contains("--against").and(contains("--game-cmd")));
    grade()
        .args(["--game-cmd", "python3 driver.py"])
        .assert()
        .code(2)
        .stderr(contains("--game"));
    grade()
        .args(["--game-cmd", "python3 driver.py", "--game"])
        .arg("specs/games/nim/rules.yaml")
        .assert()
        .code(2)
        .stderr(contains("nim").and(contains("rules.yaml")));
    grade()
        .args(["--game-cmd", "python3 driver.py", "--game"])
        .arg("specs/textbooks/static-values.yaml")
        .assert()
        .code(2)
        .stderr(contains("has none"));
    grade()
        .args(["--game-cmd", "python3 'driver.py", "--game", C4])
        .assert()
        .code(2)
        .stderr(contains("cannot split"));
    assert!(
        !out.exists(),
        "nothing is written when grading did not start"
    );
}

/// A move list that changes between two asks at the same position (here Python's mutable
/// default argument: every call appends to one list) is its own FAIL, saying so, not a rule
/// difference the catalogue cannot name.
#[test]
fn a_move_list_that_changes_between_two_asks_is_named_so() {
    let cmd = format!(
        "{PY} {PY_GAMES}/games_buggy/moves_pile_up/subtract_square_state.py SubtractSquareState"
    );
    let (code, out) = check_game(SS, &cmd, &[]);
    assert_eq!(code, 1, "{out}");
    let line = out
        .lines()
        .find(|l| l.contains(&format!("{SS} playouts")))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.starts_with("FAIL"), "{line}");
    assert!(line.contains("asked for its moves twice"), "{line}");
    assert!(line.contains("default argument"), "{line}");
    // Perft walks the game's own lists: the growing one stops it at once, named, instead of
    // a walk that grows with the list (it used to take all the memory there was).
    let perft = out
        .lines()
        .find(|l| l.contains(&format!("{SS} perft")))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(perft.starts_with("FAIL"), "{perft}");
    assert!(perft.contains("listed the move 9 twice"), "{perft}");
}

/// S14's support code reads a move typed `3 4` and prints it `(3, 4)`: a parser that reads
/// only the printed form fails, and the report shows the very text it was handed.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn parse_move_is_judged_on_what_a_player_types_and_the_report_shows_it() {
    require_sml();
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("riskless.sml");
    let src = fs::read_to_string("tests/fixtures/sml/games/riskless.sml").unwrap();
    let printed_only = src.replace(
        "String.tokens (fn c => not (Char.isDigit c)) text",
        "String.tokens (fn c => c = #\"(\" orelse c = #\")\" orelse c = #\",\") text",
    );
    assert_ne!(src, printed_only);
    fs::write(&student, printed_only).unwrap();
    let spec = "specs/games/riskless/rules.yaml";
    let (code, out) = check_game(spec, &sml_riskless(student.to_str().unwrap()), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("FAIL    {spec} parse_move")), "{out}");
    assert!(
        out.contains("`3 2` (the move Land3->Land2) is read as no move"),
        "{out}"
    );
}

/// A course folder as the handout ships it: the game's `sources.cm` reaches the course's
/// library outside it (`../../lib`), and SML/NJ writes `.cm/` caches beside every source.
/// With `--course-dir` it compiles in a private copy and passes; the original is never
/// written. Without it, the sandbox stops both the read outside and the writes, and the
/// report carries the compiler's words.
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_course_folder_compiles_in_a_private_copy_with_course_dir() {
    require_sml();
    let course = tempfile::tempdir().unwrap();
    let root = course.path();
    let lib = root.join("lib");
    let code_dir = root.join("hw/11/code");
    fs::create_dir_all(&lib).unwrap();
    fs::create_dir_all(&code_dir).unwrap();
    fs::copy(
        "adapters/sml/s14/course/sequence.sml",
        lib.join("sequence.sml"),
    )
    .unwrap();
    fs::write(
        lib.join("sources.cm"),
        "group is\n  $/basis.cm\n  sequence.sml\n",
    )
    .unwrap();
    fs::copy(
        "adapters/sml/s14/course/game.sig",
        code_dir.join("game.sig"),
    )
    .unwrap();
    fs::copy(
        "tests/fixtures/sml/games/riskless.sml",
        code_dir.join("riskless.sml"),
    )
    .unwrap();
    fs::write(
        code_dir.join("sources.cm"),
        "group is\n  $/basis.cm\n  ../../../lib/sources.cm\n  game.sig\n  riskless.sml\n",
    )
    .unwrap();
    let here = env!("CARGO_MANIFEST_DIR");
    let cmd = format!(
        "sml sources.cm {here}/adapters/sml/s14/gametrace-game.sml {here}/adapters/sml/s14/run-riskless.sml"
    );
    let spec = format!("{here}/specs/games/riskless/rules.yaml");
    let run = |extra: &[&str]| {
        let out = gametrace()
            .current_dir(&code_dir)
            .args(["check-game", &spec, "--color", "never", "--playouts", "20"])
            .args(["--estimator-openings", "0", "--cmd", &cmd])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(&[]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("the compiler says:"), "{out}");
    let (code, out) = run(&["--course-dir", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS"), "{out}");
    assert!(out.contains("SKIPPED"), "{out}");
    for dir in [&lib, &code_dir] {
        assert!(!dir.join(".cm").exists(), "{} was written", dir.display());
    }
}

/// Another student's Tippy, through the starter's API only: its constructor takes
/// `dimension=` and asks for the size when interactive (built as game_view builds it), its
/// move is a (row, column) pair counted from 0, its symbols are o, x and -, and it has no
/// str_to_move. It passes; the parser check is SKIPPED (the starter asks for none), and
/// every scenario's position is reached by moves from the empty board.
#[test]
fn a_csc148_game_of_another_design_passes_through_the_starters_api() {
    let cmd = format!("{PY} {PY_GAMES}/games/tippy_rowcol/tippy_game_state.py TippyGameState");
    let (code, out) = check_game(TIPPY, &cmd, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!(
            "SKIPPED {TIPPY} parse_move: not checked: the game has no str_to_move"
        )),
        "{out}"
    );
    assert!(!out.contains("not replayed"), "{out}");
    for check in [
        "perft",
        "playouts",
        "scenario two_threats_cannot_both_be_blocked",
    ] {
        assert!(out.contains(&format!("PASS    {TIPPY} {check}")), "{out}");
    }
    // The same game built by the TA's expression instead, the spec's size filled in.
    let construct = format!("{cmd} --construct 'TippyGameState({{player}}, dimension={{size}})'");
    let (code, out) = check_game(TIPPY, &construct, &["--shell"]);
    assert_eq!(code, 0, "{out}");
}

/// A constructor the course's way cannot call: the report says what was tried, what the
/// game raised, and how to give the start's expression, instead of a bare TypeError.
#[test]
fn a_constructor_the_course_way_cannot_call_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let src =
        fs::read_to_string(format!("{PY_GAMES}/games/tippy_rowcol/tippy_game_state.py")).unwrap();
    let needs_n = src.replace(
        "def __init__(self, p, interactive=False, dimension=3, grid=None):",
        "def __init__(self, p, dimension, grid=None):\n        interactive = False",
    );
    assert_ne!(src, needs_n);
    fs::write(dir.path().join("tippy_game_state.py"), needs_n).unwrap();
    fs::copy(
        format!("{PY_GAMES}/games/tippy_rowcol/tippy_move.py"),
        dir.path().join("tippy_move.py"),
    )
    .unwrap();
    let module = dir.path().join("tippy_game_state.py");
    let cmd = format!("{PY} {} TippyGameState", module.display());
    let (code, out) = check_game(TIPPY, &cmd, &["--playouts", "5"]);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("building the start as the course's game_view does, TippyGameState('p1', interactive=True)"),
        "{out}"
    );
    assert!(out.contains("TypeError"), "{out}");
    assert!(out.contains("--construct"), "{out}");
    // A --construct expression that does not build: the expression and what it raised.
    let broken = format!("{cmd} --construct 'TippyGameState({{player}}, {{size}}'");
    let (code, out) = check_game(TIPPY, &broken, &["--playouts", "5"]);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("the --construct expression `TippyGameState('p1', 4` raised SyntaxError"),
        "{out}"
    );
    let fixed = format!("{cmd} --construct 'TippyGameState({{player}}, {{size}})'");
    let (code, out) = check_game(TIPPY, &fixed, &["--shell", "--playouts", "20"]);
    assert_eq!(code, 0, "{out}");
}

/// A Tippy whose rules are right and whose rough_outcome is not: with `--estimates` the
/// difference is the estimator's, not put down to a rule mistake, and the scenario to paste
/// pins the estimate the reference gives.
#[test]
fn an_estimator_only_difference_is_the_estimators() {
    let dir = tempfile::tempdir().unwrap();
    let src = fs::read_to_string(format!("{PY_GAMES}/games/tippy/tippy_game_state.py")).unwrap();
    let always_draw = src.replace(
        "        if self._threats(me):\n            return self.WIN",
        "        if False:\n            return self.WIN",
    );
    assert_ne!(src, always_draw);
    fs::write(dir.path().join("tippy_game_state.py"), always_draw).unwrap();
    fs::copy(
        format!("{PY_GAMES}/games/tippy/tippy_move.py"),
        dir.path().join("tippy_move.py"),
    )
    .unwrap();
    let cmd = format!(
        "{PY} {} TippyGameState",
        dir.path().join("tippy_game_state.py").display()
    );
    let (code, out) = check_game(TIPPY, &cmd, &["--estimates", "--playouts", "50"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("only the estimate differs"), "{out}");
    assert!(!out.contains("the mistake: "), "{out}");
    assert!(!out.contains("no catalogued rule mistake"), "{out}");
    assert!(out.contains("        estimate: 1\n"), "{out}");
}

/// Once the mistake is named, its model is asked about every shorter sequence: three in a
/// row taken for a win shows after 5 moves (X X X with O's two between), and no sequence of
/// 4 or fewer shows it, so the report says "shortest", proven. Seven moves for a vertical
/// four are more sequences than the search tries: "shortest found".
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn a_named_mistakes_shortest_sequence_is_proven_where_the_tree_is_small() {
    require_sml();
    let (_, out) = check_game(
        C4,
        &sml_connect4("tests/fixtures/sml/games_buggy/connect4_three_wins.sml"),
        &[],
    );
    assert!(
        out.contains("    shortest sequence that shows it (5 moves): "),
        "{out}"
    );
    let (_, out) = check_game(
        C4,
        &sml_connect4("tests/fixtures/sml/games_buggy/connect4_no_vertical.sml"),
        &[],
    );
    assert!(
        out.contains("    shortest sequence found that shows it (7 moves): "),
        "{out}"
    );
}

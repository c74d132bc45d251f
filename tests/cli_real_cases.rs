//! The cases real public submissions showed (issue 62), each rebuilt as a fixture of the
//! project's own in the same shape, and run as a TA would run the real one: the guide's
//! recipe first, then what the report tells the TA to do.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn gametrace() -> Command {
    Command::cargo_bin("gametrace").unwrap()
}

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

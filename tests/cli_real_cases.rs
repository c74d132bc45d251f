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
fn a_move_listed_twice_in_the_same_list_every_call_is_not_called_a_growing_list() {
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

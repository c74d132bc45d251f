//! Real games from the command line: the project's own scenarios, searched positions checked
//! against an independent referee, the terminal referee with scripted players, `check` on a
//! game case, and every kind of bad game input named precisely.

use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};

mod common;
use common::cli::gametrace;

fn stdout_of(args: &[&str]) -> String {
    let out = gametrace().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_projects_game_scenarios_and_searches_pass() {
    gametrace()
        .args(["test", "specs/games", "--color", "never"])
        .assert()
        .success()
        .stdout(contains(" 0 failed"))
        .stdout(contains("PASS    specs/games/riskless/rules.yaml a_tie_goes_to_the_attacker"))
        .stdout(contains("PASS    specs/games/connect4/popout.yaml a_pop_that_makes_two_fours_wins_for_the_popper"))
        .stdout(contains("PASS    specs/games/nim/rules.yaml the_last_stick_loses"));
}

/// The Python referee's answer for the Figure 1 position at `depth`.
fn python_reference(depth: u32) -> (String, String, Vec<String>) {
    let rows = [
        ".......", ".......", ".......", ".......", "...O...", "..XXO..",
    ];
    let out = std::process::Command::new("python3")
        .arg("tests/fixtures/games/connect4_reference.py")
        .arg(depth.to_string())
        .args(rows)
        .output()
        .expect("python3 runs the reference");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let value = lines
        .next()
        .unwrap()
        .strip_prefix("value ")
        .unwrap()
        .to_owned();
    let mv = lines
        .next()
        .unwrap()
        .strip_prefix("move ")
        .unwrap()
        .to_owned();
    let leaves = lines
        .map(|l| {
            let (label, e) = l.strip_prefix("leaf ").unwrap().split_once(' ').unwrap();
            // As gametrace prints: SML's ~ for minus, and 0 is the S14 draw.
            let e = match e.parse::<i64>() {
                Ok(n) if n < 0 => format!("~{}", -n),
                Ok(n) => n.to_string(),
                Err(_) => e.to_owned(),
            };
            format!("Estimating state {label}[{e}]")
        })
        .collect();
    (value, mv, leaves)
}

fn guess(value: &str) -> String {
    match value.parse::<i64>().unwrap() {
        0 => "It's a draw!".to_owned(),
        n if n < 0 => format!("Guess: ~{}", -n),
        n => format!("Guess: {n}"),
    }
}

#[test]
fn figure_1_searches_agree_with_an_independent_referee() {
    let spec = "specs/games/connect4/figure1-search.yaml";
    let (value, mv, leaves) = python_reference(2);
    let trace = stdout_of(&["run", spec, "--case", "minimax"]);
    let estimated: Vec<&str> = trace
        .lines()
        .filter(|l| l.starts_with("Estimating"))
        .collect();
    assert_eq!(estimated.len(), 49);
    assert_eq!(estimated, leaves);
    assert!(trace.contains(&format!("is {}, and best move is {mv}.", guess(&value))));
    let (value, mv, _) = python_reference(4);
    let trace = stdout_of(&["run", spec, "--case", "alphabeta-depth-4"]);
    assert!(
        trace.contains(&format!("is {}, and best move is {mv}.", guess(&value))),
        "{trace}"
    );
}

#[test]
fn a_whole_connect4_game_between_two_computers() {
    let out = stdout_of(&[
        "play",
        "connect4",
        "--maxie",
        "alphabeta:4",
        "--minnie",
        "minimax:2",
    ]);
    assert!(out.starts_with("connect4: Maxie (alphabeta:4) against Minnie (minimax:2)\n"));
    let last = out.trim_end().lines().last().unwrap();
    assert!(
        ["Maxie wins!", "Minnie wins!", "It's a draw."].contains(&last),
        "{last}"
    );
    // Every move is announced with its time, and the board follows it.
    let moves = out.matches(" decides to make the move ").count();
    assert!(moves >= 7, "{moves}");
    assert_eq!(out.matches("  0 1 2 3 4 5 6\n").count(), moves + 1);
    let timed = regex_lite(&out);
    assert_eq!(timed, moves);
}

/// Lines like `Maxie decides to make the move 3 in 0.004 seconds.`
fn regex_lite(out: &str) -> usize {
    out.lines()
        .filter(|l| {
            let Some((_, t)) = l.split_once(" in ") else {
                return false;
            };
            let Some(secs) = t.strip_suffix(" seconds.") else {
                return false;
            };
            l.contains(" decides to make the move ") && secs.parse::<f64>().is_ok()
        })
        .count()
}

#[test]
fn a_human_gets_told_why_a_move_is_refused_and_tries_again() {
    gametrace()
        .args(["play", "nim", "--sticks", "6", "--minnie", "alphabeta:3"])
        .write_stdin("two\n4\n1\n2\n")
        .assert()
        .code(2)
        .stdout(contains(
            "Maxie, please type your move: `two` is not a move: a move is how many sticks to take, 1, 2 or 3\nLegal moves: 1 2 3\n",
        ))
        .stdout(contains("cannot play 4: with 6 sticks left a move takes 1 to 3"))
        .stdout(contains("Maxie decides to make the move 1 in "))
        // 5 sticks left: Minnie (perfect) can only lose, and takes 1; Maxie takes 2 of 4.
        .stdout(contains("Minnie decides to make the move 1 in "))
        .stdout(contains("Maxie decides to make the move 2 in "))
        .stdout(contains("No more input: the game stops here."));
}

#[test]
fn a_human_riskless_game_names_territories() {
    gametrace()
        .args(["play", "riskless", "--map", "M1", "--max-moves", "1"])
        .write_stdin("Land0 Land1\nLand3 Land5\nLand9 Land1\n3 4\n")
        .assert()
        .success()
        .stdout(contains(
            "cannot play Land0->Land1: Land0 is Minnie's, and Maxie moves only their own armies",
        ))
        .stdout(contains(
            "cannot play Land3->Land5: Land5 is not next to Land3: its roads lead to Land2, Land4",
        ))
        .stdout(contains("`Land9` is not a territory of M1"))
        .stdout(contains("Maxie decides to make the move Land3->Land4 in "))
        .stdout(contains("Stopped after 1 moves (--max-moves)."));
}

#[test]
fn play_from_a_spec_and_refuse_bad_players() {
    gametrace()
        .args([
            "play",
            "specs/games/nim/search.yaml",
            "--maxie",
            "alphabeta:4",
            "--minnie",
            "minimax:4",
        ])
        .assert()
        .success()
        .stdout(contains("||||  (4 sticks)"))
        .stdout(contains("Maxie wins!"));
    gametrace()
        .args(["play", "connect4", "--maxie", "alphabeta"])
        .assert()
        .code(2)
        .stderr(contains("--maxie: `alphabeta` is not a player"));
    gametrace()
        .args(["play", "conect4"])
        .assert()
        .code(2)
        .stderr(contains("did you mean `connect4`?"));
    gametrace()
        .args(["play", "nim", "--map", "M2"])
        .assert()
        .code(2)
        .stderr(contains("--map is not an option of nim"));
}

#[test]
fn check_grades_a_game_case_and_places_a_divergence_by_moves() {
    let spec = "specs/games/riskless/m1-search.yaml";
    let reference = stdout_of(&["run", spec, "--case", "alphabeta"]);
    gametrace()
        .args(["check", spec, "--case", "alphabeta", "--actual", "-"])
        .write_stdin(reference.clone())
        .assert()
        .success()
        .stdout(contains("PASS"));
    // A student whose tie goes to the defender estimates the second leaf differently.
    let wrong = reference.replace(
        "Estimating state O1.X3X2.O4[0]",
        "Estimating state O1.X3X2.O4[1]",
    );
    gametrace()
        .args(["check", spec, "--case", "alphabeta", "--actual", "-", "--color", "never"])
        .write_stdin(wrong)
        .assert()
        .code(1)
        .stdout(contains(
            "state O1.X3X2.O4: depth 2, Maxie to move; moves from the searched position: Land3->Land2, Land0->Land5",
        ));
    gametrace()
        .args([
            "check",
            "specs/games/nim/rules.yaml",
            "--case",
            "the_last_stick_loses",
            "--actual",
            "-",
        ])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("is a scenario, and `check` grades search cases"));
}

#[test]
fn validate_reports_game_specs_like_tree_specs() {
    gametrace()
        .args(["validate", "specs/games"])
        .assert()
        .success();
}

#[test]
fn a_failing_scenario_says_which_step_and_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wrong.yaml");
    std::fs::write(
        &path,
        "game: riskless\nmap: M1\nscenarios:\n  defender_wins_ties:\n    position: {Land1: Minnie 4, Land2: Maxie 4}\n    steps:\n      - move: Land2->Land1\n        position: {Land1: Minnie 1, Land2: Maxie 1}\n",
    )
    .unwrap();
    gametrace()
        .arg("test")
        .arg(&path)
        .args(["--color", "never"])
        .assert()
        .code(1)
        .stdout(contains("step 1 (line 7): Maxie plays Land2->Land1"))
        .stdout(contains("position: expected .O1X1..., found .X1X1..."));
}

/// Writes `text` to a spec in a fresh directory and runs `gametrace validate` on it.
fn bad(text: &str) -> (assert_cmd::assert::Assert, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.yaml"), text).unwrap();
    let a = gametrace()
        .args(["validate", "game.yaml"])
        .current_dir(dir.path())
        .assert();
    (a, dir)
}

fn diagnosed(text: &str, place: &str, message: &str) {
    let (a, _dir) = bad(text);
    a.code(2)
        .stdout(contains(format!("game.yaml:{place}")))
        .stdout(contains(message))
        .stdout(contains("panicked").not());
}

#[test]
fn positions_that_cannot_arise_are_named() {
    diagnosed(
        "game: connect4\nposition: |\n  ...X...\n  .......\n  ..XOO..\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "3:6",
        "the piece at column 3, row 2 floats over an empty cell",
    );
    diagnosed(
        "game: connect4\nposition: [\"XXXO...\", \"XXOO...\"]\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "2:11",
        "a Connect 4 position with 5 X and 3 O cannot arise",
    );
    diagnosed(
        "game: connect4\nposition: |\n  ..Z....\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "3:5",
        "`Z` at column 2, row 0 is not a cell",
    );
    diagnosed(
        "game: connect4\nvariant: popout\nposition: [\"XXX....\"]\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "3:11",
        "say whose move it is in this PopOut position",
    );
    diagnosed(
        "game: riskless\nmap: M1\nposition: {Land0: Minnie 12, Land3: Maxie 1}\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "3:19",
        "Land0 has 12 armies, over the cap",
    );
    diagnosed(
        "game: riskless\nmap: M1\nposition: {Land7: Minnie 2}\ncases: {ab: {algorithm: alphabeta, depth: 2}}\n",
        "3:12",
        "`Land7` is not a territory of M1",
    );
}

#[test]
fn maps_that_are_not_simple_connected_and_undirected_are_named() {
    let map = |roads: &str, start: &str| {
        format!("game: riskless\nmap:\n  roads:\n{roads}  min_start: A\n  max_start: {start}\n  max_terri: 9\n  max_units: 20\ncases: {{ab: {{algorithm: alphabeta, depth: 2}}}}\n")
    };
    diagnosed(
        &map("    A: [B, B]\n    B: [A]\n", "B"),
        "4:5",
        "the map is not a simple, connected, undirected graph: A lists B twice",
    );
    diagnosed(
        &map("    A: [B]\n    B: [A, B]\n", "B"),
        "5:5",
        "B has a road to itself",
    );
    diagnosed(
        &map("    A: [B]\n    B: []\n", "B"),
        "4:5",
        "A has a road to B, but B has none back",
    );
    diagnosed(
        &map("    A: [B]\n    B: [A]\n    C: []\n", "B"),
        "6:5",
        "C cannot be reached from A: the map must be connected",
    );
    diagnosed(
        &map("    A: [B]\n    B: [A]\n", "Z"),
        "7:14",
        "`Z` is not a territory of this map",
    );
}

#[test]
fn an_illegal_move_in_a_scenario_names_its_step_and_why() {
    diagnosed(
        "game: connect4\nscenarios:\n  s:\n    position: [\"X......\", \"O......\", \"X......\", \"O......\", \"X......\", \"O......\"]\n    steps:\n      - move: 1\n      - move: 0\n",
        "7:15",
        "step 2: cannot play 0: column 0 is full",
    );
    diagnosed(
        "game: riskless\nmap: M1\nscenarios:\n  s:\n    steps:\n      - move: Land3->Land2\n      - move: Land3->Land4\n",
        "7:15",
        "step 2: cannot play Land3->Land4: Land3 is Maxie's, and Minnie moves only their own armies",
    );
    diagnosed(
        "game: nim\nposition: 2\nscenarios:\n  s:\n    steps:\n      - move: 3\n",
        "6:15",
        "step 1: cannot play 3: with 2 sticks left a move takes 1 to 2",
    );
    diagnosed(
        "game: connect4\ncases: {ab: {algorithm: alphabeta}}\n",
        "2:9",
        "case `ab` has no `depth`",
    );
    diagnosed(
        "game: nim\nposition: 100000\ncases: {ab: {algorithm: alphabeta, depth: 100000}}\n",
        "3:43",
        "`depth` is too deep for a game search",
    );
    diagnosed(
        "game: connect4\ncolumns: 4611686018427387904\nrows: 4611686018427387904\ncases: {ab: {algorithm: minimax, depth: 1}}\n",
        "3:7",
        "the board cannot be searched at this size",
    );
    diagnosed(
        "game: connect4\nmap: M1\ncases: {ab: {algorithm: alphabeta, depth: 1}}\n",
        "2:1",
        "`map` is a riskless setting, and this spec's game is connect4",
    );
}

#[test]
fn a_board_one_column_wide_and_taller_than_a_machine_word_is_never_won() {
    // One column: the players alternate in it, so no four of one colour can ever stand in a
    // row and every line is a draw. 127 rows make the board's bit directions 128 and 129,
    // past the end of a 128-bit board: shifting by them once crashed the search (debug) or
    // made a single piece a four (release).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tall.yaml"),
        "game: connect4\ncolumns: 1\nrows: 127\ncases: {m: {algorithm: minimax, depth: 3}}\n",
    )
    .unwrap();
    gametrace()
        .args(["run", "tall.yaml"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(contains("is It's a draw!, and best move is 0."))
        .stdout(contains("is Step(0, Maxie wins!)").not())
        .stdout(contains("is Leaf(Maxie wins!)").not());
}

#[test]
fn game_specs_live_beside_tree_specs() {
    assert!(Path::new("specs/games/connect4/rules.yaml").is_file());
    let expected: PathBuf = ["expected", "games", "nim", "search", "alphabeta.trace"]
        .iter()
        .collect();
    assert!(expected.is_file());
}

#[test]
fn grading_a_game_directory_grades_its_searches_not_its_scenarios() {
    let me = env!("CARGO_BIN_EXE_gametrace");
    gametrace()
        // gametrace itself stands in for a correct program: the sandbox would (rightly) keep
        // a student's program from running it.
        .args([
            "test",
            "specs/games/nim",
            "--color",
            "never",
            "--no-sandbox",
        ])
        .arg("--against")
        .arg(format!("{me} run {{spec}} --case {{case}}"))
        .assert()
        .success()
        .stdout(contains("3 passed, 0 failed"));
}

//! Dartmouth CS10 from the command line: the notes' worked example traced by the hand
//! method and checked against its narrative, Kalah's rules and searches, a Java
//! ComputerKalahPlayerAB compiled and run through `check --cmd` (right: every line matches;
//! with depth dropped on every move: fails where worked out by hand, and named), the
//! referee, `solve`, and every kind of bad Kalah input.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::fs;
use std::path::Path;

mod common;
use common::cli::{gametrace, require};

/// The command, with its cache folder (where `solve` and `play` keep endgame databases)
/// under the build's own folder, not the user's. Not a temporary folder: a static's
/// `TempDir` is never dropped, so each run left its databases (30 MB) behind in /tmp.
/// Runs share this one, which is safe: a database is the same whoever builds it, and it
/// is written to a temporary file and renamed into place.
fn gametrace_cached() -> Command {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cs10-cache");
    let mut c = gametrace();
    c.env("XDG_CACHE_HOME", cache);
    c
}

fn stdout_of(args: &[&str]) -> String {
    let out = gametrace_cached().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_projects_cs10_and_kalah_specs_pass() {
    gametrace_cached()
        .args(["test", "specs/cs10", "specs/kalah", "--color", "never"])
        .assert()
        .success()
        .stdout(contains(" 0 failed"))
        .stdout(contains(
            "PASS    specs/kalah/rules.yaml thirteen_seeds_go_round_past_the_opponents_kalah",
        ));
}

/// The notes' narrative, sentence by sentence, in the trace of the spec that reproduces it.
#[test]
fn the_worked_example_reads_as_the_notes_tell_it() {
    let trace = stdout_of(&[
        "run",
        "specs/cs10/worked-example.yaml",
        "--case",
        "negamax_ab",
    ]);
    let lines: Vec<&str> = trace.lines().collect();
    let at = |text: &str| {
        lines
            .iter()
            .position(|l| *l == text)
            .unwrap_or_else(|| panic!("no line `{text}` in\n{trace}"))
    };
    // "Each node is passed a range (-inf, inf)." (the root, the node labelled -8)
    let root = at("Enter n-8 (Maxie, depth 3) with range (-inf, inf)");
    // "When the 12 is returned to its parent it has its sign reversed to -12. It becomes
    // the new low, giving a range (-12, inf)."
    let twelve = at("Value of l12 is 12: -12 for n-8, low -12, range (-12, inf)");
    // "The range passed to the internal node labeled 20 is therefore (-inf, 12)."
    let twenty = at("Enter n20 (Minnie, depth 2) with range (-inf, 12)");
    // "The range passed to the node labeled -20 is (-12, inf)."
    let minus_twenty = at("Enter n-20 (Maxie, depth 1) with range (-12, inf)");
    // "the child labeled 20 ... returns a value -20. This is smaller than -12, so no update"
    let no_update = at("Value of l20 is 20: -20 for n-20, range stays (-12, inf)");
    // "The next leaf node returns -25, which is still smaller."
    let still = at("Value of l25 is 25: -25 for n-20, range stays (-12, inf)");
    // "the node gets the value -20, which is passed up as 20 to the node labeled 20 ...
    // getting a range (20,12) ... we stop exploring choices and prune the other branch"
    let prune =
        at("Value of n-20 is -20: 20 for n20, low 20, range (20, 12): low reaches high, prune");
    // "finds the third child return a -8, which is an improvement on the -12 and makes its
    // range (-8, inf)."
    let third = at("Value of l8 is 8: -8 for n-8, low -8, range (-8, inf)");
    let end = at("Therefore n-8 is worth -8 for Maxie, and best move is 2.");
    let order = [
        root,
        twelve,
        twenty,
        minus_twenty,
        no_update,
        still,
        prune,
        third,
        end,
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}\n{trace}");
    // The pruned branch is never looked at.
    assert!(!trace.contains("pruned"), "{trace}");
}

#[test]
fn negamax_and_minimax_agree_on_the_example() {
    let j: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "run",
        "specs/cs10/worked-example.yaml",
        "--format",
        "json",
    ]))
    .unwrap();
    let cases = j["cases"].as_array().unwrap();
    let value = |name: &str| {
        cases.iter().find(|c| c["case"] == name).unwrap()["value"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(value("negamax_ab"), "-8");
    assert_eq!(value("negamax"), "-8");
    assert_eq!(value("minimax"), "Guess: ~8");
    let ab = cases.iter().find(|c| c["case"] == "negamax_ab").unwrap();
    assert_eq!(ab["positions_evaluated"], 4);
    assert_eq!(ab["best_move"], "2");
}

/// Compiles the Java fixture into a temporary directory.
fn java_build() -> tempfile::TempDir {
    require("javac");
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir.path())
        .arg("tests/fixtures/java/kalah/KalahGame.java")
        .arg("tests/fixtures/java/kalah/ComputerKalahPlayerAB.java")
        .status()
        .expect("these tests compile Java: install a JDK (apt-get install default-jdk-headless), as .ci/run does");
    assert!(status.success(), "javac failed");
    dir
}

#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn a_java_player_passes_and_its_depth_bug_fails_where_predicted() {
    let build = java_build();
    let java = |extra: &str| {
        format!(
            "java -cp {} ComputerKalahPlayerAB 3 2 {{depth}}{extra}",
            build.path().display()
        )
    };
    gametrace_cached()
        .args([
            "check",
            "specs/kalah/search.yaml",
            "--case",
            "negamax_ab-2",
            "--timeout",
            "30",
            "--cmd",
        ])
        .arg(java(""))
        .assert()
        .success()
        .stdout(contains("full: all 48 trace lines match"));
    // p2's pit 1 after p1's pit 0 moves again: that position must be searched at depth 1
    // still; dropping the depth evaluates it instead (line 5 of the output).
    gametrace_cached()
        .args([
            "check",
            "specs/kalah/search.yaml",
            "--case",
            "negamax_ab-2",
            "--timeout",
            "30",
            "--color",
            "never",
            "--cmd",
        ])
        .arg(java(" depth-every-move"))
        .assert()
        .code(1)
        .stdout(contains(
            "expected: Enter 0 3 3 [0] | 2 0 3 [1] (p2, depth 1) with range (0, inf)",
        ))
        .stdout(contains(
            "actual: Evaluate 0 3 3 [0] | 2 0 3 [1] (p2): 1   (line 5)",
        ))
        .stdout(contains("p2 to move"))
        .stdout(contains("with the mistake depth-every-move"));
}

#[test]
fn ordering_and_aspiration_keep_the_value_and_change_the_work() {
    let j: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "run",
        "specs/kalah/search.yaml",
        "--format",
        "json",
    ]))
    .unwrap();
    let case = |name: &str| {
        j["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["case"] == name)
            .unwrap()
            .clone()
    };
    for name in ["negamax-2", "negamax_ab-2", "ordered-2"] {
        assert_eq!(case(name)["value"], "0", "{name}");
    }
    assert_eq!(case("negamax-2")["positions_evaluated"], 18);
    assert_eq!(case("negamax_ab-2")["positions_evaluated"], 13);
    assert_eq!(case("ordered-2")["positions_evaluated"], 7);
    assert_eq!(case("aspiration-4")["value"], case("negamax_ab-4")["value"]);
    assert_eq!(case("aspiration-4")["re_searches"], 1);
    assert_eq!(case("negamax_ab-4")["re_searches"], 0);
}

#[test]
fn the_referee_plays_kalah_with_negamax_players() {
    gametrace_cached()
        .args([
            "play",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--p1",
            "negamax_ab:4",
            "--p2",
            "negamax:2",
        ])
        .assert()
        .success()
        .stdout(contains("kalah: p1 (negamax_ab:4) against p2 (negamax:2)"))
        .stdout(contains("p1 decides to make the move"));
    gametrace_cached()
        .args([
            "play",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--p1",
            "human",
            "--p2",
            "negamax:2",
        ])
        .write_stdin("7\n0\n")
        .assert()
        .code(2)
        .stdout(contains("`7` is not a pit: pits are numbered 0 to 2"));
}

#[test]
fn the_referee_plays_kalah_under_each_rule_set() {
    // The same two computer players on Kalah(3, 3): the four rule sets end in four different
    // games (the rules decide when a row runs dry and what an empty opposite pit captures).
    let rule_sets: [&[&str]; 4] = [
        &[],
        &["--capture-empty"],
        &["--end-rule", "either-side-empty"],
        &["--end-rule", "either-side-empty", "--capture-empty"],
    ];
    let game = |rules: &[&str]| {
        let mut args = vec![
            "play",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "3",
            "--p1",
            "negamax:3",
            "--p2",
            "negamax:2",
        ];
        args.extend_from_slice(rules);
        // The referee says how long each move took: not part of the game.
        stdout_of(&args)
            .lines()
            .map(|l| match l.split_once(" in ") {
                Some((head, tail)) if tail.ends_with(" seconds.") => head.to_owned(),
                _ => l.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let games: Vec<String> = rule_sets.iter().map(|rules| game(rules)).collect();
    for (i, a) in games.iter().enumerate() {
        for b in &games[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // The default is CS10's rules, written out or not.
    assert_eq!(games[0], game(&["--end-rule", "cs10"]));
    // Kalah's options belong to Kalah.
    gametrace_cached()
        .args(["play", "nim", "--capture-empty"])
        .assert()
        .code(2)
        .stderr(contains("--capture-empty is not an option of nim"));
}

/// The margin `gametrace solve` prints for p1 (0 for a draw).
fn solved_margin(args: &[&str]) -> i64 {
    let solved = stdout_of(args);
    let number = |s: &str| -> i64 { s.split_whitespace().next().unwrap().parse().unwrap() };
    if let Some(rest) = solved.split("p1 wins by ").nth(1) {
        number(rest)
    } else if let Some(rest) = solved.split("p2 wins by ").nth(1) {
        -number(rest)
    } else {
        assert!(solved.contains("a draw"), "{solved}");
        0
    }
}

/// The value CS10's negamax gives the start of a Kalah spec's game searched past the end of
/// every game: a finished game scores 100 × p1's margin.
fn negamax_to_the_end(settings: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("k.yaml");
    fs::write(
        &spec,
        format!("game: kalah\n{settings}cases: {{deep: {{algorithm: negamax_ab, depth: 60}}}}\n"),
    )
    .unwrap();
    let j: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "run",
        spec.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    j["cases"][0]["value"].clone()
}

#[test]
fn small_boards_are_solved_and_agree_with_negamax_to_the_end() {
    let margin = solved_margin(&["solve", "kalah", "--pits", "3", "--seeds", "2"]);
    assert_eq!(
        negamax_to_the_end("pits: 3\nseeds: 2\n"),
        (margin * 100).to_string()
    );
    gametrace_cached()
        .args(["solve", "kalah", "--pits", "9"])
        .assert()
        .code(2)
        .stderr(contains("Kalah(9, 4) cannot be solved here"));
}

#[test]
fn solve_refuses_bad_flags_with_exit_2() {
    for (args, says) in [
        (
            vec!["--end-rule", "wikipedia"],
            "invalid value 'wikipedia' for '--end-rule <RULE>'",
        ),
        (vec!["--memory", "lots"], "expected bytes like 8M"),
        (
            vec!["--endgame", "30"],
            "an endgame database of 30 seeds on 6 pits a side does not fit in --memory",
        ),
        (vec!["--endgame", "500"], "more than 2^64 bytes"),
        (vec!["--time-limit", "soon"], "--time-limit"),
    ] {
        gametrace_cached()
            .args(["solve", "kalah"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
}

#[test]
fn every_rule_set_is_solved_as_the_spec_plays_it() {
    // Kalah(3, 3) under the four rule sets: `solve`'s margin against negamax in a spec with
    // the same `end_rule` and `capture_empty`. The rules must matter here, or the test would
    // not tell them apart: the four margins are not all equal.
    let mut margins = Vec::new();
    for (end_arg, end_spec) in [("cs10", "cs10"), ("either-side-empty", "either_side_empty")] {
        for capture in [false, true] {
            let mut args = vec![
                "solve",
                "kalah",
                "--pits",
                "3",
                "--seeds",
                "3",
                "--end-rule",
                end_arg,
            ];
            if capture {
                args.push("--capture-empty");
            }
            let margin = solved_margin(&args);
            assert_eq!(
                negamax_to_the_end(&format!(
                    "pits: 3\nseeds: 3\nend_rule: {end_spec}\ncapture_empty: {capture}\n"
                )),
                (margin * 100).to_string(),
                "{end_arg} {capture}"
            );
            margins.push(margin);
        }
    }
    assert!(margins.iter().any(|&m| m != margins[0]), "{margins:?}");
}

#[test]
fn the_end_rule_is_checked_where_it_is_written() {
    spec_error(
        "game: kalah\nend_rule: wikipedia\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "2:11",
        &["`end_rule` must be cs10 or either_side_empty"],
    );
    // Under either_side_empty a row cannot be empty while the game goes on.
    spec_error(
        "game: kalah\npits: 3\nseeds: 2\nend_rule: either_side_empty\nposition: {p1: [2, 2, 3], p2: [0, 0, 0], kalahs: [2, 3]}\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "5:11",
        &["p2's row is empty and the game goes on", "end_rule: cs10"],
    );
}

fn spec_error(yaml: &str, place: &str, wants: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    fs::write(&path, yaml).unwrap();
    let mut a = gametrace_cached()
        .args(["validate"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout(contains(format!("t.yaml:{place}")));
    for w in wants {
        a = a.stdout(contains(*w));
    }
}

#[test]
fn bad_kalah_input_is_named_at_its_place() {
    spec_error(
        "game: kalah\npits: 3\nseeds: 2\nposition: {p1: [2, 2, 2], p2: [2, 2, 3], kalahs: [0, 0]}\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "4:11",
        &["the position holds 13 seeds, and the game 12", "seeds are never added or taken away"],
    );
    spec_error(
        "game: kalah\npits: 3\nseeds: 2\nposition: {p1: [2, -1, 3], p2: [2, 2, 2], kalahs: [1, 1]}\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "4:20",
        &["p1's row cannot hold -1 seeds", "a pit holds no fewer than 0 seeds"],
    );
    spec_error(
        "game: kalah\npits: 0\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "2:7",
        &["`pits` must be 1 to 15"],
    );
    spec_error(
        "game: kalah\npits: 3\nseeds: 2\nposition: {p1: [2, 0, 4], p2: [2, 2, 2], kalahs: [0, 0]}\nscenarios:\n  s:\n    steps:\n      - move: 1\n",
        "8:15",
        &["cannot play 1: pit 1 of p1 is empty"],
    );
    spec_error(
        "game: kalah\nscenarios:\n  s:\n    steps:\n      - move: p2:3\n",
        "5:15",
        &["pit 3 is on p2's side, and it is p1's move"],
    );
    spec_error(
        "game: kalah\npits: 3\nseeds: 2\nposition: {p1: [2, 2], p2: [2, 2, 2], kalahs: [0, 2]}\nscenarios: {s: {steps: [{moves: [0]}]}}\n",
        "4:16",
        &["p1's row has 2 entries"],
    );
    spec_error(
        "game: kalah\ncases: {ab: {algorithm: negamax, depth: 2, aspiration: 3}}\n",
        "2:44",
        &["an aspiration window needs a window to narrow"],
    );
    spec_error(
        "game: kalah\ncases: {ab: {algorithm: negamax_ab, depth: 2, ordering: best}}\n",
        "2:57",
        &["unknown move ordering"],
    );
    spec_error(
        "tree: {a: {b: 1}}\ncases: {ab: {algorithm: negamax_ab, dialect: s14}}\n",
        "2:25",
        &["`negamax_ab` is a CS10 searcher", "add `dialect: cs10`"],
    );
    assert!(Path::new("specs/kalah/rules.yaml").exists());
}

#[test]
fn the_judge_weighs_a_students_moves_against_perfect_play() {
    // Kalah(2, 1), CS10's rules, worked out by hand. p1's pit 1 sows into p1's kalah and
    // moves again; its only move, pit 0, lands in the empty pit 1 and captures p2's pit 0:
    // 3 to 1 once p2 has moved again and swept nothing: +2. p1's pit 0 instead leaves p1
    // [0, 2]; whatever p2 answers, p1's forced pit 1 puts one seed in p1's kalah and one in
    // p2's row, and p2 ends it 1 to 3: -2. So pit 0 gives away 4 seeds. The perfect p2,
    // finding both its moves worth the same, plays the lower pit, 0.
    let out = gametrace_cached()
        .args(["play", "kalah", "--pits", "2", "--seeds", "1"])
        .args(["--p1", "human", "--p2", "perfect", "--judge", "p1"])
        .write_stdin("0\n1\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "Judge: move 1, pit 0, gives away 4 seeds: the final margin goes to -2, where pit 1 keeps +2.",
        "p2 decides to make the move 0 in ",
        "Judge: move 3, pit 1, is a best move: the final margin stays -2.",
        "p2 wins!",
        "p1 (human) lost 4 seeds of margin over 2 moves; its worst move was pit 0 at move 1, \u{2212}4.",
    ] {
        assert!(text.contains(line), "{line}\n---\n{text}");
    }
    // p2 is not judged.
    assert_eq!(text.matches("Judge:").count(), 2, "{text}");
}

#[test]
fn perfect_players_reach_the_solved_margin_and_give_nothing_away() {
    // Two perfect players on Kalah(4, 4) under each rule set end the game with the margin
    // `solve` finds, and the judge finds no move of either that gives anything away.
    for rules in [
        &[][..],
        &["--capture-empty"][..],
        &["--end-rule", "either-side-empty"][..],
    ] {
        let mut solve = vec!["solve", "kalah", "--pits", "4", "--seeds", "4"];
        solve.extend(rules);
        let want = solved_margin(&solve);
        let mut play = vec!["play", "kalah", "--pits", "4", "--seeds", "4"];
        play.extend(rules);
        play.extend(["--p1", "perfect", "--p2", "perfect", "--judge", "both"]);
        let text = stdout_of(&play);
        // The last board's kalahs: `  [p1's]   ...   [p2's]`.
        let last = text
            .lines()
            .rfind(|l| l.trim_start().starts_with('['))
            .unwrap();
        let kalahs: Vec<i64> = last
            .split(['[', ']'])
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        assert_eq!(kalahs[0] - kalahs[1], want, "{rules:?}\n{text}");
        assert!(
            text.contains("p1 (perfect) gave away no margin over "),
            "{text}"
        );
        assert!(
            text.contains("p2 (perfect) gave away no margin over "),
            "{text}"
        );
        assert!(!text.contains("gives away"), "{text}");
        assert!(!text.contains("depth-limited"), "{text}");
    }
}

#[test]
fn perfect_play_and_the_judge_are_for_kalah() {
    for args in [
        &["play", "nim", "--p2", "perfect"][..],
        &["play", "connect4", "--p1", "alphabeta:2", "--judge", "p1"][..],
    ] {
        gametrace_cached()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains("has no perfect player and no judge"))
            .stderr(contains("hint:"));
    }
    // A Kalah board too big for the solver: said before any move, exit 2, and before an
    // endgame database is built for it (145 million positions, four minutes, kept for nothing).
    let cache = tempfile::tempdir().unwrap();
    gametrace()
        .env("XDG_CACHE_HOME", cache.path())
        .args([
            "play", "kalah", "--pits", "8", "--seeds", "20", "--p2", "perfect",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "this Kalah board has 8 pits a side and 320 seeds: the solver takes boards",
        ))
        .stderr(contains("hint:"))
        .stderr(contains("endgame database").not());
    assert!(
        !cache.path().join("gametrace").exists(),
        "a database was kept for a board the solver refuses"
    );
}

#[test]
fn the_endgame_database_is_kept_read_back_and_rebuilt_when_damaged() {
    // A database of 2.7 million positions (12 seeds on 6 pits) is worth keeping: the first
    // run builds and writes it, the second reads it, a damaged file is said and built again.
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("cache");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "solve",
            "kalah",
            "--pits",
            "6",
            "--seeds",
            "2",
            "--endgame",
            "12",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&str]| {
        let out = gametrace_cached()
            .args(args(extra))
            .arg("--endgame-dir")
            .arg(&keep)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let first = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (
            first(out.stdout).lines().next().unwrap().to_owned(),
            first(out.stderr),
        )
    };
    // The first run finds none kept: it says so once, and how to build one ahead.
    let (built, note) = run(&[]);
    assert_eq!(
        note,
        format!(
            "note: no endgame database of 12 seeds for Kalah(6, 2), CS10's rules is kept in {} yet: building it now (2704156 positions), to keep there for later runs\n  hint: to build it ahead of time (in an autograder image's setup, say): gametrace endgame build kalah --pits 6 --seeds 2 --endgame 12 --endgame-dir {}\n",
            keep.display(),
            keep.display()
        )
    );
    assert!(built.starts_with("Kalah(6, 2), CS10's rules: "), "{built}");
    let file = keep.join("kalah-6pits-cs10-12seeds.endgame");
    let bytes = fs::read(&file).unwrap();
    assert_eq!(bytes.len(), 64 + 2_704_156); // the header, then C(24, 12) positions
    let (read, note) = run(&[]);
    assert_eq!((read.as_str(), note.as_str()), (built.as_str(), ""));
    // The same answer as a run that keeps no file.
    let alone = stdout_of(
        &args(&["--no-endgame-file"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(alone.lines().next().unwrap(), built);
    // One byte changed: said, built again, kept again.
    let mut damaged = bytes.clone();
    damaged[64 + 1000] ^= 0x40;
    fs::write(&file, damaged).unwrap();
    let (again, note) = run(&[]);
    assert_eq!(again, built);
    assert!(note.contains("not using the endgame database"), "{note}");
    assert!(note.contains("checksum does not match"), "{note}");
    assert_eq!(fs::read(&file).unwrap(), bytes);
    // Left to choose (no --endgame), a run takes the biggest database kept for the board that
    // fits: 12 seeds where it would build 9 (two fifths of the 24 seeds, with no empty capture).
    let chosen = |extra: &[&str]| -> String {
        let mut v = vec!["solve", "kalah", "--pits", "6", "--seeds", "2"];
        v.extend(extra);
        stdout_of(&v).lines().nth(1).unwrap().to_owned()
    };
    let keep = keep.to_str().unwrap();
    assert!(chosen(&["--endgame-dir", keep]).contains("endgame database to 12 seeds"));
    assert!(chosen(&["--no-endgame-file"]).contains("endgame database to 9 seeds"));
}

#[test]
fn an_endgame_database_built_ahead_is_the_one_later_runs_read() {
    // An autograder image's setup: `endgame build` keeps the database a run would build, and
    // the runs after it read it and say nothing of building one.
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("endgame");
    let build = |extra: &[&str]| {
        gametrace_cached()
            .args(["endgame", "build", "kalah", "--pits", "6", "--seeds", "2"])
            .args(extra)
            .arg("--endgame-dir")
            .arg(&keep)
            .output()
            .unwrap()
    };
    let out = build(&["--endgame", "12", "--capture-empty"]);
    let said = String::from_utf8(out.stdout).unwrap();
    let file = keep.join("kalah-6pits-cs10-capture-empty-12seeds.endgame");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(
        said.starts_with(&format!(
            "Kalah(6, 2), CS10's end rule, empty capture: kept {} (12 seeds, 2704156 positions, 2.7 MB), built in ",
            file.display()
        )),
        "{said}"
    );
    assert_eq!(fs::metadata(&file).unwrap().len(), 64 + 2_704_156);
    // Readable by the graders, whoever built it (a temporary file starts as 0600).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }
    // Again: checked, not built.
    let out = build(&["--endgame", "12", "--capture-empty"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "Kalah(6, 2), CS10's end rule, empty capture: already kept, checked: {} (12 seeds, 2704156 positions, 2.7 MB)\n",
            file.display()
        )
    );
    // A solve left to choose takes it (it would build 9 seeds, three eighths of 24) and notes
    // nothing.
    let out = gametrace_cached()
        .args([
            "solve",
            "kalah",
            "--pits",
            "6",
            "--seeds",
            "2",
            "--capture-empty",
        ])
        .arg("--endgame-dir")
        .arg(&keep)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("endgame database to 12 seeds"), "{stdout}");
    // What a run could not take, and what is not Kalah, are refused with a hint.
    let out = build(&["--endgame", "24"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("more than half of --memory"), "{stderr}");
    assert!(stderr.contains("hint: raise --memory"), "{stderr}");
    gametrace_cached()
        .args(["endgame", "build", "chess"])
        .assert()
        .code(2)
        .stderr(contains("endgame databases are Kalah's, not `chess`'s"));
    let out = build(&["--endgame", "30"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("holds 24 seeds: a database of 30 seeds holds positions no game reaches"),
        "{stderr}"
    );
    // A folder that is a file is refused before anything is built.
    let file = dir.path().join("a-file");
    fs::write(&file, "").unwrap();
    gametrace_cached()
        .args(["endgame", "build", "kalah", "--pits", "6", "--seeds", "2"])
        .arg("--endgame-dir")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("is a file, not a folder"))
        .stderr(contains(
            "hint: --endgame-dir DIR names a folder you can write",
        ));
}

#[cfg(unix)]
#[test]
#[cfg_attr(not(gametrace_mkfifo), ignore = "needs mkfifo (coreutils)")]
fn kept_databases_survive_what_a_cache_folder_may_hold() {
    use std::os::unix::fs::PermissionsExt;
    require("mkfifo");
    let dir = tempfile::tempdir().unwrap();
    let solve = |keep: &Path| {
        gametrace_cached()
            .args([
                "solve",
                "kalah",
                "--pits",
                "6",
                "--seeds",
                "2",
                "--capture-empty",
            ])
            .arg("--endgame-dir")
            .arg(keep)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap()
    };
    let first = |out: &std::process::Output| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let alone = stdout_of(&[
        "solve",
        "kalah",
        "--pits",
        "6",
        "--seeds",
        "2",
        "--capture-empty",
        "--no-endgame-file",
    ]);
    let alone = alone.lines().next().unwrap();
    // A FIFO where the database would be: read without waiting for a writer, passed over.
    let fifo = dir.path().join("fifo");
    fs::create_dir(&fifo).unwrap();
    let name = fifo.join("kalah-6pits-cs10-capture-empty-9seeds.endgame");
    assert!(std::process::Command::new("mkfifo")
        .arg(&name)
        .status()
        .unwrap()
        .success());
    let out = solve(&fifo);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(first(&out), alone);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a regular file"), "{stderr}");
    // A damaged bigger database beside a good one of the size a run builds: passed over,
    // not built again.
    let kept = dir.path().join("kept");
    gametrace_cached()
        .args(["endgame", "build", "kalah", "--pits", "6", "--seeds", "2"])
        .args(["--capture-empty", "--endgame", "12", "--endgame-dir"])
        .arg(&kept)
        .assert()
        .success();
    let bigger = kept.join("kalah-6pits-cs10-capture-empty-13seeds.endgame");
    fs::write(&bigger, "not a database").unwrap();
    let out = solve(&kept);
    assert_eq!(first(&out), alone);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("endgame database to 12 seeds"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a gametrace endgame database; trying a smaller one"),
        "{stderr}"
    );
    assert!(!stderr.contains("building"), "{stderr}");
    assert_eq!(fs::read(&bigger).unwrap(), b"not a database");
    // Folders it makes under a umask of 077 are readable by every user, as the files are.
    let nested = dir.path().join("umask/nested");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"umask 077 && exec "$0" endgame build kalah --pits 6 --seeds 2 --endgame 12 --endgame-dir "$1""#)
        .arg(env!("CARGO_BIN_EXE_gametrace"))
        .arg(&nested)
        .status()
        .unwrap();
    assert!(status.success());
    for d in [dir.path().join("umask"), nested.clone()] {
        assert_eq!(
            fs::metadata(&d).unwrap().permissions().mode() & 0o777,
            0o755,
            "{d:?}"
        );
    }
}

#[test]
fn bad_solver_flags_are_refused_and_an_unusable_endgame_folder_only_noted() {
    for (args, says) in [
        (
            &["--judge", "p3"][..],
            "invalid value 'p3' for '--judge <SIDE>'",
        ),
        (
            &["--solver-time", "0"][..],
            "expected a number of seconds above 0",
        ),
        (&["--memory", "lots"][..], "expected bytes like 8M"),
    ] {
        gametrace_cached()
            .args([
                "play", "kalah", "--pits", "2", "--seeds", "1", "--p1", "perfect",
            ])
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    // A folder that is a file: the database cannot be read or kept there, which is said, and
    // the solve goes on in memory with the same answer.
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    fs::write(&not_a_folder, "not a folder").unwrap();
    let out = gametrace_cached()
        .args([
            "solve",
            "kalah",
            "--pits",
            "6",
            "--seeds",
            "2",
            "--endgame",
            "12",
        ])
        .arg("--endgame-dir")
        .arg(&not_a_folder)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot keep the endgame database"),
        "{stderr}"
    );
    assert!(stderr.contains("hint: --endgame-dir DIR"), "{stderr}");
    let alone = stdout_of(&[
        "solve",
        "kalah",
        "--pits",
        "6",
        "--seeds",
        "2",
        "--endgame",
        "12",
        "--no-endgame-file",
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().next(),
        alone.lines().next()
    );
}

/// A class of CS10 Kalah players, each the fixture's `ComputerKalahPlayerAB` as one student
/// would have left it (`edit` turns the fixture's line into theirs), compiled with the Java
/// driver into the submission's `build` folder, as a TA's build step would.
fn java_players(students: &[(&str, Option<(&str, &str)>)]) -> tempfile::TempDir {
    require("javac");
    let class = tempfile::tempdir().unwrap();
    for (name, edit) in students {
        let dir = class.path().join(name);
        fs::create_dir_all(dir.join("build")).unwrap();
        fs::copy(
            "tests/fixtures/java/kalah/KalahGame.java",
            dir.join("KalahGame.java"),
        )
        .unwrap();
        let mut player =
            fs::read_to_string("tests/fixtures/java/kalah/ComputerKalahPlayerAB.java").unwrap();
        if let Some((from, to)) = edit {
            assert!(player.contains(from), "{from}");
            player = player.replacen(from, to, 1);
        }
        fs::write(dir.join("ComputerKalahPlayerAB.java"), player).unwrap();
        let status = std::process::Command::new("javac")
            .arg("-d")
            .arg(dir.join("build"))
            .arg(dir.join("KalahGame.java"))
            .arg(dir.join("ComputerKalahPlayerAB.java"))
            .arg("adapters/java/GametracePlayer.java")
            .status()
            .expect("these tests compile Java: install a JDK, as .ci/run does");
        assert!(status.success(), "javac failed for {name}");
    }
    class
}

fn grade_players(class: &Path, out: &Path, depth: u32, extra: &[&str]) -> std::process::Output {
    gametrace_cached()
        .arg("grade")
        .arg(class)
        .arg("--player-cmd")
        .arg(format!(
            "java -cp {{submission}}/build GametracePlayer ComputerKalahPlayerAB Computer {depth}"
        ))
        .args(["--pits", "3", "--seeds", "3", "--timeout", "30", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn grade_plays_each_students_kalah_player_against_the_perfect_player() {
    let class = java_players(&[
        // Searches to the end of every game of Kalah(3, 3) (40 turns is more than any game
        // has): finished games score 100 times the margin, so each move it picks keeps the
        // best final margin there is, and the judge can find nothing given away.
        ("alice", None),
        // The opponent's value taken as its own: it plays for p2 as often as for itself.
        (
            "bob",
            Some((
                "forMe = slip(\"child-not-negated\") ? childValue : -childValue;",
                "forMe = childValue;",
            )),
        ),
        // Returns the search's value instead of its move: a score of 100 times a margin is
        // no pit of a 3-pit row.
        (
            "carol",
            Some((
                "value(state, maxDepth, -INF, INF, best);\n    return best[0];",
                "return value(state, maxDepth, -INF, INF, best);",
            )),
        ),
        // No array for the best move: the search throws where it first records one.
        (
            "dave",
            Some((
                "int[] best = new int[1];\n    value(",
                "int[] best = null;\n    value(",
            )),
        ),
    ]);
    let out = tempfile::tempdir().unwrap();
    // A class graded is exit 0, whatever the students' scores.
    let graded = grade_players(class.path(), out.path(), 40, &["--margin-allowed", "0"]);
    assert!(graded.status.success(), "{graded:?}");
    let report =
        |name: &str| fs::read_to_string(out.path().join(format!("reports/{name}.txt"))).unwrap();
    let alice = report("alice");
    for line in [
        "PASS    kalah 3x3 (cs10) plays p1: p1's player gave away no margin over ",
        "PASS    kalah 3x3 (cs10) plays p2: p2's player gave away no margin over ",
        "kalah: p1 (program) against p2 (perfect)",
        "kalah: p1 (perfect) against p2 (program)",
    ] {
        assert!(alice.contains(line), "{line}\n---\n{alice}");
    }
    assert!(!alice.contains(" gives away "), "{alice}");
    let bob = report("bob");
    assert!(
        bob.contains("FAIL    kalah 3x3 (cs10) plays p1: p1's player lost ")
            && bob.contains("(at most 0 seeds allowed)"),
        "{bob}"
    );
    let carol = report("carol");
    // Kalah(3, 3) is worth +2 to p1 (as the deep player's games show): 200 is the root's
    // value, and -200 p2's.
    for line in [
        "FAIL    kalah 3x3 (cs10) plays p1: p1's player chose `200` at move 1, which is not a legal move there (the legal moves: 0 1 2)",
        "p1's program chose `200` at move 1, which is not a legal move there (the legal moves: 0 1 2): p1 forfeits the game.",
        "FAIL    kalah 3x3 (cs10) plays p2: p2's player chose `-200` at move ",
    ] {
        assert!(carol.contains(line), "{line}\n---\n{carol}");
    }
    let dave = report("dave");
    assert!(
        dave.contains("CRASHED kalah 3x3 (cs10) plays p1: p1's player gave no move at move 1: its code raised java.lang.NullPointerException"),
        "{dave}"
    );
    assert!(
        dave.contains("at ComputerKalahPlayerAB.value (ComputerKalahPlayerAB.java:"),
        "{dave}"
    );
    let book = fs::read_to_string(out.path().join("gradebook.csv")).unwrap();
    assert!(book.contains("alice,2,2,1,1,"), "{book}");
    assert!(book.contains("carol,0,2,0,0,"), "{book}");
    // The reports are the same whatever the number of jobs: the perfect player's and the
    // judge's answers do not depend on what the shared solver kept from other games.
    let again = tempfile::tempdir().unwrap();
    grade_players(
        class.path(),
        again.path(),
        40,
        &["--margin-allowed", "0", "--jobs", "1"],
    );
    for name in ["alice", "bob", "carol", "dave"] {
        let other = fs::read_to_string(again.path().join(format!("reports/{name}.txt"))).unwrap();
        assert_eq!(report(name), other, "{name}");
    }
}

#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn a_java_player_graded_moves_as_the_same_search_built_in() {
    require("javac");
    // The fixture's player at depth 2 is CS10's negamax with a window, the search behind
    // `negamax_ab:2`; through the driver it must make the same moves, so the judge's verdict
    // on it is the verdict `play` gives the built-in player, on each side.
    let class = java_players(&[("alice", None)]);
    let out = tempfile::tempdir().unwrap();
    let graded = grade_players(class.path(), out.path(), 2, &[]);
    assert!(graded.status.success(), "{graded:?}");
    let report = fs::read_to_string(out.path().join("reports/alice.txt")).unwrap();
    for (side, players) in [
        ("p1", ["--p1", "negamax_ab:2", "--p2", "perfect"]),
        ("p2", ["--p1", "perfect", "--p2", "negamax_ab:2"]),
    ] {
        let played = stdout_of(
            &[
                &[
                    "play", "kalah", "--pits", "3", "--seeds", "3", "--judge", side,
                ][..],
                &players[..],
            ]
            .concat(),
        );
        let summary = played.lines().last().unwrap();
        let built_in = format!("{side} (negamax_ab:2) ");
        assert!(summary.starts_with(&built_in), "{summary}");
        let verdict = summary[built_in.len()..].trim_end_matches('.');
        let want = format!("PASS    kalah 3x3 (cs10) plays {side}: {side}'s player {verdict}");
        assert!(report.contains(&want), "{want}\n---\n{report}");
        // And `play` seats the same program in the same seat (`--p1-cmd`, `--p2-cmd`).
        let cmd = format!(
            "java -cp {} GametracePlayer ComputerKalahPlayerAB Computer 2",
            class.path().join("alice/build").display()
        );
        let other = if side == "p1" { "--p2" } else { "--p1" };
        let seated = stdout_of(&[
            "play",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "3",
            "--judge",
            side,
            &format!("--{side}-cmd"),
            &cmd,
            other,
            "perfect",
        ]);
        let summary = seated.lines().last().unwrap();
        assert_eq!(summary, format!("{side} (program) {verdict}."), "{seated}");
    }
}

#[test]
fn programs_sit_at_kalah_only() {
    gametrace_cached()
        .args(["play", "connect4", "--p1-cmd", "python3 player.py"])
        .assert()
        .code(2)
        .stderr(contains("--p1-cmd and --p2-cmd seat Kalah players only"));
}

#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn the_guides_cs10_recipe_compiles_each_submission_inside_the_sandbox() {
    require("javac");
    // The Grading chapter's CS10 recipe, word for word: javac and java both run in the
    // sandbox. The JVM's network library opens and closes an Internet socket as it loads
    // (to learn whether IPv4 and IPv6 are there); the sandbox used to kill any program that
    // did, so every submission came out NETWORK. Now the socket is refused and javac goes on.
    let class = tempfile::tempdir().unwrap();
    let alice = class.path().join("alice");
    fs::create_dir_all(&alice).unwrap();
    for file in ["KalahGame.java", "ComputerKalahPlayerAB.java"] {
        fs::copy(
            Path::new("tests/fixtures/java/kalah").join(file),
            alice.join(file),
        )
        .unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let graded = gametrace_cached()
        .arg("grade")
        .arg(class.path())
        .args(["--specs", "kalah/search", "--case", "negamax_ab-2", "--shell"])
        .args(["--timeout", "60", "--out"])
        .arg(out.path())
        .args([
            "--against",
            r#"mkdir -p "$TMPDIR/b" && javac -d "$TMPDIR/b" *.java && java -cp "$TMPDIR/b" ComputerKalahPlayerAB 3 2 {depth}"#,
        ])
        .output()
        .unwrap();
    assert!(graded.status.success(), "{graded:?}");
    let report = fs::read_to_string(out.path().join("reports/alice.txt")).unwrap();
    assert!(
        report.contains(
            "PASS    specs/kalah/search.yaml negamax_ab-2: full: all 48 trace lines match"
        ),
        "{report}"
    );
}

#[test]
fn a_players_bad_command_or_board_is_refused_with_exit_2() {
    let class = tempfile::tempdir().unwrap();
    fs::create_dir_all(class.path().join("alice")).unwrap();
    let out = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &["--player-cmd", "java 'unclosed"][..],
            "cannot split --player-cmd into arguments",
        ),
        (
            &["--player-cmd", "java P", "--pits", "0"][..],
            "Kalah cannot be played with 0 pits of 4 seeds",
        ),
        (
            &["--player-cmd", "java P", "--pits", "9"][..],
            "the solver cannot play Kalah with 9 pits of 4 seeds",
        ),
    ] {
        gametrace_cached()
            .arg("grade")
            .arg(class.path())
            .arg("--out")
            .arg(out.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    gametrace_cached()
        .args(["play", "kalah", "--pits", "2", "--seeds", "1"])
        .args(["--p1-cmd", "java 'unclosed"])
        .assert()
        .code(2)
        .stderr(contains("cannot split the --p1-cmd line into arguments"));
}

//! Berkeley CS188's multiagent project from the command line: its GraphGameTreeTest files read
//! as they are (gametrace's own trees in the course's format, under
//! tests/fixtures/cs188/test_cases, each `.solution` worked out by hand in the test's
//! comments), a student's multiAgents.py run unchanged through the Python driver, every
//! catalogued CS188 mistake named from a copy of a student-style file that makes it, the
//! import to YAML, the export for several agents, and malformed test files.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::fs;
use std::path::Path;

mod common;
use common::cli::gametrace;

/// The command, with `NO_COLOR=1`: the reports compared here are plain text.
fn gametrace_no_color() -> Command {
    let mut c = gametrace();
    c.env("NO_COLOR", "1");
    c
}

const TESTS: &str = "tests/fixtures/cs188/test_cases";
use common::cs188::{with_slips, STUDENT};

fn driver(student: &str) -> String {
    format!("python3 adapters/python/gametrace_cs188.py {student} {{tree_json}}")
}

#[test]
fn the_tests_run_unchanged_and_agree_with_their_solutions() {
    gametrace_no_color()
        .args(["test", TESTS])
        .assert()
        .success()
        .stdout(contains(
            "PASS    tests/fixtures/cs188/test_cases/q3/3-tie-at-ghost.test 3-tie-at-ghost",
        ))
        .stdout(contains("17 passed, 0 failed"));
}

#[test]
fn a_test_is_searched_as_cs188_logs_it() {
    gametrace_no_color()
        .args(["run", &format!("{TESTS}/q3/3-tie-at-ghost.test")])
        .assert()
        .success()
        .stdout(
            "generateSuccessor(r, 0, L) -> g1\n\
             generateSuccessor(g1, 1, x) -> a\n\
             getScore(a) -> 6.0\n\
             value(g1) -> 6.0 (agent 1, min)\n\
             generateSuccessor(r, 0, R) -> g2\n\
             generateSuccessor(g2, 1, x) -> b\n\
             getScore(b) -> 6.0\n\
             generateSuccessor(g2, 1, y) -> c\n\
             getScore(c) -> 1.0\n\
             value(g2) -> 1.0 (agent 1, min)\n\
             getAction(r): value 6.0, action L\n\
             getAction(r) -> L\n",
        );
}

#[test]
fn a_wrong_solution_fails_with_what_the_autograder_would_say() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q3");
    fs::create_dir(&q).unwrap();
    fs::copy(
        format!("{TESTS}/q3/3-tie-at-ghost.test"),
        q.join("tie.test"),
    )
    .unwrap();
    // The set a search that prunes on equality generates.
    fs::write(
        q.join("tie.solution"),
        "action: \"L\"\ngenerated: \"a b g1 g2 r\"\n",
    )
    .unwrap();
    gametrace_no_color()
        .args(["test", q.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(contains("Incorrect generated nodes: the solution has 0 that the reference does not generate (), the reference 1 more (c)"));
    // --bless writes the solution as the autograder's writeSolution does.
    fs::remove_file(q.join("tie.solution")).unwrap();
    gametrace_no_color()
        .args(["test", q.to_str().unwrap(), "--bless"])
        .assert()
        .success();
    assert_eq!(
        fs::read_to_string(q.join("tie.solution")).unwrap(),
        format!(
            "# This is the solution file for {}.\naction: \"L\"\ngenerated: \"a b c g1 g2 r\"\n",
            q.join("tie.test").display()
        )
    );
}

/// CS188's autograder keeps the generated states in a set: a right agent that generates a
/// root successor twice (one call thrown away, as a real student's `getAction` does) gets
/// 5/5 there, and passes here too; only the set of states is held, not how often.
#[test]
fn a_state_generated_twice_is_graded_as_the_autograders_set() {
    let dir = tempfile::tempdir().unwrap();
    let student = with_slips(dir.path(), &["generates-twice"]);
    // Pacman's first move reaches a win state, a leaf: generated twice, it was "visited 3
    // times, the reference twice" (the leaf's getScore line counts too).
    let q = dir.path().join("q2");
    fs::create_dir_all(&q).unwrap();
    fs::write(
        q.join("1-leaf-first.test"),
        "class: \"GraphGameTreeTest\"\nalg: \"MinimaxAgent\"\ndepth: \"1\"\n\
         diagram: \"\"\"\n  s: A -> w (win), B -> g; g: Left -> l (lose), Right -> x\n\"\"\"\n\
         num_agents: \"2\"\n\nstart_state: \"s\"\nwin_states: \"w\"\nlose_states: \"l\"\n\n\
         successors: \"\"\"\ns A w\ns B g\ng Left l\ng Right x\n\"\"\"\n\n\
         evaluation: \"\"\"\nw 5.0\nl -5.0\nx 2.0\n\"\"\"\n",
    )
    .unwrap();
    // A is worth 5 (a win), B the ghost's min of -5 and 2; every state is generated.
    fs::write(
        q.join("1-leaf-first.solution"),
        "action: \"A\"\ngenerated: \"g l s w x\"\n",
    )
    .unwrap();
    gametrace_no_color()
        .args(["test", q.to_str().unwrap(), "--against", &driver(&student)])
        .assert()
        .success()
        .stdout(contains("1 passed, 0 failed"));
    for q in ["q2", "q3", "q4"] {
        gametrace_no_color()
            .args([
                "test",
                &format!("{TESTS}/{q}"),
                "--against",
                &driver(&student),
            ])
            .assert()
            .success()
            .stdout(contains(" 0 failed"));
    }
}

#[test]
fn a_right_student_file_passes_every_question() {
    for q in ["q2", "q3", "q4"] {
        gametrace_no_color()
            .args([
                "test",
                &format!("{TESTS}/{q}"),
                "--against",
                &driver(STUDENT),
            ])
            .assert()
            .success()
            .stdout(contains(" 0 failed"));
    }
    gametrace_no_color()
        .args([
            "check",
            &format!("{TESTS}/q3/3-tie-at-ghost.test"),
            "--cmd",
            &driver(STUDENT),
        ])
        .assert()
        .success()
        .stdout(contains(
            "PASS: visited: the 5 states visited and the chosen move match",
        ));
}

/// Each CS188 catalogue entry: the question whose tests show it, and the student-style
/// file's slip that makes it.
const CATALOGUE: &[(&str, &str)] = &[
    ("q3", "prune-on-equal"),
    ("q3", "generates-before-pruning"),
    ("q3", "prunes-nothing"),
    ("q3", "root-alpha-kept"),
    ("q2", "depth-per-agent"),
    ("q4", "depth-at-pacman-move"),
    ("q2", "one-round-deeper"),
    ("q3", "one-round-short"),
    ("q4", "depth-twice-per-round"),
    ("q2", "ghosts-one-layer"),
    ("q2", "ghosts-maximise"),
    ("q4", "expectimax-takes-min"),
    ("q4", "first-ghost-averages-only"),
    ("q2", "terminal-not-evaluated"),
    ("q3", "win-lose-infinite"),
    ("q2", "own-evaluation"),
    ("q2", "own-evaluation-at-depth"),
    ("q2", "last-best-action"),
    ("q4", "returns-value"),
];

#[test]
fn every_catalogued_mistake_fails_and_is_named() {
    for &(q, slip) in CATALOGUE {
        let dir = tempfile::tempdir().unwrap();
        let student = with_slips(dir.path(), &[slip]);
        let out = gametrace_no_color()
            .args([
                "test",
                &format!("{TESTS}/{q}"),
                "--against",
                &driver(&student),
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{slip}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let failing: Vec<&serde_json::Value> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] != "pass")
            .collect();
        assert!(!failing.is_empty(), "{slip}");
        for c in failing {
            let d = &c["diagnosis"];
            assert_eq!(d["finding"], "exact", "{slip}: {c}");
            let named: Vec<&str> = d["explanations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e[0]["mistake"].as_str().unwrap())
                .collect();
            assert_eq!(named[0], slip, "{slip}: {c}");
            assert!(
                d["text"]
                    .as_str()
                    .unwrap()
                    .contains("the program's outputs on all"),
                "{slip}"
            );
        }
    }
}

/// The slips of real submissions (issue 71), each in a file of its own written as a student
/// writes it: the question whose tests show it, the mistake, how many of the question's tests
/// fail, and the names given (the sided mistake is named at every side that prints the same
/// on all of the question's tests).
const OWN_FILES: &[(&str, &str, usize, &[&str])] = &[
    // The template's getAction: None, nothing generated, on every test.
    ("q2", "no-action", 6, &["no-action"]),
    ("q3", "no-action", 7, &["no-action"]),
    ("q4", "no-action", 4, &["no-action"]),
    // The best action starts as Directions.STOP and the loop assigns a misspelt name: the
    // search is right, and 'Stop' (no tree's action) is returned on every test.
    ("q2", "illegal-action", 6, &["illegal-action"]),
    // ExpectimaxAgent returns AlphaBetaAgent's action: x and z are what pruning skips in
    // 1-two-ghosts (the only tree of q4 where a ghost's min passes alpha).
    (
        "q4",
        "expectimax-as-alphabeta",
        1,
        &["expectimax-as-alphabeta"],
    ),
    // The ghosts' step asks only isLose(), and neither step asks for actions: 6-win-at-ghost's
    // w is +inf, and 5-choices's states without actions are left at -inf or +inf (at
    // Pacman's too, so the mistake at every node is the one that predicts).
    ("q2", "win-not-terminal", 2, &["win-not-terminal"]),
    // isLose() of getAction's state: 3-terminals's l is searched on as Pacman's, -inf; no
    // tree has a loss at a ghost's turn, so the mistake at Pacman's nodes only prints the
    // same.
    (
        "q2",
        "lose-not-terminal",
        2,
        &["lose-not-terminal", "lose-not-terminal:maxie"],
    ),
];

#[test]
fn the_slips_of_real_submissions_are_named_on_every_test_they_explain() {
    for &(q, name, failing, names) in OWN_FILES {
        let student = format!("tests/fixtures/cs188/{name}/multiAgents.py");
        let out = gametrace_no_color()
            .args([
                "test",
                &format!("{TESTS}/{q}"),
                "--against",
                &driver(&student),
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name} {q}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let cases = report["cases"].as_array().unwrap();
        let fails: Vec<&serde_json::Value> =
            cases.iter().filter(|c| c["status"] != "pass").collect();
        assert_eq!(fails.len(), failing, "{name} {q}: {fails:?}");
        for c in fails {
            let d = &c["diagnosis"];
            assert_eq!(d["finding"], "exact", "{name} {q}: {c}");
            let named: Vec<String> = d["explanations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e[0]["bug"].as_str().unwrap().to_owned())
                .collect();
            assert_eq!(named, names, "{name} {q}: {c}");
            // Held to every test of the question, the passing ones included.
            let all = format!("the program's outputs on all {} cases", cases.len());
            assert!(
                d["text"].as_str().unwrap().contains(&all),
                "{name} {q}: {c}"
            );
        }
    }
}

#[test]
fn the_guides_buggy_copy_is_the_fixture_with_one_slip() {
    let right = fs::read_to_string(STUDENT).unwrap();
    let buggy = fs::read_to_string("tests/fixtures/cs188/prune-on-equal/multiAgents.py").unwrap();
    assert_eq!(
        buggy,
        right.replacen("SLIPS = set()", "SLIPS = {\"prune-on-equal\"}", 1)
    );
}

#[test]
fn a_student_with_two_mistakes_is_named_with_both() {
    // Each of the two shows on a test of its own: the pair predicts every test.
    let dir = tempfile::tempdir().unwrap();
    let student = with_slips(dir.path(), &["root-alpha-kept", "prune-on-equal"]);
    gametrace_no_color()
        .args(["test", &format!("{TESTS}/q3"), "--against", &driver(&student)])
        .assert()
        .code(1)
        .stdout(contains(
            "with any of these mistakes: prune-on-equal together with root-alpha-kept; prune-on-equal at Pacman's nodes only together with root-alpha-kept",
        ));
}

#[test]
fn the_prune_on_setting_makes_the_other_convention_the_mistake() {
    // The correct CS188 agent prunes only past the bound; a case that prunes on reaching it
    // names that `no-prune-on-equal`.
    gametrace_no_color()
        .args([
            "check",
            "specs/cs188/tie.yaml",
            "--case",
            "prune-on-reaching",
            "--cmd",
            &driver(STUDENT),
        ])
        .assert()
        .code(1)
        .stdout(contains("1 extra (c)"))
        .stdout(contains("with any of these mistakes"))
        .stdout(contains("no-prune-on-equal: the prune test is strict"));
    let dir = tempfile::tempdir().unwrap();
    let student = with_slips(dir.path(), &["prune-on-equal"]);
    gametrace_no_color()
        .args([
            "check",
            "specs/cs188/tie.yaml",
            "--case",
            "prune-on-reaching",
            "--cmd",
            &driver(&student),
        ])
        .assert()
        .success();
}

#[test]
fn a_student_whose_evaluation_raises_is_named_by_what_it_printed() {
    let dir = tempfile::tempdir().unwrap();
    let student = with_slips(dir.path(), &["own-evaluation"]);
    gametrace_no_color()
        .args([
            "check",
            &format!("{TESTS}/q2/4-tied-root.test"),
            "--cmd",
            &driver(&student),
        ])
        .assert()
        .code(1)
        .stdout(contains("CRASHED"))
        .stdout(contains("AttributeError"))
        .stdout(contains("getPacmanPosition"))
        // On this test alone, the two ways of evaluating with a function of one's own raise
        // at the same state.
        .stdout(contains(
            "what it printed before it stopped is exactly the beginning of what the reference prints (as `visited` compares it) with any of these mistakes (on this case they print the same): own-evaluation; own-evaluation-at-depth",
        ));
}

#[test]
fn a_question_not_written_yet_crashes_with_the_courses_message() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(STUDENT).unwrap().replace(
        "class ExpectimaxAgent(SearchAgent):\n    kind = \"expectimax\"\n",
        "class ExpectimaxAgent(MultiAgentSearchAgent):\n    def getAction(self, gameState):\n        util.raiseNotDefined()\n",
    );
    // The method left unwritten is named with its line (the course's own message goes to
    // stdout, among the lines the check ignores).
    let line = 1 + text
        .lines()
        .position(|l| l.trim() == "util.raiseNotDefined()")
        .unwrap();
    fs::write(dir.path().join("multiAgents.py"), text).unwrap();
    let student = dir.path().join("multiAgents.py");
    gametrace_no_color()
        .args([
            "check",
            &format!("{TESTS}/q4/1-two-ghosts.test"),
            "--cmd",
            &driver(student.to_str().unwrap()),
        ])
        .assert()
        .code(1)
        .stdout(contains("CRASHED"))
        .stdout(contains(format!(
            "util.raiseNotDefined() stopped the program in ExpectimaxAgent.getAction (line {line} of multiAgents.py): a method not written yet"
        )));
}

#[test]
fn the_2021_projects_children_key_and_getnextstate_work_too() {
    let dir = tempfile::tempdir().unwrap();
    let test = fs::read_to_string(format!("{TESTS}/q3/3-tie-at-ghost.test"))
        .unwrap()
        .replace("successors: \"\"\"", "children: \"\"\"");
    fs::write(dir.path().join("tie.test"), &test).unwrap();
    let student = fs::read_to_string(STUDENT)
        .unwrap()
        .replace(".generateSuccessor(", ".getNextState(");
    fs::write(dir.path().join("multiAgents.py"), student).unwrap();
    gametrace_no_color()
        .args([
            "check",
            dir.path().join("tie.test").to_str().unwrap(),
            "--cmd",
            &driver(dir.path().join("multiAgents.py").to_str().unwrap()),
        ])
        .assert()
        .success();
}

#[test]
fn import_writes_specs_that_pass_with_their_expected_traces() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cs188");
    gametrace_no_color()
        .args(["import", "cs188", TESTS, out.to_str().unwrap()])
        .assert()
        .success()
        .stdout(contains("17 tests of 17 imported"))
        .stdout(contains(
            "q3/3-tie-at-ghost.yaml (agrees with its .solution; expected trace",
        ));
    let yaml = fs::read_to_string(out.join("q3/3-tie-at-ghost.yaml")).unwrap();
    assert!(yaml.contains("agents: 2"), "{yaml}");
    // `y` alone would read as YAML's yes: quoted.
    assert!(
        yaml.contains("    g2:\n      actions: [x, \"y\"]\n      b: 6.0\n      c: 1.0\n"),
        "{yaml}"
    );
    assert!(yaml.contains("    dialect: cs188\n"), "{yaml}");
    gametrace_no_color()
        .args(["test", out.to_str().unwrap()])
        .assert()
        .success()
        .stdout(contains("17 passed, 0 failed"));
}

#[test]
fn run_json_and_show_speak_cs188() {
    let out = gametrace_no_color()
        .args([
            "run",
            "specs/cs188/two-ghosts.yaml",
            "--case",
            "expectimax",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &j["cases"][0];
    assert_eq!(c["value"], "6.0");
    assert_eq!(c["best_move"], "c");
    assert_eq!(c["depth"], 1);
    assert_eq!(c["depth_unit"], "rounds");
    assert_eq!(c["counts"]["cs188_expanded_states"], 19);
    gametrace_no_color()
        .args(["show", "specs/cs188/two-ghosts.yaml", "--case", "alphabeta"])
        .assert()
        .success()
        .stdout(contains("value 4.0, move b;"))
        .stdout(contains("[t] ■ x  9.5"))
        .stdout(contains("· not reached"));
}

#[test]
fn the_python_export_has_the_agents_the_outcomes_and_the_actions() {
    let module = gametrace_no_color()
        .args([
            "export",
            &format!("{TESTS}/q2/3-terminals.test"),
            "--to",
            "python",
        ])
        .output()
        .unwrap();
    assert!(module.status.success());
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("tree.py"), &module.stdout).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import tree\n\
             s = tree.GameTreeState()\n\
             w = s.generateSuccessor(0, 'Win').generateSuccessor(1, 'Wait')\n\
             l = s.generateSuccessor(0, 'Lose').generateSuccessor(1, 'Wait')\n\
             print(s.getNumAgents(), s.getLegalActions(0), w.isWin(), l.isLose(), l.isWin(), l.getScore())\n\
             print(sorted(tree.GENERATED), tree.minimax_value())\n",
        )
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "2 ['Stay', 'Win', 'Lose'] True True False 9.0\n['g1', 'g2', 'l', 'r', 'w'] 9\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let three = gametrace_no_color()
        .args(["export", "specs/cs188/two-ghosts.yaml", "--to", "python"])
        .output()
        .unwrap();
    fs::write(dir.path().join("three.py"), &three.stdout).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import three\n\
             s = three.GameTreeState()\n\
             print(s.getNumAgents(), three.to_move('g1a'), three.to_move('g2a'), three.to_move('u'), three.minimax_value())\n",
        )
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3 MIN MIN MAX 4.0\n");
}

/// A malformed test: its text, the place reported, and what the message says.
fn malformed(name: &str, text: &str, place: &str, said: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    let mut a = gametrace_no_color()
        .args(["run", name])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(format!("--> {name}:{place}")));
    for s in said {
        a = a.stderr(contains(*s));
    }
    a.stderr(contains("= expected:").and(contains("=    found:")));
}

#[test]
fn malformed_tests_are_refused_with_their_place() {
    let good = fs::read_to_string(format!("{TESTS}/q3/3-tie-at-ghost.test")).unwrap();
    let line_of = |text: &str, what: &str| text.lines().position(|l| l == what).unwrap() + 1;
    // A blank line inside the successors block, as the course's parser refuses it too.
    let blank = good.replace("r R g2\n", "r R g2\n\n");
    let at = line_of(&blank, "r R g2") + 1;
    malformed(
        "blank.test",
        &blank,
        &format!("{at}:1"),
        &[
            "a `successors` line must be `state action next`",
            "an empty line",
            "Bad successor line",
        ],
    );
    // A block never closed.
    let open = good.trim_end().trim_end_matches("\"\"\"").to_owned();
    let at = line_of(&open, "evaluation: \"\"\"");
    malformed(
        "open.test",
        &open,
        &format!("{at}:1"),
        &["the block `evaluation` has no closing `\"\"\"`"],
    );
    // An agent the course does not have.
    let alg = good.replace("alg: \"AlphaBetaAgent\"", "alg: \"AlphabetaAgent\"");
    let at = line_of(&alg, "alg: \"AlphabetaAgent\"");
    malformed(
        "alg.test",
        &alg,
        &format!("{at}:1"),
        &[
            "unknown agent `AlphabetaAgent`",
            "did you mean `AlphaBetaAgent`?",
        ],
    );
    // A value that is not a number.
    let value = good.replace("c 1.0", "c one");
    let at = line_of(&value, "c one");
    malformed(
        "value.test",
        &value,
        &format!("{at}:3"),
        &["the value of `c` is not a number"],
    );
    // A leaf with no value.
    let leaf = good.replace("c 1.0\n", "");
    let at = line_of(&leaf, "g2 y c");
    malformed(
        "leaf.test",
        &leaf,
        &format!("{at}:6"),
        &[
            "the state `c` has no moves and no value",
            "getScore() raises on it too",
        ],
    );
    // A cycle.
    let cycle = good.replace("g2 y c\n", "g2 y c\nc back r\n");
    let at = line_of(&cycle, "c back r");
    malformed(
        "cycle.test",
        &cycle,
        &format!("{at}:8"),
        &["`r` is reached again below itself"],
    );
    // A line the format does not read.
    let junk = good.replace("num_agents: \"2\"", "num_agents: 2");
    let at = line_of(&junk, "num_agents: 2");
    malformed(
        "junk.test",
        &junk,
        &format!("{at}:1"),
        &[
            "a line the CS188 test format does not read",
            "error parsing test file",
        ],
    );
    // A depth that stops at a state with no value.
    let deep = fs::read_to_string(format!("{TESTS}/q2/1-chains-depth-1.test"))
        .unwrap()
        .replace("a3 1.0\n", "");
    let at = line_of(&deep, "depth: \"1\"");
    malformed(
        "deep.test",
        &deep,
        &format!("{at}:1"),
        &["the search stops at `a3` by depth, and it has no value"],
    );
}

#[test]
fn other_test_classes_are_skipped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(
        format!("{TESTS}/q3/3-tie-at-ghost.test"),
        dir.path().join("tie.test"),
    )
    .unwrap();
    fs::copy(
        format!("{TESTS}/q3/3-tie-at-ghost.solution"),
        dir.path().join("tie.solution"),
    )
    .unwrap();
    fs::write(
        dir.path().join("game.test"),
        "class: \"PacmanGameTreeTest\"\nalg: \"MinimaxAgent\"\n",
    )
    .unwrap();
    gametrace_no_color()
        .args(["test", dir.path().to_str().unwrap()])
        .assert()
        .success()
        .stderr(contains("note: skipped"))
        .stderr(contains("PacmanGameTreeTest: it plays Pacman on a maze"))
        .stdout(contains("1 passed, 0 failed"));
}

/// CS188's autograder gives a question's points only when every test passes, its Pacman game
/// included; gametrace does not run that game. A graded run lists the game as SKIPPED in
/// every report, with what it may change, so that no one reads full marks for a question the
/// autograder would fail without being told (a real submission passed all 33 q2 trees here
/// and got 0 there: its game crashed on an illegal ghost action).
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_graded_question_names_the_tests_it_did_not_run() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    for ext in ["test", "solution"] {
        fs::copy(
            format!("{TESTS}/q3/3-tie-at-ghost.{ext}"),
            dir.path().join(format!("tie.{ext}")),
        )
        .unwrap();
    }
    fs::write(
        dir.path().join("8-pacman-game.test"),
        "class: \"PacmanGameTreeTest\"\nalg: \"AlphaBetaAgent\"\n",
    )
    .unwrap();
    let folder = dir.path().to_str().unwrap();
    gametrace_no_color()
        .args(["test", folder, "--against", &driver(STUDENT)])
        .assert()
        .success()
        .stdout(contains("SKIPPED"))
        .stdout(contains(
            "8-pacman-game: not run: PacmanGameTreeTest: it plays Pacman on a maze",
        ))
        .stdout(contains("the autograder's points for the question are 0"))
        .stdout(contains("1 passed, 0 failed, 1 skipped"));
    let out = gametrace_no_color()
        .args(["test", folder, "--against", &driver(STUDENT)])
        .args(["--format", "gradescope", "--for-students"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let game = tests
        .iter()
        .find(|t| t["name"].as_str().unwrap_or("").contains("8-pacman-game"))
        .unwrap_or_else(|| panic!("the game is in the Gradescope report: {json}"));
    assert!(
        game["output"].as_str().unwrap().contains("not run"),
        "{game}"
    );
    // A class graded: the summary names it too.
    let class = dir.path().join("class/alice");
    fs::create_dir_all(&class).unwrap();
    fs::copy(STUDENT, class.join("multiAgents.py")).unwrap();
    let driver_path = format!("{}/adapters/python/gametrace_cs188.py", common::cli::ROOT);
    gametrace_no_color()
        .args(["grade", dir.path().join("class").to_str().unwrap()])
        .args(["--specs", folder, "--out"])
        .arg(dir.path().join("grades"))
        .args([
            "--against",
            &format!("python3 {driver_path} multiAgents.py {{tree_json}}"),
        ])
        .assert()
        .success()
        .stdout(contains("not run in any submission").and(contains("8-pacman-game")));
    // Selected out, it is not listed.
    gametrace_no_color()
        .args([
            "test",
            folder,
            "--against",
            &driver(STUDENT),
            "--case",
            "tie",
        ])
        .assert()
        .success()
        .stdout(contains("1 passed, 0 failed").and(contains("skipped").not()));
}

#[test]
fn cases_and_bugs_read_a_test_of_one_case() {
    let test = format!("{TESTS}/q3/3-tie-at-ghost.test");
    gametrace_no_color()
        .args(["cases", &test])
        .assert()
        .success()
        .stdout(contains(
            "3-tie-at-ghost  alphabeta  depth 1 rounds  cs188  check visited",
        ));
    gametrace_no_color()
        .args(["bugs", &test])
        .assert()
        .success()
        .stdout(contains(
            "prune-on-equal  (cs188; alphabeta with prune_on: \">\"",
        ))
        .stdout(contains("expectimax-takes-min").not());
    gametrace_no_color()
        .args([
            "explain",
            &test,
            "--case",
            "3-tie-at-ghost",
            "--bug",
            "prune-on-equal",
        ])
        .assert()
        .success()
        .stdout(contains("-generateSuccessor(g2, 1, y) -> c"));
}

#[test]
fn the_driver_takes_the_courses_own_modules_with_project() {
    // Any folder with the project's util.py, game.py and pacman.py: here gametrace's own
    // stand-ins, given as if they were the course's.
    let cmd = format!(
        "python3 adapters/python/gametrace_cs188.py {STUDENT} {{tree_json}} --project adapters/python/cs188"
    );
    gametrace_no_color()
        .args([
            "check",
            &format!("{TESTS}/q2/5-choices.test"),
            "--cmd",
            &cmd,
        ])
        .assert()
        .success();
    // A folder without them is a bad command line: refused before the student's code runs,
    // exit 2, gametrace's own error (the driver's own check, exit 1, is not reached).
    let cmd = format!(
        "python3 adapters/python/gametrace_cs188.py {STUDENT} {{tree_json}} --project tests"
    );
    gametrace_no_color()
        .args([
            "check",
            &format!("{TESTS}/q2/5-choices.test"),
            "--cmd",
            &cmd,
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(format!(
            "--project {}/tests has no util.py",
            common::cli::ROOT
        )));
}

/// A folder of the course's layout, `test_cases/q2`: gametrace's own q2 trees with their
/// CONFIG, and the stand-in project's Pacman game.
fn q2_with_game(dir: &Path) -> String {
    let q2 = dir.join("test_cases/q2");
    fs::create_dir_all(&q2).unwrap();
    for from in [format!("{TESTS}/q2"), format!("{PROJECT}/test_cases/q2")] {
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), q2.join(entry.file_name())).unwrap();
        }
    }
    q2.to_str().unwrap().to_owned()
}

/// gametrace's stand-in for the course's project folder: an autograder.py that plays a
/// PacmanGameTreeTest under rules that refuse a move its mover may not make.
const PROJECT: &str = "tests/fixtures/cs188/project";

/// CS188 gives a question its weight (its CONFIG's max_points) only when every test of it
/// passes (PassAllTestsQuestion), the Pacman game included. A student who expands each
/// state with the next agent's index passes every tree (the tree ignores the index) and
/// fails the game; with --project the game is played by the course's autograder and the
/// question gets 0, in every report; without it, the question says its points may be 0.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_question_gets_its_points_only_when_every_test_passes_the_game_included() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let q2 = q2_with_game(dir.path());
    let slip = "tests/fixtures/cs188/next-agent-index/multiAgents.py";
    // The right file: every test, the game too, and the question's 5 points.
    gametrace_no_color()
        .args([
            "test",
            &q2,
            "--project",
            PROJECT,
            "--against",
            &driver(STUDENT),
        ])
        .assert()
        .success()
        .stdout(contains(
            "PASS    ".to_owned()
                + &q2
                + "/9-pacman-game.test 9-pacman-game: the course's autograder passes the game",
        ))
        .stdout(contains(
            "q2: 5 / 5: all 7 tests run pass\n7 passed, 0 failed; score 5 / 5\n",
        ));
    // The slip: every tree passes, the game stops on the illegal move, and q2 is worth 0.
    gametrace_no_color()
        .args([
            "test",
            &q2,
            "--project",
            PROJECT,
            "--against",
            &driver(slip),
        ])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "CRASHED {q2}/9-pacman-game.test 9-pacman-game: the game stopped on an exception in multiAgents.py"
        )))
        .stdout(contains(
            "Exception: Illegal action North (multiAgents.py, line ",
        ))
        .stdout(contains(
            "q2: 0 / 5: 1 of 7 tests failed (9-pacman-game); PassAllTestsQuestion",
        ))
        .stdout(contains("6 passed, 1 failed; score 0 / 5\n"));
    // Without --project: the trees' 5 points, said to depend on the game not run.
    gametrace_no_color()
        .args(["test", &q2, "--against", &driver(slip)])
        .assert()
        .success()
        .stdout(contains("q2: 5 / 5: all 6 tests run pass; not run: 9-pacman-game (the autograder runs it too: where it fails, the question gets 0"))
        .stdout(contains("6 passed, 0 failed, 1 skipped; score 5 / 5\n"));
    // Gradescope: one test per question, the failing game under it.
    let out = gametrace_no_color()
        .args([
            "test",
            &q2,
            "--project",
            PROJECT,
            "--against",
            &driver(slip),
        ])
        .args(["--format", "gradescope"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tests = json["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{json}");
    assert_eq!(tests[0]["name"], "q2");
    assert_eq!(
        (tests[0]["score"].as_f64(), tests[0]["max_score"].as_f64()),
        (Some(0.0), Some(5.0))
    );
    assert_eq!(
        (json["score"].as_f64(), json["max_score"].as_f64()),
        (Some(0.0), Some(5.0))
    );
    let output = tests[0]["output"].as_str().unwrap();
    assert!(
        output.contains("9-pacman-game: the game stopped"),
        "{output}"
    );
    assert!(
        !output.contains("PASS "),
        "passing tests are not listed: {output}"
    );
    // The other formats carry the question too.
    for (format, said) in [
        ("json", "\"questions\""),
        ("junit", "<property name=\"question q2\" value=\"0 / 5"),
        ("tap", "# q2: 0 / 5"),
        ("autolab", "{\"scores\":{\"q2\":0.0}}"),
        ("prairielearn", "\"name\": \"q2\""),
        ("html", "<li class=\"fail\">q2: 0 / 5"),
    ] {
        gametrace_no_color()
            .args([
                "test",
                &q2,
                "--project",
                PROJECT,
                "--against",
                &driver(slip),
            ])
            .args(["--format", format])
            .assert()
            .code(1)
            .stdout(contains(said));
    }
    // A class: the gradebook has the question's column, each submission its points.
    let class = dir.path().join("class");
    for (who, file) in [("alice", STUDENT), ("bob", slip)] {
        fs::create_dir_all(class.join(who)).unwrap();
        fs::copy(file, class.join(who).join("multiAgents.py")).unwrap();
    }
    let driver_path = format!("{}/adapters/python/gametrace_cs188.py", common::cli::ROOT);
    gametrace_no_color()
        .args([
            "grade",
            class.to_str().unwrap(),
            "--specs",
            &q2,
            "--project",
            PROJECT,
        ])
        .arg("--out")
        .arg(dir.path().join("grades"))
        .args([
            "--against",
            &format!("python3 {driver_path} multiAgents.py {{tree_json}}"),
        ])
        .assert()
        .success();
    let csv = fs::read_to_string(dir.path().join("grades/gradebook.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("submission,score,max_score,q2,"),
        "{csv}"
    );
    assert!(lines.next().unwrap().starts_with("alice,5,5,5,"), "{csv}");
    assert!(lines.next().unwrap().starts_with("bob,0,5,0,"), "{csv}");
}

/// A game that crashes, read as the course's autograder reports it: an exception in the
/// student's code during the game (which the course's game catches, printing `*** FAIL` and
/// "Agent crashed", exit status 0) is CRASHED, like a tree's; a crash is shown by its
/// exception and where, or the course's "Method not implemented", never by the course's
/// `DeprecationWarning` on stderr (a new TA's report showed `  import imp`).
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_crashed_game_is_crashed_and_shows_the_exception_not_a_warning() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let q2 = q2_with_game(dir.path());
    let game = fs::read_to_string(format!("{q2}/9-pacman-game.test")).unwrap();
    fs::write(
        format!("{q2}/2-alphabeta-game.test"),
        game.replace("\"MinimaxAgent\"", "\"AlphaBetaAgent\""),
    )
    .unwrap();
    fs::copy(
        format!("{q2}/9-pacman-game.solution"),
        format!("{q2}/2-alphabeta-game.solution"),
    )
    .unwrap();
    let q2 = q2.as_str();
    // next-agent-index's minimax raises in the game; its alpha-beta is the course's stub.
    let slip = "tests/fixtures/cs188/next-agent-index/multiAgents.py";
    gametrace_no_color()
        .args(["test", q2, "--project", PROJECT, "--against", &driver(slip)])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "CRASHED {q2}/9-pacman-game.test 9-pacman-game: the game stopped on an exception in multiAgents.py (the autograder fails the test, and the question gets 0): Exception: Illegal action North (multiAgents.py, line "
        )))
        .stdout(contains(format!(
            "CRASHED {q2}/2-alphabeta-game.test 2-alphabeta-game: the game stopped on an exception (the autograder fails the test, and the question gets 0): Method not implemented: getAction at line "
        )))
        .stdout(contains("Agent crashed on smallClassic.  No credit"))
        .stdout(contains("gets 0): ").and(contains("gets 0):   warnings.warn").not()))
        .stdout(contains("6 passed, 2 failed"));
    // An action the game's rules refuse, raised outside the student's file: FAIL, said.
    gametrace_no_color()
        .args([
            "test",
            q2,
            "--project",
            PROJECT,
            "--against",
            &driver("tests/fixtures/cs188/illegal-action/multiAgents.py"),
        ])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "FAIL    {q2}/9-pacman-game.test 9-pacman-game: the course's autograder fails the game: the game stopped on its move (Exception: Illegal action Stop (autograder.py, line "
        )));
}

/// A student's file importing a module the grading Python lacks crashes on every test; the
/// question's line (and the gradebook's problems column, and grade's summary) says so once,
/// with the module and the Python, instead of leaving a traceback a test to be read.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_module_the_grading_python_lacks_is_said_once_a_question() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    // The student's helper module, on their machine and not handed in.
    let text = fs::read_to_string(STUDENT).unwrap();
    let class = dir.path().join("class");
    for (who, file) in [
        ("alice", text.clone()),
        ("bob", format!("from myUtils import nearestFood\n{text}")),
    ] {
        fs::create_dir_all(class.join(who)).unwrap();
        fs::write(class.join(who).join("multiAgents.py"), file).unwrap();
    }
    let bob = class.join("bob/multiAgents.py");
    let q2 = format!("{TESTS}/q2");
    let said = "q2: 0 / 5: 6 of 6 tests failed (1-chains-depth-1, 2-chains-depth-2, 3-terminals, 4-tied-root, 5-choices, 6-win-at-ghost); PassAllTestsQuestion gives the question's points only when every test passes; multiAgents.py imports myUtils, which the grading Python, python3 (";
    let out = gametrace_no_color()
        .args(["test", &q2, "--against", &driver(bob.to_str().unwrap())])
        .assert()
        .code(1)
        .stdout(contains(said))
        .stdout(contains(
            "lacks (ModuleNotFoundError on 6 tests): install it there, or put the students' Python first on PATH\n0 passed, 6 failed",
        ))
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out)
            .matches("imports myUtils")
            .count(),
        1,
        "once a question"
    );
    let driver_path = format!("{}/adapters/python/gametrace_cs188.py", common::cli::ROOT);
    grade_q2(
        &class,
        dir.path(),
        &format!("python3 {driver_path} multiAgents.py {{tree_json}}"),
    )
    .assert()
    .success();
    let csv = fs::read_to_string(dir.path().join("grades/gradebook.csv")).unwrap();
    let bob_row = csv.lines().find(|l| l.starts_with("bob,")).unwrap();
    assert!(
        bob_row.contains(",\"imports myUtils, which python3 (")
            && bob_row.contains(") lacks; CRASHED "),
        "{csv}"
    );
    let alice_row = csv.lines().find(|l| l.starts_with("alice,")).unwrap();
    assert!(!alice_row.contains("imports"), "{csv}");
    let summary = fs::read_to_string(dir.path().join("grades/summary.txt")).unwrap();
    assert!(
        summary.contains("1 submission imports a module the grading Python lacks (install it there, or put the students' Python first on PATH): bob (imports myUtils, which python3 ("),
        "{summary}"
    );
}

/// A FAIL that is only a wrong move says so: the states agree, the student's action against
/// the reference's (it read "0 of 6 states missing (none), 0 extra (none)").
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_wrong_move_alone_says_the_moves_not_the_states() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let file = with_slips(dir.path(), &["last-best-action"]);
    // 4-tied-root: L and R are worth the same; the first, L, is the reference's.
    gametrace_no_color()
        .args([
            "test",
            &format!("{TESTS}/q2/4-tied-root.test"),
            "--against",
            &driver(&file),
        ])
        .assert()
        .code(1)
        .stdout(contains(
            "4-tied-root: visited: the 6 states visited match; only the chosen move differs: R, where the reference chooses L\n",
        ))
        .stdout(contains("states missing").not());
}

/// A question's CONFIG that does not read (not `key: "value"` lines; a weight that is not a
/// number) is an error before anything runs: the file, the line, what was expected and
/// found, a hint; exit 2.
#[test]
fn a_garbage_config_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let q2 = dir.path().join("q2");
    fs::create_dir_all(&q2).unwrap();
    for entry in fs::read_dir(format!("{TESTS}/q2")).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), q2.join(entry.file_name())).unwrap();
    }
    let config = q2.join("CONFIG");
    let shown = config.to_str().unwrap();
    for (text, said) in [
        (
            "max_points = 5\nclass PassAllTestsQuestion\n",
            vec![
                "error: a line the CS188 test format does not read".to_owned(),
                format!("--> {shown}:1:1"),
                "expected: `key: \"value\"` on one line".to_owned(),
                "found: `max_points = 5`".to_owned(),
                "hint: ".to_owned(),
            ],
        ),
        (
            "class: \"PassAllTestsQuestion\"\nmax_points: \"five\"\n",
            vec![
                "error: max_points \"five\" is not a number of points".to_owned(),
                format!("--> {shown}:2:1"),
                "expected: a number of points, 0 or more".to_owned(),
                "found: \"five\"".to_owned(),
                "hint: the course's CONFIG reads `max_points: \"5\"`".to_owned(),
            ],
        ),
    ] {
        fs::write(&config, text).unwrap();
        let mut assert = gametrace_no_color()
            .args(["test", q2.to_str().unwrap(), "--against", &driver(STUDENT)])
            .assert()
            .code(2)
            .stdout("");
        for s in said {
            assert = assert.stderr(contains(s));
        }
    }
}

/// The games played by the course's project are named in one note a run, not one a
/// question.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn the_played_games_are_noted_once_a_run() {
    common::cli::require("python3");
    let dir = tempfile::tempdir().unwrap();
    let q2 = q2_with_game(dir.path());
    let q3 = dir.path().join("test_cases/q3");
    fs::create_dir_all(&q3).unwrap();
    for entry in fs::read_dir(&q2).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), q3.join(entry.file_name())).unwrap();
    }
    let q3 = q3.to_str().unwrap();
    let out = gametrace_no_color()
        .args([
            "test",
            &q2,
            q3,
            "--project",
            PROJECT,
            "--against",
            &driver(STUDENT),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!("note: {q2}/9-pacman-game.test and {q3}/9-pacman-game.test are played by the course's project (--project), not searched by gametrace\n")
    );
}

#[test]
fn project_must_be_the_courses_folder() {
    gametrace_no_color()
        .args([
            "test",
            TESTS,
            "--project",
            "tests",
            "--against",
            &driver(STUDENT),
        ])
        .assert()
        .code(2)
        .stderr(contains("error: --project tests has no autograder.py"));
}

/// A question is graded whole: a run of some of its tests (one file named, `--case`) passes
/// those tests but gives the question none of its points, and says why; the whole folder
/// gives them. (A red team's finding: one passing test read "q2: 5 / 5".)
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_question_run_in_part_gets_no_points() {
    common::cli::require("python3");
    let q2 = "tests/fixtures/cs188/test_cases/q2";
    let one = format!("{q2}/1-chains-depth-1.test");
    for args in [vec![one.as_str()], vec![q2, "--case", "1-chains-depth-1"]] {
        gametrace_no_color()
            .arg("test")
            .args(&args)
            .args(["--against", &driver(STUDENT)])
            .assert()
            .success()
            .stdout(contains(
                "q2: 0 / 5: 5 of its 6 tests were left out of this run; PassAllTestsQuestion gives the question's points only when every test passes: run the whole folder",
            ))
            .stdout(contains("1 passed, 0 failed; score 0 / 5\n"));
    }
    gametrace_no_color()
        .args(["test", q2, "--against", &driver(STUDENT)])
        .assert()
        .success()
        .stdout(contains(
            "q2: 5 / 5: all 6 tests run pass\n6 passed, 0 failed; score 5 / 5\n",
        ));
}

/// `grade` runs the command in each submission's folder; the CS188 driver's `--project`,
/// written relative to where the TA runs gametrace (the chapter's `--project .` from the
/// project's folder), is still the project: a right submission gets its points (it read
/// "--project . has no util.py" on every tree, CRASHED, 0 points, exit 0).
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_relative_project_in_the_command_is_read_from_where_gametrace_runs() {
    common::cli::require("python3");
    let (dir, class) = class_of_alice();
    grade_q2(
        &class,
        dir.path(),
        &format!("python3 -m gametrace.cs188 multiAgents.py {{tree_json}} --project {PROJECT}"),
    )
    .assert()
    .success();
    let csv = fs::read_to_string(dir.path().join("grades/gradebook.csv")).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().starts_with("alice,5,5,5,"),
        "{csv}"
    );
}

/// A `--project` in the grader's command that is not the course's folder is the grader's
/// mistake: exit 2 before anything runs, with what is wrong and what to give, by `grade` and
/// `test` alike (each tree read CRASHED, a student's fault, 0 points, exit 0).
#[test]
fn a_project_that_is_not_the_course_folder_stops_before_grading() {
    let (dir, class) = class_of_alice();
    let q2 = format!("{TESTS}/q2");
    for (project, why) in [
        ("/nowhere/at/all".to_owned(), "is not a folder"),
        (dir.path().display().to_string(), "has no util.py"),
    ] {
        let line =
            format!("python3 -m gametrace.cs188 multiAgents.py {{tree_json}} --project {project}");
        grade_q2(&class, dir.path(), &line)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why))
            .stderr(predicates::str::contains(
                "hint: give the course's multiagent folder",
            ));
        assert!(
            !dir.path().join("grades").exists(),
            "grades written for {project}"
        );
        gametrace_no_color()
            .args(["test", &q2, "--against", &line])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
    }
}

/// A `--shell` line goes to sh as written: gametrace's built-in driver as a module, or a
/// relative driver `--project` (the student's folder, there), gave every student CRASHED and
/// 0 points with exit 0; both are refused before anything runs. The driver's own path with
/// the project's absolute one grades as without --shell.
#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn a_shell_line_the_cs188_driver_cannot_run_is_refused() {
    common::cli::require("python3");
    let (dir, class) = class_of_alice();
    let driver = format!("{}/adapters/python/gametrace_cs188.py", common::cli::ROOT);
    let grade = |line: &str| {
        let mut c = grade_q2(&class, dir.path(), line);
        c.arg("--shell");
        c
    };
    for (line, why) in [
        (
            format!("python3 -m gametrace.cs188 multiAgents.py {{trees}} --project {PROJECT}"),
            "`-m gametrace.cs188` in a --shell line",
        ),
        (
            format!("python3 {driver} multiAgents.py {{trees}} --project ."),
            "--project . in a --shell line",
        ),
    ] {
        grade(&line)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why))
            .stderr(predicates::str::contains("hint: "));
        assert!(
            !dir.path().join("grades").exists(),
            "grades written for {line}"
        );
    }
    let root = std::path::absolute(PROJECT).unwrap();
    grade(&format!(
        "python3 {driver} multiAgents.py {{trees}} --project {}",
        root.display()
    ))
    .assert()
    .success();
    let csv = fs::read_to_string(dir.path().join("grades/gradebook.csv")).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().starts_with("alice,5,5,5,"),
        "{csv}"
    );
}

/// A class folder of one, alice, with the right `multiAgents.py`: the folder it lies in (kept
/// until dropped, for `--out` too) and the class's path.
fn class_of_alice() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    fs::create_dir_all(class.join("alice")).unwrap();
    fs::copy(STUDENT, class.join("alice/multiAgents.py")).unwrap();
    (dir, class)
}

/// `grade` of `class` on gametrace's q2 trees with `--against line`, the grades under
/// `dir/grades`.
fn grade_q2(class: &Path, dir: &Path, line: &str) -> assert_cmd::Command {
    let mut c = gametrace_no_color();
    c.args([
        "grade",
        class.to_str().unwrap(),
        "--specs",
        &format!("{TESTS}/q2"),
    ])
    .arg("--out")
    .arg(dir.join("grades"))
    .args(["--against", line]);
    c
}

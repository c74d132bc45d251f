//! `gametrace export`: the tree as SML (compiled by SML/NJ against a minimal ExplicitGame),
//! as a Python module (imported and run) and as JSON (checked against its schema).

use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;

mod common;
use common::cli::{gametrace, require};

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
const S14_BIG: &str = "specs/15150-s14/handout-big.yaml";

fn export(args: &[&str]) -> String {
    let out = gametrace()
        .arg("export")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Compiles `export` (structure `name`) under SML/NJ after the minimal ExplicitGame and
/// returns what the inspection printed: `minimax <v>` and `names <n1 n2 ...>`.
fn run_sml(export: &str, name: &str) -> String {
    require("sml");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("exported.sml");
    std::fs::write(&file, export).unwrap();
    let driver = dir.path().join("driver.sml");
    std::fs::write(
        &driver,
        format!(
            "structure I = Inspect ({name});\n\
             val () = print (\"minimax \" ^ Int.toString (I.minimax ({name}.start, true)) ^ \"\\n\");\n\
             val () = print (\"names \" ^ String.concatWith \" \" (I.names {name}.start) ^ \"\\n\");\n\
             val () = OS.Process.exit OS.Process.success;\n"
        ),
    )
    .unwrap();
    let out = std::process::Command::new("sml")
        .arg(Path::new("tests/fixtures/sml/explicit-game.sml"))
        .arg(&file)
        .arg(&driver)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        !text.contains("Error") && !text.contains("uncaught exception"),
        "SML/NJ did not accept the export:\n{text}\n--- export ---\n{export}"
    );
    text
}

#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn the_sml_export_of_the_handout_trees_compiles_and_is_the_same_tree() {
    require("sml");
    // The handouts' values: HandoutSmall's root is worth 4 (Figure 5), HandoutBig's 3
    // (Figure 4's "value of (Maxie,a) is Guess: 3").
    let small = export(&[S14_SMALL, "--to", "sml"]);
    assert!(small.contains(
        "structure HandoutSmall : GAME = ExplicitGame (struct\n  open GameTree\n  val tree =\n"
    ));
    assert!(small.contains("Node (\"b\", [Esti (\"c\", 3), Esti (\"d\", 6), Esti (\"e\", ~2)]),\n"));
    let out = run_sml(&small, "HandoutSmall");
    assert!(out.contains("minimax 4\n"), "{out}");
    assert!(out.contains("names a b c d e f g h i j k l m\n"), "{out}");

    let big = export(&[S14_BIG, "--to", "sml", "--name", "MyBig"]);
    let out = run_sml(&big, "MyBig");
    assert!(out.contains("minimax 3\n"), "{out}");
    assert!(
        out.contains("names a b c d e f g h i j k l m n o p q r s t u v w x y\n"),
        "{out}"
    );
}

#[test]
#[cfg_attr(
    not(all(gametrace_sml, gametrace_python3)),
    ignore = "needs SML/NJ (sml) and python3: apt-get install smlnj"
)]
fn awkward_names_and_a_generated_tree_survive_the_sml_export() {
    require("sml");
    require("python3");
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("odd names.yaml");
    std::fs::write(
        &spec,
        "tree:\n  'say \"hi\"':\n    'back\\slash': -9223372036854775807\n    'café': {x: 0, y: ~3}\n\
         cases: {ab: {algorithm: alphabeta, root_player: Minnie}}\n",
    )
    .unwrap();
    let text = export(&[spec.to_str().unwrap(), "--to", "sml"]);
    assert!(text.contains("structure OddNames : GAME"), "{text}");
    // SML/NJ's default int is 63 bits, so it cannot hold the big leaf: the literal is
    // checked as text, and the arithmetic done on a copy where that leaf is ~7. The
    // inspection puts Maxie at the root: max(~7, min(0, ~3)) = ~3.
    assert!(
        text.contains("Esti (\"back\\\\slash\", ~9223372036854775807)"),
        "{text}"
    );
    assert!(text.contains("Node (\"caf\\195\\169\", [Esti (\"x\", 0), Esti (\"y\", ~3)])"));
    let fits = text.replace("~9223372036854775807", "~7");
    let out = run_sml(&fits, "OddNames");
    assert!(out.contains("minimax ~3\n"), "{out}");
    assert!(
        out.contains("names say \"hi\" back\\slash café x y\n"),
        "{out}"
    );

    let spec = dir.path().join("wide.yaml");
    std::fs::write(
        &spec,
        "tree: {generate: {branching: 4, depth: 5, seed: 3, min: -20, max: 20}}\n\
         cases: {ab: {algorithm: alphabeta}}\n",
    )
    .unwrap();
    let sml = export(&[spec.to_str().unwrap(), "--to", "sml"]);
    let python = export(&[spec.to_str().unwrap(), "--to", "python"]);
    let out = run_sml(&sml, "Wide");
    let py = run_python(&python, "print(m.minimax_value())");
    // Two independent evaluations of the exported tree agree.
    let value = py.trim().replace('-', "~");
    assert!(out.contains(&format!("minimax {value}\n")), "{out} vs {py}");
    let names = out.lines().find(|l| l.starts_with("names ")).unwrap();
    assert_eq!(names.split(' ').count(), 1 + 1365);
}

fn run_python(module: &str, code: &str) -> String {
    require("python3");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("exported.py"), module).unwrap();
    let out = std::process::Command::new("python3")
        .args(["-c", &format!("import exported as m\n{code}")])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[cfg_attr(not(gametrace_python3), ignore = "needs python3")]
fn the_python_export_is_an_aima_and_cs188_style_module() {
    require("python3");
    let module = export(&[S14_SMALL, "--to", "python"]);
    let out = run_python(
        &module,
        "g = m.TreeGame()\n\
         print(g.initial, g.actions('a'), g.result('a', 1), g.to_move('a'), g.to_move('f'))\n\
         print(g.terminal_test('h'), g.utility('h', 'MAX'), g.utility('h', 'MIN'))\n\
         print(m.successors('j'), m.evaluation('l'))\n\
         print(m.TREE[1][0])\n\
         print(m.minimax_value(), m.ROOT_MOVE_NAMES)\n",
    );
    assert_eq!(
        out,
        "a [0, 1, 2] f MAX MIN\n\
         True 4 -4\n\
         [(0, 'k'), (1, 'l'), (2, 'm')] 30\n\
         ('b', [('c', 3), ('d', 6), ('e', -2)])\n\
         4 ['left', 'middle', 'right']\n"
    );
    // Run as a script, it lists the tree.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.py"), &module).unwrap();
    let listing = std::process::Command::new("python3")
        .arg("small.py")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    assert!(
        listing.contains("  a (MAX): 0 -> b, 1 -> f, 2 -> j\n"),
        "{listing}"
    );
    assert!(listing.contains("  e: -2\n"), "{listing}");
    assert!(listing.ends_with("minimax value of a: 4\n"), "{listing}");
}

#[test]
fn the_python_export_refuses_duplicate_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("dup.yaml"),
        "tree: {a: {b: {c: 1}, d: {c: 2}}}\ncases: {ab: {algorithm: alphabeta}}\n",
    )
    .unwrap();
    gametrace()
        .args(["export", "dup.yaml", "--to", "python"])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(contains("node name `c` is used twice"));
    // SML and JSON have no trouble with them.
    gametrace()
        .args(["export", "dup.yaml", "--to", "sml"])
        .current_dir(dir.path())
        .assert()
        .success();
}

#[test]
fn the_json_export_matches_its_committed_schema() {
    let text = export(&[S14_SMALL, "--to", "json", "--case", "jamboree"]);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["prune_percentage"], 0.5);
    assert_eq!(doc["tree"]["children"][2]["children"][1]["value"], 30);
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("schema/tree.schema.json").unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // And the committed schema is the one the code generates.
    assert_eq!(
        std::fs::read_to_string("schema/tree.schema.json").unwrap(),
        gametrace::export::tree_schema(),
        "schema/tree.schema.json is stale: run `gametrace schema --write`"
    );
}

#[test]
fn a_bad_structure_name_is_refused() {
    gametrace()
        .args(["export", S14_SMALL, "--to", "sml", "--name", "1bad"])
        .assert()
        .code(2)
        .stderr(contains("`--name` must be an SML structure name"));
}

#[test]
fn the_json_export_loads_back_in_run_validate_and_show() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.json");
    std::fs::write(
        &file,
        export(&[S14_BIG, "--to", "json", "--case", "alphabeta"]),
    )
    .unwrap();
    // The same trace as the case it came from: Figure 4.
    let reference = gametrace()
        .args(["run", S14_BIG, "--case", "alphabeta"])
        .output()
        .unwrap()
        .stdout;
    gametrace()
        .arg("run")
        .arg(&file)
        .assert()
        .success()
        .stdout(String::from_utf8(reference).unwrap());
    gametrace()
        .arg("validate")
        .arg(&file)
        .assert()
        .success()
        .stdout(contains("valid"));
    gametrace()
        .args(["show", "--color", "never"])
        .arg(&file)
        .assert()
        .success()
        .stdout(contains("▲ a  =3"));
    // A document of another format says what it expected, at its place.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("gametrace-tree", "some-other-tree");
    std::fs::write(&file, text).unwrap();
    gametrace()
        .arg("run")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("unknown document format").and(contains("big.json:1:11")));
}

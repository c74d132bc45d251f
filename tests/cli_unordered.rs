//! Lines that may come in any order, as a user meets them: a case with `unordered: parallel`
//! accepts a real parallel Jamboree (Python threads printing each child's block as it ends),
//! still catches a wrong line and names a mistake; an expected file with `CHECK-UNORDERED`
//! and `CHECK-NOT` checks in `diff` and `test`; bad settings and bad checks are exit 2.

use predicates::str::contains;
use std::path::Path;

mod common;
use common::cli::gametrace;

const ANY_ORDER: &str = "tests/fixtures/specs/any-order.yaml";

fn parallel_python(order: &str) -> String {
    format!("python3 tests/fixtures/python/jamboree_s14.py {{tree_json}} {order}")
}

fn run(spec: &str, case: &str) -> String {
    let out = gametrace()
        .args(["run", spec, "--case", case])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_parallel_jamboree_passes_whatever_order_its_children_finish_in() {
    for case in ["jamboree-0", "jamboree-0.5"] {
        for order in ["reverse", "completion"] {
            gametrace()
                .args([
                    "check",
                    ANY_ORDER,
                    "--case",
                    case,
                    "--cmd",
                    &parallel_python(order),
                ])
                .assert()
                .success()
                .stdout(contains("PASS: full: all"));
        }
    }
    // The same output, where the case wants the reference's order: a FAIL, and the diagnosis
    // says what it is and how to accept it.
    gametrace()
        .args([
            "check",
            ANY_ORDER,
            "--case",
            "jamboree-0-in-order",
            "--cmd",
            &parallel_python("reverse"),
        ])
        .assert()
        .code(1)
        .stdout(contains("actual: G: state (Minnie,n)"))
        .stdout(contains("diagnosis: this output is the reference's with the children of parallel phases printed in another order, as a parallel implementation may print them; `unordered: parallel` in the case accepts that"));
    let out = gametrace()
        .args([
            "check",
            ANY_ORDER,
            "--case",
            "jamboree-0-in-order",
            "--cmd",
            &parallel_python("reverse"),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = &json["cases"][0]["diagnosis"]["finding"];
    assert_eq!(finding, "reordered", "{json}");
}

#[test]
fn a_mistake_in_a_parallel_jamboree_is_still_named() {
    let cmd = format!("{} fold-from-start", parallel_python("reverse"));
    gametrace()
        .args(["check", ANY_ORDER, "--case", "jamboree-0.5", "--cmd", &cmd])
        .assert()
        .code(1)
        .stdout(contains("diagnosis: this output is exactly what the reference prints with the mistake jamboree-fold-from-start"));
}

/// HandoutBig's trace split at the root's two children: `lines[1..=b_end]` is b's block,
/// `lines[b_end + 1..end]` n's, and `lines[end..]` the root's last lines.
fn root_blocks(trace: &str) -> (Vec<&str>, usize, usize) {
    let lines: Vec<&str> = trace.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with("Result of (Maxie,a)"))
        .unwrap();
    let b_end = lines
        .iter()
        .position(|l| l.starts_with("Result of (Minnie,b)"))
        .unwrap();
    assert!(lines[b_end + 1].starts_with("G: state (Minnie,n)"));
    (lines, b_end, end)
}

/// The reference trace of `case` with the root's two children swapped, and `f[5]` printed as
/// `f[6]` if `wrong`.
fn root_children_swapped(case: &str, wrong: bool) -> String {
    let trace = run(ANY_ORDER, case);
    let (lines, b_end, end) = root_blocks(&trace);
    let mut out: Vec<&str> = vec![lines[0]];
    out.extend(&lines[b_end + 1..end]);
    out.extend(&lines[1..=b_end]);
    out.extend(&lines[end..]);
    let text = out.join("\n") + "\n";
    if wrong {
        text.replace("Estimating state f[5]", "Estimating state f[6]")
    } else {
        text
    }
}

#[test]
fn a_wrong_line_in_a_moved_block_is_the_first_divergence() {
    let text = root_children_swapped("jamboree-0", true);
    let line = text
        .lines()
        .position(|l| l == "Estimating state f[6]")
        .unwrap()
        + 1;
    gametrace()
        .args(["check", ANY_ORDER, "--case", "jamboree-0", "--actual", "-"])
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout(contains(
            "first divergence at node f: child 1 of d, depth 4, Maxie to move (a leaf)",
        ))
        .stdout(contains("expected: Estimating state f[5]"))
        .stdout(contains(format!(
            "actual: Estimating state f[6]   (line {line})"
        )))
        .stdout(contains(
            "full: 1 of 65 reference trace lines unmatched, 1 unmatched in the output",
        ));
    // In `terminals`, the same: the estimates of a moved block in their new place.
    gametrace()
        .args([
            "check",
            ANY_ORDER,
            "--case",
            "jamboree-0",
            "--actual",
            "-",
            "--mode",
            "terminals",
        ])
        .write_stdin(root_children_swapped("jamboree-0", false))
        .assert()
        .success();
}

#[test]
fn a_game_case_accepts_its_parallel_children_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("nim.yaml");
    std::fs::write(
        &spec,
        "game: nim\nposition: 3\ncases:\n  mm:\n    algorithm: minimax\n    depth: 2\n    unordered: parallel\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let trace = run(spec, "mm");
    let l: Vec<&str> = trace.lines().collect();
    assert_eq!(
        l[1],
        "G: state (Minnie,2) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))"
    );
    assert_eq!(
        l[9],
        "G: state (Minnie,1) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))"
    );
    assert_eq!(
        l[14],
        "G: state (Minnie,0) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))"
    );
    // The root's children last to first, and (Minnie,2)'s two children swapped too.
    let order = [
        0, 14, 15, 16, 9, 10, 11, 12, 13, 1, 5, 6, 7, 2, 3, 4, 8, 17, 18, 19, 20,
    ];
    assert_eq!(order.len(), l.len());
    let reordered: String = order.iter().map(|&i| format!("{}\n", l[i])).collect();
    gametrace()
        .args(["check", spec, "--case", "mm", "--actual", "-"])
        .write_stdin(reordered.clone())
        .assert()
        .success();
    // A block cut in two is no order of the children.
    let broken: String = [
        0, 1, 2, 14, 15, 16, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 18, 19, 20,
    ]
    .iter()
    .map(|&i| format!("{}\n", l[i]))
    .collect();
    gametrace()
        .args(["check", spec, "--case", "mm", "--actual", "-"])
        .write_stdin(broken)
        .assert()
        .code(1)
        // Three lines agree; the fourth is where (Minnie,0)'s block cuts into (Minnie,2)'s.
        .stdout(contains("first divergence at state 1: depth 2, Maxie to move; moves from the searched position: 1, 1"))
        .stdout(contains("actual: G: state (Minnie,0) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))   (line 4)"));
}

/// An expected file for HandoutBig's `jamboree-0` with the root's children in a
/// `CHECK-UNORDERED` group, and the extra lines `extra` at its end.
fn checks_file(dir: &Path, extra: &str) -> std::path::PathBuf {
    let trace = run(ANY_ORDER, "jamboree-0");
    let (lines, b_end, end) = root_blocks(&trace);
    let mut out = vec![lines[0], "CHECK-UNORDERED", "CHECK-BLOCK"];
    out.extend(&lines[1..=b_end]);
    out.push("CHECK-BLOCK");
    out.extend(&lines[b_end + 1..end]);
    out.push("CHECK-END");
    out.extend(&lines[end..]);
    let path = dir.join("jamboree-0.trace");
    std::fs::write(&path, out.join("\n") + "\n" + extra).unwrap();
    path
}

#[test]
fn diff_follows_the_expected_files_checks() {
    let dir = tempfile::tempdir().unwrap();
    let expected = checks_file(dir.path(), "CHECK-NOT: (Maxie,zz)\n");
    let actual = dir.path().join("out.txt");
    std::fs::write(&actual, root_children_swapped("jamboree-0", false)).unwrap();
    gametrace()
        .arg("diff")
        .args([&expected, &actual])
        .assert()
        .success()
        .stdout("same: 65 lines compared (blank lines and spacing ignored; the expected file's checks: 1 group in any order, 1 CHECK-NOT)\n");
    // A wrong value in the moved block: the first difference is that line, in both files.
    std::fs::write(&actual, root_children_swapped("jamboree-0", true)).unwrap();
    gametrace()
        .arg("diff")
        .args([&expected, &actual])
        .assert()
        .code(1)
        .stdout(contains("-Estimating state f[5]\n+Estimating state f[6]\n"))
        .stdout(contains("2 lines differ: 1 only in"))
        .stdout(contains("first difference: line 11 of"))
        .stdout(contains("line 39 of"));
    // A state the file says is never visited.
    let expected = checks_file(
        dir.path(),
        "CHECK-NOT: (Minnie,zz)\nCHECK-NOT: (Maxie,zz)\n",
    );
    std::fs::write(
        &actual,
        root_children_swapped("jamboree-0", false).replace("(Maxie,y)", "(Maxie,zz)"),
    )
    .unwrap();
    gametrace()
        .arg("diff")
        .args([&expected, &actual])
        .assert()
        .code(1)
        .stdout(contains(
            "`(Maxie,zz)` must never be printed, but line 26 of",
        ))
        .stdout(contains("prints it: F: state (Maxie,zz) with ab="));
}

#[test]
fn the_shipped_checks_file_takes_the_reference_and_a_parallel_run() {
    // tests/fixtures/expected/any-order-jamboree-0.trace: HandoutBig's jamboree-0 trace with
    // the root's two children in a CHECK-UNORDERED group, written by hand.
    let expected = "tests/fixtures/expected/any-order-jamboree-0.trace";
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("reference.txt", run(ANY_ORDER, "jamboree-0")),
        ("swapped.txt", root_children_swapped("jamboree-0", false)),
    ] {
        let actual = dir.path().join(name);
        std::fs::write(&actual, text).unwrap();
        gametrace()
            .arg("diff")
            .arg(expected)
            .arg(&actual)
            .assert()
            .success()
            .stdout(contains("same: 65 lines compared"));
    }
}

#[test]
fn malformed_checks_are_exit_2_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let expected = dir.path().join("bad.trace");
    std::fs::write(&expected, "a\n  CHECK-UNORDERD\nb\n").unwrap();
    let actual = dir.path().join("out.txt");
    std::fs::write(&actual, "a\nb\n").unwrap();
    gametrace()
        .arg("diff")
        .args([&expected, &actual])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("error: unknown check `CHECK-UNORDERD`"))
        .stderr(contains("bad.trace:2:3"))
        .stderr(contains("hint: did you mean `CHECK-UNORDERED`?"));
    std::fs::write(&expected, "a\nCHECK-UNORDERED\nb\n").unwrap();
    gametrace()
        .arg("diff")
        .args([&expected, &actual])
        .assert()
        .code(2)
        .stderr(contains("error: `CHECK-UNORDERED` is never closed"))
        .stderr(contains("bad.trace:2:1"));
}

#[test]
fn test_compares_through_the_checks_and_bless_leaves_them() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(dir.path().join("expected/any-order")).unwrap();
    std::fs::create_dir_all(&specs).unwrap();
    let spec = specs.join("any-order.yaml");
    let text = std::fs::read_to_string(ANY_ORDER).unwrap();
    // Only the case the checks file is for.
    let cut = text.find("  jamboree-0.5:").unwrap();
    std::fs::write(&spec, &text[..cut]).unwrap();
    let written = checks_file(
        &dir.path().join("expected/any-order"),
        "CHECK-NOT: (Maxie,zz)\n",
    );
    let hand_written = std::fs::read_to_string(&written).unwrap();
    gametrace()
        .arg("test")
        .arg(&specs)
        .assert()
        .success()
        .stdout(contains("PASS    "));
    // A file that says y is never visited (its three lines left out): the reference visits
    // it, so the case fails, and --bless does not rewrite a file of hand-written checks.
    let forbids_y: String = hand_written
        .lines()
        .filter(|l| !l.contains("(Maxie,y)") && !l.contains("y[6]"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("CHECK-NOT: (Maxie,zz)", "CHECK-NOT: (Maxie,y)");
    assert_eq!(forbids_y.lines().count(), hand_written.lines().count() - 3);
    std::fs::write(&written, &forbids_y).unwrap();
    gametrace()
        .arg("test")
        .arg(&specs)
        .arg("--bless")
        .assert()
        .code(1)
        .stdout(contains(
            "`(Maxie,y)` must never be printed, but line 56 of gametrace run",
        ))
        .stdout(contains("--bless leaves"));
    assert_eq!(std::fs::read_to_string(&written).unwrap(), forbids_y);
    // A checks file the reference breaks in a line: the diff, with the group in its order.
    let wrong = hand_written.replace("Estimating state f[5]", "Estimating state f[6]");
    std::fs::write(&written, &wrong).unwrap();
    gametrace()
        .arg("test")
        .arg(&specs)
        .assert()
        .code(1)
        .stdout(contains("-Estimating state f[6]\n+Estimating state f[5]\n"));
    // A malformed one is an error naming the file and line.
    std::fs::write(&written, "CHECK-END\n").unwrap();
    gametrace()
        .arg("test")
        .arg(&specs)
        .assert()
        .code(2)
        .stdout(contains("`CHECK-END` with no group to close"))
        .stdout(contains("jamboree-0.trace:1:1"));
}

#[test]
fn the_setting_is_checked_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("s.yaml");
    std::fs::write(
        &spec,
        "tree: {a: {b: 1, c: 2}}\ncases:\n  ab:\n    algorithm: alphabeta\n    unordered: parallel\n  mm:\n    algorithm: minimax\n    unordered: paralel\n",
    )
    .unwrap();
    gametrace()
        .arg("validate")
        .arg(&spec)
        .assert()
        .code(2)
        .stdout(contains(
            "warning: `unordered: parallel` changes nothing here",
        ))
        .stdout(contains("s.yaml:5:16"))
        .stdout(contains("error: unknown `unordered` setting"))
        .stdout(contains("s.yaml:8:16"))
        .stdout(contains("did you mean `parallel`?"));
}

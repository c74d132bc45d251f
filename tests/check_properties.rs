//! Property tests for checking: the diff engine is a correct edit script whatever the input,
//! a case's own reference trace passes every mode, and a single changed line is found where
//! it was changed.

use gametrace::check::trace::{check, Mode, TreeCase};
use gametrace::diff::{self, Palette};
use gametrace::spec::{self, Document};
use proptest::prelude::*;
use similar::DiffTag;
use std::path::Path;

fn apply(old: &[String], new: &[String], d: &diff::LineDiff) -> Vec<String> {
    let mut out = Vec::new();
    for op in &d.ops {
        let (tag, o, n) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {
                assert_eq!(old[o.clone()], new[n.clone()]);
                out.extend_from_slice(&old[o]);
            }
            _ => out.extend_from_slice(&new[n]),
        }
    }
    out
}

proptest! {
    #[test]
    fn the_diff_rebuilds_the_new_side_and_counts_its_changes(
        old in prop::collection::vec(0u8..6, 0..60),
        new in prop::collection::vec(0u8..6, 0..60),
    ) {
        let old: Vec<String> = old.iter().map(|x| format!("line {x}")).collect();
        let new: Vec<String> = new.iter().map(|x| format!("line {x}")).collect();
        let d = diff::diff(&old, &new, diff::DEFAULT_DEADLINE);
        prop_assert_eq!(apply(&old, &new, &d), new.clone());
        let kept: usize = d.ops.iter().filter(|o| o.tag() == DiffTag::Equal).map(|o| o.old_range().len()).sum();
        prop_assert_eq!(d.removed, old.len() - kept);
        prop_assert_eq!(d.added, new.len() - kept);
        prop_assert_eq!(d.is_same(), old == new);
    }
}

fn generated(branching: u32, depth: u32, seed: u64, algorithm: &str) -> spec::Spec {
    let extra = if algorithm == "jamboree" {
        "\n    prune_percentage: 0.5"
    } else {
        ""
    };
    let text = format!(
        "tree: {{generate: {{branching: {branching}, depth: {depth}, seed: {seed}}}}}\ncases:\n  c:\n    algorithm: {algorithm}{extra}\n"
    );
    match spec::load_str(Path::new("gen.yaml"), &text).unwrap() {
        Document::Tree(s) => s,
        _ => unreachable!(),
    }
}

/// [`generated`], its case printing in `dialect` (with that year's rules).
fn generated_in(
    branching: u32,
    depth: u32,
    seed: u64,
    algorithm: &str,
    dialect: &str,
) -> spec::Spec {
    let mut s = generated(branching, depth, seed, algorithm);
    let d = gametrace::trace::Dialect::parse(dialect).unwrap();
    let case = &mut s.cases[0];
    case.dialect = d;
    case.rules = if dialect == "s12" {
        gametrace::spec::Rules::S12
    } else {
        gametrace::spec::Rules::S14
    };
    case.style = gametrace::trace::Style::new(d);
    s
}

/// Can `case` be checked in `mode`? Every mode reads every case but `visited`, which needs a
/// line that names a state: where the case prints none, `check` says so (an `Err`), and
/// nowhere else may it fail. A property counts a case only once `check` has judged it, so a
/// `check` that failed on every case would fail the property instead of passing it unchecked.
fn checkable(case: &spec::Case, mode: Mode) -> bool {
    use gametrace::trace::LineKind;
    mode != Mode::Visited
        || [
            LineKind::Search,
            LineKind::Enter,
            LineKind::Estimate,
            LineKind::Result,
        ]
        .into_iter()
        .any(|k| case.style.lines.contains(k))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_reference_trace_passes_every_mode_in_every_dialect(
        branching in 1u32..4,
        depth in 1u32..5,
        seed in 0u64..1000,
        algorithm in prop::sample::select(vec!["minimax", "alphabeta", "jamboree"]),
        dialect in prop::sample::select(vec!["s14", "s12", "repl"]),
    ) {
        let s = generated_in(branching, depth, seed, algorithm, dialect);
        let case = s.cases[0].clone();
        let trace = gametrace::run::trace_of(&s, &case);
        for mode in Mode::ALL {
            let r = check(&TreeCase { spec: &s, case: &case }, mode, &trace, ("ref", "out"), Palette { color: false }, false)
                .map_err(|e| TestCaseError::fail(format!("{mode}: {e}")))?;
            prop_assert!(r.passed, "{mode}: {}\n{}", r.summary, r.details("out"));
        }
    }

    #[test]
    fn one_changed_line_is_the_first_divergence(
        depth in 2u32..5,
        seed in 0u64..1000,
        pick in 0usize..10_000,
    ) {
        let s = generated(3, depth, seed, "alphabeta");
        let case = s.cases[0].clone();
        let trace = gametrace::run::trace_of(&s, &case);
        let mut lines: Vec<String> = trace.lines().map(str::to_owned).collect();
        let i = pick % lines.len();
        lines[i].push_str(" (changed)");
        let text = lines.join("\n");
        let r = check(&TreeCase { spec: &s, case: &case }, Mode::Full, &text, ("ref", "out"), Palette { color: false }, false)
            .map_err(TestCaseError::fail)?;
        prop_assert!(!r.passed);
        let d = r.divergence.unwrap();
        prop_assert_eq!(d.actual_line, Some(i + 1));
        prop_assert_eq!(&d.actual, &lines[i]);
    }
}

mod common;
use common::Shape;

/// Pieces of awkward node names: runs of spaces, Unicode spaces and line separators, and
/// the very words trace lines are read by.
const PIECES: [&str; 16] = [
    "a",
    "  ",
    " ",
    "\u{2028}",
    "\u{a0}",
    "[2]",
    ") is ",
    ") with ab=",
    ",",
    "(",
    "Leaf(",
    "- ",
    "= ",
    "val it = ",
    "é",
    "\"#\\",
];

/// A tree spec whose node names are built from `PIECES` (with a number to keep them apart),
/// written as YAML double-quoted keys.
fn awkward_spec(shape: &Shape, picks: &[Vec<usize>], dialect: &str) -> String {
    fn write(shape: &Shape, picks: &[Vec<usize>], next: &mut usize, out: &mut String) {
        let i = *next;
        *next += 1;
        let pieces = &picks[i % picks.len()];
        let name: String = pieces
            .iter()
            .map(|&p| PIECES[p % PIECES.len()])
            .collect::<String>()
            + &i.to_string();
        out.push_str(&serde_json::to_string(&name).unwrap());
        out.push_str(": ");
        match shape {
            Shape::Leaf(v) => out.push_str(&v.to_string()),
            Shape::Node(children) => {
                out.push('{');
                for (k, c) in children.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    write(c, picks, next, out);
                }
                out.push('}');
            }
        }
    }
    let mut tree = String::new();
    write(shape, picks, &mut 0, &mut tree);
    let rules = if dialect == "s12" { "s12" } else { "s14" };
    format!(
        "tree: {{{tree}}}\ncases:\n  c:\n    algorithm: alphabeta\n    dialect: {dialect}\n    rules: {rules}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Whatever names `validate` accepts, the reference's own trace passes every mode: the
    /// reference is read exactly as the output is.
    #[test]
    fn a_reference_trace_passes_every_mode_whatever_the_names(
        shape in common::shape(),
        picks in prop::collection::vec(prop::collection::vec(0usize..PIECES.len(), 0..4), 1..12),
        dialect in prop::sample::select(vec!["s14", "s12", "repl"]),
    ) {
        let text = awkward_spec(&shape, &picks, dialect);
        let doc = spec::load_str(Path::new("names.yaml"), &text);
        let Ok(Document::Tree(s)) = doc else {
            return Err(TestCaseError::fail(format!("not accepted: {doc:?}\n{text}")));
        };
        let case = s.cases[0].clone();
        let trace = gametrace::run::trace_of(&s, &case);
        for mode in Mode::ALL {
            let r = check(&TreeCase { spec: &s, case: &case }, mode, &trace, ("ref", "out"), Palette { color: false }, false)
                .map_err(|e| TestCaseError::fail(format!("{mode}: {e}")))?;
            prop_assert!(r.passed, "{mode}: {}\n{}\n{text}", r.summary, r.details("out"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Whatever lines a case's figure prints, the handout's code prints them all; that whole
    /// output passes every mode but `full` (which compares the figure's lines, and passes the
    /// case's own trace). Fuzzing found the S12 root's `Therefore value of (Maxie,a)` counted as
    /// an extra visited state when a case left out `search` lines.
    #[test]
    fn the_handouts_whole_output_passes_the_other_modes_whatever_the_case_prints(
        branching in 1u32..4,
        depth in 1u32..4,
        seed in 0u64..1000,
        algorithm in prop::sample::select(vec!["minimax", "alphabeta", "jamboree"]),
        dialect in prop::sample::select(vec!["s14", "s12", "repl"]),
        keep in prop::collection::vec(any::<bool>(), 8),
    ) {
        let mut s = generated_in(branching, depth, seed, algorithm, dialect);
        let case = &mut s.cases[0];
        let all = gametrace::trace::LineSet::all_of(case.dialect);
        let mut everything = case.clone();
        case.style.lines = all.iter_kinds().zip(keep.iter().cycle()).filter(|(_, &k)| k).map(|(kind, _)| kind).collect();
        let case = s.cases[0].clone();
        everything.style.lines = all;
        let own = gametrace::run::trace_of(&s, &case);
        let whole = gametrace::run::trace_of(&s, &everything);
        for mode in Mode::ALL {
            let trace = if mode == Mode::Full { &own } else { &whole };
            let checked = check(&TreeCase { spec: &s, case: &case }, mode, trace, ("ref", "out"), Palette { color: false }, false);
            match (checked, checkable(&case, mode)) {
                (Ok(r), true) => prop_assert!(r.passed, "{mode} with lines {:?}: {}\n{}", case.style.lines, r.summary, r.details("out")),
                (Err(e), false) => prop_assert!(e.contains("nothing to compare"), "{mode} with lines {:?}: {e}", case.style.lines),
                (Ok(r), false) => return Err(TestCaseError::fail(format!("{mode} with lines {:?} checked a case that prints no state: {}", case.style.lines, r.summary))),
                (Err(e), true) => return Err(TestCaseError::fail(format!("{mode} with lines {:?}: {e}", case.style.lines))),
            }
        }
    }
}

/// Every tree spec the project ships (under `specs/` and `tests/fixtures/`, the fuzzers' seeds):
/// each case's own trace passes every check mode, as the `spec_run` fuzz target asserts. `full`
/// reads the lines the case prints; the other modes get every line of the dialect.
#[test]
fn every_shipped_tree_case_passes_its_own_trace_in_every_mode() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(Path::new("specs"), &mut files);
    walk(Path::new("tests/fixtures"), &mut files);
    files.sort();
    let mut failures = Vec::new();
    let (mut checked, mut not_checkable) = (0, 0);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(Document::Tree(s)) = spec::load_str(f, &text) else {
            continue;
        };
        if s.tree.len() > 20_000 {
            continue;
        }
        for case in &s.cases {
            let game = gametrace::game::tree::TreeGame::new(&s.tree, case.root_player);
            let mut everything = case.clone();
            everything.style.lines = gametrace::trace::LineSet::all_of(case.dialect);
            let traces: Vec<String> = [case, &everything]
                .into_iter()
                .map(|c| {
                    let (bytes, _) = gametrace::run::trace_game_within(&game, c, Vec::new(), None)
                        .unwrap()
                        .unwrap();
                    String::from_utf8(bytes).unwrap()
                })
                .collect();
            for mode in Mode::ALL {
                let trace = if mode == Mode::Full {
                    &traces[0]
                } else {
                    &traces[1]
                };
                let at = format!("{} case {} mode {mode}", f.display(), case.name);
                match check(
                    &TreeCase { spec: &s, case },
                    mode,
                    trace,
                    ("ref", "out"),
                    Palette { color: false },
                    false,
                ) {
                    Ok(r) if !checkable(case, mode) => failures.push(format!(
                        "{at}: checked, but the case prints no state: {}",
                        r.summary
                    )),
                    Ok(r) => {
                        checked += 1;
                        if !r.passed {
                            failures.push(format!("{at}: {}\n{}", r.summary, r.details("out")));
                        }
                    }
                    Err(e) if checkable(case, mode) || !e.contains("nothing to compare") => {
                        failures.push(format!("{at}: {e}"))
                    }
                    Err(_) => not_checkable += 1,
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 100,
        "only {checked} case-modes checked ({not_checkable} not checkable)"
    );
}

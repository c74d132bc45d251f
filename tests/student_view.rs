//! Non-interference: nothing derived from a hidden answer reaches the student.
//!
//! - **What a program receives** ([`gametrace::spec::public::handout`]: each placeholder's
//!   value and the files they name) is the same whatever the answer: for every shipped spec
//!   (trees, games, tasks, CSC148, CS10's Kalah, CS188's tests, check-game's rule specs) and
//!   every case, the handout is compared byte for byte after the answers are changed (a
//!   task's `expect:`/`expect_error:`, a game's scenarios, the other cases, the comments, a
//!   CS188 test's `.solution`); and the files that hold the answers are out of the program's
//!   reach by the sandbox's policy.
//! - **What a student reads** of a hidden case (`--for-students`, every report format) is the
//!   same for any two answers that give the same output the same verdict: a property over
//!   random trees whose leaves (so whose reference) differ, and over task cases whose
//!   `expect:` differs.

use gametrace::check::case::{check_case, Options, Source};
use gametrace::report::{for_students, render, Format, Report};
use gametrace::spec::public::{handout, Handout};
use gametrace::spec::yaml::{block, parse, Node, Pos, Yaml};
use gametrace::spec::{self, Document};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every command line a case may be handed: one placeholder at a time (a kind of spec
/// refuses the ones it has not), and all of a kind's together.
const LINES: [&str; 7] = [
    "prog {spec} {case}",
    "prog {depth}",
    "prog {tree_json}",
    "prog {trees}",
    "prog {position_json}",
    "prog {spec} {case} {depth} {tree_json}",
    "prog {spec} {case} {depth} {position_json}",
];

/// The shipped specs: everything under `specs/`, and CS188's tests in the course's format.
fn shipped() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "test") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(ROOT).join("specs"), &mut out);
    walk(
        &Path::new(ROOT).join("tests/fixtures/cs188/test_cases"),
        &mut out,
    );
    out
}

/// A command that serves every tree from one process (`{trees}`).
fn serving() -> gametrace::student::Program {
    gametrace::student::Program {
        flag: "--against",
        line: "prog {trees}".to_owned(),
        shell: false,
        stdin: None,
        limits: gametrace::sandbox::Limits::default(),
        submission: None,
        sandbox: gametrace::sandbox::Policy::default(),
        serve: true,
    }
}

/// Every handout of case `name` (`None` where the kind of spec refuses the line).
fn handouts(doc: &Document, name: &str, source: &str) -> Vec<Option<Handout>> {
    LINES
        .iter()
        .map(|line| handout(doc, name, line, Some(source)).ok())
        .collect()
}

fn scalar(text: &str, plain: bool) -> Node {
    Node {
        pos: Pos { line: 1, col: 1 },
        yaml: Yaml::Scalar {
            text: text.into(),
            plain,
        },
    }
}

/// The entry `key` of a map's entries.
fn entry<'a>(map: &'a mut [(Node, Node)], key: &str) -> Option<&'a mut Node> {
    map.iter_mut()
        .find(|(k, _)| k.scalar() == Some(key))
        .map(|(_, v)| v)
}

/// The spec's answers changed, case `name` kept as it is but for its own answer: every
/// task case's answer replaced, every other case given other settings (and a hidden case
/// added), the scenarios cut, and a comment with an answer in it added. Changed as nodes and
/// written back as YAML (`spec::yaml::block`), so nothing but the answers differs.
fn with_other_answers(text: &str, name: &str) -> String {
    let mut doc = parse(text).unwrap().unwrap();
    let Yaml::Map(top) = &mut doc.yaml else {
        panic!("a map")
    };
    let task = top.iter().any(|(k, _)| k.scalar() == Some("task"));
    if let Some(Node {
        yaml: Yaml::Map(cases),
        ..
    }) = entry(top, "cases")
    {
        let first_other = cases
            .iter()
            .find(|(k, _)| k.scalar() != Some(name))
            .map(|(_, v)| v.clone());
        for (k, v) in cases.iter_mut() {
            let Yaml::Map(settings) = &mut v.yaml else {
                continue;
            };
            if task {
                // Any text is a valid `expect_error:` (a substring of a REQUIRES message).
                settings.retain(|(k, _)| {
                    k.scalar() != Some("expect") && k.scalar() != Some("expect_error")
                });
                settings.push((
                    scalar("expect_error", true),
                    scalar("a changed answer", false),
                ));
            } else if k.scalar() != Some(name) {
                settings.retain(|(k, _)| {
                    k.scalar() != Some("visibility") && k.scalar() != Some("points")
                });
                settings.push((scalar("visibility", true), scalar("hidden", true)));
                settings.push((scalar("points", true), scalar("7", true)));
            }
        }
        // Another case, hidden, copied from the first other one (or from this one).
        let copy = first_other.or_else(|| {
            cases
                .iter()
                .find(|(k, _)| k.scalar() == Some(name))
                .map(|(_, v)| v.clone())
        });
        if let Some(mut copy) = copy {
            if let Yaml::Map(settings) = &mut copy.yaml {
                settings.retain(|(k, _)| k.scalar() != Some("visibility"));
                settings.push((scalar("visibility", true), scalar("hidden", true)));
            }
            cases.push((scalar("zz-added-hidden-case", true), copy));
        }
    }
    if let Some(Node {
        yaml: Yaml::Map(scenarios),
        ..
    }) = entry(top, "scenarios")
    {
        // The scenarios' expectations are the rule specs' answers: all but one gone.
        scenarios.truncate(1);
    }
    format!("# the answer is 42, and the root takes L\n{}", block(&doc))
}

/// A CS188 test's comments and diagram changed (its `.solution` is another file, never
/// read for a handout: the policy test below holds that it is out of reach).
fn test_with_other_comments(text: &str) -> String {
    let mut out = String::from("# the solution: action L, generated a b c\n");
    for line in text.lines() {
        if line.starts_with('#') {
            out.push_str("# the answer is written here: L\n");
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.replace("diagram: \"\"\"", "diagram: \"\"\"\n  (L wins, value 6)")
}

/// For every shipped spec and case: the handout with the answers changed is the handout,
/// byte for byte, for every line a case may be handed.
#[test]
fn a_programs_handout_is_the_same_whatever_the_answer() {
    let mut checked = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for path in shipped() {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = spec::load_str(&path, &text)
            .unwrap_or_else(|d| panic!("{} does not load: {d}", path.display()));
        kinds.insert(match &doc {
            Document::Tree(_) if path.extension().is_some_and(|e| e == "test") => "cs188 test",
            Document::Tree(_) => "tree",
            Document::Task(_) => "task",
            Document::Game(g) => {
                gametrace::with_game_spec!(g, s => gametrace::game::Playable::name(&s.game))
            }
        });
        for name in doc.checkable_names() {
            let before = handouts(&doc, name, &text);
            assert!(
                before.iter().any(Option::is_some),
                "{} {name}: no line is handed at all",
                path.display()
            );
            let changed = if path.extension().is_some_and(|e| e == "test") {
                test_with_other_comments(&text)
            } else {
                with_other_answers(&text, name)
            };
            let other = spec::load_str(&path, &changed).unwrap_or_else(|d| {
                panic!(
                    "{} with other answers does not load: {d}\n{changed}",
                    path.display()
                )
            });
            let after = handouts(&other, name, &changed);
            // A serving command (`{trees}`) is sent the tree the same way, whatever the answer.
            let served = |d: &Document| serving().served_tree(d, name).ok();
            if matches!(doc, Document::Tree(_)) {
                assert!(
                    served(&doc).is_some(),
                    "{} {name}: no tree served",
                    path.display()
                );
            }
            assert_eq!(
                served(&doc),
                served(&other),
                "{} {name}: a served tree holds something of the answer",
                path.display()
            );
            for (i, (b, a)) in before.iter().zip(&after).enumerate() {
                assert_eq!(
                    b,
                    a,
                    "{} {name}: `{}` hands the program something of the answer",
                    path.display(),
                    LINES[i]
                );
            }
            checked += 1;
        }
    }
    // Every kind of spec the project ships was held to it.
    for kind in [
        "tree",
        "task",
        "cs188 test",
        "connect4",
        "riskless",
        "nim",
        "tippy",
        "subtract_square",
        "kalah",
    ] {
        assert!(
            kinds.contains(kind),
            "no {kind} spec was checked: {kinds:?}"
        );
    }
    assert!(checked > 150, "only {checked} cases");
}

/// The task cases' answers are not in what the program is handed, in any form; nor are a
/// game spec's scenarios, nor a CS188 test's comments.
#[test]
fn the_answer_itself_is_nowhere_in_the_handout() {
    for path in shipped() {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = spec::load_str(&path, &text).unwrap();
        let spec_text = |name: &str| {
            let h = handout(&doc, name, "prog {spec}", Some(&text)).unwrap();
            String::from_utf8(h.spec.unwrap().1).unwrap()
        };
        match &doc {
            Document::Task(t) => {
                for case in &t.cases {
                    let handed = spec_text(&case.name);
                    // Past the one line that says what the file is.
                    let body = handed.split_once('\n').map_or("", |(_, b)| b);
                    assert!(
                        !body.contains("expect") && !body.contains('#'),
                        "{} {}: {handed}",
                        path.display(),
                        case.name
                    );
                }
            }
            Document::Game(_) => {
                for name in doc.checkable_names() {
                    assert!(!spec_text(name).contains("scenarios"), "{}", path.display());
                }
            }
            Document::Tree(_) if path.extension().is_some_and(|e| e == "test") => {
                for name in doc.checkable_names() {
                    let handed = spec_text(name);
                    assert!(
                        !handed.contains("diagram")
                            && handed.lines().skip(1).all(|l| !l.starts_with('#')),
                        "{}: {handed}",
                        path.display()
                    );
                }
            }
            Document::Tree(_) => {}
        }
    }
}

/// What a program is handed as `{spec}` is the spec it would be graded on, as far as the case
/// goes: for every tree and game spec, the copy loads, and its case traces as the original's
/// does, byte for byte.
#[test]
fn the_handed_spec_is_the_cases_own() {
    for path in shipped() {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = spec::load_str(&path, &text).unwrap();
        if matches!(doc, Document::Task(_)) {
            continue;
        }
        for name in doc.checkable_names() {
            let h = handout(&doc, name, "prog {spec}", Some(&text)).unwrap();
            let (file, bytes) = h.spec.unwrap();
            let copy = String::from_utf8(bytes).unwrap();
            let handed = spec::load_str(&path.with_file_name(&file), &copy).unwrap_or_else(|d| {
                panic!(
                    "{} {name}: the copy does not load: {d}\n{copy}",
                    path.display()
                )
            });
            assert_eq!(handed.checkable_names(), vec![name], "{}", path.display());
            let trace = |d: &Document| match d {
                Document::Tree(s) => gametrace::run::trace_of(s, s.case(name).unwrap()),
                Document::Game(g) => {
                    gametrace::with_game_spec!(g, s => gametrace::run::game_trace_of(s.case(name).unwrap()))
                }
                Document::Task(_) => unreachable!(),
            };
            // Kalah and the textbooks' deepening may search long: their settings are compared.
            if path.to_string_lossy().contains("kalah") {
                continue;
            }
            assert_eq!(trace(&doc), trace(&handed), "{} {name}", path.display());
        }
    }
}

/// The files that hold the answers (the expected traces, a CS188 test's `.solution`, the
/// specs themselves) are outside what the sandbox lets a case's program read, whatever
/// folder it works in: here the repository's root, where all of them lie.
#[cfg(target_os = "linux")]
#[test]
fn the_answers_files_are_out_of_the_programs_reach() {
    use gametrace::sandbox::{
        file_policy, grader_paths, policy::resolve, Job, Limits, Policy, Scratch,
    };
    let words: Vec<String> = vec!["python3".into(), "prog.py".into()];
    for path in shipped() {
        let scratch = Scratch::new().unwrap();
        let policy = Policy {
            hidden: grader_paths(&path),
            ..Policy::default()
        };
        let job = Job {
            argv: &words,
            words: &words,
            stdin: None,
            dir: Some(Path::new(ROOT)),
            limits: Limits::default(),
            scratch: &scratch,
            policy: &policy,
        };
        let files = file_policy(&job);
        let mut answers = vec![path.clone()];
        let rel = path.strip_prefix(ROOT).unwrap();
        if let Ok(under) = rel.strip_prefix("specs") {
            answers.push(
                Path::new(ROOT)
                    .join("expected")
                    .join(under.with_extension("")),
            );
        }
        if path.extension().is_some_and(|e| e == "test") {
            answers.push(path.with_extension("solution"));
            // The other tests' answers beside it too.
            for e in std::fs::read_dir(path.parent().unwrap()).unwrap().flatten() {
                if e.path().extension().is_some_and(|x| x == "solution") {
                    answers.push(e.path());
                }
            }
        }
        for a in answers.iter().filter(|a| a.exists()) {
            assert!(
                !files.may_read(&resolve(a)),
                "{}: the program may read {}\n{}",
                path.display(),
                a.display(),
                files.describe()
            );
        }
    }
}

// --- What a student reads of a hidden case -------------------------------------------------

/// Every format a `--for-students` report is written in.
const FORMATS: [Format; 10] = [
    Format::Human,
    Format::Json,
    Format::Junit,
    Format::Tap,
    Format::Gradescope,
    Format::GradescopeHtml,
    Format::GradescopeMd,
    Format::Autolab,
    Format::Prairielearn,
    Format::Html,
];

/// The student's report of case `name` of the spec `text` on `output`: its verdict, and the
/// report in every format.
fn student_report(text: &str, name: &str, output: &Path) -> (String, Vec<String>) {
    let doc = spec::load_str(Path::new("hw.yaml"), text).unwrap();
    let options = Options {
        mode: None,
        palette: gametrace::diff::Palette { color: false },
        exact: false,
        max_input: 1 << 20,
        diagnose: true,
        figures: true,
        time_limit: std::time::Duration::from_secs(60),
        cut_short: false,
    };
    let mut r = check_case(&doc, name, &Source::File(output.to_owned()), options).unwrap();
    let verdict = format!("{} {}", r.status.word(), r.points);
    for_students(&mut r);
    let report = Report {
        cases: vec![r],
        sandbox: None,
        questions: Vec::new(),
    };
    let palette = gametrace::diff::Palette { color: false };
    let all = FORMATS
        .iter()
        .map(|&f| render(&report, f, true, palette))
        .collect();
    (verdict, all)
}

/// A tree spec of `leaves` (a root with children of two or three leaves each), with one case,
/// hidden, of `algorithm` checked in `mode`.
fn tree_spec(leaves: &[Vec<i64>], algorithm: &str, mode: &str) -> String {
    let mut tree = String::from("tree:\n  r:\n");
    for (i, kids) in leaves.iter().enumerate() {
        tree.push_str(&format!("    c{i}:\n"));
        for (j, v) in kids.iter().enumerate() {
            tree.push_str(&format!("      l{i}{j}: {v}\n"));
        }
    }
    format!(
        "{tree}cases:\n  hw:\n    algorithm: {algorithm}\n    check: {mode}\n    visibility: hidden\n"
    )
}

fn leaves() -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(-9i64..10, 2..4), 2..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Two trees of one shape whose leaves differ have different references; a student's
    /// output that gets one verdict from both gets one report, in every format.
    #[test]
    fn a_hidden_cases_report_depends_on_the_verdict_alone(
        a in leaves(),
        b_seed in any::<u64>(),
        printed in leaves(),
        algorithm in prop::sample::select(vec!["minimax", "alphabeta"]),
        mode in prop::sample::select(vec!["full", "terminals", "visited", "value"]),
    ) {
        // The same shape as `a`, other leaves.
        let mut seed = b_seed;
        let b: Vec<Vec<i64>> = a
            .iter()
            .map(|kids| kids.iter().map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((seed >> 33) % 19) as i64 - 9
            }).collect())
            .collect();
        // What the student printed: the reference's trace of yet another tree of leaves.
        let dir = tempfile::tempdir().unwrap();
        let printed_spec = tree_spec(&printed, algorithm, mode);
        let doc = spec::load_str(Path::new("p.yaml"), &printed_spec).unwrap();
        let Document::Tree(s) = &doc else { unreachable!() };
        let output = dir.path().join("out.txt");
        std::fs::write(&output, gametrace::run::trace_of(s, &s.cases[0])).unwrap();
        let (va, ra) = student_report(&tree_spec(&a, algorithm, mode), "hw", &output);
        let (vb, rb) = student_report(&tree_spec(&b, algorithm, mode), "hw", &output);
        if va == vb {
            for (i, (x, y)) in ra.iter().zip(&rb).enumerate() {
                prop_assert_eq!(x, y, "format {:?}", FORMATS[i]);
            }
        }
    }

    /// A task case is judged against the reference's value of its arguments (its `expect:`
    /// checks the reference in `gametrace test`): two cases whose references differ, the
    /// same output, the same verdict: the same report.
    #[test]
    fn a_hidden_task_cases_report_depends_on_the_verdict_alone(
        xs in prop::collection::vec(0i64..4, 0..6),
        ys in prop::collection::vec(0i64..4, 0..6),
        zs in prop::collection::vec(0i64..4, 0..6),
    ) {
        let seq = |v: &[i64]| format!("<{}>", v.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
        let list = |v: &[i64]| format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
        let spec = |args: &[i64]| format!(
            "task: to_list\ncases:\n  hw:\n    args: [\"{}\"]\n    expect: \"{}\"\n    visibility: hidden\n",
            seq(args),
            list(args)
        );
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("out.txt");
        std::fs::write(&output, format!("val it = {} : int list\n", list(&zs))).unwrap();
        let (va, ra) = student_report(&spec(&xs), "hw", &output);
        let (vb, rb) = student_report(&spec(&ys), "hw", &output);
        if va == vb {
            prop_assert_eq!(ra, rb);
        }
    }
}

//! The public part of a spec: everything a student's program may receive for one case, and
//! nothing else. It is built by allow-list, key by key, from what a program needs to play the
//! case (the tree or the position, the case's settings); a case's answer never reaches it:
//! not a task's `expect:` or `expect_error:`, not a game's scenarios, not the spec's other
//! cases (which may be hidden), not a comment (people write answers in them: "the root takes
//! L"). The files that hold answers (the expected traces under `expected/`, a CS188 test's
//! `.solution`) are never read here.
//!
//! `tests/student_view.rs` holds this as a property: for every shipped spec and every case,
//! changing the answer changes no byte of the [`Handout`].

use super::{cs188, Diagnostic, Document};
use std::path::Path;

/// The placeholders a command line may use; `{submission}` is the grader's (the folder a
/// submission is graded in), the others come from the case's public part.
pub const PLACEHOLDERS: [&str; 7] = [
    "{spec}",
    "{case}",
    "{depth}",
    "{tree_json}",
    "{trees}",
    "{position_json}",
    "{submission}",
];

/// What one case hands a student's program: each placeholder's value, and the contents of the
/// files some of them name. Only what the command line asks for is built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handout {
    /// `{case}`: the case's name.
    pub case: String,
    /// `{depth}`: the case's depth (`none` for a CSC148 strategy that searches to the end).
    pub depth: Option<String>,
    /// `{spec}`: the spec's file name and its public text (this case alone, no answer).
    pub spec: Option<(String, Vec<u8>)>,
    /// `{tree_json}`: a tree case's tree and settings (`export --to json`).
    pub tree_json: Option<String>,
    /// `{position_json}`: a CSC148 game's position and the case's strategy, for its driver.
    pub position_json: Option<String>,
}

/// Case keys that hold an answer: never handed to a program.
const ANSWER_KEYS: [&str; 2] = ["expect", "expect_error"];

/// Top-level keys of a spec that hold answers or other cases: never handed to a program
/// (`cases` is handed with the one case only).
const ANSWER_TOP_KEYS: [&str; 1] = ["scenarios"];

/// The keys of a CS188 `GraphGameTreeTest` a program needs to build the tree; the rest
/// (`diagram`, comments) is the course's commentary, where answers are written.
const CS188_PUBLIC: [&str; 10] = [
    "class",
    "alg",
    "depth",
    "num_agents",
    "start_state",
    "win_states",
    "lose_states",
    "successors",
    "children",
    "evaluation",
];

/// What case `name` of `doc` hands a program whose command line is `line`. `source` is the
/// spec's text (for `{spec}`); `Err` is a placeholder this kind of spec does not have, or a
/// spec whose public part cannot be written.
pub fn handout(
    doc: &Document,
    name: &str,
    line: &str,
    source: Option<&str>,
) -> Result<Handout, Diagnostic> {
    let path = doc.path();
    let bad = |message: String, hint: &str| {
        Diagnostic::new(path, message)
            .expected(format!(
                "a command line; placeholders {}",
                PLACEHOLDERS.join(" ")
            ))
            .found(line.to_owned())
            .hint(hint.to_owned())
    };
    let no_case = || {
        Diagnostic::new(path, format!("no case `{name}`"))
            .expected("one of the spec's cases")
            .found(name.to_owned())
            .hint("`gametrace cases SPEC` lists them")
    };
    let wants = |p: &str| line.contains(p);
    let mut out = Handout {
        case: name.to_owned(),
        ..Handout::default()
    };
    match doc {
        Document::Tree(spec) => {
            let case = spec.case(name).ok_or_else(no_case)?;
            out.depth = Some(case.depth.to_string());
            // `{trees}`: the same tree, served to one process with the others' (or its file
            // where each case runs alone).
            if wants("{tree_json}") || wants("{trees}") {
                out.tree_json = Some(crate::export::tree_json(spec, case));
            }
            if wants("{position_json}") {
                return Err(bad(
                    "{position_json} is for the games a course driver rebuilds (subtract_square, tippy), and this is a tree spec".to_owned(),
                    "tree specs have {spec}, {case}, {depth} and {tree_json}",
                ));
            }
        }
        Document::Game(g) => {
            let depth = crate::with_game_spec!(g, s => s.case(name).map(|c| c.case.depth));
            let depth = depth.ok_or_else(no_case)?;
            out.depth = Some(if depth == crate::search::csc148::TO_THE_END {
                "none".to_owned()
            } else {
                depth.to_string()
            });
            if wants("{position_json}") {
                let json = crate::with_game_spec!(g, s => s
                    .case(name)
                    .and_then(crate::check::judge::position_json));
                let Some(json) = json else {
                    return Err(bad(
                        "{position_json} is for the games a course driver rebuilds (subtract_square, tippy)".to_owned(),
                        "this game's programs read the position from the spec ({spec}, {case}, {depth})",
                    ));
                };
                out.position_json = Some(json.to_string());
            }
            if let Some(p) = ["{tree_json}", "{trees}"].into_iter().find(|p| wants(p)) {
                return Err(bad(
                    format!("{p} is a tree spec's placeholder, and this is a game spec"),
                    "game specs have {spec}, {case} and {depth}; the program reads the position from the spec",
                ));
            }
        }
        Document::Task(t) => {
            t.case(name).ok_or_else(no_case)?;
            for p in ["{depth}", "{tree_json}", "{trees}", "{position_json}"] {
                if wants(p) {
                    return Err(bad(
                        format!("{p} is a search spec's placeholder, and this is a task spec"),
                        "task specs have {spec} and {case}",
                    ));
                }
            }
        }
    }
    if wants("{spec}") {
        let source = source.ok_or_else(|| {
            bad(
                "the spec's text cannot be read for {spec}".to_owned(),
                "check that the spec is readable",
            )
        })?;
        let text = public_text(path, source, name).map_err(|why| {
            bad(
                format!("cannot write the spec's public part for {{spec}}: {why}"),
                "the program can be handed {case} and {depth} (or {tree_json}) instead",
            )
        })?;
        let file = path.file_name().map_or_else(
            || "spec.yaml".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        );
        out.spec = Some((file, text));
    }
    Ok(out)
}

/// The spec's text as a program may read it: case `case` alone, each key on the allow-list
/// of its kind, no answer and no comment.
pub fn public_text(path: &Path, source: &str, case: &str) -> Result<Vec<u8>, String> {
    let header = format!(
        "# {} with its case `{case}` only, and no answer (gametrace's sandbox hides the rest)\n",
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    );
    if cs188::is_test_file(path) {
        return cs188_public(path, source, header);
    }
    yaml_public(source, case, header)
}

fn yaml_public(source: &str, case: &str, header: String) -> Result<Vec<u8>, String> {
    use super::yaml::{Node, Yaml};
    let top = super::yaml::parse(source)
        .map_err(|e| e.message)?
        .ok_or("the spec is empty")?;
    let Yaml::Map(entries) = top.yaml else {
        return Err("the spec is not a map of keys".to_owned());
    };
    let has = |k: &str| entries.iter().any(|(key, _)| key.scalar() == Some(k));
    let kind = if has("task") {
        Kind::Task
    } else if has("game") {
        Kind::Game
    } else if has("format") {
        Kind::Export
    } else {
        Kind::Tree
    };
    let mut public: Vec<(Node, Node)> = Vec::new();
    for (k, v) in entries {
        let Some(name) = k.scalar() else { continue };
        if !kind.top_keys().contains(&name) || ANSWER_TOP_KEYS.contains(&name) {
            continue;
        }
        let v = if name == "cases" {
            let Yaml::Map(cases) = v.yaml else { continue };
            let kept = cases
                .into_iter()
                .filter(|(n, _)| n.scalar() == Some(case))
                .map(|(n, settings)| match settings.yaml {
                    Yaml::Map(settings) => {
                        let settings = settings
                            .into_iter()
                            .filter(|(k, _)| {
                                k.scalar().is_some_and(|k| {
                                    kind.case_keys().contains(&k) && !ANSWER_KEYS.contains(&k)
                                })
                            })
                            .collect();
                        (
                            n,
                            Node {
                                pos: settings_pos(),
                                yaml: Yaml::Map(settings),
                            },
                        )
                    }
                    _ => (n, settings),
                })
                .collect();
            Node {
                pos: v.pos,
                yaml: Yaml::Map(kept),
            }
        } else {
            v
        };
        public.push((k, v));
    }
    let mut out = header;
    out.push_str(&super::yaml::block(&Node {
        pos: settings_pos(),
        yaml: Yaml::Map(public),
    }));
    Ok(out.into_bytes())
}

fn settings_pos() -> super::yaml::Pos {
    super::yaml::Pos { line: 0, col: 0 }
}

/// A CS188 test rewritten with its public keys alone, in the course's own format.
fn cs188_public(path: &Path, source: &str, header: String) -> Result<Vec<u8>, String> {
    let file = cs188::parse(path, source).map_err(|d| d.message.clone())?;
    let mut out = header;
    for key in CS188_PUBLIC {
        let Some(p) = file.get(key) else { continue };
        if p.block.is_some() {
            out.push_str(&format!("{key}: \"\"\"\n{}\n\"\"\"\n", p.value.trim_end()));
        } else {
            out.push_str(&format!("{key}: \"{}\"\n", p.value));
        }
    }
    Ok(out.into_bytes())
}

#[derive(Clone, Copy)]
enum Kind {
    Tree,
    Task,
    Game,
    Export,
}

impl Kind {
    fn top_keys(self) -> &'static [&'static str] {
        match self {
            Kind::Tree | Kind::Task => super::load::TOP_KEYS,
            Kind::Game => super::load::game::GAME_TOP_KEYS,
            Kind::Export => super::load::export::EXPORT_KEYS,
        }
    }

    fn case_keys(self) -> &'static [&'static str] {
        match self {
            Kind::Tree | Kind::Export => super::load::CASE_KEYS,
            Kind::Task => super::load::TASK_CASE_KEYS,
            Kind::Game => super::load::game::GAME_CASE_KEYS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = "# look_and_say; the answer to ints is <(2,1),(1,2),(3,3)>\n\
title: t\ntask: look_and_say\ncases:\n  ints:\n    args: [\"<1,1,2,3,3,3>\"]\n    expect: \"<(2,1),(1,2),(3,3)>\"\n    points: 2\n  other:\n    args: [\"<1>\"]\n    expect_error: \"secret\"\n    visibility: hidden\n";

    #[test]
    fn a_task_case_is_handed_without_its_answer_or_the_other_cases() {
        let text = public_text(Path::new("specs/t.yaml"), TASK, "ints").unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("<1,1,2,3,3,3>"), "{text}");
        assert!(text.contains("points: 2"), "{text}");
        assert!(
            !text.contains("(2,1)"),
            "the answer, from the case or a comment: {text}"
        );
        assert!(!text.contains("expect"), "{text}");
        assert!(
            !text.contains("other") && !text.contains("secret"),
            "{text}"
        );
        // Still a spec the loader reads as one (minus the answer it requires).
        assert!(text.contains("task: look_and_say"), "{text}");
    }

    /// The public text is read back as the nodes it came from: plain scalars plain, quoted
    /// ones quoted (the loader tells `hi` from `"hi"`), blocks and flow collections alike.
    #[test]
    fn the_public_text_reads_back_as_the_same_nodes() {
        use crate::spec::yaml::{parse, Node, Yaml};
        fn strip(n: &Node) -> String {
            match &n.yaml {
                Yaml::Scalar { text, plain } => {
                    format!("{}{text:?}", if *plain { "p" } else { "q" })
                }
                Yaml::Seq(items) => format!(
                    "[{}]",
                    items.iter().map(strip).collect::<Vec<_>>().join(",")
                ),
                Yaml::Map(m) => format!(
                    "{{{}}}",
                    m.iter()
                        .map(|(k, v)| format!("{}:{}", strip(k), strip(v)))
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            }
        }
        let src = "title: \"T: x # y\"\ntask: look_and_say\ncases:\n  a:\n    args: [[\"hi\", \"hi\", bye], \"<1,2>\", [], {}]\n    expect: \"<>\"\n    points: 1.5\n    dialect:\n  b: {args: [\"<>\"], expect: \"<>\"}\n";
        let text = String::from_utf8(public_text(Path::new("t.yaml"), src, "a").unwrap()).unwrap();
        let want = "{p\"title\":q\"T: x # y\",p\"task\":p\"look_and_say\",p\"cases\":{p\"a\":{p\"args\":[[q\"hi\",q\"hi\",p\"bye\"],q\"<1,2>\",[],{}],p\"points\":p\"1.5\",p\"dialect\":p\"\"}}}";
        assert_eq!(strip(&parse(&text).unwrap().unwrap()), want, "{text}");
        let board = "game: connect4\nposition: |\n  .......\n  ...X...\ncases:\n  c:\n    algorithm: minimax\n    depth: 1\n";
        let text =
            String::from_utf8(public_text(Path::new("g.yaml"), board, "c").unwrap()).unwrap();
        let (a, b) = (
            parse(board).unwrap().unwrap(),
            parse(&text).unwrap().unwrap(),
        );
        assert_eq!(strip(&a), strip(&b), "{text}");
    }

    #[test]
    fn a_game_spec_loses_its_scenarios() {
        let game = "game: nim\nposition: 5\ncases:\n  a:\n    algorithm: minimax\n    depth: 2\nscenarios:\n  s:\n    steps:\n      - move: 1\n        status: in_play\n";
        let text = String::from_utf8(public_text(Path::new("g.yaml"), game, "a").unwrap()).unwrap();
        assert!(
            !text.contains("scenarios") && !text.contains("in_play"),
            "{text}"
        );
        assert!(
            text.contains("depth: 2") && text.contains("position: 5"),
            "{text}"
        );
    }

    #[test]
    fn a_cs188_test_keeps_its_tree_and_loses_its_comments_and_diagram() {
        let test = "# the root takes L\nclass: \"GraphGameTreeTest\"\nalg: \"MinimaxAgent\"\ndepth: \"1\"\ndiagram: \"\"\"\n r  <- L wins\n\"\"\"\nnum_agents: \"2\"\nstart_state: \"r\"\nwin_states: \"\"\nlose_states: \"\"\nsuccessors: \"\"\"\nr L a\n\"\"\"\nevaluation: \"\"\"\na 6.0\n\"\"\"\n";
        let text =
            String::from_utf8(public_text(Path::new("q2/1-x.test"), test, "1-x").unwrap()).unwrap();
        assert!(
            !text.contains("takes L") && !text.contains("wins"),
            "{text}"
        );
        assert!(text.contains("r L a") && text.contains("a 6.0"), "{text}");
        // The course's own reader reads it back.
        let again = cs188::parse(Path::new("q2/1-x.test"), &text).unwrap();
        assert_eq!(again.get("successors").unwrap().value.trim(), "r L a");
        assert_eq!(again.get("depth").unwrap().value, "1");
    }
}

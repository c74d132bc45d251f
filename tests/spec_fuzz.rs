//! The spec loader never panics, whatever it is given: it loads or it says why.

use gametrace::spec::load_str;
use proptest::prelude::*;
use std::path::Path;

const VALID: &str = "title: t\nmove_names: [l, r]\ntree:\n  a:\n    b: {c: 3, d: ~2}\n    e: {f: 6}\ncases:\n  ab: {algorithm: alphabeta, depth: 2, dialect: s12, lines: [search, result]}\n  j:\n    algorithm: jamboree\n    prune_percentage: 0.5\n    dialect: repl\n    rules: s12\n";

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "(?s).{0,300}") {
        let _ = load_str(Path::new("f.yaml"), &text);
    }

    #[test]
    fn yaml_shaped_text_never_panics(text in "[a-z0-9:{}\\[\\], \\n~.&*!|>'\"#-]{0,200}") {
        let _ = load_str(Path::new("f.yaml"), &text);
    }

    #[test]
    fn mutated_specs_never_panic(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[a-z0-9:{}\\[\\], \\n~.-]{0,8}") {
        let mut text = VALID.to_owned();
        let end = (at + cut).min(text.len());
        text.replace_range(at..end, &insert);
        if let Err(d) = load_str(Path::new("f.yaml"), &text) {
            // Every diagnostic names a place in the file and says what it expected.
            prop_assert!(d.pos.is_some(), "{}", d);
            prop_assert!(d.expected.is_some(), "{}", d);
        }
    }
}

#[test]
fn the_unmutated_spec_loads() {
    let spec = load_str(Path::new("f.yaml"), VALID).unwrap();
    assert_eq!(spec.case_names(), ["ab", "j"]);
}

/// Lines of the kinds specs are written in, and the kinds near them that read differently.
fn yaml_line() -> impl Strategy<Value = String> {
    let indent = prop::sample::select(vec!["", "  ", "    ", "      ", " ", "   "]);
    let key = prop::sample::select(vec![
        "a", "b", "tree", "n", "'n'", "\"y\"", "k k", "x-1", "-", "? a", "[a]", "a,b", "3", "~",
        "'it''s'", "*x", "&x a",
    ]);
    let value = prop::sample::select(vec![
        "",
        " 3",
        " -7",
        " ~2",
        " x y ",
        " {c: 3, d: -1}",
        " [a, b]",
        " [[1], {k: v}]",
        " {}",
        " []",
        " 'q'",
        " \"w\"",
        " a#b",
        " a # c",
        " # c",
        " b: c",
        " |",
        " &x 1",
        " *x",
        " [1,",
        " {a:1}",
        " {a: 1,}",
        " [a,,b]",
        " -",
        " - a",
        " 'a'b",
        " \"a\\n\"",
        " {'k': v}",
        " [ a , b ]",
        " {a : b}",
        " :x",
        " {a: 1,",
        " {",
        " [",
        " [1, [2,",
        " {a: {b: 1,",
        " x:",
        " %",
        " @",
        " é",
        ":x",
        ": 1",
    ]);
    let item = prop::sample::select(vec![
        "- a",
        "- [1, 2]",
        "- {a: 1}",
        "- 'x'",
        "-",
        "- a: 1",
        "-a",
        "- - a",
        "# comment",
        "---",
        "...",
        "",
    ]);
    // Lines that may go on with a flow collection a line above left open.
    let continued = prop::sample::select(vec![
        "b: 2}", "2]", "2, 3]", "c: 3}}", "x: [1,", "}", "]", ", 2]", "y", "b: 2},", "3]}",
        "{d: 4}]", "'q',", "b: 2, c:", "# c", "2]] # c",
    ]);
    prop_oneof![
        4 => (indent.clone(), key, value).prop_map(|(i, k, v)| format!("{i}{k}:{v}")),
        1 => (indent.clone(), item).prop_map(|(i, it)| format!("{i}{it}")),
        2 => (indent, continued).prop_map(|(i, c)| format!("{i}{c}")),
    ]
}

/// A well-formed document of the subset, as a tree to print with any indentation.
#[derive(Clone, Debug)]
enum Doc {
    Inline(&'static str),
    Map(Vec<(&'static str, Doc)>),
    Seq(Vec<&'static str>),
}

fn doc() -> impl Strategy<Value = Doc> {
    let scalar = prop::sample::select(vec![
        "3",
        "-7",
        "~2",
        "x y",
        "{c: 3, d: -1}",
        "[a, b]",
        "[[1], {k: v}]",
        "{}",
        "[]",
        "'q'",
        "\"w\"",
        "a#b",
        "a # c",
        "(15-150, S14)",
        "0.5",
        "'it''s'",
        "[ a , 'b' ]",
        "{a : b}",
        "null",
        "x-1",
        "a:b",
        "-",
        "- a",
        "b: c",
        "{a:1}",
        "[1,]",
    ]);
    let key = prop::sample::select(vec![
        "a", "b", "tree", "'n'", "\"y\"", "k k", "x-1", "3", "~", "cases", "lines",
    ]);
    scalar
        .clone()
        .prop_map(Doc::Inline)
        .prop_recursive(4, 40, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec((key.clone(), inner), 1..6).prop_map(Doc::Map),
                proptest::collection::vec(scalar.clone(), 1..4).prop_map(Doc::Seq),
            ]
        })
}

fn render(d: &Doc, indent: usize, step: usize, out: &mut String) {
    match d {
        Doc::Inline(s) => {
            out.push(' ');
            out.push_str(s);
            out.push('\n');
        }
        Doc::Map(entries) => {
            for (k, v) in entries {
                out.push_str(&" ".repeat(indent));
                out.push_str(k);
                out.push(':');
                if !matches!(v, Doc::Inline(_)) {
                    out.push('\n');
                }
                render(v, indent + step, step, out);
            }
        }
        Doc::Seq(items) => {
            for it in items {
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(it);
                out.push('\n');
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(4096)
    ))]

    /// Whenever the fast path reads a document, it reads what the full parser reads: the same
    /// nodes at the same places. Where the full parser finds an error, the fast path gives up.
    #[test]
    fn the_fast_yaml_path_agrees_with_the_full_parser(lines in proptest::collection::vec(yaml_line(), 1..12)) {
        let text = lines.join("\n") + "\n";
        if let Some(node) = gametrace::spec::yaml::fast::parse(&text) {
            prop_assert_eq!(Some(node), gametrace::spec::yaml::full(&text).unwrap_or_else(|e| panic!("the full parser refuses {text:?}: {e:?}")), "{:?}", text);
        }
    }

    /// The same on nested documents of the subset, with any indentation and comments
    /// between lines.
    #[test]
    fn the_fast_yaml_path_agrees_on_nested_documents(d in doc(), step in 1usize..5, comment in 0usize..6) {
        let mut text = String::new();
        render(&Doc::Map(vec![("top", d)]), 0, step, &mut text);
        if comment > 0 {
            let at = text.match_indices('\n').nth(comment - 1).map_or(0, |(i, _)| i + 1);
            text.insert_str(at, "   # a comment: [x, y]\n");
        }
        if let Some(node) = gametrace::spec::yaml::fast::parse(&text) {
            prop_assert_eq!(Some(node), gametrace::spec::yaml::full(&text).unwrap_or_else(|e| panic!("the full parser refuses {text:?}: {e:?}")), "{:?}", text);
        }
    }

    /// The same on nested documents whose flow collections are wrapped after any of their
    /// commas and brackets, onto lines of any indent (PyYAML and ruamel wrap at 80 columns).
    #[test]
    fn the_fast_yaml_path_agrees_on_wrapped_flow_collections(d in doc(), step in 1usize..5, breaks in proptest::collection::vec((any::<bool>(), 0usize..9), 0..40)) {
        let mut one_line = String::new();
        render(&Doc::Map(vec![("top", d)]), 0, step, &mut one_line);
        let mut text = String::new();
        let mut next = breaks.iter();
        for ch in one_line.chars() {
            text.push(ch);
            if matches!(ch, ',' | '[' | '{') {
                if let Some(&(wrap, indent)) = next.next() {
                    if wrap {
                        text.push('\n');
                        text.push_str(&" ".repeat(indent));
                    }
                }
            }
        }
        if let Some(node) = gametrace::spec::yaml::fast::parse(&text) {
            prop_assert_eq!(Some(node), gametrace::spec::yaml::full(&text).unwrap_or_else(|e| panic!("the full parser refuses {text:?}: {e:?}")), "{:?}", text);
        }
    }

    /// The same on the project's specs cut and patched anywhere.
    #[test]
    fn the_fast_yaml_path_agrees_on_mutated_specs(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[a-z0-9:{}\\[\\], \\n~.'\"#-]{0,8}") {
        let mut text = VALID.to_owned();
        let end = (at + cut).min(text.len());
        text.replace_range(at..end, &insert);
        if let Some(node) = gametrace::spec::yaml::fast::parse(&text) {
            prop_assert_eq!(Some(node), gametrace::spec::yaml::full(&text).unwrap_or_else(|e| panic!("the full parser refuses {text:?}: {e:?}")), "{:?}", text);
        }
    }
}

/// A tree's shape: leaves and inner nodes, named when written.
#[derive(Clone, Debug)]
enum Shape {
    Leaf(i64),
    Inner(Vec<Shape>),
}

fn shape() -> impl Strategy<Value = Shape> {
    (-20i64..20)
        .prop_map(Shape::Leaf)
        .prop_recursive(5, 60, 5, |inner| {
            proptest::collection::vec(inner, 1..5).prop_map(Shape::Inner)
        })
}

/// How a tree is written: each inner node in block style or as a flow mapping (`flow` picks,
/// node by node), and a flow mapping wrapped after some of its commas (`wrap`), as `gametrace
/// new` and PyYAML write them. Names are `n0`, `n1`, ... in preorder, every third quoted.
struct Writer<'a> {
    flow: std::iter::Cycle<std::slice::Iter<'a, bool>>,
    wrap: std::iter::Cycle<std::slice::Iter<'a, bool>>,
    names: usize,
    out: String,
}

impl Writer<'_> {
    fn name(&mut self) -> String {
        self.names += 1;
        match self.names % 3 {
            0 => format!("'n{}'", self.names),
            _ => format!("n{}", self.names),
        }
    }

    fn block(&mut self, s: &Shape, indent: usize) {
        let name = self.name();
        self.out.push_str(&" ".repeat(indent));
        self.out.push_str(&name);
        match s {
            Shape::Leaf(v) => self.out.push_str(&format!(": {v}\n")),
            Shape::Inner(children) if *self.flow.next().unwrap_or(&false) => {
                self.out.push_str(": ");
                self.flow_children(children, indent);
                self.out.push('\n');
            }
            Shape::Inner(children) => {
                self.out.push_str(":\n");
                for c in children {
                    self.block(c, indent + 2);
                }
            }
        }
    }

    fn flow_children(&mut self, children: &[Shape], indent: usize) {
        self.out.push('{');
        for (i, c) in children.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
                if *self.wrap.next().unwrap_or(&false) {
                    self.out.push('\n');
                    self.out.push_str(&" ".repeat(indent + 2));
                } else {
                    self.out.push(' ');
                }
            }
            let name = self.name();
            self.out.push_str(&name);
            self.out.push_str(": ");
            match c {
                Shape::Leaf(v) => self.out.push_str(&v.to_string()),
                Shape::Inner(grandchildren) => self.flow_children(grandchildren, indent),
            }
        }
        self.out.push('}');
    }
}

fn tree_spec(root: &Shape, flow: &[bool], wrap: &[bool]) -> String {
    let mut w = Writer {
        flow: flow.iter().cycle(),
        wrap: wrap.iter().cycle(),
        names: 0,
        out: "title: t\ntree:\n".to_owned(),
    };
    w.block(root, 2);
    w.out + "cases:\n  ab: {algorithm: alphabeta}\n  m: {algorithm: minimax, depth: 2}\n"
}

/// Every problem found and the spec loaded, as `validate` reports them: the same whether a
/// written-out tree is read by the fast path or through YAML nodes.
fn same_either_way(text: &str) -> Result<(), TestCaseError> {
    let path = Path::new("t.yaml");
    prop_assert_eq!(
        format!("{:?}", gametrace::spec::validate_str(path, text)),
        format!(
            "{:?}",
            gametrace::spec::validate_str_without_fast_tree(path, text)
        ),
        "{:?}",
        text
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2048)
    ))]

    /// Trees written as `gametrace new` and PyYAML write them load the same either way.
    #[test]
    fn the_fast_tree_path_agrees_on_written_trees(
        root in shape(),
        flow in proptest::collection::vec(any::<bool>(), 1..8),
        wrap in proptest::collection::vec(any::<bool>(), 1..8),
    ) {
        same_either_way(&tree_spec(&root, &flow, &wrap))?;
    }

    /// And so do such trees patched anywhere: a name used twice, a stray space, tab, comment,
    /// quote, bracket, line break or key, each of which either way reads alike or is refused
    /// alike, with the same message at the same place.
    #[test]
    fn the_fast_tree_path_agrees_on_patched_trees(
        root in shape(),
        flow in proptest::collection::vec(any::<bool>(), 1..8),
        wrap in proptest::collection::vec(any::<bool>(), 1..8),
        at in any::<proptest::sample::Index>(),
        cut in 0usize..4,
        patch in prop::sample::select(vec![
            "", " ", "  ", "\n", "\n\n", "\t", "\r", "#", " # c", ":", ": ", "{", "}", ",", ", ",
            "'", "\"", "-", "~", "n1", "n2: 1", "static: 3, ", "chance: {n2: 1}, ", "null",
            "generate", "[1, 2]", "é", "3", "x y", "tree:\n", "\ntree:\n  z: {y: 1}\n",
        ]),
    ) {
        let mut text = tree_spec(&root, &flow, &wrap);
        let at = at.index(text.len());
        let end = (at + cut).min(text.len());
        text.replace_range(at..end, patch);
        same_either_way(&text)?;
    }
}

//! The handout's work-span trade-off, as far as it is an invariant. On any tree, minimax does
//! the most work, alpha-beta the least, and Jamboree at every prune percentage sits between
//! them. Span is different: Jamboree's parallel children get wider bounds than alpha-beta's,
//! so it can visit more nodes in turn than alpha-beta and end up with a longer span (the
//! counterexample below); and a search that cuts off the tree's deepest path can even have a
//! shorter span than minimax's. On the handout trees Jamboree does sit between in both
//! (tests/cli_stats.rs).

use gametrace::spec::{load_str, Document};
use gametrace::stats::{table, Row};
use proptest::prelude::*;
use std::path::Path;

mod common;
use common::{shape, Shape};

/// The tree as a flow-style YAML spec.
fn spec_text(shape: &Shape, root_player: &str, rules: &str) -> String {
    fn write(s: &Shape, n: &mut usize, out: &mut String) {
        out.push_str(&format!("n{n}: "));
        *n += 1;
        match s {
            Shape::Leaf(v) => out.push_str(&v.to_string()),
            Shape::Node(kids) => {
                out.push('{');
                for (i, k) in kids.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(k, n, out);
                }
                out.push('}');
            }
        }
    }
    let mut tree = String::new();
    write(shape, &mut 0, &mut tree);
    format!(
        "root_player: {root_player}\ntree: {{{tree}}}\ncases: {{ab: {{algorithm: alphabeta, dialect: {rules}}}}}\n"
    )
}

fn get<'r>(rows: &'r [Row], search: &str) -> &'r Row {
    rows.iter().find(|r| r.search == search).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn jamboree_sits_between_minimax_and_alpha_beta(
        s in shape(),
        root in prop_oneof![Just("Maxie"), Just("Minnie")],
        rules in prop_oneof![Just("s14"), Just("s12")],
    ) {
        let Document::Tree(spec) = load_str(Path::new("t.yaml"), &spec_text(&s, root, rules)).unwrap() else {
            unreachable!()
        };
        let rows = table(&spec);
        let (mm, ab) = (get(&rows, "minimax"), get(&rows, "alphabeta"));
        prop_assert_eq!(mm.work as usize, spec.tree.len());
        prop_assert_eq!(mm.span, u64::from(spec.tree.height()) + 1);
        prop_assert_eq!(ab.span, ab.work);
        for p in ["0", "0.25", "0.5", "0.75", "1"] {
            let j = get(&rows, &format!("jamboree {p}"));
            prop_assert!(ab.work <= j.work && j.work <= mm.work, "work: {:?}", rows);
            prop_assert!(j.span <= j.work);
        }
        let (j0, j1) = (get(&rows, "jamboree 0"), get(&rows, "jamboree 1"));
        prop_assert_eq!((j0.work, j0.span), (mm.work, mm.span));
        prop_assert_eq!((j1.work, j1.span), (ab.work, ab.span));
    }
}

/// Found by the property above when it also claimed `span(jamboree) <= span(alphabeta)`.
/// Minnie's root has moves [3, {0}, {0, {1, 0}}]. Alpha-beta: beta = 3, then the second
/// child gives 0, so the third (entered with beta 0) is cut after its first leaf: 6 nodes,
/// all in turn, span 6. Jamboree 0.5 searches only the first root move in turn (floor 1.5 =
/// 1); the other two run in parallel with beta 3 and nothing is cut: 9 nodes, and the third
/// child's chain is 1 + 1 (its leaf 0, in turn) + 3 (the Minnie node: 1 + its first leaf +
/// its second, in parallel), so the root's span is 1 + 1 + max(2, 5) = 7 > 6.
#[test]
fn jamboree_can_have_a_longer_span_than_alpha_beta() {
    let text = "root_player: Minnie\ntree: {r: {a: 3, b: {c: 0}, d: {e: 0, f: {g: 1, h: 0}}}}\ncases: {ab: {algorithm: alphabeta}}\n";
    let Document::Tree(spec) = load_str(Path::new("t.yaml"), text).unwrap() else {
        unreachable!()
    };
    let rows = table(&spec);
    let (ab, j) = (get(&rows, "alphabeta"), get(&rows, "jamboree 0.5"));
    assert_eq!((ab.work, ab.span), (6, 6));
    assert_eq!((j.work, j.span), (9, 7));
}

//! `unordered: parallel`: a trace whose parallel children are printed in any order passes, a
//! wrong line in such a trace is still the first divergence, and the catalogue still names a
//! mistake printed out of order.
//!
//! The reordering here is worked out from the tree alone, not from the searchers' marks: a
//! node's lines enclose its children's segments, and the children a parallel phase searches
//! are those past Jamboree's sequential share (every child in minimax).

use gametrace::check::diagnose::{diagnose, Finding};
use gametrace::check::trace::{self, check, Mode, Subject, TreeCase};
use gametrace::diff::Palette;
use gametrace::game::tree::{NodeId, Tree};
use gametrace::run::{Place, RefLine};
use gametrace::search::mistakes::{bugs_for, Flaw, Flaws};
use gametrace::search::{sequential_count, Algorithm};
use gametrace::spec::{self, Document, Unordered};
use proptest::prelude::*;
use std::path::Path;

fn generated(seed: u64, depth: u32, algorithm: &str, dialect: &str, root: &str) -> spec::Spec {
    let lines = match dialect {
        "s14" => "[enter, estimate, result, value, terminals, choice]",
        "s12" => "[search, enter, estimate, result, value, terminals, choice]",
        _ => "[estimate, choice]",
    };
    let text = format!(
        "tree: {{generate: {{branching: 3, depth: {depth}, seed: {seed}, min: 0, max: 4}}}}\nroot_player: {root}\ncases:\n  c: {{{algorithm}, dialect: {dialect}, lines: {lines}, unordered: parallel}}\n"
    );
    match spec::load_str(Path::new("gen.yaml"), &text).unwrap() {
        Document::Tree(s) => s,
        _ => unreachable!(),
    }
}

/// A small deterministic generator, so a failing case replays from its seed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn node_of(line: &RefLine) -> NodeId {
    match line.place {
        Place::Node(n, _) => n,
        Place::Moves(..) => unreachable!("tree lines are placed at nodes"),
    }
}

/// The lines `from..to` (the segment of node `v`), each parallel phase's children shuffled.
#[allow(clippy::too_many_arguments)]
fn shuffled(
    tree: &Tree,
    parent: &[Option<NodeId>],
    lines: &[RefLine],
    v: NodeId,
    from: usize,
    to: usize,
    share: &dyn Fn(usize) -> usize,
    rng: &mut Lcg,
) -> Vec<usize> {
    // The child of `v` whose subtree holds `x`, if `x` is below `v`.
    let child_of = |mut x: NodeId| -> Option<NodeId> {
        while let Some(p) = parent[x as usize] {
            if p == v {
                return Some(x);
            }
            x = p;
        }
        None
    };
    let children = tree.children(v);
    let first = share(children.len());
    // Own lines stay; each child's run of lines is a segment.
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut movable: Vec<usize> = Vec::new();
    let mut i = from;
    while i < to {
        let Some(c) = child_of(node_of(&lines[i])) else {
            out.push(vec![i]);
            i += 1;
            continue;
        };
        let start = i;
        while i < to && child_of(node_of(&lines[i])) == Some(c) {
            i += 1;
        }
        let index = children.iter().position(|x| x == c).unwrap();
        if index >= first {
            movable.push(out.len());
        }
        out.push(shuffled(tree, parent, lines, c, start, i, share, rng));
    }
    // Fisher-Yates over the movable segments' slots.
    for k in (1..movable.len()).rev() {
        let j = rng.below(k + 1);
        out.swap(movable[k], movable[j]);
    }
    out.concat()
}

fn parents(tree: &Tree) -> Vec<Option<NodeId>> {
    let mut parent = vec![None; tree.len()];
    for v in 0..tree.len() as NodeId {
        for c in tree.children(v) {
            parent[c as usize] = Some(v);
        }
    }
    parent
}

/// The case's trace with every parallel phase's children shuffled.
fn reordered(s: &spec::Spec, lines: &[RefLine], seed: u64) -> String {
    reordered_as(s, lines, seed, false)
}

/// [`reordered`], for a variant that rounds Jamboree's sequential share up if `rounds_up`.
fn reordered_as(s: &spec::Spec, lines: &[RefLine], seed: u64, rounds_up: bool) -> String {
    let algorithm = s.cases[0].algorithm;
    let share = move |n: usize| match algorithm {
        Algorithm::Jamboree { prune_percentage } if rounds_up => {
            ((prune_percentage * n as f64).ceil() as usize).min(n)
        }
        _ => sequential_count(algorithm, n),
    };
    let order = shuffled(
        &s.tree,
        &parents(&s.tree),
        lines,
        s.tree.root(),
        0,
        lines.len(),
        &share,
        &mut Lcg(seed),
    );
    order
        .iter()
        .map(|&i| format!("{}\n", lines[i].text))
        .collect()
}

const PALETTE: Palette = Palette { color: false };

fn algorithms() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "algorithm: minimax",
        "algorithm: jamboree, prune_percentage: 0",
        "algorithm: jamboree, prune_percentage: 0.5",
        "algorithm: jamboree, prune_percentage: 0.7",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_order_of_parallel_children_passes_and_a_wrong_line_is_still_found(
        seed in 0u64..500,
        depth in 1u32..5,
        algorithm in algorithms(),
        dialect in prop::sample::select(vec!["s14", "s12", "repl"]),
        root in prop::sample::select(vec!["maxie", "minnie"]),
        pick in 0usize..10_000,
    ) {
        let s = generated(seed, depth, algorithm, dialect, root);
        let case = &s.cases[0];
        let subject = TreeCase { spec: &s, case };
        let (lines, _) = gametrace::run::reference_lines(&s, case, case.style.lines);
        let text = reordered(&s, &lines, seed);
        for mode in [Mode::Full, Mode::Terminals] {
            let r = check(&subject, mode, &text, ("ref", "out"), PALETTE, false).unwrap();
            prop_assert!(r.passed, "{mode}: {}\n{}\n{text}", r.summary, r.details("out"));
        }
        // One line changed: the first divergence is that line, wherever its block moved.
        let mut changed: Vec<String> = text.lines().map(str::to_owned).collect();
        let i = pick % changed.len();
        changed[i].push_str(" (changed)");
        let changed = changed.join("\n");
        let r = check(&subject, Mode::Full, &changed, ("ref", "out"), PALETTE, false).unwrap();
        // (A choice line with text after it is no trace line at all: nothing to find.)
        prop_assume!(r.extraction.lines.len() == lines.len());
        prop_assert!(!r.passed);
        let d = r.divergence.clone().unwrap();
        prop_assert_eq!(d.actual_line, Some(i + 1), "{}", r.details("out"));
        // And it is the only difference: the blocks after it still follow the output.
        prop_assert_eq!(r.mismatches, 2, "{}", r.details("out"));
    }

    #[test]
    fn without_the_setting_a_reordered_trace_fails_and_is_diagnosed_as_reordered(
        seed in 0u64..500,
        depth in 2u32..5,
        algorithm in algorithms(),
    ) {
        let mut s = generated(seed, depth, algorithm, "s14", "maxie");
        let (lines, _) = gametrace::run::reference_lines(&s, &s.cases[0], s.cases[0].style.lines);
        let text = reordered(&s, &lines, seed);
        let in_order: String = lines.iter().map(|l| format!("{}\n", l.text)).collect();
        prop_assume!(text != in_order);
        s.cases[0].unordered = Unordered::None;
        let case = &s.cases[0];
        let subject = TreeCase { spec: &s, case };
        let r = check(&subject, Mode::Full, &text, ("ref", "out"), PALETTE, false).unwrap();
        prop_assert!(!r.passed);
        let reading = trace::read(&subject, Mode::Full, &text, false).unwrap();
        let d = diagnose(&subject, &reading, false, None).unwrap();
        prop_assert_eq!(d.finding, Finding::Reordered, "{}", d.text);
    }

    #[test]
    fn a_mistake_printed_out_of_order_is_still_named(
        seed in 0u64..500,
        depth in 2u32..4,
        algorithm in algorithms(),
        rules in prop::sample::select(vec!["s14", "s12"]),
        pick in 0usize..100,
    ) {
        let s = generated(seed, depth, algorithm, rules, "maxie");
        let case = &s.cases[0];
        let subject = TreeCase { spec: &s, case };
        let bugs = bugs_for(case);
        let bug = bugs[pick % bugs.len()];
        let (lines, _) = subject.variant(case.style.lines, bug.flaws(), gametrace::run::Limit::Unlimited).unwrap();
        let (reference, _) = subject.reference(case.style.lines);
        // Rounding the share up moves a child from the parallel phase to the sequential one.
        let rounds_up = bug.flaws().has(Flaw::RoundsUp);
        let text = reordered_as(&s, &lines, seed, rounds_up);
        let reading = trace::read(&subject, Mode::Full, &text, false).unwrap();
        let (_, summary) = subject.reference(reading.kinds);
        prop_assume!(!trace::agreement(&subject, &reading, &reference, summary).exact);
        let d = diagnose(&subject, &reading, false, None).unwrap();
        prop_assert_eq!(d.finding, Finding::Exact, "{}: {}", bug, d.text);
        // The mistake itself is among the explanations, unless one mistake explains it alone
        // and this was a pair (never here) or another prints the very same output.
        let named: Vec<String> = d.explanations.iter().flatten().map(|n| n.bug.clone()).collect();
        prop_assert!(named.contains(&bug.to_string()) || d.explanations.iter().all(|e| {
            let flaws = e.iter().fold(Flaws::NONE, |f, n| f.union(gametrace::search::mistakes::Bug::parse(&n.bug).unwrap().flaws()));
            let (their, sum) = subject.variant(reading.kinds, flaws, gametrace::run::Limit::Unlimited).unwrap();
            trace::agreement(&subject, &reading, &their, sum).exact
        }), "{bug}: {named:?}");
    }
}

//! Which catalogued mistakes a case catches: a mistake is caught when its trace differs from
//! the reference's, and told apart when no other mistake prints the same trace. `stats`
//! reports it for every case; `new --discriminating` looks for a small tree on which every
//! mistake is both.

use super::diagnose::variant_trace;
use super::trace::Subject;
use crate::search::mistakes::{Bug, CATALOGUE};
use std::collections::HashMap;

/// Each case of a spec, by name, with its coverage.
pub type CaseCoverages = Vec<(String, Coverage)>;

/// One case's coverage of the catalogue (each mistake made at every node).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Mistakes the case can make.
    pub applicable: Vec<&'static str>,
    /// Mistakes whose trace is the reference's: a program with them passes.
    pub missed: Vec<&'static str>,
    /// Groups of mistakes (each caught) that print one and the same trace: the case cannot
    /// tell them apart.
    pub alike: Vec<Vec<&'static str>>,
    /// Groups of mistakes (each caught) that print the same trace on every tree under the
    /// case's rules ([`INSEPARABLE`]): no case could tell them apart.
    pub inseparable: Vec<Vec<&'static str>>,
}

/// Mistakes that print one and the same trace on every tree for a rule set and searcher
/// family, each with the reason (and a property test that checks it on random trees).
pub const INSEPARABLE: &[(crate::spec::Rules, &str, [&str; 2], &str)] = &[(
    crate::spec::Rules::S12,
    "jamboree",
    ["ties-other-way", "jamboree-folds-out-of-order"],
    "in S12 a tie can only show where Jamboree folds parallel values at the root, and there both keep the other tied move (tests/diagnosis.rs, s12_jamboree_ties_other_way_is_folding_backwards)",
)];

/// Mistakes that print the reference's trace on every tree for a rule set and searcher: a
/// case cannot catch them, so coverage does not count them against it.
pub const INVISIBLE: &[(crate::spec::Rules, &str, &str, &str)] = &[(
    crate::spec::Rules::S12,
    "alphabeta",
    "ties-other-way",
    "S12 alpha-beta never meets a tie: a child's value lies strictly between the bounds it was given, and the bound only becomes such a value, which the next child must beat strictly (tests/diagnosis.rs, s12_alpha_beta_never_breaks_a_tie)",
)];

/// Is `group` one of the [`INSEPARABLE`] groups for these rules and this searcher?
fn inseparable(rules: crate::spec::Rules, algorithm: &str, group: &[&str]) -> bool {
    INSEPARABLE.iter().any(|(r, a, names, _)| {
        *r == rules
            && *a == algorithm
            && group.len() == names.len()
            && names.iter().all(|n| group.contains(n))
    })
}

impl Coverage {
    pub fn caught(&self) -> usize {
        self.applicable.len() - self.missed.len()
    }

    /// Caught and told apart from every other mistake.
    pub fn distinguished(&self) -> usize {
        self.caught()
            - self
                .alike
                .iter()
                .chain(&self.inseparable)
                .map(Vec::len)
                .sum::<usize>()
    }

    pub fn is_complete(&self) -> bool {
        self.missed.is_empty() && self.alike.is_empty()
    }
}

/// The coverage of `subject`'s case.
pub fn of(subject: &dyn Subject) -> Coverage {
    let case = subject.case();
    let Ok(reference) = variant_trace(subject, &[]) else {
        return Coverage::default();
    };
    let mut c = Coverage::default();
    let mut by_trace: HashMap<String, Vec<&'static str>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let invisible = |name: &str| {
        INVISIBLE
            .iter()
            .any(|(r, a, n, _)| *r == case.rules && *a == case.algorithm.name() && *n == name)
    };
    for m in CATALOGUE
        .iter()
        .filter(|m| m.applies(case) && !invisible(m.name))
    {
        c.applicable.push(m.name);
        let bug = Bug {
            mistake: m.name,
            side: None,
        };
        let Ok(trace) = variant_trace(subject, &[bug]) else {
            continue;
        };
        if trace == reference {
            c.missed.push(m.name);
            continue;
        }
        if !by_trace.contains_key(&trace) {
            order.push(trace.clone());
        }
        by_trace.entry(trace).or_default().push(m.name);
    }
    let groups: Vec<Vec<&'static str>> = order
        .into_iter()
        .filter_map(|t| by_trace.remove(&t))
        .filter(|names| names.len() > 1)
        .collect();
    let (inherent, alike): (Vec<_>, Vec<_>) = groups
        .into_iter()
        .partition(|g| inseparable(case.rules, case.algorithm.name(), g));
    c.alike = alike;
    c.inseparable = inherent;
    c
}

/// The cases `new --discriminating` writes: every 15-150 searcher in both years, one level
/// short of the leaves (`{depth}`, filled in), where the tree's static values stop them, so
/// that a search which keeps its depth goes on past them. Jamboree searches with 0.4 so that
/// rounding its share up or down differs for two children and for three (floor(0.8) = 0 but
/// ceil = 1; floor(1.2) = 1 but ceil = 2).
pub const DISCRIMINATING_CASES: &str = "cases:
  alphabeta: {algorithm: alphabeta, dialect: s14, depth: {depth}}
  jamboree: {algorithm: jamboree, prune_percentage: 0.4, dialect: s14, depth: {depth}}
  minimax: {algorithm: minimax, dialect: s14, depth: {depth}}
  s12-alphabeta: {algorithm: alphabeta, dialect: s12, depth: {depth}}
  s12-jamboree: {algorithm: jamboree, prune_percentage: 0.4, dialect: s12, depth: {depth}}
  s12-minimax: {algorithm: minimax, dialect: s12, depth: {depth}}
";

/// Each case's coverage in a spec's text (one with tree cases).
pub fn of_spec_text(text: &str) -> CaseCoverages {
    let Ok(doc) = crate::spec::load_str(std::path::Path::new("discriminating.yaml"), text) else {
        return Vec::new();
    };
    doc.case_names()
        .into_iter()
        .filter_map(|name| {
            super::subject::with_subject(&doc, name, of)
                .ok()
                .map(|c| (name.to_owned(), c))
        })
        .collect()
}

/// Is the best value among the root's parallel moves (Jamboree at 0.4 searches floor(0.4·n)
/// of n in turn first) reached by two of them, and better than every move searched in turn?
/// Only then can S12 Jamboree's tie rules show: its parallel children's values, folded at
/// the root, decide the move it prints; below the root every value is relabelled with the
/// move into its node.
fn root_parallel_tie(text: &str, depth: u32) -> bool {
    use crate::game::tree::TreeGame;
    use crate::game::{Game, Player};
    let Ok(crate::spec::Document::Tree(spec)) =
        crate::spec::load_str(std::path::Path::new("discriminating.yaml"), text)
    else {
        return false;
    };
    let game = TreeGame::new(&spec.tree, Player::Maxie);
    let root = game.start();
    let values: Vec<_> = game
        .moves(&root)
        .map(|m| crate::search::minimax_value(&game, &game.play(&root, m), depth - 1))
        .collect();
    let in_turn = crate::search::sequential_count(
        crate::search::Algorithm::Jamboree {
            prune_percentage: 0.4,
        },
        values.len(),
    );
    let (sequential, parallel) = values.split_at(in_turn);
    let Some(&top) = parallel.iter().max() else {
        return false;
    };
    parallel.iter().filter(|&&v| v == top).count() > 1 && sequential.iter().all(|&v| v < top)
}

/// A search for a small tree on which every case of [`DISCRIMINATING_CASES`] catches and tells
/// apart every mistake it can make: shapes by increasing size, seeds in order, estimates from
/// -3 to 3 (small, so ties happen). The first tree that does it, or else the best seen (the
/// most mistakes told apart), with its spec text and coverage.
pub fn discriminating_tree(
    seeds: u64,
) -> (crate::game::tree::Generate, String, Vec<(String, Coverage)>) {
    use crate::game::tree::Generate;
    // (branching, depth) by node count: 63, 127, 364. The cases search one level short of
    // the leaves, at depth 4 or more: what tells a search that halves its depth from one
    // that estimates a level early (at depth 3 both stop at the second level).
    let shapes = [(2, 5), (2, 6), (3, 5)];
    let mut best: Option<(usize, Generate, String, CaseCoverages)> = None;
    for (branching, depth) in shapes {
        // Past the first `seeds`, only trees where S12 Jamboree can show a tie are measured.
        for seed in 0..seeds * 10 {
            let g = Generate {
                branching,
                depth,
                seed,
                min: -3,
                max: 3,
            };
            let generated = crate::spec::new::spec_with_statics(&g);
            let body = generated.split("cases:\n").next().unwrap_or_default();
            let cases = DISCRIMINATING_CASES.replace("{depth}", &(depth - 1).to_string());
            let text = format!("{body}{cases}");
            if seed >= seeds && !root_parallel_tie(&text, depth - 1) {
                continue;
            }
            let coverage = of_spec_text(&text);
            let score: usize = coverage.iter().map(|(_, c)| c.distinguished()).sum();
            let complete = coverage.iter().all(|(_, c)| c.is_complete());
            if complete {
                return (g, text, coverage);
            }
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, g, text, coverage));
            }
        }
    }
    let (_, g, text, coverage) = best.expect("at least one tree is tried");
    (g, text, coverage)
}

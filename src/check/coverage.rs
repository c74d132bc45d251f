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
}

impl Coverage {
    pub fn caught(&self) -> usize {
        self.applicable.len() - self.missed.len()
    }

    /// Caught and told apart from every other mistake.
    pub fn distinguished(&self) -> usize {
        self.caught() - self.alike.iter().map(Vec::len).sum::<usize>()
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
    for m in CATALOGUE
        .iter()
        .filter(|m| m.applies(case.rules, case.algorithm))
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
    c.alike = order
        .into_iter()
        .filter_map(|t| by_trace.remove(&t))
        .filter(|names| names.len() > 1)
        .collect();
    c
}

/// The cases `new --discriminating` writes: every 15-150 searcher in both years. Jamboree
/// searches with 0.4 so that rounding its share up or down differs for two children and for
/// three (floor(0.8) = 0 but ceil = 1; floor(1.2) = 1 but ceil = 2).
pub const DISCRIMINATING_CASES: &str = "cases:
  alphabeta: {algorithm: alphabeta, dialect: s14}
  jamboree: {algorithm: jamboree, prune_percentage: 0.4, dialect: s14}
  minimax: {algorithm: minimax, dialect: s14}
  s12-alphabeta: {algorithm: alphabeta, dialect: s12}
  s12-jamboree: {algorithm: jamboree, prune_percentage: 0.4, dialect: s12}
  s12-minimax: {algorithm: minimax, dialect: s12}
";

/// Each case's coverage in a spec's text (one with tree cases).
pub fn of_spec_text(text: &str) -> CaseCoverages {
    let Ok(doc) = crate::spec::load_str(std::path::Path::new("discriminating.yaml"), text) else {
        return Vec::new();
    };
    doc.case_names()
        .into_iter()
        .filter_map(|name| {
            super::case::with_subject(&doc, name, of)
                .ok()
                .map(|c| (name.to_owned(), c))
        })
        .collect()
}

/// A search for a small tree on which every case of [`DISCRIMINATING_CASES`] catches and tells
/// apart every mistake it can make: shapes by increasing size, seeds in order, estimates from
/// -3 to 3 (small, so ties happen). The first tree that does it, or else the best seen (the
/// most mistakes told apart), with its spec text and coverage.
pub fn discriminating_tree(
    seeds: u64,
) -> (crate::game::tree::Generate, String, Vec<(String, Coverage)>) {
    use crate::game::tree::Generate;
    // (branching, depth) by node count: 7, 13, 15, 21, 31, 40, 63, 85, 121. Depth 4 or more
    // is what tells a search that halves its depth from one that estimates a level early.
    let shapes = [
        (2, 2),
        (3, 2),
        (2, 3),
        (4, 2),
        (2, 4),
        (3, 3),
        (2, 5),
        (4, 3),
        (3, 4),
    ];
    let mut best: Option<(usize, Generate, String, CaseCoverages)> = None;
    for (branching, depth) in shapes {
        for seed in 0..seeds {
            let g = Generate {
                branching,
                depth,
                seed,
                min: -3,
                max: 3,
            };
            let generated = crate::spec::new::spec(&g);
            let body = generated.split("cases:\n").next().unwrap_or_default();
            let text = format!("{body}{DISCRIMINATING_CASES}");
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

//! A name must predict: a mistake named on one case of a run is held to what the program
//! printed on the run's other cases. `diagnose` names the catalogued mistakes (or pairs) that
//! print a failing case's output; a student's program makes the same mistake everywhere, so
//! an explanation that prints something else than the program on another case of the same
//! searcher does not explain the program, only that one output. Across the cases of one
//! searcher (a CS188 question's tests: one agent class), the explanations that print every
//! output the program printed, failing and passing, are the ones named; when none does, each
//! failing case's exact match is said to be only the closest, with the case it fails on.

use super::diagnose::Diagnosis;
use super::trace::{agreement, read, Mode, Subject};
use crate::diagnosis::{explanation_name, Finding, Named};
use crate::report::CaseResult;
use crate::search::mistakes::{Bug, Flaws};
use std::fmt::Write as _;

/// Calls its second argument with the case of the run's result at that index.
pub type ResultCase<'a> = dyn Fn(usize, &mut dyn FnMut(&dyn Subject)) + 'a;

/// What a program printed on a case, as it was judged: kept for [`confirm`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    pub output: String,
    /// The program stopped before it finished (crashed, timed out).
    pub cut: bool,
    pub mode: Mode,
    pub exact: bool,
}

/// Does the variant with `bugs` (those of them the case can make) print what the program
/// printed on this case, as the case compares? A program that stopped is matched only by a
/// variant that stops there too.
pub fn predicts(subject: &dyn Subject, judged: &Judged, bugs: &[Bug]) -> bool {
    let case = subject.case();
    let flaws = bugs
        .iter()
        .filter(|b| b.entry().applies(case))
        .fold(Flaws::NONE, |f, b| f.union(b.flaws()));
    let Ok(reading) = read(subject, judged.mode, &judged.output, judged.exact) else {
        return false;
    };
    let budget = 16 * (reading.lines() as u64) + 100_000;
    let Some((lines, summary)) =
        subject.variant(reading.kinds, flaws, crate::run::Limit::Expansions(budget))
    else {
        return false;
    };
    if summary.raised != judged.cut {
        return false;
    }
    let a = agreement(subject, &reading, &lines, summary);
    match (judged.cut, reading.sequence()) {
        // What a stopped program printed is the beginning of the variant's trace.
        (true, Some((want, _))) => a.prefix.is_some_and(|p| p >= want.len()),
        _ => a.exact,
    }
}

/// The searcher a case's program is: cases of one key are one program's (a CS188 agent
/// class), so one mistake must explain them all.
fn searcher_key(subject: &dyn Subject) -> Option<String> {
    let case = subject.case();
    (case.rules == crate::spec::Rules::Cs188)
        .then(|| format!("{} {}", case.rules.name(), case.algorithm.name()))
}

/// Holds each failing case's named mistakes to the program's outputs on the run's other cases
/// of the same searcher, and rewrites the diagnoses (and the details that quote them).
/// `with_case(i, f)` calls `f` with result `i`'s case.
pub fn confirm(results: &mut [CaseResult], with_case: &ResultCase) {
    // Group the results by searcher.
    let mut keys: Vec<Option<String>> = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        let mut key = None;
        with_case(i, &mut |s| key = searcher_key(s));
        keys.push(key.filter(|_| r.judged.is_some()));
    }
    let mut groups: Vec<&String> = keys.iter().flatten().collect();
    groups.sort();
    groups.dedup();
    let groups: Vec<String> = groups.into_iter().cloned().collect();
    for key in groups {
        let members: Vec<usize> = (0..results.len())
            .filter(|&i| keys[i].as_deref() == Some(key.as_str()))
            .collect();
        if members.len() < 2 {
            continue;
        }
        confirm_group(results, &members, with_case);
    }
}

/// The explanations named exactly on some case of the group, each once, fewest mistakes
/// first.
fn candidates(results: &[CaseResult], members: &[usize]) -> Vec<Vec<Named>> {
    let mut out: Vec<Vec<Named>> = Vec::new();
    for &i in members {
        let Some(d) = &results[i].diagnosis else {
            continue;
        };
        if d.finding != Finding::Exact {
            continue;
        }
        for e in &d.explanations {
            if !out
                .iter()
                .any(|o| explanation_name(o) == explanation_name(e))
            {
                out.push(e.clone());
            }
        }
    }
    out.sort_by_key(Vec::len);
    out
}

fn confirm_group(results: &mut [CaseResult], members: &[usize], with_case: &ResultCase) {
    let mut candidates = candidates(results, members);
    if candidates.is_empty() {
        return;
    }
    // For each candidate, the first case (in the run's order) whose output it does not print.
    let fails = |e: &Vec<Named>, results: &[CaseResult]| -> Option<usize> {
        let bugs: Vec<Bug> = e.iter().filter_map(|n| Bug::parse(&n.bug).ok()).collect();
        for &j in members {
            let Some(judged) = results[j].judged.clone() else {
                continue;
            };
            let mut ok = false;
            with_case(j, &mut |s| ok = predicts(s, &judged, &bugs));
            if !ok {
                return Some(j);
            }
        }
        None
    };
    let mut fails_on: Vec<Option<usize>> = candidates.iter().map(|e| fails(e, results)).collect();
    // A program with two mistakes may show one on a case and the other on another: each case
    // names one, and the pair of them is what predicts them all.
    if fails_on.iter().all(Option::is_some) {
        let singles: Vec<Vec<Named>> = candidates
            .iter()
            .filter(|e| e.len() == 1)
            .cloned()
            .collect();
        for (i, a) in singles.iter().enumerate() {
            for b in &singles[i + 1..] {
                if a[0].mistake == b[0].mistake {
                    continue;
                }
                let pair = vec![a[0].clone(), b[0].clone()];
                fails_on.push(fails(&pair, results));
                candidates.push(pair);
            }
        }
    }
    let fewest = candidates
        .iter()
        .zip(&fails_on)
        .filter(|(_, f)| f.is_none())
        .map(|(e, _)| e.len())
        .min();
    let predicting: Vec<&Vec<Named>> = candidates
        .iter()
        .zip(&fails_on)
        .filter(|(e, f)| f.is_none() && Some(e.len()) == fewest)
        .map(|(e, _)| e)
        .collect();
    let cases = members.len();
    for &i in members {
        if results[i].status.passed() {
            continue;
        }
        let Some(old) = results[i].diagnosis.clone() else {
            continue;
        };
        let new = if !predicting.is_empty() {
            named_everywhere(&old, &predicting, cases)
        } else if old.finding == Finding::Exact {
            // The first explanation named here, and a case it does not print.
            let e = &old.explanations[0];
            let at = candidates
                .iter()
                .position(|c| explanation_name(c) == explanation_name(e))
                .and_then(|k| fails_on[k]);
            let other = at.map(|j| results[j].case.clone()).unwrap_or_default();
            only_closest(&old, &other, cases)
        } else {
            continue;
        };
        let r = &mut results[i];
        if !old.text.is_empty() && r.details.contains(&old.text) {
            r.details = r.details.replacen(&old.text, &new.text, 1);
        }
        r.diagnosis = Some(new);
    }
}

fn phrase(e: &[Named]) -> String {
    e.iter()
        .map(Named::phrase)
        .collect::<Vec<_>>()
        .join(" together with ")
}

/// The explanations that print every output of the run, named on this case.
fn named_everywhere(old: &Diagnosis, predicting: &[&Vec<Named>], cases: usize) -> Diagnosis {
    let mut text = String::new();
    let names: Vec<String> = predicting.iter().map(|e| phrase(e)).collect();
    let one = names.len() == 1;
    let _ = writeln!(
        text,
        "diagnosis: the program's outputs on all {cases} cases of this searcher are exactly what the reference prints with {} {}{}",
        match (one, predicting[0].len()) {
            (true, 1) => "the mistake",
            (true, _) => "the mistakes",
            (false, _) => "any of these mistakes:",
        },
        names.join("; "),
        if one { "" } else { " (no case of the run tells them apart)" },
    );
    let mut seen = Vec::new();
    for n in predicting.iter().flat_map(|e| e.iter()) {
        if seen.contains(&n.mistake) {
            continue;
        }
        seen.push(n.mistake);
        let _ = writeln!(text, "  {}: {}", n.mistake, n.sentence);
        let _ = writeln!(text, "    the handout: {}", n.handout);
    }
    Diagnosis {
        finding: Finding::Exact,
        explanations: predicting.iter().map(|e| (*e).clone()).collect(),
        separated_by: Vec::new(),
        text,
        ..old.clone()
    }
}

/// An exact match on this case that prints otherwise than the program on `other`: the
/// closest, not the mistake.
fn only_closest(old: &Diagnosis, other: &str, cases: usize) -> Diagnosis {
    let e = &old.explanations[0];
    let mut text = format!(
        "diagnosis: no catalogued mistake (or pair) prints what the program printed on all {cases} cases of this searcher; the closest is {}, which prints this case's output but not case `{other}`'s\n",
        phrase(e)
    );
    for n in e {
        let _ = writeln!(text, "  {}: {}", n.mistake, n.sentence);
    }
    Diagnosis {
        finding: Finding::Closest,
        explanations: vec![e.clone()],
        matched: None,
        of: None,
        reference_matched: None,
        separated_by: Vec::new(),
        text,
        ..old.clone()
    }
}

//! Naming the mistake behind a wrong trace: the catalogue's variants of the case's searcher
//! (one mistake each, then pairs) are run on the same case and compared with the output in
//! the same mode. A variant that prints exactly the output explains it; failing that, the
//! one that agrees longest from the start (or, in the set modes, differs in fewest items) is
//! offered as the closest, but only if it is closer than the reference itself.

use super::trace::{
    agreement, agrees_in_any_parallel_order, chosen_move_item, Agreement, Mode, Reading, Subject,
};
pub use crate::diagnosis::{Diagnosis, Finding, Named, Separation};
use crate::run::{line_counts, Want};
use crate::search::mistakes::{bugs_for, Bug, Flaws};
use crate::spec::Unordered;
use std::fmt::Write as _;

/// Calls its second argument with the spec's case of that name, if there is one.
pub type CaseVisitor<'a> = dyn Fn(&str, &mut dyn FnMut(&dyn Subject)) + 'a;

/// The cases of the spec, other than the one diagnosed, on which two of `diagnosis`'s
/// explanations print differently as the case compares outputs; `with_case` reaches them.
pub fn separating_cases(
    diagnosis: &Diagnosis,
    diagnosed: &str,
    others: &[&str],
    with_case: &CaseVisitor,
) -> Vec<Separation> {
    if !diagnosis.ambiguous() {
        return Vec::new();
    }
    let bugs: Vec<Vec<Bug>> = diagnosis
        .explanations
        .iter()
        .map(|e| {
            e.iter()
                .filter_map(|n| Bug::parse(&n.bug).ok())
                .collect::<Vec<Bug>>()
        })
        .collect();
    let mut found: Vec<Separation> = Vec::new();
    for name in others.iter().filter(|n| **n != diagnosed) {
        with_case(name, &mut |subject: &dyn Subject| {
            let case = subject.case();
            let budget = crate::run::Limit::Expansions(2_000_000);
            for i in 0..bugs.len() {
                for j in i + 1..bugs.len() {
                    let pair = [&diagnosis.explanations[i], &diagnosis.explanations[j]];
                    let names = pair.map(|e| crate::diagnosis::explanation_name(e));
                    // One case per pair is enough to say.
                    if found.iter().any(|f| f.tells_apart == names) {
                        continue;
                    }
                    if !bugs[i]
                        .iter()
                        .chain(&bugs[j])
                        .all(|b| b.entry().applies(case))
                    {
                        continue;
                    }
                    if prints_differently(subject, &bugs[i], &bugs[j], budget) {
                        found.push(Separation {
                            case: name.to_string(),
                            tells_apart: names,
                        });
                    }
                }
            }
        });
    }
    found
}

/// Would an output of the variant with `a`, checked in `subject`'s case the way the case
/// checks (its mode), be told apart from the variant with `b`?
fn prints_differently(
    subject: &dyn Subject,
    a: &[Bug],
    b: &[Bug],
    budget: crate::run::Limit,
) -> bool {
    let case = subject.case();
    let flaws = |bugs: &[Bug]| bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()));
    let Some((lines, _)) = subject.variant(case.style.lines, flaws(a), budget) else {
        return false;
    };
    let mut text = String::new();
    for l in &lines {
        text.push_str(&l.text);
        text.push('\n');
    }
    let Ok(reading) = super::trace::read(subject, case.mode, &text, case.exact) else {
        return false;
    };
    match subject.variant(reading.kinds, flaws(b), budget) {
        Some((other, summary)) => !agreement(subject, &reading, &other, summary).exact,
        None => false,
    }
}

/// A variant and how it agreed.
#[derive(Clone, Debug)]
struct Tried {
    bugs: Vec<Bug>,
    agreement: Option<Agreement>,
    /// Prints something else than the reference (in this mode).
    differs: bool,
}

/// Runs a variant (its bugs) and measures it against the output.
type Runner<'a> = Box<dyn Fn(Vec<Bug>) -> Tried + Sync + 'a>;

/// Is `a` closer to the output than `b`?
fn closer(a: &Agreement, b: &Agreement) -> bool {
    match (a.prefix, b.prefix) {
        (Some(x), Some(y)) => x > y,
        _ => a.mismatches < b.mismatches,
    }
}

/// Diagnoses a FAIL: `reading` is the output as the case's mode reads it. `None` when the case
/// has no catalogued mistakes (no variant to run).
///
/// `cut`: the output stops short (the program crashed, or was stopped). A variant then
/// explains it when its trace begins with every line printed; nothing is named when the
/// reference's does too (what was printed is right as far as it goes), nor in the modes
/// that compare whole searches.
pub fn diagnose(
    subject: &dyn Subject,
    reading: &Reading,
    cut: bool,
    deadline: Option<crate::clock::Instant>,
) -> Option<Diagnosis> {
    // Past `deadline` no more variant is run: the diagnosis keeps to the case's time limit
    // (an 8 MB output would otherwise hold a grader for as long as its variants take).
    let ran_out = std::sync::atomic::AtomicBool::new(false);
    let late = || {
        let late =
            deadline.is_some_and(|d| crate::clock::TICKS && crate::clock::Instant::now() >= d);
        if late {
            ran_out.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        late
    };
    let case = subject.case();
    let singles = bugs_for(case);
    if singles.is_empty() {
        return None;
    }
    // The line kinds the output prints at all: a summary line it never prints is left out
    // of every trace it is held to.
    let (kinds, unprinted) = reading.kinds_printed();
    let (ref_lines, ref_summary) = subject.reference(kinds);
    if case.unordered == Unordered::None
        && agrees_in_any_parallel_order(subject, reading, &ref_lines, ref_summary)
    {
        return Some(Diagnosis {
            finding: Finding::Reordered,
            explanations: Vec::new(),
            matched: None,
            of: None,
            reference_matched: None,
            tried: 0,
            separated_by: Vec::new(),
            text: "diagnosis: this output is the reference's with the children of parallel phases printed in another order, as a parallel implementation may print them; `unordered: parallel` in the case accepts that\n".to_owned(),
        });
    }
    // A variant may search far more than the reference (never decreasing the depth in a real
    // game): it stops once it has done much more than either side printed.
    let budget = 16 * (ref_lines.len().max(reading.lines()) as u64) + 100_000;
    let any_order = case.unordered == Unordered::Parallel;
    let sequence = reading.sequence();
    // In any order, a variant is held against the output's lines as a multiset: it stops at
    // its first line the output does not have, and one that prints them all is confirmed by
    // matching its blocks.
    let counts = sequence
        .as_ref()
        .filter(|_| any_order)
        .map(|(want, _)| line_counts(want));
    let normalise = |t: &str| {
        if reading.exact() {
            t.to_owned()
        } else {
            crate::diff::normalize(t).into_owned()
        }
    };
    // A student's own tracing may print no `(* Pruned *)` mark at all (its search keeps no
    // such flag): the variants are then held to the output without it.
    let unmarked = sequence
        .as_ref()
        .is_some_and(|(want, _)| !want.iter().any(|l| l.contains(crate::run::PRUNED_MARK)))
        && ref_lines
            .iter()
            .any(|r| r.text.contains(crate::run::PRUNED_MARK));
    let ref_want: Vec<String> = ref_lines
        .iter()
        .map(|r| {
            let t = normalise(&r.text);
            if unmarked {
                t.strip_suffix(crate::run::PRUNED_MARK)
                    .map_or(t.clone(), str::to_owned)
            } else {
                t
            }
        })
        .collect();
    let ref_last = sequence
        .as_ref()
        .and_then(|(_, last)| last.map(|_| chosen_move_item(subject, ref_summary)));
    let measure = |flaws: Flaws, want: Want, last: Option<&str>| {
        let p = subject.variant_prefix(kinds, flaws, budget, want)?;
        let mut prefix = p.matched;
        let mut exact = false;
        if cut {
            // Every line printed, from the start: as far as the output goes, this is it.
            exact = !want.lines.is_empty() && p.matched == want.lines.len();
        } else if let Some(summary) = p.finished.filter(|_| p.matched == want.lines.len()) {
            match last {
                None => exact = true,
                Some(m) if chosen_move_item(subject, summary) == m => {
                    exact = true;
                    prefix += 1;
                }
                Some(_) => {}
            }
        }
        if exact && want.any_order.is_some() {
            let (lines, summary) =
                subject.variant(kinds, flaws, crate::run::Limit::Expansions(budget))?;
            exact = agreement(subject, reading, &lines, summary).exact;
        }
        Some(Agreement {
            exact,
            prefix: Some(prefix),
            total: want.lines.len() + usize::from(last.is_some()),
            mismatches: 0,
        })
    };
    let output_want = sequence.as_ref().map(|(want, last)| {
        (
            Want {
                lines: want,
                exact: reading.exact(),
                any_order: counts.as_ref(),
                without_pruned_mark: unmarked,
            },
            *last,
        )
    });
    if cut {
        // In the set modes a stopped program is held against whole searches of variants
        // that stop where it stopped (a CS188 agent that raises): see the runner below.
        match output_want {
            Some((want, _)) => {
                let as_printed = measure(Flaws::NONE, want, None)?;
                if as_printed.exact || any_order {
                    return None;
                }
            }
            // Only the CS188 searchers stop as a program does.
            None if case.rules != crate::spec::Rules::Cs188 => return None,
            None => {}
        }
    }
    let output_want = output_want.map(|(want, last)| (want, if cut { None } else { last }));
    // Against the output as the variants are measured, so that "closer" compares like with
    // like.
    let reference = match output_want {
        Some((want, last)) if any_order => measure(Flaws::NONE, want, last).unwrap_or(Agreement {
            exact: false,
            prefix: Some(0),
            total: want.lines.len(),
            mismatches: 0,
        }),
        _ => agreement(subject, reading, &ref_lines, ref_summary),
    };
    let run: Runner = match output_want {
        // Sequence modes: each variant runs only until its first line that differs.
        Some((want, last)) => {
            let ref_want = Want {
                lines: &ref_want,
                exact: reading.exact(),
                any_order: None,
                without_pruned_mark: unmarked,
            };
            let ref_last = ref_last.as_deref();
            let measure = &measure;
            let late = &late;
            Box::new(move |bugs: Vec<Bug>| {
                if late() {
                    return Tried {
                        bugs,
                        agreement: None,
                        differs: false,
                    };
                }
                let flaws = bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()));
                let agreement = measure(flaws, want, last);
                // Worth pairing only if it changes the trace at all (variants print in move
                // order, as the reference does).
                let differs = agreement.is_none()
                    || measure(flaws, ref_want, ref_last).is_none_or(|a| !a.exact);
                Tried {
                    bugs,
                    agreement,
                    differs,
                }
            })
        }
        // Set modes compare whole searches.
        None => {
            let ref_texts: Vec<&str> = ref_lines.iter().map(|r| r.text.as_str()).collect();
            let late = &late;
            Box::new(move |bugs: Vec<Bug>| {
                if late() {
                    return Tried {
                        bugs,
                        agreement: None,
                        differs: false,
                    };
                }
                let flaws = bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()));
                match subject.variant(kinds, flaws, crate::run::Limit::Expansions(budget)) {
                    Some((lines, summary)) => {
                        let differs = summary.best_index != ref_summary.best_index
                            || summary.raised != ref_summary.raised
                            || lines.len() != ref_texts.len()
                            || lines.iter().zip(&ref_texts).any(|(l, r)| l.text != *r);
                        let mut agreed = agreement(subject, reading, &lines, summary);
                        // A program that stopped is explained only by a search that stops
                        // where it did (and one that ran to its end by one that does too).
                        if summary.raised != cut {
                            agreed.exact = false;
                            agreed.mismatches = agreed.mismatches.max(1);
                        }
                        Tried {
                            agreement: Some(agreed),
                            bugs,
                            differs,
                        }
                    }
                    None => Tried {
                        bugs,
                        agreement: None,
                        differs: true,
                    },
                }
            })
        }
    };
    let mut tried: Vec<Tried> = crate::par::map(singles.clone(), |b| run(vec![b]));
    if !tried.iter().any(exact) {
        // Pairs of different mistakes (a mistake at Maxie's and at Minnie's nodes is the
        // mistake everywhere, already tried) of which at least one changes the trace: the
        // other may change nothing alone and still change what the first does (a root that
        // never prunes shows bounds that are never raised).
        let changes: Vec<bool> = tried.iter().map(|t| t.differs).collect();
        let mut pairs = Vec::new();
        for (i, a) in singles.iter().enumerate() {
            for (j, b) in singles.iter().enumerate().skip(i + 1) {
                if a.mistake != b.mistake && (changes[i] || changes[j]) {
                    pairs.push(vec![*a, *b]);
                }
            }
        }
        let more: Vec<Tried> = crate::par::map(pairs, &run);
        tried.extend(more);
    }
    // Held to an output without marks, a mistake that prunes somewhere and one that never
    // prunes can read alike; where some of them print the output exactly, its having no
    // mark included, that evidence decides: only those are named.
    let mut unmarked = unmarked;
    if unmarked && !cut {
        let marked: Vec<bool> = crate::par::map(
            tried.iter().map(|t| (exact(t), t.bugs.clone())).collect(),
            |(matched, bugs): (bool, Vec<Bug>)| {
                let flaws = bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()));
                matched
                    && subject
                        .variant(reading.kinds, flaws, crate::run::Limit::Expansions(budget))
                        .is_some_and(|(lines, summary)| {
                            agreement(subject, reading, &lines, summary).exact
                        })
            },
        );
        if marked.iter().any(|m| *m) {
            for (t, m) in tried.iter_mut().zip(marked) {
                if let Some(a) = t.agreement.as_mut().filter(|_| !m) {
                    a.exact = false;
                }
            }
            unmarked = false;
        }
    }
    if ran_out.load(std::sync::atomic::Ordering::Relaxed) {
        // What was tried in time says too little: a name must come from every variant.
        return Some(Diagnosis {
            finding: Finding::Unexplained,
            explanations: Vec::new(),
            matched: None,
            of: None,
            reference_matched: None,
            tried: tried.iter().filter(|t| t.agreement.is_some()).count(),
            separated_by: Vec::new(),
            text: "diagnosis: not made: trying the catalogue of mistakes on this output ran past the case's time limit (--time-limit); run `gametrace check` with a larger one to name the mistake\n".to_owned(),
        });
    }
    let mut d = conclude(reading.mode, &tried, &reference, any_order);
    if d.finding == Finding::Exact && (unmarked || !unprinted.is_empty()) {
        let mut left = Vec::new();
        if unmarked {
            left.push("no `(* Pruned *)` mark".to_owned());
        }
        if !unprinted.is_empty() {
            let names: Vec<&str> = unprinted.iter().map(|k| k.name()).collect();
            left.push(format!("no {} line", names.join(" or ")));
        }
        let note = format!(
            "  (the output prints {} anywhere: the traces are compared without them)\n",
            left.join(" and ")
        );
        let at = d.text.find('\n').map_or(d.text.len(), |i| i + 1);
        if at == d.text.len() && !d.text.ends_with('\n') {
            d.text.push('\n');
        }
        let at = at.min(d.text.len());
        d.text.insert_str(at, &note);
    }
    if cut {
        if d.finding != Finding::Exact {
            // A closest mistake on part of an output says too little.
            return None;
        }
        d.text = d.text.replacen(
            "diagnosis: this output is exactly what the reference prints",
            "diagnosis: what it printed before it stopped is exactly the beginning of what the reference prints",
            1,
        );
    }
    Some(d)
}

fn exact(t: &Tried) -> bool {
    t.agreement.is_some_and(|a| a.exact)
}

fn conclude(mode: Mode, tried: &[Tried], reference: &Agreement, any_order: bool) -> Diagnosis {
    let count = tried.len();
    let exacts: Vec<&Tried> = tried.iter().filter(|t| exact(t)).collect();
    let named = |t: &Tried| -> Vec<Named> { t.bugs.iter().map(|&b| Named::of(b)).collect() };
    if !exacts.is_empty() {
        // The fewest mistakes explain best; among equals, catalogue order.
        let fewest = exacts.iter().map(|t| t.bugs.len()).min().unwrap_or(1);
        let explanations: Vec<Vec<Named>> = exacts
            .iter()
            .filter(|t| t.bugs.len() == fewest)
            .map(|t| named(t))
            .collect();
        let text = exact_text(mode, &explanations);
        return Diagnosis {
            finding: Finding::Exact,
            explanations,
            matched: None,
            of: None,
            reference_matched: None,
            tried: count,
            separated_by: Vec::new(),
            text,
        };
    }
    let mut best: Option<(&Tried, Agreement)> = None;
    for t in tried {
        let Some(a) = t.agreement else { continue };
        if best.as_ref().is_none_or(|(_, b)| closer(&a, b)) {
            best = Some((t, a));
        }
    }
    match best {
        Some((t, a)) if closer(&a, reference) => {
            let explanations = vec![named(t)];
            let what = match mode {
                Mode::Full => "trace lines",
                Mode::Terminals => "estimated states and the move",
                _ => "items",
            };
            let how_far = match (a.prefix, reference.prefix) {
                (Some(p), Some(r)) if any_order => format!(
                    "prints {p} of the output's {what} before one the output does not have (of {}), where the reference prints {r}",
                    a.total
                ),
                (Some(p), Some(r)) => format!(
                    "agrees with the output's first {p} {what} (of {}), where the reference agrees on {r}",
                    a.total
                ),
                // A set mode counts what is missing on either side (and the move), which
                // can pass the search's own count: "6 of 4" read as nonsense.
                _ => format!(
                    "differs from the output in {} (states one has and the other not, and the move), where the reference differs in {}",
                    items(a.mismatches),
                    reference.mismatches
                ),
            };
            let mut text = format!(
                "diagnosis: no catalogued mistake prints exactly this output; the closest is {}, which {how_far}\n",
                explanations[0]
                    .iter()
                    .map(Named::phrase)
                    .collect::<Vec<_>>()
                    .join(" with ")
            );
            for n in &explanations[0] {
                let _ = writeln!(text, "  {}: {}", n.mistake, n.sentence);
            }
            Diagnosis {
                finding: Finding::Closest,
                explanations,
                matched: a.prefix.or(Some(a.total - a.mismatches.min(a.total))),
                of: Some(a.total),
                reference_matched: reference
                    .prefix
                    .or(Some(reference.total - reference.mismatches.min(reference.total))),
                tried: count,
                separated_by: Vec::new(),
                text,
            }
        }
        _ => Diagnosis {
            finding: Finding::Unexplained,
            explanations: Vec::new(),
            matched: None,
            of: None,
            reference_matched: None,
            tried: count,
            separated_by: Vec::new(),
            text: format!(
                "diagnosis: none of the {count} catalogued mistakes and pairs of them tried explains this output (`gametrace bugs` lists them)\n"
            ),
        },
    }
}

fn exact_text(mode: Mode, explanations: &[Vec<Named>]) -> String {
    let in_mode = match mode {
        Mode::Full => String::new(),
        m => format!(" (as `{m}` compares it)"),
    };
    let mut text = String::new();
    let phrase = |e: &Vec<Named>| {
        e.iter()
            .map(Named::phrase)
            .collect::<Vec<_>>()
            .join(" together with ")
    };
    if explanations.len() == 1 {
        let e = &explanations[0];
        let _ = writeln!(
            text,
            "diagnosis: this output is exactly what the reference prints{in_mode} with {} {}",
            if e.len() == 1 {
                "the mistake"
            } else {
                "the mistakes"
            },
            phrase(e)
        );
    } else {
        let names: Vec<String> = explanations.iter().map(phrase).collect();
        let _ = writeln!(
            text,
            "diagnosis: this output is exactly what the reference prints{in_mode} with any of these mistakes (on this case they print the same): {}",
            names.join("; ")
        );
    }
    let mut seen = Vec::new();
    for n in explanations.iter().flatten() {
        if seen.contains(&n.mistake) {
            continue;
        }
        seen.push(n.mistake);
        let _ = writeln!(text, "  {}: {}", n.mistake, n.sentence);
        let _ = writeln!(text, "    the handout: {}", n.handout);
    }
    text
}

/// The whole trace (the case's line kinds) a variant with `bugs` prints, or the reference's
/// with none. `Err` names the bugs that cannot be made in this case.
pub fn variant_trace(subject: &dyn Subject, bugs: &[Bug]) -> Result<String, String> {
    let case = subject.case();
    let wrong: Vec<String> = bugs
        .iter()
        .filter(|b| !b.entry().applies(case))
        .map(|b| b.to_string())
        .collect();
    if !wrong.is_empty() {
        return Err(format!(
            "{} cannot be made in case `{}` ({} rules, {})",
            wrong.join(", "),
            case.name,
            case.rules.name(),
            case.algorithm.name()
        ));
    }
    let flaws = bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()));
    // Without a budget: staff asked for this variant, and the trace is what they want to see.
    let (lines, _) = subject
        .variant(case.style.lines, flaws, crate::run::Limit::Unlimited)
        .expect("a search without a budget is never over it");
    let mut text = String::new();
    for l in lines {
        text.push_str(&l.text);
        text.push('\n');
    }
    Ok(text)
}

/// The bugs that can be made in `subject`'s case, for a listing.
pub fn bugs_of(subject: &dyn Subject) -> Vec<Bug> {
    let case = subject.case();
    bugs_for(case)
}

/// "1 item", "6 items".
fn items(n: usize) -> String {
    if n == 1 {
        "1 item".to_owned()
    } else {
        format!("{n} items")
    }
}

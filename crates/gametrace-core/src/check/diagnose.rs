//! Naming the mistake behind a wrong trace: the catalogue's variants of the case's searcher
//! (one mistake each, then pairs) are run on the same case and compared with the output in
//! the same mode. A variant that prints exactly the output explains it; failing that, the
//! one that agrees longest from the start (or, in the set modes, differs in fewest items) is
//! offered as the closest, but only if it is closer than the reference itself.

use super::trace::{
    agreement, agrees_in_any_parallel_order, chosen_move_item, Agreement, Mode, Reading, Subject,
};
pub use crate::diagnosis::{Diagnosis, Finding, Named, Separation};
use crate::run::{line_counts, RefLine, Want};
use crate::search::mistakes::{bugs_for, Bug, Flaws};
use crate::search::Summary;
use crate::spec::Unordered;
use crate::trace::{LineKind, LineSet};
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
///
/// In phases: the reference and what the output is held to; each variant measured against
/// it (one mistake, then pairs); the evidence of a missing `(* Pruned *)` mark; the verdict.
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
        return Some(reordered());
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
    let (ref_want, unmarked) = reference_wanted(reading, sequence.as_ref(), &ref_lines);
    let ref_last = sequence
        .as_ref()
        .and_then(|(_, last)| last.map(|_| chosen_move_item(subject, ref_summary)));
    let measuring = Measuring {
        subject,
        reading,
        kinds,
        budget,
        cut,
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
                let as_printed = measuring.measure(Flaws::NONE, want, None)?;
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
    let reference =
        match output_want {
            Some((want, last)) if any_order => measuring
                .measure(Flaws::NONE, want, last)
                .unwrap_or(Agreement {
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
            measuring.in_sequence((want, last), (ref_want, ref_last.as_deref()), &late)
        }
        // Set modes compare whole searches.
        None => Whole {
            measuring: &measuring,
            ref_texts: ref_lines.iter().map(|r| r.text.as_str()).collect(),
            ref_summary,
        }
        .runner(&late),
    };
    let mut tried = try_all(&singles, &run);
    // Held to an output without marks, a mistake that prunes somewhere and one that never
    // prunes can read alike; where some of them print the output exactly, its having no
    // mark included, that evidence decides: only those are named.
    let unmarked = unmarked && (cut || !marks_decide(&measuring, &mut tried));
    if ran_out.load(std::sync::atomic::Ordering::Relaxed) {
        return Some(ran_past_the_limit(&tried));
    }
    let mut d = conclude(reading.mode, &tried, &reference, any_order);
    if d.finding == Finding::Exact && (unmarked || !unprinted.is_empty()) {
        note_compared_without(&mut d, unmarked, &unprinted);
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

/// The flaws of a variant's mistakes together.
fn flaws_of(bugs: &[Bug]) -> Flaws {
    bugs.iter().fold(Flaws::NONE, |f, b| f.union(b.flaws()))
}

impl Tried {
    /// A variant not run: the diagnosis ran past its time.
    fn late(bugs: Vec<Bug>) -> Tried {
        Tried {
            bugs,
            agreement: None,
            differs: false,
        }
    }
}

/// The diagnosis of an output that is the reference's with parallel phases reordered.
fn reordered() -> Diagnosis {
    Diagnosis {
        finding: Finding::Reordered,
        explanations: Vec::new(),
        matched: None,
        of: None,
        reference_matched: None,
        tried: 0,
        separated_by: Vec::new(),
        text: "diagnosis: this output is the reference's with the children of parallel phases printed in another order, as a parallel implementation may print them; `unordered: parallel` in the case accepts that\n".to_owned(),
    }
}

/// The diagnosis not made: what was tried in time says too little, and a name must come from
/// every variant.
fn ran_past_the_limit(tried: &[Tried]) -> Diagnosis {
    Diagnosis {
        finding: Finding::Unexplained,
        explanations: Vec::new(),
        matched: None,
        of: None,
        reference_matched: None,
        tried: tried.iter().filter(|t| t.agreement.is_some()).count(),
        separated_by: Vec::new(),
        text: "diagnosis: not made: trying the catalogue of mistakes on this output ran past the case's time limit (--time-limit); run `gametrace check` with a larger one to name the mistake\n".to_owned(),
    }
}

/// The reference's lines as the output is read (normalised unless exact), and whether they
/// are held to it without S14's `(* Pruned *)` mark: a student's own tracing may print no
/// mark at all (its search keeps no such flag).
fn reference_wanted(
    reading: &Reading,
    sequence: Option<&(Vec<String>, Option<&str>)>,
    ref_lines: &[RefLine],
) -> (Vec<String>, bool) {
    let normalise = |t: &str| {
        if reading.exact() {
            t.to_owned()
        } else {
            crate::diff::normalize(t).into_owned()
        }
    };
    let unmarked = sequence
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
    (ref_want, unmarked)
}

/// What a variant is measured with in the sequence modes.
struct Measuring<'a> {
    subject: &'a dyn Subject,
    reading: &'a Reading,
    kinds: LineSet,
    budget: u64,
    cut: bool,
}

impl Measuring<'_> {
    /// How far the variant with `flaws` agrees with `want` from the start (and with `last`,
    /// the chosen move, after); `None` when it went past the budget.
    fn measure(&self, flaws: Flaws, want: Want, last: Option<&str>) -> Option<Agreement> {
        let subject = self.subject;
        let p = subject.variant_prefix(self.kinds, flaws, self.budget, want)?;
        let mut prefix = p.matched;
        let mut exact = false;
        if self.cut {
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
            let budget = crate::run::Limit::Expansions(self.budget);
            let (lines, summary) = subject.variant(self.kinds, flaws, budget)?;
            exact = agreement(subject, self.reading, &lines, summary).exact;
        }
        Some(Agreement {
            exact,
            prefix: Some(prefix),
            total: want.lines.len() + usize::from(last.is_some()),
            mismatches: 0,
        })
    }
}

/// Whether the diagnosis has run past its time (then no more variant is run).
type Late<'a> = &'a (dyn Fn() -> bool + Sync);

impl<'a> Measuring<'a> {
    /// The sequence modes' runner: each variant measured against `output` (its lines and
    /// chosen move), and, to tell whether it changes the trace at all, against the
    /// `reference`'s.
    fn in_sequence(
        &'a self,
        output: (Want<'a>, Option<&'a str>),
        reference: (Want<'a>, Option<&'a str>),
        late: Late<'a>,
    ) -> Runner<'a> {
        Box::new(move |bugs: Vec<Bug>| {
            if late() {
                return Tried::late(bugs);
            }
            let flaws = flaws_of(&bugs);
            let agreement = self.measure(flaws, output.0, output.1);
            // Worth pairing only if it changes the trace at all (variants print in move
            // order, as the reference does).
            let differs = agreement.is_none()
                || self
                    .measure(flaws, reference.0, reference.1)
                    .is_none_or(|a| !a.exact);
            Tried {
                bugs,
                agreement,
                differs,
            }
        })
    }
}

/// A variant measured in the set modes: its whole search against the output's.
struct Whole<'a> {
    measuring: &'a Measuring<'a>,
    ref_texts: Vec<&'a str>,
    ref_summary: Summary,
}

impl<'a> Whole<'a> {
    /// The set modes' runner.
    fn runner(self, late: Late<'a>) -> Runner<'a> {
        Box::new(move |bugs: Vec<Bug>| {
            if late() {
                return Tried::late(bugs);
            }
            self.tried(bugs)
        })
    }

    fn tried(&self, bugs: Vec<Bug>) -> Tried {
        let Measuring {
            subject,
            reading,
            kinds,
            budget,
            cut,
        } = *self.measuring;
        let (ref_texts, ref_summary) = (&self.ref_texts, self.ref_summary);
        match subject.variant(
            kinds,
            flaws_of(&bugs),
            crate::run::Limit::Expansions(budget),
        ) {
            Some((lines, summary)) => {
                let differs = summary.best_index != ref_summary.best_index
                    || summary.raised != ref_summary.raised
                    || lines.len() != ref_texts.len()
                    || lines.iter().zip(ref_texts).any(|(l, r)| l.text != *r);
                let mut agreed = agreement(subject, reading, &lines, summary);
                // A program that stopped is explained only by a search that stops where it
                // did (and one that ran to its end by one that does too).
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
    }
}

/// Every single mistake, and, when none prints the output exactly, pairs of different
/// mistakes (a mistake at Maxie's and at Minnie's nodes is the mistake everywhere, already
/// tried) of which at least one changes the trace: the other may change nothing alone and
/// still change what the first does (a root that never prunes shows bounds that are never
/// raised).
fn try_all(singles: &[Bug], run: &Runner) -> Vec<Tried> {
    let mut tried: Vec<Tried> = crate::par::map(singles.to_vec(), |b| run(vec![b]));
    if !tried.iter().any(exact) {
        let changes: Vec<bool> = tried.iter().map(|t| t.differs).collect();
        let mut pairs = Vec::new();
        for (i, a) in singles.iter().enumerate() {
            for (j, b) in singles.iter().enumerate().skip(i + 1) {
                if a.mistake != b.mistake && (changes[i] || changes[j]) {
                    pairs.push(vec![*a, *b]);
                }
            }
        }
        let more: Vec<Tried> = crate::par::map(pairs, run);
        tried.extend(more);
    }
    tried
}

/// Held to an output without `(* Pruned *)` marks, do the marks decide? When some variants
/// print the output exactly with its lack of marks included, only those stay exact in
/// `tried`.
fn marks_decide(m: &Measuring, tried: &mut [Tried]) -> bool {
    let marked: Vec<bool> = crate::par::map(
        tried.iter().map(|t| (exact(t), t.bugs.clone())).collect(),
        |(matched, bugs): (bool, Vec<Bug>)| {
            let budget = crate::run::Limit::Expansions(m.budget);
            matched
                && m.subject
                    .variant(m.reading.kinds, flaws_of(&bugs), budget)
                    .is_some_and(|(lines, summary)| {
                        agreement(m.subject, m.reading, &lines, summary).exact
                    })
        },
    );
    if !marked.iter().any(|m| *m) {
        return false;
    }
    for (t, m) in tried.iter_mut().zip(marked) {
        if let Some(a) = t.agreement.as_mut().filter(|_| !m) {
            a.exact = false;
        }
    }
    true
}

/// Says under an exact diagnosis's first line what the traces were compared without (no
/// `(* Pruned *)` mark, no summary line of a kind).
fn note_compared_without(d: &mut Diagnosis, unmarked: bool, unprinted: &[LineKind]) {
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

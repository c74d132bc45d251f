//! Naming a difference: which catalogued rule mistake (or, failing any, which pair of them)
//! behaves exactly as the student's game.

use super::*;

/// Which catalogued mistakes behave exactly as the student's game did at every position it
/// was asked about: single mistakes first, and only when none does, pairs of two. Each
/// explanation is one mistake's name or two.
pub(super) fn name_the_mistake<G: Checkable>(
    game: &G,
    lines: &[Line],
    how: Compare,
) -> (String, Vec<Vec<&'static str>>, usize) {
    let how = Compare {
        estimate: false,
        ..how
    };
    let explains = |m: &Mutant| {
        lines
            .iter()
            .all(|l| m.rules.first_difference(&l.path, &l.views, how).is_none())
    };
    let singles = game.mutants(false);
    let mut tried = singles.len();
    let mut explaining: Vec<Mutant> = singles.into_iter().filter(|m| explains(m)).collect();
    if explaining.is_empty() {
        let pairs = game.mutants(true);
        tried += pairs.len();
        explaining = pairs.into_iter().filter(|m| explains(m)).collect();
    }
    let positions: usize = lines.iter().map(|l| l.views.len()).sum();
    let ids = explaining
        .iter()
        .map(|m| std::iter::once(m.id).chain(m.also).collect())
        .collect();
    let text = match explaining.as_slice() {
        [] => format!(
            "no catalogued rule mistake of {} explains it, alone or with another ({tried} tried against the {positions} positions asked about); the first difference is above\n",
            game.name(),
        ),
        [one] if one.also.is_some() => format!(
            "the mistakes, two together: {} [{}] (together they behave exactly so at all {positions} positions asked about; neither does alone)\n",
            one.what,
            one.name()
        ),
        [one] => format!(
            "the mistake: {} [{}] (it behaves exactly so at all {positions} positions asked about)\n",
            one.what, one.id
        ),
        several => {
            let mut s = format!(
                "the mistake is one of these (each behaves exactly so at all {positions} positions asked about):\n"
            );
            for m in several {
                let _ = writeln!(s, "  - {} [{}]", m.what, m.name());
            }
            s
        }
    };
    (text, ids, tried)
}

/// The rule mistakes named, as a case's diagnosis (what `grade`'s summary counts).
pub(super) fn diagnosis_of(
    text: String,
    ids: Vec<Vec<&'static str>>,
    tried: usize,
) -> crate::diagnosis::Diagnosis {
    use crate::diagnosis::{Diagnosis, Finding, Named};
    Diagnosis {
        finding: Finding::Exact,
        tried,
        explanations: ids
            .into_iter()
            .map(|e| {
                e.into_iter()
                    .map(|id| Named {
                        bug: id.to_owned(),
                        mistake: id,
                        side: None,
                        sentence: id,
                        handout: "",
                    })
                    .collect()
            })
            .collect(),
        matched: None,
        of: None,
        reference_matched: None,
        separated_by: Vec::new(),
        text: text.trim_end().to_owned(),
    }
}

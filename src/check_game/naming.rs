//! Naming a difference: which catalogued rule mistake behaves exactly as the student's game.

use super::*;

/// Which catalogued mistakes behave exactly as the student's game did at every position it
/// was asked about.
pub(super) fn name_the_mistake<G: Checkable>(
    game: &G,
    lines: &[Line],
    how: Compare,
) -> (String, Vec<&'static str>, usize) {
    let how = Compare {
        estimate: false,
        ..how
    };
    let mutants = game.mutants();
    let explaining: Vec<&Mutant> = mutants
        .iter()
        .filter(|m| {
            lines
                .iter()
                .all(|l| m.rules.first_difference(&l.path, &l.views, how).is_none())
        })
        .collect();
    let positions: usize = lines.iter().map(|l| l.views.len()).sum();
    let ids = explaining.iter().map(|m| m.id).collect();
    let text = match explaining.as_slice() {
        [] => format!(
            "no catalogued rule mistake of {} explains it ({} tried against the {positions} positions asked about); the first difference is above\n",
            game.name(),
            mutants.len()
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
                let _ = writeln!(s, "  - {} [{}]", m.what, m.id);
            }
            s
        }
    };
    (text, ids, mutants.len())
}

/// The rule mistakes named, as a case's diagnosis (what `grade`'s summary counts).
pub(super) fn diagnosis_of(
    text: String,
    ids: Vec<&'static str>,
    tried: usize,
) -> crate::diagnosis::Diagnosis {
    use crate::diagnosis::{Diagnosis, Finding, Named};
    Diagnosis {
        finding: Finding::Exact,
        tried,
        explanations: ids
            .into_iter()
            .map(|id| {
                vec![Named {
                    bug: id.to_owned(),
                    mistake: id,
                    side: None,
                    sentence: id,
                    handout: "",
                }]
            })
            .collect(),
        matched: None,
        of: None,
        reference_matched: None,
        separated_by: Vec::new(),
        text: text.trim_end().to_owned(),
    }
}

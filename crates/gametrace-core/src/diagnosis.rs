//! What the catalogue of mistakes says about a wrong output, as reports carry it: the
//! explanations (one mistake or a pair each), how far the closest agrees, and the cases that
//! would tell equal explanations apart. `check::diagnose` finds a diagnosis by running the
//! catalogue's variants; `report` and `grade` only read one, so they need not know how.

use crate::game::Player;
use crate::search::mistakes::Bug;
use serde::Serialize;
use std::fmt::Write as _;

/// One mistake of an explanation, as reports carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    /// `strict-cut:minnie`: what `--bug` takes.
    pub bug: String,
    pub mistake: &'static str,
    /// `maxie`, `minnie`, or absent for every node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    pub sentence: &'static str,
    pub handout: &'static str,
}

impl Named {
    pub fn of(bug: Bug) -> Named {
        let m = bug.entry();
        Named {
            bug: bug.to_string(),
            mistake: m.name,
            side: bug.side.map(|p| match p {
                Player::Maxie => "maxie",
                Player::Minnie => "minnie",
            }),
            sentence: m.sentence,
            handout: m.handout,
        }
    }

    /// `strict-cut at Minnie's nodes only`, `prune-on-equal at the ghosts' nodes only`
    pub fn phrase(&self) -> String {
        // How the sides are named: Maxie's and Minnie's nodes, or CS188's Pacman's and the
        // ghosts'.
        let sides = crate::search::mistakes::Mistake::find(self.mistake)
            .map_or(("Maxie's nodes", "Minnie's nodes"), |m| m.sides());
        match self.side {
            Some("maxie") => format!("{} at {} only", self.mistake, sides.0),
            Some(_) => format!("{} at {} only", self.mistake, sides.1),
            None => self.mistake.to_owned(),
        }
    }
}

/// How the diagnosis came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finding {
    /// A variant prints exactly the output.
    Exact,
    /// No variant prints it; the closest agrees with it further than the reference does.
    Closest,
    /// No variant is closer than the reference.
    Unexplained,
    /// The output is the reference's with the children of parallel phases in another order,
    /// which the case does not accept (it has no `unordered: parallel`).
    Reordered,
}

/// What the catalogue says about a wrong output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    pub finding: Finding,
    /// Each explanation is one or two mistakes; several explanations print the same output.
    pub explanations: Vec<Vec<Named>>,
    /// How far the closest explanation agrees: items from the start (`full`, `terminals`) ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<usize>,
    /// ... of this many it prints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<usize>,
    /// How far the reference agrees, for comparison.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_matched: Option<usize>,
    /// Variants run (mistakes alone and in pairs).
    pub tried: usize,
    /// When several explanations print the same output: the spec's other cases on which
    /// they print differently, each with the explanations it tells apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub separated_by: Vec<Separation>,
    /// The diagnosis for people, one or more lines.
    pub text: String,
}

/// A case of the spec on which two explanations of an output print differently, so that a
/// student's output on it would say which of them is the mistake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Separation {
    pub case: String,
    /// The explanations (as `--bug` writes them, `+` between two mistakes) it tells apart.
    pub tells_apart: [String; 2],
}

/// The explanation as `--bug` and the text write it: `a` or `a+b`.
pub fn explanation_name(e: &[Named]) -> String {
    e.iter()
        .map(|n| n.bug.as_str())
        .collect::<Vec<_>>()
        .join("+")
}

impl Diagnosis {
    /// Is the output explained equally by several mistakes (or pairs)?
    pub fn ambiguous(&self) -> bool {
        self.finding == Finding::Exact && self.explanations.len() > 1
    }

    /// Records the cases that tell the explanations apart (found by
    /// [`separating_cases`]) and says so in the text.
    pub fn with_separations(mut self, found: Vec<Separation>) -> Diagnosis {
        if !self.ambiguous() {
            return self;
        }
        if found.is_empty() {
            self.text.push_str(
                "  no other case of this spec tells them apart: a case on which they print differently would (`gametrace explain SPEC --case NAME --bug A` shows what each prints)\n",
            );
        }
        for f in &found {
            let _ = writeln!(
                self.text,
                "  case `{}` tells {} and {} apart: run it to know which",
                f.case, f.tells_apart[0], f.tells_apart[1]
            );
        }
        self.separated_by = found;
        self
    }
}

//! Where a student's game parts from the reference: the line of views that shows it, and the
//! sentence a report gives.

use super::*;

/// A path from the start and the student's views along it: `views[i]` after `path[..i]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Line {
    pub(super) path: Vec<String>,
    pub(super) views: Vec<View>,
}

/// Where the student's game first parts from the reference on a line.
#[derive(Clone, Debug)]
pub(super) struct Difference {
    /// The moves from the start to the position where it shows.
    pub(super) path: Vec<String>,
    pub(super) what: What,
}

#[derive(Clone, Debug)]
pub(super) enum What {
    /// The views differ in this part.
    Differs {
        part: Part,
        reference: View,
        student: View,
    },
    /// Asking the game went wrong here (while playing this move, if it was a move).
    Trouble(Trouble, Option<String>),
}

impl Difference {
    /// The line a difference found outside the walks shows (a scenario's), for naming the
    /// mistake: the reference's views up to its position (the student's agreed with them
    /// there, or it would have parted sooner), then the student's own. `None` for trouble.
    pub(super) fn line<R: Rules>(&self, reference: &R) -> Option<Line> {
        let What::Differs { student, .. } = &self.what else {
            return None;
        };
        let mut s = reference.start();
        let mut views = Vec::with_capacity(self.path.len() + 1);
        for name in &self.path {
            views.push(reference.view(&s));
            s = reference.play(&s, name)?;
        }
        views.push(student.clone());
        Some(Line {
            path: self.path.clone(),
            views,
        })
    }

    /// The moves that show it: the path, and the move that failed if one did.
    pub(super) fn whole(&self) -> Vec<String> {
        let mut all = self.path.clone();
        if let What::Trouble(_, Some(m)) = &self.what {
            all.push(m.clone());
        }
        all
    }

    pub(super) fn sentence<G: Playable>(&self, game: &G) -> String {
        let at = if self.path.is_empty() {
            "at the start".to_owned()
        } else {
            format!("after {}", self.path.join(" "))
        };
        match &self.what {
            What::Differs {
                part,
                reference,
                student,
            } => {
                let (r, s) = show_part(game, *part, reference, student);
                let extra = if student.status == Status::InPlay && student.moves.is_empty() {
                    " (the game is in play and offers no move)"
                } else {
                    ""
                };
                format!("{at}, {}: reference {r}, student's {s}{extra}", part.word())
            }
            What::Trouble(t, None) => format!("{at}: {}", t.describe().0),
            What::Trouble(t, Some(m)) => format!("{at}, playing {m}: {}", t.describe().0),
        }
    }
}

pub(super) fn show_part<G: Playable>(game: &G, part: Part, r: &View, s: &View) -> (String, String) {
    let status = |v: &View| crate::game::scenario::status_text(game, v.status);
    let list = |v: &View| format!("[{}]", v.moves.join(", "));
    match part {
        Part::Moves | Part::Order => (list(r), list(s)),
        Part::Status => (status(r), status(s)),
        Part::Player => (
            game.player_name(r.player).to_owned(),
            game.player_name(s.player).to_owned(),
        ),
        Part::Estimate => (
            r.estimate.clone().unwrap_or_default(),
            s.estimate.clone().unwrap_or_default(),
        ),
    }
}

/// The reference position after `path` (names from its own move lists), if it has one.
pub(super) fn reference_after<G: Playable>(game: &G, path: &[String]) -> Option<G::State> {
    let r = Reference {
        game,
        estimate: None,
    };
    let mut s = r.start();
    for name in path {
        s = r.play(&s, name)?;
    }
    Some(s)
}

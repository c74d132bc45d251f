//! A search one trace line at a time (the browser page's Step view): each line of the case's
//! trace with the node it is about, and the tree as the search has drawn it by that line —
//! the picture a teacher draws on the board, line by line.
//!
//! A node appears when the first line about it is printed, with the bounds it was entered
//! with; its result (and its estimate) when the last line about it is; the root's value, its
//! chosen move and the path at the last line. At the last step the picture is exactly the
//! whole search's ([`Picture::new`]), so stepping to the end shows the handout's final bounds.

use super::{Overlay, Picture, Visit};
use crate::game::tree::NodeId;
use crate::run::{reference_lines, Place};
use crate::spec::{Case, Spec};

/// A tree case's search, ready to be shown a line at a time.
pub struct Steps<'s> {
    spec: &'s Spec,
    case: &'s Case,
    lines: Vec<(String, Option<NodeId>)>,
    full: Overlay,
    /// By node: the first and the last line about it.
    first: Vec<Option<usize>>,
    last: Vec<Option<usize>>,
}

impl<'s> Steps<'s> {
    pub fn of(spec: &'s Spec, case: &'s Case) -> Steps<'s> {
        let (refs, _) = reference_lines(spec, case, case.style.lines);
        let lines: Vec<(String, Option<NodeId>)> = refs
            .into_iter()
            .map(|l| {
                let node = match l.place {
                    Place::Node(id, _) => Some(id),
                    Place::Moves(..) => None,
                };
                (l.text, node)
            })
            .collect();
        let n = spec.tree.len();
        let (mut first, mut last) = (vec![None; n], vec![None; n]);
        for (i, (_, node)) in lines.iter().enumerate() {
            if let Some(id) = node {
                first[*id as usize].get_or_insert(i);
                last[*id as usize] = Some(i);
            }
        }
        Steps {
            spec,
            case,
            lines,
            full: Overlay::of(spec, case),
            first,
            last,
        }
    }

    /// The number of lines (steps).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Line `k` (from 0) and the node it is about.
    pub fn line(&self, k: usize) -> Option<(&str, Option<NodeId>)> {
        self.lines.get(k).map(|(t, n)| (t.as_str(), *n))
    }

    /// The tree as the search has drawn it once line `k` is printed (past the end: the end).
    pub fn picture(&self, k: usize) -> Picture<'s> {
        let k = k.min(self.len().saturating_sub(1));
        let end = k + 1 >= self.len();
        let mut p = Picture::new(self.spec, Some(self.case));
        p.current = self.line(k).and_then(|(_, n)| n);
        if end {
            p.search = Some(self.full.clone());
            return p;
        }
        let mut so_far = self.full.clone();
        let mut leaves_done = 0;
        for (id, visit) in so_far.visits.iter_mut().enumerate() {
            let seen = self.first[id].is_some_and(|f| f <= k);
            let done = self.last[id].is_some_and(|l| l <= k);
            *visit = match visit.take() {
                Some(v) if seen && done => {
                    leaves_done += usize::from(v.estimate.is_some());
                    Some(v)
                }
                Some(v) if seen => Some(Visit {
                    bounds: v.bounds,
                    ..Visit::default()
                }),
                _ => None,
            };
        }
        so_far.chosen = None;
        so_far.value = None;
        so_far.path = Vec::new();
        so_far.terminals = leaves_done as u64;
        p.search = Some(so_far);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::svg;
    use crate::spec::{load_str, Document};
    use std::path::Path;

    fn handout_small() -> Spec {
        // S14 HW11 Figure 5 (HandoutSmall), as specs/15150-s14/handout-small.yaml has it.
        let text =
            "tree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\n\
                    cases: {ab: {algorithm: alphabeta}}\n";
        match load_str(Path::new("small.yaml"), text).unwrap() {
            Document::Tree(s) => s,
            _ => unreachable!(),
        }
    }

    #[test]
    fn the_steps_are_the_trace_lines_and_the_last_is_the_whole_search() {
        let spec = handout_small();
        let case = &spec.cases[0];
        let steps = Steps::of(&spec, case);
        let trace = crate::run::trace_of(&spec, case);
        let lines: Vec<&str> = (0..steps.len()).map(|k| steps.line(k).unwrap().0).collect();
        assert_eq!(lines, trace.lines().collect::<Vec<_>>());
        let mut whole = Picture::new(&spec, Some(case));
        whole.current = steps.line(steps.len() - 1).unwrap().1;
        assert_eq!(
            svg::draw(&steps.picture(steps.len() - 1)),
            svg::draw(&whole)
        );
    }

    #[test]
    fn a_node_shows_its_bounds_when_entered_and_its_result_when_done() {
        let spec = handout_small();
        let steps = Steps::of(&spec, &spec.cases[0]);
        // Line 0 enters the root: it alone is drawn, with its bounds and no result yet.
        let p = steps.picture(0);
        let o = p.search.as_ref().unwrap();
        assert_eq!(p.current, Some(spec.tree.root()));
        assert_eq!(o.nodes_visited(), 1);
        let root = o.visited(spec.tree.root()).unwrap();
        assert!(root.bounds.is_some() && root.result.is_none());
        assert_eq!((o.value, o.chosen), (None, None));
        // Node j (Minnie's right) is cut after k: before its first line it is not drawn;
        // at its last line it has its result, and l and m are never drawn.
        let j = (0..spec.tree.len() as NodeId)
            .find(|&id| spec.tree.name(id) == "j")
            .unwrap();
        let first = (0..steps.len())
            .find(|&k| steps.line(k).unwrap().1 == Some(j))
            .unwrap();
        let last = (0..steps.len())
            .rfind(|&k| steps.line(k).unwrap().1 == Some(j))
            .unwrap();
        let before = steps.picture(first - 1);
        assert!(before.search.as_ref().unwrap().visited(j).is_none());
        let entered = steps.picture(first);
        let v = entered.search.as_ref().unwrap().visited(j).unwrap();
        assert!(v.bounds.is_some() && v.result.is_none());
        let done = steps.picture(last);
        assert!(done
            .search
            .as_ref()
            .unwrap()
            .visited(j)
            .unwrap()
            .result
            .is_some());
        for name in ["l", "m"] {
            let id = (0..spec.tree.len() as NodeId)
                .find(|&id| spec.tree.name(id) == name)
                .unwrap();
            assert!(steps
                .picture(steps.len())
                .search
                .unwrap()
                .visited(id)
                .is_none());
        }
    }
}

//! One case's search, node by node, read off the searcher's events.

use crate::course::{with_course, Course};
use crate::game::tree::{NodeId, Tree, TreeGame, TreeMove, TreeState};
use crate::game::Estimate;
use crate::search::{Event, EventLog};
use crate::spec::{Case, Rules, Spec};

/// A bound as a drawing shows it: an estimate, or S12's `Pruned` (no bound yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Value(Estimate),
    Pruned,
}

/// A node's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A value; `cut` when the node stopped scanning its children on a bound (S14's
    /// `(* Pruned *)`).
    Value { value: Estimate, cut: bool },
    /// S12: no child gave a value, or a child said `ParentPrune`.
    Pruned,
    /// S12: this node's parent is not helpful to the grandparent.
    ParentPrune,
}

/// What the search did at one node.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Visit {
    /// (alpha, beta) on entry.
    pub bounds: Option<(Bound, Bound)>,
    /// The estimate taken, if the search stopped here.
    pub estimate: Option<Estimate>,
    pub result: Option<Outcome>,
    /// The child its value's move leads to, when that move is one of its own (an S14 node
    /// can hand back a bound it was given, whose move belongs to an ancestor).
    pub best: Option<NodeId>,
}

/// A case's search over the whole tree.
#[derive(Clone, Debug)]
pub struct Overlay {
    pub case: String,
    pub algorithm: String,
    pub rules: Rules,
    /// Jamboree's setting, when the case is Jamboree: which children it searches in parallel.
    pub jamboree: Option<crate::search::Algorithm>,
    /// Indexed by node; `None` for a node the search never reached.
    pub visits: Vec<Option<Visit>>,
    /// The root's chosen move (index) and value.
    pub chosen: Option<usize>,
    pub value: Option<Estimate>,
    pub terminals: u64,
    /// From the root along each node's best move, as far as the moves are the nodes' own.
    pub path: Vec<NodeId>,
}

/// What one search's events say: each node's visit, the root's chosen move, its value and
/// the terminals visited. `bound` and `outcome` read the rule year's values and results.
fn read<V, R>(
    tree: &Tree,
    events: Vec<Event<TreeState, TreeMove, V, R>>,
    bound: impl Fn(V) -> Bound,
    outcome: impl Fn(R) -> (Outcome, Option<TreeMove>),
) -> (Vec<Option<Visit>>, Option<usize>, Option<Estimate>, u64) {
    let mut visits: Vec<Option<Visit>> = vec![None; tree.len()];
    let (mut chosen, mut value, mut terminals) = (None, None, 0);
    for event in events {
        let visit = visits[event.state().node as usize].get_or_insert_default();
        match event {
            Event::Generate { .. } => {}
            Event::Search { bounds, .. } | Event::Enter { bounds, .. } => {
                visit.bounds = Some((bound(bounds.0), bound(bounds.1)));
            }
            Event::Estimate { estimate, .. } => visit.estimate = Some(estimate),
            Event::Result { state, result, .. } => {
                let (o, m) = outcome(result);
                visit.result = Some(o);
                // Only a move of the node's own leads on down the path.
                visit.best = m
                    .filter(|m| tree.children(state.node).contains(m.child))
                    .map(|m| m.child);
            }
            Event::Done {
                value: v,
                best,
                terminals: t,
                ..
            } => {
                let root_value = match bound(v) {
                    Bound::Value(e) => Some(e),
                    Bound::Pruned => None,
                };
                // The S12 root prints no result line; its value is its final bound.
                visit.result.get_or_insert(match root_value {
                    Some(value) => Outcome::Value { value, cut: false },
                    None => Outcome::Pruned,
                });
                chosen = best.map(|(i, _)| i);
                value = root_value;
                terminals = t;
            }
        }
    }
    (visits, chosen, value, terminals)
}

/// What `course`'s search of `case` on the tree says: [`read`] with the course's way of
/// drawing its values.
fn searched<C: Course>(
    course: C,
    tree: &Tree,
    case: &Case,
) -> (Vec<Option<Visit>>, Option<usize>, Option<Estimate>, u64) {
    let game = TreeGame::new(tree, case.root_player);
    let how = case.settings();
    let mut log = EventLog::default();
    course.search(&game, &how, &mut log);
    let mut found = read(
        tree,
        log.events,
        |v| course.drawn_value(v, &how),
        |r| course.drawn_answer(r, &how),
    );
    if !course.draws_bounds() {
        for v in found.0.iter_mut().flatten() {
            v.bounds = None;
        }
    }
    found
}

impl Overlay {
    pub fn of(spec: &Spec, case: &Case) -> Overlay {
        let tree = &spec.tree;
        let (mut visits, chosen, value, terminals) =
            with_course!(case, course => searched(course, tree, case));
        // The root's best move is the one the search reports choosing.
        let root = tree.root();
        if let (Some(i), Some(v)) = (chosen, visits[root as usize].as_mut()) {
            v.best = tree.children(root).get(i);
        }
        let mut path = vec![root];
        let mut at = root;
        while let Some(next) = visits[at as usize].as_ref().and_then(|v| v.best) {
            path.push(next);
            at = next;
        }
        Overlay {
            case: case.name.clone(),
            algorithm: match case.algorithm {
                crate::search::Algorithm::Jamboree { prune_percentage } => {
                    format!("jamboree {prune_percentage}")
                }
                a => a.name().to_owned(),
            },
            rules: case.rules,
            jamboree: matches!(case.algorithm, crate::search::Algorithm::Jamboree { .. })
                .then_some(case.algorithm),
            visits,
            chosen,
            value,
            terminals,
            path,
        }
    }

    pub fn visited(&self, id: NodeId) -> Option<&Visit> {
        self.visits[id as usize].as_ref()
    }

    /// Does Jamboree search child `index` of a node with `n` children in parallel (after
    /// its sequential share)?
    pub fn in_parallel(&self, index: usize, n: usize) -> bool {
        self.jamboree
            .is_some_and(|a| index >= crate::search::sequential_count(a, n))
    }

    /// How many nodes the search entered (or, at S12's root, searched).
    pub fn nodes_visited(&self) -> usize {
        self.visits.iter().flatten().count()
    }
}

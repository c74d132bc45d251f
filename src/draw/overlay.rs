//! One case's search, node by node, read off the searcher's events.

use crate::game::tree::{NodeId, TreeGame, TreeMove, TreeState};
use crate::game::Estimate;
use crate::search::{s12, s14, Event, EventLog};
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
    /// Indexed by node; `None` for a node the search never reached.
    pub visits: Vec<Option<Visit>>,
    /// The root's chosen move (index) and value.
    pub chosen: Option<usize>,
    pub value: Option<Estimate>,
    pub terminals: u64,
    /// From the root along each node's best move, as far as the moves are the nodes' own.
    pub path: Vec<NodeId>,
}

impl Overlay {
    pub fn of(spec: &Spec, case: &Case) -> Overlay {
        let game = TreeGame::new(&spec.tree, case.root_player);
        let mut visits: Vec<Option<Visit>> = vec![None; spec.tree.len()];
        let mut chosen = None;
        let mut value = None;
        let mut terminals = 0;
        let tree = &spec.tree;
        let own = |node: NodeId, m: TreeMove| tree.children(node).contains(&m.child);
        match case.rules {
            Rules::S14 => {
                let mut log = EventLog::default();
                s14::search(&game, case.depth, case.algorithm, &mut log);
                let b = |v: s14::Value<TreeMove>| Bound::Value(v.estimate());
                for event in log.0 {
                    let at = |s: &TreeState| s.node as usize;
                    match event {
                        Event::Search { state, bounds, .. }
                        | Event::Enter { state, bounds, .. } => {
                            visits[at(&state)].get_or_insert_default().bounds =
                                Some((b(bounds.0), b(bounds.1)));
                        }
                        Event::Estimate { state, estimate } => {
                            visits[at(&state)].get_or_insert_default().estimate = Some(estimate);
                        }
                        Event::Result { state, result, .. } => {
                            let v = visits[at(&state)].get_or_insert_default();
                            v.result = Some(Outcome::Value {
                                value: result.value.estimate(),
                                cut: result.pruned,
                            });
                            v.best = result
                                .value
                                .step()
                                .filter(|&m| own(state.node, m))
                                .map(|m| m.child);
                        }
                        Event::Done {
                            value: v,
                            best,
                            terminals: t,
                            ..
                        } => {
                            chosen = best.map(|(i, _)| i);
                            value = Some(v.estimate());
                            terminals = t;
                        }
                    }
                }
            }
            Rules::S12 => {
                let mut log = EventLog::default();
                s12::search(&game, case.depth, case.algorithm, &mut log);
                let b = |v: s12::Value<TreeMove>| v.estimate().map_or(Bound::Pruned, Bound::Value);
                for event in log.0 {
                    let at = |s: &TreeState| s.node as usize;
                    match event {
                        Event::Search { state, bounds, .. }
                        | Event::Enter { state, bounds, .. } => {
                            visits[at(&state)].get_or_insert_default().bounds =
                                Some((b(bounds.0), b(bounds.1)));
                        }
                        Event::Estimate { state, estimate } => {
                            visits[at(&state)].get_or_insert_default().estimate = Some(estimate);
                        }
                        Event::Result { state, result, .. } => {
                            let v = visits[at(&state)].get_or_insert_default();
                            v.result = Some(match result {
                                s12::Verdict::Value(s12::Value::Edge(m, e)) => {
                                    v.best = own(state.node, m).then_some(m.child);
                                    Outcome::Value {
                                        value: e,
                                        cut: false,
                                    }
                                }
                                s12::Verdict::Value(s12::Value::Pruned) => Outcome::Pruned,
                                s12::Verdict::ParentPrune => Outcome::ParentPrune,
                            });
                        }
                        Event::Done {
                            state,
                            value: v,
                            best,
                            terminals: t,
                            ..
                        } => {
                            // The S12 root prints no result line; its value is its final bound.
                            let root = visits[at(&state)].get_or_insert_default();
                            root.result = Some(match v {
                                s12::Value::Edge(_, e) => Outcome::Value {
                                    value: e,
                                    cut: false,
                                },
                                s12::Value::Pruned => Outcome::Pruned,
                            });
                            root.best = best.map(|(_, m)| m.child);
                            chosen = best.map(|(i, _)| i);
                            value = v.estimate();
                            terminals = t;
                        }
                    }
                }
            }
        }
        // S14's root result names its move too; the Done event's choice is the one printed.
        let root = tree.root();
        if let (Some(i), Some(v)) = (chosen, visits[root as usize].as_mut()) {
            v.best = tree.children(root).get(i).copied();
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

    /// How many nodes the search entered (or, at S12's root, searched).
    pub fn nodes_visited(&self) -> usize {
        self.visits.iter().flatten().count()
    }
}

//! One case's search, node by node, read off the searcher's events.

use crate::game::tree::{NodeId, Tree, TreeGame, TreeMove, TreeState};
use crate::game::Estimate;
use crate::search::{cs10, csc148, s12, s14, Event, EventLog};
use crate::spec::{Case, Rules, Spec};
use num_traits::Signed;

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

impl Overlay {
    pub fn of(spec: &Spec, case: &Case) -> Overlay {
        let game = TreeGame::new(&spec.tree, case.root_player);
        let tree = &spec.tree;
        let (mut visits, chosen, value, terminals) =
            match case.rules {
                Rules::S14 => {
                    let mut log = EventLog::default();
                    s14::search(&game, case.depth, case.algorithm, &mut log);
                    read(
                        tree,
                        log.events,
                        |v: s14::Value<TreeMove>| Bound::Value(v.estimate()),
                        |r: s14::Verdict<TreeMove>| {
                            let value = r.value.estimate();
                            (
                                Outcome::Value {
                                    value,
                                    cut: r.pruned,
                                },
                                r.value.step(),
                            )
                        },
                    )
                }
                Rules::S12 => {
                    let mut log = EventLog::default();
                    s12::search(&game, case.depth, case.algorithm, &mut log);
                    read(
                        tree,
                        log.events,
                        |v: s12::Value<TreeMove>| v.estimate().map_or(Bound::Pruned, Bound::Value),
                        |r: s12::Verdict<TreeMove>| match r {
                            s12::Verdict::Value(s12::Value::Edge(m, value)) => {
                                (Outcome::Value { value, cut: false }, Some(m))
                            }
                            s12::Verdict::Value(s12::Value::Pruned) => (Outcome::Pruned, None),
                            s12::Verdict::ParentPrune => (Outcome::ParentPrune, None),
                        },
                    )
                }
                Rules::Csc148 => {
                    let mut log = EventLog::default();
                    let strategy = csc148::Strategy::of(case.algorithm, case.depth);
                    csc148::search(&game, strategy, &mut log);
                    // Scores are the mover's; drawn as -1, 0 or 1.
                    let score = |s: csc148::Score| Estimate::Guess(s.as_f64() as i64);
                    read(
                        tree,
                        log.events,
                        |s| Bound::Value(score(s)),
                        |r: csc148::Verdict<TreeMove>| match r {
                            csc148::Verdict::Searched {
                                score: s,
                                best,
                                pruned,
                            } => (
                                Outcome::Value {
                                    value: score(s),
                                    cut: pruned.is_some(),
                                },
                                Some(best),
                            ),
                            csc148::Verdict::Recalled { score: s } => (
                                Outcome::Value {
                                    value: score(s),
                                    cut: false,
                                },
                                None,
                            ),
                        },
                    )
                }
                Rules::Expectimax => {
                    use crate::search::expectimax;
                    let mut log = EventLog::default();
                    expectimax::search(&game, case.depth, case.algorithm, &mut log);
                    // Drawings show whole numbers: an expected value is rounded to the nearest.
                    let whole =
                        |v: &crate::game::Probability| {
                            Estimate::Guess(
                                i64::try_from(v.round().to_integer())
                                    .unwrap_or(if v.is_positive() { i64::MAX } else { i64::MIN }),
                            )
                        };
                    read(
                        tree,
                        log.events,
                        |v: Option<crate::game::Probability>| match v {
                            Some(v) => Bound::Value(whole(&v)),
                            None => Bound::Value(Estimate::Guess(0)),
                        },
                        |r: expectimax::Verdict<TreeMove>| {
                            let best = match &r {
                                expectimax::Verdict::Chose { best, .. } => Some(best.1),
                                _ => None,
                            };
                            (
                                Outcome::Value {
                                    value: whole(r.value()),
                                    cut: false,
                                },
                                best,
                            )
                        },
                    )
                }
                Rules::Cs188 => {
                    use crate::search::cs188;
                    let mut log = EventLog::default();
                    cs188::search(&game, case.depth, case.algorithm, case.cs188, &mut log);
                    let places = case.cs188.places;
                    let est = move |v: f64| cs188::estimate_of(v, places);
                    read(
                        tree,
                        log.events,
                        |v: f64| Bound::Value(est(v)),
                        |r: cs188::Verdict<TreeMove>| {
                            let (cut, best) = match r {
                                cs188::Verdict::Best { cut, best, .. } => {
                                    (cut.is_some(), best.map(|b| b.1))
                                }
                                _ => (false, None),
                            };
                            (
                                Outcome::Value {
                                    value: est(r.value()),
                                    cut,
                                },
                                best,
                            )
                        },
                    )
                }
                Rules::Cs10 => {
                    let mut log = EventLog::default();
                    cs10::search(&game, case.depth, case.algorithm, case.cs10, &mut log);
                    // A child's result comes from its parent, with the child's own value.
                    read(
                        tree,
                        log.events,
                        |v: i64| Bound::Value(Estimate::Guess(v.clamp(-(1 << 62), 1 << 62))),
                        |r: cs10::Verdict| {
                            (
                                Outcome::Value {
                                    value: Estimate::Guess(r.value),
                                    cut: false,
                                },
                                None,
                            )
                        },
                    )
                }
            };
        // Expectimax has no bounds to show.
        if case.rules == Rules::Expectimax {
            for v in visits.iter_mut().flatten() {
                v.bounds = None;
            }
        }
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

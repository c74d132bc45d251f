//! What a case found, as data rather than a trace: the root's value, the chosen move, every
//! equally good move, and the counts. `run --format json` prints these for every case of a
//! spec, and `stats` of a game spec for each search.

use crate::course::{with_course, Course};
use crate::game::state_tree::{self, Limits, Measures, MAX_DESCRIBED};
use crate::game::{Estimate, Game, Player};
use crate::search::counts::{Counted, Counts};
use crate::search::csc148::{self, Score, Strategy};
use crate::search::deadline::TimedOut;
use crate::search::{Algorithm, Summary};
use crate::spec::Case;
use serde::Serialize;
use std::time::Duration;

/// One search case's findings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchFacts {
    pub case: String,
    pub algorithm: &'static str,
    pub rules: &'static str,
    /// `null` when the search goes to the end of every game (CSC148's strategies). In the
    /// case's unit: moves, or rounds (`depth_unit`).
    pub depth: Option<u32>,
    /// `rounds` where the depth counts rounds of every agent's move (CS188); absent for moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth_unit: Option<&'static str>,
    /// The root's value as the case's dialect writes it: `Guess: 3`, `Maxie wins!`, `1.0`.
    pub value: Option<String>,
    /// CSC148: the score's number, for the player to move at the root.
    pub score: Option<f64>,
    pub player: &'static str,
    pub best_move: Option<String>,
    pub best_move_index: Option<usize>,
    /// Every root move as good as the best (CSC148: any may be suggested); the best move
    /// alone elsewhere.
    pub equally_good: Vec<String>,
    /// 15-150: terminals visited; CSC148: positions searched (table hits not counted).
    pub terminals_visited: Option<u64>,
    pub positions_searched: Option<u64>,
    pub table_hits: Option<u64>,
    /// CS10: positions evaluated (static evaluations and finished games), and the
    /// aspiration window's full re-searches.
    pub positions_evaluated: Option<u64>,
    pub re_searches: Option<u64>,
    /// The search's counts in the other sources' conventions ([`crate::search::counts`]);
    /// for iterative deepening, of every depth together.
    pub counts: Option<Counts>,
    /// Iterative deepening: what each depth found, shallowest first (the fields above are the
    /// deepest search's, its counts those of every depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<Vec<Iteration>>,
    /// The search passed its time limit before it ended; nothing else is filled in.
    pub timed_out: bool,
    /// The position and the case's settings as a course driver reads them
    /// (`{position_json}`), for the games that have a driver.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
}

/// One depth of an iteratively deepened search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    pub depth: u32,
    /// The root's moves in the order this depth tried them (`move_order: best_first`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_order: Option<Vec<String>>,
    pub value: Option<String>,
    pub best_move: Option<String>,
    pub equally_good: Vec<String>,
    pub terminals_visited: Option<u64>,
    pub positions_searched: Option<u64>,
    pub counts: Option<Counts>,
}

/// A game-state tree's measures, under the starter's names, as JSON numbers and maps. The
/// counts of paths are `null` past 2^128 - 1 nodes (`overflow`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TreeFacts {
    pub node_count: Option<u128>,
    pub leaf_count: Option<u128>,
    pub distinct_node_count: u64,
    pub distinct_leaf_count: u64,
    pub branching_stats: Option<std::collections::BTreeMap<usize, u128>>,
    pub outcome_counts: Option<[u128; 3]>,
    pub game_lengths: Option<std::collections::BTreeMap<usize, u128>>,
    pub overflow: bool,
    /// Each game as the starter writes it; `null` past [`MAX_DESCRIBED`] games.
    pub game_descriptions: Option<Vec<String>>,
}

impl TreeFacts {
    pub fn of<G: Game>(game: &G, limits: Limits) -> Result<TreeFacts, state_tree::TooLarge> {
        let Measures {
            node_count,
            leaf_count,
            distinct_node_count,
            distinct_leaf_count,
            branching_stats,
            outcome_counts,
            game_lengths,
            overflow,
        } = state_tree::measure(game, limits)?;
        let game_descriptions = (leaf_count <= MAX_DESCRIBED)
            .then(|| state_tree::descriptions(game, leaf_count).ok())
            .flatten();
        let counted = !overflow;
        Ok(TreeFacts {
            node_count: counted.then_some(node_count),
            leaf_count: counted.then_some(leaf_count),
            distinct_node_count,
            distinct_leaf_count,
            branching_stats: counted.then_some(branching_stats),
            outcome_counts: counted.then_some(outcome_counts),
            game_lengths: counted.then_some(game_lengths),
            overflow,
            game_descriptions,
        })
    }
}

/// The name a course gives a player: p1/p2 for CSC148's rules, Maxie/Minnie otherwise.
fn player_name<G: Game>(game: &G, p: Player) -> &'static str {
    game.player_name(p)
}

/// Runs a search case untraced (within `limit`) and says what it found.
pub fn search<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    if case.deepening.is_iterative() {
        return deepened(game, case, limit);
    }
    search_once(game, case, limit)
}

/// An iteratively deepened case: each depth's findings, the deepest's at the top.
fn deepened<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    let mut iterations = Vec::new();
    let mut total = Counts::default();
    let mut last = None;
    for step in crate::run::deepening_steps(game, case, crate::search::mistakes::Flaws::NONE) {
        let f = search_once(game, &step.case, limit);
        if let Some(c) = f.counts {
            total.nodes_entered += c.nodes_entered;
            total.aima_expanded_nodes += c.aima_expanded_nodes;
            total.mit_static_evaluations += c.mit_static_evaluations;
            total.cs188_expanded_states += c.cs188_expanded_states;
        }
        iterations.push(Iteration {
            depth: step.depth,
            move_order: step.order.as_ref().map(|order| {
                let root = game.start();
                let moves: Vec<G::Move> = game.moves(&root).collect();
                order
                    .iter()
                    .map(|&i| {
                        let mut s = String::new();
                        game.write_move(moves[i], &mut s);
                        s
                    })
                    .collect()
            }),
            value: f.value.clone(),
            best_move: f.best_move.clone(),
            equally_good: f.equally_good.clone(),
            terminals_visited: f.terminals_visited,
            positions_searched: f.positions_searched,
            counts: f.counts,
        });
        let stop = f.timed_out;
        last = Some(f);
        if stop {
            break;
        }
    }
    let mut facts = last.unwrap_or_else(|| search_once(game, case, limit));
    facts.depth = Some(case.depth);
    facts.counts = Some(total);
    facts.iterations = Some(iterations);
    facts
}

fn search_once<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    with_course!(case, course => course.facts(game, case, limit))
}

/// What every course says alike of a search case, before it is searched.
fn unsearched<G: Game>(game: &G, case: &Case) -> SearchFacts {
    let player = game.player(&game.start());
    SearchFacts {
        case: case.name.clone(),
        algorithm: crate::course::algorithm_name(case),
        rules: case.rules.name(),
        depth: (case.depth != csc148::TO_THE_END).then_some(case.written_depth()),
        depth_unit: (case.depth_unit == crate::spec::DepthUnit::Rounds)
            .then_some(crate::spec::DepthUnit::Rounds.name()),
        value: None,
        score: None,
        player: player_name(game, player),
        best_move: None,
        best_move_index: None,
        equally_good: Vec::new(),
        terminals_visited: None,
        positions_searched: None,
        table_hits: None,
        positions_evaluated: None,
        re_searches: None,
        counts: None,
        iterations: None,
        timed_out: false,
        position: None,
    }
}

/// The root's move `i` (in move order) as the game writes it.
fn move_text<G: Game>(game: &G, i: usize) -> Option<String> {
    let m = game.moves(&game.start()).nth(i)?;
    let mut s = String::new();
    game.write_move(m, &mut s);
    Some(s)
}

/// What the case's search finds, untraced and counted (within `limit`): its chosen move and
/// counts, and what `fill` reads off its summary; only that it timed out where it did.
fn summarized<G: Game>(
    game: &G,
    case: &Case,
    limit: Option<Duration>,
    fill: impl FnOnce(&mut SearchFacts, Summary),
) -> SearchFacts {
    let mut facts = unsearched(game, case);
    let counted = Counted::new(game);
    let summary = match crate::run::summarize_game_within(&counted, case, limit) {
        Ok(summary) => summary,
        Err(TimedOut { .. }) => {
            facts.timed_out = true;
            return facts;
        }
    };
    facts.best_move_index = summary.best_index;
    facts.best_move = summary.best_index.and_then(|i| move_text(game, i));
    facts.counts = Some(counted.counts());
    fill(&mut facts, summary);
    facts
}

/// A 15-150 case's findings: the root's value as the year's traces write it (`write`), the
/// terminals visited and every move as good as the best.
pub(crate) fn handout_facts<G: Game>(
    game: &G,
    case: &Case,
    limit: Option<Duration>,
    write: fn(&mut String, Estimate),
) -> SearchFacts {
    summarized(game, case, limit, |facts, summary| {
        facts.value = summary.value.map(|e| {
            let mut s = String::new();
            write(&mut s, e);
            s
        });
        facts.terminals_visited = Some(summary.terminals);
        facts.equally_good = crate::search::equally_good(game, case.depth)
            .into_iter()
            .filter_map(|i| move_text(game, i))
            .collect();
    })
}

/// A CSC148 case's findings: the score for the player to move, the positions searched (and
/// answered from the table), and every move the strategy may suggest.
pub(crate) fn csc148_facts<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    summarized(game, case, limit, |facts, summary| {
        let player = game.player(&game.start());
        let score = summary.value.map(|e| Score::of_estimate(e, player));
        facts.value = score.map(|s| s.to_string());
        facts.score = score.map(Score::as_f64);
        facts.positions_searched = Some(summary.terminals);
        facts.table_hits = (case.algorithm == Algorithm::Memoize).then_some(summary.table_hits);
        let (_, ties) = csc148::best_moves(game, Strategy::of(case.algorithm, case.depth));
        facts.equally_good = ties
            .into_iter()
            .filter_map(|i| move_text(game, i))
            .collect();
    })
}

/// A CS10 case's findings: the negamax value for the player to move, and the counts.
pub(crate) fn cs10_facts<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    use crate::search::cs10;
    let mut facts = unsearched(game, case);
    let quiet = &mut crate::search::NullSink;
    let counted = Counted::new(game);
    let searched = match limit {
        Some(l) => crate::search::deadline::within(&counted, l, |g| {
            cs10::search(g, case.depth, case.algorithm, case.cs10, quiet)
        })
        .ok(),
        None => Some(cs10::search(
            &counted,
            case.depth,
            case.algorithm,
            case.cs10,
            quiet,
        )),
    };
    facts.counts = Some(counted.counts());
    let Some((summary, counts)) = searched else {
        facts.timed_out = true;
        return facts;
    };
    let player = game.player(&game.start());
    let value = match summary.value {
        Some(Estimate::Guess(n)) => Some(if player == Player::Maxie { n } else { -n }),
        _ => None,
    };
    facts.value = value.map(|v| {
        let mut s = String::new();
        cs10::write_value(&mut s, v);
        s
    });
    facts.best_move_index = summary.best_index;
    facts.best_move = summary.best_index.and_then(|i| move_text(game, i));
    facts.equally_good = facts.best_move.iter().cloned().collect();
    facts.positions_searched = Some(counts.nodes);
    facts.positions_evaluated = Some(counts.evaluations);
    facts.re_searches = Some(counts.re_searches);
    facts
}

/// An expectimax case's findings: the exact value (as the case prints it) and every move
/// whose exact value is the root's.
pub(crate) fn expectimax_facts<G: Game>(
    game: &G,
    case: &Case,
    limit: Option<Duration>,
) -> SearchFacts {
    let mut facts = unsearched(game, case);
    use crate::search::expectimax;
    let found = match limit {
        Some(l) => crate::search::deadline::within(game, l, |g| {
            expectimax::root_values(g, case.depth, case.algorithm)
        })
        .ok(),
        None => Some(expectimax::root_values(game, case.depth, case.algorithm)),
    };
    let Some((value, children)) = found else {
        facts.timed_out = true;
        return facts;
    };
    let write = |i: usize| move_text(game, i);
    let mut text = String::new();
    expectimax::write_value(&mut text, &value, case.style.decimals);
    facts.value = Some(text);
    let good: Vec<usize> = (0..children.len())
        .filter(|&i| children[i] == value)
        .collect();
    facts.best_move_index = good.first().copied();
    facts.best_move = facts.best_move_index.and_then(write);
    facts.equally_good = good.into_iter().filter_map(write).collect();
    // The counts are one search's from the root (`root_values` searched each root move once
    // more to compare them).
    let mut quiet = crate::search::NullSink;
    let again = Counted::new(game);
    let summary = expectimax::search(&again, case.depth, case.algorithm, &mut quiet);
    facts.terminals_visited = Some(summary.terminals);
    facts.counts = Some(again.counts());
    facts
}

/// A CS188 case's findings: the root's value as Python prints the float, the action chosen,
/// and every action whose exact value (minimax's for alpha-beta) is the best.
pub(crate) fn cs188_facts<G: Game>(game: &G, case: &Case, limit: Option<Duration>) -> SearchFacts {
    let mut facts = unsearched(game, case);
    use crate::search::cs188;
    let counted = Counted::new(game);
    let searched = crate::run::summarize_game_within(&counted, case, limit);
    let found = match limit {
        Some(l) => crate::search::deadline::within(game, l, |g| {
            cs188::root_values(g, case.depth, case.algorithm, case.cs188)
        })
        .ok()
        .flatten(),
        None => cs188::root_values(game, case.depth, case.algorithm, case.cs188),
    };
    let (Ok(summary), Some((value, children))) = (searched, found) else {
        facts.timed_out = true;
        return facts;
    };
    let write = |i: usize| move_text(game, i);
    let mut text = String::new();
    cs188::write_float(&mut text, value);
    facts.value = Some(text);
    facts.best_move_index = summary.best_index;
    facts.best_move = summary.best_index.and_then(write);
    facts.equally_good = (0..children.len())
        .filter(|&i| children[i] == value)
        .filter_map(write)
        .collect();
    facts.terminals_visited = Some(summary.terminals);
    facts.counts = Some(counted.counts());
    facts
}

/// Is this case a search (not a game-state tree)?
pub fn is_search(case: &Case) -> bool {
    case.algorithm != Algorithm::GameStateTree
}

/// One case of a spec, as `run --format json` reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CaseFacts {
    Search(SearchFacts),
    GameStateTree {
        case: String,
        #[serde(flatten)]
        tree: Option<TreeFacts>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    Scenario {
        case: String,
        passed: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        failure: Option<String>,
    },
    Task {
        case: String,
        /// The value as `run` prints it (SML notation), or the REQUIRES clause broken.
        value: String,
    },
}

/// What each chosen case of `doc` finds (each search within its `time_limit`, else `limit`).
pub fn of_document(
    doc: &crate::spec::Document,
    chosen: &[&str],
    limit: Option<Duration>,
) -> Vec<CaseFacts> {
    use crate::spec::Document;
    let mut out = Vec::new();
    for &name in chosen {
        match doc {
            Document::Tree(spec) => {
                if let Some(case) = spec.case(name) {
                    let game = crate::game::tree::TreeGame::new(&spec.tree, case.root_player);
                    out.push(CaseFacts::Search(search(
                        &game,
                        case,
                        case.time_limit.or(limit),
                    )));
                }
            }
            Document::Task(spec) => {
                if let Some(case) = spec.case(name) {
                    let result = crate::check::reference(spec, case);
                    let value = crate::check::render(case, &result).trim_end().to_owned();
                    out.push(CaseFacts::Task {
                        case: name.to_owned(),
                        value,
                    });
                }
            }
            Document::Game(g) => crate::with_game_spec!(g, spec => {
                if let Some(c) = spec.case(name) {
                    let limit = c.case.time_limit.or(limit);
                    out.push(if is_search(&c.case) {
                        let mut facts = search(&c.game, &c.case, limit);
                        facts.position = crate::check::judge::position_json(c);
                        CaseFacts::Search(facts)
                    } else {
                        let counted = match limit {
                            Some(l) => crate::search::deadline::within(&c.game, l, |g| {
                                TreeFacts::of(g, Limits::default())
                            })
                            .map_err(|t| format!("the count {t}"))
                            .and_then(|r| r.map_err(|e| e.to_string())),
                            None => TreeFacts::of(&c.game, Limits::default())
                                .map_err(|e| e.to_string()),
                        };
                        let (tree, error) = match counted {
                            Ok(t) => (Some(t), None),
                            Err(e) => (None, Some(e)),
                        };
                        CaseFacts::GameStateTree {
                            case: name.to_owned(),
                            tree,
                            error,
                        }
                    });
                } else if let Some(s) = spec.scenario(name) {
                    let judged = crate::game::scenario::judge(s);
                    out.push(CaseFacts::Scenario {
                        case: name.to_owned(),
                        passed: judged.is_ok(),
                        failure: judged.err(),
                    });
                }
            }),
        }
    }
    out
}

//! Invariants of the searchers, on random trees of every shape (single children, leaves at
//! several depths, many ties) and on generated uniform trees.

use gametrace::game::tree::{Generate, Tree, TreeGame, TreeState};
use gametrace::game::{Estimate, Game, Player};
use gametrace::search::{minimax_value, s12, s14, Algorithm, Event, EventLog, Summary};
use gametrace::trace::{Dialect, S12Printer, S14Printer, Style};
use proptest::prelude::*;

mod common;
use common::{build, shape};

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::Maxie), Just(Player::Minnie)]
}

fn jamboree(p: f64) -> Algorithm {
    Algorithm::Jamboree {
        prune_percentage: p,
    }
}

/// The full S14 trace (every line kind) and the summary.
fn s14_trace(game: &TreeGame, depth: u32, alg: Algorithm) -> (String, Summary) {
    let mut p = S14Printer::new(game, Vec::new(), Style::new(Dialect::S14));
    let summary = s14::search(game, depth, alg, &mut p);
    (String::from_utf8(p.finish().unwrap()).unwrap(), summary)
}

fn s12_trace(game: &TreeGame, depth: u32, alg: Algorithm) -> (String, Summary) {
    let mut p = S12Printer::new(game, Vec::new(), Style::new(Dialect::S12));
    let summary = s12::search(game, depth, alg, &mut p);
    (String::from_utf8(p.finish().unwrap()).unwrap(), summary)
}

/// The estimated states, in order, from the event stream itself (not from printed text).
fn estimated<M, V, R>(events: Vec<Event<TreeState, M, V, R>>) -> Vec<TreeState> {
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::Estimate { state, .. } => Some(state),
            _ => None,
        })
        .collect()
}

fn s14_terminals(game: &TreeGame, depth: u32, alg: Algorithm) -> Vec<TreeState> {
    let mut log = EventLog::default();
    s14::search(game, depth, alg, &mut log);
    estimated(log.events)
}

fn s12_terminals(game: &TreeGame, depth: u32, alg: Algorithm) -> Vec<TreeState> {
    let mut log = EventLog::default();
    s12::search(game, depth, alg, &mut log);
    estimated(log.events)
}

/// The minimax value of the root's `i`-th child: the chosen move must achieve the root value.
fn child_value(game: &TreeGame, depth: u32, i: usize) -> Estimate {
    let root = game.start();
    let mv = game.moves(&root).nth(i).unwrap();
    minimax_value(game, &game.play(&root, mv), depth - 1)
}

proptest! {
    // 256 cases each by default; PROPTEST_CASES=20000 for a longer hunt.
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn every_searcher_finds_the_minimax_value_and_a_move_that_achieves_it(
        s in shape(), who in player(), p in 0.0f64..=1.0, extra in 0u32..2,
    ) {
        let tree = build(&s);
        let game = TreeGame::new(&tree, who);
        let depth = tree.height() + extra;
        let truth = minimax_value(&game, &game.start(), depth);
        for alg in [Algorithm::Minimax, Algorithm::AlphaBeta, jamboree(p), jamboree(0.0), jamboree(1.0)] {
            for (year, (_, summary)) in [("s14", s14_trace(&game, depth, alg)), ("s12", s12_trace(&game, depth, alg))] {
                prop_assert_eq!(summary.value, Some(truth), "{} {:?}", year, alg);
                let best = summary.best_index.expect("a root with moves has a best move");
                prop_assert_eq!(child_value(&game, depth, best), truth, "{} {:?}", year, alg);
            }
        }
    }

    #[test]
    fn jamboree_at_1_prints_alphabeta_and_at_0_prints_minimax(s in shape(), who in player()) {
        let tree = build(&s);
        let game = TreeGame::new(&tree, who);
        let d = tree.height();
        prop_assert_eq!(s14_trace(&game, d, jamboree(1.0)).0, s14_trace(&game, d, Algorithm::AlphaBeta).0);
        prop_assert_eq!(s14_trace(&game, d, jamboree(0.0)).0, s14_trace(&game, d, Algorithm::Minimax).0);
        prop_assert_eq!(s12_trace(&game, d, jamboree(1.0)).0, s12_trace(&game, d, Algorithm::AlphaBeta).0);
        prop_assert_eq!(s12_trace(&game, d, jamboree(0.0)).0, s12_trace(&game, d, Algorithm::Minimax).0);
    }

    #[test]
    fn pruning_never_visits_more_terminals(s in shape(), who in player(), p in 0.0f64..=1.0) {
        let tree = build(&s);
        let game = TreeGame::new(&tree, who);
        let d = tree.height();
        let mm = s14_trace(&game, d, Algorithm::Minimax).1.terminals;
        let ab = s14_trace(&game, d, Algorithm::AlphaBeta).1.terminals;
        let jb = s14_trace(&game, d, jamboree(p)).1.terminals;
        prop_assert!(ab <= jb && jb <= mm, "alphabeta {} jamboree({}) {} minimax {}", ab, p, jb, mm);
        // Minimax visits every leaf within the depth.
        let leaves = (0..tree.len() as u32).filter(|&id| tree.is_leaf(id)).count() as u64;
        prop_assert_eq!(mm, leaves);
        let mm12 = s12_trace(&game, d, Algorithm::Minimax).1.terminals;
        let ab12 = s12_trace(&game, d, Algorithm::AlphaBeta).1.terminals;
        prop_assert!(ab12 <= mm12);
    }

    #[test]
    fn both_years_estimate_the_same_states_in_the_same_order(
        s in shape(), who in player(), p in 0.0f64..=1.0,
    ) {
        // Why the repl dialect can follow either year: only the tie-breaking of the chosen
        // move differs between them, never which states are estimated.
        let tree = build(&s);
        let game = TreeGame::new(&tree, who);
        let d = tree.height();
        for alg in [Algorithm::AlphaBeta, jamboree(p)] {
            prop_assert_eq!(s14_terminals(&game, d, alg), s12_terminals(&game, d, alg));
        }
    }

    #[test]
    fn traces_do_not_depend_on_the_thread_count(
        seed in any::<u64>(), branching in 2u32..5, p in 0.0f64..=1.0, who in player(),
    ) {
        // Deep enough that the parallel phases really fork (see search::FORK_DEPTH).
        let tree = Tree::generate(&Generate { branching, depth: 6, seed, min: -9, max: 9 });
        let game = TreeGame::new(&tree, who);
        let with = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| (s14_trace(&game, 6, jamboree(p)).0, s12_trace(&game, 6, Algorithm::Minimax).0))
        };
        let one = with(1);
        prop_assert_eq!(&one, &with(2));
        prop_assert_eq!(&one, &with(7));
    }
}

mod chance {
    use super::*;
    use gametrace::search::expectimax;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Without chance nodes, expectiminimax is minimax (to the exact value and the
        /// chosen move); expectimax, which averages Minnie's moves, is never below it.
        #[test]
        fn expectiminimax_without_chance_is_minimax(s in shape(), maxie in any::<bool>()) {
            let tree = build(&s);
            let root = if maxie { Player::Maxie } else { Player::Minnie };
            let game = TreeGame::new(&tree, root);
            let depth = tree.height();
            let want = minimax_value(&game, &game.start(), depth);
            let (emm, _) = expectimax::root_values(&game, depth, Algorithm::Expectiminimax);
            prop_assert_eq!(emm.clone(), expectimax::exact(want));
            let (em, _) = expectimax::root_values(&game, depth, Algorithm::Expectimax);
            if maxie {
                prop_assert!(em >= emm);
            }
            let mm = s14::search(&game, depth, Algorithm::Minimax, &mut gametrace::search::NullSink);
            let ex = expectimax::search(&game, depth, Algorithm::Expectiminimax, &mut gametrace::search::NullSink);
            prop_assert_eq!(mm.best_index, ex.best_index);
            prop_assert_eq!(mm.terminals, ex.terminals);
        }
    }
}

mod deepening {
    use super::*;
    use common::Shape;
    use gametrace::spec::{load_str, Document, Spec};

    /// A spec of `shape` with a static value on every inner node (from its preorder number,
    /// spread over -6..6 like the leaves), nodes named n0, n1, ... as [`build`] names them.
    fn spec_of(shape: &Shape, cases: &str) -> Spec {
        fn add(s: &Shape, indent: usize, n: &mut usize, out: &mut String) {
            let name = format!("n{n}");
            let pad = " ".repeat(indent);
            match s {
                Shape::Leaf(v) => out.push_str(&format!("{pad}{name}: {v}\n")),
                Shape::Node(kids) => {
                    let value = (*n as i64 * 7) % 13 - 6;
                    out.push_str(&format!("{pad}{name}:\n{pad}  static: {value}\n"));
                    *n += 1;
                    for k in kids {
                        add(k, indent + 2, n, out);
                    }
                    return;
                }
            }
            *n += 1;
        }
        let mut yaml = String::from("tree:\n");
        add(shape, 2, &mut 0, &mut yaml);
        yaml.push_str("cases:\n");
        yaml.push_str(cases);
        match load_str(std::path::Path::new("deepening.yaml"), &yaml) {
            Ok(Document::Tree(spec)) => spec,
            other => panic!("{other:?}\n{yaml}"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Iterative deepening, in the game's order or best first, ends with the minimax
        /// value of its last depth and a move that achieves it, in both years and for every
        /// searcher; and the order never changes a depth's value.
        #[test]
        fn deepening_ends_with_minimax_and_best_first_changes_no_value(
            s in shape(), maxie in any::<bool>(), p in 0.0f64..=1.0,
        ) {
            let root = if maxie { "maxie" } else { "minnie" };
            let tree = build(&s);
            let depth = tree.height().max(1);
            let mut cases = String::new();
            for rules in ["s14", "s12"] {
                for (name, algo) in [
                    ("ab", "algorithm: alphabeta".to_owned()),
                    ("mm", "algorithm: minimax".to_owned()),
                    ("jam", format!("algorithm: jamboree, prune_percentage: {p}")),
                ] {
                    for order in ["game", "best_first"] {
                        cases.push_str(&format!(
                            "  {name}-{rules}-{order}: {{{algo}, depth: {depth}, dialect: {rules}, root_player: {root}, deepening: iterative, move_order: {order}}}\n"
                        ));
                    }
                }
            }
            let spec = spec_of(&s, &cases);
            let who = if maxie { Player::Maxie } else { Player::Minnie };
            let game = TreeGame::new(&spec.tree, who);
            let truth = minimax_value(&game, &game.start(), depth);
            let good = gametrace::search::equally_good(&game, depth);
            for case in &spec.cases {
                let (_, summary) = gametrace::run::run_case(&spec, case, std::io::sink()).unwrap();
                prop_assert_eq!(summary.value, Some(truth), "{}", case.name);
                if let Some(best) = summary.best_index {
                    prop_assert!(good.contains(&best), "{}: move {} of {:?}", case.name, best, good);
                }
            }
            // Depth by depth, the two orders agree on the value.
            let values = |text: &str| -> Vec<String> {
                text.lines().filter(|l| l.starts_with("Therefore")).map(|l| {
                    l.split(" is ").nth(1).unwrap().split(", and").next().unwrap().to_owned()
                }).collect()
            };
            for rules in ["s14", "s12"] {
                for name in ["ab", "mm", "jam"] {
                    let game_order = spec.case(&format!("{name}-{rules}-game")).unwrap();
                    let best_first = spec.case(&format!("{name}-{rules}-best_first")).unwrap();
                    let a = gametrace::run::trace_of(&spec, game_order);
                    let b = gametrace::run::trace_of(&spec, best_first);
                    prop_assert_eq!(values(&a), values(&b), "{} {}", name, rules);
                    prop_assert_eq!(values(&a).len(), depth as usize);
                }
            }
        }
    }
}

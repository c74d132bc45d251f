//! The CS188 searchers held to plain recursive searches on random trees of one to four agents
//! (Pacman, then ghosts in turn), with values in whole numbers or tenths: minimax finds the
//! minimax value; alpha-beta, pruning past the bound (CS188) or on reaching it (15-150), finds
//! the same value and the same first best action and generates no state minimax does not,
//! and on reaching the bound no more than past it; expectimax's floats are the exact means of
//! the expectimax family; the 15-150 searchers find the minimax value on the same trees. The
//! driver's tree state is tested in tests/cli_cs188.rs.

mod common;

use common::{build, shape};
use gametrace::game::tree::{Tree, TreeGame};
use gametrace::game::{Estimate, Game, Player};
use gametrace::search::cs188::{self, Options, PruneOn};
use gametrace::search::{self, expectimax, s14, Algorithm, Event, EventLog, NullSink};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Agent 0 maximises, the others minimise.
fn agents(n: usize) -> Vec<Player> {
    let mut a = vec![Player::Minnie; n];
    a[0] = Player::Maxie;
    a
}

/// The depth in moves that searches the whole tree in whole rounds of `n` agents.
fn whole(tree: &Tree, n: u32) -> u32 {
    tree.height().div_ceil(n) * n
}

/// A CS188 search's root value, chosen action and the states it generated.
fn cs188_run(
    game: &TreeGame,
    depth: u32,
    algorithm: Algorithm,
    options: Options,
) -> (f64, Option<usize>, BTreeSet<u32>) {
    type Ev<'t> = cs188::Cs188Event<TreeGame<'t>>;
    let mut log: EventLog<Ev> = EventLog::default();
    let summary = cs188::search(game, depth, algorithm, options, &mut log);
    let mut generated = BTreeSet::new();
    let mut value = f64::NAN;
    for e in &log.events {
        match e {
            Event::Generate { child, .. } => {
                generated.insert(child.node);
            }
            Event::Done { value: v, .. } => value = *v,
            _ => {}
        }
    }
    (value, summary.best_index, generated)
}

/// The first root move with the best value, searched plainly.
fn first_best(game: &TreeGame, depth: u32) -> Option<usize> {
    let root = game.start();
    let values: Vec<Estimate> = game
        .moves(&root)
        .map(|m| search::minimax_value(game, &game.play(&root, m), depth - 1))
        .collect();
    let best = values.iter().max()?;
    values.iter().position(|v| v == best)
}

proptest! {
    #[test]
    fn the_cs188_searchers_agree_with_plain_searches(
        s in shape(), n in 1usize..5, tenths in any::<bool>()
    ) {
        let mut tree = build(&s);
        tree.set_agents(agents(n));
        let places = u8::from(tenths);
        tree.set_places(places);
        let game = TreeGame::new(&tree, Player::Maxie);
        let depth = whole(&tree, n as u32);
        let options = |prune_on| Options { agents: n as u8, prune_on, places };
        let minimax = search::minimax_value(&game, &game.start(), depth);
        let (mv, mm_best, mm_gen) =
            cs188_run(&game, depth, Algorithm::Minimax, options(PruneOn::Greater));
        prop_assert_eq!(cs188::estimate_of(mv, places), minimax);
        prop_assert_eq!(mm_best, first_best(&game, depth));
        // Minimax generates every state below the root.
        prop_assert_eq!(mm_gen.len(), tree.len() - 1);
        let mut past = BTreeSet::new();
        for prune_on in [PruneOn::Greater, PruneOn::GreaterOrEqual] {
            let (v, best, generated) =
                cs188_run(&game, depth, Algorithm::AlphaBeta, options(prune_on));
            prop_assert_eq!(cs188::estimate_of(v, places), minimax);
            prop_assert_eq!(best, mm_best);
            prop_assert!(generated.is_subset(&mm_gen));
            if prune_on == PruneOn::Greater {
                past = generated;
            } else {
                prop_assert!(generated.is_subset(&past));
            }
        }
        // The 15-150 searchers find the same value on the same agents.
        let s14_value = s14::search(&game, depth, Algorithm::AlphaBeta, &mut NullSink).value;
        prop_assert_eq!(s14_value, Some(minimax));
        // Expectimax: the exact family's rational, read as a float.
        let (ev, _, _) = cs188_run(&game, depth, Algorithm::Expectimax, options(PruneOn::Greater));
        let (exact, _) = expectimax::root_values(&game, depth, Algorithm::Expectimax);
        let scale = 10f64.powi(i32::from(places));
        let want = exact.numer().to_string().parse::<f64>().unwrap()
            / exact.denom().to_string().parse::<f64>().unwrap()
            / scale;
        prop_assert!((ev - want).abs() <= 1e-9 * want.abs().max(1.0), "{} vs {}", ev, want);
    }

    /// Whatever a `.test` file holds, reading it gives a spec or a placed error, never a
    /// panic: random text, and a real test with a span of it replaced by random text.
    #[test]
    fn any_test_file_reads_or_is_refused(
        text in "[ -~\n\t\"#:]{0,400}",
        at in 0usize..1000,
        len in 0usize..40,
    ) {
        use gametrace::spec::load_str;
        let path = std::path::Path::new("t.test");
        let _ = load_str(path, &text);
        let good = std::fs::read_to_string(
            "tests/fixtures/cs188/test_cases/q3/4-tie-at-pacman.test",
        )
        .unwrap();
        let start = (at % good.len()).min(good.len());
        let end = (start + len).min(good.len());
        if good.is_char_boundary(start) && good.is_char_boundary(end) {
            let mutated = format!("{}{}{}", &good[..start], text, &good[end..]);
            if let Err(d) = load_str(path, &mutated) {
                prop_assert!(!d.message.is_empty());
                prop_assert!(d.pos.is_some() || d.message.starts_with("gametrace cannot search"), "{}", d);
            }
        }
    }

    /// A tree of `n` agents is searched by every searcher with turns going round them.
    #[test]
    fn turns_go_round_the_agents(s in shape(), n in 1usize..5) {
        let mut tree = build(&s);
        tree.set_agents(agents(n));
        let players = tree.players(Player::Maxie);
        let levels = tree.levels();
        for id in 0..tree.len() {
            let want = if levels[id] as usize % n == 0 { Player::Maxie } else { Player::Minnie };
            prop_assert_eq!(players[id], want);
        }
    }
}

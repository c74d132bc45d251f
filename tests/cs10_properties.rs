//! Invariants of CS10's negamax: on random trees, negamax and negamax_ab find minimax's root
//! value and move (the first best, as minimax takes it); on random Kalah positions the
//! window never changes negamax's value; move ordering and aspiration windows (any guess, any
//! width) never change the root's value.

use gametrace::game::kalah::{EndRule, Kalah, Rules};
use gametrace::game::tree::TreeGame;
use gametrace::game::{Game, Player};
use gametrace::search::cs10::{search, Aspiration, Options, Ordering};
use gametrace::search::{minimax_value, s14, Algorithm, NullSink};
use proptest::prelude::*;

mod common;
use common::{build, played, shape};

fn options() -> impl Strategy<Value = Options> {
    let ordering = prop_oneof![
        Just(Ordering::None),
        Just(Ordering::Static),
        Just(Ordering::Shallow)
    ];
    let aspiration = prop_oneof![
        Just(None),
        (prop::option::of(-8i64..8), 1i64..6)
            .prop_map(|(guess, width)| Some(Aspiration { guess, width })),
    ];
    (ordering, aspiration).prop_map(|(ordering, aspiration)| Options {
        ordering,
        aspiration,
    })
}

/// The root's value for Maxie by each searcher, all equal; negamax's move is minimax's.
fn agree<G: Game>(
    game: &G,
    depth: u32,
    opts: Options,
    same_move: bool,
) -> Result<(), TestCaseError> {
    let want = minimax_value(game, &game.start(), depth);
    let plain = search(
        game,
        depth,
        Algorithm::Minimax,
        Options::default(),
        &mut NullSink,
    )
    .0;
    let window = search(
        game,
        depth,
        Algorithm::AlphaBeta,
        Options::default(),
        &mut NullSink,
    )
    .0;
    let tuned = search(game, depth, Algorithm::AlphaBeta, opts, &mut NullSink).0;
    let ordered = search(
        game,
        depth,
        Algorithm::Minimax,
        Options {
            aspiration: None,
            ..opts
        },
        &mut NullSink,
    )
    .0;
    for (what, s) in [
        ("negamax", plain),
        ("negamax_ab", window),
        ("tuned", tuned),
        ("ordered", ordered),
    ] {
        prop_assert_eq!(s.value, Some(want), "{} with {:?}", what, opts);
    }
    if same_move {
        let minimax = s14::search(game, depth, Algorithm::Minimax, &mut NullSink);
        prop_assert_eq!(plain.best_index, minimax.best_index);
        prop_assert_eq!(window.best_index, minimax.best_index);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn negamax_is_minimax_on_trees(s in shape(), minnie: bool, opts in options()) {
        let tree = build(&s);
        let root = if minnie { Player::Minnie } else { Player::Maxie };
        agree(&TreeGame::new(&tree, root), tree.height(), opts, true)?;
    }

    #[test]
    fn the_window_and_the_options_keep_kalahs_value(
        pits in 2usize..5,
        seeds in 1u16..4,
        capture_empty: bool,
        either_side_empty: bool,
        picks in prop::collection::vec(0usize..8, 0..8),
        depth in 1u32..4,
        opts in options(),
    ) {
        let end = if either_side_empty { EndRule::EitherSideEmpty } else { EndRule::Cs10 };
        let game = played(&Kalah::new(pits, seeds, Rules { end, capture_empty }), &picks);
        // Kalah's values come from CS10's own depth rule (a move-again chain is one ply),
        // which plain minimax does not follow: compare the searchers with each other.
        let plain = search(&game, depth, Algorithm::Minimax, Options::default(), &mut NullSink).0;
        for (a, o) in [
            (Algorithm::AlphaBeta, Options::default()),
            (Algorithm::AlphaBeta, opts),
            (Algorithm::Minimax, Options { aspiration: None, ..opts }),
        ] {
            let s = search(&game, depth, a, o, &mut NullSink).0;
            prop_assert_eq!(s.value, plain.value, "{:?} {:?}", a, o);
        }
    }
}

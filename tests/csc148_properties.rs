//! Invariants of CSC148's strategies: on random trees and random Subtract Square and Tippy
//! positions, minimax, memoize and prune find the score plain minimax finds; the move each
//! suggests is one of the equally good ones; memoization searches each distinct position
//! once and minimax every node of the game-state tree; myopia looking past the end of every
//! game is minimax.

use gametrace::game::state_tree::{measure, Limits};
use gametrace::game::subtract_square::SubtractSquare;
use gametrace::game::tippy::Tippy;
use gametrace::game::tree::TreeGame;
use gametrace::game::{Game, Player};
use gametrace::search::csc148::{best_moves, search, Score, Strategy};
use gametrace::search::{minimax_value, NullSink};
use proptest::prelude::*;

mod common;
use common::{build, played, shape};

const fn strategy(memoize: bool, prune: bool, depth: Option<u32>) -> Strategy {
    Strategy {
        memoize,
        prune,
        depth,
    }
}

const TO_THE_END: [Strategy; 3] = [
    strategy(false, false, None),
    strategy(true, false, None),
    strategy(false, true, None),
];

/// Every strategy to the end agrees with plain minimax (`depth` plies: deeper than any game
/// here), suggests an equally good move, and the counts match the game-state tree.
fn agree<G: Game>(game: &G, depth: u32, count: bool) -> Result<(), TestCaseError> {
    let root = game.start();
    let player = game.player(&root);
    let want = Score::of_estimate(minimax_value(game, &root, depth), player);
    let (score, ties) = best_moves(game, TO_THE_END[0]);
    let has_moves = game.moves(&root).len() > 0
        && matches!(game.status(&root), gametrace::game::Status::InPlay);
    prop_assert_eq!(score, want);
    for s in TO_THE_END {
        let summary = search(game, s, &mut NullSink);
        prop_assert_eq!(
            summary.value.map(|e| Score::of_estimate(e, player)),
            Some(want)
        );
        if has_moves {
            let chosen = summary
                .best_index
                .expect("a position in play has a best move");
            prop_assert!(
                ties.contains(&chosen),
                "{:?} chose {} of {:?}",
                s,
                chosen,
                ties
            );
        }
    }
    // Myopia that sees past the end of every game is minimax.
    let far = search(game, strategy(false, false, Some(depth)), &mut NullSink);
    let all = search(game, TO_THE_END[0], &mut NullSink);
    prop_assert_eq!(far.value, all.value);
    prop_assert_eq!(far.best_index, all.best_index);
    if count {
        let m = measure(game, Limits::default()).unwrap();
        prop_assert_eq!(u128::from(all.terminals), m.node_count);
        let memo = search(game, TO_THE_END[1], &mut NullSink);
        prop_assert_eq!(memo.terminals, m.distinct_node_count);
        // Every tree node is searched or answered from the table, or lies below an answer.
        prop_assert!(u128::from(memo.terminals + memo.table_hits) <= m.node_count);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn strategies_agree_with_minimax_on_trees(s in shape(), minnie: bool) {
        let tree = build(&s);
        let root = if minnie { Player::Minnie } else { Player::Maxie };
        // A tree is its own game-state tree: no position repeats.
        agree(&TreeGame::new(&tree, root), tree.height(), true)?;
    }

    #[test]
    fn strategies_agree_with_minimax_on_subtract_square(total in 0u64..23, p2: bool) {
        let to_move = if p2 { Player::Minnie } else { Player::Maxie };
        agree(&SubtractSquare::new(total, to_move), 64, total <= 16)?;
    }

    #[test]
    fn strategies_agree_with_minimax_on_tippy(
        picks in prop::collection::vec(0usize..16, 0..9),
        four: bool,
    ) {
        // 3×3 from any early position; 4×4 from eight or more moves in.
        let (size, at_least) = if four { (4, 8) } else { (3, 0) };
        if picks.len() < at_least {
            return Ok(());
        }
        let game = played(&Tippy::new(size), &picks);
        agree(&game, 16, !four)?;
    }
}

//! Invariants of the searchers on real game positions (random playouts of Connect 4, PopOut,
//! Riskless and Nim): alpha-beta's root value is minimax's, Jamboree at 1 prints alpha-beta's
//! trace and at 0 minimax's, in both rule years; and state labels never name two states.

use gametrace::check::trace::Mode;
use gametrace::game::connect4::Connect4;
use gametrace::game::nim::Nim;
use gametrace::game::riskless::{Map, Riskless};
use gametrace::game::tictactoe::TicTacToe;
use gametrace::game::{Game, Playable, Player, Status};
use gametrace::run::trace_game;
use gametrace::search::{minimax_value, s12, s14, Algorithm, NullSink};
use gametrace::spec::MoveOrder;
use gametrace::spec::{Case, Rules};
use gametrace::trace::{Dialect, Style};
use proptest::prelude::*;

mod common;
use common::played;
use std::collections::HashMap;

fn case(algorithm: Algorithm, depth: u32, dialect: Dialect) -> Case {
    Case {
        name: "c".into(),
        algorithm,
        depth,
        dialect,
        rules: if dialect == Dialect::S12 {
            Rules::S12
        } else {
            Rules::S14
        },
        root_player: Player::Maxie,
        style: Style::new(dialect),
        exact: false,
        mode: Mode::Full,
        unordered: Default::default(),
        points: 1.0,
        visibility: gametrace::spec::Visibility::Visible,
        time_limit: None,
        metrics: Vec::new(),
        cs10: Default::default(),
        deepening: Default::default(),
        depth_unit: Default::default(),
        cs188: Default::default(),
    }
}

fn trace<G: Game>(game: &G, algorithm: Algorithm, depth: u32, dialect: Dialect) -> String {
    let (bytes, _) = trace_game(game, &case(algorithm, depth, dialect), Vec::new()).unwrap();
    String::from_utf8(bytes).unwrap()
}

fn invariants<G: Playable>(game: &G, depth: u32) -> Result<(), TestCaseError> {
    // The searchers ask an in-play state for `moves_in_play`, which must be its `moves`.
    let start = game.start();
    if game.status(&start) == Status::InPlay {
        prop_assert_eq!(
            game.moves_in_play(&start).collect::<Vec<_>>(),
            game.moves(&start).collect::<Vec<_>>()
        );
        prop_assert_eq!(game.no_moves_in_play(&start), game.moves(&start).len() == 0);
    }
    let want = minimax_value(game, &start, depth);
    let s14 = s14::search(game, depth, Algorithm::AlphaBeta, &mut NullSink);
    let s12 = s12::search(game, depth, Algorithm::AlphaBeta, &mut NullSink);
    if game.moves(&game.start()).len() > 0 {
        prop_assert_eq!(s14.value, Some(want));
        prop_assert_eq!(s12.value, Some(want));
    }
    let j = |p| Algorithm::Jamboree {
        prune_percentage: p,
    };
    for dialect in [Dialect::S14, Dialect::S12] {
        prop_assert_eq!(
            trace(game, j(1.0), depth, dialect),
            trace(game, Algorithm::AlphaBeta, depth, dialect)
        );
        prop_assert_eq!(
            trace(game, j(0.0), depth, dialect),
            trace(game, Algorithm::Minimax, depth, dialect)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn connect4_and_popout_searches_agree(
        columns in 4u8..8, rows in 4u8..7, popout: bool,
        picks in prop::collection::vec(0usize..16, 0..20),
        depth in 1u32..4,
    ) {
        let g = played(&Connect4::new(columns, rows, popout), &picks);
        invariants(&g, depth)?;
    }

    #[test]
    fn riskless_searches_agree(
        m2: bool,
        picks in prop::collection::vec(0usize..16, 0..30),
        depth in 1u32..4,
    ) {
        let map = if m2 { Map::m2() } else { Map::m1() };
        let g = played(&Riskless::new(map), &picks);
        invariants(&g, depth)?;
    }

    #[test]
    fn tic_tac_toe_searches_agree(
        columns in 2u8..5, rows in 2u8..5, k in 2u8..4,
        picks in prop::collection::vec(0usize..16, 0..8),
        depth in 1u32..5,
    ) {
        let k = k.min(columns.max(rows));
        let g = played(&TicTacToe::new(columns, rows, k), &picks);
        invariants(&g, depth)?;
        // Iterative deepening's last depth is the plain search at that depth.
        let mut deepened = case(Algorithm::AlphaBeta, depth, Dialect::S14);
        deepened.deepening = gametrace::spec::Deepening::Iterative(MoveOrder::Game);
        let (bytes, _) = trace_game(&g, &deepened, Vec::new()).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let last = format!("Deepening to depth {depth}\n");
        let at = text.rfind(&last).unwrap() + last.len();
        prop_assert_eq!(&text[at..], trace(&g, Algorithm::AlphaBeta, depth, Dialect::S14));
        // The equally good moves are those whose exact value is the root's.
        let root = g.start();
        let want = minimax_value(&g, &root, depth);
        let good = gametrace::search::equally_good(&g, depth);
        for (i, m) in g.moves(&root).enumerate() {
            let v = minimax_value(&g, &g.play(&root, m), depth - 1);
            prop_assert_eq!(good.contains(&i), v == want, "move {}", i);
        }
        // Trying the best move first changes no value, and the move chosen is one of them.
        deepened.deepening = gametrace::spec::Deepening::Iterative(MoveOrder::BestFirst);
        let (_, summary) = trace_game(&g, &deepened, std::io::sink()).unwrap();
        prop_assert_eq!(summary.value, Some(want));
        if let Some(best) = summary.best_index {
            prop_assert!(good.contains(&best), "move {} of {:?}", best, good);
        }
    }

    #[test]
    fn nim_searches_agree(sticks in 0u64..30, depth in 1u32..6) {
        invariants(&Nim::new(sticks, Player::Maxie), depth)?;
    }

    #[test]
    fn labels_name_one_state_each(
        picks in prop::collection::vec(prop::collection::vec(0usize..16, 0..25), 1..40),
    ) {
        // Many playouts on the same board: equal labels only for equal boards.
        let g = Connect4::new(5, 4, true);
        let mut seen: HashMap<String, <Connect4 as Game>::State> = HashMap::new();
        for p in &picks {
            let s = played(&g, p).start;
            let mut l = String::new();
            g.write_label(&s, &mut l);
            let board = (s.pieces, l.clone());
            if let Some(other) = seen.get(&l) {
                prop_assert_eq!(other.pieces, board.0);
            }
            seen.insert(l, s);
        }
    }
}

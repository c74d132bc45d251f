//! What the tests share: random tree shapes for the property tests (single children, leaves
//! at several depths, and a small value range so that ties, and the tie rules, come up
//! often), `gametrace` run from the checkout and the tools and root some tests need
//! ([`cli`]), and the sandbox's modes ([`sandbox`]).

#![allow(dead_code)] // each test binary uses its own share of these

pub mod cli;
pub mod cs188;
#[cfg(unix)]
pub mod sandbox;

use gametrace::game::tree::{Tree, TreeBuilder};
use gametrace::game::Playable;
use proptest::prelude::*;

#[derive(Clone, Debug)]
pub enum Shape {
    Leaf(i64),
    Node(Vec<Shape>),
}

/// A root with 1 to 4 children, at most 6 levels deep.
pub fn shape() -> impl Strategy<Value = Shape> {
    let leaf = (-6i64..6).prop_map(Shape::Leaf);
    let inner = leaf.prop_recursive(5, 120, 4, |inner| {
        prop::collection::vec(inner, 1..5).prop_map(Shape::Node)
    });
    prop::collection::vec(inner, 1..5).prop_map(Shape::Node)
}

/// The tree of a shape, nodes named n0, n1, ... in preorder.
pub fn build(shape: &Shape) -> Tree {
    fn add(s: &Shape, b: &mut TreeBuilder, n: &mut usize) {
        let name = format!("n{n}");
        *n += 1;
        match s {
            Shape::Leaf(v) => b.leaf(&name, *v),
            Shape::Node(kids) => {
                b.open(&name);
                for k in kids {
                    add(k, b, n);
                }
                b.close();
            }
        }
    }
    let mut b = TreeBuilder::new();
    add(shape, &mut b, &mut 0);
    b.finish()
}

/// `game` after `picks` moves from its start (each pick chooses among the legal moves).
pub fn played<G: Playable>(game: &G, picks: &[usize]) -> G {
    let mut s = game.start();
    for &p in picks {
        let moves: Vec<G::Move> = game.moves(&s).collect();
        if moves.is_empty() {
            break;
        }
        s = game.play(&s, moves[p % moves.len()]);
    }
    game.starting_at(s)
}

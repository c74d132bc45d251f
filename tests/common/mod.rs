//! Random tree shapes for the property tests: single children, leaves at several depths,
//! and a small value range so that ties (and the tie rules) come up often.

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

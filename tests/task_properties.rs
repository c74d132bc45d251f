//! Invariants of the notation and the graph and sequence tasks.

use gametrace::notation::{parse, Value};
use gametrace::task::Task;
use proptest::prelude::*;

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Value::Int),
        any::<bool>().prop_map(Value::Bool),
        "(?s).{0,8}".prop_map(Value::Str),
        "[a-z][a-z_0-9']{0,8}".prop_map(Value::Raise),
    ];
    leaf.prop_recursive(4, 64, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(Value::Tuple),
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::List),
            prop::collection::vec(inner, 0..5).prop_map(Value::Seq),
        ]
    })
}

/// A graph on n vertices as adjacency lists (any edges, in any order, repeats allowed).
fn graph() -> impl Strategy<Value = Vec<Vec<i64>>> {
    (0usize..8).prop_flat_map(|n| {
        let row = prop::collection::vec(0..n.max(1) as i64, 0..4);
        prop::collection::vec(row, n).prop_map(move |rows| if n == 0 { vec![] } else { rows })
    })
}

fn as_value(g: &[Vec<i64>]) -> Value {
    Value::Seq(
        g.iter()
            .map(|r| Value::Seq(r.iter().map(|&v| Value::Int(v)).collect()))
            .collect(),
    )
}

fn apply(task: Task, args: &[Value]) -> Value {
    task.apply(args).unwrap()
}

proptest! {
    #[test]
    fn printing_then_parsing_is_the_identity(v in value()) {
        prop_assert_eq!(parse(&v.to_string()).unwrap(), v);
    }

    #[test]
    fn from_edge_seq_of_a_graphs_own_edges_gives_it_back(g in graph()) {
        let edges: Vec<Value> = g
            .iter()
            .enumerate()
            .flat_map(|(u, row)| row.iter().map(move |&v| Value::Tuple(vec![Value::Int(u as i64), Value::Int(v)])))
            .collect();
        let back = apply(Task::FromEdgeSeq, &[Value::Seq(edges), Value::Int(g.len() as i64)]);
        prop_assert_eq!(back, as_value(&g));
    }

    #[test]
    fn is_undirected_holds_exactly_when_every_edge_has_its_reverse(g in graph()) {
        let naive = g.iter().enumerate().all(|(u, row)| row.iter().all(|&v| g[v as usize].contains(&(u as i64))));
        prop_assert_eq!(apply(Task::IsUndirected, &[as_value(&g)]), Value::Bool(naive));
    }

    #[test]
    fn is_connected_agrees_with_a_search_from_vertex_0(g in graph()) {
        let n = g.len();
        let mut seen = vec![false; n];
        let mut stack = if n > 0 { vec![0usize] } else { vec![] };
        while let Some(u) = stack.pop() {
            if std::mem::replace(&mut seen[u], true) {
                continue;
            }
            // Edges count in both directions (weak connectivity).
            for (w, row) in g.iter().enumerate() {
                if (w == u || row.contains(&(u as i64))) && !seen[w] {
                    stack.push(w);
                }
            }
            stack.extend(g[u].iter().map(|&v| v as usize).filter(|&v| !seen[v]));
        }
        prop_assert_eq!(apply(Task::IsConnected, &[as_value(&g)]), Value::Bool(seen.iter().all(|&s| s)));
    }

    #[test]
    fn look_and_say_run_lengths_sum_to_the_input_length(xs in prop::collection::vec(0i64..3, 0..30)) {
        let input = Value::Seq(xs.iter().map(|&x| Value::Int(x)).collect());
        let Value::Seq(runs) = apply(Task::LookAndSay, &[input]) else { panic!("not a sequence") };
        let mut total = 0;
        let mut previous = None;
        for run in &runs {
            let Value::Tuple(parts) = run else { panic!("not a pair") };
            let (Value::Int(len), value) = (&parts[0], &parts[1]) else { panic!("no length") };
            prop_assert!(*len >= 1);
            prop_assert_ne!(Some(value), previous, "two runs of the same value side by side");
            previous = Some(value);
            total += len;
        }
        prop_assert_eq!(total, xs.len() as i64);
    }
}

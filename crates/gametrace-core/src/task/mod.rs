//! The graph and sequence tasks of the homeworks (S14 HW11 sections 2–3, S12 HW09 section 2):
//! reference implementations that also check their REQUIRES clauses and name what breaks them.

pub mod graph;

use crate::notation::{Type, Value};
use std::fmt;

/// A homework function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    ToList,
    GetNeighbors,
    FromEdgeSeq,
    IsUndirected,
    WeightedNeighbors,
    LookAndSay,
    IsSimple,
    IsConnected,
}

/// An input that breaks the task's REQUIRES clause: the message names the offending element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requires(pub String);

impl fmt::Display for Requires {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn int_seq() -> Type {
    Type::seq(Type::Int)
}

fn graph() -> Type {
    Type::Graph(Box::new(int_seq()))
}

impl Task {
    pub const ALL: [Task; 8] = [
        Task::ToList,
        Task::GetNeighbors,
        Task::FromEdgeSeq,
        Task::IsUndirected,
        Task::WeightedNeighbors,
        Task::LookAndSay,
        Task::IsSimple,
        Task::IsConnected,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Task::ToList => "to_list",
            Task::GetNeighbors => "get_neighbors",
            Task::FromEdgeSeq => "from_edge_seq",
            Task::IsUndirected => "is_undirected",
            Task::WeightedNeighbors => "weighted_neighbors",
            Task::LookAndSay => "look_and_say",
            Task::IsSimple => "is_simple",
            Task::IsConnected => "is_connected",
        }
    }

    pub fn parse(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The parameters' names and types, in order.
    pub fn params(self) -> Vec<(&'static str, Type)> {
        match self {
            Task::ToList | Task::LookAndSay => vec![("s", Type::seq(Type::Any))],
            Task::GetNeighbors => vec![("G", graph()), ("v", Type::Int)],
            Task::FromEdgeSeq => vec![
                ("E", Type::seq(Type::Tuple(vec![Type::Int, Type::Int]))),
                ("n", Type::Int),
            ],
            Task::IsUndirected | Task::IsSimple | Task::IsConnected => vec![("G", graph())],
            Task::WeightedNeighbors => vec![
                (
                    "G",
                    Type::Graph(Box::new(Type::Tuple(vec![Type::Any, int_seq()]))),
                ),
                ("v", Type::Int),
            ],
        }
    }

    pub fn result(self) -> Type {
        match self {
            Task::ToList => Type::List(Box::new(Type::Any)),
            Task::GetNeighbors | Task::WeightedNeighbors => int_seq(),
            Task::FromEdgeSeq => graph(),
            Task::IsUndirected | Task::IsSimple | Task::IsConnected => Type::Bool,
            Task::LookAndSay => Type::seq(Type::Tuple(vec![Type::Int, Type::Any])),
        }
    }

    /// `from_edge_seq : (int * int) seq -> int -> int seq seq`
    pub fn signature(self) -> String {
        let mut s = format!("{} : ", self.name());
        for (_, t) in self.params() {
            s.push_str(&t.sml());
            s.push_str(" -> ");
        }
        s.push_str(&self.result().sml());
        s
    }

    /// Applies the task to arguments already conformed to [`Task::params`].
    pub fn apply(self, args: &[Value]) -> Result<Value, Requires> {
        let arg = |i: usize| {
            args.get(i).ok_or_else(|| {
                Requires(format!(
                    "{} takes {} arguments",
                    self.name(),
                    self.params().len()
                ))
            })
        };
        match self {
            Task::ToList => Ok(Value::List(items(arg(0)?).to_vec())),
            Task::LookAndSay => Ok(look_and_say(items(arg(0)?))),
            Task::FromEdgeSeq => graph::from_edge_seq(arg(0)?, arg(1)?),
            Task::GetNeighbors => {
                let g = graph::Graph::read(arg(0)?, "G")?;
                g.standing_assumptions()?;
                Ok(g.neighbors_value(arg(1)?))
            }
            Task::WeightedNeighbors => {
                let g = graph::Graph::read_weighted(arg(0)?)?;
                g.standing_assumptions()?;
                Ok(g.neighbors_value(arg(1)?))
            }
            Task::IsUndirected => Ok(Value::Bool(
                graph::Graph::read(arg(0)?, "G")?
                    .missing_reverse()
                    .is_none(),
            )),
            Task::IsSimple => Ok(Value::Bool(
                graph::Graph::read(arg(0)?, "G")?.not_simple().is_none(),
            )),
            Task::IsConnected => Ok(Value::Bool(
                graph::Graph::read(arg(0)?, "G")?.unreached().is_none(),
            )),
        }
    }
}

fn items(v: &Value) -> &[Value] {
    v.items().unwrap_or(&[])
}

/// One `(run length, value)` per run of equal values.
fn look_and_say(s: &[Value]) -> Value {
    let mut runs: Vec<Value> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let run = s[i..].iter().take_while(|x| **x == s[i]).count();
        runs.push(Value::Tuple(vec![Value::Int(run as i64), s[i].clone()]));
        i += run;
    }
    Value::Seq(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse;

    fn run(task: Task, args: &[&str]) -> Result<String, String> {
        let args: Vec<Value> = task
            .params()
            .iter()
            .zip(args)
            .map(|((_, t), a)| t.conform(parse(a).unwrap()).unwrap())
            .collect();
        task.apply(&args).map(|v| v.to_string()).map_err(|e| e.0)
    }

    #[test]
    fn the_handouts_examples() {
        assert_eq!(
            run(Task::GetNeighbors, &["<<1>,<0,3>,<3>,<1,2>>", "1"]).unwrap(),
            "<0,3>"
        );
        assert_eq!(
            run(Task::FromEdgeSeq, &["<(0,1),(1,0),(1,2),(2,1)>", "3"]).unwrap(),
            "<<1>,<0,2>,<1>>"
        );
        assert_eq!(
            run(Task::IsUndirected, &["<<1>,<2>,<1,3>,<1,2>>"]).unwrap(),
            "false"
        );
        assert_eq!(
            run(Task::LookAndSay, &["<\"hi\",\"hi\",\"hi\">"]).unwrap(),
            "<(3,\"hi\")>"
        );
        assert_eq!(
            run(Task::LookAndSay, &["<\"bye\",\"hi\",\"hi\">"]).unwrap(),
            "<(1,\"bye\"),(2,\"hi\")>"
        );
        assert_eq!(run(Task::ToList, &["<1,2,3>"]).unwrap(), "[1,2,3]");
    }

    #[test]
    fn signatures_read_like_the_handout() {
        assert_eq!(
            Task::FromEdgeSeq.signature(),
            "from_edge_seq : (int * int) seq -> int -> int seq seq"
        );
        assert_eq!(
            Task::GetNeighbors.signature(),
            "get_neighbors : int seq seq -> int -> int seq"
        );
    }

    #[test]
    fn requires_violations_name_the_offender() {
        assert_eq!(
            run(Task::FromEdgeSeq, &["<(0,1),(0,5)>", "3"]).unwrap_err(),
            "vertex 5 is out of range 0..2 (edge 1 of E is (0,5))"
        );
        assert_eq!(
            run(Task::GetNeighbors, &["<<1>,<0>>", "7"]).unwrap(),
            "raise not_in_graph"
        );
        assert_eq!(
            run(Task::GetNeighbors, &["<<1>,<2>,<1>>", "0"]).unwrap_err(),
            "G must be undirected: edge (0,1) has no reverse (1,0)"
        );
        assert_eq!(
            run(Task::GetNeighbors, &["<<0>>", "0"]).unwrap_err(),
            "G must be simple: vertex 0 has a self-loop (0,0)"
        );
        assert_eq!(
            run(Task::IsSimple, &["<<1>,<0,4>>"]).unwrap_err(),
            "vertex 4 is out of range 0..1 (in the neighbours of vertex 1)"
        );
    }
}

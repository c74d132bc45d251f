//! Graphs as adjacency sequences (`vertex seq seq`): reading them, and the handout's standing
//! assumptions (simple, undirected, connected), each in n log n time or better.

use super::Requires;
use crate::notation::Value;

pub struct Graph {
    adj: Vec<Vec<usize>>,
}

/// `vertex v is out of range 0..n-1`
fn out_of_range(v: i64, n: usize) -> String {
    if n == 0 {
        format!(
            "vertex {} is out of range: the graph has no vertices",
            Value::Int(v)
        )
    } else {
        format!("vertex {} is out of range 0..{}", Value::Int(v), n - 1)
    }
}

pub fn from_edge_seq(edges: &Value, n: &Value) -> Result<Value, Requires> {
    let n = n.as_int().unwrap_or(-1);
    if n < 0 {
        return Err(Requires(format!(
            "n must be 0 or more, found {}",
            Value::Int(n)
        )));
    }
    let n = usize::try_from(n).map_err(|_| Requires("n is too large".into()))?;
    if n > 10_000_000 {
        return Err(Requires(format!("n must be at most 10000000, found {n}")));
    }
    // Check every edge and count degrees first, so each row is allocated once at its size.
    let edges = edges.items().unwrap_or(&[]);
    let mut degree = vec![0usize; n];
    for (i, e) in edges.iter().enumerate() {
        let (u, v) = match e.items() {
            Some([Value::Int(u), Value::Int(v)]) => (*u, *v),
            _ => {
                return Err(Requires(format!(
                    "edge {i} of E is not a pair of vertices: {e}"
                )))
            }
        };
        for x in [u, v] {
            if x < 0 || x as u64 >= n as u64 {
                return Err(Requires(format!(
                    "{} (edge {i} of E is {e})",
                    out_of_range(x, n)
                )));
            }
        }
        degree[u as usize] += 1;
    }
    let mut adj: Vec<Vec<Value>> = degree.into_iter().map(Vec::with_capacity).collect();
    for e in edges {
        if let Some([Value::Int(u), v]) = e.items() {
            adj[*u as usize].push(v.clone());
        }
    }
    Ok(Value::Seq(adj.into_iter().map(Value::Seq).collect()))
}

impl Graph {
    /// A graph from adjacency lists of vertex numbers (already in range).
    pub fn from_adjacency(adj: Vec<Vec<usize>>) -> Graph {
        Graph { adj }
    }

    /// Reads `vertex seq seq`, checking every neighbour is a vertex of the graph.
    pub fn read(v: &Value, name: &str) -> Result<Graph, Requires> {
        let rows = v.items().unwrap_or(&[]);
        Self::from_rows(
            rows.iter().map(|r| r.items().unwrap_or(&[])),
            rows.len(),
            name,
        )
    }

    /// Reads `(weight * vertex seq) seq`.
    pub fn read_weighted(v: &Value) -> Result<Graph, Requires> {
        let rows = v.items().unwrap_or(&[]);
        let neighbours = rows.iter().map(|r| match r.items() {
            Some([_, ns]) => ns.items().unwrap_or(&[]),
            _ => &[],
        });
        Self::from_rows(neighbours, rows.len(), "G")
    }

    fn from_rows<'a>(
        rows: impl Iterator<Item = &'a [Value]>,
        n: usize,
        name: &str,
    ) -> Result<Graph, Requires> {
        let mut adj = Vec::with_capacity(n);
        for (u, row) in rows.enumerate() {
            let mut ns = Vec::with_capacity(row.len());
            for x in row {
                let v = x.as_int().unwrap_or(-1);
                if v < 0 || v as u64 >= n as u64 {
                    return Err(Requires(
                        format!(
                            "{} (in the neighbours of vertex {u} in {name})",
                            out_of_range(v, n)
                        )
                        .replace(" in G)", ")"),
                    ));
                }
                ns.push(v as usize);
            }
            adj.push(ns);
        }
        Ok(Graph { adj })
    }

    /// The neighbours of `v`, or `raise not_in_graph`.
    pub fn neighbors_value(&self, v: &Value) -> Value {
        match v
            .as_int()
            .and_then(|v| usize::try_from(v).ok())
            .and_then(|v| self.adj.get(v))
        {
            Some(ns) => Value::Seq(ns.iter().map(|&x| Value::Int(x as i64)).collect()),
            None => Value::Raise("not_in_graph".into()),
        }
    }

    /// The handout's standing assumptions about maps: simple, undirected, connected.
    pub fn standing_assumptions(&self) -> Result<(), Requires> {
        if let Some(why) = self.not_simple() {
            return Err(Requires(format!("G must be simple: {why}")));
        }
        if let Some((u, v)) = self.missing_reverse() {
            return Err(Requires(format!(
                "G must be undirected: edge ({u},{v}) has no reverse ({v},{u})"
            )));
        }
        if let Some(v) = self.unreached() {
            return Err(Requires(format!(
                "G must be connected: vertex {v} cannot be reached from vertex 0"
            )));
        }
        Ok(())
    }

    /// The first self-loop or repeated edge, described.
    pub fn not_simple(&self) -> Option<String> {
        self.not_simple_at().map(|(u, v)| {
            if u == v {
                format!("vertex {u} has a self-loop ({u},{u})")
            } else {
                format!("edge ({u},{v}) appears twice")
            }
        })
    }

    /// The first self-loop `(u,u)` or repeated edge `(u,v)`.
    pub fn not_simple_at(&self) -> Option<(usize, usize)> {
        for (u, ns) in self.adj.iter().enumerate() {
            if ns.contains(&u) {
                return Some((u, u));
            }
            let mut sorted = ns.clone();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Some((u, w[0]));
            }
        }
        None
    }

    /// The first edge (in order) whose reverse is missing.
    pub fn missing_reverse(&self) -> Option<(usize, usize)> {
        let edges = || {
            self.adj
                .iter()
                .enumerate()
                .flat_map(|(u, ns)| ns.iter().map(move |&v| (u, v)))
        };
        // Undirected exactly when the set of edges equals the set of reversed edges: two
        // sorts and one pass. Only when they differ is the offending edge looked for.
        let mut forward: Vec<(usize, usize)> = edges().collect();
        let mut backward: Vec<(usize, usize)> = forward.iter().map(|&(u, v)| (v, u)).collect();
        forward.sort_unstable();
        forward.dedup();
        backward.sort_unstable();
        backward.dedup();
        if forward == backward {
            return None;
        }
        edges().find(|&(u, v)| forward.binary_search(&(v, u)).is_err())
    }

    /// A vertex not connected to vertex 0, ignoring edge directions (weak connectivity).
    pub fn unreached(&self) -> Option<usize> {
        let n = self.adj.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for (u, ns) in self.adj.iter().enumerate() {
            for &v in ns {
                let (a, b) = (find(&mut parent, u), find(&mut parent, v));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        (1..n).find(|&v| find(&mut parent, v) != find(&mut parent, 0))
    }
}

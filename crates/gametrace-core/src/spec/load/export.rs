//! `export --to json` documents (`format: gametrace-tree`) read back as specs: the document is
//! rewritten into the spec's own shape, node by node, keeping every node's place in the file,
//! so the rest of the loader (and its diagnostics) works on it unchanged.

use super::{entry, Loader};
use crate::spec::yaml::{Node, Pos, Yaml};
use crate::spec::Diagnostic;

/// The keys of an export document, in the order `export` writes them.
pub(in crate::spec) const EXPORT_KEYS: &[&str] = &[
    "format",
    "version",
    "title",
    "case",
    "algorithm",
    "prune_percentage",
    "depth",
    "dialect",
    "lines",
    "sml_structure",
    "root_player",
    "move_names",
    "agents",
    "depth_unit",
    "prune_on",
    "tree",
];

fn scalar(pos: Pos, text: &str) -> Node {
    Node {
        pos,
        yaml: Yaml::Scalar {
            text: text.into(),
            plain: true,
        },
    }
}

impl Loader<'_> {
    /// Is this document an export (`format:` at the top)?
    pub(super) fn is_export(entries: &[(Node, Node)]) -> bool {
        entry(entries, "format").is_some()
    }

    /// The spec an export document stands for: its tree, and one case with its settings.
    pub(super) fn export_as_spec(
        &self,
        doc: &Node,
        entries: &[(Node, Node)],
    ) -> Result<Node, Diagnostic> {
        let (format_key, format) = entry(entries, "format").expect("checked by is_export");
        if format.scalar() != Some("gametrace-tree") {
            return Err(self
                .error(format.pos, "unknown document format")
                .expected(
                    "`format: gametrace-tree` (a tree exported by `gametrace export --to json`)",
                )
                .found(format.describe())
                .hint("a spec has no `format:` key; remove it to write a spec by hand"));
        }
        let mut top = Vec::new();
        let mut case = Vec::new();
        let mut case_name = None;
        let mut tree = None;
        for (k, v) in entries {
            match k.scalar().unwrap_or("") {
                "format" => {}
                "version" | "title" | "root_player" | "move_names" | "sml_structure" | "agents" => {
                    if !v.is_null() {
                        top.push((k.clone(), v.clone()));
                    }
                }
                "case" => case_name = Some(v),
                "algorithm" | "depth" | "prune_percentage" | "dialect" | "lines" | "depth_unit"
                | "prune_on" => {
                    if !v.is_null() {
                        case.push((k.clone(), v.clone()));
                    }
                }
                "tree" => tree = Some((k, v)),
                _ => self.problem(self.unknown_key(k, EXPORT_KEYS, "the exported tree")),
            }
        }
        let Some((tree_key, tree_value)) = tree else {
            return Err(self
                .error(doc.pos, "the exported tree has no `tree`")
                .expected("a `tree:` object of `name` and `children` or `value`")
                .found(format!("keys {}", Self::key_list(entries)))
                .hint("export the spec again with `gametrace export --to json`"));
        };
        let mut outcomes = Vec::new();
        let (root, _) = self.export_node(tree_value, &mut outcomes)?;
        for (key, which) in [("win_states", "win"), ("lose_states", "lose")] {
            let names: Vec<Node> = outcomes
                .iter()
                .filter(|(_, o)| *o == which)
                .map(|(n, _)| n.clone())
                .collect();
            if !names.is_empty() {
                top.push((
                    scalar(tree_key.pos, key),
                    Node {
                        pos: tree_key.pos,
                        yaml: Yaml::Seq(names),
                    },
                ));
            }
        }
        top.push((
            tree_key.clone(),
            Node {
                pos: tree_value.pos,
                yaml: Yaml::Map(vec![root]),
            },
        ));
        let name = match case_name {
            Some(n) if n.scalar().is_some_and(|s| !s.is_empty()) => n.clone(),
            Some(n) => {
                return Err(self
                    .error(n.pos, "the exported case has no name")
                    .expected("`case:` the name of the case the settings come from")
                    .found(n.describe()))
            }
            None => scalar(format_key.pos, "exported"),
        };
        top.push((
            scalar(format_key.pos, "cases"),
            Node {
                pos: format_key.pos,
                yaml: Yaml::Map(vec![(
                    name,
                    Node {
                        pos: format_key.pos,
                        yaml: Yaml::Map(case),
                    },
                )]),
            },
        ));
        Ok(Node {
            pos: doc.pos,
            yaml: Yaml::Map(top),
        })
    }

    /// `{"name": "a", "children": [...]}` -> `a: {...}`; `{"name": "c", "value": 3}` -> `c: 3`,
    /// with the node's `action` (the name of the move to it), and its `outcome` noted in
    /// `outcomes`. Recursion is bounded by the YAML parser's nesting limit.
    #[allow(clippy::type_complexity)]
    fn export_node(
        &self,
        node: &Node,
        outcomes: &mut Vec<(Node, String)>,
    ) -> Result<((Node, Node), Option<Node>), Diagnostic> {
        let entries = self.map(node, "a node of the exported tree")?;
        let known = [
            "name", "children", "value", "static", "chance", "action", "outcome",
        ];
        for (k, _) in entries {
            if !known.contains(&k.scalar().unwrap_or("")) {
                self.problem(self.unknown_key(k, &known, "a node of the exported tree"));
            }
        }
        let Some((_, name)) = entry(entries, "name") else {
            return Err(self
                .error(node.pos, "a node of the exported tree has no `name`")
                .expected("`name` and `children` (an inner node) or `value` (a leaf)")
                .found(format!("keys {}", Self::key_list(entries))));
        };
        let action = entry(entries, "action").map(|(_, a)| a.clone());
        if let Some((_, o)) = entry(entries, "outcome") {
            match o.scalar() {
                Some(w @ ("win" | "lose")) => outcomes.push((name.clone(), w.to_owned())),
                _ => {
                    return Err(self
                        .error(o.pos, "unknown `outcome`")
                        .expected("`win` or `lose`")
                        .found(o.describe()))
                }
            }
        }
        match (entry(entries, "children"), entry(entries, "value")) {
            (Some((_, children)), None) => {
                let children = self.export_inner(node, entries, children, outcomes)?;
                Ok(((name.clone(), children), action))
            }
            (None, Some((_, value))) => {
                self.export_leaf_static(entries, name, value)?;
                Ok(((name.clone(), value.clone()), action))
            }
            (Some((k, _)), Some(_)) => Err(self
                .error(
                    k.pos,
                    "a node of the exported tree has both `children` and `value`",
                )
                .expected("`children` for an inner node or `value` for a leaf")
                .found("both")),
            (None, None) => Err(self
                .error(
                    node.pos,
                    "a node of the exported tree has no `children` or `value`",
                )
                .expected("`children` for an inner node or `value` for a leaf")
                .found(format!("keys {}", Self::key_list(entries)))),
        }
    }

    /// An inner node's `children` (and its `static` and `chance`) as the spec's map of it:
    /// `actions:`, `static:` and `chance:` first, then each child.
    fn export_inner(
        &self,
        node: &Node,
        entries: &[(Node, Node)],
        children: &Node,
        outcomes: &mut Vec<(Node, String)>,
    ) -> Result<Node, Diagnostic> {
        let Yaml::Seq(items) = &children.yaml else {
            return Err(self
                .error(children.pos, "`children` must be a list")
                .expected("a list of nodes, in move order")
                .found(children.describe()));
        };
        let read = items
            .iter()
            .map(|c| self.export_node(c, outcomes))
            .collect::<Result<Vec<_>, _>>()?;
        let actions: Vec<Node> = read.iter().filter_map(|(_, a)| a.clone()).collect();
        if !actions.is_empty() && actions.len() != read.len() {
            return Err(self
                .error(
                    children.pos,
                    "some of these children have an `action` and some not",
                )
                .expected("an `action` on every child of a node, or on none")
                .found(format!("{} of {}", actions.len(), read.len())));
        }
        let mut children: Vec<(Node, Node)> = read.into_iter().map(|(c, _)| c).collect();
        // The children's actions are the node's `actions:` in a spec.
        if !actions.is_empty() {
            children.insert(
                0,
                (
                    scalar(children_pos(node, entries), super::ACTIONS_KEY),
                    Node {
                        pos: node.pos,
                        yaml: Yaml::Seq(actions),
                    },
                ),
            );
        }
        // An inner node's static value is its `static:` key in a spec.
        if let Some((k, v)) = entry(entries, "static") {
            children.insert(0, (scalar(k.pos, super::STATIC_KEY), v.clone()));
        }
        if let Some((k, v)) = entry(entries, "chance") {
            let chance = self.export_chance(k, v, &children)?;
            children.insert(0, chance);
        }
        Ok(Node {
            pos: node.pos,
            yaml: Yaml::Map(children),
        })
    }

    /// A chance node's probabilities (`v`, at key `k`), in move order, become `chance:
    /// {child: p}` over its `children`.
    fn export_chance(
        &self,
        k: &Node,
        v: &Node,
        children: &[(Node, Node)],
    ) -> Result<(Node, Node), Diagnostic> {
        let Yaml::Seq(ps) = &v.yaml else {
            return Err(self
                .error(v.pos, "`chance` must be a list")
                .expected("the children's probabilities in move order, like [\"1/3\", \"2/3\"]")
                .found(v.describe()));
        };
        let named: Vec<&Node> = children
            .iter()
            .filter(|(n, _)| n.scalar() != Some(super::STATIC_KEY))
            .map(|(n, _)| n)
            .collect();
        if ps.len() != named.len() {
            return Err(self
                .error(
                    v.pos,
                    "`chance` has a probability for each child, in move order",
                )
                .expected(format!("{} probabilities", named.len()))
                .found(format!("{}", ps.len())));
        }
        let map = named
            .into_iter()
            .zip(ps)
            .map(|(n, p)| (n.clone(), p.clone()))
            .collect();
        Ok((
            scalar(k.pos, super::CHANCE_KEY),
            Node {
                pos: v.pos,
                yaml: Yaml::Map(map),
            },
        ))
    }

    /// A leaf's `static`, if it has one, must be its value.
    fn export_leaf_static(
        &self,
        entries: &[(Node, Node)],
        name: &Node,
        value: &Node,
    ) -> Result<(), Diagnostic> {
        let Some((k, st)) = entry(entries, "static") else {
            return Ok(());
        };
        let what = format!("the static value of `{}`", name.scalar().unwrap_or("?"));
        let (a, b) = (
            self.integer(st, &what, "3")?,
            self.integer(value, &what, "3")?,
        );
        if a != b {
            return Err(self
                .error(
                    k.pos,
                    format!(
                        "the leaf `{}` has a static value that disagrees with its estimate",
                        name.scalar().unwrap_or("?")
                    ),
                )
                .expected(format!(
                    "`static: {b}` (a leaf's static value is its estimate), or no `static`"
                ))
                .found(format!("`static: {a}` and `value: {b}`"))
                .hint("a search estimates a leaf by its value; remove `static` from leaves"));
        }
        Ok(())
    }
}

/// Where a node's `children` key is (or the node, if it has none).
fn children_pos(node: &Node, entries: &[(Node, Node)]) -> Pos {
    entry(entries, "children").map_or(node.pos, |(k, _)| k.pos)
}

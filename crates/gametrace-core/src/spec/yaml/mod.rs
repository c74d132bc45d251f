//! A YAML document as a tree of nodes that remember where they start, so every problem in a
//! spec can be reported at its line and column. Built from yaml-rust2's event parser, or for
//! the shapes specs are usually written in, by a scanner of our own (`fast`) that gives the
//! same nodes.

use compact_str::CompactString;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A place in a file, both 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Yaml {
    /// A scalar's text, and whether it was plain (unquoted, so `3` may be a number). Kept
    /// inline up to 24 bytes: a spec is mostly short names and numbers, and a string each
    /// was most of the time spent loading a big tree (allocating and freeing them).
    Scalar {
        text: CompactString,
        plain: bool,
    },
    Seq(Vec<Node>),
    /// Entries in the order written (move order, for trees).
    Map(Vec<(Node, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub pos: Pos,
    pub yaml: Yaml,
}

impl Node {
    /// The scalar's text, if this is a scalar.
    pub fn scalar(&self) -> Option<&str> {
        match &self.yaml {
            Yaml::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// Is this an empty value (`key:` with nothing after it, or `~`/`null`)?
    pub fn is_null(&self) -> bool {
        matches!(&self.yaml, Yaml::Scalar { text, plain: true } if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    /// How the node reads in a message: `the number 3`, `a list`, `a map`.
    pub fn describe(&self) -> String {
        match &self.yaml {
            _ if self.is_null() => "nothing".to_owned(),
            Yaml::Scalar { text, plain: true } => format!("`{}`", shorten(text)),
            Yaml::Scalar { text, plain: false } => format!("the string \"{}\"", shorten(text)),
            Yaml::Seq(_) => "a list".to_owned(),
            Yaml::Map(_) => "a map".to_owned(),
        }
    }
}

/// The document `node` written back as YAML, in block style, to be read as the same nodes:
/// every scalar keeps its text and whether it was plain (the loader tells `3` from `"3"`), a
/// plain one written as it was, a quoted one double-quoted. Comments and styles are not kept.
pub fn block(node: &Node) -> String {
    let mut out = String::new();
    match &node.yaml {
        Yaml::Map(m) => emit_map(m, 0, &mut out),
        Yaml::Seq(items) if !items.is_empty() => emit_seq(items, 0, &mut out),
        Yaml::Seq(_) => out.push_str("[]\n"),
        Yaml::Scalar { .. } => {
            emit_scalar(node, &mut out);
            out.push('\n');
        }
    }
    out
}

/// Writes a map in block style, `indent` spaces in. Every scalar keeps its text and whether
/// it was plain (the loader tells `3` from `"3"`): a plain one is written as it was, a quoted
/// one as a double-quoted string, so the loader reads the same nodes back.
fn emit_map(entries: &[(Node, Node)], indent: usize, out: &mut String) {
    if entries.is_empty() {
        out.push_str("{}\n");
        return;
    }
    for (k, v) in entries {
        out.push_str(&" ".repeat(indent));
        emit_scalar(k, out);
        out.push(':');
        emit_value(
            v,
            indent,
            out,
            |y| matches!(y, Yaml::Map(m) if !m.is_empty()),
        );
    }
}

fn emit_seq(items: &[Node], indent: usize, out: &mut String) {
    for item in items {
        out.push_str(&" ".repeat(indent));
        out.push('-');
        emit_value(
            item,
            indent,
            out,
            |y| matches!(y, Yaml::Seq(s) if !s.is_empty()),
        );
    }
}

/// The value after `key:` or `-`: a scalar on the same line, a collection on the lines below
/// (`below` says which collections go below; a map in a list starts on the dash's line).
fn emit_value(v: &Node, indent: usize, out: &mut String, below: impl Fn(&Yaml) -> bool) {
    match &v.yaml {
        Yaml::Scalar { .. } => {
            if !v.is_null() || v.scalar() != Some("") {
                out.push(' ');
                emit_scalar(v, out);
            }
            out.push('\n');
        }
        Yaml::Seq(items) if items.is_empty() => out.push_str(" []\n"),
        Yaml::Map(m) if m.is_empty() => out.push_str(" {}\n"),
        y if below(y) || matches!(y, Yaml::Seq(_)) => {
            out.push('\n');
            match y {
                Yaml::Seq(items) => emit_seq(items, indent + 2, out),
                Yaml::Map(m) => emit_map(m, indent + 2, out),
                Yaml::Scalar { .. } => {}
            }
        }
        Yaml::Map(m) => {
            // A map as a list's item: `- key: value`, the rest beneath it.
            out.push('\n');
            emit_map(m, indent + 2, out);
        }
        Yaml::Seq(_) => {}
    }
}

fn emit_scalar(n: &Node, out: &mut String) {
    if let Yaml::Scalar { text, plain } = &n.yaml {
        if *plain {
            out.push_str(text);
        } else {
            out.push_str(&serde_json::to_string(text.as_str()).unwrap_or_default());
        }
    }
}

/// Cuts long text for messages.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// How deeply YAML may nest. Deeper documents are refused before they are built (dropping a
/// very deep tree would recurse; no spec needs more: trees are capped far lower).
pub const MAX_NESTING: usize = 1000;

/// A YAML syntax problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

pub mod fast;

/// Parses one YAML document; `Ok(None)` for an empty file. The common shapes take the fast
/// path ([`fast`]); anything else, and every error, is read by the full parser.
pub fn parse(source: &str) -> Result<Option<Node>, SyntaxError> {
    match fast::parse(source) {
        Some(node) => Ok(Some(node)),
        None => full(source),
    }
}

/// Parses one YAML document with the full parser (yaml-rust2), whatever its shape.
pub fn full(source: &str) -> Result<Option<Node>, SyntaxError> {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(source);
    // Events are pulled one at a time rather than through `Parser::load`, which recurses once
    // per nesting level: a block-style document 20,000 levels deep overflowed the stack before
    // the builder could refuse it at `MAX_NESTING`.
    while builder.error.is_none() {
        match parser.next_token() {
            Ok((Event::StreamEnd, _)) => break,
            Ok((event, mark)) => builder.on_event(event, mark),
            Err(e) => {
                // The scanner's column is 0-based.
                let m = e.marker();
                return Err(SyntaxError {
                    pos: Pos {
                        line: m.line(),
                        col: m.col() + 1,
                    },
                    message: e.info().to_owned(),
                });
            }
        }
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    Ok(builder.documents.into_iter().next())
}

/// An open sequence or mapping, with a pending key for mappings.
enum Open {
    Seq(Pos, Vec<Node>),
    Map(Pos, Vec<(Node, Node)>, Option<Node>),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    documents: Vec<Node>,
    error: Option<SyntaxError>,
}

fn pos(m: Marker) -> Pos {
    Pos {
        line: m.line(),
        col: m.col() + 1,
    }
}

impl Builder {
    fn fail(&mut self, at: Pos, message: &str) {
        if self.error.is_none() {
            self.error = Some(SyntaxError {
                pos: at,
                message: message.to_owned(),
            });
        }
    }

    fn add(&mut self, node: Node) {
        match self.stack.last_mut() {
            None => {
                if !self.documents.is_empty() {
                    self.fail(node.pos, "a spec is one YAML document; found a second one");
                    return;
                }
                self.documents.push(node);
            }
            Some(Open::Seq(_, items)) => items.push(node),
            Some(Open::Map(_, entries, key)) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
        }
    }

    fn open(&mut self, container: Open) {
        if self.stack.len() >= MAX_NESTING {
            let at = match container {
                Open::Seq(p, _) | Open::Map(p, ..) => p,
            };
            self.fail(at, "the document nests more than 1000 levels deep");
            return;
        }
        self.stack.push(container);
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let at = pos(mark);
        match ev {
            Event::Scalar(text, style, _, _) => self.add(Node {
                pos: at,
                yaml: Yaml::Scalar {
                    text: text.into(),
                    plain: style == TScalarStyle::Plain,
                },
            }),
            Event::SequenceStart(..) => self.open(Open::Seq(at, Vec::new())),
            Event::MappingStart(..) => self.open(Open::Map(at, Vec::new(), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Open::Seq(p, items)) => Node {
                        pos: p,
                        yaml: Yaml::Seq(items),
                    },
                    // A block map's start marker can fall after its first key; a map
                    // begins where it is seen to begin.
                    Some(Open::Map(p, entries, _)) => Node {
                        pos: entries.first().map_or(p, |(k, _)| k.pos.min(p)),
                        yaml: Yaml::Map(entries),
                    },
                    None => return,
                };
                self.add(node);
            }
            Event::Alias(_) => self.fail(at, ALIASES),
            _ => {}
        }
    }
}

/// Why a spec with `*name` is refused: every node of a tree is its own, with its own name.
pub const ALIASES: &str = "anchors and aliases (`&name`, `*name`) are not supported in specs";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_know_their_line_and_column() {
        let doc = parse("title: x\ntree:\n  a:\n    b: 3\n").unwrap().unwrap();
        let Yaml::Map(top) = &doc.yaml else {
            panic!("not a map")
        };
        assert_eq!(top[0].0.pos, Pos { line: 1, col: 1 });
        assert_eq!(top[1].0.pos, Pos { line: 2, col: 1 });
        let Yaml::Map(tree) = &top[1].1.yaml else {
            panic!("not a map")
        };
        assert_eq!(tree[0].0.pos, Pos { line: 3, col: 3 });
        let Yaml::Map(a) = &tree[0].1.yaml else {
            panic!("not a map")
        };
        assert_eq!(a[0].1.pos, Pos { line: 4, col: 8 });
        assert_eq!(a[0].1.scalar(), Some("3"));
    }

    #[test]
    fn syntax_errors_have_a_place() {
        let e = parse("a: [1, 2\nb: 3\n").unwrap_err();
        assert!(e.pos.line >= 1, "{e:?}");
        assert!(parse("").unwrap().is_none());
    }

    #[test]
    fn deep_nesting_and_aliases_are_refused() {
        let deep = "[".repeat(5000);
        assert!(parse(&deep).is_err());
        // Block style, one key per line, two more spaces each level: refused, not a stack
        // overflow (the parser's own loader recursed once per level).
        let block: String = (0..5_000)
            .map(|i| format!("{}n{i}:\n", "  ".repeat(i)))
            .collect();
        let e = parse(&block).unwrap_err();
        assert!(e.message.contains("1000 levels"), "{e:?}");
        assert_eq!(e.pos.line, 1001, "{e:?}");
        let e = parse("a: &x 1\nb: *x\n").unwrap_err();
        assert!(e.message.contains("aliases"), "{e:?}");
    }

    #[test]
    fn quoted_scalars_are_not_plain() {
        let doc = parse("a: \"3\"\n").unwrap().unwrap();
        let Yaml::Map(m) = &doc.yaml else { panic!() };
        assert_eq!(
            m[0].1.yaml,
            Yaml::Scalar {
                text: "3".into(),
                plain: false
            }
        );
    }
}

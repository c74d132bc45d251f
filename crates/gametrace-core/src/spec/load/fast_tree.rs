//! The fast path for a big written-out tree: a spec's `tree:` section read straight into the
//! arena ([`TreeBuilder`]), with no YAML nodes in between. A generated tree of 56 000 nodes
//! spent most of its load building, walking and freeing a positioned node for every name
//! and estimate, and the kernel most of its time handing out the fresh pages they took.
//!
//! It reads the shapes big trees are written in: `gametrace new`'s (a block mapping per
//! inner node, a flow mapping per node whose children are leaves) and PyYAML's `yaml.dump`
//! (the same, with a long flow mapping wrapped after a comma). Names are plain words
//! (`[A-Za-z0-9_]`) or such words in single quotes (`'n'`: PyYAML quotes `n` and `y`), and
//! estimates plain decimals.
//!
//! Like the YAML fast path it never reports a problem. On anything outside its subset, and on
//! anything the loader would warn about or refuse (a name used twice, a `static:` or
//! `chance:` key, an empty node, a tree too deep or too big, a root that is a leaf or is
//! called `generate`), it gives up (`None`) and the spec is read the usual way, so every
//! message keeps its text and its place. The tests below hold it to the usual way on every
//! tree it reads.

use super::{entry, Loader};
use crate::game::tree::{Tree, TreeBuilder, MAX_HEIGHT, MAX_NODES};
use crate::spec::yaml::{self, Node, Pos, Yaml};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

/// The spec's YAML, its `tree:` empty, and the tree read by the fast path; `None` to read the
/// spec the usual way. The tree is the spec's when the rest is a plain tree spec (not a game,
/// a task or an exported tree) whose one top-level `tree` key is the one the fast path found
/// (a line `tree:` might be inside a quoted scalar, or written twice).
pub(super) fn spec(source: &str) -> Option<(Node, Tree)> {
    let split = split(source)?;
    let doc = yaml::parse(&split.rest).ok()??;
    let Yaml::Map(entries) = &doc.yaml else {
        return None;
    };
    let mut trees = entries.iter().filter(|(k, _)| k.scalar() == Some("tree"));
    let (Some((key, value)), None) = (trees.next(), trees.next()) else {
        return None;
    };
    let plain = ["game", "task"].iter().all(|k| entry(entries, k).is_none());
    let ours = key.pos == split.key && value.is_null();
    (ours && plain && !Loader::is_export(entries)).then_some((doc, split.tree))
}

/// A spec whose tree was read by the fast path.
struct Split {
    /// The spec with the tree's lines emptied (each kept as a bare line break, so that every
    /// other line and column stays where it was): the rest of the spec, for the YAML parser,
    /// which reads `tree:` as empty.
    rest: String,
    /// Where the `tree:` key is.
    key: Pos,
    tree: Tree,
}

/// The spec's tree read by the fast path, and the rest of the spec.
fn split(source: &str) -> Option<Split> {
    const KEY: &str = "tree:\n";
    let key_at = if source.starts_with(KEY) {
        0
    } else {
        source.find("\ntree:\n")? + 1
    };
    let start = key_at + KEY.len();
    let (tree, lines) = read(&source[start..])?;
    // The tree's lines end at the first line not indented (the reader stops there).
    let end = start + lines.len;
    let mut rest = String::with_capacity(source.len() - lines.len + lines.breaks);
    rest.push_str(&source[..start]);
    rest.extend(std::iter::repeat_n('\n', lines.breaks));
    rest.push_str(&source[end..]);
    let line = 1 + source.as_bytes()[..key_at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    Some(Split {
        rest,
        key: Pos { line, col: 1 },
        tree,
    })
}

/// How much of the text the tree took.
struct Lines {
    /// Bytes.
    len: usize,
    /// Line breaks.
    breaks: usize,
}

/// The tree that `text` starts with: the lines of a `tree:` value, up to the first one not
/// indented. Only the bytes the subset names are read (no tab, carriage return or other
/// control character, nothing outside ASCII): any other is the usual way's to judge.
fn read(text: &str) -> Option<(Tree, Lines)> {
    // Every node is a key, and every key has a colon after it: with room for them all made
    // at once, nothing is copied as the tree grows, nor the map of names rehashed.
    let nodes = text.bytes().filter(|&b| b == b':').count();
    let mut builder = TreeBuilder::with_capacity(nodes);
    builder.reserve_names(nodes, text.len());
    let mut r = Reader {
        src: text,
        bytes: text.as_bytes(),
        at: 0,
        breaks: 0,
        builder,
        seen: HashTable::with_capacity(nodes),
        hasher: DefaultHashBuilder::default(),
        count: 0,
    };
    r.block(0, 0)?;
    let lines = Lines {
        len: r.at,
        breaks: r.breaks,
    };
    let tree = r.builder.finish();
    // A root that is a leaf, or a single root `generate` (it may be a generated tree's
    // settings), is the usual way's.
    let root_has_moves = !tree.is_leaf(tree.root());
    (root_has_moves && tree.name(tree.root()) != "generate").then_some((tree, lines))
}

struct Reader<'s> {
    src: &'s str,
    bytes: &'s [u8],
    /// The next byte to read.
    at: usize,
    /// Line breaks read.
    breaks: usize,
    builder: TreeBuilder,
    /// The nodes so far, by name: a name used twice is the usual way's (it warns).
    seen: HashTable<u32>,
    hasher: DefaultHashBuilder,
    /// Nodes read so far.
    count: u64,
}

impl<'s> Reader<'s> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Takes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.at += usize::from(found);
        found
    }

    /// Takes a line break if it is next.
    fn eat_break(&mut self) -> bool {
        let found = self.eat(b'\n');
        self.breaks += usize::from(found);
        found
    }

    /// Is the text read to its end?
    fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// The spaces at the start of the line at `at`.
    fn indent(&self) -> usize {
        self.bytes[self.at..]
            .iter()
            .take_while(|&&b| b == b' ')
            .count()
    }

    /// The entries of a block mapping whose lines are indented past `parent`, at `level`.
    fn block(&mut self, parent: usize, level: u32) -> Option<()> {
        let indent = self.indent();
        if indent <= parent {
            return None;
        }
        loop {
            self.at += indent;
            let name = self.name()?;
            if !self.eat(b':') {
                return None;
            }
            if self.eat_break() {
                // An inner node: its children on the lines below, indented further.
                if self.at_end() || self.indent() <= indent {
                    return None;
                }
                self.open(name, level)?;
                self.block(indent, level + 1)?;
                self.builder.close();
            } else {
                if !self.eat(b' ') {
                    return None;
                }
                self.value(name, level, indent)?;
                if !(self.eat_break() || self.at_end()) {
                    return None;
                }
            }
            if self.at_end() {
                return Some(());
            }
            // The next line: another entry of this mapping, or the end of it. One indented
            // further would continue a plain scalar, or be an error; one between this
            // mapping's indent and its parent's is an error.
            match self.indent() {
                // A tree has one root.
                i if i == indent && level == 0 => return None,
                i if i == indent => {}
                i if i <= parent => return Some(()),
                _ => return None,
            }
        }
    }

    /// A node's value after `name: `: an estimate or a flow mapping of children. `block` is
    /// the indent of the block the entry is in: a wrapped flow mapping continues on lines
    /// indented past it.
    fn value(&mut self, name: (usize, usize), level: u32, block: usize) -> Option<()> {
        if !self.eat(b'{') {
            return self.leaf(name, level);
        }
        self.open(name, level)?;
        loop {
            let child = self.name()?;
            if !(self.eat(b':') && self.eat(b' ')) {
                return None;
            }
            self.value(child, level + 1, block)?;
            if self.eat(b'}') {
                break;
            }
            if !self.eat(b',') {
                return None;
            }
            if self.eat_break() {
                // PyYAML wraps a long flow mapping after a comma, the next line indented.
                let indent = self.indent();
                if indent <= block {
                    return None;
                }
                self.at += indent;
            } else if !self.eat(b' ') {
                return None;
            }
        }
        self.builder.close();
        Some(())
    }

    /// A leaf's estimate: a plain decimal, ended by the end of its line, `,` or `}`.
    fn leaf(&mut self, name: (usize, usize), level: u32) -> Option<()> {
        let start = self.at;
        self.eat(b'-');
        let digits = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        self.at += digits;
        if !(1..=18).contains(&digits) || !matches!(self.peek(), None | Some(b'\n' | b',' | b'}')) {
            return None;
        }
        let estimate = self.src[start..self.at].parse().ok()?;
        let name = self.checked(name, level)?;
        self.builder.leaf(name, estimate);
        Some(())
    }

    /// Opens an inner node.
    fn open(&mut self, name: (usize, usize), level: u32) -> Option<()> {
        let name = self.checked(name, level)?;
        self.builder.open(name);
        Some(())
    }

    /// A node name, as the byte range of its text: a plain word, or one in single quotes.
    fn name(&mut self) -> Option<(usize, usize)> {
        let quoted = self.eat(b'\'');
        let start = self.at;
        let len = self.bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        self.at += len;
        // yaml-rust2 refuses keys longer than 1024 characters.
        if len == 0 || len > 1000 || (quoted && !self.eat(b'\'')) {
            return None;
        }
        let text = &self.bytes[start..start + len];
        // Plain `null` is an empty name; `static`, `chance` and `actions` are keys, not
        // children.
        let null = !quoted && matches!(text, b"null" | b"Null" | b"NULL");
        let reserved = matches!(text, b"static" | b"chance" | b"actions");
        (!null && !reserved).then_some((start, start + len))
    }

    /// The name of a node about to be added, if it is new and the tree is not too deep or
    /// too big.
    fn checked(&mut self, (start, end): (usize, usize), level: u32) -> Option<&'s str> {
        self.count += 1;
        if level >= MAX_HEIGHT || self.count > MAX_NODES {
            return None;
        }
        let src: &'s str = self.src;
        let name = &src[start..end];
        let id = u32::try_from(self.builder.len()).ok()?;
        let builder = &self.builder;
        let hash = self.hasher.hash_one(name);
        let hasher = &self.hasher;
        match self.seen.entry(
            hash,
            |&other| builder.name_of(other as usize) == name,
            |&other| hasher.hash_one(builder.name_of(other as usize)),
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => None,
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(id);
                Some(name)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::load::load_str;
    use crate::spec::Document;
    use std::path::Path;

    /// The tree the usual way reads from `spec` (the YAML parser, then the loader's walk).
    fn usual(spec: &str) -> Option<Tree> {
        let v = crate::spec::load::validate_str_without_fast_tree(Path::new("t.yaml"), spec);
        match v.document? {
            Document::Tree(s) => Some(s.tree),
            _ => None,
        }
    }

    fn fast(spec: &str) -> Option<Tree> {
        let fast = super::spec(spec).map(|(_, tree)| tree);
        // Whichever way the tree is read, every problem and the document are the same.
        let path = Path::new("t.yaml");
        assert_eq!(
            format!("{:?}", crate::spec::load::validate_str(path, spec)),
            format!(
                "{:?}",
                crate::spec::load::validate_str_without_fast_tree(path, spec)
            ),
        );
        fast
    }

    const CASES: &str = "cases:\n  ab: {algorithm: alphabeta}\n";

    /// The fast path reads `tree` (the lines after `tree:`) as the usual way does.
    #[track_caller]
    fn reads_alike(tree: &str) {
        let spec = format!("title: t\ntree:\n{tree}{CASES}");
        let fast = fast(&spec).expect("the fast path reads it");
        assert_eq!(Some(&fast), usual(&spec).as_ref(), "{spec}");
        // And the whole load gives the same document, whichever way it went.
        let doc = load_str(Path::new("t.yaml"), &spec).expect("it loads");
        assert!(matches!(doc, Document::Tree(s) if s.tree == fast));
    }

    /// The fast path leaves `tree` to the usual way.
    #[track_caller]
    fn left_alone(tree: &str) {
        let spec = format!("title: t\ntree:\n{tree}{CASES}");
        assert!(fast(&spec).is_none(), "{spec}");
    }

    #[test]
    fn reads_the_shapes_big_trees_are_written_in() {
        reads_alike("  a:\n    b: {c: 3, d: -5}\n    e: {f: 0, g: 12}\n");
        reads_alike("  a:\n    b:\n      c: 3\n      d: 5\n    e: 7\n");
        reads_alike("  a: {b: {c: 1, d: 2}, e: 3}\n");
        // PyYAML's quotes, and its wrapping after a comma.
        reads_alike("  a:\n    'n': {'y': 3, o: -1}\n    m: {p: 1,\n      q: 2, r: 3}\n");
        // A quoted `null` is a name.
        reads_alike("  a: {'null': 1, b: 2}\n");
        // Estimates outside 32 bits, and a leading zero.
        reads_alike("  a: {b: 123456789012345678, c: -007}\n");
        // The tree ends the file.
        let spec = format!("title: t\n{CASES}tree:\n  a: {{b: 1, c: 2}}");
        assert_eq!(fast(&spec), usual(&spec));
        assert!(fast(&spec).is_some());
    }

    #[test]
    fn leaves_the_rest_to_the_usual_way() {
        // Each of these the loader warns about or refuses, or is outside the subset.
        for tree in [
            "  a: {b: 1, b: 2}\n",                    // a name used twice
            "  a: {b: 1, c: {a: 2}}\n",               // a name used twice, deeper
            "  a: {static: 1, b: 2}\n",               // a static value
            "  a: {chance: {b: 1}, b: 2}\n",          // a chance node
            "  a: {actions: [x], b: 2}\n",            // the moves' names
            "  a: {b: 1, c: {}}\n",                   // an empty node
            "  a: {b: 1, c: }\n",                     // no estimate
            "  a: {b: 1, c: x}\n",                    // a leaf that is not a number
            "  a: {b: 1, c: 1.5}\n",                  // not an integer
            "  a: 3\n",                               // a root that is a leaf
            "  a: {b: 1}\n  z: {c: 1}\n",             // two roots
            "  generate: {branching: 2, depth: 2}\n", // a generated tree
            "  a: {null: 1, b: 2}\n",                 // an empty name
            "  a:\n    b: 1\n      c: 2\n",           // a line indented further
            "  a:\n      b: 1\n    c: 2\n",           // a line between two indents
            "  a:\n    b: 1 # one\n",                 // a comment
            "  a:\n    b: 1\n\n    c: 2\n",           // a blank line
            "  a:\n    b: 1\r\n",                     // a carriage return
            "  a:\n    b:\t1\n",                      // a tab
            "  a:\n    \"b\": 1\n",                   // double quotes
            "  a:\n    b: [1, 2]\n",                  // a sequence
            "  a: {b: 1,\n  c: 2}\n",                 // a wrap not indented past the entry
            "  a: {b: 1 , c: 2}\n",                   // a space before a comma
            "  a:\n    b: 1\n    é: 2\n",             // a name outside the subset
            "  a:\n    b: 1234567890123456789\n",     // an estimate of 19 digits
        ] {
            left_alone(tree);
        }
    }

    #[test]
    fn a_tree_at_the_height_limit_is_the_usual_ways() {
        let mut tree = String::new();
        for level in 0..=MAX_HEIGHT as usize {
            tree.push_str(&" ".repeat(level + 2));
            tree.push_str(&format!("n{level}:\n"));
        }
        tree.push_str(&" ".repeat(MAX_HEIGHT as usize + 4));
        tree.push_str("leaf: 1\n");
        left_alone(&tree);
    }

    #[test]
    fn the_rest_keeps_every_other_line_and_column() {
        let spec = format!("title: t\ntree:\n  a:\n    b: {{c: 1, d: 2}}\n{CASES}");
        let s = split(&spec).expect("the fast path reads it");
        assert_eq!(s.key, Pos { line: 2, col: 1 });
        assert_eq!(s.rest, format!("title: t\ntree:\n\n\n{CASES}"));
    }

    #[test]
    fn reads_generated_specs_as_the_usual_way() {
        for (branching, depth, seed) in [(2, 3, 1), (3, 4, 7), (6, 4, 3), (1, 6, 2)] {
            let spec = crate::spec::new::spec(&crate::game::tree::Generate {
                branching,
                depth,
                seed,
                min: -10,
                max: 10,
            });
            let fast = fast(&spec).expect("the fast path reads `gametrace new`'s specs");
            assert_eq!(Some(fast), usual(&spec));
        }
    }
}

//! A fast path for the YAML our specs are written in: block mappings and sequences of one-line
//! entries, flow mappings and sequences (on one line, or wrapped after `{`, `[` and `,` as
//! PyYAML's and ruamel's `dump` wrap them at 80 columns), plain and quoted scalars, literal
//! block scalars (`|`, `|-`: Connect 4 boards), and comments — what `gametrace new` and `export` write, what a teacher's generator script
//! writes, and what people write by hand. It builds the same
//! positioned [`Node`]s as the full parser (yaml-rust2) about ten times faster.
//!
//! It never reports an error: on anything outside the subset, and on anything that might be
//! an error, it gives up (`None`) and the full parser reads the document, so errors keep their
//! exact messages and places. `fuzz/fuzz_targets/yaml_fast_path.rs` and the tests below hold
//! it to the full parser: whenever it answers, the answer is the full parser's.

use super::{Node, Pos, Yaml};
use compact_str::CompactString;

/// Deeper documents are left to the full parser (it refuses past `MAX_NESTING`).
const MAX_DEPTH: usize = 200;
/// yaml-rust2 refuses implicit keys longer than 1024 characters; such keys are left to it.
const MAX_KEY: usize = 1000;

/// The document `source` holds, when it is in the subset; `None` to ask the full parser.
pub fn parse(source: &str) -> Option<Node> {
    let src = source.as_bytes();
    // Tabs, carriage returns and a byte-order mark change how YAML counts columns and lines;
    // other control characters (a NUL ends yaml-rust2's stream, even inside a comment) and
    // characters YAML does not print are the full parser's to judge, comments included.
    if src.iter().any(|&b| (b < 0x20 && b != b'\n') || b == 0x7f) {
        return None;
    }
    if !source.is_ascii()
        && source.chars().any(|c| {
            c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                )
        })
    {
        return None;
    }
    let lines = lines(src)?;
    if lines.is_empty() {
        return None;
    }
    let mut p = Parser {
        src,
        lines: &lines,
        next: 0,
    };
    let root = p.root()?;
    (p.next == p.lines.len()).then_some(root)
}

/// A line with content: not blank, not only a comment.
#[derive(Clone, Copy)]
struct Line {
    /// Byte offsets of the line's start and of its end (before the newline).
    start: usize,
    end: usize,
    indent: usize,
    /// 1-based.
    number: usize,
}

fn lines(src: &[u8]) -> Option<Vec<Line>> {
    let mut out = Vec::with_capacity(src.len() / 16);
    let mut start = 0;
    let mut number = 0;
    while start < src.len() {
        number += 1;
        let end = src[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |n| start + n);
        let indent = src[start..end].iter().take_while(|&&b| b == b' ').count();
        let content = &src[start + indent..end];
        if !(content.is_empty() || content[0] == b'#') {
            // Directives and document markers are the full parser's.
            let line = &src[start..end];
            if line.starts_with(b"---") || line.starts_with(b"...") || line.starts_with(b"%") {
                return None;
            }
            out.push(Line {
                start,
                end,
                indent,
                number,
            });
        }
        start = end + 1;
    }
    Some(out)
}

struct Parser<'a> {
    src: &'a [u8],
    lines: &'a [Line],
    /// The next line to read.
    next: usize,
}

/// A place inside a line; inside a flow collection it may go on to the lines that continue it.
struct Cursor<'a> {
    src: &'a [u8],
    at: usize,
    end: usize,
    line: Line,
    lines: &'a [Line],
    /// `line`'s index in `lines`.
    index: usize,
    /// The indent of the block the value is in: a flow collection's continuation lines are
    /// indented past it.
    block: usize,
}

impl<'a> Parser<'a> {
    /// The document's collection: a block one, or a flow one (`yaml.dump(...,
    /// default_flow_style=True)` writes the whole document as one flow mapping).
    fn root(&mut self) -> Option<Node> {
        let line = self.lines[0];
        if !matches!(self.src[line.start + line.indent], b'{' | b'[') {
            return self.block(0);
        }
        let mut c = self.cursor(line.start + line.indent, line.indent);
        let root = c.flow(0)?;
        c.spaces();
        if !c.at_comment_or_end() {
            return None;
        }
        self.next = c.index + 1;
        Some(root)
    }

    /// The block collection starting at the next line.
    fn block(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let line = self.lines[self.next];
        let content = &self.src[line.start + line.indent..line.end];
        if content[0] == b'-' && content.get(1).is_none_or(|&b| b == b' ') {
            self.sequence(line.indent, depth)
        } else {
            self.mapping(line.indent, depth)
        }
    }

    /// A cursor at `at` on the next line, a line of the block indented `block`.
    fn cursor(&self, at: usize, block: usize) -> Cursor<'a> {
        let line = self.lines[self.next];
        Cursor {
            src: self.src,
            at,
            end: line.end,
            line,
            lines: self.lines,
            index: self.next,
            block,
        }
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Option<Node> {
        let mut entries = Vec::new();
        while let Some(&line) = self.lines.get(self.next) {
            if line.indent != indent {
                break;
            }
            let mut c = self.cursor(line.start + indent, indent);
            let key = c.key()?;
            c.spaces();
            if c.at_comment_or_end() {
                self.next += 1;
                // The value is a block on the lines below, indented further. Anything else
                // (an empty value, a sequence at the key's own indent) is the full parser's.
                match self.lines.get(self.next) {
                    Some(below) if below.indent > indent => {}
                    _ => return None,
                }
                let value = self.block(depth + 1)?;
                entries.push((key, value));
            } else if c.peek() == Some(b'|') {
                let value = self.literal(&mut c, indent)?;
                entries.push((key, value));
            } else {
                let value = self.one_line_value(&mut c, indent, depth)?;
                entries.push((key, value));
            }
        }
        let pos = entries.first()?.0.pos;
        Some(Node {
            pos,
            yaml: Yaml::Map(entries),
        })
    }

    /// A literal block scalar, `|` or `|-`, as Connect 4 specs write their boards: its lines
    /// indented past the entry's `indent`, all alike. Blank lines inside it, `|+`, an
    /// indentation indicator, folded scalars (`>`), a line indented between the entry and the
    /// text, and an end of file with no line break are the full parser's.
    fn literal(&mut self, c: &mut Cursor, indent: usize) -> Option<Node> {
        c.at += 1;
        let strip = c.peek() == Some(b'-');
        if strip {
            c.at += 1;
        }
        if c.peek().is_some_and(|b| b != b' ') {
            return None;
        }
        c.spaces();
        if !c.at_comment_or_end() {
            return None;
        }
        let src = self.src;
        let mut at = c.line.end + 1;
        let mut text = CompactString::default();
        let mut width = None;
        while at < src.len() {
            let end = src[at..].iter().position(|&b| b == b'\n').map(|n| at + n)?;
            let line = &src[at..end];
            let spaces = line.iter().take_while(|&&b| b == b' ').count();
            if spaces == line.len() {
                return None;
            }
            let n = *width.get_or_insert(spaces);
            if spaces < n {
                if spaces > indent || n <= indent {
                    return None;
                }
                break;
            }
            if n <= indent {
                return None;
            }
            text.push_str(c.text(at + n, end)?);
            text.push('\n');
            at = end + 1;
        }
        // yaml-rust2 places the scalar at its text: the next line, past the indentation.
        let pos = Pos {
            line: c.line.number + 1,
            col: width? + 1,
        };
        if strip {
            text.pop();
        }
        // On past the scalar's lines (those not blank or a comment were read as lines).
        while self.lines.get(self.next).is_some_and(|l| l.start < at) {
            self.next += 1;
        }
        Some(Node {
            pos,
            yaml: Yaml::Scalar { text, plain: false },
        })
    }

    /// An entry's value that ends its line (a comment aside; a flow collection's last line),
    /// with nothing indented below it: a line indented further would continue a plain scalar,
    /// or be an error.
    fn one_line_value(&mut self, c: &mut Cursor, indent: usize, depth: usize) -> Option<Node> {
        let value = c.inline(depth + 1)?;
        c.spaces();
        if !c.at_comment_or_end() {
            return None;
        }
        self.next = c.index + 1;
        if self.lines.get(self.next).is_some_and(|l| l.indent > indent) {
            return None;
        }
        Some(value)
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Option<Node> {
        let first = self.lines[self.next];
        let mut items = Vec::new();
        while let Some(&line) = self.lines.get(self.next) {
            if line.indent != indent {
                break;
            }
            let mut c = self.cursor(line.start + indent, indent);
            if c.peek() != Some(b'-') || c.peek_at(1) != Some(b' ') {
                return None;
            }
            c.at += 2;
            c.spaces();
            // Nested blocks and compact mappings (`- key: value`) are the full parser's.
            if c.at_comment_or_end() {
                return None;
            }
            let item = self.one_line_value(&mut c, indent, depth)?;
            items.push(item);
        }
        Some(Node {
            pos: Pos {
                line: first.number,
                col: indent + 1,
            },
            yaml: Yaml::Seq(items),
        })
    }
}

/// Bytes that may not begin a plain scalar (YAML's indicators), bar `-` before a non-space.
fn starts_plain(first: u8, second: Option<u8>) -> bool {
    match first {
        b'-' => second.is_some_and(|b| b != b' ' && b != b',' && b != b']' && b != b'}'),
        b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
        | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b' ' => false,
        _ => first.is_ascii() && !first.is_ascii_control(),
    }
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        (self.at + n < self.end).then(|| self.src[self.at + n])
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line.number,
            col: self.at - self.line.start + 1,
        }
    }

    fn spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.at += 1;
        }
    }

    /// Inside a flow collection, after `{`, `[` or `,`: spaces, and at the line's end on to
    /// the next line (a line break there is only white space). Only where PyYAML and ruamel
    /// break, onto the very next line, indented past the block: a comment or a blank line in
    /// between, or a line less indented, is the full parser's.
    fn flow_spaces(&mut self) -> Option<()> {
        self.spaces();
        while self.peek().is_none() {
            let next = *self.lines.get(self.index + 1)?;
            if next.number != self.line.number + 1 || next.indent <= self.block {
                return None;
            }
            self.index += 1;
            self.line = next;
            self.at = next.start + next.indent;
            self.end = next.end;
        }
        Some(())
    }

    /// Nothing left on the line but a comment (after at least one space, or at its start).
    fn at_comment_or_end(&self) -> bool {
        match self.peek() {
            None => true,
            Some(b'#') => self.at > self.line.start && self.src[self.at - 1] == b' ',
            Some(_) => false,
        }
    }

    fn text(&self, from: usize, to: usize) -> Option<&'a str> {
        let bytes = &self.src[from..to];
        if bytes.iter().all(|&b| b.is_ascii() && !b.is_ascii_control()) {
            std::str::from_utf8(bytes).ok()
        } else {
            None
        }
    }

    /// A block mapping's key and its `:` (followed by a space or the line's end).
    fn key(&mut self) -> Option<Node> {
        let pos = self.pos();
        let key = match self.peek()? {
            b'\'' | b'"' => self.quoted()?,
            first => {
                if !starts_plain(first, self.peek_at(1)) {
                    return None;
                }
                let from = self.at;
                loop {
                    match self.peek()? {
                        b':' if matches!(self.peek_at(1), None | Some(b' ')) => break,
                        b'#' if self.src[self.at - 1] == b' ' => return None,
                        b',' | b'[' | b']' | b'{' | b'}' => return None,
                        _ => self.at += 1,
                    }
                }
                let text = self.text(from, self.at)?;
                let text = text.trim_end();
                if text.len() > MAX_KEY {
                    return None;
                }
                Node {
                    pos,
                    yaml: Yaml::Scalar {
                        text: text.into(),
                        plain: true,
                    },
                }
            }
        };
        // A quoted key must be followed at once by `: ` too.
        if self.peek() != Some(b':') || !matches!(self.peek_at(1), None | Some(b' ')) {
            return None;
        }
        self.at += 1;
        Some(key)
    }

    /// A value on the rest of a block line: a flow collection, a quoted or a plain scalar.
    fn inline(&mut self, depth: usize) -> Option<Node> {
        match self.peek()? {
            b'[' | b'{' => self.flow(depth),
            b'\'' | b'"' => self.quoted(),
            first => {
                if !starts_plain(first, self.peek_at(1)) {
                    return None;
                }
                let pos = self.pos();
                let from = self.at;
                while let Some(b) = self.peek() {
                    match b {
                        b'#' if self.src[self.at - 1] == b' ' => break,
                        // A mapping inside a value is an error, or a compact mapping.
                        b':' if matches!(self.peek_at(1), None | Some(b' ')) => return None,
                        _ => self.at += 1,
                    }
                }
                let text = self.text(from, self.at)?;
                Some(Node {
                    pos,
                    yaml: Yaml::Scalar {
                        text: text.trim_end().into(),
                        plain: true,
                    },
                })
            }
        }
    }

    /// `'...'` (with `''` for a quote) or `"..."` without escapes, on one line.
    fn quoted(&mut self) -> Option<Node> {
        let pos = self.pos();
        let quote = self.peek()?;
        self.at += 1;
        let mut text = CompactString::default();
        loop {
            let b = self.peek()?;
            self.at += 1;
            match b {
                b'\'' if quote == b'\'' => {
                    if self.peek() == Some(b'\'') {
                        self.at += 1;
                        text.push('\'');
                    } else {
                        break;
                    }
                }
                b'"' if quote == b'"' => break,
                b'\\' if quote == b'"' => return None,
                b if b.is_ascii() && !b.is_ascii_control() => text.push(b as char),
                _ => return None,
            }
        }
        Some(Node {
            pos,
            yaml: Yaml::Scalar { text, plain: false },
        })
    }

    /// `[a, b]` or `{a: 1, b: 2}`, nested, on one line or wrapped after `[`, `{` and `,`.
    fn flow(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let pos = self.pos();
        let open = self.peek()?;
        let close = if open == b'[' { b']' } else { b'}' };
        self.at += 1;
        self.flow_spaces()?;
        let mut items = Vec::new();
        let mut entries = Vec::new();
        if self.peek()? == close {
            self.at += 1;
        } else {
            loop {
                if open == b'[' {
                    items.push(self.flow_item(depth)?);
                } else {
                    let key = match self.peek()? {
                        b'\'' | b'"' => self.quoted()?,
                        b'[' | b'{' => return None,
                        _ => self.flow_plain()?,
                    };
                    self.spaces();
                    if self.peek()? != b':' || self.peek_at(1)? != b' ' {
                        return None;
                    }
                    self.at += 1;
                    self.spaces();
                    let value = self.flow_item(depth)?;
                    entries.push((key, value));
                }
                self.spaces();
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        self.flow_spaces()?;
                        // A trailing comma, or an empty entry, is the full parser's.
                        if matches!(self.peek()?, b',' | b']' | b'}') {
                            return None;
                        }
                    }
                    b if b == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some(Node {
            pos,
            yaml: if open == b'[' {
                Yaml::Seq(items)
            } else {
                Yaml::Map(entries)
            },
        })
    }

    fn flow_item(&mut self, depth: usize) -> Option<Node> {
        match self.peek()? {
            b'[' | b'{' => self.flow(depth + 1),
            b'\'' | b'"' => self.quoted(),
            _ => self.flow_plain(),
        }
    }

    /// A plain scalar inside a flow collection: it ends at `,`, `]`, `}` or `: `.
    fn flow_plain(&mut self) -> Option<Node> {
        let first = self.peek()?;
        if !starts_plain(first, self.peek_at(1)) {
            return None;
        }
        let pos = self.pos();
        let from = self.at;
        while let Some(b) = self.peek() {
            match b {
                b',' | b']' | b'}' => break,
                b':' => match self.peek_at(1) {
                    Some(b' ') => break,
                    // `a:b`, `a:,` and the like read differently in YAML's versions.
                    _ => return None,
                },
                b'#' | b'[' | b'{' => return None,
                _ => self.at += 1,
            }
        }
        let text = self.text(from, self.at)?;
        let text = text.trim_end();
        // Inside a flow, yaml-rust2 reads each word after a space as a new scalar's start
        // (`[1 -, 0]` is an error there); words are left to it.
        if text.is_empty() || text.contains(' ') {
            return None;
        }
        Some(Node {
            pos,
            yaml: Yaml::Scalar {
                text: text.into(),
                plain: true,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::full;
    use super::*;

    /// The fast path answers, and answers what the full parser does.
    fn same(src: &str) {
        let fast = parse(src).unwrap_or_else(|| panic!("the fast path gave up on:\n{src}"));
        assert_eq!(Some(fast), full(src).unwrap(), "on:\n{src}");
    }

    /// The fast path leaves it to the full parser.
    fn gives_up(src: &str) {
        assert_eq!(parse(src), None, "on:\n{src}");
    }

    #[test]
    fn the_shapes_specs_are_written_in() {
        same("title: x\ntree:\n  a:\n    b: 3\n");
        same("# a comment\ntitle: Random tree (branching 3, depth 3, seed 3)\ntree:\n  a:\n    b:\n      c: {d: 6, e: -7, 'n': -5}\n      g: {h: 0}\ncases:\n  ab:\n    algorithm: alphabeta   # trailing\n    lines: [enter, estimate]\n");
        same("a: {}\nb: []\nc: [[1, 2], {x: y}]\nd: 'it''s'\ne: \"q\"\n");
        same("rows:\n  - X..\n  - '.O.'\n  - [a, b]\n");
        same("  indented: 1\n  root: 2\n");
        same("a: b#c\nk: v # c\n'q k': 1\n\"d\": 2\n");
        same("a:    3\nb: x y  z  \n");
        same("a: [ 1 ,2 , { k : v } ]\n");
        same("title: x - ,b (y, -) ? z\n");
    }

    #[test]
    fn literal_block_scalars_as_connect4_boards_are_written() {
        same("game: connect4\nposition: |\n  .......\n  ...X...\n  ..OXO..\ncases:\n  ab: {algorithm: alphabeta}\n");
        same("a:\n  board: |-\n    X..\n    # not a comment\n    .O.  \n  next: 1\nb: 2\n");
        same("a: | # a comment\n  x\n");
        same("a: |\n      deep\n");
        same("a: |\n  x\n    more indented\n  y\nb: |-\n x\n");
    }

    #[test]
    fn flow_collections_wrapped_as_pyyaml_and_ruamel_wrap_them() {
        // `yaml.dump(spec, default_flow_style=None)` at its default width of 80: a long flow
        // mapping goes on after a comma, indented past its key.
        same("tree:\n  a:\n    b: {c: 1, d: 2, e: 3, f: 4, g: 5, h: 6, i: 7, j: 8, k: 9, l: 10, m: 11,\n      n: 12}\n    o: {p: 1}\ncases:\n  ab: {algorithm: alphabeta}\n");
        // `default_flow_style=True`: the whole document one flow mapping, broken after `{`
        // and after commas, nested at any depth.
        same("{title: 'Random tree (branching 3, depth 3)', tree: {\n    a: {b: {c: {d: 6, e: -7, f: 5}, g: {h: 0, i: 2, j: 0}},\n      ab: {ac: {ad: -5, ae: -10}, ak: {al: -9,\n          am: 4, an: 1}}}}, cases: {alphabeta: {algorithm: alphabeta}, jamboree: {\n      algorithm: jamboree, prune_percentage: 0.5}}}\n");
        // A flow sequence, and a wrap with trailing spaces and a comment after the close.
        same("rows: [X.., \n    .O., \n    ..X]  # the board\nk: [\n  1]\n");
        same("- [1,\n  2]\n- {a: 1,\n   b: 2}\n");
        same("[1,\n  2]\n");
    }

    #[test]
    fn everything_else_is_left_to_the_full_parser() {
        for src in [
            "",
            "# only a comment\n",
            "---\na: 1\n",
            "a:\n",
            "a:\nb: 1\n",
            "a:\n- 1\n",
            "- a: 1\n",
            "a: |\n  text\n\n  more\n",
            "a: |+\n  text\n",
            "a: |2\n  text\n",
            "a: >\n  text\n",
            "a: |x\n  text\n",
            "a: |\n  text",
            "a: |\nb: 1\n",
            "a: |\n",
            "a:\n  b: |\n   x\n  y\n",
            "a: |\n    x\n  y\n",
            "- |\n  text\n",
            "a: &x 1\n",
            "a: *x\n",
            "a: \"esc\\n\"\n",
            "a: b: c\n",
            "a: 1\n  b: 2\n",
            "a: [1,\n2]\n",
            "a: [1,\n\n  2]\n",
            "a: [1,\n  # c\n  2]\n",
            "a: [1\n  , 2]\n",
            "a: {b\n  : 1}\n",
            "a: {b: x\n  y}\n",
            "a: {b:\n  1}\n",
            "a: ['x\n  y']\n",
            "a:\n  b: [1,\n  2]\n",
            "- [1,\n2]\n",
            "a: [1, 2,]\n",
            "a: {b}\n",
            "a:\tb\n",
            "a: 1\r\n",
            "a: 1\n# a NUL \0 ends the stream\nb: 2\n",
            "a: 1\n# \u{85} \u{2028}\nb: 2\n",
            "a: é\n",
            "a: x\n  continued\n",
            "a:\n    b: 1\n  c: 2\n",
            "3\n",
            "[1, 2]\nb: 3\n",
            "{a: 1,\nb: 2}\n",
            "a: [b:c]\n",
            "- [1   -, 0]\n",
            "a: {b: 1, b:2}\n",
            "? a\n: b\n",
        ] {
            gives_up(src);
        }
    }

    #[test]
    fn every_spec_of_the_project_reads_the_same() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut stack = vec![root.join("specs"), root.join("tests/fixtures")];
        let (mut fast, mut all) = (0, 0);
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "yaml") {
                    let Ok(src) = std::fs::read_to_string(&path) else {
                        continue;
                    };
                    all += 1;
                    if let Some(node) = parse(&src) {
                        fast += 1;
                        assert_eq!(Some(node), full(&src).unwrap(), "{}", path.display());
                    }
                }
            }
        }
        // Most specs are in the subset; the rest (block sequences of mappings, scenarios'
        // steps) still load, through the full parser.
        assert!(fast * 2 > all, "the fast path read {fast} of {all} specs");
    }

    #[test]
    fn specs_as_pyyaml_writes_them_take_the_fast_path() {
        // Written by PyYAML 6.0.3 (`tests/fixtures/pyyaml/dump.py`), both flow styles.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/pyyaml");
        let mut read = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "yaml") {
                same(&std::fs::read_to_string(&path).unwrap());
                read += 1;
            }
        }
        assert_eq!(read, 6);
    }

    #[test]
    fn generated_trees_take_the_fast_path() {
        for seed in 0..5 {
            let text = crate::spec::new::spec(&crate::game::tree::Generate {
                branching: 3,
                depth: 4,
                seed,
                min: -10,
                max: 10,
            });
            same(&text);
        }
    }
}

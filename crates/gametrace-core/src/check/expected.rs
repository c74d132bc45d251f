//! Expected trace files with lit-style checks: groups of blocks that may come in any order
//! (`CHECK-UNORDERED` ... `CHECK-END`, blocks split by `CHECK-BLOCK`) and text that must never
//! be printed (`CHECK-NOT:`). Every other line is a trace line expected as it is.
//!
//! ```text
//! F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
//! CHECK-UNORDERED
//! CHECK-BLOCK
//! G: state (Minnie,b) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
//! ...
//! CHECK-BLOCK
//! G: state (Minnie,n) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))
//! ...
//! CHECK-END
//! CHECK-NOT: (Maxie,z)
//! ```

use super::unordered::{self, Piece, Shape};
use crate::diff::{self, Lines};
use crate::spec::diagnostic::{did_you_mean, Diagnostic};
use crate::spec::yaml::Pos;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

const DIRECTIVES: [&str; 4] = ["CHECK-UNORDERED", "CHECK-BLOCK", "CHECK-END", "CHECK-NOT"];

/// Text the output must never hold (`CHECK-NOT: text`), anywhere in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Never {
    pub text: String,
    /// The directive's line in the expected file.
    pub line: usize,
}

/// An expected file read: its trace lines, their shape and what must never be printed.
#[derive(Clone, Debug)]
pub struct Expected<'a> {
    /// The trace lines (directives left out), compared as `Lines::of` reads them.
    pub lines: Lines<'a>,
    /// Their order, with the groups that may come in any order (empty for a plain trace).
    pub shape: Shape,
    pub never: Vec<Never>,
    /// The file has directives at all (otherwise it is a plain trace).
    pub checks: bool,
}

/// A `CHECK-NOT` the output breaks, at its first line that holds the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    pub never: Never,
    /// The output's line (1-based) and what it says.
    pub line: usize,
    pub text: String,
}

/// An output compared with an expected file.
#[derive(Clone, Debug)]
pub struct Compared<'e, 'a> {
    /// The expected trace lines in the order that best follows the output (borrowed when
    /// the file has no group to reorder).
    pub expected: Cow<'e, Lines<'a>>,
    pub diff: diff::LineDiff,
    pub broken: Vec<Broken>,
}

impl Compared<'_, '_> {
    pub fn passed(&self) -> bool {
        self.diff.is_same() && self.broken.is_empty()
    }

    /// One line per broken `CHECK-NOT`.
    pub fn broken_text(&self, expected_name: &str, actual_name: &str) -> String {
        let mut out = String::new();
        for b in &self.broken {
            let _ = writeln!(
                out,
                "CHECK-NOT at line {} of {expected_name}: `{}` must never be printed, but line {} of {actual_name} prints it: {}",
                b.never.line,
                diff::visible(&b.never.text),
                b.line,
                diff::visible(&b.text)
            );
        }
        out
    }
}

/// A group being read: its blocks so far.
struct Open {
    /// Where `CHECK-UNORDERED` is.
    pos: Pos,
    blocks: Vec<Shape>,
    /// `CHECK-BLOCK` splits the group; without it each line (or inner group) is a block.
    split: bool,
    /// The block being read, once split; the loose pieces before any `CHECK-BLOCK`.
    current: Shape,
}

impl Open {
    fn push(&mut self, piece: Piece) {
        if self.split {
            self.current.push(piece);
        } else {
            self.blocks.push(vec![piece]);
        }
    }

    fn close(mut self) -> Piece {
        if self.split {
            self.blocks.push(self.current);
        }
        Piece::AnyOrder(self.blocks)
    }
}

impl<'a> Expected<'a> {
    /// Reads an expected file's text (`exact`: lines as they are; otherwise as `diff` and
    /// `test` normalise them). `Err` names the file, line and column of a malformed directive.
    pub fn parse(path: &Path, text: &'a str, exact: bool) -> Result<Expected<'a>, Diagnostic> {
        let all = Lines::of(text, exact);
        let source_line = |n: usize| text.lines().nth(n.saturating_sub(1)).unwrap_or("");
        let error = |n: usize, message: String| {
            let raw = source_line(n);
            let col = raw.len() - raw.trim_start().len() + 1;
            Diagnostic::new(path, message).at(Pos { line: n, col }, text)
        };
        let mut keep = Vec::new();
        let mut root: Shape = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        let mut never = Vec::new();
        let mut checks = false;
        for i in 0..all.len() {
            let line = all.get(i).unwrap_or_default();
            let n = all.number(i).unwrap_or(0);
            let Some((name, rest)) = directive(line) else {
                if !checks {
                    // Until the first check, line i is trace line i: nothing to record (a
                    // plain trace costs nothing more than its lines).
                    continue;
                }
                let piece = Piece::Line(keep.len());
                keep.push(i);
                match open.last_mut() {
                    Some(g) => g.push(piece),
                    None => root.push(piece),
                }
                continue;
            };
            if !checks {
                checks = true;
                keep = (0..i).collect();
                root = (0..i).map(Piece::Line).collect();
            }
            let known = DIRECTIVES.contains(&name);
            if !known {
                let lower: Vec<String> = DIRECTIVES.iter().map(|d| d.to_lowercase()).collect();
                let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
                let e = error(n, format!("unknown check `{name}`"))
                    .expected(format!("one of {}", DIRECTIVES.join(", ")))
                    .found(format!("`{name}`"));
                return Err(
                    match did_you_mean(&name.to_lowercase(), &lower).map(str::to_uppercase) {
                        Some(s) => e.hint(format!("did you mean `{s}`?")),
                        None => e.hint("a line without a check is expected as it is; CHECK-UNORDERED ... CHECK-END holds blocks in any order, CHECK-NOT: TEXT forbids text"),
                    },
                );
            }
            if name != "CHECK-NOT" && !rest.is_empty() {
                return Err(error(n, format!("`{name}` takes nothing after it"))
                    .expected(format!("`{name}` alone on its line"))
                    .found(format!("`{}`", diff::visible(rest)))
                    .hint("put the trace lines on the lines that follow"));
            }
            match name {
                "CHECK-UNORDERED" => open.push(Open {
                    pos: Pos { line: n, col: 1 },
                    blocks: Vec::new(),
                    split: false,
                    current: Vec::new(),
                }),
                "CHECK-BLOCK" => {
                    let Some(g) = open.last_mut() else {
                        return Err(error(n, "`CHECK-BLOCK` outside a group".to_owned())
                            .expected("CHECK-BLOCK between CHECK-UNORDERED and CHECK-END")
                            .found("no open CHECK-UNORDERED")
                            .hint("open the group with a CHECK-UNORDERED line first"));
                    };
                    if !g.split && !g.blocks.is_empty() {
                        return Err(error(
                            n,
                            format!(
                                "lines between CHECK-UNORDERED (line {}) and its first CHECK-BLOCK belong to no block",
                                g.pos.line
                            ),
                        )
                        .expected("CHECK-BLOCK right after CHECK-UNORDERED")
                        .found(format!("{} lines or groups before it", g.blocks.len()))
                        .hint("start every block with CHECK-BLOCK, or use none and each line is a block of its own"));
                    }
                    if g.split {
                        let block = std::mem::take(&mut g.current);
                        g.blocks.push(block);
                    }
                    g.split = true;
                }
                "CHECK-END" => {
                    let Some(g) = open.pop() else {
                        return Err(error(n, "`CHECK-END` with no group to close".to_owned())
                            .expected("CHECK-END after a CHECK-UNORDERED")
                            .found("no open CHECK-UNORDERED")
                            .hint("remove it, or open the group with CHECK-UNORDERED"));
                    };
                    let piece = g.close();
                    match open.last_mut() {
                        Some(outer) => outer.push(piece),
                        None => root.push(piece),
                    }
                }
                _ => {
                    if rest.is_empty() {
                        return Err(error(n, "`CHECK-NOT` with no text".to_owned())
                            .expected("CHECK-NOT: TEXT, the text that must never be printed")
                            .found("nothing after it")
                            .hint("name the state, e.g. `CHECK-NOT: (Minnie,g)`"));
                    }
                    never.push(Never {
                        text: rest.to_owned(),
                        line: n,
                    });
                }
            }
        }
        if let Some(g) = open.last() {
            return Err(
                error(g.pos.line, "`CHECK-UNORDERED` is never closed".to_owned())
                    .expected("a CHECK-END line after the group's blocks")
                    .found("the end of the file")
                    .hint("add CHECK-END where the lines that may come in any order end"),
            );
        }
        // A plain trace stays as it was read: `diff` holds gigabyte traces.
        let lines = if checks { all.pick(&keep) } else { all };
        drop(keep);
        // A file that forbids what it expects can never pass.
        for nv in &never {
            if let Some(i) = lines.iter().position(|l| l.contains(nv.text.as_str())) {
                return Err(error(
                    nv.line,
                    format!(
                        "CHECK-NOT forbids what line {} of the same file expects",
                        lines.number(i).unwrap_or(0)
                    ),
                )
                .expected("text no expected line holds")
                .found(format!("`{}`", diff::visible(&nv.text)))
                .hint("make the CHECK-NOT text name only what must never be printed, e.g. `(Minnie,g)`"));
            }
        }
        Ok(Expected {
            lines,
            shape: root,
            never,
            checks,
        })
    }

    /// Compares `actual` with this expectation: the groups in the order that best follows it,
    /// then a line diff, and every `CHECK-NOT` it breaks.
    pub fn compare<'e>(&'e self, actual: &Lines) -> Compared<'e, 'a> {
        let expected = if unordered::has_freedom(&self.shape) {
            let want: Vec<&str> = self.lines.iter().collect();
            let got: Vec<&str> = actual.iter().collect();
            Cow::Owned(
                self.lines
                    .pick(&unordered::arrange(&self.shape, &want, &got)),
            )
        } else {
            Cow::Borrowed(&self.lines)
        };
        let d = diff::diff(&*expected, actual, diff::DEFAULT_DEADLINE);
        let broken = self
            .never
            .iter()
            .filter_map(|nv| {
                let (i, text) = actual
                    .iter()
                    .enumerate()
                    .find(|(_, l)| l.contains(nv.text.as_str()))?;
                Some(Broken {
                    never: nv.clone(),
                    line: actual.number(i).unwrap_or(0),
                    text: text.to_owned(),
                })
            })
            .collect();
        Compared {
            expected,
            diff: d,
            broken,
        }
    }
}

/// A directive's name and what follows it (`CHECK-NOT: (Minnie,g)` → `CHECK-NOT`,
/// `(Minnie,g)`), if the line is one. No trace line starts with `CHECK`.
fn directive(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    let after = t.strip_prefix("CHECK")?;
    if !(after.is_empty()
        || after.starts_with(['-', ':'])
        || after.starts_with(char::is_whitespace))
    {
        return None;
    }
    let end = t
        .find(|c: char| c == ':' || c.is_whitespace())
        .unwrap_or(t.len());
    let (name, rest) = t.split_at(end);
    let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
    Some((name, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Expected<'_>, Diagnostic> {
        Expected::parse(Path::new("x.trace"), text, false)
    }

    fn passes(expected: &str, actual: &str) -> bool {
        let e = parse(expected).unwrap();
        e.compare(&Lines::of(actual, false)).passed()
    }

    #[test]
    fn a_plain_trace_has_no_checks() {
        let e = parse("a\nb\n").unwrap();
        assert!(!e.checks);
        assert_eq!(e.lines.len(), 2);
        assert!(passes("a\nb\n", "a\n\nb\n"));
        assert!(!passes("a\nb\n", "b\na\n"));
    }

    #[test]
    fn blocks_of_an_unordered_group_pass_in_any_order_and_stay_whole() {
        let e = "top\nCHECK-UNORDERED\nCHECK-BLOCK\nb1\nb2\nCHECK-BLOCK\nc1\nc2\nCHECK-END\nend\n";
        assert!(passes(e, "top\nb1\nb2\nc1\nc2\nend\n"));
        assert!(passes(e, "top\nc1\nc2\nb1\nb2\nend\n"));
        assert!(!passes(e, "top\nb1\nc1\nb2\nc2\nend\n"));
        assert!(!passes(e, "top\nc1\nc2\nb1\nb2\n"));
    }

    #[test]
    fn without_check_block_each_line_is_a_block() {
        let e = "CHECK-UNORDERED\nx\ny\nz\nCHECK-END\n";
        assert!(passes(e, "z\nx\ny\n"));
        assert!(!passes(e, "z\nx\n"));
        let shape = &parse(e).unwrap().shape;
        assert_eq!(unordered::groups(shape), 1);
    }

    #[test]
    fn check_not_fails_on_any_line_that_holds_its_text() {
        let e = parse("a\nCHECK-NOT: (Minnie,g)\n").unwrap();
        let actual = "a\nG: state  (Minnie,g) with\n";
        let c = e.compare(&Lines::of(actual, false));
        assert!(!c.diff.is_same());
        assert_eq!(c.broken.len(), 1);
        assert_eq!(c.broken[0].line, 2);
        assert_eq!(c.broken[0].never.line, 2);
        let text = c.broken_text("x.trace", "out");
        assert!(text.contains("CHECK-NOT at line 2 of x.trace: `(Minnie,g)` must never be printed, but line 2 of out prints it"), "{text}");
        assert!(passes("a\nCHECK-NOT: (Minnie,g)\n", "a\n"));
    }

    #[test]
    fn malformed_checks_are_errors_with_their_line() {
        let cases = [
            ("a\nCHECK-UNORDERD\n", 2, "unknown check `CHECK-UNORDERD`", Some("did you mean `CHECK-UNORDERED`?")),
            ("CHECK-UNORDERED\na\n", 1, "`CHECK-UNORDERED` is never closed", None),
            ("a\nCHECK-END\n", 2, "`CHECK-END` with no group to close", None),
            ("CHECK-BLOCK\n", 1, "`CHECK-BLOCK` outside a group", None),
            ("CHECK-UNORDERED\na\nCHECK-BLOCK\nb\nCHECK-END\n", 3, "lines between CHECK-UNORDERED (line 1) and its first CHECK-BLOCK belong to no block", None),
            ("CHECK-NOT:\n", 1, "`CHECK-NOT` with no text", None),
            ("CHECK-END now\n", 1, "`CHECK-END` takes nothing after it", None),
            ("a (Minnie,g)\nCHECK-NOT: (Minnie,g)\n", 2, "CHECK-NOT forbids what line 1 of the same file expects", None),
        ];
        for (text, line, message, hint) in cases {
            let d = parse(text).unwrap_err();
            assert_eq!(d.message, message, "{text}");
            assert_eq!(d.pos.map(|p| p.line), Some(line), "{text}");
            if let Some(h) = hint {
                assert_eq!(d.hint.as_deref(), Some(h));
            }
        }
    }

    proptest::proptest! {
        /// Whatever the lines, reading never panics; a file that reads passes its own trace
        /// lines in the order written, and fails (never panics) on any other output.
        #[test]
        fn any_file_reads_or_is_refused_and_passes_its_own_lines(
            lines in proptest::collection::vec(proptest::sample::select(vec![
                "CHECK-UNORDERED", "CHECK-BLOCK", "CHECK-END", "CHECK-NOT: z", "CHECK-NOT:",
                "CHECK-FOO", "CHECK-END x", "a", "b", "c", "a", "", "  b  ",
            ]), 0..24),
            other in proptest::collection::vec(proptest::sample::select(vec!["a", "b", "c", "z"]), 0..12),
        ) {
            let text = lines.join("\n");
            let Ok(e) = parse(&text) else { return Ok(()) };
            let own: String = e.lines.iter().map(|l| format!("{l}\n")).collect();
            proptest::prop_assert!(e.compare(&Lines::of(&own, false)).passed(), "{text:?}");
            let other = other.join("\n");
            let c = e.compare(&Lines::of(&other, false));
            proptest::prop_assert_eq!(c.expected.len(), e.lines.len());
        }
    }

    #[test]
    fn directives_are_only_lines_that_start_with_check() {
        assert_eq!(directive("CHECK-NOT: x y"), Some(("CHECK-NOT", "x y")));
        assert_eq!(directive("  CHECK-END"), Some(("CHECK-END", "")));
        assert_eq!(directive("CHECK: x"), Some(("CHECK", "x")));
        assert_eq!(directive("CHECKMATE"), None);
        assert_eq!(directive("Result of (Maxie,CHECK-x) is"), None);
    }
}

//! Comparing a trace with its expected text, and showing where they differ.

use similar::{ChangeTag, TextDiff};

/// The lines that count when comparing: no blank lines, runs of spaces (and tabs) as one
/// space, no leading or trailing spaces, CRLF as LF.
pub fn normalized_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Do `expected` and `actual` agree, byte for byte (`exact`) or up to normalisation?
pub fn same(expected: &str, actual: &str, exact: bool) -> bool {
    if exact {
        expected == actual
    } else {
        normalized_lines(expected) == normalized_lines(actual)
    }
}

/// Colours for a diff, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub color: bool,
}

impl Palette {
    fn paint(&self, style: anstyle::Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_owned()
        }
    }
}

/// A unified diff of the compared lines (normalised unless `exact`), with file headers.
pub fn unified_diff(
    expected: &str,
    actual: &str,
    exact: bool,
    names: (&str, &str),
    palette: Palette,
) -> String {
    use anstyle::{AnsiColor, Style};
    let (old, new): (Vec<String>, Vec<String>) = if exact {
        (
            expected.split_inclusive('\n').map(str::to_owned).collect(),
            actual.split_inclusive('\n').map(str::to_owned).collect(),
        )
    } else {
        let with_newlines = |t: &str| {
            normalized_lines(t)
                .into_iter()
                .map(|mut l| {
                    l.push('\n');
                    l
                })
                .collect()
        };
        (with_newlines(expected), with_newlines(actual))
    };
    let old_refs: Vec<&str> = old.iter().map(String::as_str).collect();
    let new_refs: Vec<&str> = new.iter().map(String::as_str).collect();
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_slices(&old_refs, &new_refs);
    let red = Style::new().fg_color(Some(AnsiColor::Red.into()));
    let green = Style::new().fg_color(Some(AnsiColor::Green.into()));
    let cyan = Style::new().fg_color(Some(AnsiColor::Cyan.into()));
    let bold = Style::new().bold();

    let mut out = String::new();
    out.push_str(&palette.paint(bold, &format!("--- {}", names.0)));
    out.push('\n');
    out.push_str(&palette.paint(bold, &format!("+++ {}", names.1)));
    out.push('\n');
    for group in diff.grouped_ops(3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o, n) = (first.old_range().start, first.new_range().start);
        let (o_len, n_len) = (last.old_range().end - o, last.new_range().end - n);
        out.push_str(&palette.paint(
            cyan,
            &format!("@@ -{},{} +{},{} @@", o + 1, o_len, n + 1, n_len),
        ));
        out.push('\n');
        for op in &group {
            for change in diff.iter_changes(op) {
                let line = change.value().trim_end_matches(['\n', '\r']);
                let shown = match change.tag() {
                    ChangeTag::Equal => format!(" {line}"),
                    ChangeTag::Delete => palette.paint(red, &format!("-{line}")),
                    ChangeTag::Insert => palette.paint(green, &format!("+{line}")),
                };
                out.push_str(&shown);
                if exact && !change.value().ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file");
                }
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_space_runs_do_not_count() {
        let printed = "F:  state (Maxie,a)\r\n\nTherefore  value   \n";
        let ours = "F: state (Maxie,a)\nTherefore value\n";
        assert!(same(printed, ours, false));
        assert!(!same(printed, ours, true));
        assert!(!same(
            "Result of (Maxie,e) is Leaf(Guess: 3)",
            "Result of (Maxie,e) is Leaf(Guess:3)",
            false
        ));
    }

    #[test]
    fn diff_shows_the_changed_line() {
        let d = unified_diff(
            "a\nb\nc\n",
            "a\nx\nc\n",
            false,
            ("want", "got"),
            Palette { color: false },
        );
        assert!(d.starts_with("--- want\n+++ got\n@@ -1,3 +1,3 @@\n"), "{d}");
        assert!(d.contains("\n-b\n+x\n"), "{d}");
        let coloured = unified_diff("a\n", "b\n", false, ("w", "g"), Palette { color: true });
        assert!(coloured.contains("\u{1b}["), "{coloured}");
    }
}

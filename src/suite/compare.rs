//! Comparing a trace with its expected text, and showing where they differ.

pub use crate::diff::Palette;
use crate::diff::{self, Lines};

/// Do `expected` and `actual` agree, byte for byte (`exact`) or up to normalisation (no
/// blank lines, runs of spaces and tabs as one space, no leading or trailing spaces, CRLF as
/// LF)?
pub fn same(expected: &str, actual: &str, exact: bool) -> bool {
    if exact {
        expected == actual
    } else {
        Lines::of(expected, false)
            .iter()
            .eq(Lines::of(actual, false).iter())
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
    let (old, new) = (Lines::of(expected, exact), Lines::of(actual, exact));
    let d = diff::diff(&old, &new, diff::DEFAULT_DEADLINE);
    let mut out = diff::unified(&old, &new, &d, names, palette);
    if exact && !expected.is_empty() && !expected.ends_with('\n') {
        out.push_str("(the expected text has no newline at its end)\n");
    }
    if exact && !actual.is_empty() && !actual.ends_with('\n') {
        out.push_str("(the actual text has no newline at its end)\n");
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

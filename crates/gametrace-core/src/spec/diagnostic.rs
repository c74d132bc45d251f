//! A problem with an input, said the way a user can act on it: the file, the place, what was
//! expected, what was found, and a hint.

use super::yaml::Pos;
use std::fmt;
use std::path::{Path, PathBuf};

/// An error makes the input unusable; a warning is worth a look but changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: PathBuf,
    pub pos: Option<Pos>,
    pub message: String,
    pub expected: Option<String>,
    pub found: Option<String>,
    pub hint: Option<String>,
    /// The source line at `pos` (a window of it, if it is long), shown with a caret under the
    /// column.
    pub source_line: Option<Excerpt>,
}

/// A window of a source line around a column: a long line (a 10 MB node name) is cut to
/// [`EXCERPT_CHARS`] characters with `…` where it was cut, and the caret moves with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    pub text: String,
    /// Characters of `text` before the caret.
    pub caret: usize,
}

/// How much of a source line a diagnostic shows.
pub const EXCERPT_CHARS: usize = 120;
/// How long a message, an expectation, a finding or a hint may be (they can quote input).
pub const MAX_FIELD_CHARS: usize = 1000;

/// The window of `line` around 1-based column `col`.
pub fn window(line: &str, col: usize) -> Excerpt {
    let at = col.saturating_sub(1);
    let len = line.chars().count();
    if len <= EXCERPT_CHARS {
        return Excerpt {
            text: line.to_owned(),
            caret: at.min(len),
        };
    }
    // Keep a third of the window before the caret, the rest after it.
    let start = at
        .saturating_sub(EXCERPT_CHARS / 3)
        .min(len - EXCERPT_CHARS);
    let end = start + EXCERPT_CHARS;
    let mut text: String = line.chars().skip(start).take(EXCERPT_CHARS).collect();
    let mut caret = at - start.min(at);
    if start > 0 {
        text.insert(0, '…');
        caret += 1;
    }
    if end < len {
        text.push('…');
    }
    caret = caret.min(text.chars().count());
    Excerpt { text, caret }
}

/// `text`, cut to [`MAX_FIELD_CHARS`] characters with a note of how much was left out.
pub fn cap(text: String) -> String {
    let len = text.chars().count();
    if len <= MAX_FIELD_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_FIELD_CHARS).collect();
    format!("{cut}… ({} more characters)", len - MAX_FIELD_CHARS)
}

impl Diagnostic {
    pub fn new(file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.to_owned(),
            pos: None,
            message: cap(message.into()),
            expected: None,
            found: None,
            hint: None,
            source_line: None,
        }
    }

    /// The same problem, as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn at(mut self, pos: Pos, source: &str) -> Self {
        self.pos = Some(pos);
        // Only a window of the line is kept: a line can be megabytes long.
        self.source_line = source
            .lines()
            .nth(pos.line.saturating_sub(1))
            .map(|l| window(l, pos.col));
        self
    }

    pub fn expected(mut self, s: impl Into<String>) -> Self {
        self.expected = Some(cap(s.into()));
        self
    }

    pub fn found(mut self, s: impl Into<String>) -> Self {
        self.found = Some(cap(s.into()));
        self
    }

    pub fn hint(mut self, s: impl Into<String>) -> Self {
        self.hint = Some(cap(s.into()));
        self
    }

    /// A hint where there is none yet (a did-you-mean says more than a general one).
    pub fn or_hint(self, s: impl Into<String>) -> Self {
        match self.hint {
            Some(_) => self,
            None => self.hint(s),
        }
    }

    /// `file:line:col` (or just the file).
    pub fn location(&self) -> String {
        match self.pos {
            Some(p) => format!("{}:{}:{}", self.file.display(), p.line, p.col),
            None => self.file.display().to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.severity.name(), self.message)?;
        writeln!(f, "  --> {}", self.location())?;
        if let (Some(p), Some(line)) = (self.pos, &self.source_line) {
            let number = p.line.to_string();
            let pad = " ".repeat(number.len());
            // Tabs keep their width so the caret lines up.
            let before: String = line
                .text
                .chars()
                .take(line.caret)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            writeln!(f, "{pad} |")?;
            writeln!(f, "{number} | {}", line.text)?;
            writeln!(f, "{pad} | {before}^")?;
        }
        if let Some(e) = &self.expected {
            writeln!(f, "  = expected: {e}")?;
        }
        if let Some(x) = &self.found {
            writeln!(f, "  =    found: {x}")?;
        }
        if let Some(h) = &self.hint {
            writeln!(f, "  =     hint: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(&word.to_lowercase(), c), *c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_keys_only() {
        let keys = ["algorithm", "depth", "dialect"];
        assert_eq!(did_you_mean("algoritm", &keys), Some("algorithm"));
        assert_eq!(did_you_mean("dept", &keys), Some("depth"));
        assert_eq!(did_you_mean("colour", &keys), None);
    }

    #[test]
    fn renders_place_caret_and_advice() {
        let src = "cases:\n  ab:\n    algoritm: alphabeta\n";
        let d = Diagnostic::new(Path::new("s.yaml"), "unknown key `algoritm`")
            .at(Pos { line: 3, col: 5 }, src)
            .expected("a case setting")
            .found("`algoritm`")
            .hint("did you mean `algorithm`?");
        let text = d.to_string();
        assert!(text.contains("--> s.yaml:3:5"), "{text}");
        assert!(
            text.contains("3 |     algoritm: alphabeta\n  |     ^"),
            "{text}"
        );
        assert!(text.contains("hint: did you mean `algorithm`?"), "{text}");
    }

    #[test]
    fn long_lines_and_fields_are_cut_around_the_place() {
        // A 10 MB node name: the shown line is a window around the column, and the caret
        // still stands under the character at that column.
        let name = "x".repeat(10 << 20);
        let src = format!("tree:\n  {name}: 3 oops\n");
        let col = name.len() + 5; // the `3`: two spaces, the name, `: `
        let d = Diagnostic::new(Path::new("s.yaml"), format!("bad `{name}`"))
            .at(Pos { line: 2, col }, &src)
            .found(name.clone());
        let text = d.to_string();
        assert!(
            text.len() < 3 * MAX_FIELD_CHARS + 2 * EXCERPT_CHARS + 400,
            "{}",
            text.len()
        );
        let lines: Vec<&str> = text.lines().collect();
        let shown = lines.iter().find(|l| l.starts_with("2 | ")).unwrap();
        let caret = lines.iter().find(|l| l.trim_end().ends_with('^')).unwrap();
        let at = caret.chars().count() - 1;
        assert_eq!(shown.chars().nth(at), Some('3'), "{shown}\n{caret}");
        assert!(
            shown.starts_with("2 | …x") && shown.ends_with("oops"),
            "{shown}"
        );
        assert!(text.contains(&format!(
            "({} more characters)",
            name.len() + 6 - MAX_FIELD_CHARS
        )));
        // Short lines are shown whole, and a caret past the end stays at the end.
        assert_eq!(
            window("ab", 9),
            Excerpt {
                text: "ab".into(),
                caret: 2
            }
        );
        // A caret near the start of a long line: the window starts at the line's start.
        let w = window(&"y".repeat(500), 3);
        assert_eq!((w.caret, w.text.chars().count()), (2, EXCERPT_CHARS + 1));
    }
}

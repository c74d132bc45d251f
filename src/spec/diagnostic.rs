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
    /// The source line at `pos`, shown with a caret under the column.
    pub source_line: Option<String>,
}

impl Diagnostic {
    pub fn new(file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.to_owned(),
            pos: None,
            message: message.into(),
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
        self.source_line = source
            .lines()
            .nth(pos.line.saturating_sub(1))
            .map(|l| l.to_owned());
        self
    }

    pub fn expected(mut self, s: impl Into<String>) -> Self {
        self.expected = Some(s.into());
        self
    }

    pub fn found(mut self, s: impl Into<String>) -> Self {
        self.found = Some(s.into());
        self
    }

    pub fn hint(mut self, s: impl Into<String>) -> Self {
        self.hint = Some(s.into());
        self
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
                .chars()
                .take(p.col.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            writeln!(f, "{pad} |")?;
            writeln!(f, "{number} | {}", super::yaml::shorten_line(line))?;
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
}

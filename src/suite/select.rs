//! Which cases a `test` runs: `--case NAME` (exact, repeatable) and `--filter GLOB` (shell
//! wildcards over case names, repeatable). A case runs when it matches any of them; with
//! neither, every case runs.

use globset::{Glob, GlobSet, GlobSetBuilder};

#[derive(Clone, Debug, Default)]
pub struct Selection {
    names: Vec<String>,
    patterns: Vec<String>,
    globs: Option<GlobSet>,
}

impl Selection {
    /// Every case.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// The cases named, and those matching any pattern; a pattern that is not a glob is an
    /// error naming it.
    pub fn new(names: Vec<String>, patterns: Vec<String>) -> Result<Selection, String> {
        let globs = if patterns.is_empty() {
            None
        } else {
            let mut b = GlobSetBuilder::new();
            for p in &patterns {
                b.add(Glob::new(p).map_err(|e| format!("`--filter {p}`: {}", e.kind()))?);
            }
            Some(b.build().map_err(|e| e.to_string())?)
        };
        Ok(Selection {
            names,
            patterns,
            globs,
        })
    }

    pub fn is_all(&self) -> bool {
        self.names.is_empty() && self.globs.is_none()
    }

    pub fn selects(&self, case: &str) -> bool {
        self.is_all()
            || self.names.iter().any(|n| n == case)
            || self.globs.as_ref().is_some_and(|g| g.is_match(case))
    }

    /// The selection as the command line gave it, for messages: `--case a --filter 'j*'`.
    /// The case names asked for with `--case`.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn describe(&self) -> String {
        let names = self.names.iter().map(|n| format!("--case {n}"));
        let globs = self.patterns.iter().map(|p| format!("--filter '{p}'"));
        names.chain(globs).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_exact_and_globs_match_whole_names() {
        let s = Selection::new(vec!["alphabeta".into()], vec!["jamboree-*".into()]).unwrap();
        assert!(s.selects("alphabeta"));
        assert!(!s.selects("alphabeta-2"));
        assert!(s.selects("jamboree-0.5"));
        assert!(!s.selects("jamboree"));
        assert!(!s.selects("minimax"));
        assert!(Selection::all().selects("anything"));
    }

    #[test]
    fn a_broken_glob_is_an_error_that_names_it() {
        let e = Selection::new(vec![], vec!["[ab".into()]).unwrap_err();
        assert!(e.contains("--filter [ab"), "{e}");
    }
}

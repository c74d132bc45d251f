//! The course specs and their expected traces, compiled into the binary: a TA who installed
//! only the wheel (or `cargo install`) has every spec of the guide. A spec argument that is
//! not a file is looked up here by its path under `specs/` (`csc148/subtract-square-grading`,
//! with or without `.yaml`, with or without `specs/`); `gametrace specs` lists them and
//! `gametrace specs copy` writes them out to edit. A file on disk always wins.

use include_dir::{include_dir, Dir};
use std::path::{Component, Path, PathBuf};

static SPECS: Dir = include_dir!("$CARGO_MANIFEST_DIR/../../specs");
static EXPECTED: Dir = include_dir!("$CARGO_MANIFEST_DIR/../../expected");

/// `path` as plain relative parts (no `.`, no `..`, not absolute), or `None`.
fn parts(path: &Path) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// `root/rel` with `/` between every part, on every system: a built-in spec is named the same
/// on Windows (`specs/csc148/tippy-rules.yaml`, never `specs\\csc148/tippy-rules.yaml`).
fn under(root: &str, rel: &Path) -> PathBuf {
    PathBuf::from(format!(
        "{root}/{}",
        rel.to_string_lossy().replace('\\', "/")
    ))
}

/// The built-in file at `path`: `specs/...` or `expected/...`, relative to the current
/// folder as a checkout has them.
pub fn file(path: &Path) -> Option<&'static [u8]> {
    let parts = parts(path)?;
    let (root, rest) = parts.split_first()?;
    let dir = match *root {
        "specs" => &SPECS,
        "expected" => &EXPECTED,
        _ => return None,
    };
    dir.get_file(rest.join("/")).map(|f| f.contents())
}

/// The path (`specs/csc148/subtract-square-grading.yaml`) of the built-in spec a user names
/// `csc148/subtract-square-grading`, with or without `.yaml`, with or without `specs/`.
pub fn spec_path(name: &Path) -> Option<PathBuf> {
    let mut parts = parts(name)?;
    if parts.first() == Some(&"specs") {
        parts.remove(0);
    }
    let mut rel = parts.join("/");
    if rel.is_empty() {
        return None;
    }
    if !rel.ends_with(".yaml") {
        rel.push_str(".yaml");
    }
    SPECS
        .get_file(&rel)
        .map(|_| under("specs", Path::new(&rel)))
}

/// The built-in spec nearest to a name that is none (`connect4/rules` for
/// `games/connect4/rules`), as a user would type it, if one is close.
pub fn near(name: &Path) -> Option<String> {
    let mut parts = parts(name)?;
    if parts.first() == Some(&"specs") {
        parts.remove(0);
    }
    let want = parts.join("/");
    let want = want.trim_end_matches(".yaml");
    if want.is_empty() {
        return None;
    }
    let all = specs_under(Path::new("specs"))?;
    let names: Vec<String> = all
        .iter()
        .filter_map(|p| p.strip_prefix("specs").ok())
        .map(|r| r.with_extension("").to_string_lossy().into_owned())
        .collect();
    if let Some(n) = names.iter().find(|n| n.ends_with(&format!("/{want}"))) {
        return Some(n.clone());
    }
    // A misspelt file name in a folder that is right (the folders' shared prefix would make
    // any two names of one folder look alike).
    let (folder, stem) = want.rsplit_once('/').unwrap_or(("", want));
    names
        .into_iter()
        .filter_map(|n| {
            let (f, s) = n.rsplit_once('/').unwrap_or(("", n.as_str()));
            (f == folder).then(|| (strsim::jaro_winkler(stem, s), n.clone()))
        })
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// Every built-in spec under the folder `dir` names (`specs`, `specs/csc148`, `csc148`),
/// sorted; `None` when no built-in folder has that name.
pub fn specs_under(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut parts = parts(dir)?;
    if parts.first() == Some(&"specs") {
        parts.remove(0);
    }
    let rel = parts.join("/");
    let folder = if rel.is_empty() {
        &SPECS
    } else {
        SPECS.get_dir(&rel)?
    };
    let mut found = Vec::new();
    collect(folder, &mut found);
    found.sort();
    Some(found)
}

fn collect(dir: &Dir<'static>, out: &mut Vec<PathBuf>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "yaml") {
            out.push(under("specs", f.path()));
        }
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}

/// Every built-in file (specs and expected traces) whose path starts with `prefix` under
/// `specs/` or `expected/` (a spec brings its expected traces along): `(path, contents)`.
pub fn files_for(prefix: &str) -> Vec<(PathBuf, &'static [u8])> {
    let prefix = prefix
        .trim_start_matches("specs/")
        .trim_end_matches(".yaml");
    let mut out = Vec::new();
    for (root, dir) in [("specs", &SPECS), ("expected", &EXPECTED)] {
        let mut all = Vec::new();
        every_file(dir, &mut all);
        for (rel, bytes) in all {
            let r = rel.to_string_lossy();
            if r.starts_with(prefix) {
                out.push((under(root, &rel), bytes));
            }
        }
    }
    out.sort();
    out
}

fn every_file(dir: &Dir<'static>, out: &mut Vec<(PathBuf, &'static [u8])>) {
    for f in dir.files() {
        out.push((f.path().to_owned(), f.contents()));
    }
    for d in dir.dirs() {
        every_file(d, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_is_found_by_any_of_its_names() {
        let want = Some(PathBuf::from("specs/csc148/subtract-square-grading.yaml"));
        for name in [
            "csc148/subtract-square-grading",
            "csc148/subtract-square-grading.yaml",
            "specs/csc148/subtract-square-grading.yaml",
            "./specs/csc148/subtract-square-grading",
        ] {
            assert_eq!(spec_path(Path::new(name)), want, "{name}");
        }
        assert_eq!(spec_path(Path::new("csc148/no-such")), None);
        assert_eq!(
            near(Path::new("connect4/rules")).as_deref(),
            Some("games/connect4/rules")
        );
        assert_eq!(
            near(Path::new("csc148/subtract-square-gradin")).as_deref(),
            Some("csc148/subtract-square-grading")
        );
        assert_eq!(near(Path::new("15150-s14/nothing-like-it")), None);
        assert_eq!(
            spec_path(Path::new("../specs/csc148/subtract-square-grading")),
            None
        );
        assert_eq!(
            spec_path(Path::new("/specs/csc148/subtract-square-grading")),
            None
        );
    }

    #[test]
    fn the_built_in_files_are_the_checkouts() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let specs = specs_under(Path::new("specs")).unwrap();
        assert!(specs.len() > 30, "{specs:?}");
        for p in &specs {
            assert_eq!(
                file(p).unwrap(),
                std::fs::read(root.join(p)).unwrap(),
                "{}",
                p.display()
            );
        }
        let trace = Path::new("expected/15150-s14/handout-big/alphabeta.trace");
        assert_eq!(
            file(trace).unwrap(),
            std::fs::read(root.join(trace)).unwrap()
        );
        assert_eq!(specs_under(Path::new("csc148")).unwrap().len(), 8);
        assert!(specs_under(Path::new("nowhere")).is_none());
    }
}

//! The CS188 tests' student: the repository's student-style `multiAgents.py`, and copies of it
//! with the catalogue's mistakes (`SLIPS`) switched on.

use std::fs;
use std::path::Path;

/// The student-style file, right as it stands.
pub const STUDENT: &str = "tests/fixtures/cs188/multiAgents.py";

/// A copy of [`STUDENT`] that makes the catalogue's `slips`, written in `dir`: its path.
pub fn with_slips(dir: &Path, slips: &[&str]) -> String {
    let text = fs::read_to_string(STUDENT).unwrap();
    let set: Vec<String> = slips.iter().map(|s| format!("{s:?}")).collect();
    let changed = text.replacen(
        "SLIPS = set()",
        &format!("SLIPS = {{{}}}", set.join(", ")),
        1,
    );
    assert_ne!(changed, text);
    let path = dir.join("multiAgents.py");
    fs::write(&path, changed).unwrap();
    path.to_str().unwrap().to_owned()
}

//! The line diff of any two texts is an edit script that rebuilds the new side, and its
//! report renders. Read as an expected file with checks (CHECK-UNORDERED, CHECK-NOT), the
//! first text is refused with a diagnostic or compares with anything, and passes its own lines.
#![no_main]
use gametrace::diff::{self, Lines, Palette};
use gametrace::check::expected::Expected;
use libfuzzer_sys::fuzz_target;
use similar::DiffTag;

fuzz_target!(|input: (&str, &str, bool)| {
    let (a, b, exact) = input;
    let (old, new) = (Lines::of(a, exact), Lines::of(b, exact));
    let d = diff::diff(&old, &new, diff::DEFAULT_DEADLINE);
    let mut rebuilt: Vec<&str> = Vec::new();
    for op in &d.ops {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            for (x, y) in o.zip(n.clone()) {
                assert_eq!(old.get(x), new.get(y));
            }
        }
        rebuilt.extend(n.map(|i| new.get(i).unwrap()));
    }
    let want: Vec<&str> = new.iter().collect();
    assert_eq!(rebuilt, want);
    // The narrow form's lines are the text's lines.
    assert_eq!(Lines::of(a, true).len(), a.split_inclusive('\n').count());
    let _ = diff::unified(&old, &new, &d, ("a", "b"), Palette { color: true });
    let _ = diff::summary(&old, &new, &d, ("a", "b"));
    if let Ok(e) = Expected::parse(std::path::Path::new("a"), a, exact) {
        let c = e.compare(&new);
        assert_eq!(c.expected.len(), e.lines.len());
        let _ = c.broken_text("a", "b");
        let own: String = e.lines.iter().map(|l| format!("{l}\n")).collect();
        assert!(e.compare(&Lines::of(&own, exact)).passed());
    }
});

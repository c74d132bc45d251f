//! The spec loader never panics, whatever it is given: it loads or it says why.

use gametrace::spec::load_str;
use proptest::prelude::*;
use std::path::Path;

const VALID: &str = "title: t\nmove_names: [l, r]\ntree:\n  a:\n    b: {c: 3, d: ~2}\n    e: {f: 6}\ncases:\n  ab: {algorithm: alphabeta, depth: 2, dialect: s12, lines: [search, result]}\n  j:\n    algorithm: jamboree\n    prune_percentage: 0.5\n    dialect: repl\n    rules: s12\n";

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "(?s).{0,300}") {
        let _ = load_str(Path::new("f.yaml"), &text);
    }

    #[test]
    fn yaml_shaped_text_never_panics(text in "[a-z0-9:{}\\[\\], \\n~.&*!|>'\"#-]{0,200}") {
        let _ = load_str(Path::new("f.yaml"), &text);
    }

    #[test]
    fn mutated_specs_never_panic(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[a-z0-9:{}\\[\\], \\n~.-]{0,8}") {
        let mut text = VALID.to_owned();
        let end = (at + cut).min(text.len());
        text.replace_range(at..end, &insert);
        if let Err(d) = load_str(Path::new("f.yaml"), &text) {
            // Every diagnostic names a place in the file and says what it expected.
            prop_assert!(d.pos.is_some(), "{}", d);
            prop_assert!(d.expected.is_some(), "{}", d);
        }
    }
}

#[test]
fn the_unmutated_spec_loads() {
    let spec = load_str(Path::new("f.yaml"), VALID).unwrap();
    assert_eq!(spec.case_names(), ["ab", "j"]);
}

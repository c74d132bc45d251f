//! The fast path for written-out trees against the usual way (YAML nodes, then the loader's
//! walk), on valid and broken specs: whichever way a spec's tree is read, `validate` reports
//! the same problems at the same places and loads the same spec.
#![no_main]
use gametrace::spec::{validate_str, validate_str_without_fast_tree};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    let path = Path::new("f.yaml");
    let fast = format!("{:?}", validate_str(path, text));
    let usual = format!("{:?}", validate_str_without_fast_tree(path, text));
    assert_eq!(fast, usual, "the two ways read {text:?} differently");
});

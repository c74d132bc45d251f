//! The fast YAML path against the full parser, on valid and broken input: whenever the fast
//! path reads a document, the full parser reads the same nodes at the same places (so it is
//! never wrong where the full parser errs, and never refuses what it reads).
#![no_main]
use gametrace::spec::yaml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(fast) = yaml::fast::parse(text) {
        match yaml::full(text) {
            Ok(full) => assert_eq!(Some(fast), full, "the two parsers read {text:?} differently"),
            Err(e) => panic!("the fast path read {text:?}, which the full parser refuses: {e:?}"),
        }
    }
});

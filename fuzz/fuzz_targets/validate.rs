//! `validate` reports every problem of any text without panicking, and agrees with `load`
//! on whether the spec is usable.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    let path = Path::new("fuzz.yaml");
    let v = gametrace::spec::validate_str(path, text);
    for d in &v.problems {
        let _ = d.to_string();
    }
    let loaded = gametrace::spec::load_str(path, text).is_ok();
    assert_eq!(loaded, v.errors() == 0, "load and validate disagree");
});

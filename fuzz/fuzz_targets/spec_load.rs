//! Any text is a spec that loads, or a diagnostic with a place: never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    if let Err(d) = gametrace::spec::load_str(Path::new("fuzz.yaml"), text) {
        // Rendering the diagnostic must not panic either, and stays short.
        let shown = d.to_string();
        assert!(shown.len() < 16 * 1024 + 4 * text.len().min(4096));
    }
});

//! SML value notation: any text parses or is refused, and what parses prints back to text
//! that parses to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(v) = gametrace::notation::parse(text) {
        let shown = v.to_string();
        let again = gametrace::notation::parse(&shown).expect("printed values parse");
        assert_eq!(again, v, "{shown}");
    }
});

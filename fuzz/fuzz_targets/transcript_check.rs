//! Any bytes a student's program prints are judged in every mode, on a tree case and on a task
//! case, without panicking; what the report shows holds no raw control character; and a
//! failing output is diagnosed against the catalogue of mistakes without panicking, never
//! blamed on a mistake whose trace it is not.
#![no_main]
use gametrace::diff::Palette;
use gametrace::check::diagnose::{diagnose, Finding};
use gametrace::check::trace::{agreement, check, read, Mode, Subject, TreeCase};
use gametrace::spec::Document;
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

const SPEC: &str = "title: small\nmove_names: [left, middle, right]\ntree:\n  a:\n    b: {c: 3, d: 6, e: -2}\n    f: {g: 6, h: 4, i: 10}\n    j: {k: 1, l: 30, m: 9}\ncases:\n  s14: {algorithm: alphabeta, dialect: s14}\n  s12: {algorithm: jamboree, prune_percentage: 0.5, dialect: s12}\n  repl: {algorithm: minimax, dialect: repl}\n";

fn spec() -> &'static gametrace::spec::Spec {
    static SPEC_DOC: OnceLock<gametrace::spec::Spec> = OnceLock::new();
    SPEC_DOC.get_or_init(|| match gametrace::spec::load_str(Path::new("s.yaml"), SPEC) {
        Ok(Document::Tree(s)) => s,
        _ => unreachable!("the fuzz spec is a tree spec"),
    })
}

fuzz_target!(|bytes: &[u8]| {
    let output = String::from_utf8_lossy(bytes);
    let spec = spec();
    for case in &spec.cases {
        for mode in Mode::ALL {
            let subject = TreeCase { spec, case };
            if let Ok(r) = check(&subject, mode, &output, ("ref", "out"), Palette { color: false }, false) {
                let shown = r.details("out");
                assert!(
                    !shown.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
                    "a control character reached the report"
                );
                if !r.passed {
                    let reading = read(&subject, mode, &output, false).unwrap();
                    let d = diagnose(&subject, &reading, false, None).unwrap();
                    if d.finding == Finding::Exact {
                        for e in &d.explanations {
                            let flaws = e.iter().fold(Default::default(), |f: gametrace::search::mistakes::Flaws, n| {
                                f.union(gametrace::search::mistakes::Bug::parse(&n.bug).unwrap().flaws())
                            });
                            let (lines, summary) = subject.variant(reading.kinds, flaws, gametrace::run::Limit::Unlimited).unwrap();
                            assert!(agreement(&subject, &reading, &lines, summary).exact);
                        }
                    }
                }
            }
        }
    }
    let _ = gametrace::check::transcript::last_value(&output);
});

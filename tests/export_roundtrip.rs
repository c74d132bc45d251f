//! Every JSON document `export` writes loads back: the same tree and case, so the same trace,
//! and exporting it again gives the same document.

use gametrace::export::tree_json;
use gametrace::game::tree::Generate;
use gametrace::run::trace_of;
use gametrace::spec::{load_str, Document, Spec};
use proptest::prelude::*;
use std::path::Path;

fn tree_spec(text: &str, path: &str) -> Spec {
    match load_str(Path::new(path), text) {
        Ok(Document::Tree(s)) => s,
        Ok(_) => panic!("{path}: not a tree spec"),
        Err(d) => panic!("{path} does not load:\n{d}\n{text}"),
    }
}

fn case_settings() -> impl Strategy<Value = String> {
    let algorithm = prop_oneof![
        Just("algorithm: minimax".to_owned()),
        Just("algorithm: alphabeta".to_owned()),
        (0u32..=4).prop_map(|q| format!(
            "algorithm: jamboree, prune_percentage: {}",
            f64::from(q) / 4.0
        )),
    ];
    let dialect = prop_oneof![
        Just("dialect: s14"),
        Just("dialect: s12"),
        Just("dialect: repl")
    ];
    let lines = prop_oneof![
        Just(""),
        Just(", lines: [enter, result, value]"),
        Just(", lines: [estimate, terminals, choice]"),
    ];
    let player = prop_oneof![Just("Maxie"), Just("Minnie")];
    (algorithm, dialect, lines, player, any::<bool>()).prop_map(|(a, d, l, p, named)| {
        // Lines are the S14/S12 kinds; the repl dialect prints no trace lines to choose.
        let l = if d == "dialect: repl" { "" } else { l };
        let names = if named {
            ", move_names: [left, right]"
        } else {
            ""
        };
        format!("{{{a}, {d}{l}, root_player: {p}{names}}}")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn an_exported_tree_loads_back_with_the_same_trace(
        branching in 1u32..=3,
        depth in 1u32..=4,
        seed in 0u64..1000,
        settings in case_settings(),
    ) {
        let g = Generate { branching, depth, seed, min: -9, max: 9 };
        let generated = gametrace::spec::new::spec(&g);
        let body = generated.split("cases:").next().unwrap_or_default().to_owned();
        let text = format!("{body}cases:\n  mine: {settings}\n");
        let spec = tree_spec(&text, "generated.yaml");
        let case = &spec.cases[0];

        let exported = tree_json(&spec, case);
        let back = tree_spec(&exported, "exported.json");
        prop_assert_eq!(back.cases.len(), 1);
        let again = tree_json(&back, &back.cases[0]);
        prop_assert_eq!(&again, &exported);
        prop_assert_eq!(trace_of(&back, &back.cases[0]), trace_of(&spec, case));
    }
}

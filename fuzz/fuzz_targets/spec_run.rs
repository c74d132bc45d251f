//! A spec that loads runs: every case prints its trace (under a time limit) and every check
//! mode passes the reference's own trace.
#![no_main]
use gametrace::diff::Palette;
use gametrace::check::trace::{check, Mode, TreeCase};
use gametrace::spec::Document;
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::time::Duration;

fuzz_target!(|text: &str| {
    let Ok(doc) = gametrace::spec::load_str(Path::new("fuzz.yaml"), text) else {
        return;
    };
    let limit = Some(Duration::from_millis(200));
    match &doc {
        Document::Tree(spec) => {
            if spec.tree.len() > 20_000 {
                return;
            }
            for case in &spec.cases {
                let game = gametrace::game::tree::TreeGame::new(&spec.tree, case.root_player);
                // `full` compares the lines the case prints; the other modes read what the
                // handout's code prints whatever the figure shows (`terminals` needs the
                // `Estimating` lines a figure may leave out), so they get every line.
                let mut everything = case.clone();
                everything.style.lines = gametrace::trace::LineSet::all_of(case.dialect);
                let traces: Vec<String> = [case, &everything]
                    .into_iter()
                    .filter_map(|c| {
                        let written =
                            gametrace::run::trace_game_within(&game, c, Vec::new(), limit).ok()?;
                        let (bytes, _) = written.expect("writing to memory");
                        Some(String::from_utf8(bytes).expect("traces are UTF-8"))
                    })
                    .collect();
                let [own, all] = &traces[..] else { continue };
                for mode in Mode::ALL {
                    let trace = if mode == Mode::Full { own } else { all };
                    let subject = TreeCase { spec, case };
                    if let Ok(r) = check(
                        &subject,
                        mode,
                        trace,
                        ("ref", "out"),
                        Palette { color: false },
                        false,
                    ) {
                        assert!(r.passed, "{mode}: {}\n{}", r.summary, r.details("out"));
                    }
                }
            }
        }
        Document::Game(g) => gametrace::with_game_spec!(g, s => {
            for c in &s.cases {
                let _ = gametrace::run::trace_game_within(&c.game, &c.case, Vec::new(), limit);
            }
        }),
        Document::Task(spec) => {
            for case in &spec.cases {
                let r = gametrace::check::reference(spec, case);
                let _ = gametrace::check::render(case, &r);
            }
        }
    }
});

//! `cargo bench --bench check_game`: how fast a student's game is played through its driver.
//! 200 seeded random playouts (one driver, no perft beyond depth 1, no shrinking: the games
//! are correct) of the CSC148 Tippy fixture through the Python driver and of the 15-150
//! Connect4 functor through the SML/NJ driver. Positions per second = the positions the
//! report counts (printed once) / the time per run; the guide gives both. Then the
//! estimator check alone (no playouts): 18 games of the student's estimator against the naive
//! one, for the SML Connect4 and Riskless functors.

use criterion::{criterion_group, criterion_main, Criterion};
use gametrace::check_game::{check_game, Options};
use gametrace::sandbox::{Limits, Policy};
use gametrace::spec::{self, Document, GameDocument};
use std::time::Duration;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("check_game");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let (a, k) = ("adapters/sml/s12", "adapters/sml/s12/course");
    let (a14, k14) = ("adapters/sml/s14", "adapters/sml/s14/course");
    let runs = [
        (
            "python-tippy",
            "specs/csc148/tippy-rules.yaml",
            "python3 adapters/python/gametrace_game.py tests/fixtures/python/csc148/games/tippy/tippy_game_state.py TippyGameState".to_owned(),
        ),
        (
            "sml-connect4",
            "specs/games/connect4/rules.yaml",
            format!("sml {k}/sequence.sml {k}/matrix.sml {k}/game.sig tests/fixtures/sml/games/connect4.sml {a}/gametrace-game.sml {a}/run-connect4.sml"),
        ),
    ];
    let options = Options {
        playouts: 200,
        perft_depth: Some(1),
        threads: 1,
        estimator_openings: 0,
        ..Options::default()
    };
    let duel = Options {
        playouts: 0,
        perft_depth: Some(1),
        threads: 1,
        ..Options::default()
    };
    let riskless = format!(
        "sml {k14}/sequence.sml {k14}/game.sig tests/fixtures/sml/games/riskless.sml {a14}/gametrace-game.sml {a14}/run-riskless.sml"
    );
    let runs = runs
        .into_iter()
        .map(|(n, p, c)| (n, p, c, &options, "playouts"))
        .chain([
            (
                "sml-connect4-estimator",
                "specs/games/connect4/rules.yaml",
                runs_c4(a, k),
                &duel,
                "estimator",
            ),
            (
                "sml-riskless-estimator",
                "specs/games/riskless/m2-search.yaml",
                riskless,
                &duel,
                "estimator",
            ),
        ]);
    for (name, path, cmd, options, case) in runs {
        let doc = spec::load(std::path::Path::new(path)).unwrap();
        let program = gametrace::student::Program {
            flag: "--cmd",
            line: cmd,
            shell: false,
            stdin: None,
            limits: Limits::default(),
            submission: None,
            sandbox: Policy::default(),
            serve: false,
        };
        let run = program.for_driver(None).unwrap();
        let driver = run.driver(Vec::new());
        let run = || match &doc {
            Document::Game(GameDocument::Tippy(s)) => check_game(s, path, &driver, options),
            Document::Game(GameDocument::Connect4(s)) => check_game(s, path, &driver, options),
            Document::Game(GameDocument::Riskless(s)) => check_game(s, path, &driver, options),
            _ => unreachable!("the specs above"),
        };
        let report = run();
        let judged = report.cases.iter().find(|c| c.case == case).unwrap();
        assert!(judged.status.passed(), "{}", judged.message);
        eprintln!("{name}: {}", judged.message);
        group.bench_function(name, |b| b.iter(run));
    }
    group.finish();
}

fn runs_c4(a: &str, k: &str) -> String {
    format!("sml {k}/sequence.sml {k}/matrix.sml {k}/game.sig tests/fixtures/sml/games/connect4.sml {a}/gametrace-game.sml {a}/run-connect4.sml")
}

criterion_group!(benches, playouts);
criterion_main!(benches);

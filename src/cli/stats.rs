//! `gametrace stats`: work and span of a tree's searches, or a game's state tree and searches.

use super::common::*;
use crate::spec::{self, Document};
use clap::ValueEnum;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// The spec file (YAML)
    pub spec: PathBuf,
    #[arg(long, value_enum, default_value_t = StatsFormat::Table, value_name = "FORMAT")]
    pub format: StatsFormat,
    /// Game specs: stop counting the game-state tree past this many distinct positions
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_positions: u64,
    /// Game specs: stop counting, and each search, after this many seconds
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub time_limit: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    Table,
    Json,
    Csv,
}

pub fn execute(a: Args) -> Exit {
    stats(
        &a.spec,
        a.format,
        a.max_positions,
        Duration::from_secs_f64(a.time_limit),
    )
}

fn stats(path: &Path, format: StatsFormat, positions: u64, limit: Duration) -> Exit {
    if let Ok(Document::Game(g)) = spec::load(path) {
        let limits = crate::game::state_tree::Limits {
            positions,
            ..Default::default()
        };
        let s = crate::stats::game::of_document(&g, limits, limit);
        let text = match format {
            StatsFormat::Table => crate::stats::game::human(&s),
            StatsFormat::Json => crate::stats::game::json(&s),
            StatsFormat::Csv => crate::stats::game::csv(&s),
        };
        return print_all(&text);
    }
    let spec = tree_spec(path, None, "stats")?;
    let rows = crate::stats::table(&spec);
    let text = match format {
        StatsFormat::Table => {
            let mut t = crate::stats::human(&spec, &rows);
            t.push_str(&crate::stats::coverage_human(&crate::stats::coverage(
                &spec,
            )));
            t
        }
        StatsFormat::Json => crate::stats::json(&spec, &rows),
        StatsFormat::Csv => crate::stats::csv(&rows),
    };
    print_all(&text)
}

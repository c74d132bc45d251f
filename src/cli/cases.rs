//! `gametrace cases`: each spec's cases and their settings, to choose one.

use super::common::*;
use crate::spec::{self, Document};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Spec files or directories of specs
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn execute(a: Args) -> Exit {
    cases(a.paths)
}

/// `gametrace cases`: a table of each spec's cases.
fn cases(paths: Vec<PathBuf>) -> Exit {
    use std::fmt::Write as _;
    let specs = specs_under(paths)?;
    let describe = |c: &spec::Case| {
        use crate::search::Algorithm as A;
        let to_the_end =
            c.rules == spec::Rules::Csc148 && c.depth == crate::search::csc148::TO_THE_END;
        // As the spec names it: CSC148's and CS10's searches by their courses' names.
        let algorithm = match (c.rules, c.algorithm) {
            (_, A::Jamboree { prune_percentage }) => format!("jamboree {prune_percentage}"),
            (spec::Rules::Cs10, A::Minimax) => "negamax".to_owned(),
            (spec::Rules::Cs10, A::AlphaBeta) => "negamax_ab".to_owned(),
            (spec::Rules::Csc148, A::AlphaBeta) => "prune".to_owned(),
            (spec::Rules::Csc148, A::Minimax) if !to_the_end => "myopic".to_owned(),
            (_, a) => a.name().to_owned(),
        };
        let depth = if to_the_end {
            "to the end".to_owned()
        } else if c.depth_unit == spec::DepthUnit::Rounds {
            format!("depth {} rounds", c.written_depth())
        } else {
            format!("depth {}", c.depth)
        };
        let points = match c.points {
            1.0 => "1 point".to_owned(),
            p => format!("{p} points"),
        };
        vec![
            algorithm,
            depth,
            c.dialect.name().to_owned(),
            format!("check {}", c.mode.name()),
            points,
        ]
    };
    let mut out = String::new();
    let mut code = 0;
    for path in &specs {
        let doc = match spec::load(path) {
            Ok(d) => d,
            Err(d) => {
                eprint!("{d}");
                code = 2;
                continue;
            }
        };
        let (title, rows): (Option<&str>, Vec<(String, Vec<String>)>) = match &doc {
            Document::Tree(t) => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.name.clone(), describe(c)))
                    .collect(),
            ),
            Document::Task(t) => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.name.clone(), vec![format!("task {}", t.task.name())]))
                    .collect(),
            ),
            Document::Game(g) => crate::with_game_spec!(g, t => (
                t.title.as_deref(),
                t.cases
                    .iter()
                    .map(|c| (c.case.name.clone(), describe(&c.case)))
                    .chain(t.scenarios.iter().map(|s| (s.name.clone(), vec!["scenario (the rules)".to_owned()])))
                    .collect(),
            )),
        };
        let _ = match title {
            Some(t) => writeln!(out, "{}: {t}", path.display()),
            None => writeln!(out, "{}", path.display()),
        };
        let columns = rows.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
        let mut widths = vec![0; columns + 1];
        for (name, row) in &rows {
            widths[0] = widths[0].max(name.chars().count());
            for (i, cell) in row.iter().enumerate() {
                widths[i + 1] = widths[i + 1].max(cell.chars().count());
            }
        }
        for (name, row) in &rows {
            let mut line = format!("  {name:<w$}", w = widths[0]);
            for (i, cell) in row.iter().enumerate() {
                let _ = write!(line, "  {cell:<w$}", w = widths[i + 1]);
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    print_all(&out).map(|_| code)
}

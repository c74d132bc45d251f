//! `gametrace bugs`: the catalogue of mistakes, or what one case can get wrong.

use super::common::*;
use crate::check::subject::with_subject;
use crate::spec::{self, Diagnostic};
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the mistakes a case can make (SPEC --case NAME)
    pub spec: Option<PathBuf>,
    /// The case of SPEC
    #[arg(long, value_name = "NAME", requires = "spec")]
    pub case: Option<String>,
    /// The rule mistakes `check-game` names in a student's own game instead, game by game
    #[arg(long, conflicts_with_all = ["spec", "case"])]
    pub rules: bool,
}

pub fn execute(a: Args) -> Exit {
    if a.rules {
        return rule_mistakes();
    }
    bugs(a.spec, a.case)
}

/// `gametrace bugs --rules`: each game's catalogue of rule mistakes, a line each: the game,
/// the mistake's name, what it does.
fn rule_mistakes() -> Exit {
    use crate::check_game::rules;
    use crate::game::{connect4::Connect4, riskless, subtract_square, tippy, Player};
    use std::fmt::Write as _;
    let games: [(&str, Vec<rules::Mutant>); 5] = [
        (
            "connect4",
            rules::connect4_mutants(&Connect4::new(7, 6, false), false),
        ),
        ("popout", {
            let all = rules::connect4_mutants(&Connect4::new(7, 6, true), false);
            let plain: Vec<&str> = rules::connect4_mutants(&Connect4::new(7, 6, false), false)
                .iter()
                .map(|m| m.id)
                .collect();
            all.into_iter().filter(|m| !plain.contains(&m.id)).collect()
        }),
        (
            "riskless",
            rules::riskless_mutants(&riskless::Riskless::new(riskless::Map::m1()), false),
        ),
        ("tippy", rules::tippy_mutants(&tippy::Tippy::new(4), false)),
        (
            "subtract_square",
            rules::subtract_square_mutants(
                &subtract_square::SubtractSquare::new(20, Player::Maxie),
                false,
            ),
        ),
    ];
    let mut out = String::new();
    let mut count = 0;
    for (game, mutants) in &games {
        for m in mutants {
            let _ = writeln!(out, "{game:<16} {:<22} {}", m.id, m.what);
            count += 1;
        }
    }
    let _ = writeln!(
        out,
        "{count} rule mistakes; `gametrace check-game` names the one a student's game behaves as"
    );
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(0),
        Err(e) => write_failed(e),
    }
}

/// `gametrace bugs`: the catalogue, or the mistakes one case can make.
fn bugs(spec: Option<PathBuf>, case: Option<String>) -> Exit {
    use crate::search::mistakes::{Mistake, CATALOGUE};
    use std::fmt::Write as _;
    // A spec of one case (a CS188 test) needs no --case.
    let only = match (&spec, &case) {
        (Some(path), None) => spec::load(path)
            .ok()
            .and_then(|d| match d.checkable_names()[..] {
                [one] => Some(one.to_owned()),
                _ => None,
            }),
        _ => None,
    };
    let case = case.or(only);
    let entries: Vec<&Mistake> = match (&spec, &case) {
        (Some(path), Some(name)) => {
            let doc = spec::load(path)?;
            let names = with_subject(&doc, name, |s| {
                let c = s.case();
                CATALOGUE
                    .iter()
                    .filter(|m| m.applies(c))
                    .collect::<Vec<_>>()
            });
            names?
        }
        (Some(path), None) => {
            return Err(Diagnostic::new(path, "which case's mistakes?")
                .expected("--case NAME")
                .found("a spec without --case")
                .hint("`gametrace bugs` alone lists the whole catalogue")
                .into())
        }
        _ => CATALOGUE.iter().collect(),
    };
    let mut out = String::new();
    for m in &entries {
        let sides = if m.sided {
            format!("; at one player's nodes: {0}:maxie, {0}:minnie", m.name)
        } else {
            String::new()
        };
        let _ = writeln!(out, "{}  ({}{sides})", m.name, m.scope());
        let _ = writeln!(out, "    {}", m.sentence);
        let _ = writeln!(out, "    the handout: {}", m.handout);
    }
    let _ = writeln!(
        out,
        "{} mistakes; `gametrace explain SPEC --case NAME --bug NAME` shows one on a case",
        entries.len()
    );
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(0),
        Err(e) => write_failed(e),
    }
}

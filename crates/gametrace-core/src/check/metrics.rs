//! Checking a CSC148 game-state tree module (A3 option B): the output holds one line per
//! starter function, `node_count: 13`, `branching_stats: {0: 4, 1: 6, 2: 3}`, ... and one
//! `game_description: ...` line per game (as `adapters/python/gametrace_csc148.py` prints
//! them); each function is compared with the reference on its own, dicts and lists by value
//! (key order and spacing do not count), the descriptions as a multiset (the starter fixes no
//! order of games).

use super::extract::strip_prompts;
use crate::game::state_tree::{self, Limits, Measures, METRICS};
use crate::game::Game;
use std::collections::BTreeMap;

/// One function's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub function: &'static str,
    pub expected: String,
    /// What the output printed, and its line; `None` when it printed nothing for it.
    pub found: Option<(String, usize)>,
    pub ok: bool,
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub struct MetricsCheck {
    pub findings: Vec<Finding>,
    /// Lines read, and lines that were not a measure.
    pub read: usize,
    pub ignored: usize,
}

impl MetricsCheck {
    pub fn passed(&self) -> bool {
        self.findings.iter().all(|f| f.ok)
    }

    pub fn summary(&self) -> String {
        let wrong: Vec<&str> = self
            .findings
            .iter()
            .filter(|f| !f.ok)
            .map(|f| f.function)
            .collect();
        if wrong.is_empty() {
            format!(
                "game_state_tree: all {} functions match",
                self.findings.len()
            )
        } else {
            format!(
                "game_state_tree: {} of {} functions differ: {}",
                wrong.len(),
                self.findings.len(),
                wrong.join(", ")
            )
        }
    }

    pub fn details(&self, actual_name: &str) -> String {
        let mut out = format!(
            "read {} lines of {actual_name}: {} ignored\n",
            self.read, self.ignored
        );
        for f in &self.findings {
            let verdict = if f.ok { "ok  " } else { "FAIL" };
            match &f.found {
                Some((text, line)) if f.ok => {
                    out.push_str(&format!("{verdict} {}: {text} (line {line})\n", f.function))
                }
                Some((text, line)) => out.push_str(&format!(
                    "{verdict} {}: expected {}, found {} (line {line})\n",
                    f.function,
                    f.expected,
                    crate::diff::visible(text)
                )),
                None => out.push_str(&format!(
                    "{verdict} {}: expected {}, found nothing (no `{}: ...` line)\n",
                    f.function, f.expected, f.function
                )),
            }
        }
        out
    }
}

/// A value as Python prints it, read for comparison: an integer, a list of integers, or a
/// dict of integers to integers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Read {
    Int(u128),
    List(Vec<u128>),
    Dict(BTreeMap<u128, u128>),
}

fn read_value(text: &str) -> Option<Read> {
    let t = text.trim();
    let int = |s: &str| s.trim().parse::<u128>().ok();
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if inner.trim().is_empty() {
            return Some(Read::List(Vec::new()));
        }
        return inner
            .split(',')
            .map(int)
            .collect::<Option<_>>()
            .map(Read::List);
    }
    if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let mut d = BTreeMap::new();
        if inner.trim().is_empty() {
            return Some(Read::Dict(d));
        }
        for item in inner.split(',') {
            let (k, v) = item.split_once(':')?;
            // A repeated key is not a dict Python prints.
            if d.insert(int(k)?, int(v)?).is_some() {
                return None;
            }
        }
        return Some(Read::Dict(d));
    }
    int(t).map(Read::Int)
}

/// The reference value of one function, as the reference prints it.
fn expected_text(m: &Measures, function: &str) -> String {
    match function {
        "node_count" => m.node_count.to_string(),
        "leaf_count" => m.leaf_count.to_string(),
        "distinct_node_count" => m.distinct_node_count.to_string(),
        "distinct_leaf_count" => m.distinct_leaf_count.to_string(),
        "branching_stats" => state_tree::python_dict(&m.branching_stats),
        "outcome_counts" => {
            let [a, b, c] = m.outcome_counts;
            format!("[{a}, {b}, {c}]")
        }
        _ => state_tree::python_dict(&m.game_lengths),
    }
}

/// Checks `output` against the game-state tree of `game`'s start, for the `chosen` functions.
/// `Err` when the reference itself cannot be measured (too large).
pub fn check<G: Game>(
    game: &G,
    chosen: &[&'static str],
    output: &str,
) -> Result<MetricsCheck, String> {
    let m = state_tree::measure(game, Limits::default()).map_err(|e| e.to_string())?;
    let mut printed: BTreeMap<&str, (String, usize)> = BTreeMap::new();
    let mut games: Vec<(String, usize)> = Vec::new();
    let (mut read, mut ignored) = (0, 0);
    for (i, raw) in output.lines().enumerate() {
        read += 1;
        let line = strip_prompts(raw.strip_suffix('\r').unwrap_or(raw));
        if line.len() > super::extract::MAX_TRACE_LINE {
            ignored += 1;
            continue;
        }
        if let Some(d) = line.strip_prefix("game_description:") {
            games.push((d.trim().to_owned(), i + 1));
            continue;
        }
        let known = line.split_once(':').and_then(|(name, value)| {
            let name = METRICS.iter().find(|m| **m == name.trim())?;
            Some((*name, value.trim().to_owned()))
        });
        match known {
            // The last line for a function counts (a rerun prints it again).
            Some((name, value)) => {
                printed.insert(name, (value, i + 1));
            }
            None => ignored += 1,
        }
    }
    let mut findings = Vec::new();
    for &function in METRICS.iter().filter(|m| chosen.contains(m)) {
        if function == "game_descriptions" {
            findings.push(descriptions(game, &m, &games));
            continue;
        }
        if m.overflow && state_tree::PATH_COUNTS.contains(&function) {
            findings.push(Finding {
                function,
                expected: "more than 2^128 - 1 nodes: gametrace cannot count it".to_owned(),
                found: printed.get(function).cloned(),
                ok: false,
            });
            continue;
        }
        let expected = expected_text(&m, function);
        let found = printed.get(function).cloned();
        let ok = found.as_ref().is_some_and(|(text, _)| {
            read_value(text).is_some() && read_value(text) == read_value(&expected)
        });
        findings.push(Finding {
            function,
            expected,
            found,
            ok,
        });
    }
    Ok(MetricsCheck {
        findings,
        read,
        ignored,
    })
}

/// The games described, as a multiset: which are missing and which are extra.
fn descriptions<G: Game>(game: &G, m: &Measures, games: &[(String, usize)]) -> Finding {
    let function = "game_descriptions";
    let want = match state_tree::descriptions(game, m.leaf_count) {
        Ok(w) => w,
        Err(n) => {
            return Finding {
                function,
                expected: format!("{n} games (too many for gametrace to list)"),
                found: None,
                ok: false,
            }
        }
    };
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut left: Vec<String> = want.iter().map(|w| norm(w)).collect();
    let mut extra = Vec::new();
    for (g, line) in games {
        match left.iter().position(|w| *w == norm(g)) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => extra.push((g.clone(), *line)),
        }
    }
    let ok = left.is_empty() && extra.is_empty();
    let expected = format!("{} games", want.len());
    let found = if games.is_empty() {
        None
    } else if ok {
        Some((format!("{} games", games.len()), games[0].1))
    } else {
        let mut what = format!("{} games", games.len());
        if let Some(missing) = left.first() {
            what.push_str(&format!("; missing {} (first: {missing})", left.len()));
        }
        if let Some((e, _)) = extra.first() {
            what.push_str(&format!(
                "; {} not games of this tree or repeated (first: {e})",
                extra.len()
            ));
        }
        let line = extra.first().map_or(games[0].1, |e| e.1);
        Some((what, line))
    };
    Finding {
        function,
        expected,
        found,
        ok,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::subtract_square::SubtractSquare;
    use crate::game::Player;

    const RIGHT: &str = "node_count: 13\nleaf_count: 4\ndistinct_node_count: 10\n\
        distinct_leaf_count: 2\nbranching_stats: {2: 3, 0: 4, 1: 6}\noutcome_counts: [3,1,0]\n\
        game_lengths: {6: 1, 3: 3}\n\
        game_description: p1:6 -> p2:2 -> p1:1 -> p2:0 = p1 wins!\n\
        game_description: p1:6 -> p2:5 -> p1:4 -> p2:0 = p1 wins!\n\
        game_description: p1:6 -> p2:5 -> p1:1 -> p2:0 = p1 wins!\n\
        game_description: p1:6 -> p2:5 -> p1:4 -> p2:3 -> p1:2 -> p2:1 -> p1:0 = p2 wins!\n";

    fn six() -> SubtractSquare {
        SubtractSquare::new(6, Player::Maxie)
    }

    #[test]
    fn python_values_compare_by_value() {
        let c = check(&six(), &METRICS, RIGHT).unwrap();
        assert!(c.passed(), "{}", c.details("out"));
        assert_eq!(c.summary(), "game_state_tree: all 8 functions match");
    }

    #[test]
    fn each_wrong_function_is_named_with_its_expected_value() {
        let wrong = RIGHT
            .replace("distinct_leaf_count: 2", "distinct_leaf_count: 4")
            .replace(
                "game_description: p1:6 -> p2:2 -> p1:1 -> p2:0 = p1 wins!\n",
                "",
            );
        let c = check(&six(), &METRICS, &wrong).unwrap();
        assert_eq!(
            c.summary(),
            "game_state_tree: 2 of 8 functions differ: distinct_leaf_count, game_descriptions"
        );
        let d = c.details("out");
        assert!(
            d.contains("FAIL distinct_leaf_count: expected 2, found 4 (line 4)"),
            "{d}"
        );
        assert!(
            d.contains("missing 1 (first: p1:6 -> p2:2 -> p1:1 -> p2:0 = p1 wins!)"),
            "{d}"
        );
        let missing = check(&six(), &["node_count"], "noise\n").unwrap();
        assert!(missing
            .details("out")
            .contains("FAIL node_count: expected 13, found nothing"));
    }

    #[test]
    fn malformed_values_never_match() {
        for bad in ["{0: 4, 0: 4}", "{0 4}", "[3, 1", "thirteen", ""] {
            assert_eq!(read_value(bad), None, "{bad}");
        }
        assert_eq!(read_value("[ ]"), Some(Read::List(vec![])));
    }
}

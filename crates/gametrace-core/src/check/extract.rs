//! Finding the trace lines in what an implementation printed. The output may be a raw terminal
//! transcript: an SML/NJ banner, `[autoloading]`, `[library ...]`, `- ` prompts,
//! `structure T : PLAYER`, compiler messages and debug prints surround the trace. A line is kept
//! only if the dialect recognises it; the rest is counted and ignored.

use crate::diff::normalize;
use crate::trace::{Dialect, LineKind, LineSet};

/// A trace line found in the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// 1-based line number in the output.
    pub line: usize,
    pub kind: LineKind,
    /// The line without prompts, with runs of spaces as one.
    pub text: String,
    /// The line without prompts (and without a CR before its LF), spacing as printed.
    pub raw: String,
}

/// What extraction kept and what it set aside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extraction {
    pub lines: Vec<TraceLine>,
    /// Lines in the output.
    pub read: usize,
    /// Lines no dialect recognises (banner, prompts, compiler messages, debug prints).
    pub ignored: usize,
    /// Trace lines of kinds this comparison leaves out (say `Estimating` lines in a case whose
    /// handout figure does not print them).
    pub left_out: usize,
    /// Lines holding NUL bytes (a hint that the output is binary).
    pub binary: usize,
}

/// The line without the prompts a REPL printed in front of it (SML/NJ's `- ` and `= `,
/// Python's `>>> ` and `... `), possibly several when output follows input read from a file.
pub fn strip_prompts(mut line: &str) -> &str {
    loop {
        let t = line.trim_start();
        let rest = ["- ", "= ", ">>> ", "... "]
            .iter()
            .find_map(|p| t.strip_prefix(p));
        match rest {
            Some(r) => line = r,
            None => return t,
        }
    }
}

/// The kind of a (prompt-stripped, normalised) line in any dialect, if it is a trace line.
/// `val it = 1 : HandoutBig.move` is the REPL's `choice`.
pub fn classify_any(text: &str) -> Option<LineKind> {
    use LineKind::*;
    let starts = |p: &str| text.starts_with(p);
    if starts("F: state (") || starts("G: state (") || starts("Evaluating state (") {
        Some(Enter)
    } else if starts("Searching state (") {
        Some(Search)
    } else if starts("Estimating state ") {
        Some(Estimate)
    } else if starts("Result of (") {
        Some(Result)
    } else if starts("Therefore value of (") {
        Some(Value)
    } else if starts("Terminals visited:") {
        Some(Terminals)
    } else if starts("Overall choice:") || is_repl_move(text) {
        Some(Choice)
    } else if starts("Deepening to depth ") {
        Some(Deepening)
    } else {
        classify_csc148(text)
            .or_else(|| classify_cs10(text))
            .or_else(|| classify_expectimax(text))
            .or_else(|| classify_cs188(text))
    }
}

/// The kind of a line of the cs188 dialect (`generateSuccessor(root, 0, Left) -> a`,
/// `getScore(a) -> 3.0`, `value(a) -> 3.0 (agent 1, min)`, `getAction(root) -> Left`).
fn classify_cs188(text: &str) -> Option<LineKind> {
    use LineKind::*;
    let starts = |p: &str| text.starts_with(p);
    if (starts("generateSuccessor(") || starts("getNextState(")) && text.contains(") -> ") {
        Some(Enter)
    } else if starts("getScore(") && text.contains(") -> ") {
        Some(Estimate)
    } else if starts("value(") && text.contains(") -> ") {
        Some(Result)
    } else if starts("getAction(") && text.contains("): value ") {
        Some(Value)
    } else if starts("getAction(") && text.contains(") -> ") {
        Some(Choice)
    } else {
        None
    }
}

/// The kind of a line of the expectimax dialect (`Visiting a: Maxie to move, depth 2`,
/// `Average at b: 19/3`, ...).
fn classify_expectimax(text: &str) -> Option<LineKind> {
    use LineKind::*;
    let starts = |p: &str| text.starts_with(p);
    if starts("Visiting ") && text.contains(", depth ") {
        Some(Enter)
    } else if starts("Evaluation of ") && text.contains(": ") {
        Some(Estimate)
    } else if (starts("Best for ") && text.contains(" at ")) || starts("Average at ") {
        Some(Result)
    } else if starts("Therefore the value of ") {
        Some(Value)
    } else if starts("Terminals visited:") {
        Some(Terminals)
    } else if starts("Overall choice:") {
        Some(Choice)
    } else {
        None
    }
}

/// The kind of a line of the cs10 dialect (`Enter n20 (Minnie, depth 2) ...`).
fn classify_cs10(text: &str) -> Option<LineKind> {
    use LineKind::*;
    let starts = |p: &str| text.starts_with(p);
    if starts("Enter ") && text.contains(", depth ") {
        Some(Enter)
    } else if starts("Evaluate ") && text.contains("): ") {
        Some(Estimate)
    } else if starts("Value of ") && text.contains(" is ") {
        Some(Result)
    } else if starts("Therefore ") && text.contains(" is worth ") {
        Some(Value)
    } else if starts("Positions evaluated:") {
        Some(Terminals)
    } else if starts("Best move:") {
        Some(Choice)
    } else {
        None
    }
}

/// The kind of a line of the csc148 dialect (`Searching p1:6: ...`, `Score of ...`).
fn classify_csc148(text: &str) -> Option<LineKind> {
    use LineKind::*;
    let starts = |p: &str| text.starts_with(p);
    if starts("Searching ") && text.contains(" to move") {
        Some(Enter)
    } else if starts("Outcome of ") || starts("Rough outcome of ") {
        Some(Estimate)
    } else if starts("Score of ") {
        Some(Result)
    } else if starts("Therefore the score of ") {
        Some(Value)
    } else if starts("Positions searched:") {
        Some(Terminals)
    } else if starts("Suggested move:") {
        Some(Choice)
    } else {
        None
    }
}

/// `val it = 0 : HandoutBig.move` (or `: move` when the structure is open).
fn is_repl_move(text: &str) -> bool {
    text.starts_with("val it = ") && (text.ends_with(".move") || text.ends_with(": move"))
}

/// The kind of a line in `dialect`, if that dialect prints such a line.
pub fn classify(dialect: Dialect, text: &str) -> Option<LineKind> {
    let kind = classify_any(text)?;
    let fits = match (dialect, kind) {
        (_, LineKind::Deepening) => true,
        (Dialect::Csc148, _) => classify_csc148(text) == Some(kind),
        (Dialect::Cs10, _) => classify_cs10(text) == Some(kind),
        (Dialect::Expectimax, _) => classify_expectimax(text) == Some(kind),
        (Dialect::Cs188, _) => classify_cs188(text) == Some(kind),
        (_, _)
            if classify_csc148(text).is_some()
                || classify_cs10(text).is_some()
                || classify_cs188(text).is_some()
                || matches!(
                    classify_expectimax(text),
                    Some(LineKind::Enter | LineKind::Estimate | LineKind::Result | LineKind::Value)
                ) =>
        {
            false
        }
        (Dialect::S14, LineKind::Enter) => text.starts_with("F: ") || text.starts_with("G: "),
        (Dialect::S12, LineKind::Enter) => text.starts_with("Evaluating "),
        (Dialect::Repl, LineKind::Choice) => is_repl_move(text),
        (_, LineKind::Choice) => text.starts_with("Overall choice:"),
        (d, k) => d.kinds().contains(&k),
    };
    fits.then_some(kind)
}

/// The trace lines of `text` that `accept` recognises (given the stripped, normalised line)
/// and whose kind is in `kinds`.
pub fn extract(
    text: &str,
    kinds: LineSet,
    accept: impl Fn(&str) -> Option<LineKind>,
) -> Extraction {
    let mut x = Extraction::default();
    // A program on Windows may start its output with a byte order mark; it is not a character
    // of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        x.read += 1;
        if raw.contains('\0') {
            x.binary += 1;
        }
        // A trace line is short; a 10 MB line is not one, and is not worth normalising.
        if raw.len() > MAX_TRACE_LINE {
            x.ignored += 1;
            continue;
        }
        let unprompted = strip_prompts(raw.strip_suffix('\r').unwrap_or(raw));
        let stripped = normalize(unprompted);
        match accept(&stripped) {
            Some(kind) if kinds.contains(kind) => x.lines.push(TraceLine {
                line: i + 1,
                kind,
                raw: unprompted.to_owned(),
                text: stripped.into_owned(),
            }),
            Some(_) => x.left_out += 1,
            None => x.ignored += 1,
        }
    }
    x
}

/// Longer lines are never trace lines (the longest handout line is under 100 characters;
/// game states with long labels stay well within this).
pub const MAX_TRACE_LINE: usize = 64 * 1024;

/// The label of the state a line is about: `a` in `F: state (Maxie,a) with ...`,
/// `Result of (Maxie,a) is ...`, `Therefore value of (Maxie,a) is ...`, `Estimating state a[3]`.
pub fn state_label(kind: LineKind, text: &str) -> Option<&str> {
    if classify_cs188(text).is_some() {
        return cs188_label(kind, text);
    }
    if classify_csc148(text).is_some() {
        return csc148_label(kind, text);
    }
    if classify_cs10(text).is_some() {
        return cs10_label(kind, text);
    }
    if matches!(
        classify_expectimax(text),
        Some(LineKind::Enter | LineKind::Estimate | LineKind::Result | LineKind::Value)
    ) {
        return expectimax_label(kind, text);
    }
    match kind {
        LineKind::Estimate => {
            let rest = text.strip_prefix("Estimating state ")?;
            Some(&rest[..rest.rfind('[')?])
        }
        LineKind::Search | LineKind::Enter => {
            let rest = &text[text.find("state (")? + "state (".len()..];
            let rest = &rest[..rest.rfind(") with ab=")?];
            Some(rest.split_once(',')?.1)
        }
        LineKind::Result | LineKind::Value => {
            let rest = &text[text.find("of (")? + "of (".len()..];
            // The last `) is `: a name may hold one, a result never does.
            let rest = &rest[..rest.rfind(") is ")?];
            Some(rest.split_once(',')?.1)
        }
        LineKind::Terminals | LineKind::Choice | LineKind::Deepening => None,
    }
}

/// The label in a cs188 line: the successor in `generateSuccessor(root, 0, Left) -> a`, the
/// state in `getScore(a) -> 3.0`, `value(a) -> ...` and `getAction(root): value ...`.
fn cs188_label(kind: LineKind, text: &str) -> Option<&str> {
    match kind {
        LineKind::Enter => text.rsplit_once(") -> ").map(|(_, child)| child),
        LineKind::Estimate => {
            let rest = text.strip_prefix("getScore(")?;
            // A score or an exception never holds `) -> `; a name may.
            rest.rfind(") -> ").map(|i| &rest[..i])
        }
        LineKind::Result => {
            let rest = text.strip_prefix("value(")?;
            // The value's part holds no `) -> `: the last one ends the label.
            rest.rfind(") -> ").map(|i| &rest[..i])
        }
        LineKind::Value => {
            let rest = text.strip_prefix("getAction(")?;
            rest.rfind("): value ").map(|i| &rest[..i])
        }
        _ => None,
    }
}

/// The label in an expectimax line: `b` in `Visiting b: chance, depth 1`, `Evaluation of b:
/// 3`, `Average at b: 19/3`, `Best for Maxie at b: 3, by move 0`, `Therefore the value of b
/// is ...`.
fn expectimax_label(kind: LineKind, text: &str) -> Option<&str> {
    match kind {
        LineKind::Enter => text
            .strip_prefix("Visiting ")?
            .rsplit_once(": ")
            .map(|(l, _)| l),
        LineKind::Estimate => text
            .strip_prefix("Evaluation of ")?
            .rsplit_once(": ")
            .map(|(l, _)| l),
        LineKind::Result => {
            let rest = match text.strip_prefix("Average at ") {
                Some(r) => r,
                None => text.strip_prefix("Best for ")?.split_once(" at ")?.1,
            };
            let (label, _) = rest.rsplit_once(": ")?;
            Some(
                label
                    .strip_suffix(" at random)")
                    .and_then(|l| l.rsplit_once(" ("))
                    .map_or(label, |(l, _)| l),
            )
        }
        LineKind::Value => expectimax_value_line(text).map(|(l, _)| l),
        _ => None,
    }
}

/// `Therefore the value of b is 19/3, and best move is 0.` → (`b`, `19/3`). The value holds no
/// ` is ` and no `, and `; a label may hold either, so both are found from the right.
fn expectimax_value_line(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("Therefore the value of ")?;
    let rest = &rest[..rest.rfind(", and ")?];
    rest.rsplit_once(" is ")
}

/// The value an expectimax line gives: `7` in `Best for Maxie at a: 7, by move 0`, `19/3` in
/// `Average at b (Minnie at random): 19/3`, `2.50` in `Therefore the value of a is 2.50, ...`.
fn expectimax_value(kind: LineKind, text: &str) -> Option<String> {
    let v = match kind {
        LineKind::Value => expectimax_value_line(text)?.1,
        LineKind::Result if text.starts_with("Average at ") => text.rsplit_once(": ")?.1,
        LineKind::Result => {
            let rest = &text[..text.rfind(", by move ")?];
            rest.rsplit_once(": ")?.1
        }
        _ => return None,
    };
    Some(v.trim().to_owned())
}

/// The label in a csc148 line: `p2:5` in `Searching p2:5: p2 to move, ...`,
/// `Score of p2:5 is -1.0 for p2, ...`, `Outcome of p1:0 is ...`.
fn csc148_label(kind: LineKind, text: &str) -> Option<&str> {
    match kind {
        LineKind::Enter => {
            let rest = text.strip_prefix("Searching ")?;
            Some(&rest[..rest.find(": ")?])
        }
        LineKind::Estimate | LineKind::Result | LineKind::Value => {
            let rest = &text[text.find("of ")? + "of ".len()..];
            // The score comes after the label's last ` is `: a score holds no ` is `.
            let end = rest.find(", and best move is").unwrap_or(rest.len());
            Some(&rest[..rest[..end].rfind(" is ")?])
        }
        _ => None,
    }
}

/// The label in a cs10 line: `n20` in `Enter n20 (Minnie, depth 2) ...`, `Evaluate l12
/// (Minnie): 12`, `Value of n-20 is -20: ...`, `Therefore n-8 is worth -8 ...`.
fn cs10_label(kind: LineKind, text: &str) -> Option<&str> {
    match kind {
        LineKind::Enter => {
            let rest = text.strip_prefix("Enter ")?;
            Some(&rest[..rest.rfind(" (")?])
        }
        LineKind::Estimate => {
            let rest = text.strip_prefix("Evaluate ")?;
            let end = rest.rfind("): ")?;
            Some(&rest[..rest[..end].rfind(" (")?])
        }
        LineKind::Result => {
            let rest = text.strip_prefix("Value of ")?;
            let colon = rest.find(": ")?;
            Some(&rest[..rest[..colon].rfind(" is ")?])
        }
        LineKind::Value => {
            let rest = text.strip_prefix("Therefore ")?;
            Some(&rest[..rest.rfind(" is worth ")?])
        }
        _ => None,
    }
}

/// The move a line says was chosen: `Overall choice: move 1[middle]` → `1`,
/// `val it = 1 : HandoutSmall.move` → `1`, `Therefore ... and best move is 0.` → `0`.
pub fn chosen_move(kind: LineKind, text: &str) -> Option<&str> {
    match kind {
        LineKind::Choice => {
            if let Some(rest) = text.strip_prefix("Suggested move: ") {
                Some(rest.split(" (").next().unwrap_or(rest).trim())
            } else if let Some(rest) = text.strip_prefix("Best move: ") {
                Some(rest.trim())
            } else if let Some(rest) = text.strip_prefix("Overall choice: move ") {
                Some(rest.split('[').next().unwrap_or(rest).trim())
            } else if text.starts_with("getAction(") {
                Some(text.rsplit_once(") -> ")?.1.trim())
            } else {
                let rest = text.strip_prefix("val it = ")?;
                Some(rest[..rest.rfind(" : ")?].trim())
            }
        }
        LineKind::Value if text.starts_with("getAction(") => {
            Some(text.rsplit_once(", action ")?.1.trim())
        }
        LineKind::Value => {
            let rest = &text[text.rfind("best move is ")? + "best move is ".len()..];
            Some(rest.strip_suffix('.').unwrap_or(rest).trim())
        }
        _ => None,
    }
}

/// The estimate a line gives its state, without spaces so the years compare alike:
/// `Therefore value of (Maxie,a) is Guess: 3, and ...` → `Guess:3`;
/// `Result of (Maxie,a) is Step(1, Guess: 4)` → `Guess:4`; S12's `... is Guess:~2` → `Guess:~2`.
pub fn value_of(kind: LineKind, text: &str) -> Option<String> {
    if classify_cs188(text).is_some() {
        // `getAction(r): value 3.0, action Left` → `3.0`; `value(a) -> 3.0 (agent 1, min)`.
        let v = match kind {
            LineKind::Value => text.rsplit_once("): value ")?.1.split(", ").next()?,
            LineKind::Result => text.rsplit_once(") -> ")?.1.split(" (").next()?,
            _ => return None,
        };
        return Some(v.trim().to_owned());
    }
    if classify_cs10(text).is_some() {
        // `Therefore n-8 is worth -8 for Maxie, ...` → `-8`; `Value of x is 12: ...` → `12`.
        let label = state_label(kind, text)?;
        let rest = &text[text.find(label)? + label.len()..];
        let rest = rest
            .strip_prefix(" is worth ")
            .or_else(|| rest.strip_prefix(" is "))?;
        let end = rest.find([' ', ':', ',']).unwrap_or(rest.len());
        return Some(rest[..end].to_owned());
    }
    if classify_csc148(text).is_some() {
        // `... is 1.0 for p1, ...`: the score and whose it is.
        let label = state_label(kind, text)?;
        let rest = &text[text.find(label)? + label.len()..];
        let rest = rest.strip_prefix(" is ")?;
        let end = rest.find([',', ':']).unwrap_or(rest.len());
        return Some(rest[..end].trim().to_owned());
    }
    if matches!(
        classify_expectimax(text),
        Some(LineKind::Result | LineKind::Value)
    ) {
        return expectimax_value(kind, text);
    }
    let rest = &text[text.find(") is ")? + ") is ".len()..];
    let v = match kind {
        LineKind::Value => &rest[..rest.rfind(", and ")?],
        LineKind::Result => {
            let r = rest.strip_suffix(" (* Pruned *)").unwrap_or(rest);
            if let Some(step) = r.strip_prefix("Step(") {
                step.split_once(',')?.1.strip_suffix(')')?
            } else if let Some(leaf) = r.strip_prefix("Leaf(") {
                leaf.strip_suffix(')')?
            } else {
                r
            }
        }
        _ => return None,
    };
    Some(v.chars().filter(|c| !c.is_whitespace()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSCRIPT: &str =
        "Standard ML of New Jersey v110.79 [built: Mon Oct  3 21:03:45 2022]\n\
        [opening alphabeta.sml]\n\
        [autoloading]\n\
        [library $SMLNJ-BASIS/basis.cm is stable]\n\
        structure TestSmall : PLAYER\n\
        - F:  state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\n\
        Estimating state c[3]\n\
        debug: here\n\
        Result of (Maxie,c) is Leaf(Guess: 3)\n\
        Evaluating state (Maxie,d) with ab=(Pruned,Guess:3)\n\
        val it = 1 : HandoutSmall.move\n\
        val it = () : unit\n\
        - \n";

    #[test]
    fn keeps_the_dialects_lines_and_counts_the_rest() {
        let all = LineSet::all_of(Dialect::S14);
        let x = extract(TRANSCRIPT, all, |t| classify(Dialect::S14, t));
        let kept: Vec<_> = x.lines.iter().map(|l| (l.line, l.kind)).collect();
        assert_eq!(
            kept,
            [
                (6, LineKind::Enter),
                (7, LineKind::Estimate),
                (9, LineKind::Result)
            ]
        );
        assert_eq!(
            x.lines[0].text,
            "F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))"
        );
        assert_eq!((x.read, x.ignored, x.left_out), (13, 10, 0));
        // The REPL dialect keeps the estimates and the chosen move.
        let repl = extract(TRANSCRIPT, LineSet::all_of(Dialect::Repl), |t| {
            classify(Dialect::Repl, t)
        });
        let kept: Vec<_> = repl.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            kept,
            ["Estimating state c[3]", "val it = 1 : HandoutSmall.move"]
        );
        // Kinds the case leaves out are counted apart.
        let only_enter = [LineKind::Enter].into_iter().collect();
        let x = extract(TRANSCRIPT, only_enter, |t| classify(Dialect::S14, t));
        assert_eq!((x.lines.len(), x.left_out), (1, 2));
    }

    #[test]
    fn reads_states_moves_and_values() {
        use LineKind::*;
        // The expectimax dialect, a label holding ` is ` and `, and ` included.
        let v = "Therefore the value of x is y, and z is 19/3, and best move is 0.";
        assert_eq!(value_of(Value, v).as_deref(), Some("19/3"));
        assert_eq!(state_label(Value, v), Some("x is y, and z"));
        let none = "Therefore the value of a is -2.50, and there is no move.";
        assert_eq!(value_of(Value, none).as_deref(), Some("-2.50"));
        assert_eq!(
            value_of(Result, "Best for Maxie at a: b: 7, by move 0").as_deref(),
            Some("7")
        );
        assert_eq!(
            value_of(Result, "Average at e (Minnie at random): 9").as_deref(),
            Some("9")
        );
        assert_eq!(
            value_of(Result, "Average at b: 19/3").as_deref(),
            Some("19/3")
        );
        assert_eq!(state_label(Estimate, "Estimating state e[~2]"), Some("e"));
        assert_eq!(
            state_label(Enter, "G: state (Minnie,b) with ab=(Pruned,Pruned)"),
            Some("b")
        );
        assert_eq!(
            state_label(Result, "Result of (Maxie,h) is ParentPrune"),
            Some("h")
        );
        assert_eq!(
            chosen_move(Choice, "Overall choice: move 1[middle]"),
            Some("1")
        );
        assert_eq!(
            chosen_move(Choice, "val it = 0 : HandoutBig.move"),
            Some("0")
        );
        assert_eq!(
            chosen_move(
                Value,
                "Therefore value of (Maxie,a) is Guess: 3, and best move is 0."
            ),
            Some("0")
        );
        assert_eq!(
            value_of(
                Value,
                "Therefore value of (Maxie,a) is Guess: 3, and best move is 0."
            ),
            Some("Guess:3".into())
        );
        assert_eq!(
            value_of(Result, "Result of (Maxie,a) is Step(1, Guess: 4)"),
            Some("Guess:4".into())
        );
        assert_eq!(
            value_of(
                Result,
                "Result of (Minnie,j) is Step(0, Guess: 1) (* Pruned *)"
            ),
            Some("Guess:1".into())
        );
        assert_eq!(
            value_of(Result, "Result of (Minnie,b) is Guess:~2"),
            Some("Guess:~2".into())
        );
        assert_eq!(
            strip_prompts("- - = Estimating state c[3]"),
            "Estimating state c[3]"
        );
    }

    #[test]
    fn hostile_lines_are_ignored_quickly() {
        let long = "Result of (".to_owned() + &"x".repeat(10 << 20) + "\n\0\0garbage\n";
        let x = extract(&long, LineSet::all_of(Dialect::S14), |t| {
            classify(Dialect::S14, t)
        });
        assert_eq!((x.lines.len(), x.ignored, x.binary), (0, 2, 1));
    }
}

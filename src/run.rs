//! Running one case of a spec: the tree as a game, the case's searcher, the case's printer.

use crate::game::tree::TreeGame;
use crate::search::{s12, s14, Summary};
use crate::spec::{Case, Rules, Spec};
use crate::trace::{Dialect, ReplPrinter, S12Printer, S14Printer};
use std::io::{self, Write};

/// Searches `spec`'s tree as `case` says and writes the case's trace to `out`.
pub fn run_case<W: Write>(spec: &Spec, case: &Case, out: W) -> io::Result<(W, Summary)> {
    let game = TreeGame::new(&spec.tree, case.root_player);
    let style = case.style.clone();
    let (depth, algorithm) = (case.depth, case.algorithm);
    match (case.dialect, case.rules) {
        (Dialect::S14, _) => {
            let mut p = S14Printer::new(&game, out, style);
            let summary = s14::search(&game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::S12, _) => {
            let mut p = S12Printer::new(&game, out, style);
            let summary = s12::search(&game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Repl, Rules::S14) => {
            let mut p = ReplPrinter::new(&game, out, style);
            let summary = s14::search(&game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
        (Dialect::Repl, Rules::S12) => {
            let mut p = ReplPrinter::new(&game, out, style);
            let summary = s12::search(&game, depth, algorithm, &mut p);
            Ok((p.finish()?, summary))
        }
    }
}

/// The case's trace as text.
pub fn trace_of(spec: &Spec, case: &Case) -> String {
    let (bytes, _) = run_case(spec, case, Vec::new()).expect("writing to memory cannot fail");
    // Printers write only UTF-8 (labels and names come from UTF-8 specs).
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A line of a reference trace, and the node it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefLine {
    pub text: String,
    pub node: crate::game::tree::NodeId,
    pub player: crate::game::Player,
}

/// The case's trace with only the line kinds in `lines`, each line with its node: what
/// `check` compares an implementation's output with and locates divergences by.
pub fn reference_lines(
    spec: &Spec,
    case: &Case,
    lines: crate::trace::LineSet,
) -> (Vec<RefLine>, Summary) {
    use crate::search::EventLog;
    let game = TreeGame::new(&spec.tree, case.root_player);
    let mut style = case.style.clone();
    style.lines = lines;
    let (depth, algorithm) = (case.depth, case.algorithm);
    macro_rules! located {
        ($searcher:ident, $printer:ident) => {{
            let mut log = EventLog::default();
            let summary = $searcher::search(&game, depth, algorithm, &mut log);
            let mut p = $printer::new(&game, Vec::new(), style);
            let mut owners = Vec::new();
            for event in log.0 {
                let state = *event.state();
                let before = p.get_ref().len();
                crate::search::Sink::event(&mut p, event);
                let new_lines = p.get_ref()[before..]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                owners.extend(std::iter::repeat_n(state, new_lines));
            }
            let bytes = p.finish().expect("writing to memory cannot fail");
            let text = String::from_utf8_lossy(&bytes);
            let lines = text
                .lines()
                .zip(owners)
                .map(|(t, s)| RefLine {
                    text: t.to_owned(),
                    node: s.node,
                    player: s.player,
                })
                .collect();
            (lines, summary)
        }};
    }
    match (case.dialect, case.rules) {
        (Dialect::S14, _) => located!(s14, S14Printer),
        (Dialect::S12, _) => located!(s12, S12Printer),
        (Dialect::Repl, Rules::S14) => located!(s14, ReplPrinter),
        (Dialect::Repl, Rules::S12) => located!(s12, ReplPrinter),
    }
}

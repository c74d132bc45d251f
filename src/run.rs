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

//! gametrace: reference game-tree searchers that print the course handouts' traces.
//!
//! The pipeline, one module each: [`spec`] (YAML in) → [`game`] (trees and games) →
//! [`search`] (searchers emitting events) → [`trace`] (dialects printing events) →
//! [`run`] (one case, end to end) → [`suite`] (every case, compared with expected traces)
//! → [`cli`]. Real games also have a terminal referee, [`play`].
//!
//! As a library:
//!
//! ```
//! use std::path::Path;
//!
//! let gametrace::spec::Document::Tree(spec) = gametrace::spec::load_str(
//!     Path::new("small.yaml"),
//!     "tree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\n\
//!      cases: {ab: {algorithm: alphabeta, lines: [result, terminals, choice]}}\n",
//! )?
//! else {
//!     unreachable!("a tree spec")
//! };
//! let trace = gametrace::run::trace_of(&spec, &spec.cases[0]);
//! // S14 Figure 5: j is cut after k, and Maxie moves to the middle.
//! assert!(trace.contains("Result of (Minnie,j) is Step(0, Guess: 1) (* Pruned *)\n"));
//! assert!(trace.ends_with("Terminals visited: 7\nOverall choice: move 1\n"));
//! # Ok::<(), gametrace::spec::Diagnostic>(())
//! ```

// A Diagnostic is large, but it travels only on the cold path of a bad spec.
#![allow(clippy::result_large_err)]

// The core (spec, games, searchers, printers, diff, diagnosis, drawing) is its own crate, so
// that it builds for the browser and compiles beside the sandbox; its modules keep their
// paths here (`gametrace::spec`, `gametrace::search`, ...).
/// `check-game`: its own crate, compiled beside the rest of the command line.
pub use gametrace_check_game as check_game;
pub use gametrace_core::{
    builtin, diagnosis, diff, draw, export, game, input, memory, notation, play, run, search, spec,
    stats, task, trace, with_game_spec,
};
/// Running student programs confined: its own crate, compiled beside the core.
pub use gametrace_sandbox as sandbox;

pub mod adapters;
pub mod check;
pub mod cli;
pub mod grade;
pub mod report;
pub mod student;
pub mod suite;

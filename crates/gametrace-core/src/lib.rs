//! The core of gametrace: everything that turns a spec into a trace and judges a trace, with
//! no operating system in it (no processes, no sandbox, no threads it needs, no clock it
//! needs), so that it also builds for `wasm32-unknown-unknown`, the browser page's target.
//! The command-line tool (the `gametrace` crate) adds running student programs, grading and
//! reports around it.
//!
//! The pipeline, one module each: [`spec`] (YAML in) → [`game`] (trees and games) →
//! [`search`] (searchers emitting events) → [`trace`] (dialects printing events) →
//! [`run`] (one case, end to end) → [`check`] and [`diff`] (a trace against the reference)
//! → [`diagnosis`] (the mistake that explains it) and [`draw`] (the tree, with marks).
//!
//! ```
//! use std::path::Path;
//!
//! let gametrace_core::spec::Document::Tree(spec) = gametrace_core::spec::load_str(
//!     Path::new("small.yaml"),
//!     "tree: {a: {b: {c: 3, d: 6, e: -2}, f: {g: 6, h: 4, i: 10}, j: {k: 1, l: 30, m: 9}}}\n\
//!      cases: {ab: {algorithm: alphabeta, lines: [result, terminals, choice]}}\n",
//! )?
//! else {
//!     unreachable!("a tree spec")
//! };
//! let trace = gametrace_core::run::trace_of(&spec, &spec.cases[0]);
//! // S14 Figure 5: j is cut after k, and Maxie moves to the middle.
//! assert!(trace.contains("Result of (Minnie,j) is Step(0, Guess: 1) (* Pruned *)\n"));
//! assert!(trace.ends_with("Terminals visited: 7\nOverall choice: move 1\n"));
//! # Ok::<(), gametrace_core::spec::Diagnostic>(())
//! ```

// A Diagnostic is large, but it travels only on the cold path of a bad spec.
#![allow(clippy::result_large_err)]

pub mod builtin;
pub mod check;
pub mod clock;
pub mod course;
pub mod diagnosis;
pub mod diff;
pub mod draw;
pub mod export;
pub mod game;
pub mod input;
pub mod memory;
pub mod notation;
pub mod par;
pub mod play;
pub mod report;
pub mod run;
pub mod search;
pub mod spec;
pub mod stats;
pub mod task;
pub mod trace;

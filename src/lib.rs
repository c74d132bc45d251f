//! gametrace: reference game-tree searchers that print the course handouts' traces.
//!
//! The pipeline, one module each: [`spec`] (YAML in) → [`game`] (trees and games) →
//! [`search`] (searchers emitting events) → [`trace`] (dialects printing events) →
//! [`run`] (one case, end to end) → [`suite`] (every case, compared with expected traces)
//! → [`cli`].

// A Diagnostic is large, but it travels only on the cold path of a bad spec.
#![allow(clippy::result_large_err)]

pub mod cli;
pub mod game;
pub mod run;
pub mod search;
pub mod spec;
pub mod suite;
pub mod trace;

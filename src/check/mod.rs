//! Judging results: the core's checks ([`gametrace_core::check`]), and [`case`], which runs a
//! student's program for a case (through the sandbox) and judges what it printed.

pub use gametrace_core::check::*;

pub mod case;

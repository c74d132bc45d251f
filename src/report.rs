//! Reports: the core's results and formats, with the sandbox's verdicts and note
//! ([`gametrace_check_game::report`], where the core and the sandbox first meet).

pub use gametrace_check_game::report::*;

//! The page's engine with `check-game` in it, which only the page's Python worker loads
//! (`gametrace-games.js`): the same source as `crates/gametrace-web` (its `api.rs` and its
//! exports), with the `games` feature's request, `check-game`, whose conversations with the
//! student's game go through the worker (`gametrace_check_game::sandbox` in the browser).

#[path = "../../gametrace-web/src/lib.rs"]
pub mod web;

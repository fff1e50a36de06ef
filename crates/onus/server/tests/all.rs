//! Every integration test of this crate, in one binary: one link instead of one per file
//! keeps a clean build small enough for CI's disk. A new test file is declared here
//! (the workspace's `tests/architecture.rs` checks that none is left out).

mod api_fuzz;
mod armies;
mod battlefields;
#[path = "../../game/tests/common.rs"]
mod common;
mod fog;
mod http;
mod odds_are_the_games;
mod options;
mod queries;
mod sieges;
mod sizes;
mod structure_events;
mod structure_odds;
mod terrain;
mod update_sizes;
mod why_not;

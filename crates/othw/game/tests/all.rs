//! Every integration test of this crate, in one binary: one link instead of one per file
//! keeps a clean build small enough for CI's disk. A new test file is declared here
//! (the workspace's `tests/architecture.rs` checks that none is left out).

mod combat;
mod common;
mod flight_generals_victory;
mod odds;
mod random_battles;
mod sequence_and_movement;

//! Every integration test of this crate, in one binary: one link instead of one per file
//! keeps a clean build small enough for CI's disk. A new test file is declared here
//! (the workspace's `tests/architecture.rs` checks that none is left out).

mod battles;
mod combat;
mod common;
mod discipline;
mod generals;
mod movement;
mod points;
mod push_back;
mod ratings;
mod shooting;
mod tables;

//! Every integration test of this crate, in one binary: one link instead of one per file
//! keeps a clean build small enough for CI's disk. A new test file is declared here
//! (the workspace's `tests/architecture.rs` checks that none is left out).

mod battles;
mod observation;
mod siege;
mod teams;
mod terrain;

//! The rulebook's worked examples, one test each, named after the section they come from.

mod charges;
mod contacts;
mod engaged;
mod flight;
mod fortress;
mod movement;
mod obstacles;
mod overlap;
mod queries;
mod ranged;
mod structure_markers;
mod terrain;
mod towers;

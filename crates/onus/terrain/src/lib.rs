//! ONUS! *Terrain & Fortresses*, the battlefield: the terrain pieces of chapter III as data
//! and geometry.
//!
//! A [`Battlefield`] is a table and its [`Piece`]s (forests, hills with their tops,
//! mountains, lakes, river sections, fords, bridges, choke points), each a union of
//! rectangles in DU. This crate answers what the rules ask of the ground — is this card over
//! insurmountable terrain, in difficult terrain, in a forest, on a hill's top; which pieces
//! does a line of sight cross — and reads battlefield files with every problem located
//! ([`load::parse`]). The rules of movement, sight and combat that use the answers live in
//! `onus-table` and `onus-game`.
//!
//! The structures of chapter IV ([`StructureKind`], [`Structure`]) stand on a battlefield
//! too, each fortress's elements grouped under a [`FortressSite`] and designed by the rules
//! of chapter VI ([`Fortress`]): their values, points, laying rules and the geometry the
//! siege rules ask of them (the inside of a fortress, heights, contacts, lines of sight).
//! The rules of play with them are still to come.
//!
//! References are to *ONUS! Terrain & Fortresses* (`002_c2a3f764af97b82f.txt`).

mod battlefield;
pub mod builtin;
mod check;
mod inside;
mod kind;
mod lay;
pub mod load;
mod piece;
mod structure;
mod write;

/// Between a village's id and its half's number in the id of a village half (`"v1#2"`, T&F
/// IV "Villages"), which a structure's own id may not contain.
pub const HALF_SEPARATOR: char = '#';

pub use battlefield::{Battlefield, Crossing, FortressSite, StructureCrossing, WallFaces};
pub use check::{MAX_PIECES, MAX_ZONES, Problem, Subject, TABLE_SIDES};
pub use inside::Inside;
pub use kind::{BridgeValues, Material, SightBlock, TerrainKind};
pub use lay::{MAX_FORTRESSES, MAX_STRUCTURES, Tile, tile};
pub use piece::{Piece, Zone, ZoneSpec};
pub use structure::{
    DefenceBonus, DesignProblem, Fortress, Side, Structure, StructureKind, StructureValues,
};

//! The data of the Command Points square-grid system (`001_9dff36c6f33551f7.txt`).
//!
//! The quick-reference sheet names unit ratings (Combat, Ranged Combat, Manoeuvre and
//! Discipline Ratings), characteristics, Command and Generalship Points, an Army Break Point,
//! Setback and Disaster cards and terrain, but gives no rosters, army lists, deck or table. Those
//! are data here — ours, labelled as ours in `data/command-points/`, replaceable by a player —
//! and every choice is recorded in `docs/rulings.md`.
//!
//! * [`Profile`]: a unit type with its ratings, [`Troop`] class and [`Characteristic`]s.
//! * [`Army`] and [`Preset`]: a roster of profiles and the ready-made lists built from it (units,
//!   attached Skirmish and Reserve Lines, the General, Command Points, the Army Break Point).
//! * [`Deck`]: the composition of the Setback and Disaster decks (each card's point value).
//! * [`Scenario`]: the table (size, terrain, linear obstacles, camps), deployment and length.
//! * [`Setup`]: everything a game starts from, self-contained, so that a recorded game replays
//!   without the data files; [`Setup::check`] bounds every number from outside.
//! * [`load`]: the TOML loader, every error naming file, line and field.

mod army;
mod deck;
pub mod load;
mod scenario;
mod seat;
mod setup;
mod unit;

pub use army::{Army, GeneralProfile, PointKind, Points, Preset, PresetUnit};
pub use deck::{CardKind, Deck, DeckEntry};
pub use scenario::{Scenario, Terrain, TerrainPatch};
pub use seat::Seat;
pub use setup::{ArmySetup, Setup, SetupError, UnitSetup};
pub use unit::{Characteristic, LineKind, Profile, PushColumn, Troop};

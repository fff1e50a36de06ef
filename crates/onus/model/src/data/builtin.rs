//! The starter data shipped in `data/onus/factions/`, embedded at build time.
//!
//! When adding a faction file, list it here too; a test checks that this list and the
//! directory agree.

/// `(file name, text)` of every shipped faction file.
pub(crate) const SOURCES: &[(&str, &str)] = &[
    (
        "factions/carthaginians.toml",
        include_str!("../../../../../data/onus/factions/carthaginians.toml"),
    ),
    (
        "factions/celts.toml",
        include_str!("../../../../../data/onus/factions/celts.toml"),
    ),
    (
        "factions/dacians.toml",
        include_str!("../../../../../data/onus/factions/dacians.toml"),
    ),
    (
        "factions/mercenaries.toml",
        include_str!("../../../../../data/onus/factions/mercenaries.toml"),
    ),
    (
        "factions/parthians.toml",
        include_str!("../../../../../data/onus/factions/parthians.toml"),
    ),
    (
        "factions/romans.toml",
        include_str!("../../../../../data/onus/factions/romans.toml"),
    ),
];

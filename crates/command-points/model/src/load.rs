//! Loading armies, the deck and scenarios from TOML (`data/command-points/`).

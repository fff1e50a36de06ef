//! Loading cards from TOML data files (filled by the data-loader work).

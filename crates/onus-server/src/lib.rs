//! ONUS! on the acies game server. See `README.md` in this crate for the protocol (catalog
//! and queries); the implementation follows.

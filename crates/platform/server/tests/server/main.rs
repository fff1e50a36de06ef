//! End-to-end tests: a real server on 127.0.0.1 with a temp-dir SQLite database, driven over
//! HTTP and WebSocket with the toy dice-race ruleset.

mod api;
mod audit;
mod bots;
mod chat;
mod cluster;
mod common;
mod inputs;
mod limits;
mod postgres;
mod query;
mod restart;
mod rules;
mod store;
mod systems;
mod takeback;
mod versions;
mod websocket;

//! Serves the toy dice race (`acies_server::testing::DiceRace`) alone: what the
//! several-processes test starts twice on one PostgreSQL database, and a way to try that by
//! hand.
//!
//! ```text
//! cargo run -p acies-server --bin dice-race-server -- --database postgres://... --addr 127.0.0.1:0
//! ```
//!
//! `--durability process|disk` chooses when an SQLite file acknowledges a write
//! (`acies_server::Durability`; default `process`).
//!
//! Prints `listening on http://ADDR` on standard output once it serves, then runs until
//! Ctrl-C (or a kill).

use std::io::Write;
use std::net::SocketAddr;

use acies_server::testing::DiceRace;
use acies_server::{BoundServer, Durability, ServeConfig};

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut database = None;
    let mut addr: SocketAddr = ([127, 0, 0, 1], 0).into();
    let mut durability = Durability::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--database" => database = Some(value),
            "--addr" => addr = value.parse().map_err(|e| format!("--addr {value}: {e}"))?,
            "--durability" => durability = value.parse()?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    let database = database.ok_or("--database URL is required")?;
    let mut config = ServeConfig::new(addr, database).host::<DiceRace>();
    config.durability = durability;
    // Tests create their games from one address.
    config.limits.games_per_minute = 0;
    let server = BoundServer::bind(config).await.map_err(|e| e.to_string())?;
    let addr = server.local_addr().map_err(|e| e.to_string())?;
    let mut out = std::io::stdout();
    writeln!(out, "listening on http://{addr}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    server
        .run(async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
        .map_err(|e| e.to_string())
}

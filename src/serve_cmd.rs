//! `acies serve`: every rule system this binary knows, with the browser UI, on one address.

use std::net::SocketAddr;
use std::path::PathBuf;

use acies_server::{BoundServer, Durability, ServeConfig};
use anyhow::Context;
use clap::Args;
use command_points_server::CommandPointsHost;
use morale_clock_server::MoraleClockHost;
use onus_server::OnusHost;
use othw_server::OthwHost;

/// Where to listen and which database to keep the games in.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// `sqlite://FILE` (created on first start), a plain file path (SQLite), or
    /// `postgres://user:password@host/db`.
    #[arg(long, default_value = "sqlite://acies.db", value_name = "URL")]
    pub database: String,
    /// Your own plain-text copy of a system's rules (`onus=rulebook.txt`): the rules reader
    /// then shows the passage of your copy under each cited section next to our summary.
    /// Repeat it for more files (a rulebook and its expansion are searched in that order).
    #[arg(long = "rules-text", value_name = "SYSTEM=PATH", value_parser = rules_text)]
    pub rules_text: Vec<(String, PathBuf)>,
    /// When an SQLite file acknowledges a move: `process` once committed (it survives the
    /// server being killed, `kill -9` included; an OS crash or a power cut may lose the last
    /// quarter second or so of moves, never the database), or `disk` once synced to disk as
    /// well (it survives a power cut too, at a cost in moves per second).
    #[arg(long, default_value = "process", value_name = "process|disk", value_parser = durability)]
    pub durability: Durability,
}

/// `--durability`.
fn durability(arg: &str) -> Result<Durability, String> {
    arg.parse()
}

/// `SYSTEM=PATH` of `--rules-text`.
fn rules_text(arg: &str) -> Result<(String, PathBuf), String> {
    match arg.split_once('=') {
        Some((system, path)) if !system.trim().is_empty() && !path.trim().is_empty() => {
            Ok((system.trim().to_owned(), PathBuf::from(path)))
        }
        _ => Err(format!(
            "{arg:?}: give the system and your copy's path, e.g. onus=rulebook.txt"
        )),
    }
}

/// A database argument as a URL: a bare path means an SQLite file.
pub fn database_url(arg: &str) -> String {
    if arg.contains("://") || arg.starts_with("sqlite:") {
        arg.to_owned()
    } else {
        format!("sqlite://{arg}")
    }
}

/// A line on stdout; a closed stdout (the reader went away) must not stop the server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Runs the server until Ctrl-C.
pub fn run(args: &ServeArgs) -> anyhow::Result<String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(args))?;
    Ok("acies: stopped\n".into())
}

/// The server configuration with every rule system of the binary (ONUS! first: the
/// system-less routes of older clients are its) and the web UI.
pub fn config(addr: SocketAddr, database_url: String) -> ServeConfig {
    ServeConfig::new(addr, database_url)
        .host::<OnusHost>()
        .host::<CommandPointsHost>()
        .host::<MoraleClockHost>()
        .host::<OthwHost>()
        .with_ui(acies_web::router(&[
            onus_web::module(),
            command_points_web::module(),
            morale_clock_web::module(),
            othw_web::module(),
        ]))
}

async fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    let url = database_url(&args.database);
    let mut cfg = config(args.addr, url.clone());
    cfg.durability = args.durability;
    for (system, path) in &args.rules_text {
        cfg = cfg.rules_text(system.clone(), path.clone());
    }
    let server = BoundServer::bind(cfg)
        .await
        .with_context(|| format!("cannot start the server on {} with {url}", args.addr))?;
    let addr = server.local_addr()?;
    let report = server.report();
    // The address is printed first, on its own line, for people and for scripts.
    let names: Vec<&str> = server.systems().iter().map(|s| s.name).collect();
    say(&format!(
        "acies: {} served at http://{addr}/ — open it in a browser",
        names.join(", ")
    ));
    say(&format!(
        "acies: games are kept in {url}; {} unfinished game(s) restored; Ctrl-C stops",
        report.restored.len()
    ));
    for (id, reason) in &report.failed {
        eprintln!("acies: game {id} could not be restored and is out of play: {reason}");
    }
    for r in server.rules_report() {
        say(&format!(
            "acies: your copy of the {} rules, {}: {} of {} sections found by their heading{}",
            r.system,
            r.path.display(),
            r.found,
            r.sought,
            if r.missing.is_empty() {
                String::new()
            } else {
                format!(" (not found in any copy: {})", r.missing.join("; "))
            }
        ));
    }
    for u in &report.upgraded {
        say(&format!(
            "acies: game {} ({}) was stored under rules version {}; it replays unchanged under version {} and plays on",
            u.game_id, u.system, u.from, u.to
        ));
    }
    server
        .run(async {
            // Without a signal handler, run until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{database_url, rules_text};

    #[test]
    fn a_copy_of_the_rules_is_a_system_and_a_path() {
        assert_eq!(
            rules_text("onus=/home/me/onus.txt").ok(),
            Some(("onus".to_owned(), "/home/me/onus.txt".into()))
        );
        assert!(rules_text("onus").is_err());
        assert!(rules_text("=x.txt").is_err());
        assert!(rules_text("onus=").is_err());
    }

    #[test]
    fn bare_paths_are_sqlite_files() {
        assert_eq!(database_url("games.db"), "sqlite://games.db");
        assert_eq!(database_url("sqlite://acies.db"), "sqlite://acies.db");
        assert_eq!(database_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(
            database_url("postgres://u@localhost/acies"),
            "postgres://u@localhost/acies"
        );
    }
}

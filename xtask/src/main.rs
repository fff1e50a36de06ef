//! Project tasks, run as `cargo xtask <task>` (the alias is in `.cargo/config.toml`).
//!
//! * `cargo xtask test [ARGS]`: the README's one test command. Sets up what the tests need on
//!   this machine, then runs `cargo test --workspace [ARGS]`. No test passes by skipping: the
//!   browser tests need Chromium, Node.js and the driver's playwright-core, the server's
//!   PostgreSQL tests need a database, and without them those tests fail.
//! * `cargo xtask setup`: the set-up alone (prints the `ACIES_TEST_POSTGRES_URL` to export).
//!
//! What the set-up does, each step only when needed:
//! 1. installs Debian's `chromium`, `nodejs`, `npm` and `postgresql` with apt-get (as root;
//!    otherwise it names the packages to install and stops),
//! 2. installs the browser driver (`npm ci` in `crates/platform/e2e/driver`; it downloads no
//!    browser, it drives Debian's Chromium),
//! 3. starts a PostgreSQL for the tests unless `ACIES_TEST_POSTGRES_URL` is already set: as
//!    root the Debian cluster (`pg_ctlcluster`), otherwise a private cluster under
//!    `target/xtask-postgres` on its own port.

mod postgres;
mod system;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use system::{Failure, run};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("setup") => setup().map(|url| println!("export ACIES_TEST_POSTGRES_URL={url}")),
        _ => Err(Failure(
            "usage: cargo xtask test [CARGO TEST ARGS] | cargo xtask setup".into(),
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Sets up, then runs every test of the workspace with the database URL set.
fn test(extra: &[String]) -> Result<(), Failure> {
    let url = setup()?;
    let mut cargo = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()));
    cargo
        .current_dir(root())
        .args(["test", "--workspace"])
        .args(extra)
        .env("ACIES_TEST_POSTGRES_URL", url);
    run(&mut cargo, "cargo test --workspace")
}

/// Everything the tests need; returns the PostgreSQL URL to test against.
fn setup() -> Result<String, Failure> {
    let postgres_given = std::env::var("ACIES_TEST_POSTGRES_URL").is_ok_and(|u| !u.is_empty());
    system::install_packages(&needed_packages(postgres_given))?;
    install_driver()?;
    if postgres_given {
        return Ok(std::env::var("ACIES_TEST_POSTGRES_URL").unwrap_or_default());
    }
    postgres::start(&root().join("target").join("xtask-postgres"))
}

/// The Debian packages missing on this machine.
fn needed_packages(postgres_given: bool) -> Vec<&'static str> {
    let chromium = std::env::var_os("ACIES_E2E_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let mut need = Vec::new();
    if !chromium.is_file() {
        need.push("chromium");
    }
    if !system::on_path("node") {
        need.push("nodejs");
    }
    if !system::on_path("npm") {
        need.push("npm");
    }
    if !postgres_given && postgres::bin_dir().is_none() {
        need.push("postgresql");
    }
    need
}

/// playwright-core for the browser driver, pinned by its lock file.
fn install_driver() -> Result<(), Failure> {
    let driver = root().join("crates/platform/e2e/driver");
    if driver
        .join("node_modules/playwright-core/package.json")
        .is_file()
    {
        return Ok(());
    }
    eprintln!("xtask: installing the browser driver (npm ci)");
    let mut npm = std::process::Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--prefix"])
        .arg(&driver);
    run(&mut npm, "npm ci (the browser driver)")
}

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

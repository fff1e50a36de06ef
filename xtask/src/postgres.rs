//! A PostgreSQL server for the tests: Debian's cluster when running as root, otherwise a
//! private cluster in the target directory. Either way the tests get a URL to an
//! `acies_test` database.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::system::{Failure, is_root, output};

const DATABASE: &str = "acies_test";
/// The password of the `postgres` role in Debian's cluster (local connections over TCP need
/// one); the private cluster trusts local connections instead.
const PASSWORD: &str = "acies-ci";

/// The newest installed server's `bin` directory (`/usr/lib/postgresql/N/bin`).
pub fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("postgres").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// Starts (or reuses) a server and returns the tests' database URL.
pub fn start(private_dir: &Path) -> Result<String, Failure> {
    let bin = bin_dir().ok_or_else(|| Failure("PostgreSQL is not installed".into()))?;
    if is_root() {
        debian_cluster(&bin)
    } else {
        private_cluster(&bin, private_dir)
    }
}

/// Debian's cluster (created and started if needed), with a password for TCP connections.
fn debian_cluster(bin: &Path) -> Result<String, Failure> {
    let (version, cluster, port) = match first_cluster()? {
        Some(found) => found,
        None => {
            let version = bin
                .parent()
                .and_then(Path::file_name)
                .and_then(|v| v.to_str())
                .unwrap_or_default()
                .to_owned();
            output(
                Command::new("pg_createcluster").args([version.as_str(), "main"]),
                "pg_createcluster",
            )?;
            first_cluster()?.ok_or_else(|| Failure("no cluster after pg_createcluster".into()))?
        }
    };
    let running = Command::new("pg_ctlcluster")
        .args([version.as_str(), cluster.as_str(), "status"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !running {
        eprintln!("xtask: starting PostgreSQL {version}/{cluster}");
        output(
            Command::new("pg_ctlcluster").args([version.as_str(), cluster.as_str(), "start"]),
            "pg_ctlcluster start",
        )?;
    }
    let psql = |sql: &str| {
        output(
            Command::new("su").args([
                "postgres",
                "-c",
                &format!("psql -p {port} -qAt -v ON_ERROR_STOP=1 -c \"{sql}\""),
            ]),
            "psql",
        )
    };
    psql(&format!("ALTER USER postgres PASSWORD '{PASSWORD}'"))?;
    let exists = psql(&format!(
        "SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"
    ))?;
    if exists.trim() != "1" {
        psql(&format!("CREATE DATABASE {DATABASE}"))?;
    }
    Ok(format!(
        "postgres://postgres:{PASSWORD}@127.0.0.1:{port}/{DATABASE}"
    ))
}

/// The first cluster `pg_lsclusters` lists: (version, name, port).
fn first_cluster() -> Result<Option<(String, String, String)>, Failure> {
    let list = output(
        Command::new("pg_lsclusters").arg("--no-header"),
        "pg_lsclusters",
    )?;
    Ok(list.lines().next().and_then(|line| {
        let mut fields = line.split_whitespace();
        Some((
            fields.next()?.to_owned(),
            fields.next()?.to_owned(),
            fields.next()?.to_owned(),
        ))
    }))
}

/// A cluster of this user's own under `dir` (initialised once, started if stopped), trusting
/// connections from this machine, on a port chosen once and kept in `dir/port`.
fn private_cluster(bin: &Path, dir: &Path) -> Result<String, Failure> {
    let data = dir.join("data");
    std::fs::create_dir_all(dir).map_err(|e| Failure(format!("{}: {e}", dir.display())))?;
    if !data.join("PG_VERSION").is_file() {
        eprintln!("xtask: creating a PostgreSQL cluster in {}", data.display());
        output(
            Command::new(bin.join("initdb")).arg("-D").arg(&data).args([
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ]),
            "initdb",
        )?;
    }
    let port = private_port(dir)?;
    let running = Command::new(bin.join("pg_ctl"))
        .arg("-D")
        .arg(&data)
        .arg("status")
        .output()
        .is_ok_and(|o| o.status.success());
    if !running {
        eprintln!("xtask: starting PostgreSQL on port {port}");
        output(
            Command::new(bin.join("pg_ctl"))
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(dir.join("server.log"))
                .arg("-o")
                .arg(format!(
                    "-p {port} -k {} -c listen_addresses=127.0.0.1",
                    dir.display()
                ))
                .args(["-w", "start"]),
            "pg_ctl start",
        )?;
    }
    create_database(bin, &port)?;
    Ok(format!("postgres://postgres@127.0.0.1:{port}/{DATABASE}"))
}

/// The private cluster's port: the one recorded in `dir/port`, or a free one, recorded.
fn private_port(dir: &Path) -> Result<String, Failure> {
    let file = dir.join("port");
    if let Ok(port) = std::fs::read_to_string(&file) {
        return Ok(port.trim().to_owned());
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port().to_string())
        .map_err(|e| Failure(format!("no free port: {e}")))?;
    std::fs::write(&file, &port).map_err(|e| Failure(format!("{}: {e}", file.display())))?;
    Ok(port)
}

/// Creates the tests' database in the private cluster if it is not there.
fn create_database(bin: &Path, port: &str) -> Result<(), Failure> {
    let exists = output(
        Command::new(bin.join("psql")).args([
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-U",
            "postgres",
            "-qAt",
            "-c",
            &format!("SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"),
        ]),
        "psql",
    )?;
    if exists.trim() == "1" {
        return Ok(());
    }
    output(
        Command::new(bin.join("createdb")).args([
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-U",
            "postgres",
            DATABASE,
        ]),
        "createdb",
    )
    .map(|_| ())
}

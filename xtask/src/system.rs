//! Running commands and installing Debian packages.

use std::process::{Command, Stdio};

/// Why a task stopped (printed as is).
pub struct Failure(pub String);

/// Runs `command`, its output going to ours; fails naming `what` unless it succeeds.
pub fn run(command: &mut Command, what: &str) -> Result<(), Failure> {
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(Failure(format!("{what} failed ({status})"))),
        Err(e) => Err(Failure(format!("{what} could not start: {e}"))),
    }
}

/// Runs `command` quietly and returns its standard output, or fails naming `what` with what
/// it printed.
pub fn output(command: &mut Command, what: &str) -> Result<String, Failure> {
    let out = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Failure(format!("{what} could not start: {e}")))?;
    if !out.status.success() {
        return Err(Failure(format!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `program` runs (`program --version` succeeds).
pub fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether this process runs as root (it may then install packages and manage clusters).
pub fn is_root() -> bool {
    output(Command::new("id").arg("-u"), "id -u").is_ok_and(|uid| uid.trim() == "0")
}

/// Installs `packages` with apt-get, or names them when this process may not.
pub fn install_packages(packages: &[&str]) -> Result<(), Failure> {
    if packages.is_empty() {
        return Ok(());
    }
    let list = packages.join(" ");
    if !is_root() || !on_path("apt-get") {
        return Err(Failure(format!(
            "the tests need these Debian packages: {list} (install them as root: \
             apt-get install -y {list}, or run this command as root)"
        )));
    }
    eprintln!("xtask: installing {list}");
    output(
        Command::new("apt-get")
            .arg("update")
            .env("DEBIAN_FRONTEND", "noninteractive"),
        "apt-get update",
    )?;
    output(
        Command::new("apt-get")
            .args(["install", "-y"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        "apt-get install",
    )?;
    Ok(())
}

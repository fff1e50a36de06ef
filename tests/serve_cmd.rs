//! `acies serve` as a user runs it: the binary starts, prints the address to open, and
//! serves the browser UI and the ONUS! API on it, keeping games in an SQLite file it creates.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server process, killed when dropped.
struct Served {
    child: Child,
    addr: String,
    /// Kept open: the server prints more lines.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(db: &std::path::Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_acies"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("acies serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    let mut reader = BufReader::new(stdout);
    reader.read_line(&mut first).expect("a first line");
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();
    Served {
        child,
        addr,
        _stdout: reader,
    }
}

/// One HTTP/1.1 exchange; the status and the body.
fn http(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.unwrap_or("");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("response");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    // Chunked bodies: keep the JSON or HTML between the chunk sizes.
    let body = if text
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

#[test]
fn serve_starts_and_serves_the_ui_and_the_api() {
    let dir = std::env::temp_dir().join(format!("acies-serve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("acies.db");
    let _ = std::fs::remove_file(&db);
    let served = start(&db);

    let (status, page) = http(&served.addr, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("data-testid=\"app\""), "the UI page: {page}");

    let (status, systems) = http(&served.addr, "GET", "/api/systems", None);
    assert_eq!(status, 200);
    let systems: serde_json::Value = serde_json::from_str(&systems).expect("systems JSON");
    let onus = systems
        .as_array()
        .and_then(|list| list.iter().find(|s| s["id"] == "onus"))
        .unwrap_or_else(|| panic!("ONUS! is not listed: {systems}"));
    assert_eq!(
        (&onus["name"], &onus["seats"]),
        (&serde_json::json!("ONUS!"), &serde_json::json!([2, 6]))
    );

    let (status, catalog) = http(&served.addr, "GET", "/api/onus/catalog", None);
    assert_eq!(status, 200);
    let catalog: serde_json::Value = serde_json::from_str(&catalog).expect("catalog JSON");
    assert!(catalog["presets"].as_array().is_some_and(|p| !p.is_empty()));

    let setup = r#"{"setup": {"players": [{"army": {"preset": "romans-1000"}}, {"army": {"preset": "celts-1000"}}]},
                    "seats": [{"seat": "1", "kind": "computer"}]}"#;
    let (status, created) = http(&served.addr, "POST", "/api/onus/games", Some(setup));
    assert_eq!(status, 201, "{created}");
    let created: serde_json::Value = serde_json::from_str(&created).unwrap();
    let id = created["game_id"].as_str().unwrap();
    let token = created["seats"][0]["token"].as_str().unwrap();
    let (status, view) = http(
        &served.addr,
        "GET",
        &format!("/api/onus/games/{id}/view?token={token}"),
        None,
    );
    assert_eq!(status, 200, "{view}");
    assert!(db.exists(), "the SQLite file is created on first start");
    drop(served);
    let _ = std::fs::remove_dir_all(&dir);
}

//! The browser test harness of acies: a real ONUS! server (the one `acies serve` runs: API,
//! catalog and web UI) on 127.0.0.1 with an ephemeral port and a temporary SQLite file, and
//! headless Chromium (Debian's `/usr/bin/chromium`) driven through playwright-core.
//!
//! ```no_run
//! use acies_e2e::{Server, browser, testid};
//!
//! let browser = browser(); // fails the test when Chromium, Node.js or the driver is missing
//! let server = Server::start();
//! let page = browser.page(&server.url("/")).unwrap();
//! page.wait_for(testid("app")).unwrap();
//! page.click(testid("new-game")).unwrap();
//! page.screenshot("lobby").unwrap();
//! ```
//!
//! Why playwright-core and not a Rust CDP client: the Chromium of this platform (156 when this
//! was written) is far newer than the protocol types a Rust client generates at its release,
//! and such clients are known to drop messages they cannot parse; playwright-core is released
//! with each Chromium and waits for elements to be actionable by itself. The driver is a small
//! Node script (`driver/driver.mjs`) that takes one JSON command per line; everything a test
//! writes stays Rust and runs under `cargo test`.

mod driver;
mod server;

pub use driver::{Browser, Context, E2eError, Page, Target, css, testid};
pub use server::Server;

use std::path::{Path, PathBuf};

/// The workspace root (three levels above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Where screenshots go: `artifacts/e2e/` at the workspace root (created on first use, with a
/// `.gitignore` so they are never committed).
pub fn artifacts_dir() -> PathBuf {
    workspace_root().join("artifacts").join("e2e")
}

/// The variable that makes [`doc_screenshot`] refresh the pictures in `docs/screenshots/`.
pub const DOC_SCREENSHOTS: &str = "ACIES_DOC_SCREENSHOTS";

/// Takes a screenshot of `page` (in [`artifacts_dir`]) and, when [`DOC_SCREENSHOTS`] is set,
/// keeps a copy as `docs/screenshots/{name}.png`, the pictures the README and the docs show.
/// A plain test run leaves the tracked pictures alone (it used to rewrite them all, a
/// pixel's difference each time); `ACIES_DOC_SCREENSHOTS=1 cargo test -p acies-e2e`
/// refreshes them. Returns where the picture is.
pub fn doc_screenshot(page: &Page, name: &str) -> Result<PathBuf, E2eError> {
    let shot = page.screenshot(name)?;
    if std::env::var_os(DOC_SCREENSHOTS).is_none() {
        return Ok(shot);
    }
    let docs = workspace_root().join("docs").join("screenshots");
    let kept = docs.join(format!("{name}.png"));
    std::fs::create_dir_all(&docs)
        .and_then(|()| std::fs::copy(&shot, &kept))
        .map_err(|e| E2eError(format!("cannot keep {}: {e}", kept.display())))?;
    Ok(kept)
}

/// What the browser tests need, or what is missing.
#[derive(Clone, Debug)]
pub struct Requirements {
    pub chromium: PathBuf,
    pub node: PathBuf,
    pub driver: PathBuf,
    pub missing: Vec<String>,
}

/// Looks for Chromium (`ACIES_E2E_CHROMIUM`, default `/usr/bin/chromium`), Node.js
/// (`ACIES_E2E_NODE`, default `node` on the PATH) and the driver's playwright-core
/// (`npm ci --prefix crates/platform/e2e/driver`).
pub fn requirements() -> Requirements {
    let chromium = std::env::var_os("ACIES_E2E_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let node = std::env::var_os("ACIES_E2E_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("driver");
    let mut missing = Vec::new();
    if !chromium.is_file() {
        missing.push(format!(
            "Chromium at {} (apt-get install chromium)",
            chromium.display()
        ));
    }
    let node_ok = std::process::Command::new(&node)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !node_ok {
        missing.push(format!(
            "Node.js as {} (apt-get install nodejs npm)",
            node.display()
        ));
    }
    if !driver
        .join("node_modules/playwright-core/package.json")
        .is_file()
    {
        missing.push(format!(
            "playwright-core in {} (npm ci --prefix {})",
            driver.display(),
            driver.display()
        ));
    }
    Requirements {
        chromium,
        node,
        driver,
        missing,
    }
}

/// A browser for one test.
///
/// # Panics
///
/// When Chromium, Node.js or playwright-core is missing or the browser does not start: a
/// browser test never passes by skipping. `cargo xtask test` (the README's test command)
/// installs what is missing before it runs the tests.
pub fn browser() -> Browser {
    let req = requirements();
    if !req.missing.is_empty() {
        panic!(
            "the browser tests need {}; `cargo xtask test` installs them and runs every test",
            req.missing.join("; ")
        );
    }
    match Browser::launch(&req) {
        Ok(b) => b,
        Err(e) => panic!("the browser did not start: {e}"),
    }
}

/// Clicks the `button.act` of a table page whose `data-action` is `action` (the JSON the page
/// got from the server: the engine's listing of it), once the panel shows it (5 s at most,
/// the panel may still be drawing), then waits (20 s at most) until the page's
/// `window.__acies` has a newer version and is no longer busy. On failure: what the page
/// offered, and a screenshot `shot`.
pub fn click_action(page: &Page, action: &serde_json::Value, shot: &str) -> Result<(), String> {
    let key = serde_json::to_string(&action.to_string()).map_err(|e| e.to_string())?;
    let find = format!(
        "return [...document.querySelectorAll('button.act')].findIndex((b) => b.dataset.action === {key})"
    );
    let index = |page: &Page| page.eval(&find).ok().and_then(|v| v.as_i64()).unwrap_or(-1);
    let mut i = index(page);
    for _ in 0..50 {
        if i >= 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        i = index(page);
    }
    let Ok(n) = usize::try_from(i) else {
        let _ = page.screenshot(shot);
        let offered = page
            .eval(
                "return [...document.querySelectorAll('button.act')].map((b) => b.dataset.action)",
            )
            .unwrap_or_default();
        return Err(format!("no button for {action}; the page offers {offered}"));
    };
    let before = page
        .eval("return window.__acies.version")
        .map_err(|e| e.to_string())?;
    page.click(css("button.act").nth(n))
        .map_err(|e| e.to_string())?;
    page.wait_until_for(
        &format!("window.__acies.version > {before} && !window.__acies.busy"),
        std::time::Duration::from_secs(20),
    )
    .map(|_| ())
    .map_err(|e| {
        let _ = page.screenshot(shot);
        format!("after clicking {action}: {e}")
    })
}

/// Starts recording on `page` every "thinking" sign it shows (the computer may act), for
/// [`thinking_seen`]: the sign can come and go between two polls.
pub fn watch_thinking(page: &Page) -> Result<(), E2eError> {
    page.eval(
        "window.__thinking = []; \
         const seen = () => { const el = document.querySelector('[data-testid=thinking]'); \
           if (el && !el.hidden && el.textContent) window.__thinking.push(el.textContent.trim()); }; \
         new MutationObserver(seen).observe(document.body, \
           {subtree: true, childList: true, attributes: true, characterData: true}); \
         return true;",
    )
    .map(|_| ())
}

/// The texts of the "thinking" signs `page` showed since [`watch_thinking`].
pub fn thinking_seen(page: &Page) -> Vec<String> {
    page.eval("return window.__thinking || []")
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

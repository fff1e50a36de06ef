//! The Rust side of the browser driver: a Node process running `driver/driver.mjs`, spoken to
//! in JSON lines; [`Browser`], [`Context`] and [`Page`] are handles on what it holds.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Requirements;

/// The Chromium flags that work on this platform (no sandbox as root, no GPU, no network
/// chatter to Google's hosts); playwright adds its own, a fresh temporary profile included.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// How long one command may take before the harness gives up on the driver (element waits
/// time out earlier, in the driver, with a better message).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// A browser test step that failed: the driver's message (Playwright's, with what it waited
/// for), or why the driver could not be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct E2eError(pub String);

impl std::fmt::Display for E2eError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for E2eError {}

fn err(message: impl Into<String>) -> E2eError {
    E2eError(message.into())
}

/// What to act on: an element by `data-testid` or by CSS selector; `nth` picks one of several
/// (from 0), otherwise exactly one must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    testid: Option<String>,
    css: Option<String>,
    nth: Option<usize>,
    first: bool,
}

/// The element(s) with `data-testid="id"`.
pub fn testid(id: &str) -> Target {
    Target {
        testid: Some(id.to_owned()),
        css: None,
        nth: None,
        first: false,
    }
}

/// The element(s) matching a CSS selector.
pub fn css(selector: &str) -> Target {
    Target {
        testid: None,
        css: Some(selector.to_owned()),
        nth: None,
        first: false,
    }
}

impl Target {
    /// The `n`-th match (from 0).
    pub fn nth(mut self, n: usize) -> Target {
        self.nth = Some(n);
        self
    }

    /// The first match.
    pub fn first(mut self) -> Target {
        self.first = true;
        self
    }

    fn json(&self) -> Value {
        let mut v = json!({});
        if let Some(obj) = v.as_object_mut() {
            if let Some(t) = &self.testid {
                obj.insert("testid".into(), t.clone().into());
            }
            if let Some(c) = &self.css {
                obj.insert("css".into(), c.clone().into());
            }
            if let Some(n) = self.nth {
                obj.insert("nth".into(), n.into());
            }
            if self.first {
                obj.insert("first".into(), true.into());
            }
        }
        v
    }
}

struct Io {
    stdin: ChildStdin,
    replies: Receiver<Value>,
    next: u64,
}

struct Inner {
    io: Mutex<Io>,
    child: Mutex<Child>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    version: String,
}

/// A lock that a panicking test left poisoned is still fine to use: every use is one whole
/// request and reply.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inner {
    fn stderr_tail(&self) -> String {
        let lines = lock(&self.stderr);
        if lines.is_empty() {
            String::new()
        } else {
            format!(
                "\ndriver stderr:\n{}",
                lines.iter().cloned().collect::<Vec<_>>().join("\n")
            )
        }
    }

    fn call(&self, mut command: Value) -> Result<Value, E2eError> {
        let mut io = lock(&self.io);
        io.next += 1;
        let id = io.next;
        if let Some(obj) = command.as_object_mut() {
            obj.insert("id".into(), id.into());
        }
        let line = format!("{command}\n");
        io.stdin
            .write_all(line.as_bytes())
            .and_then(|()| io.stdin.flush())
            .map_err(|e| err(format!("the driver is gone ({e}){}", self.stderr_tail())))?;
        // A command with its own time limit (waits) gets that much more.
        let own = Duration::from_millis(command["timeout"].as_u64().unwrap_or(0));
        let deadline = Instant::now() + COMMAND_TIMEOUT + own;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match io.replies.recv_timeout(left) {
                Ok(reply) if reply["id"] == id => {
                    return if reply["ok"] == true {
                        Ok(reply.get("value").cloned().unwrap_or(Value::Null))
                    } else {
                        Err(err(format!(
                            "{}: {}",
                            command["cmd"].as_str().unwrap_or("command"),
                            reply["error"].as_str().unwrap_or("failed")
                        )))
                    };
                }
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(err(format!(
                        "no answer from the driver to {command} in {COMMAND_TIMEOUT:?}{}",
                        self.stderr_tail()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(err(format!(
                        "the driver stopped while running {command}{}",
                        self.stderr_tail()
                    )));
                }
            }
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        {
            let mut io = lock(&self.io);
            let _ = io
                .stdin
                .write_all(b"{\"cmd\":\"quit\"}\n")
                .and_then(|()| io.stdin.flush());
        }
        let mut child = lock(&self.child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// One headless Chromium, closed when the last handle on it is dropped.
#[derive(Clone)]
pub struct Browser {
    inner: Arc<Inner>,
}

impl Browser {
    /// Starts the driver and the browser (see [`crate::browser`] for the usual entry).
    pub fn launch(req: &Requirements) -> Result<Browser, E2eError> {
        let options = json!({
            "executablePath": req.chromium,
            "args": CHROMIUM_FLAGS,
        });
        let mut child = Command::new(&req.node)
            .arg(req.driver.join("driver.mjs"))
            .arg(options.to_string())
            .current_dir(&req.driver)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| err(format!("cannot start {}: {e}", req.node.display())))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(err("the driver's pipes are missing"));
        };
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Ok(v) = serde_json::from_str::<Value>(&line)
                    && tx.send(v).is_err()
                {
                    break;
                }
            }
        });
        let tail: Arc<Mutex<VecDeque<String>>> = Arc::new(Mutex::new(VecDeque::new()));
        let sink = tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = lock(&sink);
                if t.len() >= 40 {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let ready = replies.recv_timeout(Duration::from_secs(90));
        let version = match ready {
            Ok(v) if v["ok"] == true => v["value"]["version"].as_str().unwrap_or("").to_owned(),
            other => {
                let _ = child.kill();
                let _ = child.wait();
                std::thread::sleep(Duration::from_millis(100));
                let why = lock(&tail).iter().cloned().collect::<Vec<_>>().join("\n");
                return Err(err(format!("the browser did not start ({other:?}): {why}")));
            }
        };
        Ok(Browser {
            inner: Arc::new(Inner {
                io: Mutex::new(Io {
                    stdin,
                    replies,
                    next: 0,
                }),
                child: Mutex::new(child),
                stderr: tail,
                version,
            }),
        })
    }

    /// Chromium's version.
    pub fn version(&self) -> &str {
        &self.inner.version
    }

    /// A fresh browsing context (its own cookies and local storage: one per player).
    pub fn context(&self) -> Result<Context, E2eError> {
        let id = self.inner.call(json!({ "cmd": "new_context" }))?;
        Ok(Context {
            inner: self.inner.clone(),
            id: id.as_u64().ok_or_else(|| err("no context id"))?,
        })
    }

    /// A fresh browsing context whose pages have a `width` x `height` CSS-pixel viewport
    /// (the default is 1400 x 900).
    pub fn context_sized(&self, width: u32, height: u32) -> Result<Context, E2eError> {
        let id = self.inner.call(json!({
            "cmd": "new_context",
            "viewport": { "width": width, "height": height },
        }))?;
        Ok(Context {
            inner: self.inner.clone(),
            id: id.as_u64().ok_or_else(|| err("no context id"))?,
        })
    }

    /// A page at `url` in a context of its own.
    pub fn page(&self, url: &str) -> Result<Page, E2eError> {
        let ctx = self.context()?;
        let mut page = ctx.page(url)?;
        page._context = Some(Arc::new(ctx));
        Ok(page)
    }

    /// [`Browser::page`] with a `width` x `height` viewport (e.g. 1280 x 800, a small laptop).
    pub fn page_sized(&self, url: &str, width: u32, height: u32) -> Result<Page, E2eError> {
        let ctx = self.context_sized(width, height)?;
        let mut page = ctx.page(url)?;
        page._context = Some(Arc::new(ctx));
        Ok(page)
    }
}

/// A browsing context: pages opened in it share storage (a player's tabs).
pub struct Context {
    inner: Arc<Inner>,
    id: u64,
}

impl Context {
    /// A new page at `url` in this context.
    pub fn page(&self, url: &str) -> Result<Page, E2eError> {
        let id = self
            .inner
            .call(json!({ "cmd": "new_page", "context": self.id, "url": url }))?;
        Ok(Page {
            inner: self.inner.clone(),
            id: id.as_u64().ok_or_else(|| err("no page id"))?,
            _context: None,
        })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let _ = self
            .inner
            .call(json!({ "cmd": "close_context", "context": self.id }));
    }
}

/// One tab. Every element command waits (up to 10 s) for its target to be there and
/// actionable, as Playwright does.
pub struct Page {
    inner: Arc<Inner>,
    id: u64,
    /// The context a page opened with [`Browser::page`] lives in.
    _context: Option<Arc<Context>>,
}

impl Page {
    fn call(&self, cmd: &str, mut args: Value) -> Result<Value, E2eError> {
        if let Some(obj) = args.as_object_mut() {
            obj.insert("cmd".into(), cmd.into());
            obj.insert("page".into(), self.id.into());
        }
        self.inner.call(args)
    }

    /// Navigates; returns the URL reached.
    pub fn goto(&self, url: &str) -> Result<String, E2eError> {
        self.call("goto", json!({ "url": url }))
            .map(|v| v.as_str().unwrap_or("").to_owned())
    }

    /// The page's URL now.
    pub fn url(&self) -> Result<String, E2eError> {
        self.call("url", json!({}))
            .map(|v| v.as_str().unwrap_or("").to_owned())
    }

    /// Clicks the target (waiting for it to be visible, stable and enabled).
    pub fn click(&self, target: Target) -> Result<(), E2eError> {
        self.call("click", json!({ "target": target.json() }))
            .map(drop)
    }

    /// Replaces the text of an input or textarea.
    pub fn fill(&self, target: Target, text: &str) -> Result<(), E2eError> {
        self.call("fill", json!({ "target": target.json(), "text": text }))
            .map(drop)
    }

    /// Presses a key in the target (`"Enter"`, `"Escape"`, `"Control+A"`...).
    pub fn press(&self, target: Target, key: &str) -> Result<(), E2eError> {
        self.call("press", json!({ "target": target.json(), "key": key }))
            .map(drop)
    }

    /// Chooses an option of a `<select>` by value or label.
    pub fn select(&self, target: Target, value: &str) -> Result<(), E2eError> {
        self.call("select", json!({ "target": target.json(), "value": value }))
            .map(drop)
    }

    /// Waits until the target is visible.
    pub fn wait_for(&self, target: Target) -> Result<(), E2eError> {
        self.call("wait_for", json!({ "target": target.json() }))
            .map(drop)
    }

    /// Waits until the target is in `state`: `"visible"`, `"hidden"`, `"attached"` or
    /// `"detached"`, for at most `timeout`.
    pub fn wait_for_state(
        &self,
        target: Target,
        state: &str,
        timeout: Duration,
    ) -> Result<(), E2eError> {
        self.call(
            "wait_for",
            json!({ "target": target.json(), "state": state,
                    "timeout": timeout.as_millis() as u64 }),
        )
        .map(drop)
    }

    /// The target's rendered text.
    pub fn text(&self, target: Target) -> Result<String, E2eError> {
        self.call("text", json!({ "target": target.json() }))
            .map(|v| v.as_str().unwrap_or("").to_owned())
    }

    /// An attribute of the target, if set.
    pub fn attribute(&self, target: Target, name: &str) -> Result<Option<String>, E2eError> {
        self.call(
            "attribute",
            json!({ "target": target.json(), "name": name }),
        )
        .map(|v| v.as_str().map(str::to_owned))
    }

    /// How many elements match (no waiting).
    pub fn count(&self, target: Target) -> Result<usize, E2eError> {
        self.call("count", json!({ "target": target.json() }))
            .map(|v| v.as_u64().unwrap_or(0) as usize)
    }

    /// Whether the target is visible now (no waiting).
    pub fn is_visible(&self, target: Target) -> Result<bool, E2eError> {
        self.call("visible", json!({ "target": target.json() }))
            .map(|v| v.as_bool().unwrap_or(false))
    }

    /// Evaluates JavaScript in the page: an expression (`"document.title"`) or a function
    /// body with `return` (may `await`); the JSON value of the result.
    pub fn eval(&self, js: &str) -> Result<Value, E2eError> {
        self.call("eval", json!({ "js": js }))
    }

    /// Waits until a JavaScript expression (or body with `return`) is truthy (10 s at most);
    /// its value.
    pub fn wait_until(&self, js: &str) -> Result<Value, E2eError> {
        self.call("wait_until", json!({ "js": js }))
    }

    /// [`Page::wait_until`] with another time limit.
    pub fn wait_until_for(&self, js: &str, timeout: Duration) -> Result<Value, E2eError> {
        self.call(
            "wait_until",
            json!({ "js": js, "timeout": timeout.as_millis() as u64 }),
        )
    }

    /// Saves a screenshot of the viewport as `artifacts/e2e/{name}.png`; its path.
    pub fn screenshot(&self, name: &str) -> Result<PathBuf, E2eError> {
        let dir = crate::artifacts_dir();
        std::fs::create_dir_all(&dir)
            .map_err(|e| err(format!("cannot create {}: {e}", dir.display())))?;
        if let Some(artifacts) = dir.parent() {
            let ignore = artifacts.join(".gitignore");
            if !ignore.exists() {
                let _ = std::fs::write(&ignore, "*\n");
            }
        }
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!("{safe}.png"));
        self.call("screenshot", json!({ "path": path }))?;
        Ok(path)
    }

    /// Errors the page reported so far (uncaught exceptions, `console.error`).
    pub fn problems(&self) -> Result<Vec<String>, E2eError> {
        let v = self.call("problems", json!({}))?;
        Ok(v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default())
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.call("close_page", json!({}));
    }
}

//! The acies web shell, served by the acies binary itself.
//!
//! Plain ES modules and CSS under `assets/`, embedded in the binary at compile time (no
//! front-end build step, nothing fetched at run time): the lobby of every rule system (listed
//! by `GET /api/systems`), the API client, the shared widgets (dice log, replay viewer, game
//! list, dialogs) and the loader of each system's *table module*. A rule system's table module
//! is another set of embedded files ([`TableModule`], e.g. `onus_web::module()`), whose
//! `index.js` implements the small interface described in this crate's README.
//!
//! [`router`] serves:
//!
//! * `index.html` for `/`, `/{system}/games/{id}` (seat links carry `?token=...`, spectator
//!   links none), `/{system}/games/{id}/replay`, and the older `/games/{id}[/replay]` (the
//!   first system's);
//! * the shell's files under `/assets/...`, each table module's under `/systems/{system}/...`,
//!   and the list of systems with a table module at `/systems/modules.json`.
//!
//! The pages talk to the server's `/api` only (see `crates/platform/server/README.md`): the
//! client never decides a rule, it shows what the engine answers.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// One embedded file.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// Path under `assets/`, e.g. `"js/app.js"`.
    pub path: &'static str,
    pub bytes: &'static [u8],
}

/// Embeds files of the calling crate's `assets/` folder: `embed_assets!["index.js", "js/x.js"]`
/// is a `&'static [Asset]`.
#[macro_export]
macro_rules! embed_assets {
    ($($p:literal),* $(,)?) => {
        &[$($crate::Asset {
            path: $p,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/", $p)),
        }),*]
    };
}

/// Every file of the shell (a test checks that this list matches the `assets/` folder).
pub const SHELL: &[Asset] = embed_assets![
    "index.html",
    "favicon.svg",
    "css/grid.css",
    "css/shell.css",
    "js/api.js",
    "js/app.js",
    "js/computer.js",
    "js/correspond.js",
    "js/dialogs.js",
    "js/dicelog.js",
    "js/dom.js",
    "js/gamepage.js",
    "js/grid.js",
    "js/lobby.js",
    "js/mygames.js",
    "js/newgame.js",
    "js/patch.js",
    "js/replay.js",
    "js/rules.js",
    "js/systems.js",
];

/// A rule system's part of the browser UI: its files, served under `/systems/{system}/`,
/// `index.js` among them (the module the shell imports; see the README for its interface).
#[derive(Clone, Copy, Debug)]
pub struct TableModule {
    /// The system's id (`SystemInfo::id`).
    pub system: &'static str,
    pub assets: &'static [Asset],
}

impl TableModule {
    /// A file of the module.
    pub fn asset(&self, path: &str) -> Option<&'static Asset> {
        self.assets.iter().find(|a| a.path == path)
    }
}

/// The content type of a file, from its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// A file of the shell by its path under `assets/`.
pub fn asset(path: &str) -> Option<&'static Asset> {
    SHELL.iter().find(|a| a.path == path)
}

/// The page's Content-Security-Policy: only our own scripts, styles and connections (the
/// WebSocket included); inline style attributes are allowed (SVG tables set some).
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; \
                   base-uri 'none'; form-action 'self'";

fn serve(asset: &Asset) -> Response {
    let mut res = asset.bytes.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(asset.path)),
    );
    // Small files, embedded in the binary: revalidate so a new binary is picked up at once.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if asset.path.ends_with(".html") {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
    }
    res
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such asset").into_response()
}

async fn index() -> Response {
    match asset("index.html") {
        Some(a) => serve(a),
        None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn shell_file(Path(path): Path<String>) -> Response {
    match asset(&path) {
        Some(a) if a.path != "index.html" => serve(a),
        _ => not_found(),
    }
}

fn module_file(modules: &[TableModule], system: &str, path: &str) -> Response {
    modules
        .iter()
        .find(|m| m.system == system)
        .and_then(|m| m.asset(path))
        .map_or_else(not_found, serve)
}

/// The web client with the table modules of `modules`: mount it beside the API
/// (`acies_server::ServeConfig::with_ui`).
pub fn router(modules: &[TableModule]) -> Router {
    let modules: Arc<Vec<TableModule>> = Arc::new(modules.to_vec());
    let ids: Vec<&'static str> = modules.iter().map(|m| m.system).collect();
    let manifest = serde_json::json!({ "modules": ids }).to_string();
    let files = modules.clone();
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/games/{id}", get(index))
        .route("/games/{id}/replay", get(index))
        .route("/{system}/games/{id}", get(index))
        .route("/{system}/games/{id}/replay", get(index))
        .route(
            "/favicon.ico",
            get(|| shell_file(Path("favicon.svg".into()))),
        )
        .route("/assets/{*path}", get(shell_file))
        .route(
            "/systems/modules.json",
            get(move || async move {
                (
                    [(header::CONTENT_TYPE, "application/json")],
                    manifest.clone(),
                )
            }),
        )
        .route(
            "/systems/{system}/{*path}",
            get(
                move |Path((system, path)): Path<(String, String)>| async move {
                    module_file(&files, &system, &path)
                },
            ),
        )
}

/// The files of `assets/` under `root` (relative paths, sorted): what a crate's asset list
/// must match (the tests of the shell and of each table module check it).
pub fn files_under(root: &std::path::Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir)? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(root) {
                found.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The modules a script imports (`import ... from '...'` and `} from '...'` lines).
pub fn imports(script: &str) -> Vec<&str> {
    script
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("import ") || l.starts_with("} from "))
        .filter_map(|l| {
            let start = l.find(['\'', '"'])?;
            let quote = l[start..].chars().next()?;
            let rest = &l[start + 1..];
            rest.find(quote).map(|end| &rest[..end])
        })
        .collect()
}

/// Where an import of the script `from` (a URL path) resolves, as a URL path.
pub fn resolve(from: &str, import: &str) -> String {
    if import.starts_with('/') {
        return import.to_owned();
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in import.split('/') {
        match seg {
            "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// What a table module's test checks: its asset list is the files of its `assets/` folder
/// (`root`), and every module its scripts import is served, by the module itself (a relative
/// import) or by the shell (`/assets/...`). The first problem found, in words.
pub fn check_module(module: &TableModule, root: &std::path::Path) -> Result<(), String> {
    let mut listed: Vec<String> = module.assets.iter().map(|a| a.path.to_owned()).collect();
    listed.sort();
    let found = files_under(root).map_err(|e| format!("{}: {e}", root.display()))?;
    if found != listed {
        return Err(format!(
            "the files {found:?} are not the asset list {listed:?}"
        ));
    }
    let prefix = format!("/systems/{}/", module.system);
    for a in module.assets.iter().filter(|a| a.path.ends_with(".js")) {
        let from = format!("{prefix}{}", a.path);
        let script = std::str::from_utf8(a.bytes).map_err(|e| format!("{from}: {e}"))?;
        for import in imports(script) {
            let url = resolve(&from, import);
            let served = match (url.strip_prefix(&prefix), url.strip_prefix("/assets/")) {
                (Some(own), _) => module.asset(own).is_some(),
                (_, Some(shell)) => asset(shell).is_some(),
                _ => false,
            };
            if !served {
                return Err(format!(
                    "{from} imports {import} ({url}), which is not served"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    const TOY: TableModule = TableModule {
        system: "toy",
        assets: &[Asset {
            path: "index.js",
            bytes: b"export default {};",
        }],
    };

    async fn get_path(path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
        let res = router(&[TOY])
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let ct = res
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_owned());
        let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
        (status, ct, body)
    }

    #[tokio::test]
    async fn index_is_served_for_the_pages() {
        for path in [
            "/",
            "/games/abc123",
            "/games/abc123?token=t0k3n",
            "/games/abc123/replay",
            "/onus/games/abc123?token=t0k3n",
            "/dice-race/games/abc123/replay",
        ] {
            let (status, ct, body) = get_path(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(ct.as_deref(), Some("text/html; charset=utf-8"), "{path}");
            let text = String::from_utf8(body).unwrap();
            assert!(text.contains("/assets/js/app.js"), "{path}");
        }
    }

    #[tokio::test]
    async fn shell_and_module_files_have_their_content_types() {
        for a in SHELL.iter().filter(|a| a.path != "index.html") {
            let (status, ct, body) = get_path(&format!("/assets/{}", a.path)).await;
            assert_eq!(status, StatusCode::OK, "{}", a.path);
            assert_eq!(ct.as_deref(), Some(content_type(a.path)));
            assert_eq!(body, a.bytes);
        }
        let (status, ct, body) = get_path("/systems/toy/index.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(ct.as_deref(), Some("text/javascript; charset=utf-8"));
        assert_eq!(body, b"export default {};");
        let (status, _, body) = get_path("/systems/modules.json").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, br#"{"modules":["toy"]}"#);
    }

    #[tokio::test]
    async fn unknown_files_are_404() {
        for path in [
            "/assets/js/nope.js",
            "/assets/../Cargo.toml",
            "/assets/index.html",
            "/systems/toy/nope.js",
            "/systems/other/index.js",
            "/systems/toy/../../Cargo.toml",
        ] {
            let (status, _, _) = get_path(path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
    }

    #[tokio::test]
    async fn html_has_a_content_security_policy() {
        let res = router(&[])
            .oneshot(Request::get("/").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let csp = res.headers().get(header::CONTENT_SECURITY_POLICY).unwrap();
        assert!(csp.to_str().unwrap().contains("script-src 'self'"));
    }

    #[test]
    fn imports_resolve_like_a_browser() {
        assert_eq!(
            imports("import { h } from './dom.js';\n} from \"/assets/js/x.js\";\nconst a = 1;"),
            vec!["./dom.js", "/assets/js/x.js"]
        );
        assert_eq!(
            resolve("/assets/js/app.js", "./dom.js"),
            "/assets/js/dom.js"
        );
        assert_eq!(
            resolve("/systems/onus/index.js", "./js/game.js"),
            "/systems/onus/js/game.js"
        );
        assert_eq!(
            resolve("/systems/onus/js/game.js", "../index.js"),
            "/systems/onus/index.js"
        );
        assert_eq!(resolve("/x/y.js", "/assets/js/dom.js"), "/assets/js/dom.js");
    }

    /// Every file under `assets/` is embedded, and every module a shell script imports is a
    /// shell file (a forgotten file would only show in the browser).
    #[test]
    fn the_asset_list_matches_the_folder_and_imports_resolve() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut listed: Vec<String> = SHELL.iter().map(|a| a.path.to_owned()).collect();
        listed.sort();
        assert_eq!(files_under(&root).unwrap(), listed);
        for a in SHELL.iter().filter(|a| a.path.ends_with(".js")) {
            let from = format!("/assets/{}", a.path);
            for import in imports(std::str::from_utf8(a.bytes).unwrap()) {
                let url = resolve(&from, import);
                let path = url.strip_prefix("/assets/").unwrap_or(&url);
                assert!(
                    asset(path).is_some(),
                    "{from} imports {import}, which is no shell file"
                );
            }
        }
    }
}

//! The ONUS! table in the browser, served by the acies binary itself.
//!
//! Plain ES modules and CSS under `assets/`, embedded in the binary at compile time (no
//! front-end build step, nothing fetched at run time). [`router`] serves:
//!
//! * `index.html` for `/`, `/games/{id}` (seat links carry `?token=...`, spectator links
//!   none) and `/games/{id}/replay`;
//! * the assets under `/assets/...` with their content types.
//!
//! The page talks to the server's `/api` only (see `crates/platform/server/README.md` and
//! `crates/onus/server/README.md`): the client never decides a rule, it shows what the engine
//! answers.

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

macro_rules! assets {
    ($($p:literal),* $(,)?) => {
        &[$(Asset {
            path: $p,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/", $p)),
        }),*]
    };
}

/// Every file of the client (a test checks that this list matches the `assets/` folder).
pub const ASSETS: &[Asset] = assets![
    "index.html",
    "favicon.svg",
    "css/app.css",
    "js/api.js",
    "js/app.js",
    "js/cards.js",
    "js/dialogs.js",
    "js/dicelog.js",
    "js/dom.js",
    "js/game.js",
    "js/geom.js",
    "js/hand.js",
    "js/lobby.js",
    "js/mygames.js",
    "js/panel.js",
    "js/patch.js",
    "js/replay.js",
    "js/table.js",
    "js/toml.js",
];

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

/// An embedded file by its path under `assets/`.
pub fn asset(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// The page's Content-Security-Policy: only our own scripts, styles and connections (the
/// WebSocket included); inline style attributes are allowed (the SVG table sets some).
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

async fn index() -> Response {
    match asset("index.html") {
        Some(a) => serve(a),
        None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn game_page(Path(_id): Path<String>) -> Response {
    index().await
}

async fn system_page(Path(_ids): Path<(String, String)>) -> Response {
    index().await
}

async fn file(Path(path): Path<String>) -> Response {
    match asset(&path) {
        Some(a) if a.path != "index.html" => serve(a),
        _ => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

/// The web client: `index.html` for `/`, `/games/{id}` and `/games/{id}/replay`, and the
/// assets under `/assets/`. Mount it beside the API (`ServeConfig::with_ui`).
pub fn router() -> Router {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/games/{id}", get(game_page))
        .route("/games/{id}/replay", get(game_page))
        .route("/{system}/games/{id}", get(system_page))
        .route("/{system}/games/{id}/replay", get(system_page))
        .route(
            "/favicon.ico",
            get(|| async { file(Path("favicon.svg".into())).await }),
        )
        .route("/assets/{*path}", get(file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    async fn get_path(path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
        let res = router()
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
        ] {
            let (status, ct, body) = get_path(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(ct.as_deref(), Some("text/html; charset=utf-8"), "{path}");
            let text = String::from_utf8(body).unwrap();
            assert!(text.contains("/assets/js/app.js"), "{path}");
        }
    }

    #[tokio::test]
    async fn assets_have_their_content_types() {
        let cases = [
            ("/assets/js/app.js", "text/javascript; charset=utf-8"),
            ("/assets/js/table.js", "text/javascript; charset=utf-8"),
            ("/assets/css/app.css", "text/css; charset=utf-8"),
            ("/assets/favicon.svg", "image/svg+xml"),
        ];
        for (path, want) in cases {
            let (status, ct, body) = get_path(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(ct.as_deref(), Some(want), "{path}");
            assert!(!body.is_empty(), "{path}");
        }
        for a in ASSETS {
            let (status, ct, body) = get_path(&format!("/assets/{}", a.path)).await;
            if a.path == "index.html" {
                continue;
            }
            assert_eq!(status, StatusCode::OK, "{}", a.path);
            assert_eq!(ct.as_deref(), Some(content_type(a.path)));
            assert_eq!(body, a.bytes);
        }
    }

    #[tokio::test]
    async fn unknown_assets_are_404() {
        for path in [
            "/assets/js/nope.js",
            "/assets/../Cargo.toml",
            "/assets/index.html",
        ] {
            let (status, _, _) = get_path(path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
    }

    #[tokio::test]
    async fn html_has_a_content_security_policy() {
        let res = router()
            .oneshot(Request::get("/").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let csp = res.headers().get(header::CONTENT_SECURITY_POLICY).unwrap();
        assert!(csp.to_str().unwrap().contains("script-src 'self'"));
    }

    /// Every file under `assets/` is embedded, and every module an embedded script imports
    /// exists (a forgotten file would only show in the browser).
    #[test]
    fn the_asset_list_matches_the_folder_and_imports_resolve() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p
                        .strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    on_disk.push(rel);
                }
            }
        }
        on_disk.sort();
        let mut listed: Vec<String> = ASSETS.iter().map(|a| a.path.to_owned()).collect();
        listed.sort();
        assert_eq!(on_disk, listed);

        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            let text = std::str::from_utf8(a.bytes).unwrap();
            for line in text.lines() {
                let line = line.trim();
                if !(line.starts_with("import ") || line.starts_with("} from ")) {
                    continue;
                }
                let Some(start) = line.find("'./") else {
                    continue;
                };
                let rest = &line[start + 3..];
                let name = &rest[..rest.find('\'').unwrap()];
                assert!(
                    asset(&format!("js/{name}")).is_some(),
                    "{} imports ./{name}, which is not embedded",
                    a.path
                );
            }
        }
    }
}

//! The ONUS! table module of the acies web shell (`acies_web`), embedded in the binary.
//!
//! Plain ES modules and CSS under `assets/` (no front-end build step): `index.js` implements
//! the shell's table-module interface (the new-game form, the game page, the replay board; see
//! `crates/platform/web/README.md`), the rest is the SVG table, the side panel, the hand, the
//! decisions, the event descriptions and the army builder. The shell serves it under
//! `/systems/onus/`; its scripts import the shell's widgets from `/assets/js/`.
//!
//! The client never decides a rule: every action goes to the server, every preview is a query
//! (`crates/onus/server/README.md`), and what the page shows is the view the server filtered
//! for its viewer.

use acies_web::{Asset, TableModule, embed_assets};

/// Every file of the module (a test checks that this list matches the `assets/` folder).
pub const ASSETS: &[Asset] = embed_assets![
    "index.js",
    "css/table.css",
    "js/armybuilder.js",
    "js/cards.js",
    "js/editor.js",
    "js/events.js",
    "js/fortress.js",
    "js/game.js",
    "js/geom.js",
    "js/hand.js",
    "js/newgame.js",
    "js/onusapi.js",
    "js/panel.js",
    "js/table.js",
];

/// ONUS!'s table module, for `acies_web::router`.
pub fn module() -> TableModule {
    TableModule {
        system: "onus",
        assets: ASSETS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acies_web::{files_under, imports, resolve};
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// Every file under `assets/` is embedded, and every module a script imports exists:
    /// in this module (relative imports) or in the shell (`/assets/...`).
    #[test]
    fn the_asset_list_matches_the_folder_and_imports_resolve() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut listed: Vec<String> = ASSETS.iter().map(|a| a.path.to_owned()).collect();
        listed.sort();
        assert_eq!(files_under(&root).unwrap(), listed);
        let module = module();
        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            let from = format!("/systems/onus/{}", a.path);
            for import in imports(std::str::from_utf8(a.bytes).unwrap()) {
                let url = resolve(&from, import);
                let found = match (
                    url.strip_prefix("/systems/onus/"),
                    url.strip_prefix("/assets/"),
                ) {
                    (Some(own), _) => module.asset(own).is_some(),
                    (_, Some(shell)) => acies_web::asset(shell).is_some(),
                    _ => false,
                };
                assert!(
                    found,
                    "{from} imports {import} ({url}), which is not embedded"
                );
            }
        }
    }

    #[tokio::test]
    async fn the_shell_serves_the_module() {
        let res = acies_web::router(&[module()])
            .oneshot(
                Request::get("/systems/onus/index.js")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let body = res.into_body().collect().await.unwrap().to_bytes();
        assert!(
            std::str::from_utf8(&body)
                .unwrap()
                .contains("export default")
        );
    }
}

//! The Command Points square-grid table module of the acies web shell (`acies_web`), embedded
//! in the binary.
//!
//! Plain ES modules and CSS under `assets/` (no front-end build step): `index.js` implements
//! the shell's table-module interface (the new-game form, the game page, the replay board; see
//! `crates/platform/web/README.md`); `js/board.js` draws the grid (terrain, linear obstacles,
//! camps, units with their facing and markers); `js/game.js` is the game page (the engine's
//! choices as buttons, exact odds, the player's own cards, decisions, hotseat hand-over, the
//! dice log); `js/words.js` says each event and action in words. The shell serves it under
//! `/systems/command-points/`.
//!
//! The client never decides a rule: every button is an action the engine listed
//! (`choices` and `unit_options` queries of `command-points-server`), every number of a fight
//! comes from the server's odds, and what the page shows is the view the server filtered for
//! its viewer.

use acies_web::{Asset, TableModule, embed_assets};

/// Every file of the module (a test checks that this list matches the `assets/` folder).
pub const ASSETS: &[Asset] = embed_assets![
    "index.js",
    "css/table.css",
    "js/board.js",
    "js/game.js",
    "js/newgame.js",
    "js/words.js",
];

/// The system's id, the folder the shell serves the module under.
pub const SYSTEM: &str = "command-points";

/// The Command Points table module, for `acies_web::router`.
pub fn module() -> TableModule {
    TableModule {
        system: SYSTEM,
        assets: ASSETS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// Every file under `assets/` is embedded, and every module a script imports exists:
    /// in this module (relative imports) or in the shell (`/assets/...`).
    #[test]
    fn the_asset_list_matches_the_folder_and_imports_resolve() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        acies_web::check_module(&module(), &root).unwrap();
    }

    #[tokio::test]
    async fn the_shell_serves_the_module() {
        let res = acies_web::router(&[module()])
            .oneshot(
                Request::get("/systems/command-points/index.js")
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

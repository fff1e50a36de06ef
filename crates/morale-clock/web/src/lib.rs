//! The Morale Clock table module of the acies web shell (`acies_web`), embedded in the binary.
//!
//! Plain ES modules and CSS under `assets/` (no front-end build step): `index.js` implements
//! the shell's table-module interface (the new-game form, the game page, the replay board; see
//! `crates/platform/web/README.md`); `js/table.js` draws the table in inches (terrain, bases
//! with their facing, DMZ markers, leaders, ghosts), `js/game.js` is the game page (the
//! half-turn's steps, orders with a ghost the engine checks, volleys and melees with their
//! exact odds, both Morale Clocks, the log), `js/events.js` says what each event was. The
//! shell serves it under `/systems/morale-clock/`.
//!
//! The client decides no rule: every action goes to the server, every preview and every odds
//! figure is a query answered by the engine (`crates/morale-clock/server/README.md`).

use acies_web::{Asset, TableModule, embed_assets};

/// Every file of the module (a test checks that this list matches the `assets/` folder).
pub const ASSETS: &[Asset] = embed_assets![
    "index.js",
    "css/table.css",
    "js/api.js",
    "js/events.js",
    "js/game.js",
    "js/newgame.js",
    "js/table.js",
];

/// The module, for `acies_web::router`.
pub fn module() -> TableModule {
    TableModule {
        system: "morale-clock",
        assets: ASSETS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acies_web::{files_under, imports, resolve};

    /// Every file under `assets/` is embedded, and every module a script imports exists:
    /// in this module (relative imports) or in the shell (`/assets/...`).
    #[test]
    fn the_asset_list_matches_the_folder_and_imports_resolve() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut listed: Vec<String> = ASSETS.iter().map(|a| a.path.to_owned()).collect();
        listed.sort();
        assert_eq!(files_under(&root).unwrap(), listed);
        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            let from = format!("/systems/morale-clock/{}", a.path);
            for import in imports(std::str::from_utf8(a.bytes).unwrap()) {
                let url = resolve(&from, import);
                let found = match (
                    url.strip_prefix("/systems/morale-clock/"),
                    url.strip_prefix("/assets/"),
                ) {
                    (Some(own), _) => module().asset(own).is_some(),
                    (_, Some(shell)) => acies_web::asset(shell).is_some(),
                    _ => false,
                };
                assert!(
                    found,
                    "{} imports {import} ({url}), which is not served",
                    a.path
                );
            }
        }
    }
}

//! The O/THW Ancients table module of the acies web shell (`acies_web`), embedded in the
//! binary.
//!
//! Plain ES modules and CSS under `assets/` (no front-end build step): `index.js` implements
//! the shell's table-module interface (the new-game form, the game page, the replay board; see
//! `crates/platform/web/README.md`); `js/board.js` draws the battle on the platform's square
//! grid (`/assets/js/grid.js`: terrain, units with facing, strength, leadership, fleeing,
//! pursuit, rampage and generals); `js/game.js` is the game page on the platform's
//! `GamePage` (the engine's legal actions highlighted, a unit's or a group's moves and
//! combats with their exact odds, the activation die, both armies' morale, the dice log);
//! `js/words.js` says each event and action in words. The shell serves it under
//! `/systems/othw/`.
//!
//! The client never decides a rule: every highlight and button is an action the engine
//! listed (the `legal` and `actions` queries of `othw-server`), and every number of a round
//! comes from the engine's odds.

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
pub const SYSTEM: &str = "othw";

/// The O/THW table module, for `acies_web::router`.
pub fn module() -> TableModule {
    TableModule {
        system: SYSTEM,
        assets: ASSETS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files are embedded, every import is served, and the stylesheets the module names
    /// from the shell (the shared grid) exist.
    #[test]
    fn the_module_and_the_shared_grid_are_served() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        acies_web::check_module(&module(), &root).unwrap();
        let index = std::str::from_utf8(module().asset("index.js").unwrap().bytes).unwrap();
        assert!(index.contains("'/assets/css/grid.css'"));
        assert!(acies_web::asset("css/grid.css").is_some());
    }
}

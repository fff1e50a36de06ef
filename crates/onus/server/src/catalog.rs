//! The public data a "new game" form needs: factions, unit and General cards, the preset
//! armies, the deck's cards (titles and texts) and the optional rules — all of it the same for
//! every player, so it is served to anyone (`GET /api/onus/catalog`).

use std::sync::OnceLock;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use onus_cards::{CombatTemplate, Deck, EventEffect, OrderEffect};
use onus_model::Rank;
use onus_model::army;
use onus_model::data::Catalog;
use serde_json::{Value, json};

/// One optional rule of XII-A (or XII-B) as the form shows it.
fn option(key: &str, kind: &str, rule: &str, title: &str) -> Value {
    json!({ "key": key, "type": kind, "rule": rule, "title": title })
}

fn options() -> Vec<Value> {
    let mut out = vec![
        option(
            "always_active_general",
            "bool",
            "XII-A Always-active general",
            "The General's unit is active every turn without an order",
        ),
        option(
            "several_generals",
            "bool",
            "XII-A Several generals",
            "Armies may field more Generals: allied contingents under their own Generals (army lists), or more of the faction's (extra_generals per player)",
        ),
        option(
            "no_events",
            "bool",
            "XII-A Playing without events",
            "No random events in fights; only events played from hand",
        ),
        option(
            "protected_flanks",
            "bool",
            "XII-A Protected flanks",
            "A friendly unit close beside a flank protects it",
        ),
        option(
            "advancing_in_line",
            "bool",
            "XII-A Advancing in line",
            "Discard 2 cards to activate a line of units",
        ),
        option(
            "intimidating_dromedaries",
            "bool",
            "XII-A Intimidating dromedaries",
            "Dromedaries frighten horses",
        ),
        option(
            "reinforced_units",
            "bool",
            "XII-A Reinforced units",
            "+2 health for every unit",
        ),
    ];
    let mut fog = option(
        "fog_of_war",
        "number",
        "XII-A Fog of war",
        "Enemy units farther than this from all of yours stay face down",
    );
    let mut visibility = option(
        "limited_visibility",
        "object",
        "XII-A Limited visibility",
        "No shots beyond a maximum range; -1 to shots beyond a nearer one",
    );
    let mut order = option(
        "turn_order",
        "enum",
        "XII-B Games with 4 or 6 players",
        "How allied players take their turns",
    );
    if let Some(o) = fog.as_object_mut() {
        o.insert("unit".into(), "DU".into());
        o.insert("default".into(), 8.into());
    }
    if let Some(o) = visibility.as_object_mut() {
        o.insert(
            "fields".into(),
            json!([
                { "key": "max_range", "title": "max range (DU)", "unit": "DU", "default": 8 },
                { "key": "penalty_beyond", "title": "-1 beyond (DU)", "unit": "DU", "default": 4 },
            ]),
        );
    }
    if let Some(o) = order.as_object_mut() {
        o.insert("values".into(), json!(["alternating", "allied", "team"]));
        o.insert("default".into(), "alternating".into());
    }
    out.extend([fog, visibility, order]);
    out
}

/// The section of the rulebook an order is explained in, for the rules reader: XI for the
/// order it details, V "Orders" for the others.
pub fn order_section(effect: &OrderEffect) -> &'static str {
    match effect {
        OrderEffect::Stampede => "XI Stampede",
        _ => "V Orders",
    }
}

/// The section of the rulebook an event is explained in, for the rules reader: XI for the
/// events it details, V "Events" for the others.
pub fn event_section(effect: &EventEffect) -> &'static str {
    match effect {
        EventEffect::Veteran => "XI Veterans and elites",
        EventEffect::WindChanges => "XI The wind changes",
        EventEffect::Combat { combat }
            if combat
                .iter()
                .any(|t| matches!(t, CombatTemplate::Ambush { .. })) =>
        {
            "XI Ambush"
        }
        EventEffect::Combat { combat }
            if combat
                .iter()
                .any(|t| matches!(t, CombatTemplate::ThrowJavelins)) =>
        {
            "XI Throw javelins"
        }
        _ => "V Events",
    }
}

fn build() -> Result<Value, String> {
    let catalog = Catalog::builtin().map_err(|e| format!("the built-in cards: {e}"))?;
    let presets = army::builtin(&catalog).map_err(|e| format!("the preset armies: {e}"))?;
    let deck = Deck::builtin().map_err(|e| format!("the built-in deck: {e}"))?;
    let factions: Vec<Value> = catalog
        .factions()
        .map(|f| {
            json!({ "id": f.id, "name": f.name, "description": f.description,
                    "mercenary": f.mercenary, "max_units": f.max_units })
        })
        .collect();
    let units: Vec<&onus_model::UnitCard> = catalog.units().collect();
    let generals: Vec<&onus_model::GeneralCard> = catalog.generals().collect();
    let presets: Vec<Value> = presets
        .iter()
        .map(|(list, value)| {
            json!({
                "id": list.id,
                "name": list.name,
                "faction": list.faction,
                "general": value.general,
                "points": list.points,
                "value": value.total,
                "units": value.units.iter().map(|l| json!({
                    "unit": l.unit, "name": l.name, "rank": l.rank, "count": l.count,
                    "mercenary": l.mercenary,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let cards: Vec<Value> = deck
        .cards()
        .map(|c| {
            json!({
                "id": c.id,
                "order": { "id": c.order.id, "type": c.order.kind, "title": c.order.title,
                           "text": c.order.text, "rule": order_section(&c.order.effect) },
                "event": { "id": c.event.id, "title": c.event.title, "text": c.event.text,
                           "icons": c.event.icons, "rule": event_section(&c.event.effect) },
            })
        })
        .collect();
    let ranks: Vec<Value> = [Rank::Regular, Rank::Veteran, Rank::Elite]
        .iter()
        .map(|r| json!({ "id": r, "pct": r.cost_increase_pct() }))
        .collect();
    Ok(json!({
        "factions": factions,
        "units": units,
        "generals": generals,
        "presets": presets,
        "deck": { "name": deck.name, "notice": deck.notice, "size": deck.len(), "cards": cards },
        "options": options(),
        // The army builder's bounds and the ranks' surcharges (XI), as the engine has them.
        "ranks": ranks,
        "army_bounds": {
            "points": [army::POINTS.start(), army::POINTS.end()],
            "count": [army::COUNT.start(), army::COUNT.end()],
            "max_units": army::MAX_UNITS,
            "text_chars": army::MAX_TEXT_CHARS,
        },
        "seats": { "min": onus_game::setup::PLAYERS.start(), "max": onus_game::setup::PLAYERS.end() },
        // Only those a game can be played on (T&F IV: every kind the game plays).
        "battlefields": onus_terrain::builtin::playable()?,
        // T&F VI: the siege scenarios (ours), each with the engine's setup that starts it.
        "scenarios": scenarios()?,
        "help": crate::help::help(),
    }))
}

/// The shipped siege scenarios (T&F VI "Scenarios with fortresses", `onus_game::scenarios`)
/// the game plays: what a lobby shows, and the setup the engine makes of each.
fn scenarios() -> Result<Vec<Value>, String> {
    onus_game::scenarios::builtin()?
        .into_iter()
        .filter(onus_game::scenarios::SiegeScenario::playable)
        .map(|s| {
            let setup = serde_json::to_value(s.setup()).map_err(|e| e.to_string())?;
            Ok(json!({
                "id": s.id,
                "name": s.name,
                "description": s.description,
                "origin": s.origin.id(),
                "battlefield": s.battlefield,
                "points": s.points,
                "attacker": s.attacker.army,
                "defender": s.defender.army,
                "setup": setup,
            }))
        })
        .collect()
}

/// The catalog as JSON (built once; the built-in data is compiled in).
pub fn catalog() -> Result<&'static Value, &'static str> {
    static CATALOG: OnceLock<Result<Value, String>> = OnceLock::new();
    CATALOG.get_or_init(build).as_ref().map_err(String::as_str)
}

/// The preset armies alone.
pub fn presets() -> Result<Value, &'static str> {
    catalog().map(|c| json!({ "presets": c["presets"] }))
}

fn answer(result: Result<Value, &'static str>) -> Response {
    match result {
        Ok(v) => (
            [(header::CACHE_CONTROL, "public, max-age=300")],
            axum::Json(v),
        )
            .into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            axum::Json(json!({ "error": e, "code": "catalog_unavailable" })),
        )
            .into_response(),
    }
}

/// `GET /catalog`, `GET /presets`, `POST /battlefields/check`, `POST /armies/check` and `POST
/// /scenarios/check` ([`crate::battlefields`], [`crate::armies`], [`crate::sieges`]), mounted under `/api/onus` ([`crate::OnusHost`]'s routes).
pub fn api_routes() -> Router {
    Router::new()
        .route("/catalog", get(|| async { answer(catalog().cloned()) }))
        .route("/presets", get(|| async { answer(presets()) }))
        .route(
            "/battlefields/check",
            post(crate::battlefields::check_route),
        )
        .route("/armies/check", post(crate::armies::check_route))
        .route("/scenarios/check", post(crate::sieges::check_route))
}

//! What one viewer must not learn at a moment of the game, and a search of anything sent to
//! that viewer for it: the audit behind the fog-of-war tests (XII-A "Fog of war", VI
//! face-down deployment). The rules never use it; tests and checkers do.
//!
//! Two searches: the text (the names and card ids of the units whose face the viewer may not
//! see, unless something the viewer does see shares them) and the shape (an event about a
//! face-down unit must not carry its markers or a roll against its values; a view must not
//! list it under a General's command).

use std::collections::BTreeSet;

use acies_core::Viewer;
use serde_json::Value;

use crate::state::{GameState, Seat};
use crate::view::sees_face;

/// Events whose whole content is a unit's markers or its check: not for those who may not
/// see the unit's face.
const MARKER_EVENTS: [&str; 7] = [
    "morale_check",
    "unit_rallied",
    "unit_healed",
    "unit_broken",
    "unit_fled",
    "flight_blocked",
    "markers_removed",
];

/// The fields of an event or a decision that name a unit.
const UNIT_FIELDS: [&str; 5] = ["unit", "attacker", "defender", "target", "elephants"];

/// What `viewer` may not know of `state` (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Units on the table whose face the viewer may not see.
    face_down: BTreeSet<u64>,
    /// Those and the others' undeployed units: never under a General's command in the view.
    unseen: BTreeSet<u64>,
    /// Card ids of those units, quoted as in JSON, that no card the viewer sees shares.
    card_ids: BTreeSet<String>,
    /// Their names, unless part of a text the viewer sees anyway (a visible card, an army).
    names: BTreeSet<String>,
}

impl Secrets {
    /// What `viewer` may not know of `state`.
    pub fn of(state: &GameState, viewer: Viewer<Seat>) -> Secrets {
        let mut s = Secrets::default();
        let mut hidden_cards = Vec::new();
        let mut shown = Shown::default();
        for u in state.table.units() {
            if sees_face(state, viewer, u.id) {
                shown.card(&u.card);
            } else {
                s.face_down.insert(u64::from(u.id.0));
                hidden_cards.push(&u.card);
            }
        }
        for p in state.players.iter() {
            shown.text(&p.army_name);
            shown.text(&p.faction);
            p.generals.iter().for_each(|g| shown.json(&g.card));
            p.eliminated.values().for_each(|c| shown.card(c));
            for r in &p.reserve {
                if viewer == Viewer::Seat(p.seat) {
                    shown.card(&r.card);
                } else {
                    s.unseen.insert(u64::from(r.id.0));
                    hidden_cards.push(&r.card);
                }
            }
        }
        if let Ok(deck) = state.deck() {
            deck.orders().iter().for_each(|o| shown.text(&o.title));
            deck.events().iter().for_each(|e| shown.text(&e.title));
        }
        s.unseen.extend(s.face_down.iter().copied());
        for c in hidden_cards {
            if !shown.strings.contains(&c.id) {
                s.card_ids.insert(format!("\"{}\"", c.id));
            }
            if !shown.strings.iter().any(|t| t.contains(&c.name)) {
                s.names.insert(c.name.clone());
            }
        }
        s
    }

    /// Whether nothing is secret (no unit is face down for the viewer).
    pub fn is_empty(&self) -> bool {
        self.unseen.is_empty()
    }

    /// The first leak in `message` (anything sent to the viewer, as JSON), described.
    pub fn leak(&self, message: &Value) -> Option<String> {
        let text = message.to_string();
        if let Some(id) = self.card_ids.iter().find(|id| text.contains(id.as_str())) {
            return Some(format!("the face-down card id {id}"));
        }
        if let Some(name) = self.names.iter().find(|n| text.contains(n.as_str())) {
            return Some(format!("the face-down unit name \"{name}\""));
        }
        self.shape_leak(message)
    }

    /// Walks every object of `v` for an event, a view or a decision that tells too much.
    fn shape_leak(&self, v: &Value) -> Option<String> {
        match v {
            Value::Array(items) => items.iter().find_map(|x| self.shape_leak(x)),
            Value::Object(map) => self
                .object_leak(v)
                .or_else(|| map.values().find_map(|x| self.shape_leak(x))),
            _ => None,
        }
    }

    fn object_leak(&self, v: &Value) -> Option<String> {
        if let Some(kind) = v.get("event").and_then(Value::as_str) {
            return self.event_leak(kind, v);
        }
        if let Some(kind) = v.get("decision").and_then(Value::as_str) {
            let unit = v.get("elephants").or_else(|| v.get("unit"));
            let characterising = kind != "withdrawal";
            return (characterising && self.is_face_down(unit))
                .then(|| format!("a {kind} decision about a face-down unit: {v}"));
        }
        if let Some(commands) = v.get("commands").and_then(Value::as_array) {
            return commands
                .iter()
                .find(|u| self.unseen.contains(&u.as_u64().unwrap_or(u64::MAX)))
                .map(|u| format!("a General's command list names unseen unit {u}"));
        }
        if v.get("hidden") == Some(&Value::Bool(true)) {
            let shown = ["card", "state", "turn"]
                .iter()
                .any(|k| v.get(*k).is_some_and(|x| !x.is_null()));
            return shown.then(|| format!("a face-down unit shown: {v}"));
        }
        None
    }

    fn is_face_down(&self, unit: Option<&Value>) -> bool {
        unit.and_then(Value::as_u64)
            .is_some_and(|u| self.face_down.contains(&u))
    }

    /// The face-down units an event names.
    fn named(&self, e: &Value) -> Vec<u64> {
        UNIT_FIELDS
            .iter()
            .filter_map(|f| e.get(*f).and_then(Value::as_u64))
            .filter(|u| self.face_down.contains(u))
            .collect()
    }

    fn event_leak(&self, kind: &str, e: &Value) -> Option<String> {
        let named = self.named(e);
        if named.is_empty() {
            return None;
        }
        if MARKER_EVENTS.contains(&kind) {
            return Some(format!("a {kind} event about face-down unit {}", named[0]));
        }
        let mut rolls = Vec::new();
        rolls_in(e, &mut rolls);
        let open = rolls.iter().find(|r| {
            r["target"]["need"]["kind"] != "secret"
                || r["target"]["operands"]
                    .as_array()
                    .is_some_and(|o| !o.is_empty())
        });
        open.map(|r| {
            format!(
                "a {kind} event shows a roll against face-down unit {}: {r}",
                named[0]
            )
        })
    }
}

/// Every roll record (an object with a purpose, dice and a target) inside `v`.
fn rolls_in<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Array(items) => items.iter().for_each(|x| rolls_in(x, out)),
        Value::Object(map) => {
            if map.contains_key("purpose") && map.contains_key("dice") && map.contains_key("target")
            {
                out.push(v);
            } else {
                map.values().for_each(|x| rolls_in(x, out));
            }
        }
        _ => {}
    }
}

/// The texts a viewer sees anyway: a secret that is part of one of them is no leak.
#[derive(Default)]
struct Shown {
    strings: BTreeSet<String>,
}

impl Shown {
    fn text(&mut self, s: &str) {
        self.strings.insert(s.to_owned());
    }

    fn card(&mut self, card: &onus_model::UnitCard) {
        self.json(card);
    }

    /// Every string inside `x` serialized (names, ids, abilities, kinds).
    fn json(&mut self, x: &impl serde::Serialize) {
        if let Ok(v) = serde_json::to_value(x) {
            self.leaves(&v);
        }
    }

    fn leaves(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.text(s),
            Value::Array(items) => items.iter().for_each(|x| self.leaves(x)),
            Value::Object(map) => {
                for (k, x) in map {
                    self.text(k);
                    self.leaves(x);
                }
            }
            _ => {}
        }
    }
}

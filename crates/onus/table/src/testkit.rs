//! Cards and tables for the tests.

#![allow(dead_code)]

use std::collections::BTreeSet;

use acies_geom::{Pose, Vec2};
use onus_model::{
    Ability, AttackValues, DefenseValues, Formation, RangedValues, UnitCard, UnitKind,
};

use crate::table::Table;
use crate::unit::{TableUnit, UnitId};

pub(crate) fn card(name: &str, kind: UnitKind, movement: f64) -> UnitCard {
    UnitCard {
        id: name.to_lowercase(),
        name: name.into(),
        faction: String::new(),
        kind,
        attack: AttackValues { hit: 3, damage: 3 },
        ranged: None,
        defense: DefenseValues { dodge: 4, armor: 6 },
        morale: 7,
        health: 8,
        movement,
        value: 100,
        abilities: BTreeSet::new(),
        formations: BTreeSet::new(),
        size: None,
    }
}

pub(crate) fn infantry() -> UnitCard {
    card("Legionaries", UnitKind::Infantry, 2.0)
}

pub(crate) fn cavalry(movement: f64) -> UnitCard {
    card("Cavalry", UnitKind::Mounted, movement)
}

pub(crate) fn with(mut card: UnitCard, ability: Ability) -> UnitCard {
    card.abilities.insert(ability);
    card
}

pub(crate) fn forms(mut card: UnitCard, f: Formation) -> UnitCard {
    card.formations.insert(f);
    card
}

pub(crate) fn archers(range: f64) -> UnitCard {
    let mut c = card("Archers", UnitKind::Infantry, 2.0);
    c.ranged = Some(RangedValues { power: 3, range });
    c
}

pub(crate) fn pose(x: f64, y: f64, heading_deg: f64) -> Pose {
    Pose::new(Vec2::new(x, y), heading_deg.to_radians())
}

pub(crate) fn put(table: &mut Table, id: u32, owner: u8, card: UnitCard, p: Pose) -> UnitId {
    let u = TableUnit::new(UnitId(id), owner, card, p);
    match table.add(u) {
        Ok(()) => UnitId(id),
        Err(e) => panic!("cannot place unit {id}: {e}"),
    }
}

pub(crate) fn big_table() -> Table {
    Table::new(40.0, 30.0)
}

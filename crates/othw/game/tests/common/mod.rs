//! Small battles on an open 8 x 8 board with fixed dice.
#![allow(dead_code)]

use acies_core::{RollRecord, ScriptedDice};
use acies_grid::{Board, Cell, Facing};
use othw_game::action::{Action, Event, RuleError};
use othw_game::state::{GameState, Side};
use othw_game::turn::{apply_with, check, new_game};
use othw_model::{Army, ArmyUnit, Class, General, Profile, Scenario, Setup, Trait};

/// A profile: MOVES/ATTACKS/DEFENCE/STRENGTH/LEADERSHIP and traits.
#[allow(clippy::too_many_arguments)]
pub fn prof(
    name: &str,
    class: Class,
    m: u8,
    a: u8,
    d: u8,
    s: u8,
    l: u8,
    traits: &[Trait],
) -> Profile {
    Profile {
        id: name.to_lowercase().replace(' ', "-"),
        name: name.into(),
        class,
        moves: m,
        attacks: a,
        defence: d,
        strength: s,
        leadership: l,
        retreat_tests: 3,
        traits: traits.to_vec(),
    }
}

/// Heavy infantry: 1 move, A3 D4 S4 L4.
pub fn hi() -> Profile {
    prof("Heavy infantry", Class::Infantry, 1, 3, 4, 4, 4, &[])
}

pub fn skirm() -> Profile {
    prof(
        "Skirmishers",
        Class::Infantry,
        3,
        1,
        5,
        2,
        5,
        &[Trait::Skirmisher, Trait::LooseOrder, Trait::FreeTurner],
    )
}

pub fn elephant(kind: Trait) -> Profile {
    prof("Elephants", Class::Elephant, 2, 4, 4, 4, 5, &[kind])
}

/// A unit of a test battle.
pub struct U(pub Side, pub Profile, pub (i32, i32), pub Facing);

/// A battle with these units (ids in order) and a reserve unit per side in a far corner
/// (ids after them), South to play its first phase of turn 1. `general`: a general for a
/// side, with the unit of that index.
pub fn battle(units: Vec<U>, generals: Vec<(Side, General)>) -> GameState {
    let reserve = prof("Reserve", Class::Infantry, 1, 1, 4, 4, 2, &[]);
    let mut all = units;
    all.push(U(Side::South, reserve.clone(), (7, 0), Facing::North));
    all.push(U(Side::North, reserve, (0, 7), Facing::South));
    let mut armies = [Side::South, Side::North].map(|side| Army {
        id: format!("{side}"),
        name: format!("{side}"),
        units: Vec::new(),
        general: None,
    });
    for (i, u) in all.iter().enumerate() {
        armies[u.0.index()].units.push(ArmyUnit {
            profile: u.1.clone(),
            at: Cell::new(i as i32 % 8, i as i32 / 8),
        });
    }
    for (side, mut g) in generals {
        let index = all.iter().take(g.with).filter(|u| u.0 == side).count();
        g.with = index;
        armies[side.index()].general = Some(g);
    }
    let setup = Setup {
        scenario: Scenario::open(Board::new(8, 8).unwrap(), 30),
        armies,
    };
    let mut s = new_game(&setup, 7).expect("a battle");
    // Ids follow the armies: south's units first. Put every unit where the test says.
    let mut by_side = [0usize, 0usize];
    let south_count = all.iter().filter(|u| u.0 == Side::South).count();
    let mut order = Vec::new();
    for u in &all {
        let id = match u.0 {
            Side::South => by_side[0],
            Side::North => south_count + by_side[1],
        };
        by_side[u.0.index()] += 1;
        order.push(id);
        s.units[id].at = Cell::new(u.2.0, u.2.1);
        s.units[id].facing = u.3;
    }
    // Renumber so that ids follow the test's order.
    let mut units = Vec::new();
    for (new_id, &old) in order.iter().enumerate() {
        let mut u = s.units[old].clone();
        u.id = new_id;
        units.push(u);
    }
    for side in [Side::South, Side::North] {
        if let Some(g) = s.armies[side.index()].general.as_mut() {
            let old = g.with.unwrap();
            g.with = order.iter().position(|&o| o == old);
        }
    }
    s.units = units;
    s.first = Side::South;
    s.active = Side::South;
    s
}

/// Applies `action` with exactly `dice`, all of which must be rolled.
pub fn act(s: &GameState, side: Side, action: Action, dice: &[u8]) -> (GameState, Vec<Event>) {
    let mut d = ScriptedDice::new(dice.iter().copied());
    let applied =
        apply_with(s, side, &action, &mut d).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    assert_eq!(
        d.unused(),
        0,
        "dice left over: {events:#?}",
        events = applied.events
    );
    assert_eq!(
        d.overran(),
        0,
        "too few dice scripted: {events:#?}",
        events = applied.events
    );
    othw_game::invariants::check(s, &applied.state).expect("invariants");
    (applied.state, applied.events)
}

/// The rule error of a refused action.
pub fn refused(s: &GameState, side: Side, action: Action) -> RuleError {
    check(s, side, &action).expect_err("refused")
}

pub fn rolls(events: &[Event]) -> Vec<&RollRecord> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Roll(r) => Some(r),
            _ => None,
        })
        .collect()
}

pub fn cell(s: &GameState, id: usize) -> (i32, i32) {
    (s.units[id].at.col, s.units[id].at.row)
}

/// Two heavy infantry units face to face, south's at (3, 3) facing north, with these
/// generals; `first` plays the phase.
pub fn face_off(generals: Vec<(Side, General)>, first: Side) -> GameState {
    let units = vec![
        U(Side::South, hi(), (3, 3), Facing::North),
        U(Side::North, hi(), (3, 4), Facing::South),
    ];
    let mut s = battle(units, generals);
    s.first = first;
    s.active = first;
    s
}

/// `a` (south, at (3, 3) facing north) and `d` (north, at (3, 4), facing `d_facing`).
pub fn duel(a: Profile, d: Profile, d_facing: Facing) -> GameState {
    battle(
        vec![
            U(Side::South, a, (3, 3), Facing::North),
            U(Side::North, d, (3, 4), d_facing),
        ],
        vec![],
    )
}

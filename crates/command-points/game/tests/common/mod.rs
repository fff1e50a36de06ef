//! Helpers for the procedure tests: small armies on an open table, prepared positions, and
//! actions with scripted dice that must all be rolled.

#![allow(dead_code)]

use acies_core::ScriptedDice;
use acies_grid::{Board, Cell, Facing};
use command_points_game::{
    Action, Event, GameState, Position, Prepared, UnitId, apply_with_dice, prepared,
};
use command_points_model::{
    ArmySetup, CardKind, Characteristic, Deck, DeckEntry, GeneralProfile, LineKind, Points,
    Profile, Scenario, Seat, Setup, Terrain, TerrainPatch, Troop, UnitSetup,
};

pub fn profile(
    id: &str,
    troop: Troop,
    chars: &[Characteristic],
    combat: u8,
    manoeuvre: u8,
    discipline: u8,
) -> Profile {
    Profile {
        id: id.into(),
        name: id.into(),
        troop,
        characteristics: chars.to_vec(),
        combat,
        ranged: 0,
        range: 0,
        manoeuvre,
        discipline,
    }
}

pub fn legion() -> Profile {
    profile(
        "legion",
        Troop::Infantry,
        &[Characteristic::Drilled, Characteristic::RomanLegion],
        4,
        3,
        6,
    )
}
pub fn warband() -> Profile {
    profile(
        "warband",
        Troop::Infantry,
        &[Characteristic::Warband],
        4,
        5,
        8,
    )
}
pub fn cavalry() -> Profile {
    profile("cavalry", Troop::Cavalry, &[], 3, 4, 7)
}
pub fn skirmishers() -> Profile {
    let mut p = profile(
        "skirmishers",
        Troop::LightInfantry,
        &[Characteristic::Skirmish, Characteristic::RangedMissile],
        1,
        3,
        7,
    );
    p.ranged = 2;
    p.range = 2;
    p
}
pub fn archers() -> Profile {
    let mut p = profile(
        "archers",
        Troop::Infantry,
        &[Characteristic::RangedMissile],
        2,
        4,
        7,
    );
    p.ranged = 3;
    p.range = 3;
    p
}

pub fn unit(p: Profile) -> UnitSetup {
    UnitSetup {
        profile: p,
        lines: vec![],
        general: false,
    }
}
pub fn with_lines(p: Profile, lines: &[LineKind]) -> UnitSetup {
    UnitSetup {
        profile: p,
        lines: lines.to_vec(),
        general: false,
    }
}
pub fn with_general(p: Profile) -> UnitSetup {
    UnitSetup {
        profile: p,
        lines: vec![],
        general: true,
    }
}

pub fn army(units: Vec<UnitSetup>, points: Points, generalship: u8) -> ArmySetup {
    let mut units = units;
    if !units.iter().any(|u| u.general) {
        if let Some(u) = units.last_mut() {
            u.general = true;
        }
    }
    ArmySetup {
        army: "test".into(),
        preset: "test".into(),
        name: "Test army".into(),
        break_point: 12,
        points,
        general: GeneralProfile {
            name: "Test general".into(),
            generalship,
        },
        units,
    }
}

/// A deck of Setback cards worth 1 and Disaster cards worth 3, with a few other values.
pub fn deck() -> Deck {
    Deck {
        setback: vec![
            DeckEntry { value: 0, count: 4 },
            DeckEntry {
                value: 1,
                count: 30,
            },
            DeckEntry { value: 2, count: 6 },
        ],
        disaster: vec![
            DeckEntry {
                value: 3,
                count: 12,
            },
            DeckEntry { value: 4, count: 4 },
        ],
    }
}

pub fn scenario(cols: u16, rows: u16, terrain: Vec<(Terrain, Vec<Cell>)>) -> Scenario {
    Scenario {
        id: "test".into(),
        name: "Test table".into(),
        board: Board::new(cols, rows).expect("board"),
        deploy_rows: 2,
        turns: 10,
        terrain: terrain
            .into_iter()
            .map(|(terrain, cells)| TerrainPatch { terrain, cells })
            .collect(),
        obstacles: vec![],
        camps: [None, None],
    }
}

pub fn setup(south: ArmySetup, north: ArmySetup, scenario: Scenario) -> Setup {
    Setup {
        scenario,
        armies: [south, north],
        deck: deck(),
    }
}

pub fn c(col: i32, row: i32) -> Cell {
    Cell::new(col, row)
}

pub fn at(unit: u16, cell: Cell, facing: Facing) -> Position {
    Position {
        unit: UnitId(unit),
        cell,
        facing,
        disordered: false,
    }
}

pub fn battle(setup: &Setup, positions: Vec<Position>) -> GameState {
    battle_with(
        setup,
        Prepared {
            positions,
            first: Some(Seat::South),
            ..Prepared::default()
        },
    )
}

pub fn battle_with(setup: &Setup, prep: Prepared) -> GameState {
    prepared(setup, 7, &prep).expect("prepared battle")
}

/// Applies an action with exactly these dice (all must be rolled, no more).
pub fn play(s: &GameState, seat: Seat, action: Action, dice: &[u8]) -> (GameState, Vec<Event>) {
    let mut d = ScriptedDice::new(dice.iter().copied());
    let applied = apply_with_dice(s, seat, &action, &mut d)
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    assert_eq!(
        d.unused(),
        0,
        "{action:?}: {} scripted dice not rolled",
        d.unused()
    );
    assert_eq!(
        d.overran(),
        0,
        "{action:?}: {} dice rolled beyond the script",
        d.overran()
    );
    (applied.state, applied.events)
}

pub fn refused(s: &GameState, seat: Seat, action: Action) -> command_points_game::RuleError {
    let mut d = ScriptedDice::new([]);
    match apply_with_dice(s, seat, &action, &mut d) {
        Ok(_) => panic!("{action:?} was accepted"),
        Err(e) => e,
    }
}

pub fn cell_of(s: &GameState, unit: u16) -> Option<Cell> {
    s.unit(UnitId(unit)).and_then(|u| u.cell())
}

pub fn cards(s: &GameState, seat: Seat, kind: CardKind) -> usize {
    s.player(seat)
        .cards
        .iter()
        .filter(|c| c.card.kind == kind)
        .count()
}

pub fn has_event(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

pub fn no_points() -> Points {
    Points::default()
}

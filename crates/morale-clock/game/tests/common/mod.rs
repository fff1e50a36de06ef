//! Battles laid out by hand for the sheet's tests: bases placed where a test needs them, the
//! half-turn and phase set, dice forced where a test needs them through the state's seed.
#![allow(dead_code)]

use acies_core::{Applied, Ruleset};
use acies_geom::{Pose, Vec2};
use morale_clock_game::{
    Action, Command, Event, GameError, GameState, MoraleClock, Phase, Setup, Step, UnitId,
};
use morale_clock_model::{
    Army, ArmyUnit, Catalog, Profile, Quality, Scenario, SideId, Terrain, TerrainKind, TroopType,
};

pub const A: SideId = SideId::A;
pub const B: SideId = SideId::B;

pub fn catalog() -> Catalog {
    Catalog::builtin().expect("the shipped data loads")
}

/// A unit of `troop` with our data's numbers and `qualities`.
pub fn profile(name: &str, troop: TroopType, qualities: &[Quality]) -> Profile {
    let mut p = catalog()
        .troop(troop)
        .expect("every type has numbers")
        .profile(name);
    p.qualities = qualities.iter().copied().collect();
    p
}

/// One base of a test battle: its side, profile, centre (table inches) and facing in degrees
/// clockwise from facing side B's edge (0 faces +y, 90 faces +x, 180 faces side A).
pub struct Place {
    pub side: SideId,
    pub profile: Profile,
    pub at: [f64; 2],
    pub facing: f64,
    pub attached_to: Option<usize>,
}

pub fn at(side: SideId, profile: Profile, x: f64, y: f64, facing: f64) -> Place {
    Place {
        side,
        profile,
        at: [x, y],
        facing,
        attached_to: None,
    }
}

pub fn terrain(kind: TerrainKind, centre: [f64; 2], size: [f64; 2]) -> Terrain {
    Terrain {
        name: format!("{kind:?}"),
        kind,
        centre,
        size,
        angle: 0.0,
    }
}

/// A 48" x 36" table with `terrain`; side A plays first.
pub fn scenario(terrain: Vec<Terrain>) -> Scenario {
    Scenario {
        id: "test".into(),
        name: "Test".into(),
        description: None,
        table: [48.0, 36.0],
        deployment_depth: 8.0,
        turn_limit: 12,
        first: SideId::A,
        terrain,
    }
}

/// A battle with the bases where the test puts them (ids in the order given), in side A's
/// Moves phase (orders) of turn 1, with the Morale Clocks at 12.
pub fn battle(places: Vec<Place>, terrain: Vec<Terrain>, seed: u64) -> GameState {
    let mut armies: [Army; 2] = [army("Side A"), army("Side B")];
    // Deploy legally first (spread along each edge), then put every base where the test says.
    let mut wanted = Vec::new();
    for p in places {
        let i = p.side.index();
        let n = armies[i].units.len() as f64;
        let x = -22.0 + n * 4.0;
        armies[i].units.push(ArmyUnit {
            profile: p.profile,
            at: [x, 2.0],
            facing: 0.0,
            attached_to: p.attached_to,
        });
        wanted.push((p.side, p.at, p.facing));
    }
    let setup = Setup {
        scenario: scenario(terrain),
        armies,
        rules: catalog().rules,
    };
    let mut state = MoraleClock::new_game(&setup, seed).expect("a test battle starts");
    // Units are numbered side A's first, then side B's.
    let mut next = [0usize, armies_len(&setup, SideId::A)];
    for (side, at, facing) in wanted {
        let id = next[side.index()];
        next[side.index()] += 1;
        let u = &mut state.battle.units[id];
        u.pose = Pose::new(Vec2::new(at[0], at[1]), -facing.to_radians());
    }
    for i in 0..state.battle.units.len() {
        if let Some(t) = state.battle.units[i].attached_to {
            state.battle.units[i].pose = state.battle.units[usize::from(t)].pose;
        }
    }
    state.battle.side = SideId::A;
    state.battle.phase = Phase::Orders;
    state
}

fn armies_len(setup: &Setup, side: SideId) -> usize {
    setup.armies[side.index()].units.len()
}

fn army(name: &str) -> Army {
    Army {
        id: name.to_lowercase().replace(' ', "-"),
        name: name.into(),
        description: None,
        morale_clock: 12,
        stratagems: catalog().stratagems().to_vec(),
        units: Vec::new(),
    }
}

/// An order by the Morale Clock moving `units` by `steps`.
pub fn order(units: &[u16], steps: Vec<Step>) -> Action {
    Action::Move {
        units: units.to_vec(),
        by: Command::Clock,
        steps,
        stratagem: None,
        attach: None,
    }
}

/// Straight ahead.
pub fn fwd(inches: f64) -> Step {
    Step::Forward {
        inches,
        incline: 0.0,
    }
}

pub fn apply(state: &GameState, action: Action) -> Result<Applied<GameState, Event>, GameError> {
    let seat = state.battle.side;
    MoraleClock::apply(state, seat, &action)
}

pub fn ok(state: &GameState, action: Action) -> (GameState, Vec<Event>) {
    match apply(state, action) {
        Ok(a) => (a.state, a.events),
        Err(e) => panic!("refused: {e}"),
    }
}

pub fn refused(state: &GameState, action: Action) -> GameError {
    match apply(state, action) {
        Ok(_) => panic!("should be refused"),
        Err(e) => e,
    }
}

pub fn centre(state: &GameState, id: UnitId) -> Vec2 {
    state.battle.units[usize::from(id)].pose.centre
}

pub fn facing_deg(state: &GameState, id: UnitId) -> f64 {
    let h = -state.battle.units[usize::from(id)]
        .pose
        .heading
        .to_degrees();
    (h + 360.0) % 360.0
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// A seed whose dice, in the order the engine rolls them, start with `faces` (searched: the
/// engine rolls only through the state's generator).
pub fn seed_for(faces: &[u8]) -> u64 {
    use acies_core::{Dice, GameRng};
    (0..1_000_000u64)
        .find(|&s| {
            let mut r = GameRng::new(s);
            faces.iter().all(|&f| r.roll(10) == f)
        })
        .expect("a seed with those faces")
}

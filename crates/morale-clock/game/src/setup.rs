//! Starting a battle: a scenario and two armies, deployed as their lists say (ours: the sheet
//! has no deployment rules; docs/rulings.md).

use std::f64::consts::PI;

use acies_core::GameRng;
use acies_geom::{Pose, Vec2};
use morale_clock_model::{Army, Catalog, ClockRules, LookupError, Scenario, SideId};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, refuse, rule};
use crate::geometry::{self, terrain_rect};
use crate::state::{ArmyState, Battle, GameState, HalfTurn, Phase, Unit, UnitId};

/// What a battle starts from: everything resolved, so that a record replays without the data
/// files it was made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub scenario: Scenario,
    /// Side A's army (the near edge), then side B's.
    pub armies: [Army; 2],
    pub rules: ClockRules,
}

impl Setup {
    /// A battle of two armies of `catalog` on one of its scenarios.
    pub fn presets(
        catalog: &Catalog,
        scenario: &str,
        a: &str,
        b: &str,
    ) -> Result<Setup, LookupError> {
        Ok(Setup {
            scenario: catalog.scenario(scenario)?.clone(),
            armies: [catalog.army(a)?.clone(), catalog.army(b)?.clone()],
            rules: catalog.rules,
        })
    }
}

/// Where a unit of `side` deploys: side A along the near edge facing the far one, side B
/// turned about.
fn table_pose(s: &Scenario, side: SideId, at: [f64; 2], facing: f64) -> Pose {
    let [w, d] = s.table;
    let turn = -facing.to_radians();
    match side {
        SideId::A => Pose::new(Vec2::new(w / 2.0 + at[0], at[1]), turn),
        SideId::B => Pose::new(Vec2::new(w / 2.0 - at[0], d - at[1]), PI + turn),
    }
}

/// A new battle: both armies deployed, side `scenario.first` to play its first half-turn.
pub fn new_game(setup: &Setup, seed: u64) -> Result<GameState, GameError> {
    let mut units = Vec::new();
    for (side, army) in [(SideId::A, &setup.armies[0]), (SideId::B, &setup.armies[1])] {
        let offset = units.len();
        if offset + army.units.len() > usize::from(UnitId::MAX) {
            return refuse(rule::SETUP, "too many units");
        }
        for (i, au) in army.units.iter().enumerate() {
            units.push(Unit {
                id: (offset + i) as UnitId,
                side,
                profile: std::sync::Arc::new(au.profile.clone()),
                pose: table_pose(&setup.scenario, side, au.at, au.facing),
                dmz: 0,
                had_dmz: false,
                fought: false,
                moved: false,
                attached_to: au.attached_to.map(|j| (offset + j) as UnitId),
                removed: None,
            });
        }
    }
    let army = |a: &Army| ArmyState {
        name: a.name.clone(),
        clock: a.morale_clock,
        stratagems: a.stratagems.clone(),
        stratagem_uses: vec![0; a.stratagems.len()],
    };
    let battle = Battle {
        scenario: std::sync::Arc::new(setup.scenario.clone()),
        rules: setup.rules,
        armies: [army(&setup.armies[0]), army(&setup.armies[1])],
        units,
        turn: 1,
        side: setup.scenario.first,
        phase: Phase::Orders,
        half: HalfTurn::default(),
        outcome: None,
    };
    check_deployment(&battle)?;
    let mut state = GameState {
        battle,
        rng: GameRng::new(seed),
    };
    let mut events = Vec::new();
    let first = state.battle.side;
    crate::turn::begin_half_turn(&mut state, first, &mut events);
    Ok(state)
}

/// Every base on the table, in its army's deployment zone, on no other base and in no
/// prohibited terrain; leaders attached to troops of their own army.
fn check_deployment(b: &Battle) -> Result<(), GameError> {
    let [_, depth] = b.scenario.table;
    let zone = b.scenario.deployment_depth;
    for u in b.units.iter() {
        if let Some(t) = u.attached_to {
            let ok = b
                .unit(t)
                .is_some_and(|x| x.side == u.side && !x.is_leader() && u.is_leader());
            if !ok {
                return refuse(
                    rule::SETUP,
                    format!("{} is attached to a unit it cannot ride with", u.name()),
                );
            }
            continue;
        }
        let r = u.rect();
        if !geometry::on_table(b, &r) {
            return refuse(rule::SETUP, format!("{} deploys off the table", u.name()));
        }
        let in_zone = r.corners().iter().all(|c| match u.side {
            SideId::A => c.y <= zone + geometry::CONTACT_TOLERANCE,
            SideId::B => c.y >= depth - zone - geometry::CONTACT_TOLERANCE,
        });
        if !in_zone {
            return refuse(
                rule::SETUP,
                format!(
                    "{} deploys outside its army's zone ({zone}\" from its edge)",
                    u.name()
                ),
            );
        }
        if let Some(o) = b
            .bases()
            .find(|o| o.id != u.id && geometry::overlaps(&r, &o.rect()))
        {
            return refuse(rule::SETUP, format!("{} deploys on {}", u.name(), o.name()));
        }
        if let Some(t) = b.scenario.terrain.iter().find(|t| {
            geometry::prohibited(u.profile.troop, t.kind)
                && geometry::overlaps(&r, &terrain_rect(t))
        }) {
            return refuse(
                rule::SETUP,
                format!("{} deploys in {}, prohibited terrain", u.name(), t.name),
            );
        }
    }
    Ok(())
}

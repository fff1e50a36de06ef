//! Positions for tests, behind the `testing` feature (enabled by dev-dependencies only, so no
//! game played by the server, the bots or the command line can reach it): a battle at fixed
//! positions ([`fixture`], [`unit`]) and write access to every part of a [`GameState`]
//! (forced dice, units placed, phase, cards...). A real game changes only through
//! [`crate::Onus::apply`].

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use acies_core::{GameRng, Outcome, Ruleset};
use acies_geom::{Pose, Vec2};
use onus_cards::CardPiles;
use onus_table::{Table, TableUnit, UnitId};

use crate::event::EventLog;
use crate::setup::Setup;
use crate::state::{
    Decision, DeckRef, DeployStage, GameState, Pending, Phase, PlayerState, Seat, TurnBook,
};
use crate::{Onus, chooser};

/// Write access to the state, for tests that build positions.
impl GameState {
    /// The `setup` part, to set up a test position.
    pub fn setup_mut(&mut self) -> &mut Setup {
        Arc::make_mut(&mut self.setup)
    }
    /// The `rng` part, to set up a test position.
    pub fn rng_mut(&mut self) -> &mut GameRng {
        &mut self.rng
    }
    /// The `deck` part, to set up a test position.
    pub fn deck_mut(&mut self) -> &mut DeckRef {
        &mut self.deck
    }
    /// The `piles` part, to set up a test position.
    pub fn piles_mut(&mut self) -> &mut CardPiles {
        &mut self.piles
    }
    /// The `table` part, to set up a test position.
    pub fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }
    /// The `players` part, to set up a test position.
    pub fn players_mut(&mut self) -> &mut Vec<PlayerState> {
        std::sync::Arc::make_mut(&mut self.players)
    }
    /// The `hidden` part, to set up a test position.
    pub fn hidden_mut(&mut self) -> &mut BTreeSet<UnitId> {
        &mut self.hidden
    }
    /// The `turn` part, to set up a test position.
    pub fn turn_mut(&mut self) -> &mut u32 {
        &mut self.turn
    }
    /// The `round` part, to set up a test position.
    pub fn round_mut(&mut self) -> &mut u32 {
        &mut self.round
    }
    /// The `active` part, to set up a test position.
    pub fn active_mut(&mut self) -> &mut Seat {
        &mut self.active
    }
    /// The `group` part, to set up a test position.
    pub fn group_mut(&mut self) -> &mut Vec<Seat> {
        &mut self.group
    }
    /// The `rotation` part, to set up a test position.
    pub fn rotation_mut(&mut self) -> &mut Vec<Vec<Seat>> {
        &mut self.rotation
    }
    /// The `rotation_index` part, to set up a test position.
    pub fn rotation_index_mut(&mut self) -> &mut usize {
        &mut self.rotation_index
    }
    /// The `phase` part, to set up a test position.
    pub fn phase_mut(&mut self) -> &mut Phase {
        &mut self.phase
    }
    /// The `deployment` part, to set up a test position.
    pub fn deployment_mut(&mut self) -> &mut Option<DeployStage> {
        &mut self.deployment
    }
    /// The `book` part, to set up a test position.
    pub fn book_mut(&mut self) -> &mut TurnBook {
        &mut self.book
    }
    /// The `pending` part, to set up a test position.
    pub fn pending_mut(&mut self) -> &mut Option<Pending> {
        &mut self.pending
    }
    /// The `decisions` part, to set up a test position.
    pub fn decisions_mut(&mut self) -> &mut Vec<Decision> {
        &mut self.decisions
    }
    /// The `log` part, to set up a test position.
    pub fn log_mut(&mut self) -> &mut EventLog {
        &mut self.log
    }
    /// The `outcome` part, to set up a test position.
    pub fn outcome_mut(&mut self) -> &mut Option<Outcome<Seat>> {
        &mut self.outcome
    }
    /// The `forced_dice` part, to set up a test position.
    pub fn forced_dice_mut(&mut self) -> &mut VecDeque<u8> {
        &mut self.forced_dice
    }
    /// The `structures` part (T&F V damage), to set up a test position.
    pub fn structures_mut(
        &mut self,
    ) -> &mut std::collections::BTreeMap<String, onus_combat::StructureDamage> {
        &mut self.structures
    }
    /// The next d6 rolls show `faces`, in order, before the random generator takes over.
    pub fn force_dice(&mut self, faces: &[u8]) {
        self.forced_dice.extend(faces.iter().copied());
    }
}

/// A new battle of `a` against `b` (presets), both armies deployed and the Generals placed by
/// the random chooser (seeded by `seed`).
pub fn deployed(a: &str, b: &str, seed: u64) -> GameState {
    let setup = Setup::two_presets(a, b);
    let mut state = Onus::new_game(&setup, seed).unwrap_or_else(|e| panic!("new game: {e}"));
    let mut rng = GameRng::new(seed ^ 0x5eed);
    for _ in 0..500 {
        if state.phase != Phase::Deployment {
            break;
        }
        let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
            break;
        };
        state = Onus::apply(&state, seat, &action)
            .unwrap_or_else(|e| panic!("the chooser proposed {action:?}: {e}"))
            .state;
    }
    state
}

/// A battle at fixed positions for targeted tests: the hands, deck and Generals of a
/// `romans-1000` vs `celts-1000` game, an empty 40 × 30 DU table with `units` on it, and
/// each player's Generals on a headquarters unit far from everything (corners (38, 2) and
/// (38, 28), so no area of influence reaches the units of the test). Seat 0 is active, in
/// `phase`; the units in `active` carry an Active Unit marker.
pub fn fixture(units: Vec<TableUnit>, active: &[UnitId], phase: Phase) -> GameState {
    fixture_on(None, units, active, phase)
}

/// [`fixture`] on a battlefield with terrain (*Terrain & Fortresses*), laid before the units
/// are placed: the table is the battlefield's size, the headquarters in its east corners
/// (`width - 2`, 2 and `depth - 2`). Structures included: a battlefield a real game refuses
/// ([`crate::setup::BattlefieldChoice::load`], T&F IV) may be set up here.
pub fn fixture_on(
    battlefield: Option<onus_terrain::Battlefield>,
    units: Vec<TableUnit>,
    active: &[UnitId],
    phase: Phase,
) -> GameState {
    let mut s = deployed("romans-1000", "celts-1000", 21);
    let (width, depth) = battlefield
        .as_ref()
        .map_or((40.0, 30.0), |b| (b.width, b.depth));
    let mut table = Table::new(width, depth);
    if let Some(b) = battlefield {
        table
            .set_battlefield(b)
            .unwrap_or_else(|e| panic!("cannot lay the battlefield: {e}"));
    }
    table.home_edges = s.table.home_edges.clone();
    for u in [
        headquarters(900, 0, width - 2.0, 2.0, 0.0),
        headquarters(901, 1, width - 2.0, depth - 2.0, std::f64::consts::PI),
    ]
    .into_iter()
    .chain(units)
    {
        let id = u.id;
        table
            .add(u)
            .unwrap_or_else(|e| panic!("cannot place {id}: {e}"));
    }
    for id in active {
        table
            .activate(*id)
            .unwrap_or_else(|e| panic!("cannot activate {id}: {e}"));
    }
    s.table = table;
    s.hidden.clear();
    for (i, p) in std::sync::Arc::make_mut(&mut s.players)
        .iter_mut()
        .enumerate()
    {
        for g in &mut p.generals {
            g.unit = Some(UnitId(900 + i as u32));
        }
    }
    s.active = Seat(0);
    s.group = vec![Seat(0)];
    s.rotation_index = s
        .rotation
        .iter()
        .position(|g| g.contains(&Seat(0)))
        .unwrap_or(0);
    s.phase = phase;
    s.book = crate::shared::Shared::default();
    s.book.activated = active.iter().copied().collect();
    s.pending = None;
    s
}

/// The headquarters unit of [`fixture`] that carries a player's Generals.
fn headquarters(id: u32, owner: u8, x: f64, y: f64, heading: f64) -> TableUnit {
    let card = onus_combat::CardBuilder::new("Headquarters", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .build();
    let pose = Pose::new(Vec2::new(x, y), heading);
    TableUnit::new(UnitId(id), owner, card, pose)
}

/// A unit for [`fixture`]: `card` of `owner` at `(x, y)` facing `heading_deg` (0 = north,
/// towards `y = 30`).
pub fn unit(
    id: u32,
    owner: u8,
    card: onus_model::UnitCard,
    x: f64,
    y: f64,
    heading_deg: f64,
) -> TableUnit {
    let pose = Pose::new(Vec2::new(x, y), heading_deg.to_radians());
    TableUnit::new(UnitId(id), owner, card, pose)
}

/// Archers 3/(8): attack 1/1, defense 3/3, ranged power 3 at 8 DU, morale 7, health 6.
pub fn archers() -> onus_model::UnitCard {
    onus_combat::CardBuilder::new("Archers", onus_model::UnitKind::Infantry)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(3, 8.0)
        .morale(7)
        .health(6)
        .build()
}

/// The events `after` logged since `before` (a state it was reached from).
pub fn events_since(before: &GameState, after: &GameState) -> Vec<crate::GameEvent> {
    after
        .log()
        .iter()
        .skip(before.log().len())
        .cloned()
        .collect()
}

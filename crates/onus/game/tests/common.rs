//! Helpers shared by the integration tests (included with `mod common`).
#![allow(dead_code)]

use acies_core::{GameRng, Ruleset};
use onus_game::{Action, GameState, Onus, Phase, Seat, chooser};

/// Plays random legal actions until `stop` says so or the game ends; returns the actions.
pub fn play_until(
    state: &mut GameState,
    rng: &mut GameRng,
    max_actions: usize,
    stop: impl Fn(&GameState) -> bool,
) -> Vec<(Seat, Action)> {
    let mut done = Vec::new();
    for _ in 0..max_actions {
        if stop(state) {
            break;
        }
        let Some((seat, action)) = chooser::choose(state, rng) else {
            break;
        };
        match Onus::apply(state, seat, &action) {
            Ok(a) => *state = a.state,
            Err(e) => panic!("the chooser proposed an illegal action {action:?}: {e}"),
        }
        done.push((seat, action));
    }
    done
}

/// Deploys both armies and places the generals with the chooser.
pub fn deployed(a: &str, b: &str, seed: u64) -> GameState {
    let setup = onus_game::Setup::two_presets(a, b);
    let mut state = match Onus::new_game(&setup, seed) {
        Ok(s) => s,
        Err(e) => panic!("new game: {e}"),
    };
    let mut rng = GameRng::new(seed ^ 0x5eed);
    play_until(&mut state, &mut rng, 500, |s| s.phase != Phase::Deployment);
    state
}

pub const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

/// A battle at fixed positions for targeted tests: the hands, deck and Generals of a
/// `romans-1000` vs `celts-1000` game, an empty 40 × 30 DU table with `units` on it, and
/// each player's Generals on a headquarters unit far from everything (corners (38, 2) and
/// (38, 28), so no area of influence reaches the units of the test). Seat 0 is active, in
/// `phase`; the units in `active` carry an Active Unit marker.
pub fn fixture(
    units: Vec<onus_table::TableUnit>,
    active: &[onus_table::UnitId],
    phase: Phase,
) -> GameState {
    use acies_geom::{Pose, Vec2};
    use onus_table::{Table, TableUnit, UnitId};
    let mut s = deployed("romans-1000", "celts-1000", 21);
    let mut table = Table::new(40.0, 30.0);
    table.home_edges = s.table.home_edges.clone();
    let hq = |id: u32, owner: u8, y: f64, heading: f64| {
        let card = onus_combat::CardBuilder::new("Headquarters", onus_model::UnitKind::Infantry)
            .attack(3, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .build();
        TableUnit::new(
            UnitId(id),
            owner,
            card,
            Pose::new(Vec2::new(38.0, y), heading),
        )
    };
    for u in [hq(900, 0, 2.0, 0.0), hq(901, 1, 28.0, std::f64::consts::PI)]
        .into_iter()
        .chain(units)
    {
        let id = u.id;
        if let Err(e) = table.add(u) {
            panic!("cannot place {id}: {e}");
        }
    }
    for id in active {
        table.activate(*id).unwrap();
    }
    s.table = table;
    s.hidden.clear();
    for (i, p) in s.players.iter_mut().enumerate() {
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
    s.book = Default::default();
    s.book.activated = active.iter().copied().collect();
    s.pending = None;
    s
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
) -> onus_table::TableUnit {
    onus_table::TableUnit::new(
        onus_table::UnitId(id),
        owner,
        card,
        acies_geom::Pose::new(acies_geom::Vec2::new(x, y), heading_deg.to_radians()),
    )
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

/// Applies an action as the seat to act.
pub fn act(s: &GameState, a: Action) -> Result<GameState, onus_game::GameError> {
    let seat = Onus::to_act(s).expect("someone to act");
    Onus::apply(s, seat, &a).map(|x| x.state)
}

/// The events of the state's log, newest last.
pub fn events(s: &GameState) -> Vec<onus_game::GameEvent> {
    s.log.iter().cloned().collect()
}

/// A card of the draw pile that `wanted` accepts (panics if there is none).
pub fn card_in_draw_pile(
    s: &GameState,
    wanted: impl Fn(&onus_cards::Card<'_>) -> bool,
) -> onus_cards::CardId {
    let deck = s.deck().unwrap();
    s.piles
        .draw_pile()
        .iter()
        .rev()
        .copied()
        .find(|c| deck.card(*c).is_some_and(|card| wanted(&card)))
        .expect("such a card in the draw pile")
}

/// Puts `card` (from the draw pile) on top of the draw pile: the next random event.
pub fn on_top(s: &mut GameState, card: onus_cards::CardId) {
    let depth = s
        .piles
        .draw_pile()
        .iter()
        .rev()
        .position(|c| *c == card)
        .expect("the card is in the draw pile");
    let mut top = s.piles.peek(depth + 1);
    top.retain(|c| *c != card);
    top.insert(0, card);
    s.piles.reorder_top(&top).unwrap();
}

/// Draws a card of the draw pile that `wanted` accepts into `seat`'s hand.
pub fn give(
    s: &mut GameState,
    seat: Seat,
    wanted: impl Fn(&onus_cards::Card<'_>) -> bool,
) -> onus_cards::CardId {
    let card = card_in_draw_pile(s, wanted);
    on_top(s, card);
    let mut rng = acies_core::GameRng::new(0);
    let drawn = s.piles.draw(seat.index(), 1, &mut rng).unwrap();
    assert_eq!(drawn, vec![card]);
    card
}

/// Plays the order `card` on `units` (nobody reorganised, no cards, no transfer).
pub fn order(card: onus_cards::CardId, units: Vec<onus_table::UnitId>) -> Action {
    Action::PlayOrder {
        card,
        units,
        reorganise: vec![],
        cards: vec![],
        to: None,
    }
}

/// Passes in a pending fight (no cards from hand).
pub fn pass() -> Action {
    Action::PlayEvents {
        cards: vec![],
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    }
}

/// The last fight's result in the log.
pub fn last_fight(s: &onus_game::GameState) -> Box<onus_combat::CombatResult> {
    events(s)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            onus_game::GameEvent::FightResolved { result, .. } => Some(result),
            _ => None,
        })
        .expect("a fight")
}

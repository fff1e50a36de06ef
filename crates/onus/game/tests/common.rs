//! Helpers shared by the integration tests (included with `mod common`).
#![allow(dead_code)]

use acies_core::{GameRng, Ruleset};
use onus_game::{Action, GameState, Onus, Seat, chooser};

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

#[allow(unused_imports)]
pub use onus_game::testing::{archers, deployed, fixture, unit};

pub const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

/// Applies an action as the seat to act.
pub fn act(s: &GameState, a: Action) -> Result<GameState, onus_game::GameError> {
    let seat = Onus::to_act(s).expect("someone to act");
    Onus::apply(s, seat, &a).map(|x| x.state)
}

/// The events of the state's log, newest last.
pub fn events(s: &GameState) -> Vec<onus_game::GameEvent> {
    s.log().iter().cloned().collect()
}

/// A card of the draw pile that `wanted` accepts (panics if there is none).
pub fn card_in_draw_pile(
    s: &GameState,
    wanted: impl Fn(&onus_cards::Card<'_>) -> bool,
) -> onus_cards::CardId {
    let deck = s.deck().unwrap();
    s.piles()
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
        .piles()
        .draw_pile()
        .iter()
        .rev()
        .position(|c| *c == card)
        .expect("the card is in the draw pile");
    let mut top = s.piles().peek(depth + 1);
    top.retain(|c| *c != card);
    top.insert(0, card);
    s.piles_mut().reorder_top(&top).unwrap();
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
    let drawn = s.piles_mut().draw(seat.index(), 1, &mut rng).unwrap();
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

/// Declares the melee of `attacker` against `defender` for `seat` and passes every stage of
/// it (no cards from hand) until it is resolved.
pub fn fight_out(
    s: &GameState,
    seat: Seat,
    attacker: onus_table::UnitId,
    defender: onus_table::UnitId,
) -> GameState {
    let declare = Action::Fight { attacker, defender };
    let mut f = Onus::apply(s, seat, &declare)
        .unwrap_or_else(|e| panic!("{declare:?} refused: {e}"))
        .state;
    while f.pending().is_some() {
        let who = Onus::to_act(&f).expect("someone to act");
        f = Onus::apply(&f, who, &pass())
            .unwrap_or_else(|e| panic!("passing refused: {e}"))
            .state;
    }
    f
}

/// No modifier of a fortress's (but the defenders' morale) nor attack priority from one in
/// a fight's effects (T&F IV "Walls": the wall's defence is against a climber only).
pub fn no_structure_bonus(effects: &[onus_combat::CombatEffect]) {
    use onus_combat::CombatEffect;
    assert!(
        !effects.iter().any(|fx| match fx {
            CombatEffect::Modify { source, stat, .. } =>
                source.contains("T&F") && *stat != onus_combat::Stat::Morale,
            CombatEffect::GrantPriority { source, .. } => source.contains("T&F"),
            _ => false,
        }),
        "{effects:?}"
    );
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

/// The shipped "fort-and-village" battlefield (T&F IV): a small wooden fort and a village.
pub fn fort() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("fort-and-village").unwrap()
}

/// `testing::archers` with a range of 4 DU instead of 8: the towers' and walls' tests
/// measure short and long range near a fortress.
pub fn short_range_archers() -> onus_model::UnitCard {
    onus_combat::CardBuilder::new("Archers", onus_model::UnitKind::Infantry)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(3, 4.0)
        .morale(7)
        .health(6)
        .build()
}

/// The Roman Onager: artillery, ranged 5 at 8 DU.
pub fn onager() -> onus_model::UnitCard {
    onus_combat::CardBuilder::new("Onager", onus_model::UnitKind::Artillery)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(5, 8.0)
        .morale(6)
        .health(6)
        .build()
}

/// Infantry with armor 3, morale 5, health 8.
pub fn infantry(name: &str) -> onus_model::UnitCard {
    onus_combat::CardBuilder::new(name, onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(5)
        .health(8)
        .build()
}

/// `s` with an attack on a structure that waits for its attacker's events from hand (T&F V
/// "Events") answered with none, for the tests of other rules: the attack is rolled as it
/// would be with an empty hand. The events themselves are `tests/structure_events.rs`'.
pub fn no_hand_events(s: GameState) -> GameState {
    let Some(d @ onus_game::state::Decision::StructureEvents { .. }) = s.decisions().first() else {
        return s;
    };
    let seat = d.seat(&s).expect("the attacker decides");
    let none = Action::PlayEvents {
        cards: Vec::new(),
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    };
    Onus::apply(&s, seat, &none)
        .expect("no event is always an answer")
        .state
}

/// Structure `id` carries `wounds` Wound markers.
pub fn wound(s: &mut GameState, id: &str, wounds: u32) {
    s.structures_mut().insert(
        id.into(),
        onus_combat::StructureDamage {
            wounds,
            ..Default::default()
        },
    );
}

//! T&F VI "Scenarios with fortresses": a siege's order of deployment and of play, and its
//! victory conditions, which replace the core game's casualty threshold for the defender and
//! add the defender's win when the action deck has run out often enough.
//!
//! The fortress itself (its structures, the defender's hidden units inside it, "no defending
//! units inside a fortress") is the battlefield's (`onus_terrain`); what is here needs only
//! the sides and the deck.

use crate::error::{GameError, GameResult};
use crate::setup::{Setup, Siege};
use onus_model::UnitKind;

use crate::state::{GameState, PlayerState, Seat};

/// Cited by the victory conditions below.
pub const VICTORY: &str = "T&F VI Victory conditions";

/// Most action-deck runs a scenario may ask the defender to hold out for.
pub const MAX_DECK_RUNS: u32 = 10;

/// Points of a battle up to which the defender holds out for two runs of the deck, not three
/// (VI "Victory conditions": "for a 1,500 point battle ... depleted twice. For battles with
/// more points ... 3 times").
pub const TWO_RUNS_UP_TO: u32 = 1_500;

/// Refuses a siege the rules do not describe: a siege has one defender and one attacker
/// (ruling: the text has no more sides), and a deck-run count from 1 to [`MAX_DECK_RUNS`].
pub fn check_setup(setup: &Setup) -> GameResult<()> {
    let Some(siege) = &setup.scenario.siege else {
        return Ok(());
    };
    let refuse = |m: String| GameError::setup(format!("scenario.siege: {m}"), Some(VICTORY));
    if setup.players.len() != 2 {
        return Err(refuse(format!(
            "a siege is fought by a defender and an attacker, not {} players",
            setup.players.len()
        )));
    }
    if siege.defender.index() >= 2 {
        return Err(refuse(format!(
            "the defender is seat {}, but the seats are 0 and 1",
            siege.defender.0
        )));
    }
    if let Some(runs) = siege.deck_runs {
        if !(1..=MAX_DECK_RUNS).contains(&runs) {
            return Err(refuse(format!(
                "deck_runs is {runs}; give 1 to {MAX_DECK_RUNS}, or leave it out (2 up to {TWO_RUNS_UP_TO} points, 3 above)"
            )));
        }
    }
    Ok(())
}

/// Cited by the attacker's choice of its deployment zone.
pub const DEPLOYMENT: &str = "T&F VI Deployment";

/// Most deployment zones a siege may offer the attacker to choose among (T&F VI
/// "Deployment": a fortress in the centre has four sides; ours leaves room for corners too).
pub const MAX_ZONE_CHOICES: usize = 8;

/// Refuses zones for the attacker to choose among (`scenario.attacker_zones`, T&F VI
/// "Deployment") outside a siege, or more than [`MAX_ZONE_CHOICES`] of them. Each zone is
/// checked like any deployment zone when the game is built.
pub fn check_zone_choices(scenario: &crate::setup::Scenario) -> GameResult<()> {
    let refuse =
        |m: String| GameError::setup(format!("scenario.attacker_zones: {m}"), Some(DEPLOYMENT));
    if scenario.siege.is_none() {
        return Err(refuse(
            "zones for the attacker to choose among belong to a siege (scenario.siege)".into(),
        ));
    }
    let n = scenario.attacker_zones.len();
    if !(1..=MAX_ZONE_CHOICES).contains(&n) {
        return Err(refuse(format!(
            "{n} zones; give 1 to {MAX_ZONE_CHOICES}, or none"
        )));
    }
    Ok(())
}

/// VI "Point value": the defender builds the fortress "with a limit of 2 artillery units".
pub const MAX_DEFENDER_ARTILLERY: usize = 2;

/// Refuses a siege whose defender fields more than [`MAX_DEFENDER_ARTILLERY`] artillery units
/// (VI "Point value"), read off the armies as the game deploys them.
pub fn check_armies(setup: &Setup, players: &[PlayerState]) -> GameResult<()> {
    let Some(siege) = &setup.scenario.siege else {
        return Ok(());
    };
    let Some(defender) = players.get(siege.defender.index()) else {
        return Ok(());
    };
    let artillery = defender
        .reserve
        .iter()
        .filter(|r| r.card.kind == UnitKind::Artillery)
        .count();
    if artillery > MAX_DEFENDER_ARTILLERY {
        return Err(GameError::setup(
            format!(
                "scenario.siege: the defender ({}) fields {artillery} artillery units; a fortress's defender has at most {MAX_DEFENDER_ARTILLERY}",
                defender.army_name
            ),
            Some(POINT_VALUE),
        ));
    }
    Ok(())
}

/// Cited by the defender's limit of artillery.
pub const POINT_VALUE: &str = "T&F VI Point value";

fn siege(state: &GameState) -> Option<&Siege> {
    state.setup.scenario.siege.as_ref()
}

/// The defending seat of a siege.
pub fn defender(state: &GameState) -> Option<Seat> {
    siege(state).map(|s| s.defender)
}

/// The attacking seat of a siege: the other one.
pub fn attacker(state: &GameState) -> Option<Seat> {
    let d = defender(state)?;
    state.seats().into_iter().find(|s| *s != d)
}

/// VI "Point value": "the defender ... deploying them ... Then, the Defender does the same with
/// their units, placing them face down. Next, the attacker deploys their units": the defender
/// deploys every unit first, then the attacker (no alternation). `None` outside a siege.
pub fn deployment_order(setup: &Setup) -> Option<Vec<Seat>> {
    let d = setup.scenario.siege.as_ref()?.defender;
    Some(vec![d, Seat(1 - d.0.min(1))])
}

/// VI "Victory conditions": "The attacking side plays the first turn in scenarios with a
/// fortress, unless otherwise specified" (the scenario's `starting_player` is that otherwise).
pub fn starting_player(state: &GameState) -> Option<Seat> {
    attacker(state)
}

/// How many times the action deck must run out for the defender to win: the scenario's
/// count, else two for a battle of up to 1,500 points and three above (ruling: a battle's
/// points are the larger army's value, the fortress not counted).
pub fn deck_runs_needed(state: &GameState) -> Option<u32> {
    let s = siege(state)?;
    Some(s.deck_runs.unwrap_or_else(|| {
        let points = state
            .players
            .iter()
            .map(|p| p.value.total)
            .max()
            .unwrap_or(0);
        if points <= TWO_RUNS_UP_TO { 2 } else { 3 }
    }))
}

/// VI "Victory conditions", the defender: the action card pile has run out the needed number
/// of times. Returns the attacker, who has lost, and the reason.
pub fn deck_held_out(state: &GameState) -> Option<(Seat, String)> {
    let needed = deck_runs_needed(state)?;
    let runs = state.piles.exhaustions();
    (runs >= needed).then(|| {
        let attacker = attacker(state)?;
        Some((
            attacker,
            format!(
                "the action deck ran out {runs} times and the fortress still stands ({VICTORY})"
            ),
        ))
    })?
}

/// VI "Victory conditions", the attacker: "If there are no defending units inside a fortress
/// or if the remaining ones are fleeing, then the attacker declares victory." Returns the
/// defender, who has lost, and why. Only on a battlefield with a fortress of the defender's,
/// once the battle has begun. Ruling (docs/rulings.md): a unit holds the fortress when the
/// centre of its card is inside it or its card is on one of its elements (a wall, a tower);
/// a unit holding one of its towers (its card set aside, the tower's tile standing for it)
/// is on it.
pub fn fortress_emptied(state: &GameState) -> Option<(Seat, String)> {
    let d = defender(state)?;
    let b = state.table.battlefield()?;
    let ours = |f: &onus_terrain::FortressSite| f.owner == onus_terrain::Side::Defender;
    if !b.fortresses.iter().any(ours) {
        return None;
    }
    let holds = |u: &onus_table::TableUnit| {
        let rect = u.rect();
        b.fortress_at(u.pose.centre).is_some_and(ours)
            || b.structures_under(&rect).any(|s| {
                s.fortress
                    .as_deref()
                    .and_then(|f| b.fortress_site(f))
                    .is_some_and(ours)
            })
    };
    let held = state
        .table
        .units()
        .any(|u| u.owner == d.0 && !u.state.fleeing && holds(u));
    (!held).then(|| {
        (
            d,
            format!("no defending unit is left in the fortress but fleeing ones ({VICTORY})"),
        )
    })
}

/// Whether `seat`'s losses call for the casualty check (core VI: over half of its value).
/// VI "Victory conditions", the attacker wins "if the defender fails a morale check roll due
/// to a casualty rate equal to or greater than 75% of their army value": for a siege's
/// defender the check comes at 75% or more (ruling: the core's leadership check is that
/// "decisive morale check"); the attacker keeps the core's threshold, as the text says ("if
/// the attacker fails a leadership check roll after losing more than 50%").
pub fn casualty_check_due(state: &GameState, seat: Seat) -> bool {
    if defender(state) == Some(seat) {
        return state.player(seat).is_ok_and(|p| {
            u64::from(crate::victory::losses(state, seat)) * 4 >= u64::from(p.value.total) * 3
        });
    }
    crate::victory::over_half(state, seat)
}

/// What a failed casualty check of `seat` is called; `commander_out`: it failed by itself, the
/// Generals being dead or wounded.
pub fn casualty_defeat_reason(state: &GameState, seat: Seat, commander_out: bool) -> String {
    match (defender(state) == Some(seat), commander_out) {
        (true, false) => format!(
            "casualties of 75% or more and a failed leadership check: the fortress falls ({VICTORY})"
        ),
        (true, true) => format!(
            "casualties of 75% or more with the General dead or wounded: the fortress falls ({VICTORY})"
        ),
        (false, false) => {
            "casualties over 50% and a failed leadership check: the army retreats (VI)".into()
        }
        (false, true) => "casualties over 50% with the General dead or wounded (VI)".into(),
    }
}

//! O/THW Ancients in the generic battle runner (`acies sim --system othw`): the random
//! player on the game's candidates deciding on a determinized state (only the dice to come
//! are hidden), the battle's length in phases and turns, the army morale each side lost, and
//! the game's invariants after every action.

mod reach;
mod scripted;

pub use scripted::{ScriptedBot, choose};

use acies_bot::battle::BoxedBot;
use acies_bot::{
    Arena, BotError, BotKind, Evaluate, Levels, RandomBot, SearchBot, determinized, squash,
};
use acies_core::GameRng;
use othw_game::{GameState, Othw, Side};

/// The search player's levels in this system.
pub const LEVELS: Levels = Levels::DEFAULT;

/// How many of the candidates the random player picks among: fights and charges come first,
/// then the other activations shuffled, the end of the phase last.
pub const RANDOM_CHOICES: usize = 8;

/// The system in the battle runner.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthwArena;

impl Arena for OthwArena {
    type Rules = Othw;

    fn observe(state: &GameState, seat: Side, rng: &mut GameRng) -> Result<GameState, BotError> {
        determinized::<Othw>(state, seat, rng)
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<OthwArena>> {
        match kind {
            BotKind::Random => Some(Box::new(RandomBot::among(seed, RANDOM_CHOICES))),
            BotKind::Scripted => Some(Box::new(ScriptedBot::new(seed))),
            BotKind::Search(budget) => {
                let policy = ScriptedBot::new(seed.wrapping_add(1));
                Some(Box::new(SearchBot::new(
                    seed,
                    budget.in_system(&LEVELS),
                    policy,
                    OthwArena,
                )))
            }
        }
    }

    /// Phases played and turns completed.
    fn length(state: &GameState) -> (u32, u32) {
        let done = state.turn.saturating_sub(1);
        let phases = 2 * done + u32::from(state.active != state.first) + 1;
        (phases, done)
    }

    /// The army morale each side lost.
    fn losses(state: &GameState) -> Vec<u32> {
        state
            .armies
            .iter()
            .map(|a| (a.start_morale - a.morale).max(0) as u32)
            .collect()
    }

    fn invariants(before: &GameState, after: &GameState) -> Option<Result<(), String>> {
        Some(othw_game::invariants::check(before, after))
    }

    fn rng_words(state: &GameState) -> u128 {
        state.rng.word_pos()
    }
}

/// For the search player: army morale decides the battle (at 0, or the higher at the turn
/// limit); the strength left on the table counts a little.
impl Evaluate<Othw> for OthwArena {
    fn evaluate(&self, state: &GameState, seat: Side) -> f64 {
        let morale = |s: Side| f64::from(state.army(s).morale);
        let strength = |s: Side| {
            let units = state.units.iter().filter(|u| u.side == s && u.on_table());
            units.map(|u| f64::from(u.strength)).sum::<f64>()
        };
        let other = seat.other();
        squash((morale(seat) - morale(other)) / 2.0 + (strength(seat) - strength(other)) / 8.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acies_bot::{Checks, simulate_one};

    #[test]
    fn random_battles_end_with_the_invariants_checked() {
        let catalog = othw_model::Catalog::builtin().expect("data");
        let setup = catalog
            .setup("open-field", "republican-romans", "carthaginians")
            .expect("setup");
        let kinds = [BotKind::Random, BotKind::Random];
        for i in 0..4 {
            let checks = Checks { invariants: true };
            let r = simulate_one::<OthwArena>(&setup, 1, i, &kinds, 50_000, checks)
                .unwrap_or_else(|f| panic!("battle {i}: {f}"));
            assert!(r.outcome.is_some(), "battle {i} unfinished");
        }
    }

    /// The scripted player wins at least 8 of 10 battles against the random one in each
    /// seat (the 1,000-battle figures are in the README).
    #[test]
    fn scripted_beats_random_in_both_seats() {
        let catalog = othw_model::Catalog::builtin().expect("data");
        let setup = catalog
            .setup("open-field", "republican-romans", "carthaginians")
            .expect("setup");
        for seat in 0..2 {
            let mut kinds = [BotKind::Random, BotKind::Random];
            kinds[seat] = BotKind::Scripted;
            let wins = (0..10)
                .filter(|&i| {
                    let checks = Checks { invariants: true };
                    let r = simulate_one::<OthwArena>(&setup, 1, i, &kinds, 50_000, checks)
                        .unwrap_or_else(|f| panic!("battle {i}: {f}"));
                    matches!(&r.outcome, Some(acies_core::Outcome::Winners { seats, .. })
                        if seats.contains(&r.seats[seat]))
                })
                .count();
            assert!(wins >= 8, "seat {seat}: {wins} of 10");
        }
    }

    fn fight(
        attacker: othw_model::Profile,
        defender: othw_model::Profile,
        aspect: acies_grid::Aspect,
    ) -> GameState {
        othw_game::odds::Situation {
            attacker,
            defender,
            attacker_strength: None,
            defender_strength: None,
            aspect,
            attacker_terrain: othw_model::Terrain::Open,
            defender_terrain: othw_model::Terrain::Open,
            attacker_general: None,
            defender_general: None,
            bold_used: false,
            kind: othw_game::combat::Kind::Activation,
        }
        .state()
        .expect("state")
    }

    fn troop(id: &str) -> othw_model::Profile {
        let catalog = othw_model::Catalog::builtin().expect("data");
        catalog
            .troops
            .iter()
            .find(|p| p.id == id)
            .cloned()
            .expect("troop type")
    }

    /// Whether the scripted player's first unit attacks, troop type `a` against `d` struck
    /// on `aspect`.
    fn attacks(a: &str, d: &str, aspect: acies_grid::Aspect) -> bool {
        let s = fight(troop(a), troop(d), aspect);
        choose(&s, Side::South) == othw_game::Action::Combat { unit: 0 }
    }

    /// An enemy's rear in front of a unit: it attacks (3+, no blow back).
    #[test]
    fn strikes_a_rear_in_front_of_it() {
        assert!(attacks(
            "heavy-infantry",
            "heavy-infantry",
            acies_grid::Aspect::Rear
        ));
    }

    /// Skirmishers do not attack elephants to their face.
    #[test]
    fn declines_a_losing_fight() {
        assert!(!attacks(
            "skirmishers",
            "african-elephants",
            acies_grid::Aspect::Front
        ));
    }
}

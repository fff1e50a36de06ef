//! Which die the chooser takes. The sheet says who chooses ("Player with higher Combat
//! Rating chooses result", the shooter in a shooting), not how; this is the obvious policy —
//! the best result for the chooser — used by the odds and by the scripted bot.

use command_points_game::tables::{CombatResult, Role, ShootingResult};

/// How good a combat result is for the attacker (higher is better).
fn worth(result: CombatResult) -> u8 {
    match result {
        CombatResult::Repulsed => 0,
        CombatResult::Grind => 1,
        CombatResult::Stand => 2,
        CombatResult::PushBack => 3,
        CombatResult::Advance => 4,
        CombatResult::Crunch => 5,
    }
}

/// The index of the die the chooser takes among `faces`: the best result for the attacker
/// when it chooses, the worst when the defender does (after the exceptions for a Battle
/// Trained or Skirmisher defender). The first such die on a tie.
pub fn prefer(faces: &[u8], chooser: Role, battle_trained: bool, skirmisher: bool) -> usize {
    let score = |f: u8| {
        let w = worth(CombatResult::of_face(f).against(battle_trained, skirmisher));
        match chooser {
            Role::Attacker => w,
            Role::Defender => 5 - w,
        }
    };
    best(faces, score)
}

/// The index of the die the shooter takes: the best shooting result against the target.
pub fn prefer_shot(faces: &[u8], penalty: i32, skirmisher: bool) -> usize {
    best(faces, |f| {
        match ShootingResult::of_die(f, penalty).against(skirmisher) {
            ShootingResult::ShortOfAmmunition => 0,
            ShootingResult::NoEffect => 1,
            ShootingResult::PushBack => 2,
            ShootingResult::TellingShots => 3,
            ShootingResult::WitheringShooting => 4,
        }
    })
}

fn best(faces: &[u8], score: impl Fn(u8) -> u8) -> usize {
    let mut pick = 0;
    for (i, f) in faces.iter().enumerate() {
        if faces.get(pick).is_none_or(|p| score(*f) > score(*p)) {
            pick = i;
        }
    }
    pick
}

//! Prints the exact odds of legionaries charging a warband in the flank, then the same odds
//! sampled, and how long each took.
//!
//! `cargo run --release -p onus-odds --example legion_vs_warband`

use std::time::Instant;

use onus_combat::{CardBuilder, CombatError, MeleeSetup};
use onus_model::{Ability, UnitKind};
use onus_odds::{melee_odds, sample_melee};

fn main() -> Result<(), CombatError> {
    let legionaries = CardBuilder::new("Legionaries", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 7)
        .morale(8)
        .health(8)
        .ability(Ability::Professionals)
        .fighter()
        .charged();
    let warband = CardBuilder::new("Warband", UnitKind::Infantry)
        .attack(5, 4)
        .defense(4, 4)
        .morale(6)
        .health(8)
        .ability(Ability::Deadly)
        .fighter()
        .flank();
    let setup = MeleeSetup::new(legionaries, warband, 6);

    let t = Instant::now();
    let exact = melee_odds(&setup)?;
    let exact_time = t.elapsed();
    let t = Instant::now();
    let sampled = sample_melee(&setup, 1_000_000, 42)?;
    let sampled_time = t.elapsed();

    for (name, side) in [("attacker", &exact.attacker), ("defender", &exact.defender)] {
        println!("{name}:");
        for v in &side.values {
            println!("  {v}");
        }
        if let Some(n) = side.needs {
            println!(
                "  attacks with {} dice: hits on {}+, wounds on {}+",
                n.dice, n.hit, n.damage
            );
        }
        println!(
            "  expected wounds taken {:.3}; eliminated {:.4} fleeing {:.4} broken {:.4} unbroken {:.4}",
            side.expected_wounds,
            side.states.eliminated,
            side.states.fleeing,
            side.states.broken,
            side.states.unbroken
        );
    }
    println!("exact: {:?} in {exact_time:?}", exact.method);
    println!(
        "sampled: defender unbroken {:.4} (exact {:.4}), {:?} in {sampled_time:?}",
        sampled.defender.states.unbroken, exact.defender.states.unbroken, sampled.method
    );
    Ok(())
}

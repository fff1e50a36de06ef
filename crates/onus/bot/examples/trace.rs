//! Prints a battle's actions and events (debugging aid).
use acies_bot::{Arena, BotKind, battle_seeds};
use acies_core::Ruleset;
use onus_bot::{Observation, OnusArena};
use onus_game::{Onus, Setup};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let setup = Setup::two_presets(&arg(0, "romans-1000"), &arg(1, "celts-1000"));
    let kinds: [BotKind; 2] = [arg(2, "random").parse()?, arg(3, "scripted").parse()?];
    let seed: u64 = arg(4, "2").parse()?;
    let index: u64 = arg(5, "0").parse()?;
    let (g, bs) = battle_seeds(seed, index, 2);
    let mut bots: Vec<_> = kinds
        .iter()
        .zip(bs)
        .map(|(k, s)| OnusArena::bot(*k, s).ok_or("no such bot"))
        .collect::<Result<_, _>>()?;
    let mut state = Onus::new_game(&setup, g)?;
    while let Some(seat) = Onus::to_act(&state) {
        let obs = Observation::new(&state, seat)?;
        let a = match bots[seat.index()].act(obs.state(), seat) {
            Ok(a) => a,
            Err(e) => {
                let mut rng = acies_core::GameRng::new(1);
                let real = onus_game::chooser::choose(&state, &mut rng);
                let end = Onus::apply(&state, seat, &onus_game::Action::EndPhase).err();
                println!("bot error {e}; chooser on the real state: {real:?}; end phase: {end:?}");
                for u in state.table().units().filter(|u| u.owner == seat.0) {
                    if let Some(c) = onus_game::movement::brash_charge(&state, u.id) {
                        let r = Onus::apply(
                            &state,
                            seat,
                            &onus_game::Action::Charge {
                                unit: u.id,
                                charge: c.clone(),
                            },
                        );
                        println!(
                            "brash {} {:?} -> {:?} activated {} moved {} recovered {}",
                            u.id,
                            c,
                            r.err(),
                            u.turn.activated,
                            u.turn.moved,
                            state.book().recovered.contains(&u.id)
                        );
                    }
                }
                return Ok(());
            }
        };
        println!(
            "T{} {:?} {seat}: {}",
            state.turn(),
            state.phase(),
            serde_json::to_string(&a)?
        );
        let ap = Onus::apply(&state, seat, &a)?;
        for e in &ap.events {
            let t = serde_json::to_string(e)?;
            if !t.contains("\"phase_started\"") {
                println!("    {}", &t[..t.len().min(300)]);
            }
        }
        state = ap.state;
    }
    Ok(())
}

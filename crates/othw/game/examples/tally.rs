//! Random battles: why each army lost morale (a diagnostic of the rosters and rules).

use acies_core::{GameRng, Ruleset};
use othw_game::{Event, Othw, legal};
use othw_model::Catalog;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (a, b) = (
        args.get(1).map_or("republican-romans", |s| s.as_str()),
        args.get(2).map_or("carthaginians", |s| s.as_str()),
    );
    let catalog = Catalog::builtin().expect("data");
    let setup = catalog.setup("open-field", a, b).expect("setup");
    let mut why = std::collections::BTreeMap::new();
    for seed in 0..60 {
        let mut state = Othw::new_game(&setup, seed).expect("new game");
        let mut rng = GameRng::new(seed + 1000);
        while Othw::outcome(&state).is_none() {
            let seat = Othw::to_act(&state).expect("one seat acts");
            let cands = legal::candidates(&state, seat, &mut rng, 8);
            let pick = cands[rng.below(cands.len() as u32) as usize].clone();
            let applied = Othw::apply(&state, seat, &pick).expect("legal");
            for e in &applied.events {
                if let Event::Morale { side, why: w, .. } = e {
                    *why.entry((format!("{side}"), w.clone())).or_insert(0) += 1;
                }
                if let Event::Unit {
                    change: othw_game::Change::Blocked,
                    unit,
                } = e
                {
                    *why.entry((
                        format!("{}", applied.state.units[*unit].side),
                        "blocked".into(),
                    ))
                    .or_insert(0) += 1;
                }
            }
            state = applied.state;
        }
    }
    for (k, v) in why {
        println!("{k:?}: {v}");
    }
}

//! Every rule citation the engine can write names a section of `onus_game::rulebook::SECTIONS`
//! (which `onus-server` checks against our summaries in `data/onus/rules/summaries.toml`), so that every
//! citation a player sees links to its summary (issue 10, item 6). Two ways:
//!
//! * the code: every string literal of the ONUS! crates that starts as a citation does
//!   ("VII-2.C Charging", "T&F III Fords", "XI \"Elite\": ..."), and every citation in
//!   parentheses in one ("bravery (VIII)", "(IV, X)"), outside the crates' tests;
//! * random battles (presets, optional rules and the shipped battlefields at random): the rule
//!   of every refusal of a bad action (wrong seat, out of phase, mutated), of every roll, every
//!   event's `rule` and every modifier's cited section.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use acies_core::{GameRng, Ruleset};
use onus_game::rulebook::{SECTIONS, resolve};
use onus_game::setup::BattlefieldChoice;
use onus_game::state::{Decision, EngagedAct};
use onus_game::{Onus, Phase, Setup, chooser};
use serde_json::Value;

/// Whether `word` is a chapter number of the rulebook (I to XIV), with its part ("VII-2.C",
/// "XII-A").
fn chapter(word: &str) -> bool {
    let roman: String = word.chars().take_while(|c| "IVX".contains(*c)).collect();
    if roman.is_empty() || roman.len() > 4 {
        return false;
    }
    let rest = &word[roman.len()..];
    rest.is_empty()
        || rest.strip_prefix('-').is_some_and(|r| {
            !r.is_empty() && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
        })
}

/// Whether a text starts as a citation does: a chapter ("VII-3 ...", "X") or "T&F" and one.
fn starts_as_citation(text: &str) -> bool {
    let t = text.trim_start_matches(['[', '(']);
    let t = t.strip_prefix("T&F ").unwrap_or(t);
    let first = t
        .split([' ', ':', ',', ';', ')', '"', '\\', '/'])
        .next()
        .unwrap_or("");
    chapter(first)
}

/// The parts of a citation that are citations themselves: split at " / ", ", ", "; " and
/// parentheses, keeping those that start as citations do.
fn parts(citation: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in citation.split(['(', ')']) {
        for a in piece.split(" / ") {
            for b in a.split("; ") {
                for c in b.split(", ") {
                    let c = c.trim();
                    if starts_as_citation(c) {
                        out.push(c.to_owned());
                    }
                }
            }
        }
    }
    out
}

/// The citations a citation names that resolve to no section (each of its parts must).
fn unresolved(citation: &str) -> Vec<String> {
    let mut out = Vec::new();
    if resolve(citation).is_empty() {
        out.push(citation.to_owned());
    }
    for p in parts(citation) {
        if resolve(&p).is_empty() {
            out.push(p);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The string literals of Rust code (rough: good for the literals of this code base), with
/// `{...}` placeholders and `\"` escapes as they read.
fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
            prev = '\n';
            continue;
        }
        if c == '\'' && prev != 'b' {
            // A char literal ('"', '\'') or a lifetime: skip the next few characters.
            let mut ahead = chars.clone();
            let first = ahead.next();
            let quoted = match first {
                Some('\\') => {
                    ahead.next();
                    ahead.next() == Some('\'')
                }
                Some(_) => ahead.next() == Some('\''),
                None => false,
            };
            if quoted {
                chars = ahead;
            }
            prev = c;
            continue;
        }
        if c == '"' && prev != 'r' {
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        if let Some(e) = chars.next() {
                            match e {
                                '\n' => {
                                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                                        chars.next();
                                    }
                                }
                                'n' => s.push('\n'),
                                e => s.push(e),
                            }
                        }
                    }
                    '"' => break,
                    c => s.push(c),
                }
            }
            out.push(s);
            prev = '"';
            continue;
        }
        prev = c;
    }
    out
}

/// The citations written in a literal: the literal itself when it starts as one, and every
/// parenthesis in it that starts as one ("hero (X)", "(VII-5 \"Dice\")").
fn citations_in(literal: &str) -> Vec<String> {
    let mut out = Vec::new();
    if starts_as_citation(literal) {
        out.push(literal.to_owned());
    }
    let mut rest = literal;
    while let Some(open) = rest.find('(') {
        let inner = &rest[open + 1..];
        let Some(close) = inner.find(')') else { break };
        let c = &inner[..close];
        if starts_as_citation(c) {
            out.push(c.to_owned());
        }
        rest = &inner[close + 1..];
    }
    out
}

#[test]
fn every_citation_written_in_the_code_names_a_section() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in [
        "model", "combat", "cards", "table", "terrain", "game", "odds", "bot", "server",
    ] {
        rust_files(&crates.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 40, "the ONUS! sources: {}", files.len());
    let mut seen = BTreeSet::new();
    let mut bad = BTreeSet::new();
    for f in &files {
        if f.ends_with("rulebook.rs") {
            continue;
        }
        let code = std::fs::read_to_string(f).unwrap();
        // The crate's own code, without its unit tests.
        let code = code.split("#[cfg(test)]").next().unwrap_or("");
        for lit in literals(code) {
            for c in citations_in(&lit) {
                let c = c.replace(['{', '}'], "");
                for u in unresolved(&c) {
                    bad.insert(format!("{}: {u:?}", f.display()));
                }
                seen.insert(c);
            }
        }
    }
    assert!(bad.is_empty(), "citations naming no section: {bad:#?}");
    // The scan sees the citations: some of every kind.
    for sample in [
        "VII-2.C Charging",
        "T&F III Fords",
        "VIII",
        "IX Lunge",
        "XII-A Fog of war",
    ] {
        assert!(
            seen.contains(sample),
            "{sample} not seen among {} citations",
            seen.len()
        );
    }
    if std::env::var_os("ACIES_SHOW_CITATIONS").is_some() {
        for c in &seen {
            let to: Vec<String> = resolve(c).iter().map(|s| s.cite()).collect();
            println!("{c:?} -> {to:?}");
        }
    }
    println!("{} citations in the code, all resolved", seen.len());
}

#[test]
fn every_phase_decision_and_engaged_action_cites_a_section() {
    for p in [
        Phase::Deployment,
        Phase::Activation,
        Phase::Movement,
        Phase::RangedAttack,
        Phase::Skirmishers,
        Phase::Melee,
        Phase::Flight,
        Phase::EndOfTurn,
        Phase::GameOver,
    ] {
        assert!(unresolved(p.section()).is_empty(), "{p:?}: {}", p.section());
    }
    for a in [
        EngagedAct::Envelop,
        EngagedAct::Reduce,
        EngagedAct::Reposition,
        EngagedAct::Withdraw,
        EngagedAct::Retreat,
    ] {
        assert!(unresolved(a.section()).is_empty(), "{a:?}: {}", a.section());
    }
    let unit = onus_table::UnitId(1);
    for d in [
        Decision::Withdrawal {
            unit,
            distance: 1.0,
            ask: vec![],
            answers: vec![],
        },
        Decision::FightElephants {
            elephants: unit,
            victims: vec![],
            declined: 0,
        },
        Decision::Drivers { unit },
        Decision::LungeFollowUp { unit },
    ] {
        assert!(unresolved(d.section()).is_empty(), "{}", d.section());
    }
}

/// Every `rule` string of an event and every section cited by a modifier's source, anywhere
/// in its JSON.
fn event_citations(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("rule", Value::String(s)) => {
                        out.insert(s.clone());
                    }
                    ("source", Value::String(s)) => out.extend(citations_in(s)),
                    _ => event_citations(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| event_citations(x, out)),
        _ => {}
    }
}

const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

fn setup(rng: &mut GameRng) -> Setup {
    let a = PRESETS[rng.below(6) as usize];
    let b = PRESETS[rng.below(6) as usize];
    let mut setup = Setup::two_presets(a, b);
    let o = &mut setup.options;
    o.no_events = rng.below(5) == 0;
    o.protected_flanks = rng.below(3) == 0;
    o.always_active_general = rng.below(3) == 0;
    o.intimidating_dromedaries = rng.below(3) == 0;
    o.fog_of_war = (rng.below(3) == 0).then(|| 3.0 + f64::from(rng.below(6)));
    setup.scenario.victory.round_limit = Some(8);
    let fields = ["forest-and-hill", "river-crossing", "mountain-pass"];
    let pick = rng.below(5) as usize;
    if pick < fields.len() {
        setup.scenario.battlefield = Some(BattlefieldChoice::Shipped(fields[pick].into()));
    }
    setup
}

#[test]
fn every_citation_of_random_battles_names_a_section() {
    let mut rng = GameRng::new(0x5ec7);
    let mut refusals = BTreeSet::new();
    let mut events = BTreeSet::new();
    let mut pool: Vec<(onus_game::Seat, onus_game::Action)> = Vec::new();
    let mut actions = 0;
    for _ in 0..10 {
        let mut state = Onus::new_game(&setup(&mut rng), rng.next_u64()).expect("a preset setup");
        for ev in state.log().iter() {
            event_citations(&serde_json::to_value(ev).unwrap(), &mut events);
        }
        for _ in 0..900 {
            if Onus::outcome(&state).is_some() {
                break;
            }
            let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
                break;
            };
            // Bad actions: another seat's, one of another situation, a mutated one.
            let seats = Onus::seats(&state);
            let mut bad = vec![(
                seats[rng.below(seats.len() as u32) as usize],
                action.clone(),
            )];
            if !pool.is_empty() {
                bad.push(pool[rng.below(pool.len() as u32) as usize].clone());
            }
            let json = serde_json::to_value(&action).unwrap();
            if let Ok(m) = serde_json::from_value(acies_fuzz::mutate(&json, &mut rng)) {
                bad.push((seat, m));
            }
            for (s, a) in &bad {
                if let Err(e) = Onus::apply(&state, *s, a)
                    && let Some(rule) = e.section()
                {
                    refusals.insert(rule.to_owned());
                }
            }
            if pool.len() < 400 {
                pool.push((seat, action.clone()));
            } else {
                let i = rng.below(400) as usize;
                pool[i] = (seat, action.clone());
            }
            let applied = Onus::apply(&state, seat, &action).expect("the chooser's action");
            for ev in &applied.events {
                event_citations(&serde_json::to_value(ev).unwrap(), &mut events);
            }
            state = applied.state;
            actions += 1;
        }
    }
    let mut bad = BTreeSet::new();
    for c in refusals.iter().chain(events.iter()) {
        for u in unresolved(c) {
            bad.insert(u);
        }
    }
    if std::env::var_os("ACIES_SHOW_CITATIONS").is_some() {
        for c in refusals.iter().chain(events.iter()) {
            let to: Vec<String> = resolve(c).iter().map(|s| s.cite()).collect();
            println!("{c:?} -> {to:?}");
        }
    }
    assert!(bad.is_empty(), "citations naming no section: {bad:#?}");
    assert!(refusals.len() >= 8, "few refusals seen: {refusals:?}");
    assert!(events.len() >= 8, "few rolls and events seen: {events:?}");
    println!(
        "{actions} actions: {} refusal rules and {} roll, event and modifier citations, all resolved; {} sections",
        refusals.len(),
        events.len(),
        SECTIONS.len()
    );
}

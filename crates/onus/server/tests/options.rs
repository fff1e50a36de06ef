//! The UI's option lists against the engine (issue 10): over random positions of random
//! battles, every option the server's `unit_options` and `choices` answers offer is accepted
//! by `Onus::apply`, and every candidate of the engine's own chooser that `Onus::apply`
//! accepts is offered, for every kind of action those answers list. Also: no refusal, event
//! or answer a player reads carries Rust debug text.

use acies_core::{GameRng, Ruleset, Viewer};
use acies_geom::Edge;
use onus_cards::TurnDraw;
use onus_game::state::{Pending, Phase};
use onus_game::{Action, ChargeSpec, GameState, Onus, Seat, Setup, chooser};
use onus_server::query::answer;
use onus_table::{EnvelopChoice, MoveOrder, Step, UnitId};
use serde_json::{Value, json};

fn ask(state: &GameState, seat: Seat, q: Value) -> Value {
    answer(state, Viewer::Seat(seat), q.clone()).unwrap_or_else(|e| panic!("{q} refused: {e:?}"))
}

fn accepted(state: &GameState, seat: Seat, action: &Action) -> bool {
    Onus::apply(state, seat, action).is_ok()
}

fn unit_options(state: &GameState, seat: Seat, unit: UnitId) -> Value {
    ask(state, seat, json!({"kind": "unit_options", "unit": unit}))
}

/// Text a player would read that is Rust's `{:?}` of a type instead of words.
fn debug_text(s: &str) -> Option<&'static str> {
    const MARKS: [&str; 14] = [
        "{ ", " }", "Vec2", "Pose", "UnitId(", "CardId(", "Seat(", "Some(", "None)", "Card(",
        "[Left", "[Rear", "Advance(", "Wheel {",
    ];
    MARKS.into_iter().find(|m| s.contains(m))
}

/// Every string inside a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Every `error` text of an answer (refusals inside `why_not`, shots, verdicts...).
fn errors(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| errors(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("error", Value::String(s)) => out.push(s.clone()),
                    _ => errors(x, out),
                }
            }
        }
        _ => {}
    }
}

/// Every offer of `unit_options` is accepted by the engine as offered.
fn offers_are_accepted(state: &GameState, seat: Seat, unit: UnitId, o: &Value) -> usize {
    let mut checked = 0;
    if o["may_move"] == true {
        let order: MoveOrder = serde_json::from_value(o["sample_move"].clone()).unwrap();
        let action = if state.phase() == Phase::Skirmishers {
            Action::SkirmishMove { unit, order }
        } else {
            Action::Move { unit, order }
        };
        assert!(
            accepted(state, seat, &action),
            "may_move with a refused move: {o}"
        );
        checked += 1;
    }
    assert_eq!(
        o["may_charge"] == true,
        !o["charges"].as_array().unwrap().is_empty()
    );
    for c in o["charges"].as_array().unwrap() {
        let spec: ChargeSpec = serde_json::from_value(c["charge"].clone()).unwrap();
        assert_eq!(
            serde_json::to_value(spec.side).unwrap(),
            c["side"],
            "the side shown is the side sent"
        );
        for envelop in c["envelop"].as_array().unwrap() {
            let mut spec = spec.clone();
            spec.envelop = serde_json::from_value(envelop.clone()).unwrap();
            let action = Action::Charge { unit, charge: spec };
            if let Err(e) = Onus::apply(state, seat, &action) {
                panic!("offered charge refused: {e}; offer {c}");
            }
            checked += 1;
        }
    }
    if o["may_shoot"] == true {
        for s in o["shots"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["ok"] == true)
        {
            let target = serde_json::from_value(s["target"].clone()).unwrap();
            let action = Action::Shoot {
                shooter: unit,
                target,
            };
            assert!(accepted(state, seat, &action), "offered shot refused: {s}");
            checked += 1;
        }
    }
    if let Some(e) = o["engaged_actions"].as_object() {
        let mut offered: Vec<Action> = Vec::new();
        for x in e["envelop"].as_array().unwrap() {
            let target = serde_json::from_value(x["target"].clone()).unwrap();
            offered.push(Action::Envelop {
                unit,
                target,
                choice: EnvelopChoice::Max,
            });
        }
        if e["retreat"]["ok"] == true {
            offered.push(Action::Retreat { unit });
        }
        if e["withdraw"]["ok"] == true {
            let distance = e["withdraw"]["max_distance"].as_f64().unwrap();
            offered.push(Action::Withdraw { unit, distance });
        }
        for x in e["reduce"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["ok"] == true)
        {
            let flank = serde_json::from_value(x["flank"].clone()).unwrap();
            offered.push(Action::Reduce { unit, flank });
        }
        for x in e["reposition90"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["ok"] == true)
        {
            let pose = serde_json::from_value(x["pose"].clone()).unwrap();
            offered.push(Action::Reposition90 { unit, pose });
        }
        if e["reposition180"]["ok"] == true {
            offered.push(Action::Reposition180 { unit });
        }
        for x in e["remove_enveloping"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["ok"] == true)
        {
            offered.push(Action::RemoveEnveloping {
                unit,
                enemy: serde_json::from_value(x["enemy"].clone()).unwrap(),
                slots: vec![serde_json::from_value(x["slot"].clone()).unwrap()],
            });
        }
        for (x, a) in e["envelop"].as_array().unwrap().iter().zip(&offered) {
            assert_eq!(x["ok"] == true, accepted(state, seat, a), "{x}");
        }
        for a in offered.iter().skip(e["envelop"].as_array().unwrap().len()) {
            assert!(accepted(state, seat, a), "offered {a:?} refused");
            checked += 1;
        }
    }
    checked
}

/// The `choices` answer for `seat`, each verdict checked against the engine.
fn choices_agree(state: &GameState, seat: Seat) -> Value {
    let c = ask(state, seat, json!({"kind": "choices"}));
    let mut all = Vec::new();
    collect_choices(&c, &mut all);
    for (action, verdict) in all {
        let action: Action = serde_json::from_value(action).unwrap();
        assert_eq!(
            verdict["ok"] == true,
            accepted(state, seat, &action),
            "choices says {verdict} for {action:?}"
        );
    }
    c
}

fn collect_choices(v: &Value, out: &mut Vec<(Value, Value)>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| collect_choices(x, out)),
        Value::Object(o) if o.contains_key("action") && o.contains_key("verdict") => {
            out.push((o["action"].clone(), o["verdict"].clone()));
        }
        Value::Object(o) => o.values().for_each(|x| collect_choices(x, out)),
        _ => {}
    }
}

fn offered_ok(v: &Value) -> bool {
    v["verdict"]["ok"] == true
}

/// Every chooser candidate the engine accepts is among the answers' offers.
fn candidates_are_offered(state: &GameState, seat: Seat, rng: &mut GameRng) -> usize {
    let mut checked = 0;
    let choices = ask(state, seat, json!({"kind": "choices"}));
    for a in chooser::candidates(state, seat, rng) {
        if !accepted(state, seat, &a) {
            continue;
        }
        let offered = match &a {
            Action::Move { unit, .. } | Action::SkirmishMove { unit, .. } => {
                unit_options(state, seat, *unit)["may_move"] == true
            }
            Action::Charge { unit, charge } => {
                let o = unit_options(state, seat, *unit);
                o["charges"].as_array().unwrap().iter().any(|c| {
                    c["target"] == json!(charge.target) && {
                        let side: Option<Edge> = serde_json::from_value(c["side"].clone()).unwrap();
                        let mut same = charge.clone();
                        same.side = side;
                        accepted(
                            state,
                            seat,
                            &Action::Charge {
                                unit: *unit,
                                charge: same,
                            },
                        )
                    }
                })
            }
            Action::Shoot { shooter, target } => {
                let o = unit_options(state, seat, *shooter);
                let shot = o["shots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["target"] == json!(target))
                    .cloned()
                    .unwrap_or(Value::Null);
                // VII-3 "Range": a shot declared out of range is accepted and lost; the
                // panel lists it with the engine's reason rather than offering it.
                match state.table().shot(*shooter, *target) {
                    Ok(_) => o["may_shoot"] == true && shot["ok"] == true,
                    Err(_) => shot["ok"] == false && shot["error"].is_string(),
                }
            }
            Action::Envelop { unit, target, .. } => {
                let o = unit_options(state, seat, *unit);
                o["engaged_actions"]["envelop"].as_array().is_some_and(|v| {
                    v.iter()
                        .any(|x| x["target"] == json!(target) && x["ok"] == true)
                })
            }
            Action::Retreat { unit } => {
                unit_options(state, seat, *unit)["engaged_actions"]["retreat"]["ok"] == true
            }
            Action::Withdraw { unit, distance } => {
                let w = &unit_options(state, seat, *unit)["engaged_actions"]["withdraw"];
                w["ok"] == true && w["max_distance"].as_f64().unwrap() >= *distance - 1e-9
            }
            Action::Reduce { unit, flank } => {
                unit_options(state, seat, *unit)["engaged_actions"]["reduce"]
                    .as_array()
                    .is_some_and(|v| {
                        v.iter()
                            .any(|x| x["flank"] == json!(flank) && x["ok"] == true)
                    })
            }
            Action::Reposition180 { unit } => {
                unit_options(state, seat, *unit)["engaged_actions"]["reposition180"]["ok"] == true
            }
            Action::PlayEvents {
                cards,
                redraw,
                flee_if_wounded,
                ..
            } => {
                let mut ok = choices["decision"] == "events";
                if cards.is_empty() && !redraw && !flee_if_wounded {
                    ok &= offered_ok(&choices["none"]);
                }
                for c in cards {
                    ok &= choices["cards"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|x| x["action"]["cards"] == json!([c]) && offered_ok(x));
                }
                if *redraw {
                    ok &= offered_ok(&choices["redraw"]);
                }
                if *flee_if_wounded {
                    ok &= offered_ok(&choices["flee_if_wounded"]);
                }
                ok
            }
            Action::EliteDrawTwo => offered_ok(&choices["elite_draw_two"]),
            Action::KeepRandomEvent { card } => choices["keep"].as_array().is_some_and(|v| {
                v.iter()
                    .any(|x| x["action"]["card"] == json!(card) && offered_ok(x))
            }),
            Action::ChooseSide { side } => choices["sides"].as_array().is_some_and(|v| {
                v.iter()
                    .any(|x| x["action"]["side"] == json!(side) && offered_ok(x))
            }),
            Action::Draw { choice } => match choice {
                TurnDraw::OrderPlayed => offered_ok(&choices["order_played"]),
                TurnDraw::DrawThree => offered_ok(&choices["draw_three"]),
                TurnDraw::Discard(_) => offered_ok(&choices["discard"]),
            },
            Action::DiscardExcess { .. } => offered_ok(&choices["discard"]),
            // Actions no option list of these answers carries (orders, deployment, fights,
            // flight checks, the end of a phase...).
            _ => continue,
        };
        assert!(
            offered,
            "the engine accepts {a:?} but the options do not offer it; choices {choices}"
        );
        checked += 1;
    }
    checked
}

/// Actions meant to be refused in many ways, to read the engine's refusals.
fn probes(state: &GameState, seat: Seat) -> Vec<Action> {
    let mut out = vec![
        Action::EndPhase,
        Action::EliteDrawTwo,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
        Action::Draw {
            choice: TurnDraw::OrderPlayed,
        },
        Action::PlayEvents {
            cards: Vec::new(),
            redraw: true,
            flee_if_wounded: true,
            wind_target: None,
        },
        Action::AnswerWithdrawal { keep_contact: true },
        Action::LungeFollowUp { order: None },
    ];
    for side in Edge::ALL {
        out.push(Action::ChooseSide { side });
    }
    let mine: Vec<UnitId> = state
        .table()
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id)
        .collect();
    let theirs: Vec<UnitId> = state
        .table()
        .units()
        .filter(|u| u.owner != seat.0)
        .map(|u| u.id)
        .take(3)
        .collect();
    for &unit in mine.iter().take(6) {
        for d in [1.0, 3.0, 8.0] {
            out.push(Action::Move {
                unit,
                order: MoveOrder::new(vec![Step::Advance(d)]),
            });
        }
        out.push(Action::Move {
            unit,
            order: MoveOrder::new(vec![Step::wheel_left(60.0), Step::Advance(4.0)]),
        });
        out.push(Action::Withdraw {
            unit,
            distance: 9.0,
        });
        out.push(Action::Reposition180 { unit });
        out.push(Action::Reduce {
            unit,
            flank: onus_table::Flank::Left,
        });
        for &target in &theirs {
            out.push(Action::Shoot {
                shooter: unit,
                target,
            });
            out.push(Action::Envelop {
                unit,
                target,
                choice: EnvelopChoice::Slots(vec![onus_table::FrontSlot::Card(0)]),
            });
            for c in onus_game::movement::charge_candidates(state.table(), unit, target) {
                for side in Edge::ALL {
                    let mut c = c.clone();
                    c.side = Some(side);
                    out.push(Action::Charge { unit, charge: c });
                }
            }
        }
    }
    out
}

fn no_debug_text(what: &str, texts: &[String]) {
    for t in texts {
        if let Some(mark) = debug_text(t) {
            panic!("{what} carries Rust debug text ({mark:?}): {t}");
        }
    }
}

fn setups() -> Vec<Setup> {
    vec![
        Setup::two_presets("romans-1000", "celts-1000"),
        Setup::two_presets("carthaginians-1000", "dacians-1000"),
        Setup::two_presets("parthians-1000", "mercenaries-1000"),
    ]
}

/// The property of issue 10: random positions from random battles, every action kind the
/// option answers list, both directions.
#[test]
fn offered_options_are_exactly_the_engines() {
    let (mut offers, mut candidates, mut refusals) = (0, 0, 0);
    for (i, setup) in setups().iter().enumerate() {
        for seed in [3u64, 11] {
            let seed = seed + i as u64 * 100;
            let mut state = Onus::new_game(setup, seed).expect("setup");
            let mut rng = GameRng::new(seed ^ 0x0915);
            let mut probe_rng = GameRng::new(seed ^ 0x5eed);
            for step in 0..2_500 {
                let Some(seat) = Onus::to_act(&state) else {
                    break;
                };
                // A random position: every few actions, and every fight or draw decision.
                let decision = state.pending().is_some() || state.phase() == Phase::EndOfTurn;
                if state.phase() != Phase::Deployment && (step % 9 == 0 || decision) {
                    for u in state
                        .table()
                        .units()
                        .filter(|u| u.owner == seat.0)
                        .map(|u| u.id)
                        .collect::<Vec<_>>()
                    {
                        if state.phase() == Phase::Activation {
                            break;
                        }
                        let o = unit_options(&state, seat, u);
                        offers += offers_are_accepted(&state, seat, u, &o);
                        let mut texts = Vec::new();
                        errors(&o, &mut texts);
                        no_debug_text("a unit_options answer", &texts);
                    }
                    choices_agree(&state, seat);
                    candidates += candidates_are_offered(&state, seat, &mut probe_rng);
                    let mut texts = Vec::new();
                    for s in [seat, Seat(1 - seat.0)] {
                        for a in probes(&state, s) {
                            if let Err(e) = Onus::apply(&state, s, &a) {
                                texts.push(e.to_string());
                            }
                        }
                    }
                    refusals += texts.len();
                    no_debug_text("a refusal", &texts);
                }
                let (seat, action) = chooser::choose(&state, &mut rng).expect("a legal action");
                let applied = Onus::apply(&state, seat, &action).expect("legal");
                let mut texts = Vec::new();
                for e in &applied.events {
                    strings(&serde_json::to_value(e).unwrap(), &mut texts);
                }
                no_debug_text("an event", &texts);
                state = applied.state;
            }
        }
    }
    // The property was exercised, not skipped.
    assert!(offers > 200, "only {offers} offers checked");
    assert!(
        candidates > 200,
        "only {candidates} chooser candidates checked"
    );
    assert!(refusals > 1_000, "only {refusals} refusals read");
}

/// Issue 10, item 1: a brash unit that must charge (IX) is offered every side of its target
/// the engine lets it line up with, each accepted exactly as offered.
#[test]
fn a_brash_units_compulsory_charge_offers_every_side_the_engine_accepts() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let mut found = 0;
    for seed in 0..40u64 {
        let mut state = Onus::new_game(&setup, seed).expect("setup");
        let mut rng = GameRng::new(seed ^ 0x0915);
        for _ in 0..1_500 {
            let Some(seat) = Onus::to_act(&state) else {
                break;
            };
            if state.phase() == Phase::Movement
                && state.pending().is_none()
                && state.decisions().is_empty()
            {
                let brash: Vec<UnitId> = state
                    .table()
                    .units()
                    .filter(|u| u.owner == seat.0 && !u.turn.activated)
                    .filter(|u| onus_game::movement::brash_charge(&state, u.id).is_some())
                    .map(|u| u.id)
                    .collect();
                for unit in brash {
                    let o = unit_options(&state, seat, unit);
                    assert_eq!(o["may_charge"], true, "a brash unit that must charge: {o}");
                    offers_are_accepted(&state, seat, unit, &o);
                    // Every side the table says the contact leaves, for each target offered.
                    for c in o["charges"].as_array().unwrap() {
                        let spec: ChargeSpec = serde_json::from_value(c["charge"].clone()).unwrap();
                        let plan = state
                            .table()
                            .check_brash_charge(unit, &spec.order())
                            .expect("offered, so checked");
                        for side in &plan.sides {
                            let mut sided = spec.clone();
                            sided.side = Some(*side);
                            if accepted(
                                &state,
                                seat,
                                &Action::Charge {
                                    unit,
                                    charge: sided,
                                },
                            ) {
                                assert!(
                                    o["charges"]
                                        .as_array()
                                        .unwrap()
                                        .iter()
                                        .any(|x| x["target"] == c["target"]
                                            && x["side"] == json!(side)),
                                    "{side:?} of {} accepted but not offered: {o}",
                                    c["target"]
                                );
                            }
                        }
                    }
                    found += 1;
                }
            }
            let (seat, action) = chooser::choose(&state, &mut rng).expect("a legal action");
            state = Onus::apply(&state, seat, &action).expect("legal").state;
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found >= 5, "only {found} compulsory brash charges met");
}

/// The first state of a random battle where the seat to act, in its Movement Phase, has an
/// activated unit that has not moved and that a friend, moved onto it, now overlaps
/// (VII-2 "Overlapping": legal until the phase ends), with the overlapped unit.
pub fn overlapped_friend(
    setup: &Setup,
    seeds: std::ops::Range<u64>,
) -> Option<(GameState, UnitId)> {
    for seed in seeds {
        let mut state = Onus::new_game(setup, seed).expect("setup");
        let mut rng = GameRng::new(seed ^ 0x0915);
        for _ in 0..1_500 {
            let seat = Onus::to_act(&state)?;
            if state.phase() == Phase::Movement
                && state.pending().is_none()
                && state.decisions().is_empty()
            {
                let ready: Vec<UnitId> = state
                    .table()
                    .units()
                    .filter(|u| u.owner == seat.0 && u.turn.activated && !u.turn.moved)
                    .filter(|u| !state.table().is_engaged(u.id) && !u.state.fleeing)
                    .map(|u| u.id)
                    .collect();
                for &a in &ready {
                    for &b in &ready {
                        if a == b {
                            continue;
                        }
                        let (pa, pb) = (
                            state.table().unit(a).unwrap().pose,
                            state.table().unit(b).unwrap().pose,
                        );
                        let ahead = pa.to_local(pb.centre);
                        if ahead.y <= 0.0 || ahead.x.abs() > 0.5 {
                            continue;
                        }
                        let order = MoveOrder::new(vec![Step::Advance(ahead.y)]);
                        let mv = Action::Move { unit: a, order };
                        if let Ok(next) = Onus::apply(&state, seat, &mv) {
                            if next.state.table().first_overlap().is_some() {
                                return Some((next.state, b));
                            }
                        }
                    }
                }
            }
            let (seat, action) = chooser::choose(&state, &mut rng)?;
            state = Onus::apply(&state, seat, &action).ok()?.state;
        }
    }
    None
}

/// Issue 10, item 2: a unit a friend stopped on may still move (the engine accepts it), and
/// the options say so; the refusal of staying put names the place in words.
#[test]
fn a_unit_a_friend_stopped_on_is_offered_its_move() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let (state, unit) = overlapped_friend(&setup, 0..60).expect("a friend stopped on a unit");
    let seat = Onus::to_act(&state).unwrap();
    let stay = Action::Move {
        unit,
        order: MoveOrder::new(Vec::new()),
    };
    let refusal = Onus::apply(&state, seat, &stay).expect_err("it may not stay under its friend");
    let text = refusal.to_string();
    assert!(text.contains("would end its move overlapping"), "{text}");
    assert_eq!(debug_text(&text), None, "{text}");
    assert!(text.contains("DU, facing"), "{text}");
    let o = unit_options(&state, seat, unit);
    assert_eq!(o["may_move"], true, "{o}");
    assert!(offers_are_accepted(&state, seat, unit, &o) >= 1);
}

/// Issue 10, item 4: the dialogs' choices are the engine's: no "Draw 3" after an order, no
/// redraw for a regular unit, no voluntary flight for a shooter.
#[test]
fn dialog_choices_are_only_those_the_engine_accepts() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let (mut draws, mut shooters, mut regulars) = (0, 0, 0);
    for seed in 0..20u64 {
        let mut state = Onus::new_game(&setup, seed).expect("setup");
        let mut rng = GameRng::new(seed ^ 0x0915);
        for _ in 0..1_500 {
            let Some(seat) = Onus::to_act(&state) else {
                break;
            };
            let c = choices_agree(&state, seat);
            if c["decision"] == "draw" && state.book().orders.iter().any(|o| o.seat == seat) {
                assert_eq!(c["draw_three"]["verdict"]["ok"], false, "{c}");
                assert_eq!(c["order_played"]["verdict"]["ok"], true, "{c}");
                draws += 1;
            }
            if let Some(Pending::Fight(f)) = state.pending() {
                if c["decision"] == "events" {
                    if matches!(f.kind, onus_game::state::FightKind::Ranged { .. })
                        && f.stage == onus_game::state::FightStage::AttackerEvents
                    {
                        assert_eq!(c["flee_if_wounded"]["verdict"]["ok"], false, "{c}");
                        shooters += 1;
                    }
                    let (a, d) = match f.kind {
                        onus_game::state::FightKind::Ranged {
                            shooter, target, ..
                        } => (shooter, target),
                        onus_game::state::FightKind::Melee {
                            attacker, defender, ..
                        } => (attacker, defender),
                    };
                    let mine = if f.stage == onus_game::state::FightStage::AttackerEvents {
                        a
                    } else {
                        d
                    };
                    if state
                        .table()
                        .unit(mine)
                        .is_ok_and(|u| u.state.rank == onus_model::Rank::Regular)
                    {
                        assert_eq!(c["redraw"]["verdict"]["ok"], false, "{c}");
                        regulars += 1;
                    }
                }
            }
            let (seat, action) = chooser::choose(&state, &mut rng).expect("a legal action");
            state = Onus::apply(&state, seat, &action).expect("legal").state;
        }
    }
    assert!(
        draws > 5 && shooters > 5 && regulars > 5,
        "{draws} {shooters} {regulars}"
    );
}

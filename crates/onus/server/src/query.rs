//! Read-only questions a client asks about a game (see the crate's README for the shapes):
//! `unit_options`, `check_move`, `check_charge`, `odds`, `measure`.
//!
//! Every answer comes from the asker's knowledge ([`crate::knowledge`]), never from the full
//! state, and nothing random runs: moves and charges are checked (they roll nothing, and the
//! knowledge's random generator is a stand-in anyway), fights are enumerated by `onus-odds`.

use acies_core::{Ruleset, Viewer};
use acies_geom::{Edge, OrientedRect, Vec2};
use onus_cards::EventOutcome;
use onus_combat::Range;
use onus_game::fight_setup::{self, Shot};
use onus_game::state::{FightKind, Pending, Phase};
use onus_game::{Action, ChargeSpec, GameError, GameState, Onus, Seat};
use onus_table::{MoveOrder, RangeBand, Step, Table, TableError, UnitId};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::knowledge::{knowledge, visible};

/// A refusal: a machine code and a sentence.
pub type Refusal = (String, String);

fn refuse(code: &str, message: impl Into<String>) -> Refusal {
    (code.to_owned(), message.into())
}

/// The questions, as sent in `"query"`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Query {
    UnitOptions {
        unit: UnitId,
    },
    CheckMove {
        unit: UnitId,
        #[serde(default)]
        order: Option<MoveOrder>,
        #[serde(default)]
        steps: Option<Vec<Step>>,
    },
    CheckCharge {
        unit: UnitId,
        charge: ChargeSpec,
    },
    /// The game's verdict on any action of the asker (nothing is committed).
    CheckAction {
        action: Action,
    },
    /// The choices of the decision the asker must take now (a fight's events, the side of a
    /// shot, the end-of-turn draw, the hand limit), each with the game's verdict.
    Choices,
    Odds {
        #[serde(default)]
        action: Option<Action>,
        #[serde(default)]
        pending: bool,
        /// For a shot that can come from two sides: the side to assume.
        #[serde(default)]
        side: Option<Edge>,
    },
    /// The distance in DU between two marks of the table (units or points), as the rules
    /// measure it: between the nearest parts of the cards and their markers. Anybody may ask
    /// (a unit's place is public, face down or not); it changes nothing.
    Measure {
        from: Mark,
        to: Mark,
    },
}

/// One end of a measurement: a unit on the table or a point (DU).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Mark {
    Unit { unit: UnitId },
    Point { x: f64, y: f64 },
}

/// How far from the table a measured point may lie (DU): tables are a few tens of DU.
const MEASURE_BOUND: f64 = 1_000.0;

/// What the odds leave out, said in every odds answer.
const NO_EVENTS: &str =
    "not included: the random event and the events played from hand can change these odds";

/// Answers `query` for `viewer` (the entry point of `GameRules::query`).
pub fn answer(state: &GameState, viewer: Viewer<Seat>, query: Value) -> Result<Value, Refusal> {
    let query: Query = serde_json::from_value(query).map_err(|e| {
        refuse(
            "bad_query",
            format!(
                "{e}; the kinds are unit_options, check_move, check_charge, check_action, choices, odds, measure (see crates/onus/server/README.md)"
            ),
        )
    })?;
    let k = knowledge(state, viewer).map_err(|e| refuse("unavailable", e))?;
    match query {
        Query::UnitOptions { unit } => unit_options(&k, seat_of(viewer)?, unit),
        Query::CheckMove { unit, order, steps } => {
            let order = match (order, steps) {
                (Some(o), None) => o,
                (None, Some(steps)) => MoveOrder::new(steps),
                _ => {
                    return Err(refuse(
                        "bad_query",
                        "check_move takes either `order` (a MoveOrder) or `steps`",
                    ));
                }
            };
            check_move(&k, seat_of(viewer)?, unit, order)
        }
        Query::CheckCharge { unit, charge } => check_charge(&k, seat_of(viewer)?, unit, charge),
        Query::CheckAction { action } => Ok(verdict(&k, seat_of(viewer)?, &action)),
        Query::Choices => Ok(choices(&k, seat_of(viewer)?)),
        Query::Odds {
            action,
            pending,
            side,
        } => match (action, pending) {
            (Some(action), false) => odds_of_action(&k, viewer, &action, side),
            (None, true) => odds_of_pending(&k, viewer),
            _ => Err(refuse(
                "bad_query",
                "odds takes either `action` (shoot, charge, fight, shoot_structure, set_on_fire or batter) or `\"pending\": true`",
            )),
        },
        Query::Measure { from, to } => measure(&k, &from, &to),
    }
}

/// What a mark stands for: the rectangles of a unit's footprint (card and markers) or a point.
enum Shape {
    Rects(Vec<OrientedRect>),
    Point(Vec2),
}

fn shape(k: &GameState, mark: &Mark) -> Result<Shape, Refusal> {
    match *mark {
        Mark::Unit { unit } => {
            let u = k
                .table()
                .unit(unit)
                .map_err(|_| refuse("unknown_unit", format!("{unit} is not on the table")))?;
            Ok(Shape::Rects(
                u.footprint().into_iter().map(|(_, r)| r).collect(),
            ))
        }
        Mark::Point { x, y } => {
            if !(x.is_finite() && y.is_finite())
                || x.abs() > MEASURE_BOUND
                || y.abs() > MEASURE_BOUND
            {
                return Err(refuse(
                    "bad_query",
                    format!("a point is measured within {MEASURE_BOUND} DU of the table"),
                ));
            }
            Ok(Shape::Point(Vec2::new(x, y)))
        }
    }
}

/// The nearest points of a rectangle and a point, and their distance (0 inside).
fn rect_to_point(r: &OrientedRect, p: Vec2) -> (Vec2, Vec2, f64) {
    let d = r.distance_to_point(p);
    if d <= 0.0 {
        return (p, p, 0.0);
    }
    (r.nearest_point(p).point, p, d)
}

/// The nearest points of two rectangles and their distance (0 when they touch or overlap):
/// separated convex shapes are nearest at a corner of one of them.
fn rect_to_rect(a: &OrientedRect, b: &OrientedRect) -> (Vec2, Vec2, f64) {
    let mut best = (a.pose.centre, b.pose.centre, f64::INFINITY);
    for c in a.corners() {
        let (q, _, d) = rect_to_point(b, c);
        if d < best.2 {
            best = (c, q, d);
        }
    }
    for c in b.corners() {
        let (q, _, d) = rect_to_point(a, c);
        if d < best.2 {
            best = (q, c, d);
        }
    }
    let d = a.distance(b);
    if d <= 0.0 {
        // Touching or overlapping: nothing between them.
        return (best.0, best.0, 0.0);
    }
    best
}

/// The distance between two marks and the points it runs between (`from` on the first).
fn measure(k: &GameState, from: &Mark, to: &Mark) -> Result<Value, Refusal> {
    let (a, b) = (shape(k, from)?, shape(k, to)?);
    let swap = |(p, q, d): (Vec2, Vec2, f64)| (q, p, d);
    let pairs: Vec<(Vec2, Vec2, f64)> = match (&a, &b) {
        (Shape::Point(p), Shape::Point(q)) => vec![(*p, *q, p.distance(*q))],
        (Shape::Rects(rs), Shape::Point(p)) => rs.iter().map(|r| rect_to_point(r, *p)).collect(),
        (Shape::Point(p), Shape::Rects(rs)) => {
            rs.iter().map(|r| swap(rect_to_point(r, *p))).collect()
        }
        (Shape::Rects(ra), Shape::Rects(rb)) => ra
            .iter()
            .flat_map(|r| rb.iter().map(move |o| rect_to_rect(r, o)))
            .collect(),
    };
    let (p, q, d) = pairs
        .into_iter()
        .min_by(|x, y| x.2.total_cmp(&y.2))
        .ok_or_else(|| not_applicable("nothing to measure"))?;
    Ok(json!({
        "distance": d,
        "from": { "x": p.x, "y": p.y },
        "to": { "x": q.x, "y": q.y },
    }))
}

fn seat_of(viewer: Viewer<Seat>) -> Result<Seat, Refusal> {
    match viewer {
        Viewer::Seat(seat) => Ok(seat),
        Viewer::Spectator => Err(refuse(
            "no_seat",
            "this question is about your own units: ask with your seat's token",
        )),
    }
}

/// The unit, if it is on the table and the seat's.
fn own_unit(k: &GameState, seat: Seat, unit: UnitId) -> Result<&onus_table::TableUnit, Refusal> {
    let u = k
        .table()
        .unit(unit)
        .map_err(|_| refuse("unknown_unit", format!("{unit} is not on the table")))?;
    if u.owner != seat.0 {
        return Err(refuse(
            "not_your_unit",
            format!("{unit} is not yours: ask about your own units"),
        ));
    }
    Ok(u)
}

fn reason(error: impl std::fmt::Display, rule: Option<&str>) -> Value {
    json!({ "error": error.to_string(), "rule": rule })
}

fn game_error(e: &GameError) -> Value {
    reason(e, e.section())
}

fn refused(e: &GameError) -> Value {
    json!({ "ok": false, "error": e.to_string(), "rule": e.section() })
}

fn unit_options(k: &GameState, seat: Seat, unit: UnitId) -> Result<Value, Refusal> {
    let u = own_unit(k, seat, unit)?;
    let t = k.table();
    let my_turn = Onus::to_act(k) == Some(seat);
    let phase = k.phase();
    let allowance = t
        .movement_allowance(unit)
        .map_err(|e| refuse("unknown_unit", e.to_string()))?;
    let engaged = t.engaged_enemies(unit);
    let mut why_not = serde_json::Map::new();
    let moving = move_options(k, seat, u, &allowance, &mut why_not);
    let (may_charge, charges) = charge_options(k, seat, u, &mut why_not);
    let (may_shoot, shots) = shot_options(k, seat, u, &mut why_not);
    let engaged_actions = if phase == Phase::Movement && !engaged.is_empty() {
        Some(engaged_actions(k, seat, u, &engaged))
    } else {
        None
    };
    let facing = if moving.sample.is_some() {
        facing_option(t, unit)
    } else {
        None
    };
    // T&F IV–V: what the unit may do to the battlefield's structures, as the engine lists it.
    let structure_actions: Vec<Value> = if my_turn {
        onus_game::structures::unit_actions(k, seat, unit)
            .into_iter()
            .map(|a| json!({ "label": structure_action_label(t, &a), "action": a }))
            .collect()
    } else {
        Vec::new()
    };
    let reorient = if k.book().may_reorient.contains(&unit) {
        let heading = u.pose.heading;
        Some(json!({
            "heading": heading,
            "verdict": verdict(k, seat, &Action::Reorient { unit, heading: heading + std::f64::consts::FRAC_PI_2 }),
        }))
    } else {
        None
    };

    Ok(json!({
        "unit": unit,
        "phase": phase,
        "my_turn": my_turn,
        "activated": u.turn.activated,
        "moved": u.turn.moved,
        "engaged_with": engaged,
        "allowance": allowance,
        "left": moving.left,
        "may_move": moving.sample.is_some(),
        "sample_move": moving.sample,
        "may_charge": may_charge,
        "may_shoot": may_shoot,
        "why_not": why_not,
        "charges": charges,
        "shots": shots,
        "engaged_actions": engaged_actions,
        "reorient": reorient,
        "facing": facing,
        "structure_actions": structure_actions,
    }))
}

/// Whether a unit may move now, and how far.
struct MoveOptions {
    /// A move the game accepts, if any.
    sample: Option<MoveOrder>,
    /// What is left to move now (DU).
    left: f64,
}

/// Moving: the game itself says, on a few probe moves (moves roll nothing). An empty move is
/// not enough: a unit a friend stopped on (VII-2 "Overlapping") may not stay where it is, yet
/// may move away. The game's refusal of the first probe goes in `why_not`.
fn move_options(
    k: &GameState,
    seat: Seat,
    u: &onus_table::TableUnit,
    allowance: &onus_table::movement::Allowance,
    why_not: &mut serde_json::Map<String, Value>,
) -> MoveOptions {
    let unit = u.id;
    let skirmishers = k.phase() == Phase::Skirmishers;
    let mut first_refusal = None;
    let mut sample = None;
    for order in probe_moves(k, u, allowance.regular) {
        let action = if skirmishers {
            Action::SkirmishMove {
                unit,
                order: order.clone(),
            }
        } else {
            Action::Move {
                unit,
                order: order.clone(),
            }
        };
        match Onus::apply(k, seat, &action) {
            Ok(_) => {
                sample = Some(order);
                break;
            }
            Err(e) => {
                first_refusal.get_or_insert(e);
            }
        }
    }
    let may_move = sample.is_some();
    if let (false, Some(e)) = (may_move, &first_refusal) {
        why_not.insert("move".into(), game_error(e));
    }
    // What is left to move now: nothing for a unit the game does not let move (VII-1: a unit
    // that is not activated "cannot move or change their orientation"), else the budget of
    // its regular movement (or of the skirmishers' split movement, VII-4).
    let left = if !may_move {
        0.0
    } else if skirmishers {
        if u.turn.skirmished {
            0.0
        } else {
            allowance.skirmish_left.unwrap_or(0.0)
        }
    } else if u.turn.moved {
        0.0
    } else {
        allowance.regular
    };
    MoveOptions { sample, left }
}

/// Charging: the game's own preconditions, then what is within reach; the reason there is
/// none goes in `why_not`.
fn charge_options(
    k: &GameState,
    seat: Seat,
    u: &onus_table::TableUnit,
    why_not: &mut serde_json::Map<String, Value>,
) -> (bool, Vec<Value>) {
    let charge_bar = onus_game::legal::charge_preconditions(k, seat, u.id)
        .err()
        .map(|e| game_error(&e));
    let charges = if charge_bar.is_none() {
        charge_offers(k, seat, u)
    } else {
        Vec::new()
    };
    let may_charge = charge_bar.is_none() && !charges.is_empty();
    match charge_bar {
        Some(bar) => {
            why_not.insert("charge".into(), bar);
        }
        None if charges.is_empty() => {
            why_not.insert(
                "charge".into(),
                reason(
                    "no enemy within charging distance",
                    Some("VII-2.C Charging"),
                ),
            );
        }
        None => {}
    }
    (may_charge, charges)
}

/// Shooting: every enemy with its geometry or the reason it cannot be shot; the reason the
/// unit cannot shoot at all goes in `why_not`.
fn shot_options(
    k: &GameState,
    seat: Seat,
    u: &onus_table::TableUnit,
    why_not: &mut serde_json::Map<String, Value>,
) -> (bool, Vec<Value>) {
    let (t, unit) = (k.table(), u.id);
    let has_ranged = u.card.ranged.is_some();
    let mut shots = Vec::new();
    if has_ranged {
        for option in t.shooting_options(unit).unwrap_or_default() {
            let Ok(target) = t.unit(option.target) else {
                continue;
            };
            if k.allies(seat, Seat(target.owner)) {
                continue;
            }
            shots.push(match &option.shot {
                Ok(g) => match onus_game::fight_setup::beyond_visibility(k, g.distance) {
                    Some(bar) => json!({ "target": option.target, "ok": false,
                                        "error": bar.to_string(), "rule": bar.section() }),
                    None => json!({
                        "target": option.target, "ok": true, "distance": g.distance,
                        "band": g.band, "dice": g.band.dice(), "los_blocked": g.sight.blocked(),
                        "in_the_way": g.sight.in_the_way, "from": g.from,
                    }),
                },
                Err(e) => {
                    json!({ "target": option.target, "ok": false, "error": e.to_string(),
                            "rule": e.rule() })
                }
            });
        }
    }
    let shoot_bar = onus_game::legal::shoot_preconditions(k, seat, unit)
        .err()
        .map(|e| game_error(&e));
    let any_target = shots.iter().any(|s| s["ok"] == true);
    let may_shoot = shoot_bar.is_none() && any_target;
    match shoot_bar {
        Some(bar) => {
            why_not.insert("shoot".into(), bar);
        }
        None if !any_target => {
            why_not.insert(
                "shoot".into(),
                reason("no enemy can be shot", Some("VII-3 Ranged attack phase")),
            );
        }
        None => {}
    }
    (may_shoot, shots)
}

/// T&F II "Facing": the river, ford, bridge or choke point the card touches, else the trench
/// or barricade, else the standing wall (T&F IV), and where facing it at no cost would put
/// the card (the move's `face`, `Table::facing_pose`).
fn facing_option(t: &Table, unit: UnitId) -> Option<Value> {
    t.facing_terrain(unit)
        .map(|(pose, piece)| json!({ "piece": piece.name, "kind": piece.kind, "pose": pose }))
        .or_else(|_| {
            t.facing_obstacle(unit)
                .or_else(|_| t.facing_wall(unit))
                .map(|(pose, s)| json!({ "piece": s.label(), "kind": s.kind, "pose": pose }))
        })
        .ok()
}

/// A button's words for a structure action, naming the structure as the battlefield does.
fn structure_action_label(t: &Table, a: &Action) -> String {
    // A structure, or the half of a village that an attack names (T&F IV "Villages").
    let name = |id: &str| {
        t.battlefield()
            .and_then(|b| {
                b.part(id)
                    .map(|p| p.label())
                    .or_else(|| b.structure(id).map(|s| s.label()))
            })
            .unwrap_or_else(|| id.to_owned())
    };
    match a {
        Action::ShootStructure {
            structure,
            incendiary,
            ..
        } => {
            let how = if *incendiary {
                " with incendiary projectiles"
            } else {
                ""
            };
            format!("Shoot at {}{how}", name(structure))
        }
        Action::SetOnFire { structure, .. } => format!("Set {} on fire", name(structure)),
        Action::Extinguish { .. } => "Put out the fires it touches".to_owned(),
        Action::RemoveStructure { structure, .. } => format!("Remove {}", name(structure)),
        Action::OccupyVillage {
            structure, half, ..
        } => format!("Occupy {} (half {})", name(structure), half + 1),
        Action::Climb { structure, .. } => format!("Climb {}", name(structure)),
        Action::EnvelopTower { structure, .. } => format!(
            "Envelop {} with its free sections (before climbing)",
            name(structure)
        ),
        Action::TakeTop { .. } => "Take the top it has climbed".to_owned(),
        Action::ClimbDown { .. } => "Climb down the outside of the wall".to_owned(),
        Action::MoveSiegeTower { steps, .. } => onus_game::siege_engines::tower_move_label(steps),
        Action::Move { order, .. } => match (&order.enter, &order.exit) {
            (Some(id), _) => format!("Enter {}", name(id)),
            (None, Some(p)) => format!(
                "Leave the tower, the card at ({:.1}, {:.1})",
                p.centre.x, p.centre.y
            ),
            (None, None) => a.name().to_owned(),
        },
        other => other.name().to_owned(),
    }
}

/// The game's verdict on `action` by `seat`: `{"ok": true}` or `{"ok": false, "error",
/// "rule"}`. Applied to the asker's knowledge and thrown away (free attacks roll with the
/// knowledge's stand-in generator, so only legality is told, never an outcome).
fn verdict(k: &GameState, seat: Seat, action: &Action) -> Value {
    match Onus::apply(k, seat, action) {
        Ok(_) => json!({ "ok": true }),
        Err(e) => refused(&e),
    }
}

/// VII-2.D: each action an activated unit engaged in combat may take, with the game's verdict
/// and what it needs (the enemies, flanks, markers, the withdrawal distance, the 90° poses).
fn engaged_actions(
    k: &GameState,
    seat: Seat,
    u: &onus_table::TableUnit,
    enemies: &[UnitId],
) -> Value {
    let unit = u.id;
    let with = |action: &Action, fields: Value| {
        let mut v = verdict(k, seat, action);
        if let (Some(obj), Value::Object(extra)) = (v.as_object_mut(), fields) {
            obj.extend(extra);
        }
        v
    };
    let envelop: Vec<Value> = enemies
        .iter()
        .map(|&target| {
            let choice = onus_table::EnvelopChoice::Max;
            with(
                &Action::Envelop {
                    unit,
                    target,
                    choice,
                },
                json!({ "target": target }),
            )
        })
        .collect();
    let retreat = verdict(k, seat, &Action::Retreat { unit });
    // Withdrawal: at most half the movement, straight back (VII-2.D); the longest of a few
    // distances the game accepts is offered as the most.
    let half = k
        .table()
        .movement_allowance(unit)
        .map_or(0.0, |a| a.regular / 2.0);
    let mut withdraw = None;
    for d in [half, half * 0.75, half * 0.5, half * 0.25] {
        let v = with(
            &Action::Withdraw { unit, distance: d },
            json!({ "max_distance": d }),
        );
        let ok = v["ok"] == true;
        if withdraw.is_none() || ok {
            withdraw = Some(v);
        }
        if ok {
            break;
        }
    }
    let reduce: Vec<Value> = onus_table::Flank::BOTH
        .into_iter()
        .filter(|f| u.extended(*f))
        .map(|flank| with(&Action::Reduce { unit, flank }, json!({ "flank": flank })))
        .collect();
    let mut remove_enveloping = Vec::new();
    for &enemy in enemies {
        let markers = k
            .table()
            .engagement(unit, enemy)
            .map(|e| e.markers_of(unit))
            .unwrap_or_default();
        for (slot, section) in markers {
            let action = Action::RemoveEnveloping {
                unit,
                enemy,
                slots: vec![slot],
            };
            remove_enveloping.push(with(
                &action,
                json!({ "enemy": enemy, "slot": slot, "section": section }),
            ));
        }
    }
    let reposition90: Vec<Value> = [
        ("left", std::f64::consts::FRAC_PI_2),
        ("right", -std::f64::consts::FRAC_PI_2),
    ]
    .into_iter()
    .map(|(turn, angle)| match quarter_turn(k, u, angle) {
        Some(pose) => with(
            &Action::Reposition90 { unit, pose },
            json!({ "turn": turn, "pose": pose }),
        ),
        None => json!({
            "ok": false, "turn": turn, "rule": "VII-2.D 90° repositioning",
            "error": "no place found where the card, turned a quarter turn, keeps the same front sections in contact",
        }),
    })
    .collect();
    let reposition180 = verdict(k, seat, &Action::Reposition180 { unit });
    json!({
        "envelop": envelop,
        "retreat": retreat,
        "withdraw": withdraw,
        "reduce": reduce,
        "remove_enveloping": remove_enveloping,
        "reposition90": reposition90,
        "reposition180": reposition180,
    })
}

/// VII-2.D "90° repositioning": a place for the card turned by `angle` (±90°) that the table
/// accepts, nearest first: turned about its centre or one of its corners, then shifted by
/// the difference of its width and depth along either axis.
fn quarter_turn(k: &GameState, u: &onus_table::TableUnit, angle: f64) -> Option<acies_geom::Pose> {
    let p = u.pose;
    let (hw, hd) = (u.size.width / 2.0, u.size.depth / 2.0);
    let (f, r) = (p.forward(), p.right());
    let mut candidates = vec![p.rotated_about(p.centre, angle)];
    for (sf, sr) in [(1.0, -1.0), (1.0, 1.0), (-1.0, -1.0), (-1.0, 1.0)] {
        candidates.push(p.rotated_about(p.centre + f * (sf * hd) + r * (sr * hw), angle));
    }
    let shift = (hw - hd).abs();
    let base = p.rotated_about(p.centre, angle);
    for (sf, sr) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        candidates.push(base.translated(f * (sf * shift) + r * (sr * shift)));
    }
    candidates
        .into_iter()
        .find(|pose| k.table().clone().reposition_90(u.id, *pose).is_ok())
}

fn check_move(k: &GameState, seat: Seat, unit: UnitId, order: MoveOrder) -> Result<Value, Refusal> {
    own_unit(k, seat, unit)?;
    let skirmish = k.phase() == Phase::Skirmishers;
    let action = if skirmish {
        Action::SkirmishMove {
            unit,
            order: order.clone(),
        }
    } else {
        Action::Move {
            unit,
            order: order.clone(),
        }
    };
    // The game's verdict (phase, turn, ownership, advancing in line, the table's rules).
    if let Err(e) = Onus::apply(k, seat, &action) {
        return Ok(refused(&e));
    }
    let priced = if skirmish {
        k.table().check_skirmish_move(unit, &order)
    } else {
        k.table().check_move(unit, &order)
    };
    let mv = match priced {
        Ok(mv) => mv,
        Err(e) => return Ok(refused(&GameError::Table(e))),
    };
    Ok(json!({
        "ok": true,
        "cost": mv.cost,
        "budget": mv.budget,
        "left": (mv.budget - mv.cost).max(0.0),
        "kind": mv.kind,
        "ground": (!mv.ground.is_none()).then_some(&mv.ground),
        "end_pose": mv.end,
        "poses": mv.steps.iter().map(|s| s.end).collect::<Vec<_>>(),
        "consequences": {
            "reduced_by": mv.reduced_by,
            "may_charge": mv.charge_bar.is_none(),
            "charge_bar": mv.charge_bar,
            "may_shoot": mv.may_shoot,
            "crossed": mv.crossed,
            "breaks": mv.breaks,
            "mover_breaks": mv.mover_breaks,
            "provisional": mv.provisional,
            // T&F II "Overlapping": the friends it ends over (or under) inside their fortress.
            "overlaps": mv.overlaps,
            "beneath": mv.beneath,
            "enemy_contacts": mv.enemy_contacts,
            "carries": mv.carries,
        },
    }))
}

/// The charge as the game would check it: in the skirmishers phase, a brash unit's own, or
/// an activated unit's.
fn charge_plan(
    k: &GameState,
    unit: UnitId,
    spec: &ChargeSpec,
) -> Result<onus_table::ChargePlan, TableError> {
    let order = spec.order();
    let u = k.table().unit(unit)?;
    if k.phase() == Phase::Skirmishers {
        k.table().check_charge_in_skirmish(unit, &order)
    } else if !u.turn.activated && u.has(onus_model::Ability::Brash) {
        k.table().check_brash_charge(unit, &order)
    } else {
        k.table().check_charge(unit, &order)
    }
}

fn check_charge(
    k: &GameState,
    seat: Seat,
    unit: UnitId,
    spec: ChargeSpec,
) -> Result<Value, Refusal> {
    own_unit(k, seat, unit)?;
    let target = spec.target;
    let action = Action::Charge {
        unit,
        charge: spec.clone(),
    };
    let applied = match Onus::apply(k, seat, &action) {
        Ok(a) => a,
        Err(e) => return Ok(refused(&e)),
    };
    let plan = match charge_plan(k, unit, &spec) {
        Ok(p) => p,
        Err(e) => return Ok(refused(&GameError::Table(e))),
    };
    let dice = applied
        .state
        .table()
        .engagement(unit, target)
        .map(|e| e.dice());
    Ok(json!({
        "ok": true,
        "cost": plan.approach.cost,
        "contact": plan.contact,
        "aligned": plan.aligned,
        "side": plan.side,
        "sides": plan.sides,
        "direct": plan.direct_sections(),
        "dice": dice,
        "also_engaged": plan.also_engaged,
        "swept_wounds": plan.swept.wounds,
    }))
}

fn require_visible(k: &GameState, viewer: Viewer<Seat>, unit: UnitId) -> Result<(), Refusal> {
    if k.table().unit(unit).is_err() {
        return Err(refuse(
            "unknown_unit",
            format!("{unit} is not on the table"),
        ));
    }
    if !visible(k, viewer, unit) {
        return Err(refuse(
            "hidden_unit",
            format!("{unit} is face down for you: its odds cannot be told"),
        ));
    }
    Ok(())
}

fn not_applicable(message: impl Into<String>) -> Refusal {
    refuse("not_applicable", message)
}

fn with_fields(
    odds: &onus_odds::Odds,
    fields: Value,
    events: Option<&EventOutcome>,
) -> Result<Value, Refusal> {
    let mut v = serde_json::to_value(odds).map_err(|e| refuse("unavailable", e.to_string()))?;
    if let (Some(obj), Value::Object(extra)) = (v.as_object_mut(), fields) {
        obj.extend(extra);
        obj.insert("events".into(), events_note(events).into());
    }
    Ok(v)
}

fn combat_refusal(e: impl std::fmt::Display) -> Refusal {
    not_applicable(format!("the fight cannot be resolved: {e}"))
}

/// What the odds include of the events: none, or those known so far (see
/// [`onus_game::combat::known_events`]).
fn events_note(events: Option<&EventOutcome>) -> String {
    let titles: Vec<&str> = events
        .map(|e| e.log.iter().map(|l| l.title.as_str()).collect())
        .unwrap_or_default();
    if titles.is_empty() {
        return NO_EVENTS.into();
    }
    format!(
        "included: {} (known so far); events still to be played can change these odds",
        titles.join(", ")
    )
}

fn melee_odds(
    k: &GameState,
    attacker: UnitId,
    defender: UnitId,
    events: Option<&EventOutcome>,
) -> Result<Value, Refusal> {
    let setup = fight_setup::melee_setup(k, attacker, defender, events)
        .map_err(|e| not_applicable(e.to_string()))?;
    let odds = onus_odds::melee_odds(&setup).map_err(combat_refusal)?;
    with_fields(
        &odds,
        json!({ "fight": "melee", "attacker_unit": attacker, "defender_unit": defender,
                "dice": setup.dice }),
        events,
    )
}

/// The odds of `shot` (from `side` when given, else as the defender would choose).
fn ranged_odds(
    k: &GameState,
    shot: Shot,
    side: Option<Edge>,
    events: Option<&EventOutcome>,
) -> Result<Value, Refusal> {
    let shot = match side {
        Some(side) => shot
            .from_side(side)
            .map_err(|e| not_applicable(e.to_string()))?,
        None => shot,
    };
    let setup = fight_setup::ranged_setup(k, &shot, events).map_err(combat_refusal)?;
    let odds = onus_odds::ranged_odds(&setup).map_err(combat_refusal)?;
    let band = match shot.band {
        Range::Short => RangeBand::Short,
        Range::Long => RangeBand::Long,
    };
    with_fields(
        &odds,
        json!({ "fight": "ranged", "attacker_unit": shot.shooter, "defender_unit": shot.target,
                "dice": band.dice(), "band": band, "distance": shot.distance,
                "los_blocked": shot.los_blocked, "side": shot.side_or_defenders_choice(),
                "sides": shot.sides }),
        events,
    )
}

fn odds_of_action(
    k: &GameState,
    viewer: Viewer<Seat>,
    action: &Action,
    side: Option<Edge>,
) -> Result<Value, Refusal> {
    match action {
        Action::Shoot { shooter, target } => {
            let (shooter, target) = (*shooter, *target);
            require_visible(k, viewer, shooter)?;
            require_visible(k, viewer, target)?;
            let shot =
                Shot::measure(k, shooter, target).map_err(|e| not_applicable(e.to_string()))?;
            ranged_odds(k, shot, side, None)
        }
        Action::Fight { attacker, defender } => {
            require_visible(k, viewer, *attacker)?;
            require_visible(k, viewer, *defender)?;
            melee_odds(k, *attacker, *defender, None)
        }
        Action::Charge { unit, charge } => {
            require_visible(k, viewer, *unit)?;
            require_visible(k, viewer, charge.target)?;
            let owner = Seat(
                k.table()
                    .unit(*unit)
                    .map_err(|e| not_applicable(e.to_string()))?
                    .owner,
            );
            // The charge as the game makes it (charges roll nothing), then the melee after it.
            let after = Onus::apply(k, owner, action)
                .map_err(|e| not_applicable(format!("the charge is not possible: {e}")))?
                .state;
            melee_odds(&after, *unit, charge.target, None)
        }
        Action::ShootStructure { .. } | Action::SetOnFire { .. } | Action::Batter { .. } => {
            structure_odds(k, viewer, action)
        }
        other => Err(refuse(
            "bad_query",
            format!(
                "odds are for a shoot, charge, fight, shoot_structure, set_on_fire or batter action, not {}",
                other.name()
            ),
        )),
    }
}

/// The odds of an attack on a structure (T&F V): the attack exactly as the game would roll
/// it ([`onus_game::structures::planned_attack`]: its checks refuse what the game refuses,
/// naming the rule), enumerated by `onus-odds`. The attacker and the unit in the structure
/// must be face up for the asker (the occupant's card sets the attack's values); the
/// structure and its damage are public.
fn structure_odds(k: &GameState, viewer: Viewer<Seat>, action: &Action) -> Result<Value, Refusal> {
    let unit = match action {
        Action::ShootStructure { shooter, .. } => *shooter,
        Action::SetOnFire { unit, .. } | Action::Batter { unit, .. } => *unit,
        _ => return Err(not_applicable("not an attack on a structure")),
    };
    require_visible(k, viewer, unit)?;
    let owner = Seat(
        k.table()
            .unit(unit)
            .map_err(|e| not_applicable(e.to_string()))?
            .owner,
    );
    let planned = onus_game::structures::planned_attack(k, owner, action)
        .map_err(|e| not_applicable(e.to_string()))?;
    if let Some(o) = planned.occupant {
        require_visible(k, viewer, o)?;
    }
    let odds = onus_odds::structure_attack_odds(&planned.setup).map_err(combat_refusal)?;
    let mut v = serde_json::to_value(&odds).map_err(|e| refuse("unavailable", e.to_string()))?;
    let (hit, damage) = planned.setup.attack_values();
    if let Some(obj) = v.as_object_mut() {
        obj.extend(
            json!({
                "fight": "structure",
                "attacker_unit": unit,
                "structure": planned.structure.id,
                "structure_name": planned.setup.target.name,
                "durability": planned.setup.target.durability,
                "damage_before": planned.setup.state.wounds,
                "occupant_unit": planned.occupant,
                "to_hit": hit.total(),
                "to_damage": damage.total(),
                "resistance": planned.setup.resistance(),
                "events": NO_EVENTS,
            })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        );
    }
    Ok(v)
}

fn odds_of_pending(k: &GameState, viewer: Viewer<Seat>) -> Result<Value, Refusal> {
    let Some(Pending::Fight(f)) = k.pending() else {
        return Err(not_applicable("no fight is waiting"));
    };
    // The random event and the attacker's events, once known, are part of the fight.
    let known = onus_game::combat::known_events(k);
    match &f.kind {
        FightKind::Ranged {
            shooter, target, ..
        } => {
            require_visible(k, viewer, *shooter)?;
            require_visible(k, viewer, *target)?;
            let shot = Shot::of_pending(f).ok_or_else(|| not_applicable("not a shot"))?;
            ranged_odds(k, shot, None, known.as_ref())
        }
        FightKind::Melee {
            attacker, defender, ..
        } => {
            require_visible(k, viewer, *attacker)?;
            require_visible(k, viewer, *defender)?;
            melee_odds(k, *attacker, *defender, known.as_ref())
        }
    }
}

/// For tests: the table a viewer's queries are answered from.
#[doc(hidden)]
pub fn known_table(state: &GameState, viewer: Viewer<Seat>) -> Result<Table, String> {
    knowledge(state, viewer).map(|k| k.into_table())
}

/// Moves tried to tell whether a unit may move at all, first accepted wins: staying put,
/// straight ahead over fractions of its movement, wheels about either front corner (alone
/// and followed by an advance), an about-face, and the moves the engine's own random player
/// ([`onus_game::chooser`]) would try for this unit.
fn probe_moves(k: &GameState, u: &onus_table::TableUnit, budget: f64) -> Vec<MoveOrder> {
    let mut steps: Vec<Vec<Step>> = vec![Vec::new()];
    for f in [1.0, 0.75, 0.5, 0.25, 0.1] {
        steps.push(vec![Step::Advance(budget * f)]);
    }
    for deg in [15.0, 45.0, 90.0] {
        for wheel in [Step::wheel_left(deg), Step::wheel_right(deg)] {
            steps.push(vec![wheel]);
            if budget > 1.0 {
                steps.push(vec![wheel, Step::Advance((budget - 1.0) / 2.0)]);
            }
        }
    }
    steps.push(vec![Step::Turn(std::f64::consts::PI)]);
    let mut out: Vec<MoveOrder> = steps.into_iter().map(MoveOrder::new).collect();
    if let Some(seat) = Onus::to_act(k) {
        for seed in [1, 2, 3] {
            let mut rng = acies_core::GameRng::new(seed);
            for a in onus_game::chooser::candidates(k, seat, &mut rng) {
                match a {
                    Action::Move { unit, order } | Action::SkirmishMove { unit, order }
                        if unit == u.id && !out.contains(&order) =>
                    {
                        out.push(order);
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The charges `u` may make now, each one the game accepts exactly as offered (VII-2.C, IX
/// Brash, VII-4): one offer per enemy and side of it the charger can line up with, each
/// with the envelopment choices the game accepts and the `charge` to send.
///
/// The approaches are the table's own search ([`Table::charge_options`], or a brash unit's
/// [`Table::brash_charges`]) and the engine's own approaches
/// ([`onus_game::movement::brash_approaches`], the search behind a brash unit's compulsory
/// charge) at every enemy; for each, the table names
/// the sides the contact leaves a choice of, and every side is then asked of the game
/// explicitly (never read back from the engagement made, which names the sides hit, not the
/// one chosen).
fn charge_offers(k: &GameState, seat: Seat, u: &onus_table::TableUnit) -> Vec<Value> {
    let t = k.table();
    let unit = u.id;
    let mut approaches: Vec<(UnitId, Vec<Step>)> = Vec::new();
    let searched = if !u.turn.activated && u.has(onus_model::Ability::Brash) {
        t.brash_charges(unit)
    } else {
        t.charge_options(unit)
    };
    for o in searched.unwrap_or_default() {
        approaches.push((o.target, o.steps));
    }
    // No charge reaches an enemy farther than the longest movement the unit has (no point
    // of the card moves farther than the path's cost): the engine's approaches are tried
    // only at enemies within that, with a margin (pruning only; the game checks each).
    let reach = t.movement_allowance(unit).map_or(f64::INFINITY, |a| {
        a.regular.max(a.forced_march).max(u.card.movement) + a.charge_bonus + 2.0
    });
    let enemies: Vec<UnitId> = t
        .units()
        .filter(|e| !k.allies(seat, Seat(e.owner)))
        .filter(|e| e.rect().distance(&u.rect()) <= reach)
        .map(|e| e.id)
        .collect();
    for e in enemies {
        for c in onus_game::movement::brash_approaches(t, unit, e) {
            approaches.push((c.target, c.steps));
        }
    }
    let mut offers: Vec<Value> = Vec::new();
    let mut offered: Vec<(UnitId, Option<Edge>)> = Vec::new();
    for (target, steps) in approaches {
        if k.allies(seat, Seat(t.unit(target).map_or(seat.0, |x| x.owner))) {
            continue;
        }
        let spec = |side: Option<Edge>, envelop: onus_table::EnvelopChoice| ChargeSpec {
            target,
            steps: steps.clone(),
            side,
            envelop,
        };
        let Ok(plan) = charge_plan(k, unit, &spec(None, onus_table::EnvelopChoice::None)) else {
            continue;
        };
        // A charge that only sweeps markers away leaves no side to choose.
        let sides: Vec<Option<Edge>> = if plan.side.is_none() {
            vec![None]
        } else {
            plan.sides.iter().copied().map(Some).collect()
        };
        for side in sides {
            if offered.contains(&(target, side)) {
                continue;
            }
            let mut accepted = Vec::new();
            let mut dice = None;
            for envelop in [
                onus_table::EnvelopChoice::Max,
                onus_table::EnvelopChoice::None,
            ] {
                let action = Action::Charge {
                    unit,
                    charge: spec(side, envelop.clone()),
                };
                if let Ok(applied) = Onus::apply(k, seat, &action) {
                    if dice.is_none() {
                        dice = applied
                            .state
                            .table()
                            .engagement(unit, target)
                            .map(|e| e.dice());
                    }
                    accepted.push(envelop);
                }
            }
            let Some(first) = accepted.first().cloned() else {
                continue;
            };
            let Ok(sided) = charge_plan(k, unit, &spec(side, first.clone())) else {
                continue;
            };
            offered.push((target, side));
            offers.push(json!({
                "target": target,
                "side": side,
                "direct": sided.direct_sections(),
                "dice_with_envelopment": dice.unwrap_or(0),
                "cost": sided.approach.cost,
                "steps": steps,
                "envelop": accepted,
                "charge": spec(side, first),
            }));
        }
    }
    offers
}

/// The choices of the decision `seat` must take now, each with the game's verdict
/// (`{"ok": true}` or the refusal): what a dialog may offer. `decision` names it (`none`
/// when the seat has nothing to decide).
fn choices(k: &GameState, seat: Seat) -> Value {
    let hand: Vec<onus_cards::CardId> = k
        .piles()
        .hand(seat.index())
        .map(<[_]>::to_vec)
        .unwrap_or_default();
    if Onus::to_act(k) != Some(seat) {
        return json!({ "decision": "none" });
    }
    let of = |action: Action| {
        let v = verdict(k, seat, &action);
        json!({ "action": action, "verdict": v })
    };
    let play = |cards: Vec<onus_cards::CardId>, redraw: bool, flee: bool| Action::PlayEvents {
        cards,
        redraw,
        flee_if_wounded: flee,
        wind_target: None,
    };
    // T&F V "Events": an attack on a structure waits for its attacker's events (or its
    // elite's choice of random event).
    if let Some(onus_game::state::Decision::StructureEvents { attack }) = k.decisions().first() {
        if let (onus_cards::RandomEvent::Drawn(first), Some(second)) =
            (&attack.random, attack.elite_second)
        {
            let keep = [*first, second].map(|card| of(Action::KeepRandomEvent { card }));
            return json!({ "decision": "keep_random_event", "keep": keep });
        }
        return json!({
            "decision": "events",
            "none": of(play(Vec::new(), false, false)),
            "cards": hand.iter().map(|c| of(play(vec![*c], false, false))).collect::<Vec<_>>(),
            "redraw": of(play(Vec::new(), true, false)),
            "elite_draw_two": of(Action::EliteDrawTwo),
        });
    }
    // T&F V "Artillery": the enemy's misfire waits for this seat to choose its victim.
    if let Some(onus_game::state::Decision::MisfireVictim { candidates, .. }) =
        k.decisions().first()
    {
        let units: Vec<Value> = candidates
            .iter()
            .map(|&unit| of(Action::ChooseMisfireVictim { unit }))
            .collect();
        return json!({ "decision": "misfire_victim", "units": units });
    }
    // T&F V "Razing structures": this seat places the leftover Fire markers, one on each of
    // the structures it names; each neighbour is offered with the engine's verdict on it
    // alone when one marker is left (more: the dialog checks the whole choice).
    if let Some(onus_game::state::Decision::PlaceFire {
        neighbours,
        leftover,
        ..
    }) = k.decisions().first()
    {
        let options: Vec<Value> = neighbours
            .iter()
            .map(|id| {
                of(Action::PlaceFire {
                    structures: vec![id.clone()],
                })
            })
            .collect();
        return json!({ "decision": "place_fire", "leftover": leftover, "structures": options });
    }
    if !k.decisions().is_empty() {
        return json!({ "decision": "decision" });
    }
    match k.pending() {
        Some(Pending::Fight(f)) if f.stage == onus_game::state::FightStage::ChooseSide => {
            let sides = match &f.kind {
                FightKind::Ranged { sides, .. } => sides.clone(),
                FightKind::Melee { .. } => Vec::new(),
            };
            json!({
                "decision": "choose_side",
                "sides": sides.into_iter().map(|side| of(Action::ChooseSide { side })).collect::<Vec<_>>(),
            })
        }
        Some(Pending::Fight(f)) if f.elite_second.is_some() => {
            let mut keep = Vec::new();
            if let onus_cards::RandomEvent::Drawn(first) = f.random {
                keep.push(of(Action::KeepRandomEvent { card: first }));
            }
            if let Some(second) = f.elite_second {
                keep.push(of(Action::KeepRandomEvent { card: second }));
            }
            json!({ "decision": "keep_random_event", "keep": keep })
        }
        Some(Pending::Fight(_)) => json!({
            "decision": "events",
            "none": of(play(Vec::new(), false, false)),
            "cards": hand.iter().map(|c| of(play(vec![*c], false, false))).collect::<Vec<_>>(),
            "redraw": of(play(Vec::new(), true, false)),
            "flee_if_wounded": of(play(Vec::new(), false, true)),
            "elite_draw_two": of(Action::EliteDrawTwo),
        }),
        Some(Pending::HandLimit { excess, .. }) => json!({
            "decision": "hand_limit",
            "excess": excess,
            "discard": of(Action::DiscardExcess {
                cards: hand.iter().take(*excess).copied().collect(),
            }),
        }),
        None if k.phase() == Phase::EndOfTurn && k.book().giving != Some(seat) => {
            use onus_cards::TurnDraw;
            json!({
                "decision": "draw",
                "order_played": of(Action::Draw { choice: TurnDraw::OrderPlayed }),
                "draw_three": of(Action::Draw { choice: TurnDraw::DrawThree }),
                "discard": of(Action::Draw { choice: TurnDraw::Discard(Vec::new()) }),
                "cards": hand,
            })
        }
        None => json!({ "decision": "none" }),
    }
}

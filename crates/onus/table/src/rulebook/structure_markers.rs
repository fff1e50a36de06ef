//! *Terrain & Fortresses* IV: section markers where a unit meets an enemy at a structure
//! ("Occupying defenses", after "Mounted units"; "Walls", "Movement"), on the shipped
//! battlefield "siege-castellum": the fortress's inside spans x 11..17, y 12..15 (its south
//! walls y 11.5..12, the gate x 13..15 whose opening, once fallen, is x 13.6..14.4; its north
//! walls y 15..15.5; its east wall x 17.5..18); the north-east tower x 17..18, y 14.5..15.5.

use acies_geom::Edge;
use onus_model::UnitKind;

use crate::fortress::Breach;
use crate::movement::Step;
use crate::table::EnvelopChoice;
use crate::testkit::{card, pose, put};
use crate::unit::TableUnit;
use crate::{ChargeOrder, Table, TableError, UnitId};

fn castellum() -> Result<Table, TableError> {
    let bf = onus_terrain::builtin::get("siege-castellum")
        .map_err(|reason| TableError::BadBattlefield { reason })?;
    let mut t = Table::new(bf.width, bf.depth);
    t.set_battlefield(bf)?;
    Ok(t)
}

fn bad(reason: String) -> TableError {
    TableError::BadBattlefield { reason }
}

/// The book's example (IV, after "Occupying defenses"): the Iberians (movement 4) hold the
/// north-east tower; an assailant (seat 1) has come over the north wall and stands with its
/// rear on it (x 14.5..16.5, y 13.8..15, facing south), its left flank 0.5 DU from the tower:
/// no side of the tower has room for the Iberians' card.
fn tower_example() -> Result<(Table, UnitId, UnitId), TableError> {
    let mut t = castellum()?;
    let c = card("Iberians", UnitKind::Infantry, 4.0);
    let u = TableUnit::new(UnitId(1), 0, c.clone(), pose(17.5, 15.0, 0.0));
    let u = t.into_tower(u, "tower-ne")?;
    t.add(u)?;
    t.unit_mut(UnitId(1))?.turn.activated = true;
    let e = put(&mut t, 2, 1, c, pose(15.5, 14.4, 180.0));
    Ok((t, UnitId(1), e))
}

/// Out of the tower's west side, `south` DU south, then 0.5 DU west against `e`.
fn out_west(e: UnitId, south: f64) -> ChargeOrder {
    let slide = Step::Slide {
        right: -south,
        forward: 0.0,
    };
    ChargeOrder::new(e, vec![slide, Step::Advance(0.5)])
}

/// The dice of the engagement between `a` and `b`, and the edges of `b` hit.
fn fight(t: &Table, a: UnitId, b: UnitId) -> Result<(u32, Vec<Edge>), TableError> {
    let e = t
        .engagement(a, b)
        .ok_or(TableError::NotEngaged { unit: a, other: b })?;
    Ok((e.dice(), e.edges_hit(b).into_iter().collect()))
}

/// T&F IV "Occupying defenses": "a unit, when exiting a structure and encountering an enemy
/// unit, may overlap the structure. In these cases, use the section markers. They cannot
/// overlap any structure, except if it is the structure they just exited. ... there is only
/// space for 3 of them without overlapping other structures, such as the wall. Therefore ...
/// you only roll 3 dice (3 sections) and the defender will be flanked. You can also attack
/// with 2 markers on the left flank as there is enough space to place them and so you could
/// attack with 4 sections (4 dice)." The Iberians come out of the tower's west side, 0.7 DU
/// south then 0.5 DU west (1.2 DU of their limited 2): two markers on the assailant's left
/// flank, one enveloping its front; the fourth would lie behind its rear, over the north
/// wall: 3 dice, flanked. Coming 1.2 DU south instead, two markers on the left flank and two
/// enveloping the front: 4 dice. Their card stays in the tower.
#[test]
fn tf_iv_occupying_defenses_section_markers_out_of_a_tower() -> Result<(), TableError> {
    let (mut t, u, e) = tower_example()?;
    // Only the outer side has room for the card: none inside the fortress.
    assert!(t.tower_exits(u).iter().all(|(_, outer)| *outer));
    let three = out_west(e, 0.7).envelop(EnvelopChoice::Max);
    let plan = t.check_charge(u, &three)?;
    assert_eq!(plan.side, Some(Edge::Left));
    assert!(plan.contacts.iter().all(|c| c.enveloping));
    assert_eq!(plan.contacts.len(), 2, "{:?}", plan.contacts);
    t.apply_charge(&plan)?;
    assert!(t.unit(u)?.tower.is_some(), "the card stays in the tower");
    let (dice, edges) = fight(&t, u, e)?;
    assert_eq!(dice, 3);
    assert!(edges.contains(&Edge::Left) && !edges.contains(&Edge::Rear));
    assert!(t.first_overlap().is_none());
    let s = t.melee_situation(u, e)?;
    assert_eq!(s.dice, 3);
    assert!(s.defender.attacked_from.flank && !s.defender.attacked_from.rear);
    // Two markers on the left flank, two enveloping the front: 4 dice.
    let (mut t, u, e) = tower_example()?;
    let four = out_west(e, 1.2).envelop(EnvelopChoice::Max);
    t.charge(u, &four)?;
    let (dice, edges) = fight(&t, u, e)?;
    assert_eq!(dice, 4);
    assert_eq!(edges, vec![Edge::Front, Edge::Left]);
    assert!(t.first_overlap().is_none());
    // Farther than the limited movement: refused.
    let (t, u, e) = tower_example()?;
    let far = out_west(e, 1.6);
    assert!(t.check_charge(u, &far).is_err());
    Ok(())
}

/// The book's example (IV "Walls", "Movement"): the Carthaginians (seat 1) stand inside the
/// castellum beside its gate (x 13.4..14.6, y 12.5..14.5, facing west), their left flank
/// 0.5 DU from the gate wall; the Triarii (movement 4) stand outside facing the gate.
fn gate_example() -> Result<(Table, UnitId, UnitId), TableError> {
    let mut t = castellum()?;
    let c = card("Triarii", UnitKind::Infantry, 4.0);
    let tr = put(&mut t, 1, 0, c.clone(), pose(14.0, 10.5, 0.0));
    t.unit_mut(tr)?.turn.activated = true;
    let ca = put(&mut t, 2, 1, c, pose(14.0, 13.5, 90.0));
    Ok((t, tr, ca))
}

/// T&F IV "Walls", "Movement": "If there is a defending unit, use the section markers to
/// adapt to the specific situation. ... the gate is destroyed. This allows the Triarii unit
/// to partially cross and enter the fortress, neutralizing any defense bonus the wall may
/// grant the defender. In addition, the defender receives a penalty for being flanked. The
/// Roman Triarii will attack with 2 sections". While the gate stands the charge is refused;
/// once it has fallen, the Triarii's card stops against the wall and their two sections in
/// front of the opening cross it as markers on the Carthaginians' left flank: 2 dice, the
/// defender flanked; the two sections facing the wall stay out.
#[test]
fn tf_iv_walls_movement_section_markers_through_an_opening() -> Result<(), TableError> {
    let (mut t, tr, ca) = gate_example()?;
    let charge = ChargeOrder::new(ca, vec![Step::Advance(1.4)]);
    assert!(t.check_charge(tr, &charge).is_err());
    t.set_breach("gate", Breach::GateDestroyed)?;
    let plan = t.check_charge(tr, &charge)?;
    assert_eq!(plan.side, Some(Edge::Left));
    assert_eq!(plan.contacts.len(), 2, "{:?}", plan.contacts);
    let front_y = plan.aligned.centre.y + 0.6;
    if (front_y - 11.5).abs() > 1e-6 {
        return Err(bad(format!("the card should stop at the wall: {front_y}")));
    }
    t.apply_charge(&plan)?;
    let (dice, edges) = fight(&t, tr, ca)?;
    assert_eq!(dice, 2);
    assert_eq!(edges, vec![Edge::Left]);
    let s = t.melee_situation(tr, ca)?;
    assert_eq!(s.dice, 2);
    assert!(s.defender.attacked_from.flank);
    assert!(t.first_overlap().is_none());
    // Through a standing wall, no marker passes: a collapsed wall elsewhere opens nothing here.
    let (mut t, tr, _) = gate_example()?;
    t.set_breach("wall-s2", Breach::Collapsed)?;
    assert!(t.check_charge(tr, &charge).is_err());
    Ok(())
}

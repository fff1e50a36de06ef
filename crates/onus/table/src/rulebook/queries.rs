//! What a user interface asks: reach, charges within reach (VII-2.C), brash units (IX),
//! shooting options (VII-3), contact records.

use onus_model::Ability;

use crate::movement::{MoveOrder, Step};
use crate::testkit::{archers, big_table, cavalry, infantry, pose, put, with};
use crate::{Table, TableError, UnitId};

fn activate(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

#[test]
fn vii_2c_charges_within_reach() {
    let mut t = big_table();
    let c = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 5.0, 0.0));
    activate(&mut t, c);
    let ahead = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, 180.0));
    let right = put(&mut t, 3, 1, infantry(), pose(14.0, 6.6, 90.0));
    let behind = put(&mut t, 4, 1, infantry(), pose(10.0, 1.5, 0.0));
    let far = put(&mut t, 5, 1, infantry(), pose(30.0, 25.0, 0.0));
    let opts = t.charge_options(c);
    let Ok(opts) = opts else { panic!("{opts:?}") };
    let find = |id| opts.iter().find(|o| o.target == id);
    let Some(a) = find(ahead) else {
        panic!("{opts:?}")
    };
    assert_eq!(a.direct, 4);
    // Straight ahead costs 2.8 DU; touching sooner with a rotation and lining up for free
    // (VII-2.C) may be cheaper.
    assert!(a.cost <= 2.8 + 1e-9);
    assert_eq!(a.dice_with_envelopment, 4);
    assert!(find(right).is_some_and(|o| o.steps.iter().any(|s| matches!(s, Step::Wheel { .. }))));
    assert!(find(behind).is_none());
    assert!(find(far).is_none());
    // Every option found is a legal charge.
    for o in &opts {
        let plan = t.check_charge(c, &crate::ChargeOrder::new(o.target, o.steps.clone()));
        assert!(plan.is_ok(), "{o:?}: {plan:?}");
    }
    // How far it can go, and why a path is not legal.
    let a = t.movement_allowance(c);
    assert!(a.is_ok_and(|a| a.regular == 4.0
        && a.reduced == 2.0
        && a.forced_march == 8.0
        && a.skirmish_left.is_none()));
    let why = t.check_move(c, &MoveOrder::new(vec![Step::Advance(5.0)]));
    assert!(
        why.as_ref()
            .is_err_and(|e| e.rule() == Some("VII-2.A Types of movement")),
        "{why:?}"
    );
}

/// IX "Brash": "the active player's brash units will automatically charge (whether
/// activated or not) against any enemy within charging distance and with as many sections as
/// possible. If there is more than one enemy within charging distance, the owner of the brash
/// unit decides."
#[test]
fn ix_brash_units_must_charge() {
    let mut t = big_table();
    let b = put(
        &mut t,
        1,
        0,
        with(infantry(), Ability::Brash),
        pose(10.0, 5.0, 0.0),
    );
    let e1 = put(&mut t, 2, 1, infantry(), pose(10.0, 8.2, 180.0));
    let e2 = put(&mut t, 3, 1, infantry(), pose(12.6, 6.6, 90.0));
    let list = t.brash_charges(b);
    let Ok(list) = list else { panic!("{list:?}") };
    assert!(list.iter().any(|o| o.target == e1));
    assert!(list.iter().any(|o| o.target == e2));
    assert!(
        list.windows(2)
            .all(|w| w[0].dice_with_envelopment >= w[1].dice_with_envelopment)
    );
    // Not activated, it can still make that charge.
    let o = &list[0];
    let plan = t.check_brash_charge(b, &crate::ChargeOrder::new(o.target, o.steps.clone()));
    assert!(plan.is_ok(), "{plan:?}");
    assert!(matches!(
        t.check_charge(b, &crate::ChargeOrder::new(o.target, o.steps.clone())),
        Err(TableError::NotActivated { .. })
    ));
    let calm = put(&mut t, 4, 0, infantry(), pose(20.0, 5.0, 0.0));
    assert!(t.brash_charges(calm).is_ok_and(|v| v.is_empty()));
}

#[test]
fn vii_3_shooting_options() {
    let mut t = big_table();
    let a = put(&mut t, 1, 0, archers(8.0), pose(10.0, 5.0, 0.0));
    activate(&mut t, a);
    let near = put(&mut t, 2, 1, infantry(), pose(10.0, 8.0, 180.0));
    let far = put(&mut t, 3, 1, infantry(), pose(10.0, 20.0, 180.0));
    let opts = t.shooting_options(a);
    let Ok(opts) = opts else { panic!() };
    assert_eq!(opts.len(), 2);
    assert!(opts.iter().any(|o| o.target == near && o.shot.is_ok()));
    assert!(opts.iter().any(|o| {
        o.target == far
            && o.shot
                .as_ref()
                .is_err_and(|e| e.rule() == Some("VII-3 Range"))
    }));
}

//! The scripted bot on a battlefield with terrain (*Terrain & Fortresses* II–III): it goes
//! round a lake rather than into it, and crosses a river on its bridge.

use acies_core::Ruleset;
use acies_geom::Vec2;
use onus_bot::ScriptedBot;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_model::{UnitCard, UnitKind};
use onus_table::{CardSize, UnitId};
use onus_terrain::Battlefield;

/// A 40 × 30 DU battlefield of the given pieces (TOML, as the data files write them).
fn field(pieces: &str) -> Battlefield {
    let text = format!("[battlefield]\nid = \"t\"\nname = \"T\"\ntable = [40, 30]\n{pieces}");
    onus_terrain::load::parse("test.toml", &text).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A piece of `kind` in one rectangle, with `extra` lines (a bridge's material).
fn piece(kind: &str, centre: [f64; 2], size: [f64; 2], extra: &str) -> String {
    format!(
        "[[piece]]\nid = \"{kind}\"\nname = \"{kind}\"\nkind = \"{kind}\"\n{extra}\
         [[piece.zone]]\ncentre = {centre:?}\nsize = {size:?}\n"
    )
}

fn foot() -> UnitCard {
    let mut c = onus_combat::CardBuilder::new("Spearmen", UnitKind::Infantry)
        .attack(3, 3)
        .defense(3, 3)
        .morale(7)
        .health(6)
        .build();
    c.movement = 4.0;
    c
}

/// Seat 0's unit 1 at `(x, y)` facing north, active in the Movement Phase, late in the
/// battle (no fear left), with an enemy far north at (20, 26).
fn state(pieces: &str, x: f64, y: f64) -> GameState {
    let units = vec![
        unit(1, 0, foot(), x, y, 0.0),
        unit(2, 1, foot(), 20.0, 26.0, 180.0),
    ];
    let mut s = fixture_on(Some(field(pieces)), units, &[UnitId(1)], Phase::Movement);
    *s.round_mut() = 12;
    s
}

/// The bot's move for unit 1 and where the unit stands after it.
fn bot_move(s: &GameState) -> (Action, GameState) {
    let a = ScriptedBot::new(1)
        .decide(s, Seat(0))
        .unwrap_or_else(|e| panic!("the bot: {e}"));
    assert!(
        matches!(&a, Action::Move { unit, .. } if *unit == UnitId(1)),
        "expected a move of unit 1, got {a:?}"
    );
    let next = Onus::apply(s, Seat(0), &a)
        .unwrap_or_else(|e| panic!("{a:?}: {e}"))
        .state;
    (a, next)
}

fn centre(s: &GameState) -> Vec2 {
    s.table()
        .unit(UnitId(1))
        .map(|u| u.pose.centre)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The way round the lake of [`a_lake_between_a_unit_and_its_target_is_gone_round`] by its
/// nearer end, to the enemy.
fn way_round(p: Vec2) -> f64 {
    let target = Vec2::new(20.0, 26.0);
    if p.y >= 16.0 {
        return p.distance(target);
    }
    [12.0, 28.0]
        .into_iter()
        .map(|x| {
            let (a, b) = (Vec2::new(x, 12.0), Vec2::new(x, 16.0));
            let beside = (p.x - 20.0).abs() >= 8.0;
            let to_b = if beside {
                p.distance(b)
            } else {
                p.distance(a) + a.distance(b)
            };
            to_b + b.distance(target)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_lake_between_a_unit_and_its_target_is_gone_round() {
    let mut s = state(&piece("lake", [20.0, 14.0], [14.0, 2.0], ""), 20.0, 10.0);
    let start = way_round(centre(&s));
    // Three turns' moves: never on the lake, always nearer by the way round it.
    for _ in 0..3 {
        let before = way_round(centre(&s));
        let (_, next) = bot_move(&s);
        let r = next.table().unit(UnitId(1)).map(|u| u.rect());
        let bf = next.table().battlefield();
        let wet =
            |r: &acies_geom::OrientedRect| bf.is_some_and(|b| b.insurmountable_under(r).is_some());
        assert!(r.is_ok_and(|r| !wet(&r)), "on the lake");
        assert!(way_round(centre(&next)) < before - 0.5, "no progress");
        s = next;
        let _ = s
            .table_mut()
            .unit_mut(UnitId(1))
            .map(|u| u.turn.moved = false);
    }
    assert!(way_round(centre(&s)) < start - 3.0);
}

#[test]
fn a_unit_touching_a_bridge_end_faces_it_and_crosses() {
    let river = piece("river", [20.0, 14.75], [40.0, 1.5], "");
    let bridge = piece(
        "bridge",
        [20.0, 14.75],
        [1.0, 2.5],
        "material = \"wood\"\nsections = 2\n",
    );
    let depth = CardSize::of(&foot()).depth;
    // Its front on the bridge's near end (y = 13.5), off its centre line.
    let s = state(&(river + &bridge), 20.4, 13.5 - depth / 2.0);
    let (a, next) = bot_move(&s);
    assert!(
        matches!(&a, Action::Move { order, .. } if order.face),
        "expected a move facing the bridge, got {a:?}"
    );
    let c = centre(&next);
    assert!(c.y > 13.5, "onto the bridge: {c:?}");
    assert!((c.x - 20.0).abs() < 1e-6, "on its centre line: {c:?}");
}

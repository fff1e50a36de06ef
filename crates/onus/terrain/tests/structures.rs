//! Structures on the battlefield (T&F IV), as data and geometry: the shipped fortress
//! battlefields load with no problem; every broken rule of laying structures is reported with
//! its file, line and field; the geometry the siege rules will ask of them.

use acies_geom::{OrientedRect, Segment, Vec2};
use onus_terrain::{Battlefield, Side, StructureKind, builtin, load};

fn shipped(id: &str) -> Battlefield {
    builtin::get(id).unwrap()
}

const FORTRESS_FIELDS: [&str; 5] = [
    "siege-castellum",
    "fort-and-village",
    "stone-citadel",
    "watchtower-line",
    "central-castellum",
];

#[test]
fn shipped_structure_battlefields_load_with_no_problem_and_only_playable_ones_are_offered() {
    for id in FORTRESS_FIELDS {
        let b = shipped(id);
        assert!(b.has_structures(), "{id}");
        assert_eq!(b.problems(), Vec::new(), "{id}");
    }
    let playable = builtin::playable().unwrap();
    assert!(
        playable
            .iter()
            .all(|b| b.playable() && b.structures.iter().all(|s| s.kind.in_play()))
    );
    let field = shipped("hamlet-and-ditches");
    assert_eq!(field.problems(), Vec::new());
    assert!(field.has_structures() && playable.iter().any(|b| b.id == field.id));
    // T&F IV, VI: fortresses and watchtowers are played; the siege tower and the ram of the
    // castellum are not yet, so that battlefield waits for them.
    for id in ["fort-and-village", "stone-citadel", "watchtower-line"] {
        assert!(shipped(id).playable(), "{id}");
        assert!(playable.iter().any(|b| b.id == id), "{id}");
    }
    for k in [
        StructureKind::Wall,
        StructureKind::CornerWall,
        StructureKind::GateWall,
        StructureKind::Tower,
        StructureKind::Watchtower,
    ] {
        assert!(k.in_play(), "{k}");
    }
    let castellum = shipped("siege-castellum");
    assert_eq!(
        castellum.playable(),
        castellum.structures.iter().all(|s| s.kind.in_play())
    );
    let kinds: Vec<StructureKind> = builtin::all()
        .unwrap()
        .iter()
        .flat_map(|b| b.structures.iter().map(|s| s.kind))
        .collect();
    for k in StructureKind::ALL {
        assert!(kinds.contains(&k), "no shipped battlefield has a {k}");
    }
}

/// T&F VI "Scenarios with fortresses": "a 5 by 3 fortress with 4 towers" (630 points in
/// wood, VI "Fortress design"), at an edge with the gate facing the attacker, the attacker
/// 16-18 in. (8-9 DU) away, a table of at least 70 x 70 cm (14 x 14 DU).
#[test]
fn vi_the_recommended_siege_is_what_the_text_recommends() {
    let b = shipped("siege-castellum");
    assert!(b.width >= 14.0 && b.depth >= 14.0);
    let f = b.fortress("castellum").unwrap();
    let count = |k| f.elements.iter().filter(|e| e.kind == k).count();
    assert_eq!(count(StructureKind::Tower), 4);
    assert_eq!(count(StructureKind::Wall), 7);
    assert_eq!(count(StructureKind::GateWall), 1);
    assert_eq!(f.cost(), 630);
    // 5 elements along the front, 3 along the sides: an 8 x 4 DU outline at the northern edge.
    let rects: Vec<OrientedRect> = f.elements.iter().flat_map(|e| e.rects().copied()).collect();
    let bounds = rects
        .iter()
        .map(|r| r.aabb())
        .reduce(|a, c| a.union(c))
        .unwrap();
    assert!((bounds.size().x - 8.0).abs() < 1e-9 && (bounds.size().y - 4.0).abs() < 1e-9);
    assert!(b.depth - bounds.max.y <= 1.0, "at the edge");
    // The gate faces the attacker (south): its outer face is the southern one.
    let gate = b.wall_faces("gate").unwrap();
    assert!(gate.outer.midpoint().y < gate.inner.midpoint().y);
    // The attacker's zone, 3 DU deep along the southern edge, is 8 to 9 DU from the walls.
    let gap = bounds.min.y - 3.0;
    assert!((8.0..=9.0).contains(&gap), "{gap}");
    assert_eq!(b.structure_points(Side::Defender), 630);
    assert_eq!(b.structure_points(Side::Attacker), 100 + 40);
}

/// T&F VI "Fortress design": the first example costs 1,020 in stone, the smallest 290 in
/// wood; VI "Point value": each side's structures.
#[test]
fn vi_point_value_of_each_sides_structures() {
    assert_eq!(
        shipped("stone-citadel").fortress("citadel").unwrap().cost(),
        1_020
    );
    let fort = shipped("fort-and-village");
    assert_eq!(fort.fortress("fort").unwrap().cost(), 290);
    // The village belongs to nobody: it costs no side anything.
    assert_eq!(fort.structure_points(Side::Defender), 290);
    assert_eq!(fort.structure_points(Side::Attacker), 0);
    let line = shipped("watchtower-line");
    assert_eq!(
        line.structure_points(Side::Defender),
        3 * 90 + 2 * 40 + 3 * 20 + 20 + 40
    );
}

/// T&F VI "Deployment": "inside the fortress"; IV "Watchtowers": "cannot be inside a
/// fortress". The castellum's yard is 7 x 3 DU less the towers' corners.
#[test]
fn vi_the_inside_of_a_fortress() {
    let b = shipped("siege-castellum");
    let inside = b.fortress_inside("castellum").unwrap();
    // 20 DU², short by at most a cell's width (0.05 DU) along its 21 DU of edges.
    assert!((19.0..=20.0).contains(&inside.area()), "{}", inside.area());
    assert!(inside.contains(Vec2::new(14.0, 13.5)));
    assert!(
        inside.contains(Vec2::new(11.2, 12.7)),
        "beside a tower's inner corner"
    );
    assert!(
        !inside.contains(Vec2::new(14.0, 11.75)),
        "on the gate: on the walls"
    );
    assert!(!inside.contains(Vec2::new(14.0, 10.0)), "before the gate");
    assert!(!inside.contains(Vec2::new(2.0, 2.0)));
    assert_eq!(
        b.fortress_at(Vec2::new(14.0, 13.5)).map(|f| f.id.as_str()),
        Some("castellum")
    );
    assert_eq!(b.fortress_at(Vec2::new(5.0, 13.5)), None);
    assert!(b.fortress_inside("nowhere").is_none());
}

/// T&F IV "Walls" (1 level), "Towers", "Siege towers" (2), "Villages" (1 for sight); II
/// "Ranged attacks from different heights": a hill's top is 1.
#[test]
fn iv_height_levels_with_structures() {
    let b = shipped("siege-castellum");
    assert_eq!(b.height_at(Vec2::new(12.0, 11.75)), 1, "wall");
    assert_eq!(b.height_at(Vec2::new(14.0, 11.75)), 1, "wall with a gate");
    assert_eq!(b.height_at(Vec2::new(10.5, 12.0)), 2, "tower");
    assert_eq!(b.height_at(Vec2::new(9.0, 2.0)), 2, "siege tower");
    assert_eq!(b.height_at(Vec2::new(19.0, 2.0)), 0, "ram");
    assert_eq!(b.height_at(Vec2::new(14.0, 13.5)), 0, "the yard");
    assert_eq!(b.height_at(Vec2::new(24.0, 8.0)), 1, "a hill's top");
    let v = shipped("fort-and-village");
    assert_eq!(v.height_at(Vec2::new(11.0, 8.0)), 1, "village");
    let w = shipped("watchtower-line");
    assert_eq!(w.height_at(Vec2::new(12.0, 11.0)), 2, "watchtower");
    assert_eq!(w.height_at(Vec2::new(5.0, 9.0)), 0, "trench");
}

/// T&F II "Ranged attacks and line of sight": the structures a line of sight crosses, nearest
/// the shooter first.
#[test]
fn ii_the_structures_a_line_of_sight_crosses() {
    let b = shipped("siege-castellum");
    // From the attacker's side, north through the gate wall and the yard to the north wall.
    let seg = Segment::new(Vec2::new(14.0, 4.0), Vec2::new(14.0, 16.0));
    let crossed: Vec<&str> = b
        .structure_crossings(&seg)
        .iter()
        .map(|c| c.structure.id.as_str())
        .collect();
    assert_eq!(crossed, ["gate", "wall-n2"]);
    let first = b.structure_crossings(&seg)[0];
    // The gate wall spans y 11.5 to 12 of the 12 DU line from y 4.
    assert!((first.from - 7.5 / 12.0).abs() < 1e-9 && (first.to - 8.0 / 12.0).abs() < 1e-9);
    let clear = Segment::new(Vec2::new(2.0, 5.0), Vec2::new(6.0, 5.0));
    assert!(b.structure_crossings(&clear).is_empty());
}

/// T&F IV "Occupying defenses": a unit takes a tower or wall "once it comes into contact
/// with it"; the structure under a card.
#[test]
fn iv_the_structures_under_and_touching_a_card() {
    let b = shipped("siege-castellum");
    // A card 2 x 1.2 DU against the gate's outer face: it touches the walls beside the gate
    // at its front corners too.
    let card = OrientedRect::at(Vec2::new(14.0, 10.9), 0.0, 2.0, 1.2);
    let touching: Vec<&str> = b
        .structures_touching(&card)
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(touching, ["wall-s1", "gate", "wall-s2"]);
    let aside = OrientedRect::at(Vec2::new(14.5, 10.9), 0.0, 2.0, 1.2);
    let touching: Vec<&str> = b
        .structures_touching(&aside)
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(touching, ["gate", "wall-s2"]);
    assert_eq!(b.structures_under(&card).count(), 0);
    // Straddling the gate and a wall.
    let over = OrientedRect::at(Vec2::new(13.0, 11.75), 0.0, 2.0, 1.2);
    let under: Vec<&str> = b.structures_under(&over).map(|s| s.id.as_str()).collect();
    assert_eq!(under, ["wall-s1", "gate"]);
}

/// T&F V "Razing structures": fire markers move "to the sides when in contact with other
/// structures" (the text's example: a wall between a wall with a gate and a tower).
#[test]
fn v_structures_in_contact_and_connected_walls() {
    let b = shipped("siege-castellum");
    let mut beside: Vec<&str> = b
        .in_contact_with("wall-s1")
        .map(|s| s.id.as_str())
        .collect();
    beside.sort_unstable();
    assert_eq!(beside, ["gate", "tower-sw"]);
    let run: Vec<&str> = b
        .connected_walls("gate")
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(run, ["wall-s1", "gate", "wall-s2"]);
    assert!(b.connected_walls("tower-sw").is_empty());
    // The fort's corner walls join its walls into one ring broken only by its tower.
    let fort = shipped("fort-and-village");
    assert_eq!(fort.connected_walls("gate").len(), 7);
}

/// T&F IV "Walls": the inner side of a wall faces the fortress's inside, whatever way its
/// tile is turned.
#[test]
fn iv_each_wall_has_an_outer_and_an_inner_face() {
    let b = shipped("siege-castellum");
    for (id, outward) in [
        ("wall-s1", Vec2::new(0.0, -1.0)),
        ("wall-n2", Vec2::new(0.0, 1.0)),
        ("wall-w", Vec2::new(-1.0, 0.0)),
        ("wall-e", Vec2::new(1.0, 0.0)),
    ] {
        let faces = b.wall_faces(id).unwrap();
        let d = faces.outer.midpoint() - faces.inner.midpoint();
        assert!((d.dot(outward) - 0.5).abs() < 1e-9, "{id}: {d:?}");
    }
    assert!(b.wall_faces("tower-sw").is_none());
    assert!(b.wall_faces("siege-tower").is_none());
}

fn errors(text: &str) -> Vec<String> {
    match load::parse("b.toml", text) {
        Ok(b) => panic!("accepted: {b:?}"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

const HEAD: &str = "[battlefield]\nid = \"t\"\nname = \"T\"\ntable = [20, 16]\n";

fn structure(id: &str, kind: &str, extra: &str, centre: [f64; 2], size: [f64; 2]) -> String {
    format!(
        "[[structure]]\nid = \"{id}\"\nkind = \"{kind}\"\n{extra}[[structure.zone]]\ncentre = {centre:?}\nsize = {size:?}\n"
    )
}

/// The errors of a file holding one structure `id = "a"` of `kind`, `extra` fields and one
/// zone.
fn one(kind: &str, extra: &str, centre: [f64; 2], size: [f64; 2]) -> Vec<String> {
    errors(&format!(
        "{HEAD}{}",
        structure("a", kind, extra, centre, size)
    ))
}

#[test]
fn iv_structure_fields_are_checked_where_they_are_written() {
    let e = one("keep", "colour = 1\n", [5.0, 5.0], [1.0, 1.0]);
    assert_eq!(e.len(), 2, "{e:?}");
    let at = |i: usize, start: &str| assert!(e[i].starts_with(start), "{e:?}");
    at(
        0,
        "b.toml:7:8: structure[1].kind: unknown structure kind `keep`",
    );
    at(1, "b.toml:8:1: structure[1].colour: unknown field");
    for (kind, extra, centre, size, start) in [
        (
            "watchtower",
            "owner = \"nobody\"\n",
            [5.0, 5.0],
            [1.0, 1.0],
            "b.toml:8:9: structure[1].owner: unknown side `nobody`",
        ),
        (
            "watchtower",
            "",
            [5.0, 5.0],
            [2.0, 2.0],
            "b.toml:5:1: structure \"a\".zone: a watchtower is one [[structure.zone]] of 1 x 1 DU",
        ),
        (
            "watchtower",
            "material = \"stone\"\n",
            [5.0, 5.0],
            [1.0, 1.0],
            "b.toml:5:1: structure \"a\".material: a watchtower is of wood",
        ),
        (
            "watchtower",
            "",
            [19.9, 5.0],
            [1.0, 1.0],
            "b.toml:5:1: structure \"a\".zone: a zone centred at [19.9, 5.0] leaves the 20 x 16 DU table",
        ),
    ] {
        let e = one(kind, extra, centre, size);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with(start), "{e:?}");
    }
}

/// Rulings (T&F IV): structures lie side by side, off insurmountable terrain, and only
/// caltrops, trenches and barricades on other terrain; siege towers and rams have an owner.
#[test]
fn iv_structures_lie_side_by_side_and_off_the_terrain() {
    let two = format!(
        "{HEAD}{}{}",
        structure("a", "watchtower", "", [5.0, 5.0], [1.0, 1.0]),
        structure("b", "barricade", "", [5.5, 5.0], [2.0, 0.5])
    );
    let e = errors(&two);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("b.toml:11:1: structure \"b\".zone: it overlaps structure \"a\""),
        "{e:?}"
    );
    let lake = "[[piece]]\nid = \"l\"\nname = \"L\"\nkind = \"lake\"\n[[piece.zone]]\ncentre = [10, 8]\nsize = [4, 4]\n[[piece]]\nid = \"w\"\nname = \"W\"\nkind = \"forest\"\n[[piece.zone]]\ncentre = [3, 12]\nsize = [3, 3]\n";
    let e = errors(&format!(
        "{HEAD}{lake}{}{}{}",
        structure("t", "trench", "", [10.0, 8.0], [2.0, 0.5]),
        structure("v", "watchtower", "", [3.0, 12.0], [1.0, 1.0]),
        structure("c", "caltrops", "", [3.0, 11.0], [2.0, 1.0])
    ));
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].contains("structure \"t\".zone: it lies on piece \"l\", a lake"),
        "{e:?}"
    );
    assert!(
        e[1].contains("structure \"v\".zone: it lies on piece \"w\", a forest"),
        "{e:?}"
    );
    let e = errors(&format!(
        "{HEAD}{}",
        structure("s", "siege_tower", "", [5.0, 5.0], [1.0, 1.0])
    ));
    assert!(
        e[0].contains("structure \"s\".owner: a siege tower is a siege unit's marker"),
        "{e:?}"
    );
    let e = errors(&format!(
        "{HEAD}{}",
        "[[structure]]\nid = \"v\"\nkind = \"village\"\n[[structure.zone]]\ncentre = [5, 5]\nsize = [2.5, 2]\n[[structure.zone]]\ncentre = [9, 5]\nsize = [2.5, 2]\n"
    ));
    assert!(
        e[0].contains("a village's two halves lie side by side, touching"),
        "{e:?}"
    );
}

/// The castellum's text with one change.
fn castellum(change: impl Fn(&str) -> String) -> String {
    let text = builtin::SOURCES
        .iter()
        .find(|(name, _)| *name == "siege-castellum.toml")
        .map(|(_, t)| *t)
        .unwrap();
    change(text)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

/// T&F VI "Fortress design" on a battlefield: each problem on its element's line; a fortress
/// encloses an inside; IV "Watchtowers": never inside a fortress.
#[test]
fn vi_a_fortress_on_a_battlefield_keeps_its_design_rules() {
    // A gap in the north wall: the two walls beside it end in an empty space.
    let gap = castellum(|t| {
        t.replace(
            "[[structure]]\nid = \"wall-n2\"\nkind = \"wall\"\nfortress = \"castellum\"\n[[structure.zone]]\ncentre = [14, 15.25]\nsize = [2, 0.5]\n",
            "",
        )
    });
    let e = errors(&gap);
    let n1 = line_of(&gap, "id = \"wall-n1\"") - 1;
    let n3 = line_of(&gap, "id = \"wall-n3\"") - 1;
    assert!(
        e.iter().any(|e| e.starts_with(&format!(
            "b.toml:{n1}:1: structure \"wall-n1\".fortress: this wall ends in an empty space"
        ))),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|e| e.starts_with(&format!("b.toml:{n3}:1: structure \"wall-n3\".fortress"))),
        "{e:?}"
    );
    // No gate.
    let closed = castellum(|t| t.replace("kind = \"gate_wall\"", "kind = \"wall\""));
    let e = errors(&closed);
    let at = line_of(&closed, "[[fortress]]");
    assert!(
        e.iter().any(|e| e.starts_with(&format!(
            "b.toml:{at}:1: fortress \"castellum\".id: all fortresses must have at least one gate"
        ))),
        "{e:?}"
    );
    // A stone tower in a wooden fortress, not agreed.
    let mixed = castellum(|t| {
        t.replacen(
            "kind = \"tower\"\n",
            "kind = \"tower\"\nmaterial = \"stone\"\n",
            1,
        )
    });
    assert!(errors(&mixed).iter().any(|e| e.contains("without mixing")));
    let agreed = mixed.replace(
        "owner = \"defender\"\n",
        "owner = \"defender\"\nstone_towers_agreed = true\n",
    );
    assert!(load::parse("b.toml", &agreed).is_ok());
    // A watchtower in the yard.
    let watch = castellum(|t| {
        format!(
            "{t}{}",
            structure("watch", "watchtower", "", [14.0, 13.5], [1.0, 1.0])
        )
    });
    let e = errors(&watch);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("structure \"watch\".zone: it stands inside fortress \"castellum\""),
        "{e:?}"
    );
    // An element without its fortress, and one naming no fortress.
    let lost = castellum(|t| t.replacen("fortress = \"castellum\"\n", "", 1));
    assert!(
        errors(&lost)
            .iter()
            .any(|e| e.contains("structure \"tower-sw\".fortress: a tower is part of a fortress"))
    );
    let wrong = castellum(|t| t.replacen("fortress = \"castellum\"\n", "fortress = \"keep\"\n", 1));
    assert!(
        errors(&wrong)
            .iter()
            .any(|e| e.contains("no [[fortress]] has the id \"keep\""))
    );
}

/// A line of towers and walls keeps the design rules but encloses nothing.
#[test]
fn vi_a_fortress_encloses_an_inside() {
    let mut text = format!("{HEAD}[[fortress]]\nid = \"f\"\nname = \"F\"\nowner = \"defender\"\n");
    text += &structure("t1", "tower", "fortress = \"f\"\n", [4.5, 5.0], [1.0, 1.0]);
    text += &structure(
        "w",
        "gate_wall",
        "fortress = \"f\"\n",
        [6.0, 5.0],
        [2.0, 0.5],
    );
    text += &structure("t2", "tower", "fortress = \"f\"\n", [7.5, 5.0], [1.0, 1.0]);
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("fortress \"f\".id: its walls and towers enclose nothing"),
        "{e:?}"
    );
}

#[test]
fn absurd_structure_files_are_refused_without_panic() {
    let many: String = (0..130)
        .map(|i| {
            structure(
                &format!("c{i}"),
                "caltrops",
                "",
                [1.0 + (i % 10) as f64 * 1.5, 1.0 + (i / 10) as f64 * 1.1],
                [1.0, 0.5],
            )
        })
        .collect();
    assert!(
        errors(&format!("{HEAD}{many}"))
            .iter()
            .any(|e| e.contains("at most 128"))
    );
    for text in [
        format!("{HEAD}[[structure]]\n"),
        format!("{HEAD}structure = 3\n"),
        format!("{HEAD}[[fortress]]\nid = \"f\"\n"),
        format!(
            "{HEAD}[[structure]]\nid = \"a\"\nkind = \"tower\"\nfortress = 3\n[[structure.zone]]\ncentre = [5, 5]\nsize = [1, 1]\n"
        ),
    ] {
        assert!(load::parse("b.toml", &text).is_err(), "{text}");
    }
}

/// Older battlefields and saved games have no structures: they still read.
#[test]
fn a_battlefield_without_structures_still_reads_from_json() {
    let old = r#"{"id":"o","name":"O","width":20.0,"depth":16.0,"pieces":[]}"#;
    let b: Battlefield = serde_json::from_str(old).unwrap();
    assert!(!b.has_structures() && b.fortresses.is_empty());
    let siege = shipped("siege-castellum");
    let back: Battlefield = serde_json::from_str(&serde_json::to_string(&siege).unwrap()).unwrap();
    assert_eq!(back, siege);
}

/// T&F IV "Villages": "each half of the village has its own resistance and durability". The
/// parts that take damage are the structures, but a village as its two halves, each named
/// `"{village}#1"` / `"#2"` with its own zone; the village's own id names no part, and the
/// halves touch each other (where a collapsed half's fire spreads).
#[test]
fn tf_iv_villages_each_half_is_a_part_of_its_own() {
    let field = shipped("hamlet-and-ditches");
    let ids: Vec<String> = field.parts().map(|p| p.id.clone()).collect();
    assert!(ids.contains(&"hamlet#1".to_string()) && ids.contains(&"hamlet#2".to_string()));
    assert!(!ids.contains(&"hamlet".to_string()));
    assert_eq!(ids.len(), field.structures.len() + 1);
    let half = field.part("hamlet#2").unwrap();
    assert_eq!(half.kind, StructureKind::Village);
    assert_eq!(half.zones.len(), 1);
    assert_eq!(half.zones[0].rect().centre(), Vec2::new(12.25, 9.0));
    assert_eq!(half.label(), "Hamlet, half 2");
    assert_eq!(
        half.values(),
        field.structure("hamlet").unwrap().values(),
        "each half has the village's values"
    );
    for bad in [
        "hamlet",
        "hamlet#0",
        "hamlet#3",
        "hamlet#02",
        "trench-west#1",
        "nowhere#1",
    ] {
        assert!(field.part(bad).is_none(), "{bad}");
    }
    assert_eq!(field.part("trench-west").unwrap().id, "trench-west");
    let near: Vec<String> = field
        .parts_in_contact_with("hamlet#1")
        .iter()
        .map(|p| p.id.clone())
        .collect();
    assert!(near.contains(&"hamlet#2".to_string()), "{near:?}");
    // A structure's own id may not use the halves' separator.
    let mut broken = field.clone();
    broken.structures[1].id = "trench#1".into();
    assert!(
        broken
            .problems()
            .iter()
            .any(|p| p.structure() == Some("trench#1") && p.field == "id"),
        "{:?}",
        broken.problems()
    );
}

/// T&F III "Bridges" (ruling, docs/rulings.md "III Bridges: a structure of the game"): a
/// bridge is attacked as a structure made from its piece, by the piece's id, with chapter
/// III's values; a battlefield cannot lay a `bridge` structure of its own, nor give a
/// structure a bridge's id.
#[test]
fn tf_iii_bridges_are_parts_made_from_their_pieces() {
    let field = shipped("river-crossing");
    let bridges: Vec<String> = field
        .parts()
        .filter(|p| p.kind == StructureKind::Bridge)
        .map(|p| p.id.clone())
        .collect();
    assert_eq!(bridges, ["wooden-bridge", "stone-bridge"]);
    let wood = field.part("wooden-bridge").unwrap();
    let v = wood.values().unwrap();
    assert_eq!(
        (v.resistance, v.durability, v.flammable, v.cost),
        (Some(7), Some(7), true, 0)
    );
    let stone = field.part("stone-bridge").unwrap().values().unwrap();
    assert_eq!(
        (stone.resistance, stone.durability, stone.flammable),
        (Some(8), Some(8), false)
    );
    assert!(field.part("river-west").is_none(), "a river is no part");

    // A file names no `bridge` structure kind.
    let e = one("bridge", "", [5.0, 5.0], [1.0, 1.0]);
    assert!(e[0].contains("unknown structure kind `bridge`"), "{e:?}");
    // Nor does a battlefield given as data lay one, or take a bridge's id for a structure.
    let mut laid = field.clone();
    let mut tower = shipped("watchtower-line")
        .structures
        .into_iter()
        .find(|s| s.kind == StructureKind::Watchtower)
        .unwrap();
    tower.id = "wooden-bridge".into();
    tower.owner = None;
    tower.fortress = None;
    laid.structures.push(tower.clone());
    let problems: Vec<String> = laid.problems().iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(|p| p.contains("a bridge has this id")),
        "{problems:?}"
    );
    let mut as_bridge = field.clone();
    tower.id = "fake".into();
    tower.kind = StructureKind::Bridge;
    as_bridge.structures.push(tower);
    let problems: Vec<String> = as_bridge
        .problems()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("a [[piece]] of kind \"bridge\", not a structure")),
        "{problems:?}"
    );
}

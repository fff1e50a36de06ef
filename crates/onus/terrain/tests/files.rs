//! Battlefield files: the shipped ones are valid and use every kind of terrain; every broken
//! rule of a file is reported with its line and field.

use onus_terrain::{TerrainKind, builtin, load};

#[test]
fn shipped_battlefields_are_valid_and_use_every_kind_of_terrain() {
    let all = builtin::all().unwrap();
    assert_eq!(all.len(), builtin::SOURCES.len());
    for kind in TerrainKind::ALL {
        assert!(
            all.iter().any(|b| b.of_kind(kind).next().is_some()),
            "no shipped battlefield has a {kind}"
        );
    }
    for b in &all {
        assert!(b.problems().is_empty(), "{}: {:?}", b.id, b.problems());
    }
    assert_eq!(
        builtin::get("river-crossing").unwrap().name,
        "River Crossing"
    );
    let missing = builtin::get("atlantis").unwrap_err();
    assert!(missing.contains("forest-and-hill"), "{missing}");
}

#[test]
fn a_battlefield_survives_json() {
    for b in builtin::all().unwrap() {
        let json = serde_json::to_string(&b).unwrap();
        let back: onus_terrain::Battlefield = serde_json::from_str(&json).unwrap();
        assert_eq!(back, b);
    }
}

fn errors(text: &str) -> Vec<String> {
    match load::parse("b.toml", text) {
        Ok(b) => panic!("accepted: {b:?}"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

const HEAD: &str = "[battlefield]\nid = \"t\"\nname = \"T\"\ntable = [20, 16]\n";

fn with(pieces: &str) -> String {
    format!("{HEAD}{pieces}")
}

#[test]
fn fields_are_checked_where_they_are_written() {
    let e = errors(&with(
        "[[piece]]\nid = \"a\"\nname = \"A\"\nkind = \"swamp\"\n[[piece.zone]]\ncentre = [5, 5]\nsize = [2, 2]\n",
    ));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("b.toml:8:8: piece[1].kind: unknown terrain kind `swamp`"),
        "{e:?}"
    );
    let e = errors(&with(
        "[[piece]]\nid = \"a\"\nname = \"A\"\nkind = \"forest\"\ncolour = 3\n[[piece.zone]]\ncentre = [50, 5]\nsize = [2, 2]\n",
    ));
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].starts_with("b.toml:9:1: piece[1].colour: unknown field"),
        "{e:?}"
    );
    assert!(
        e[1].contains("piece[1].zone[1].centre: `centre` is off the 20 x 16 DU table"),
        "{e:?}"
    );
    let e = errors("[battlefield]\nid = \"t\"\nname = \"T\"\ntable = [2000, 16]\n");
    assert!(
        e[0].contains("battlefield.table: each side of the table must be 8 to 60 DU"),
        "{e:?}"
    );
}

/// III "Rivers": a scenario may make its rivers fordable (`fordable_rivers = true`); a
/// river is then a ford for the rules (`Battlefield::kind_of`).
#[test]
fn a_battlefield_may_make_its_rivers_fordable() {
    let river = "[[piece]]\nid = \"r\"\nname = \"R\"\nkind = \"river\"\n[[piece.zone]]\ncentre = [10, 8]\nsize = [20, 1.5]\n";
    let plain = load::parse("b.toml", &with(river)).unwrap();
    assert!(!plain.fordable_rivers);
    assert_eq!(plain.kind_of(&plain.pieces[0]), TerrainKind::River);
    let text = format!("{}fordable_rivers = true\n{river}", HEAD);
    let fordable = load::parse("b.toml", &text).unwrap();
    assert_eq!(fordable.kind_of(&fordable.pieces[0]), TerrainKind::Ford);
    let e = errors(&format!("{HEAD}fordable_rivers = \"yes\"\n"));
    assert!(e[0].contains("battlefield.fordable_rivers"), "{e:?}");
}

fn forest(id: &str, centre: [f64; 2], size: [f64; 2]) -> String {
    format!(
        "[[piece]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"forest\"\n[[piece.zone]]\ncentre = {centre:?}\nsize = {size:?}\n"
    )
}

#[test]
fn pieces_lie_side_by_side() {
    let text = with(&(forest("a", [5.0, 5.0], [2.0, 2.0]) + &forest("b", [6.0, 5.0], [2.0, 2.0])));
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("b.toml:12:1: piece \"b\".zone: it overlaps piece \"a\""),
        "{e:?}"
    );
    // Touching is allowed.
    let ok = with(&(forest("a", [5.0, 5.0], [2.0, 2.0]) + &forest("b", [7.0, 5.0], [2.0, 2.0])));
    assert!(load::parse("b.toml", &ok).is_ok());
}

#[test]
fn a_piece_is_one_shape_and_ids_are_unique() {
    let e = errors(&with(
        "[[piece]]\nid = \"a\"\nname = \"A\"\nkind = \"forest\"\n[[piece.zone]]\ncentre = [3, 3]\nsize = [1, 1]\n[[piece.zone]]\ncentre = [9, 9]\nsize = [1, 1]\n",
    ));
    assert!(e[0].contains("its zones do not form one piece"), "{e:?}");
    let e = errors(&with(
        &(forest("a", [3.0, 3.0], [1.0, 1.0]) + &forest("a", [9.0, 9.0], [1.0, 1.0])),
    ));
    assert!(
        e[0].contains("piece \"a\".id: another piece has this id"),
        "{e:?}"
    );
}

#[test]
fn a_hill_has_a_top_inside_it_and_only_hills_have_one() {
    let hill = "[[piece]]\nid = \"h\"\nname = \"H\"\nkind = \"hill\"\n[[piece.zone]]\ncentre = [10, 8]\nsize = [4, 3]\n";
    assert!(errors(&with(hill))[0].contains("a hill has a top"));
    let outside = format!("{hill}[[piece.top]]\ncentre = [12, 8]\nsize = [2, 1]\n");
    assert!(errors(&with(&outside))[0].contains("a hill's top lies within the hill"));
    let inside = format!("{hill}[[piece.top]]\ncentre = [10, 8]\nsize = [2, 1]\n");
    assert!(load::parse("b.toml", &with(&inside)).is_ok());
    let topped_forest =
        forest("f", [3.0, 3.0], [2.0, 2.0]) + "[[piece.top]]\ncentre = [3, 3]\nsize = [1, 1]\n";
    assert!(errors(&with(&topped_forest))[0].contains("only hills have a top, not a forest"));
}

fn river(id: &str, kind: &str, centre: [f64; 2], size: [f64; 2], extra: &str) -> String {
    format!(
        "[[piece]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"{kind}\"\n{extra}[[piece.zone]]\ncentre = {centre:?}\nsize = {size:?}\n"
    )
}

#[test]
fn rivers_reach_an_edge_fords_are_sections_and_bridges_span_them() {
    let stranded = river("r", "river", [10.0, 8.0], [6.0, 1.5], "");
    assert!(errors(&with(&stranded))[0].contains("a river reaches an edge of the table"));
    let west = river("w", "river", [4.5, 8.0], [9.0, 1.5], "");
    let east = river("e", "river", [16.0, 8.0], [8.0, 1.5], "");
    let ford = river("f", "ford", [10.5, 8.0], [3.0, 1.5], "");
    let good = format!("{west}{ford}{east}");
    assert!(load::parse("b.toml", &with(&good)).is_ok());
    let lost_ford = river("f", "ford", [10.5, 3.0], [3.0, 1.5], "");
    let e = errors(&with(&format!("{west}{lost_ford}")));
    assert!(
        e.iter()
            .any(|e| e.contains("a ford is a section of a river")),
        "{e:?}"
    );
    let wood = "material = \"wood\"\nsections = 2\n";
    let bridge = river("b", "bridge", [4.0, 8.0], [1.0, 2.5], wood);
    assert!(load::parse("b.toml", &with(&format!("{west}{bridge}"))).is_ok());
    let short = river("b", "bridge", [4.0, 8.0], [1.0, 1.0], wood);
    assert!(errors(&with(&format!("{west}{short}")))[0].contains("a bridge spans a river"));
    let unbuilt = river("b", "bridge", [4.0, 8.0], [1.0, 2.5], "sections = 2\n");
    assert!(errors(&with(&format!("{west}{unbuilt}")))[0].contains("a bridge is of wood or stone"));
    let wide = river(
        "b",
        "bridge",
        [4.0, 8.0],
        [1.0, 2.5],
        "material = \"stone\"\nsections = 3\n",
    );
    assert!(errors(&with(&format!("{west}{wide}")))[0].contains("`sections` = 3"));
}

#[test]
fn absurd_files_are_refused_without_panic() {
    for text in [
        "",
        "[battlefield]",
        "[battlefield]\nid = \"x\"\nname = \"\"\ntable = [20, 16]\n",
        "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [1e308, 16]\n",
        "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [20, 16]\n[[piece]]\n",
        "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [20, 16]\npiece = 3\n",
    ] {
        assert!(load::parse("b.toml", text).is_err(), "{text}");
    }
    let many: String = (0..70)
        .map(|i| {
            forest(
                &format!("f{i}"),
                [1.0 + (i % 9) as f64 * 2.0, 1.0 + (i / 9) as f64 * 2.0],
                [1.0, 1.0],
            )
        })
        .collect();
    assert!(
        errors(&with(&many))
            .iter()
            .any(|e| e.contains("at most 64"))
    );
}

//! Battlefield files (`data/onus/battlefields/<id>.toml`): `[battlefield]` and its
//! `[[piece]]` entries, each with `[[piece.zone]]` rectangles (and a hill's
//! `[[piece.top]]`); its `[[fortress]]` and `[[structure]]` entries (T&F IV), each structure
//! with `[[structure.zone]]` rectangles. Every problem is reported with its file, line and
//! field, the rules of laying terrain and structures ([`Battlefield::problems`]) included.

use std::collections::BTreeMap;
use std::ops::Range;

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use acies_data::area::{AreaBounds, read_area};
use acies_data::located::{Ctx, Entry, Got};

use crate::battlefield::{Battlefield, FortressSite};
use crate::check::{MAX_PIECES, MAX_ZONES, Subject, TABLE_SIDES};
use crate::kind::{Material, TerrainKind};
use crate::lay::{DEFAULT_MATERIAL, MAX_FORTRESSES, MAX_STRUCTURES};
use crate::piece::{Piece, Zone};
use crate::structure::{Side, Structure, StructureKind};

/// Longest name or description, in characters.
const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 2_000;

/// Parses and checks one battlefield file.
pub fn parse(file: &str, text: &str) -> Result<Battlefield, Vec<DataError>> {
    let (ctx, read) = check(file, text);
    ctx.finish(read)
}

/// Reads one battlefield file for an editor: the battlefield as written, even when it breaks
/// a rule of laying terrain or structures (an entry whose fields could not be read left out;
/// `None` when the file or its `[battlefield]` could not be read), and every problem [`parse`]
/// would report (none: it may be played on).
pub fn read(file: &str, text: &str) -> (Option<Battlefield>, Vec<DataError>) {
    let (ctx, read) = check(file, text);
    match ctx.finish(read.clone()) {
        Ok(b) => (Some(b), Vec::new()),
        Err(errors) => (read, errors),
    }
}

/// The file read, and the context holding every problem found.
fn check<'a>(file: &'a str, text: &'a str) -> (Ctx<'a>, Option<Battlefield>) {
    let mut ctx = Ctx::new(file, text);
    let mut spans: BTreeMap<(Subject, String), Range<usize>> = BTreeMap::new();
    let read = ctx
        .parse("a battlefield file has [battlefield] and [[piece]] entries")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["battlefield", "piece", "fortress", "structure"],
                "a battlefield file has [battlefield], [[piece]], [[fortress]] and [[structure]]",
            );
            let head = ctx.table(&doc, "battlefield", "missing [battlefield] table");
            let head = head.and_then(|e| read_head(&mut ctx, &e));
            let table = head.as_ref().map(|b| [b.width, b.depth]);
            let pieces = ctx.entries(&doc, "piece", |ctx, i, t, span| {
                let e = Entry::new(t, span.clone(), format!("piece[{i}]"));
                let piece = read_piece(ctx, &e, table)?;
                spans.insert((Subject::Piece, piece.id.clone()), span);
                Some(piece)
            });
            let fortresses = ctx.entries(&doc, "fortress", |ctx, i, t, span| {
                let e = Entry::new(t, span.clone(), format!("fortress[{i}]"));
                let f = read_fortress(ctx, &e)?;
                spans.insert((Subject::Fortress, f.id.clone()), span);
                Some(f)
            });
            let structures = ctx.entries(&doc, "structure", |ctx, i, t, span| {
                let e = Entry::new(t, span.clone(), format!("structure[{i}]"));
                let s = read_structure(ctx, &e, table)?;
                spans.insert((Subject::Structure, s.id.clone()), span);
                Some(s)
            });
            let pieces = ctx.at_most(pieces, MAX_PIECES, "piece", "pieces");
            let fortresses = ctx.at_most(fortresses, MAX_FORTRESSES, "fortress", "fortresses");
            let structures = ctx.at_most(structures, MAX_STRUCTURES, "structure", "structures");
            let mut battlefield = head?;
            battlefield.pieces = pieces?;
            battlefield.fortresses = fortresses?;
            battlefield.structures = structures?;
            Some(battlefield)
        });
    if let Some(b) = &read {
        for p in b.problems() {
            let span = p.about.as_ref().and_then(|a| spans.get(a)).cloned();
            let field = match &p.about {
                Some((s, id)) => format!("{} \"{id}\".{}", s.id(), p.field),
                None => format!("battlefield.{}", p.field),
            };
            ctx.err(K::BadValue, span, Some(field), p.message);
        }
    }
    (ctx, read)
}

/// A `[[fortress]]`: id, name, owner and the agreement on stone towers (T&F VI).
fn read_fortress(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<FortressSite> {
    e.check_fields(ctx, &["id", "name", "owner", "stone_towers_agreed"], "");
    let id = e.id(ctx).map(|(id, _)| id);
    let name = bounded_text(ctx, e, "name", MAX_NAME, "the fortress's name");
    let owner = e.name_of(
        ctx,
        "owner",
        "side",
        &["attacker", "defender"],
        None,
        Side::from_id,
    );
    let agreed = e.bool_or(ctx, "stone_towers_agreed", Some(false), "");
    Some(FortressSite {
        id: id?,
        name: name?,
        owner: owner?,
        stone_towers_agreed: agreed?,
    })
}

/// A `[[structure]]` and its `[[structure.zone]]` rectangles (T&F IV).
fn read_structure(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    table: Option<[f64; 2]>,
) -> Option<Structure> {
    e.check_fields(
        ctx,
        &[
            "id", "name", "kind", "material", "owner", "fortress", "zone",
        ],
        "",
    );
    let id = e.id(ctx).map(|(id, _)| id);
    let name = match e.get("name") {
        None => Some(String::new()),
        Some(_) => bounded_text(ctx, e, "name", MAX_NAME, "the structure's name"),
    };
    let known: Vec<&str> = StructureKind::ALL.iter().map(|k| k.id()).collect();
    let kind = e.name_of(
        ctx,
        "kind",
        "structure kind",
        &known,
        None,
        StructureKind::from_id,
    );
    let material = e.name_of(
        ctx,
        "material",
        "material",
        &["wood", "stone"],
        Some(DEFAULT_MATERIAL),
        Material::from_id,
    );
    let owner = match e.get("owner") {
        None => Some(None),
        Some(_) => e
            .name_of(
                ctx,
                "owner",
                "side",
                &["attacker", "defender"],
                None,
                Side::from_id,
            )
            .map(Some),
    };
    let fortress = match e.string(ctx, "fortress") {
        Got::Absent => Some(None),
        Got::Val(f, _) => Some(Some(f)),
        Got::Bad => None,
    };
    let zones = read_zones(ctx, e, "zone", table);
    if zones.as_ref().is_some_and(Vec::is_empty) {
        e.missing(ctx, "zone", "at least one [[structure.zone]] rectangle");
        return None;
    }
    Some(Structure {
        id: id?,
        name: name?,
        kind: kind?,
        material: material?,
        zones: zones?,
        owner: owner?,
        fortress: fortress?,
    })
}

fn read_head(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<Battlefield> {
    e.check_fields(
        ctx,
        &["id", "name", "description", "table", "fordable_rivers"],
        "",
    );
    let fordable_rivers = e.bool_or(ctx, "fordable_rivers", Some(false), "");
    let id = e.id(ctx).map(|(id, _)| id);
    let name = bounded_text(ctx, e, "name", MAX_NAME, "the battlefield's name");
    let description = match e.string(ctx, "description") {
        Got::Val(d, span) if d.chars().count() > MAX_DESCRIPTION => {
            let message = format!("`description` is longer than {MAX_DESCRIPTION} characters");
            e.bad(ctx, K::OutOfRange, "description", &span, message);
            None
        }
        Got::Val(d, _) => Some(d),
        Got::Absent => Some(String::new()),
        Got::Bad => None,
    };
    let table = e.numbers(ctx, "table", 2, "[width, depth] in DU");
    let (table, span) = e
        .required(ctx, "table", "[width, depth] in DU", table)
        .ok()?;
    if !table.iter().all(|x| TABLE_SIDES.contains(x)) {
        let message = format!(
            "each side of the table must be {} to {} DU",
            TABLE_SIDES.start(),
            TABLE_SIDES.end()
        );
        e.bad(ctx, K::OutOfRange, "table", &span, message);
        return None;
    }
    Some(Battlefield {
        id: id?,
        name: name?,
        description: description?,
        width: table[0],
        depth: table[1],
        pieces: Vec::new(),
        fordable_rivers: fordable_rivers?,
        structures: Vec::new(),
        fortresses: Vec::new(),
        insides: Default::default(),
    })
}

fn read_piece(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, table: Option<[f64; 2]>) -> Option<Piece> {
    e.check_fields(
        ctx,
        &["id", "name", "kind", "zone", "top", "material", "sections"],
        "",
    );
    let id = e.id(ctx).map(|(id, _)| id);
    let name = bounded_text(ctx, e, "name", MAX_NAME, "the piece's name");
    let known: Vec<&str> = TerrainKind::ALL.iter().map(|k| k.id()).collect();
    let kind = e.name_of(
        ctx,
        "kind",
        "terrain kind",
        &known,
        None,
        TerrainKind::from_id,
    );
    let material = match e.get("material") {
        None => Some(None),
        Some(_) => e
            .name_of(
                ctx,
                "material",
                "material",
                &["wood", "stone"],
                None,
                Material::from_id,
            )
            .map(Some),
    };
    let sections = match e.get("sections") {
        None => Some(None),
        Some(_) => e
            .int_in(ctx, "sections", 1..=2, None, "1 or 2")
            .map(|n| Some(n as u8)),
    };
    let zones = read_zones(ctx, e, "zone", table);
    let top = read_zones(ctx, e, "top", table);
    if zones.as_ref().is_some_and(Vec::is_empty) {
        e.missing(ctx, "zone", "at least one [[piece.zone]] rectangle");
        return None;
    }
    Some(Piece {
        id: id?,
        name: name?,
        kind: kind?,
        zones: zones?,
        top: top?,
        material: material?,
        sections: sections?,
    })
}

/// The `[[piece.<key>]]` rectangles; `None` when one could not be read.
fn read_zones(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    key: &str,
    table: Option<[f64; 2]>,
) -> Option<Vec<Zone>> {
    let bounds = AreaBounds {
        unit: "DU",
        min_side: 0.25,
        max_side: *TABLE_SIDES.end(),
        table,
    };
    let mut ok = true;
    let zones = ctx.entries(e.raw(), key, |ctx, i, t, span| {
        let z = Entry::new(t, span, format!("{}.{key}[{i}]", e.path()));
        z.check_fields(ctx, &["centre", "size", "angle"], "");
        let area = read_area(ctx, &z, &bounds);
        ok &= area.is_some();
        area.map(Zone::from)
    });
    if zones.len() > MAX_ZONES {
        let message = format!("{} zones; at most {MAX_ZONES}", zones.len());
        ctx.err(
            K::OutOfRange,
            Some(e.span().clone()),
            Some(e.field(key)),
            message,
        );
        return None;
    }
    ok.then_some(zones)
}

fn bounded_text(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    key: &str,
    max: usize,
    what: &str,
) -> Option<String> {
    let got = e.string(ctx, key);
    let (s, span) = e.required(ctx, key, what, got).ok()?;
    let chars = s.chars().count();
    if chars == 0 || chars > max || s.chars().any(char::is_control) {
        let message =
            format!("`{key}` must be 1 to {max} characters, none of them control characters");
        e.bad(ctx, K::BadValue, key, &span, message);
        return None;
    }
    Some(s)
}

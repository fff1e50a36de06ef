//! `scenarios/<id>.toml`: `[scenario]` and its `[[terrain]]`.

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use acies_data::area::{AreaBounds, read_area};
use acies_data::located::{Ctx, Entry, Got};

use super::MAX_TERRAIN;
use super::system::name;
use crate::scenario::{Scenario, SideId, Terrain, TerrainKind};

/// Parses one scenario file.
pub fn parse(file: &str, text: &str) -> Result<Scenario, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("a scenario file needs a [scenario] table")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["scenario", "terrain"],
                "a scenario file has [scenario] and [[terrain]]",
            );
            let head = ctx.table(&doc, "scenario", "missing [scenario] table");
            let (head, table) = match head {
                Some(e) => read_head(&mut ctx, &e),
                None => (None, None),
            };
            let terrain = ctx.entries(&doc, "terrain", |ctx, i, t, span| {
                read_terrain(ctx, &Entry::new(t, span, format!("terrain[{i}]")), table)
            });
            let terrain = ctx.at_most(terrain, MAX_TERRAIN, "terrain", "terrain features")?;
            let mut scenario = head?;
            scenario.terrain = terrain;
            Some(scenario)
        });
    ctx.finish(read)
}

/// The scenario's head, and its table size when that much could be read (the terrain is
/// checked against it even when another field is wrong).
fn read_head(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> (Option<Scenario>, Option<[f64; 2]>) {
    e.check_fields(
        ctx,
        &[
            "id",
            "name",
            "description",
            "table",
            "deployment_depth",
            "turn_limit",
            "first",
        ],
        "",
    );
    let id = e.id(ctx);
    let name = name(ctx, e, "name", "the scenario's name");
    let description = e.string(ctx, "description").optional();
    let table = e.numbers(ctx, "table", 2, "[width, depth] in inches");
    let table = match e.required(ctx, "table", "[width, depth] in inches", table) {
        Got::Val(v, _) if v.iter().all(|x| (12.0..=240.0).contains(x)) => Some([v[0], v[1]]),
        Got::Val(_, span) => {
            e.bad(
                ctx,
                K::OutOfRange,
                "table",
                &span,
                "`table`: each side must be 12 to 240 inches".into(),
            );
            None
        }
        _ => None,
    };
    let depth = e.number_in(
        ctx,
        "deployment_depth",
        "inches from the army's edge",
        |x| x > 0.0 && x <= 48.0,
        "allowed more than 0, up to 48",
    );
    let turns = e.int_in(
        ctx,
        "turn_limit",
        1..=100,
        None,
        "full turns before the battle ends undecided",
    );
    let first = e.name_of(
        ctx,
        "first",
        "side",
        &["a", "b"],
        Some(SideId::A),
        |s| match s {
            "a" => Some(SideId::A),
            "b" => Some(SideId::B),
            _ => None,
        },
    );
    let head = (|| {
        let (table, depth) = (table?, depth?);
        if depth * 2.0 >= table[1] {
            let span = e
                .get("deployment_depth")
                .map_or(e.span().clone(), |v| v.span());
            let message = format!(
                "`deployment_depth` = {depth}: the two zones would meet on a table {} deep",
                table[1]
            );
            e.bad(ctx, K::OutOfRange, "deployment_depth", &span, message);
            return None;
        }
        Some(Scenario {
            id: id?.0,
            name: name?,
            description: description?,
            table,
            deployment_depth: depth,
            turn_limit: turns? as u32,
            first: first?,
            terrain: Vec::new(),
        })
    })();
    (head, table)
}

fn read_terrain(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, table: Option<[f64; 2]>) -> Option<Terrain> {
    e.check_fields(ctx, &["name", "kind", "centre", "size", "angle"], "");
    let name = name(ctx, e, "name", "the feature's name");
    let known: Vec<&str> = TerrainKind::ALL.iter().map(|k| k.id()).collect();
    let kind = e.name_of(
        ctx,
        "kind",
        "terrain kind",
        &known,
        None,
        TerrainKind::from_id,
    );
    let bounds = AreaBounds {
        unit: "inches",
        min_side: 0.1,
        max_side: 240.0,
        table,
    };
    let area = read_area(ctx, e, &bounds)?;
    Some(Terrain {
        name: name?,
        kind: kind?,
        centre: area.centre,
        size: area.size,
        angle: area.angle,
    })
}

//! Rectangles of terrain as data files give them: `centre = [x, y]`, `size = [width, depth]`,
//! `angle` in degrees. Every free-movement system places terrain this way (ONUS! in DU, the
//! Morale Clock system in inches), so the reading and its bounds live here once.

use crate::error::DataErrorKind as K;
use crate::located::{Ctx, Entry, Got};

/// A rectangle on the table: its centre, its size along its own axes and its rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Centre, from the table's left and near edges.
    pub centre: [f64; 2],
    /// Width along the area's own x axis, depth along its y axis.
    pub size: [f64; 2],
    /// Rotation, degrees counter-clockwise, -180 to 180.
    pub angle: f64,
}

/// What an area may be: its unit of length (for messages), its largest side, and the table
/// its centre must lie on (when the table could be read).
#[derive(Clone, Copy, Debug)]
pub struct AreaBounds<'a> {
    pub unit: &'a str,
    pub min_side: f64,
    pub max_side: f64,
    pub table: Option<[f64; 2]>,
}

/// The area of entry `e` (keys `centre`, `size`, `angle`; `angle` defaults to 0), each key
/// checked for type and range; problems go to `ctx` with their field paths.
pub fn read_area(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, bounds: &AreaBounds<'_>) -> Option<Area> {
    let unit = bounds.unit;
    let centre = e.numbers(
        ctx,
        "centre",
        2,
        &format!("[x, y] in {unit} from the table's left and near edges"),
    );
    let centre = e.required(ctx, "centre", "[x, y]", centre).ok();
    let size = e.numbers(ctx, "size", 2, &format!("[width, depth] in {unit}"));
    let size = e.required(ctx, "size", "[width, depth]", size).ok();
    let angle = read_angle(ctx, e);
    let (centre, centre_span) = centre?;
    let (size, size_span) = size?;
    let (lo, hi) = (bounds.min_side, bounds.max_side);
    if size.iter().any(|x| !(lo..=hi).contains(x)) {
        let message = format!("`size`: each side must be {lo} to {hi} {unit}");
        e.bad(ctx, K::OutOfRange, "size", &size_span, message);
        return None;
    }
    if let Some([w, d]) = bounds.table {
        if !(0.0..=w).contains(&centre[0]) || !(0.0..=d).contains(&centre[1]) {
            let message = format!("`centre` is off the {w} x {d} {unit} table");
            e.bad(ctx, K::OutOfRange, "centre", &centre_span, message);
            return None;
        }
    }
    Some(Area {
        centre: [centre[0], centre[1]],
        size: [size[0], size[1]],
        angle: angle?,
    })
}

fn read_angle(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<f64> {
    match e.number(ctx, "angle") {
        Got::Val(a, _) if (-180.0..=180.0).contains(&a) => Some(a),
        Got::Val(a, span) => {
            let message = format!("`angle` = {a}: allowed -180 to 180 degrees");
            e.bad(ctx, K::OutOfRange, "angle", &span, message);
            None
        }
        Got::Absent => Some(0.0),
        Got::Bad => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, table: Option<[f64; 2]>) -> Result<Area, Vec<String>> {
        let mut ctx = Ctx::new("t.toml", text);
        let bounds = AreaBounds {
            unit: "DU",
            min_side: 0.5,
            max_side: 40.0,
            table,
        };
        let got = ctx.parse("an area").and_then(|doc| {
            let e = ctx.table(&doc, "area", "missing [area]")?;
            read_area(&mut ctx, &e, &bounds)
        });
        ctx.finish(got)
            .map_err(|es| es.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn an_area_reads_with_its_default_angle() {
        let a = read("[area]\ncentre = [3, 4.5]\nsize = [2, 1]\n", None).unwrap();
        assert_eq!(a.centre, [3.0, 4.5]);
        assert_eq!(a.size, [2.0, 1.0]);
        assert_eq!(a.angle, 0.0);
    }

    #[test]
    fn each_bad_key_is_located() {
        let e = read(
            "[area]\ncentre = [30, 4]\nsize = [2, 1]\n",
            Some([22.0, 18.0]),
        )
        .unwrap_err();
        assert_eq!(
            e,
            ["t.toml:2:10: area.centre: `centre` is off the 22 x 18 DU table"]
        );
        let e = read(
            "[area]\ncentre = [3, 4]\nsize = [0.1, 1]\nangle = 200\n",
            None,
        )
        .unwrap_err();
        assert_eq!(
            e,
            [
                "t.toml:3:8: area.size: `size`: each side must be 0.5 to 40 DU",
                "t.toml:4:9: area.angle: `angle` = 200: allowed -180 to 180 degrees"
            ]
        );
        let e = read("[area]\nsize = [1, 1]\n", None).unwrap_err();
        assert!(e[0].contains("area.centre"), "{e:?}");
    }
}

//! Benchmarks: the pairwise tests, and one card's sweep against a table of 60 cards, brute
//! force (with the bounding-box pre-check the library does) against a uniform grid prototype,
//! to decide whether the crate needs a spatial index. Run with `cargo bench -p acies-geom`.

use std::collections::HashMap;
use std::f64::consts::{FRAC_PI_2, PI};
use std::hint::black_box;

use acies_geom::{Aabb, Corner, Motion, OrientedRect, SweptShape, Vec2, first_hit};
use criterion::{Criterion, criterion_group, criterion_main};

/// Two battle lines of 30 cards (3 × 1.5 DU) facing each other across a 36 × 24 DU table,
/// in three ranks with gaps, slightly jittered so that headings are not all equal.
fn table() -> Vec<OrientedRect> {
    let mut out = Vec::with_capacity(60);
    for side in 0..2 {
        let (y0, heading, dir) = if side == 0 {
            (3.0, 0.0, 1.0)
        } else {
            (21.0, PI, -1.0)
        };
        for rank in 0..3 {
            for file in 0..10 {
                let k = (side * 30 + rank * 10 + file) as f64;
                let jitter = (k * 0.7).sin() * 0.05;
                let x = 1.8 + file as f64 * 3.6 + jitter;
                let y = y0 + dir * rank as f64 * 2.5;
                out.push(OrientedRect::at(
                    Vec2::new(x, y),
                    heading + jitter,
                    3.0,
                    1.5,
                ));
            }
        }
    }
    out
}

/// A uniform grid over the table's bounding boxes: each cell lists the cards whose box meets it.
struct Grid {
    cell: f64,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn new(rects: &[OrientedRect], cell: f64) -> Grid {
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (i, r) in rects.iter().enumerate() {
            let b = r.aabb();
            for key in Self::keys(&b, cell) {
                cells.entry(key).or_default().push(i);
            }
        }
        Grid { cell, cells }
    }

    fn keys(b: &Aabb, cell: f64) -> impl Iterator<Item = (i64, i64)> {
        let x0 = (b.min.x / cell).floor() as i64;
        let x1 = (b.max.x / cell).floor() as i64;
        let y0 = (b.min.y / cell).floor() as i64;
        let y1 = (b.max.y / cell).floor() as i64;
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn candidates(&self, b: &Aabb, seen: &mut [bool], out: &mut Vec<usize>) {
        out.clear();
        for key in Self::keys(b, self.cell) {
            if let Some(list) = self.cells.get(&key) {
                for &i in list {
                    if !seen[i] {
                        seen[i] = true;
                        out.push(i);
                    }
                }
            }
        }
        for &i in out.iter() {
            seen[i] = false;
        }
    }
}

fn grid_first_hit(
    grid: &Grid,
    rects: &[OrientedRect],
    moving: &OrientedRect,
    motion: Motion,
    seen: &mut [bool],
    cand: &mut Vec<usize>,
) -> Option<(usize, f64)> {
    let shape = SweptShape::new(*moving, motion);
    grid.candidates(&shape.aabb(), seen, cand);
    let mut best: Option<(usize, f64)> = None;
    for &i in cand.iter() {
        if let Some(t) = shape.first_hit(&rects[i]) {
            if best.is_none_or(|(bi, bt)| t < bt || (t == bt && i < bi)) {
                best = Some((i, t));
            }
        }
    }
    best
}

fn pairwise(c: &mut Criterion) {
    let a = OrientedRect::at(Vec2::new(0.0, 0.0), 0.3, 3.0, 1.5);
    let near = OrientedRect::at(Vec2::new(2.0, 0.5), -0.4, 3.0, 1.5);
    let far = OrientedRect::at(Vec2::new(9.0, 4.0), 1.1, 3.0, 1.5);
    c.bench_function("overlaps/two rects, overlapping", |b| {
        b.iter(|| black_box(&a).overlaps(black_box(&near)))
    });
    c.bench_function("overlaps/two rects, apart", |b| {
        b.iter(|| black_box(&a).overlaps(black_box(&far)))
    });
    c.bench_function("distance/two rects, apart", |b| {
        b.iter(|| black_box(&a).distance(black_box(&far)))
    });
    let wall = OrientedRect::at(Vec2::new(0.0, 4.0), 0.2, 3.0, 1.5);
    c.bench_function("sweep_hits/translation, one obstacle hit", |b| {
        b.iter(|| {
            acies_geom::sweep_hits(
                black_box(&a),
                &Motion::Translate(Vec2::new(0.0, 6.0)),
                black_box(&wall),
            )
        })
    });
    let wheel = Motion::rotate_about_corner(&a, Corner::FrontLeft, -FRAC_PI_2);
    let beside = OrientedRect::at(Vec2::new(1.5, -2.5), 0.0, 3.0, 1.5);
    c.bench_function("sweep_hits/rotation, one obstacle in reach", |b| {
        b.iter(|| acies_geom::sweep_hits(black_box(&a), black_box(&wheel), black_box(&beside)))
    });
}

fn against_table(c: &mut Criterion) {
    let rects = table();
    // The moving card: the middle of the front rank of the first side (index 4), charging
    // straight ahead across the table, wheeling 90° about its front-left corner, and turning
    // about its centre.
    let i = 4;
    let moving = rects[i];
    let others: Vec<OrientedRect> = rects
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != i)
        .map(|(_, r)| *r)
        .collect();
    let motions = [
        (
            "translation 15 DU",
            Motion::Translate(moving.pose.forward() * 15.0),
        ),
        (
            "wheel 90° about a corner",
            Motion::rotate_about_corner(&moving, Corner::FrontLeft, FRAC_PI_2),
        ),
        (
            "turn 180° about the centre",
            Motion::rotate_about_centre(&moving, PI),
        ),
    ];
    let grid = Grid::new(&others, 4.0);
    let mut seen = vec![false; others.len()];
    let mut cand = Vec::new();
    for (name, m) in motions {
        // Both must agree before being timed.
        let brute = first_hit(&moving, &m, others.iter().enumerate()).map(|h| (h.key, h.t));
        let gridded = grid_first_hit(&grid, &others, &moving, m, &mut seen, &mut cand);
        assert_eq!(brute, gridded, "{name}");
        c.bench_function(&format!("60 cards/{name}/brute force + AABB"), |b| {
            b.iter(|| first_hit(black_box(&moving), black_box(&m), others.iter().enumerate()))
        });
        c.bench_function(&format!("60 cards/{name}/grid 4 DU"), |b| {
            b.iter(|| {
                grid_first_hit(
                    &grid,
                    &others,
                    black_box(&moving),
                    black_box(m),
                    &mut seen,
                    &mut cand,
                )
            })
        });
    }
    c.bench_function("60 cards/build grid 4 DU", |b| {
        b.iter(|| Grid::new(black_box(&others), 4.0))
    });
}

criterion_group!(benches, pairwise, against_table);
criterion_main!(benches);

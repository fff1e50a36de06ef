//! Tests of the square grid: facing, neighbours, relative positions, distances, lines, board.

use acies_grid::{
    Around, Aspect, Board, BoardError, Cell, CellEdge, Direction, Facing, Local, line,
    orthogonal_groups, orthogonally_connected, ray,
};
use proptest::prelude::*;

fn c(col: i32, row: i32) -> Cell {
    Cell::new(col, row)
}

#[test]
fn turns_and_about_face() {
    assert_eq!(Facing::North.right(), Facing::East);
    assert_eq!(Facing::North.left(), Facing::West);
    assert_eq!(Facing::East.about(), Facing::West);
    assert_eq!(Facing::West.turned(-3), Facing::North);
    assert_eq!(Facing::North.quarters_to(Facing::East), 1);
    assert_eq!(Facing::North.quarters_to(Facing::West), -1);
    assert_eq!(Facing::South.quarters_to(Facing::North), 2);
    assert_eq!(Facing::South.quarters_to(Facing::South), 0);
}

#[test]
fn ahead_behind_and_neighbours() {
    let x = c(3, 3);
    assert_eq!(x.ahead(Facing::North), c(3, 4));
    assert_eq!(x.behind(Facing::North), c(3, 2));
    assert_eq!(x.ahead(Facing::East), c(4, 3));
    assert_eq!(x.moved(Facing::West, 2), c(1, 3));
    assert_eq!(
        x.orthogonal_neighbours(),
        [c(3, 4), c(4, 3), c(3, 2), c(2, 3)]
    );
    assert_eq!(
        x.neighbours(),
        [
            c(3, 4),
            c(4, 4),
            c(4, 3),
            c(4, 2),
            c(3, 2),
            c(2, 2),
            c(2, 3),
            c(2, 4)
        ]
    );
    assert!(x.is_orthogonally_adjacent(c(3, 4)));
    assert!(!x.is_orthogonally_adjacent(c(4, 4)));
    assert!(x.is_diagonally_adjacent(c(4, 4)));
    assert!(x.is_adjacent(c(2, 2)));
    assert!(!x.is_adjacent(x));
    assert_eq!(x.direction_to(c(2, 4)), Some(Direction::NorthWest));
    assert_eq!(x.direction_to(c(5, 3)), None);
}

#[test]
fn distances() {
    assert_eq!(c(0, 0).manhattan(c(3, -2)), 5);
    assert_eq!(c(0, 0).chebyshev(c(3, -2)), 3);
    assert_eq!(c(1, 1).chebyshev(c(1, 1)), 0);
}

#[test]
fn local_offsets_for_each_facing() {
    let o = c(5, 5);
    // The square north-east of o: ahead-right facing north, ahead-left facing east...
    let ne = c(6, 6);
    assert_eq!(Facing::North.local(o, ne), Local::new(1, 1));
    assert_eq!(Facing::East.local(o, ne), Local::new(1, -1));
    assert_eq!(Facing::South.local(o, ne), Local::new(-1, -1));
    assert_eq!(Facing::West.local(o, ne), Local::new(-1, 1));
    assert_eq!(
        Facing::North.local(o, ne).around(),
        Some(Around::FrontRight)
    );
    assert_eq!(Facing::South.local(o, ne).around(), Some(Around::RearLeft));
}

#[test]
fn aspects_of_orthogonal_squares() {
    let o = c(0, 0);
    let f = Facing::East;
    assert_eq!(f.local(o, c(1, 0)).aspect(), Some(Aspect::Front));
    assert_eq!(f.local(o, c(-1, 0)).aspect(), Some(Aspect::Rear));
    assert_eq!(f.local(o, c(0, 1)).aspect(), Some(Aspect::Left));
    assert_eq!(f.local(o, c(0, -1)).aspect(), Some(Aspect::Right));
    // Diagonals lie on two sides at once.
    assert_eq!(f.local(o, c(1, 1)).aspect(), None);
    assert_eq!(f.local(o, o).aspect(), None);
    // Farther cells by the nearer axis.
    assert_eq!(f.local(o, c(3, 1)).aspect(), Some(Aspect::Front));
    assert_eq!(f.local(o, c(1, -3)).aspect(), Some(Aspect::Right));
    assert!(Aspect::Rear.is_flank_or_rear());
    assert!(!Aspect::Front.is_flank_or_rear());
    assert!(Aspect::Left.is_flank());
}

#[test]
fn arcs() {
    assert!(Local::new(1, 1).in_front_arc());
    assert!(Local::new(2, -2).in_front_arc());
    assert!(!Local::new(1, 2).in_front_arc());
    assert!(!Local::new(0, 1).in_front_arc());
    assert!(Local::new(-1, -1).in_rear_arc());
    assert!(!Local::new(-1, 2).in_rear_arc());
    assert!(Local::new(1, 5).is_ahead());
}

#[test]
fn around_squares_round_trip() {
    for f in Facing::ALL {
        for a in Around::ALL {
            let cell = c(2, 2).at(f, a.local());
            assert_eq!(f.local(c(2, 2), cell).around(), Some(a));
            assert!(c(2, 2).is_adjacent(cell));
            assert_eq!(a.is_diagonal(), c(2, 2).is_diagonally_adjacent(cell));
        }
    }
    assert_eq!(
        Around::FRONTAL.map(|a| a.aspect()),
        [None, Some(Aspect::Front), None]
    );
}

#[test]
fn oblique_steps_as_directions() {
    assert_eq!(
        Direction::of_local(Facing::North, Local::new(1, -1)),
        Some(Direction::NorthWest)
    );
    assert_eq!(
        Direction::of_local(Facing::East, Local::new(1, 1)),
        Some(Direction::SouthEast)
    );
    assert_eq!(Direction::of_local(Facing::East, Local::new(2, 0)), None);
    assert!(Direction::SouthWest.is_diagonal());
    assert_eq!(Direction::West.facing(), Some(Facing::West));
    assert_eq!(Direction::NorthEast.facing(), None);
}

#[test]
fn facing_toward_cells() {
    assert_eq!(Facing::toward(c(1, 1), c(1, 5)), Some(Facing::North));
    assert_eq!(Facing::toward(c(1, 1), c(-2, 1)), Some(Facing::West));
    assert_eq!(Facing::toward(c(1, 1), c(2, 2)), None);
    assert_eq!(Facing::mostly_toward(c(0, 0), c(3, 1)), Some(Facing::East));
    assert_eq!(
        Facing::mostly_toward(c(0, 0), c(-2, -2)),
        Some(Facing::South)
    );
    assert_eq!(Facing::mostly_toward(c(0, 0), c(0, 0)), None);
}

#[test]
fn lines_of_cells() {
    assert_eq!(
        line(c(0, 0), c(3, 0)),
        vec![c(0, 0), c(1, 0), c(2, 0), c(3, 0)]
    );
    assert_eq!(line(c(0, 0), c(0, -2)), vec![c(0, 0), c(0, -1), c(0, -2)]);
    assert_eq!(line(c(2, 2), c(2, 2)), vec![c(2, 2)]);
    // Through a corner: both squares beside it.
    assert_eq!(
        line(c(0, 0), c(1, 1)),
        vec![c(0, 0), c(1, 0), c(0, 1), c(1, 1)]
    );
    // A knight's move crosses x = 0.5 at the middle of row 1 (an edge, no corner).
    assert_eq!(
        line(c(0, 0), c(1, 2)),
        vec![c(0, 0), c(0, 1), c(1, 1), c(1, 2)]
    );
    // Two squares across, two up: through two corners.
    assert_eq!(
        line(c(0, 0), c(2, 2)),
        vec![
            c(0, 0),
            c(1, 0),
            c(0, 1),
            c(1, 1),
            c(2, 1),
            c(1, 2),
            c(2, 2)
        ]
    );
    assert_eq!(
        line(c(0, 0), c(2, 1)),
        vec![c(0, 0), c(1, 0), c(1, 1), c(2, 1)]
    );
    assert_eq!(
        ray(c(0, 0), Direction::NorthEast, 3).collect::<Vec<_>>(),
        vec![c(1, 1), c(2, 2), c(3, 3)]
    );
}

#[test]
fn board_bounds() {
    let b = Board::new(12, 8).expect("board");
    assert!(b.contains(c(0, 0)));
    assert!(b.contains(c(11, 7)));
    assert!(!b.contains(c(12, 0)));
    assert!(!b.contains(c(0, -1)));
    assert_eq!(b.cells().count(), 96);
    assert_eq!(b.len(), 96);
    assert_eq!(b.edge_beyond(c(3, 8)), Some(Facing::North));
    assert_eq!(b.edge_beyond(c(3, -1)), Some(Facing::South));
    assert_eq!(b.edge_beyond(c(-1, 3)), Some(Facing::West));
    assert_eq!(b.edge_beyond(c(12, 8)), Some(Facing::North));
    assert_eq!(b.edge_beyond(c(3, 3)), None);
    assert_eq!(b.room(c(3, 5), Facing::North), 2);
    assert_eq!(b.room(c(3, 5), Facing::West), 3);
    assert_eq!(b.room(c(30, 5), Facing::West), 0);
    assert_eq!(b.depth_from(Facing::North, c(0, 7)), 0);
    assert_eq!(b.depth_from(Facing::South, c(0, 2)), 2);
    assert_eq!(b.half_turn(c(0, 0)), c(11, 7));
    assert_eq!(Board::new(0, 3), Err(BoardError::Size { cols: 0, rows: 3 }));
    assert!(Board::new(101, 3).is_err());
    assert!(Board { cols: 200, rows: 1 }.check().is_err());
}

#[test]
fn edges_between_cells() {
    let e = CellEdge::between(c(2, 2), c(2, 3)).expect("adjacent");
    assert_eq!(CellEdge::between(c(2, 3), c(2, 2)), Some(e));
    assert_eq!(CellEdge::of(c(2, 3), Facing::South), e);
    assert_eq!(CellEdge::of(c(2, 2), Facing::North), e);
    assert_eq!(e.cells(), (c(2, 2), c(2, 3)));
    let w = CellEdge::of(c(5, 1), Facing::West);
    assert_eq!(w.cells(), (c(4, 1), c(5, 1)));
    assert_ne!(w, CellEdge::of(c(5, 1), Facing::East));
    assert_eq!(CellEdge::between(c(0, 0), c(1, 1)), None);
    assert_eq!(CellEdge::between(c(0, 0), c(0, 0)), None);
}

#[test]
fn groups() {
    let cells = [c(0, 0), c(1, 0), c(1, 1), c(3, 3), c(2, 2), c(0, 0)];
    assert_eq!(
        orthogonal_groups(&cells),
        vec![
            vec![c(0, 0), c(1, 0), c(1, 1)],
            vec![c(2, 2)],
            vec![c(3, 3)]
        ]
    );
    assert!(orthogonally_connected(&[c(0, 0), c(0, 1), c(1, 1)]));
    assert!(!orthogonally_connected(&[c(0, 0), c(1, 1)]));
    assert!(!orthogonally_connected(&[]));
}

#[test]
fn serde_names() {
    assert_eq!(
        serde_json::to_string(&Facing::North).expect("json"),
        "\"north\""
    );
    assert_eq!(
        serde_json::to_string(&c(1, 2)).expect("json"),
        "{\"col\":1,\"row\":2}"
    );
    assert_eq!(
        serde_json::from_str::<Direction>("\"south_west\"").expect("json"),
        Direction::SouthWest
    );
}

fn cell() -> impl Strategy<Value = Cell> {
    (-20i32..20, -20i32..20).prop_map(|(a, b)| Cell::new(a, b))
}

fn facing() -> impl Strategy<Value = Facing> {
    prop::sample::select(Facing::ALL.to_vec())
}

proptest! {
    #[test]
    fn local_and_at_are_inverse(o in cell(), x in cell(), f in facing()) {
        prop_assert_eq!(o.at(f, f.local(o, x)), x);
    }

    #[test]
    fn turning_twice_is_about_face(f in facing()) {
        prop_assert_eq!(f.right().right(), f.about());
        prop_assert_eq!(f.left().right(), f);
        prop_assert_eq!(f.turned(f.quarters_to(f.about())), f.about());
    }

    #[test]
    fn ahead_of_one_is_behind_of_the_about(o in cell(), f in facing()) {
        prop_assert_eq!(o.ahead(f), o.behind(f.about()));
        prop_assert_eq!(f.local(o, o.ahead(f)).around(), Some(Around::Front));
    }

    #[test]
    fn a_cell_faced_from_the_other_side(o in cell(), x in cell(), f in facing()) {
        // Seen facing the opposite way, ahead becomes behind and right becomes left.
        let a = f.local(o, x);
        let b = f.about().local(o, x);
        prop_assert_eq!((a.forward, a.right), (-b.forward, -b.right));
    }

    #[test]
    fn lines_are_connected_and_end_right(a in cell(), b in cell()) {
        let l = line(a, b);
        prop_assert_eq!(l.first().copied(), Some(a));
        prop_assert_eq!(l.last().copied(), Some(b));
        // Every step of a supercover line is orthogonal, except the corner crossings that
        // list both side squares before the diagonal square.
        for w in l.windows(2) {
            prop_assert!(w[0].is_adjacent(w[1]));
        }
        prop_assert!(l.len() as u32 > a.chebyshev(b));
        prop_assert!(l.len() as u32 <= a.manhattan(b) + 1 + a.chebyshev(b));
    }

    #[test]
    fn lines_are_symmetric_as_sets(a in cell(), b in cell()) {
        let mut ab = line(a, b);
        let mut ba = line(b, a);
        ab.sort_unstable();
        ba.sort_unstable();
        prop_assert_eq!(ab, ba);
    }

    #[test]
    fn distances_are_metrics(a in cell(), b in cell(), x in cell()) {
        prop_assert_eq!(a.manhattan(b), b.manhattan(a));
        prop_assert!(a.chebyshev(b) <= a.manhattan(b));
        prop_assert!(a.manhattan(b) <= a.manhattan(x) + x.manhattan(b));
        prop_assert!(a.chebyshev(b) <= a.chebyshev(x) + x.chebyshev(b));
    }

    #[test]
    fn room_counts_the_steps_that_stay_on(col in 0i32..12, row in 0i32..8, f in facing()) {
        let b = Board::new(12, 8).expect("board");
        let o = Cell::new(col, row);
        let n = b.room(o, f) as i32;
        prop_assert!(b.contains(o.moved(f, n)));
        prop_assert!(!b.contains(o.moved(f, n + 1)));
        prop_assert_eq!(b.edge_beyond(o.moved(f, n + 1)), Some(f));
        prop_assert_eq!(b.depth_from(f, o), n);
    }

    #[test]
    fn every_side_of_a_cell_is_one_edge(o in cell(), f in facing()) {
        let e = CellEdge::of(o, f);
        prop_assert_eq!(CellEdge::of(o.ahead(f), f.about()), e);
        prop_assert_eq!(CellEdge::between(o, o.ahead(f)), Some(e));
        let (a, b) = e.cells();
        prop_assert!((a == o && b == o.ahead(f)) || (b == o && a == o.ahead(f)));
    }

    #[test]
    fn groups_partition_the_cells(cells in prop::collection::vec(cell(), 0..30)) {
        let groups = orthogonal_groups(&cells);
        let mut all: Vec<Cell> = groups.iter().flatten().copied().collect();
        all.sort_unstable();
        let mut want = cells.clone();
        want.sort_unstable();
        want.dedup();
        prop_assert_eq!(all, want);
        for (i, g) in groups.iter().enumerate() {
            prop_assert!(orthogonally_connected(g));
            for h in groups.iter().skip(i + 1) {
                prop_assert!(g.iter().all(|x| h.iter().all(|y| !x.is_orthogonally_adjacent(*y))));
            }
        }
    }
}

#[test]
fn the_frontal_arc_and_the_squares_around_turn_with_the_facing() {
    let c = Cell::new(4, 4);
    assert_eq!(
        c.frontal_arc(Facing::North),
        [Cell::new(3, 5), Cell::new(4, 5), Cell::new(5, 5)]
    );
    assert_eq!(
        c.frontal_arc(Facing::South),
        [Cell::new(5, 3), Cell::new(4, 3), Cell::new(3, 3)]
    );
    assert_eq!(
        c.frontal_arc(Facing::East),
        [Cell::new(5, 5), Cell::new(5, 4), Cell::new(5, 3)]
    );
    for facing in [Facing::North, Facing::East, Facing::South, Facing::West] {
        assert_eq!(c.around(facing, Around::Front), c.ahead(facing));
        assert_eq!(c.around(facing, Around::Rear), c.behind(facing));
        for a in Around::ALL {
            // Where a square lies as the unit sees it, and back.
            assert_eq!(facing.local(c, c.around(facing, a)).around(), Some(a));
        }
        let arc = c.frontal_arc(facing);
        assert!(arc.iter().all(|x| facing.local(c, *x).in_front_arc()));
    }
}

#[test]
fn a_zone_is_the_first_rows_from_an_edge() {
    let b = Board::new(8, 6).unwrap();
    let south: Vec<Cell> = b.zone(Facing::South, 2).collect();
    assert_eq!(south.len(), 16);
    assert!(south.iter().all(|c| c.row < 2));
    let north: Vec<Cell> = b.zone(Facing::North, 1).collect();
    assert_eq!(north.len(), 8);
    assert!(north.iter().all(|c| c.row == 5));
    let west: Vec<Cell> = b.zone(Facing::West, 3).collect();
    assert_eq!(west.len(), 18);
    assert!(west.iter().all(|c| c.col < 3));
    assert!(b.in_zone(Facing::East, 1, Cell::new(7, 0)));
    assert!(
        !b.in_zone(Facing::East, 1, Cell::new(8, 0)),
        "off the board"
    );
    assert!(
        !b.in_zone(Facing::South, 0, Cell::new(0, 0)),
        "an empty zone"
    );
    assert_eq!(b.zone(Facing::South, 99).count(), b.len());
}

//! Where the scripted player deploys: a compact line at the front of its zone, from the
//! centre outwards, every unit next to one already placed (no Strategy Point spent).

use acies_grid::Cell;
use command_points_game::deploy::needs_strategy;
use command_points_game::state::Place;
use command_points_game::{Action, GameState};
use command_points_model::{Seat, Terrain};

/// The next unit to place and where.
pub fn next(s: &GameState, seat: Seat) -> Action {
    let unit = s
        .units()
        .iter()
        .find(|u| u.owner == seat && u.place == Place::Reserve)
        .map(|u| u.id);
    match (unit, best_cell(s, seat)) {
        (Some(unit), Some(cell)) => Action::Deploy { unit, cell },
        _ => Action::EndPhase,
    }
}

/// The free square of the zone nearest the enemy, then nearest the centre column.
fn best_cell(s: &GameState, seat: Seat) -> Option<Cell> {
    let board = s.board();
    let centre = i32::from(board.cols) / 2;
    board
        .zone(seat.home(), s.scenario().deploy_rows.into())
        .filter(|c| s.unit_at(*c).is_none())
        .filter(|c| s.terrain(*c) == Terrain::Open || s.terrain(*c) == Terrain::Hill)
        .filter(|c| !needs_strategy(s, seat, *c))
        .min_by_key(|c| {
            let depth = board.depth_from(seat.home(), *c);
            (-depth, (c.col - centre).abs(), c.col)
        })
}

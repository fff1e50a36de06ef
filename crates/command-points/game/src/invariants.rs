//! What must hold after every action of any game, whatever the players do: the checks the
//! tests, `acies sim --system command-points --check` and CI's soak run after each action.
//!
//! * The Setback and Disaster cards are conserved: each card of the deck (ours,
//!   `data/command-points/deck.toml`) is in exactly one place — its draw pile, a player's
//!   hand, or out of play — so the count of each kind is the deck's (SETBACK AND DISASTER
//!   CARDS; a card once revealed stays revealed while held: HOMUNCULUS EST!).
//! * Every unit on the table stands on a square of the board that is not Impassable, one unit
//!   to a square; a unit pursuing off the table left from a square of the board (PURSUIT
//!   OFF-TABLE "returns in the two squares where it left the Table").
//! * A unit out of the battle never comes back; a unit once deployed never goes back into
//!   reserve; lines are only ever lost (SKIRMISH AND RESERVE LINES OUTCOME); a Legion loses
//!   one Eagle and suffers Centurion Casualties once, its Discipline Rating rising by one with
//!   them (LOST EAGLES AND CENTURION CASUALTIES); a unit fails at most two Movement
//!   Activations in a row (the second is a Reversal of Fortune and starts the count anew).
//! * Points only go down: the Command Points and Generalship Points a player has together
//!   never grow (COMMAND POINTS: an exchange takes three for one, a Generalship Point converts
//!   into one Command Point); Generalship Points never exceed the General's starting ones. A
//!   General in command is attached to a unit of its army still in the battle; a General
//!   killed, seriously wounded or withdrawn has no points and no unit (RISK TO GENERALS).
//! * The turn never goes back nor beyond the scenario's last; a battle over stays over with
//!   the same outcome, with nothing under way; a battle not over has somebody to act; the
//!   unit being activated belongs to the player whose phase it is.
//! * Hidden information: each player's view shows all of their own cards and none of the
//!   opponent's face-down ones (their id and value), a spectator's none of either; and a
//!   state sampled for a seat (`Determinize`) looks the same to that seat as the real one.

use std::collections::BTreeMap;

use acies_core::{GameRng, Viewer};
use command_points_model::{CardKind, Seat, Terrain};

use crate::state::{GameState, GeneralStatus, Place, Stage};

/// The first invariant `after` breaks, `before` being the state the last action was applied
/// to; `Ok` when all hold.
pub fn check(before: &GameState, after: &GameState) -> Result<(), String> {
    cards(after)?;
    revealed(before, after)?;
    squares(after)?;
    units(before, after)?;
    points(before, after)?;
    generals(after)?;
    progress(before, after)?;
    views(after)?;
    Ok(())
}

/// Every card of the deck is in exactly one place, and in the pile of its kind if drawn
/// from none.
pub fn cards(s: &GameState) -> Result<(), String> {
    let mut seen: BTreeMap<u16, &'static str> = BTreeMap::new();
    let mut count = [0usize; 2];
    let mut place = |id: u16, kind: CardKind, wherein: &'static str| {
        if let Some(other) = seen.insert(id, wherein) {
            return Err(format!("cards: card {id} is both {other} and {wherein}"));
        }
        count[usize::from(kind == CardKind::Disaster)] += 1;
        Ok(())
    };
    for kind in [CardKind::Setback, CardKind::Disaster] {
        for c in s.decks.pile(kind) {
            if c.kind != kind {
                return Err(format!("cards: a {} card in the {kind} pile", c.kind));
            }
            place(c.id, c.kind, "in a draw pile")?;
        }
    }
    for seat in Seat::BOTH {
        for c in &s.player(seat).cards {
            place(c.card.id, c.card.kind, "held")?;
        }
    }
    for d in &s.decks.discards {
        place(d.card.id, d.card.kind, "out of play")?;
    }
    for (i, kind) in [CardKind::Setback, CardKind::Disaster]
        .into_iter()
        .enumerate()
    {
        let size = s.setup.deck.values(kind).len();
        if count[i] != size {
            return Err(format!(
                "cards: {} {kind} cards in the piles, hands and out of play for a deck of {size}",
                count[i]
            ));
        }
    }
    Ok(())
}

/// A card revealed stays revealed while its owner holds it.
pub fn revealed(before: &GameState, after: &GameState) -> Result<(), String> {
    for seat in Seat::BOTH {
        for c in after.player(seat).cards.iter().filter(|c| !c.revealed) {
            let was = before
                .player(seat)
                .cards
                .iter()
                .find(|b| b.card.id == c.card.id);
            if was.is_some_and(|b| b.revealed) {
                return Err(format!(
                    "cards: {seat}'s card {} was revealed and is face down again",
                    c.card.id
                ));
            }
        }
    }
    Ok(())
}

/// Units on the table stand on the board, off Impassable terrain, one to a square; a pursuit
/// left from a square of the board.
pub fn squares(s: &GameState) -> Result<(), String> {
    let board = s.board();
    let mut taken = BTreeMap::new();
    for u in &s.units {
        match u.place {
            Place::Table { cell } => {
                if !board.contains(cell) {
                    return Err(format!("{} stands on {cell:?}, off the board", u.name()));
                }
                if s.terrain(cell) == Terrain::Impassable {
                    return Err(format!(
                        "{} stands on Impassable terrain {cell:?}",
                        u.name()
                    ));
                }
                if let Some(other) = taken.insert(cell, u.id) {
                    return Err(format!("{} and {other} both stand on {cell:?}", u.id));
                }
            }
            Place::Pursuing { cell, .. } if !board.contains(cell) => {
                return Err(format!("{} pursues from {cell:?}, off the board", u.name()));
            }
            _ => {}
        }
    }
    Ok(())
}

/// What only ever goes one way for a unit.
pub fn units(before: &GameState, after: &GameState) -> Result<(), String> {
    if before.units.len() != after.units.len() {
        return Err(format!(
            "{} units before an action, {} after",
            before.units.len(),
            after.units.len()
        ));
    }
    for (b, a) in before.units.iter().zip(&after.units) {
        let name = a.name();
        if b.place == Place::Gone && a.place != Place::Gone {
            return Err(format!("{name} came back into the battle"));
        }
        if b.place != Place::Reserve && a.place == Place::Reserve {
            return Err(format!("{name} went back into reserve"));
        }
        if a.owner != b.owner || a.profile != b.profile {
            return Err(format!("{name} changed owner or profile"));
        }
        let mut lines = b.lines.clone();
        for l in &a.lines {
            match lines.iter().position(|x| x == l) {
                Some(i) => {
                    lines.remove(i);
                }
                None => return Err(format!("{name} gained a {l:?} line")),
            }
        }
        if (b.eagle_lost && !a.eagle_lost) || (b.centurions_lost && !a.centurions_lost) {
            return Err(format!("{name} recovered its Eagle or its Centurions"));
        }
        if a.discipline_increase != u8::from(a.centurions_lost) {
            return Err(format!(
                "{name}'s Discipline Rating is raised by {} with Centurion Casualties {}",
                a.discipline_increase, a.centurions_lost
            ));
        }
        if a.failed_moves >= 2 {
            return Err(format!(
                "{name} has failed {} Movement Activations in a row",
                a.failed_moves
            ));
        }
    }
    Ok(())
}

/// Command and Generalship Points together never grow; Generalship within the start.
pub fn points(before: &GameState, after: &GameState) -> Result<(), String> {
    for seat in Seat::BOTH {
        let total = |s: &GameState| {
            let p = s.player(seat);
            p.points.total() + u32::from(p.general.points)
        };
        if total(after) > total(before) {
            return Err(format!(
                "{seat}'s Command and Generalship Points grew from {} to {}",
                total(before),
                total(after)
            ));
        }
        let g = &after.player(seat).general;
        if g.points > g.initial {
            return Err(format!(
                "{seat}'s General has {} Generalship Points of {}",
                g.points, g.initial
            ));
        }
    }
    Ok(())
}

/// A General in command is attached to a unit of its army in the battle; one out of it has
/// neither points nor unit.
pub fn generals(s: &GameState) -> Result<(), String> {
    for seat in Seat::BOTH {
        let g = &s.player(seat).general;
        if g.status == GeneralStatus::Commanding {
            let unit = g.unit.and_then(|id| s.unit(id));
            let Some(u) = unit else {
                return Err(format!("{seat}'s General commands without a unit"));
            };
            let in_battle = matches!(u.place, Place::Table { .. } | Place::Pursuing { .. })
                || (u.place == Place::Reserve && matches!(s.stage, Stage::Deploy { .. }));
            if u.owner != seat || !in_battle {
                return Err(format!(
                    "{seat}'s General is attached to {}, which is {:?} and {}'s",
                    u.name(),
                    u.place,
                    u.owner
                ));
            }
        } else if g.unit.is_some() || g.points > 0 {
            return Err(format!(
                "{seat}'s General is {:?} but keeps {} points and a unit {:?}",
                g.status, g.points, g.unit
            ));
        }
    }
    Ok(())
}

/// The turn, the end of the battle, and who acts.
pub fn progress(before: &GameState, after: &GameState) -> Result<(), String> {
    if after.turn < before.turn {
        return Err(format!("turn {} after turn {}", after.turn, before.turn));
    }
    let last = u32::from(after.scenario().turns);
    if after.turn > last {
        return Err(format!("turn {} of a {last}-turn battle", after.turn));
    }
    if let Stage::Over { outcome } = &before.stage {
        if after.stage != before.stage {
            return Err(format!("the battle was over ({outcome:?}) and goes on"));
        }
    }
    if after.is_over() {
        if after.activation.is_some() || after.pending.is_some() || !after.tasks.is_empty() {
            return Err("the battle is over with something still under way".into());
        }
        return Ok(());
    }
    if crate::game::actors(after).is_empty() {
        return Err("nobody is to act and the battle is not over".into());
    }
    if let Some(a) = &after.activation {
        let owner = after.unit(a.unit).map(|u| u.owner);
        if owner != Some(after.active) {
            return Err(format!(
                "{} is activated in {}'s phase",
                a.unit, after.active
            ));
        }
    }
    Ok(())
}

/// Each view shows what its viewer may see of the cards, and a state sampled for a seat looks
/// the same to it.
pub fn views(s: &GameState) -> Result<(), String> {
    let viewers = [
        Viewer::Seat(Seat::South),
        Viewer::Seat(Seat::North),
        Viewer::Spectator,
    ];
    for viewer in viewers {
        let v = crate::view::view(s, viewer);
        for (pv, seat) in v.players.iter().zip(Seat::BOTH) {
            let held = &s.player(seat).cards;
            if pv.cards.len() != held.len() {
                return Err(format!(
                    "{viewer:?} sees {} of {seat}'s {} cards",
                    pv.cards.len(),
                    held.len()
                ));
            }
            for (c, h) in pv.cards.iter().zip(held) {
                let shown = h.revealed || viewer == Viewer::Seat(seat);
                let shows = (c.id, c.value);
                let expected = if shown {
                    (Some(h.card.id), Some(h.card.value))
                } else {
                    (None, None)
                };
                if shows != expected || c.kind != h.card.kind || c.revealed != h.revealed {
                    return Err(format!(
                        "{viewer:?} sees {seat}'s card {} as {c:?}",
                        h.card.id
                    ));
                }
            }
        }
    }
    let mut rng = GameRng::new(s.turn.into());
    for seat in Seat::BOTH {
        let sampled = crate::determinize::determinize(s, seat, &mut rng);
        if crate::view::view(&sampled, Viewer::Seat(seat))
            != crate::view::view(s, Viewer::Seat(seat))
        {
            return Err(format!(
                "a state sampled for {seat} looks different to {seat} from the real one"
            ));
        }
        cards(&sampled).map_err(|e| format!("sampled for {seat}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use acies_grid::{Cell, Facing};
    use command_points_model::Seat;
    use command_points_model::load::Catalog;

    use super::check;
    use crate::game::{Position, Prepared, prepared};
    use crate::state::{GameState, GeneralStatus, HeldCard, Place, UnitId};

    /// Watling Street with one unit of each side facing the other (South's with its General),
    /// South holding a card.
    fn battle() -> GameState {
        let c = Catalog::builtin().expect("builtin data");
        let setup = c
            .setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup");
        let south = &setup.army(Seat::South).units;
        let general = south.iter().position(|u| u.general).expect("a General") as u16;
        let north = south.len() as u16;
        let positions = vec![
            Position {
                unit: UnitId(general),
                cell: Cell::new(3, 3),
                facing: Facing::North,
                disordered: false,
            },
            Position {
                unit: UnitId(north),
                cell: Cell::new(3, 5),
                facing: Facing::South,
                disordered: false,
            },
        ];
        let prep = Prepared {
            positions,
            hands: [vec![(command_points_model::CardKind::Setback, 1)], vec![]],
            ..Prepared::default()
        };
        prepared(&setup, 7, &prep).expect("a prepared battle")
    }

    fn broken(s: &GameState, change: impl FnOnce(&mut GameState)) -> String {
        let mut after = s.clone();
        change(&mut after);
        check(s, &after).expect_err("an invariant breaks")
    }

    #[test]
    fn a_prepared_battle_holds_them_all() {
        let s = battle();
        assert_eq!(check(&s, &s), Ok(()));
    }

    /// Regression (found by these invariants): a prepared battle without the General's unit
    /// withdrew the General but left it its Generalship Points.
    #[test]
    fn a_general_withdrawn_from_a_prepared_battle_keeps_no_points() {
        let mut s = battle();
        let c = Catalog::builtin().expect("builtin data");
        let setup = c
            .setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup");
        let north = setup.army(Seat::South).units.len() as u16;
        let prep = Prepared {
            positions: vec![Position {
                unit: UnitId(north),
                cell: Cell::new(3, 5),
                facing: Facing::South,
                disordered: false,
            }],
            ..Prepared::default()
        };
        s = prepared(&setup, 7, &prep).unwrap_or(s);
        let g = &s.player(Seat::South).general;
        assert_eq!((g.status, g.points), (GeneralStatus::Withdrawn, 0));
        assert_eq!(check(&s, &s), Ok(()));
    }

    #[test]
    fn a_card_lost_duplicated_or_hidden_again_is_caught() {
        let s = battle();
        let lost = broken(&s, |a| {
            a.decks.setback.pop();
        });
        assert!(lost.contains("for a deck of"), "{lost}");
        let twice = broken(&s, |a| {
            let card = a.players[0].cards[0];
            a.players[1].cards.push(card);
        });
        assert!(twice.contains("both held and held"), "{twice}");
        let mut shown = s.clone();
        shown.players[0].cards[0].revealed = true;
        let hidden = check(&shown, &s).expect_err("face down again");
        assert!(hidden.contains("face down again"), "{hidden}");
        let extra = broken(&s, |a| {
            let mut card = a.players[0].cards[0];
            card.card.id = 999;
            a.players[0].cards.push(HeldCard { ..card });
        });
        assert!(extra.contains("for a deck of"), "{extra}");
    }

    #[test]
    fn units_sharing_a_square_off_the_board_or_returning_are_caught() {
        let s = battle();
        let north = s.units.iter().position(|u| u.owner == Seat::North);
        let north = north.expect("a northern unit");
        let shared = broken(&s, |a| {
            a.units[north].place = Place::Table {
                cell: Cell::new(3, 3),
            }
        });
        assert!(shared.contains("both stand on"), "{shared}");
        let south = s
            .units
            .iter()
            .position(|u| u.on_table())
            .expect("a southern unit");
        let off = broken(&s, |a| {
            a.units[south].place = Place::Table {
                cell: Cell::new(-1, 3),
            }
        });
        assert!(off.contains("off the board"), "{off}");
        let mut gone = s.clone();
        gone.units[south].place = Place::Gone;
        let back = check(&gone, &s).expect_err("back from the dead");
        assert!(back.contains("came back"), "{back}");
    }

    #[test]
    fn points_growing_and_generals_astray_are_caught() {
        let s = battle();
        let grown = broken(&s, |a| a.players[0].points.attack += 1);
        assert!(grown.contains("grew"), "{grown}");
        let north = s
            .units
            .iter()
            .find(|u| u.owner == Seat::North)
            .map(|u| u.id);
        let astray = broken(&s, |a| a.players[0].general.unit = north);
        assert!(astray.contains("General is attached"), "{astray}");
    }

    #[test]
    fn a_battle_over_that_goes_on_is_caught() {
        let s = battle();
        let mut over = s.clone();
        over.stage = crate::state::Stage::Over {
            outcome: acies_core::Outcome::Draw {
                reason: "test".into(),
            },
        };
        over.activation = None;
        over.pending = None;
        over.tasks.clear();
        let on = check(&over, &s).expect_err("the battle goes on");
        assert!(on.contains("goes on"), "{on}");
    }
}

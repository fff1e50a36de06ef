//! Starting a game, applying actions, and who may act.

use acies_core::{Applied, Dice, GameRng};
use acies_grid::{Cell, Facing};
use command_points_model::{CardKind, Seat, Setup, Terrain};
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::cx::{Cx, DiceSource};
use crate::error::{RuleError, RuleResult, heading};
use crate::event::Event;
use crate::pending::Pending;
use crate::state::{
    Card, Decks, GameState, General, GeneralStatus, HeldCard, Place, Player, Stage, Unit, UnitId,
};
use crate::{combat, deploy, discipline, follow_up, homunculus, movement, phase, points, shooting};

fn player(setup: &Setup, seat: Seat, units: &[Unit]) -> Player {
    let army = setup.army(seat);
    let general_unit = units
        .iter()
        .filter(|u| u.owner == seat)
        .zip(&army.units)
        .find(|(_, s)| s.general)
        .map(|(u, _)| u.id);
    Player {
        army: army.name.clone(),
        break_point: army.break_point,
        points: army.points,
        general: General {
            name: army.general.name.clone(),
            initial: army.general.generalship,
            points: army.general.generalship,
            unit: general_unit,
            status: GeneralStatus::Commanding,
        },
        cards: Vec::new(),
        fatigued: false,
        called_homunculus: false,
        cancel_used: false,
        camp_captured: false,
    }
}

fn units(setup: &Setup) -> Vec<Unit> {
    let mut units = Vec::new();
    for seat in Seat::BOTH {
        for u in &setup.army(seat).units {
            units.push(Unit {
                id: UnitId(units.len() as u16),
                owner: seat,
                profile: u.profile.clone(),
                place: Place::Reserve,
                facing: seat.forward(),
                disordered: false,
                retiring: false,
                lines: u.lines.clone(),
                discipline_increase: 0,
                eagle_lost: false,
                centurions_lost: false,
                failed_moves: 0,
                activated: false,
            });
        }
    }
    units
}

/// Both decks shuffled; card ids are given after the shuffle, so an id tells nothing of a
/// value.
fn decks(setup: &Setup, rng: &mut GameRng) -> Decks {
    let mut next = 0u16;
    let mut pile = |kind: CardKind, rng: &mut GameRng| {
        let mut values = setup.deck.values(kind);
        rng.shuffle(&mut values);
        values
            .into_iter()
            .map(|value| {
                next += 1;
                Card {
                    id: next,
                    kind,
                    value,
                }
            })
            .collect::<Vec<_>>()
    };
    let setback = pile(CardKind::Setback, rng);
    let disaster = pile(CardKind::Disaster, rng);
    Decks {
        setback,
        disaster,
        discards: Vec::new(),
    }
}

/// A new game: units in reserve, decks shuffled, South to deploy first.
pub fn new_game(setup: &Setup, seed: u64) -> RuleResult<GameState> {
    setup.check()?;
    let mut rng = GameRng::new(seed);
    let units = units(setup);
    let players = [
        player(setup, Seat::South, &units),
        player(setup, Seat::North, &units),
    ];
    let decks = decks(setup, &mut rng);
    Ok(GameState {
        setup: setup.clone(),
        rng,
        units,
        players,
        decks,
        stage: Stage::Deploy { next: Seat::South },
        turn: 0,
        active: Seat::South,
        first: Seat::South,
        activation: None,
        pending: None,
        tasks: Default::default(),
        reversal: false,
    })
}

/// A unit's place in a prepared battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub unit: UnitId,
    pub cell: Cell,
    pub facing: Facing,
    #[serde(default)]
    pub disordered: bool,
}

/// A battle prepared without deployment (worked examples, tests, puzzles): where each unit
/// stands (units not listed are out of the battle), who plays first, the cards each player
/// already holds (by kind and value, taken from the decks) and whether each army is
/// Fatigued.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prepared {
    pub positions: Vec<Position>,
    #[serde(default)]
    pub first: Option<Seat>,
    #[serde(default)]
    pub hands: [Vec<(CardKind, u8)>; 2],
    #[serde(default)]
    pub fatigued: [bool; 2],
}

/// A game started at the first phase of a prepared battle.
pub fn prepared(setup: &Setup, seed: u64, prep: &Prepared) -> RuleResult<GameState> {
    let mut s = new_game(setup, seed)?;
    let bad = |m: String| RuleError::rule(heading::DEPLOYMENT, m);
    for p in &prep.positions {
        if !s.board().contains(p.cell)
            || s.terrain(p.cell) == Terrain::Impassable
            || s.unit_at(p.cell).is_some()
        {
            return Err(bad(format!("{} cannot stand on {}", p.unit, p.cell)));
        }
        let u = s
            .unit_mut(p.unit)
            .ok_or_else(|| bad(format!("there is no unit {}", p.unit)))?;
        u.place = Place::Table { cell: p.cell };
        u.facing = p.facing;
        u.disordered = p.disordered;
    }
    for u in s.units.iter_mut().filter(|u| u.place == Place::Reserve) {
        u.place = Place::Gone;
    }
    for seat in Seat::BOTH {
        let gone = s
            .player(seat)
            .general
            .unit
            .and_then(|g| s.unit(g))
            .is_none_or(|u| !u.on_table());
        if gone {
            let g = &mut s.player_mut(seat).general;
            g.unit = None;
            g.status = GeneralStatus::Withdrawn;
            // As when a General withdraws in battle: no Generalship Points left.
            g.points = 0;
        }
        for &(kind, value) in &prep.hands[seat.index()] {
            let pile = s.decks.pile_mut(kind);
            let i = pile
                .iter()
                .position(|c| c.value == value)
                .ok_or_else(|| bad(format!("the {kind} deck has no card worth {value}")))?;
            let card = pile.remove(i);
            s.player_mut(seat).cards.push(HeldCard {
                card,
                revealed: false,
            });
        }
        s.player_mut(seat).fatigued = prep.fatigued[seat.index()];
    }
    let first = prep.first.unwrap_or(Seat::South);
    s.stage = Stage::Battle;
    s.first = first;
    s.turn = 1;
    let mut cx = Cx::new(s, DiceSource::Game);
    phase::start_phase(&mut cx, first);
    Ok(cx.s)
}

/// The seats that may act now.
pub fn actors(s: &GameState) -> Vec<Seat> {
    match (&s.stage, &s.pending) {
        (Stage::Over { .. }, _) => Vec::new(),
        (_, Some(p)) => vec![p.seat()],
        (Stage::Deploy { next }, None) => vec![*next],
        (Stage::Battle, None) => vec![s.active],
    }
}

/// Applies `action` by `seat`, rolling the game's own dice.
pub fn apply(s: &GameState, seat: Seat, action: &Action) -> RuleResult<Applied<GameState, Event>> {
    run(s, seat, action, DiceSource::Game)
}

/// Applies `action` with dice forced by the caller (tests and worked examples): the game's
/// RNG is not advanced.
pub fn apply_with_dice(
    s: &GameState,
    seat: Seat,
    action: &Action,
    dice: &mut dyn Dice,
) -> RuleResult<Applied<GameState, Event>> {
    run(s, seat, action, DiceSource::Forced(dice))
}

fn run(
    s: &GameState,
    seat: Seat,
    action: &Action,
    dice: DiceSource<'_>,
) -> RuleResult<Applied<GameState, Event>> {
    let mut cx = Cx::new(s.clone(), dice);
    dispatch(&mut cx, seat, action)?;
    phase::settle(&mut cx);
    Ok(Applied {
        state: cx.s,
        events: cx.events,
    })
}

fn dispatch(cx: &mut Cx<'_>, seat: Seat, action: &Action) -> RuleResult<()> {
    if cx.s.is_over() {
        return Err(RuleError::GameOver);
    }
    let actors = actors(&cx.s);
    if !actors.contains(&seat) {
        let expected = actors.first().copied().unwrap_or(seat.other());
        let doing =
            cx.s.pending
                .as_ref()
                .map_or("act", Pending::what)
                .to_string();
        return Err(RuleError::NotYourTurn {
            seat,
            expected,
            doing,
        });
    }
    match action {
        Action::Exchange { give, take } => return points::exchange(cx, seat, *give, *take),
        Action::Reallocate { points: p } => return points::reallocate(cx, seat, *p),
        _ => {}
    }
    if let Some(p) = &cx.s.pending {
        return decide(cx, p.clone(), action);
    }
    match cx.s.stage {
        Stage::Deploy { .. } => match action {
            Action::Deploy { unit, cell } => deploy::deploy(cx, seat, *unit, *cell),
            _ => Err(RuleError::rule(
                heading::DEPLOYMENT,
                "units are being deployed",
            )),
        },
        _ => battle(cx, seat, action),
    }
}

fn decide(cx: &mut Cx<'_>, pending: Pending, action: &Action) -> RuleResult<()> {
    match pending {
        Pending::MovementRoll { .. } => movement::decide_roll(cx, action),
        Pending::Manoeuvre { .. } => movement::decide_manoeuvre(cx, action),
        Pending::CombatDice { .. } | Pending::ChooseDie { .. } | Pending::DefenceDice { .. } => {
            combat::decide(cx, action)
        }
        Pending::DisciplineReroll { .. } => discipline::decide(cx, action),
        Pending::FollowUp { .. } | Pending::FollowUpOblique { .. } => follow_up::decide(cx, action),
        Pending::HomunculusCancel { .. } | Pending::HomunculusDiscard { .. } => {
            homunculus::decide(cx, action)
        }
    }
}

fn battle(cx: &mut Cx<'_>, seat: Seat, action: &Action) -> RuleResult<()> {
    let moving = cx.s.activation.as_ref().is_some_and(|a| a.mover.is_some());
    if moving {
        return match action {
            Action::Step { step } => movement::step(cx, *step),
            Action::EndMove => movement::end_move(cx),
            _ => Err(RuleError::rule(
                heading::MOVEMENT,
                "a unit is moving: step or end the move",
            )),
        };
    }
    match action {
        Action::Move {
            unit,
            partner,
            line,
        } => movement::start(cx, seat, *unit, *partner, *line, false),
        Action::Charge { unit, partner } => movement::start(cx, seat, *unit, *partner, false, true),
        Action::Combat { unit } => combat::combat_activation(cx, seat, *unit),
        Action::Shoot { unit, target } => shooting::activation(cx, seat, *unit, *target),
        Action::Reform { unit } => discipline::reform(cx, seat, *unit),
        Action::Return { unit } => follow_up::return_activation(cx, seat, *unit),
        Action::CallHomunculus => homunculus::call(cx, seat),
        Action::EndPhase => {
            phase::end_phase(cx);
            Ok(())
        }
        _ => Err(RuleError::rule(
            heading::ACTIVATION,
            "choose an activation, Homunculus Est! or end the phase",
        )),
    }
}

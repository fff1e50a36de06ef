//! What one viewer may see (boardgame.io's lesson: filter everything that leaves the
//! engine). Removed for a player: the other players' hands (their size stays), the order of
//! the draw pile, the cards of face-down units (their position stays), the units the others
//! have not deployed yet, the RNG and its seed, the secret details of events (see
//! [`crate::event_filter`]), the army lists of the setup, and which face-down units a General
//! commands. A spectator sees what every player may see.

use acies_core::{Outcome, Viewer};
use acies_geom::Pose;
use onus_cards::CardId;
use onus_model::{GeneralCard, UnitCard, UnitState};
use onus_table::{CardSize, Engagement, TableEdge, TurnState, UnitId};
use serde::{Deserialize, Serialize};

use crate::event::GameEvent;
pub use crate::event_filter::event_view;
use crate::setup::{Options, Scenario, Zone};
use crate::state::{
    Decision, DeployStage, GameState, GeneralStatus, Pending, PendingFight, Phase, Reserve, Seat,
};

/// A unit as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: UnitId,
    pub owner: Seat,
    pub pose: Pose,
    pub size: CardSize,
    /// Face down for this viewer: only the position is known.
    pub hidden: bool,
    pub card: Option<UnitCard>,
    pub state: Option<UnitState>,
    pub turn: Option<TurnState>,
    /// The tower or watchtower the unit holds, by structure id (T&F IV "Unit markers": the
    /// marker on the tower is public like the card's place; the card is set aside).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tower: Option<String>,
    /// The Climbing marker on the unit's card (T&F V "Assaulting fortresses"), public like
    /// every marker's place: the structure climbed and the levels climbed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub climb: Option<onus_table::tower::Climb>,
    /// The battering ram the unit carries, by structure id (T&F V "Rams and Elephants"),
    /// public like the ram marker; where each ram lies is its tile on the battlefield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram: Option<String>,
    /// The unit's stacking level inside its fortress (T&F II "Overlapping"), public like the
    /// card's place: of two overlapping units the higher lies on top; 0 when it overlaps no
    /// one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub level: i64,
    /// The Section markers the unit has wrapped round a tower (T&F V "Assaulting fortresses"),
    /// public like every marker's place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrap: Vec<acies_geom::OrientedRect>,
    /// The bridge or pass the unit stands lined up on, crossing it (T&F III "Bridges",
    /// "Choke Points": "use section markers to represent a unit that ends its movement in the
    /// middle of a bridge"), public like the card's place: its sections beyond the
    /// crossing's width are Section markers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crossing: Option<CrossingView>,
}

/// A crossing a unit stands on ([`UnitView::crossing`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossingView {
    /// The terrain piece's id and name.
    pub piece: String,
    pub name: String,
    /// How many of the unit's sections fit across it (1 or 2).
    pub sections: u8,
}

fn is_zero(x: &i64) -> bool {
    *x == 0
}

/// A General as everybody sees it (the card and the marker are public).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneralView {
    pub card: GeneralCard,
    pub unit: Option<UnitId>,
    pub status: GeneralStatus,
    /// XII-A "Several generals": it commands a contingent, not the whole army.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contingent: bool,
    /// The units of its contingent whose face the viewer sees (all, for its own player).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<UnitId>,
}

/// A player as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub team: u8,
    pub army_name: String,
    pub faction: String,
    pub hand_count: usize,
    /// Only the viewer's own hand.
    pub hand: Option<Vec<CardId>>,
    pub generals: Vec<GeneralView>,
    pub leadership: u32,
    pub reserve_count: usize,
    /// Only the viewer's own undeployed units.
    pub reserve: Option<Vec<Reserve>>,
    pub eliminated: Vec<(UnitId, UnitCard)>,
    pub losses: u32,
    pub starting_value: u32,
    pub defeated: Option<String>,
    /// The player's deployment zone (VI; the scenario's or the default one), public.
    pub deployment_zone: Zone,
    /// T&F VI "Deployment": the deployment zones this player chooses among now (a siege's
    /// attacker as its deployment starts, [`crate::Action::ChooseZone`] by index), public;
    /// empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zone_choices: Vec<Zone>,
    /// The table edge each of `zone_choices` would make this player's (the side it attacks
    /// from; `deploy::zone_choice_edges`), in the same order; empty with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zone_choice_edges: Vec<TableEdge>,
}

/// The state as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub viewer: Viewer<Seat>,
    pub options: Options,
    pub scenario: Scenario,
    pub turn: u32,
    pub round: u32,
    pub active: Seat,
    pub group: Vec<Seat>,
    pub phase: Phase,
    pub to_act: Option<Seat>,
    pub deployment: Option<DeployStage>,
    pub pending: Option<Pending>,
    /// Decisions waiting outside fights (public: every player sees who decides what).
    #[serde(default)]
    pub decisions: Vec<Decision>,
    /// The rams and siege towers the viewing seat may place now, as it deploys (T&F VI
    /// "Deployment", [`crate::siege_engines::placeable`]); empty for everyone else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siege_engines: Vec<String>,
    /// VII-7 / XII-B: the seat that has drawn at the end of its turn and may now give cards
    /// to team-mates ([`crate::Action::GiveCards`]) before ending the phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub giving: Option<Seat>,
    /// XII-A "Always-active general": the acting seat may still activate its additional unit
    /// this turn ([`crate::Action::FreeActivation`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_activation: bool,
    pub width: f64,
    pub depth: f64,
    pub home_edges: Vec<TableEdge>,
    /// The battlefield's terrain (*Terrain & Fortresses*), public to every viewer; none on
    /// the open field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<onus_terrain::Battlefield>,
    /// The damage of the battlefield's structures, by structure id (T&F V): public to every
    /// viewer, like the structures; none taken yet on a battlefield without damage.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub structures: std::collections::BTreeMap<String, onus_combat::StructureDamage>,
    pub units: Vec<UnitView>,
    pub engagements: Vec<Engagement>,
    pub players: Vec<PlayerView>,
    pub draw_pile: usize,
    pub discard_pile: Vec<CardId>,
    pub cards_on_table: Vec<CardId>,
    pub removed_cards: Vec<CardId>,
    pub exhaustions: u32,
    pub log: Vec<GameEvent>,
    pub outcome: Option<Outcome<Seat>>,
}

fn sees_own(viewer: Viewer<Seat>, seat: Seat) -> bool {
    viewer == Viewer::Seat(seat)
}

/// Whether `viewer` sees the face of `unit`: its own units always; another player's once
/// revealed, on the table or out of the battle (VI, XII-A "Fog of war"); nobody sees the
/// others' undeployed units.
pub fn sees_face(state: &GameState, viewer: Viewer<Seat>, unit: UnitId) -> bool {
    // A card on the table names its owner: one look-up (this is asked for every unit of
    // every view and observation).
    if let Ok(u) = state.table.unit(unit) {
        return sees_card(state, viewer, u);
    }
    match state.owner_of(unit) {
        Some(owner) if sees_own(viewer, owner) => true,
        Some(owner) => state
            .player(owner)
            .is_ok_and(|p| p.eliminated.contains_key(&unit)),
        None => false,
    }
}

/// [`sees_face`] of a card on the table.
pub(crate) fn sees_card(
    state: &GameState,
    viewer: Viewer<Seat>,
    u: &onus_table::TableUnit,
) -> bool {
    sees_own(viewer, Seat(u.owner)) || !state.hidden.contains(&u.id)
}

fn pending_view(p: &Pending, viewer: Viewer<Seat>) -> Pending {
    match p {
        Pending::Fight(f) => {
            let mut f: PendingFight = (**f).clone();
            if !sees_own(viewer, f.attacker_seat) {
                // The attacker's choice to flee is its own until the fight is resolved.
                f.attacker_flees_if_wounded = false;
            }
            Pending::Fight(Box::new(f))
        }
        other => other.clone(),
    }
}

/// XII-A "Several generals": the units of a General's contingent that the viewer sees the
/// face of; listing the face-down ones would tell which they are (their ids are shuffled so
/// that an id tells nothing, VI).
fn commanded(state: &GameState, viewer: Viewer<Seat>, units: &[UnitId]) -> Vec<UnitId> {
    units
        .iter()
        .copied()
        .filter(|u| sees_face(state, viewer, *u))
        .collect()
}

/// A decision is public unless it names a unit the viewer may not see the face of as fleeing
/// elephants, drivers or a lunging unit (the rules reveal those units first: XII-A rulings).
fn decision_shown(state: &GameState, viewer: Viewer<Seat>, d: &Decision) -> bool {
    match d {
        Decision::Withdrawal { .. } => true,
        Decision::FightElephants { elephants: u, .. }
        | Decision::Drivers { unit: u }
        | Decision::LungeFollowUp { unit: u } => sees_face(state, viewer, *u),
        // The attacker and the unit in the structure are revealed by the attack.
        Decision::StructureEvents { .. } => true,
        // Where the candidates stand is public; their cards stay as each viewer sees them.
        Decision::MisfireVictim { .. } | Decision::PlaceFire { .. } => true,
    }
}

/// The state as `viewer` may see it.
pub fn view(state: &GameState, viewer: Viewer<Seat>) -> GameView {
    view_since(state, viewer, 0)
}

/// [`view`] with only the events from index `from` of the log on (the events of the last
/// action, for a check that has seen the earlier ones): the rest of the view is the same, and
/// its cost does not grow with the length of the game.
pub fn view_since(state: &GameState, viewer: Viewer<Seat>, from: usize) -> GameView {
    let units = state
        .table
        .units()
        .map(|u| {
            let owner = Seat(u.owner);
            let hidden = state.hidden.contains(&u.id) && !sees_own(viewer, owner);
            UnitView {
                id: u.id,
                owner,
                pose: u.pose,
                size: u.size,
                hidden,
                card: (!hidden).then(|| UnitCard::clone(&u.card)),
                state: (!hidden).then(|| u.state.clone()),
                turn: (!hidden).then(|| u.turn.clone()),
                tower: u.tower.as_ref().map(|g| g.structure.clone()),
                climb: u.climb.clone(),
                ram: state.engines.ram_of(u.id).map(str::to_owned),
                level: state.table.level(u.id),
                wrap: u.wrap_rects().collect(),
                crossing: state.table.crossing(u.id).map(|p| CrossingView {
                    piece: p.id.clone(),
                    name: p.name.clone(),
                    sections: p.width_sections(),
                }),
            }
        })
        .collect();
    let players = state
        .players
        .iter()
        .map(|p| {
            let own = sees_own(viewer, p.seat);
            let hand = state.piles.hand(p.seat.index()).unwrap_or_default();
            PlayerView {
                seat: p.seat,
                team: p.team,
                army_name: p.army_name.clone(),
                faction: p.faction.clone(),
                hand_count: hand.len(),
                hand: own.then(|| hand.to_vec()),
                generals: p
                    .generals
                    .iter()
                    .map(|g| GeneralView {
                        card: g.card.clone(),
                        unit: g.unit,
                        status: g.status,
                        contingent: g.contingent,
                        commands: commanded(state, viewer, &g.commands),
                    })
                    .collect(),
                leadership: crate::general::leadership(state, p.seat),
                reserve_count: p.reserve.len(),
                reserve: own.then(|| p.reserve.clone()),
                eliminated: p
                    .eliminated
                    .iter()
                    .map(|(k, v)| (*k, UnitCard::clone(v)))
                    .collect(),
                losses: crate::victory::losses(state, p.seat),
                starting_value: p.value.total,
                defeated: p.defeated.clone(),
                deployment_zone: p.zone,
                zone_choices: crate::deploy::zone_choices(state, p.seat),
                zone_choice_edges: crate::deploy::zone_choice_edges(state, p.seat),
            }
        })
        .collect();
    GameView {
        viewer,
        options: state.setup.options.clone(),
        scenario: state.setup.scenario.clone(),
        turn: state.turn,
        round: state.round,
        active: state.active,
        group: state.group.clone(),
        phase: state.phase,
        to_act: crate::turn::to_act(state),
        deployment: state.deployment.clone(),
        pending: state.pending.as_ref().map(|p| pending_view(p, viewer)),
        decisions: state
            .decisions
            .iter()
            .filter(|d| decision_shown(state, viewer, d))
            .cloned()
            .collect(),
        siege_engines: match viewer {
            Viewer::Seat(seat) => crate::siege_engines::placeable(state, seat),
            _ => Vec::new(),
        },
        giving: state.book.giving,
        free_activation: state.phase == Phase::Activation
            && state.pending.is_none()
            && crate::orders::free_activation_open(state, state.active),
        width: state.table.width,
        depth: state.table.depth,
        home_edges: state.table.home_edges.clone(),
        terrain: state.table.battlefield().cloned(),
        structures: state.structures.clone(),
        units,
        engagements: state.table.engagements().to_vec(),
        players,
        draw_pile: state.piles.draw_pile().len(),
        discard_pile: state.piles.discard_pile().to_vec(),
        cards_on_table: state.piles.table().to_vec(),
        removed_cards: state.piles.removed().to_vec(),
        exhaustions: state.piles.exhaustions(),
        log: state
            .log
            .since(from)
            .filter_map(|e| event_view(state, e, viewer))
            .collect(),
        outcome: state.outcome.clone(),
    }
}

/// What a viewer who may not see a face-down unit knows of its card: only its size (VI,
/// XII-A fog of war). Bots and server queries that need a whole state to ask the rules put
/// this in place of the hidden card; every value is an ordinary infantry unit's, worth 0.
pub fn face_down_card(size: CardSize) -> UnitCard {
    UnitCard {
        id: "face-down".into(),
        name: "Face-down unit".into(),
        faction: String::new(),
        kind: onus_model::UnitKind::Infantry,
        attack: onus_model::AttackValues { hit: 3, damage: 3 },
        ranged: None,
        defense: onus_model::DefenseValues { dodge: 4, armor: 4 },
        morale: 7,
        health: 7,
        movement: 2.0,
        value: 0,
        abilities: std::collections::BTreeSet::new(),
        formations: std::collections::BTreeSet::new(),
        size: Some((size.width, size.depth)),
    }
}

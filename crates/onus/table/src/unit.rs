//! Units on the table: cards with a pose, their sections and their extended-formation markers
//! (rulebook III "Sections", VII-2.B "Extending or reducing a formation").

use acies_geom::{Edge, OrientedRect, Pose, Segment, Vec2};
use std::sync::Arc;

use onus_model::{Ability, Formation, UnitCard, UnitKind, UnitState};
use serde::{Deserialize, Serialize};

/// Identifies a unit on the table. Stable for the whole battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UnitId(pub u32);

impl std::fmt::Display for UnitId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unit #{}", self.0)
    }
}

/// Depth of a Section marker, DU.
///
/// Ruling (XII-A "Protected flanks"): a gap under 2 cm (0.4 DU) between a unit's flank and a
/// friendly unit leaves no room for an enveloping marker, so markers are 0.4 DU deep.
pub const MARKER_DEPTH: f64 = 0.4;

/// The footprint of a unit card, DU.
///
/// Ruling (III): the rulebook gives no card size; the default is 2.0 × 1.2 DU (10 × 6 cm), a
/// plausible card, overridable per card with `UnitCard::size`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardSize {
    /// Length of the front (and rear) edge.
    pub width: f64,
    /// Length of the sides.
    pub depth: f64,
}

impl Default for CardSize {
    fn default() -> Self {
        CardSize {
            width: 2.0,
            depth: 1.2,
        }
    }
}

impl CardSize {
    /// The size printed for `card`, or the default.
    pub fn of(card: &UnitCard) -> CardSize {
        match card.size {
            Some((width, depth)) if width > 0.0 && depth > 0.0 => CardSize { width, depth },
            _ => CardSize::default(),
        }
    }

    /// Width of one front section, which is also the width of a Section marker (III: 4
    /// sections on the front).
    pub fn front_section(&self) -> f64 {
        self.width / 4.0
    }
}

/// The two ends of a unit's front line, where extended-formation markers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Flank {
    Left,
    Right,
}

impl std::fmt::Display for Flank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Flank::Left => "left",
            Flank::Right => "right",
        })
    }
}

impl std::fmt::Display for FrontSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontSlot::ExtendedLeft => f.write_str("the left extended marker"),
            FrontSlot::Card(i) => write!(f, "front section {} from the left", i + 1),
            FrontSlot::ExtendedRight => f.write_str("the right extended marker"),
        }
    }
}

impl Flank {
    /// Both flanks, left first.
    pub const BOTH: [Flank; 2] = [Flank::Left, Flank::Right];

    /// The card edge on this side.
    pub fn edge(self) -> Edge {
        match self {
            Flank::Left => Edge::Left,
            Flank::Right => Edge::Right,
        }
    }
}

/// One of the 12 sections marked on a card's perimeter (III): 4 on the front and the rear, 2
/// on each side. `index` follows the edge's clockwise direction (acies-geom convention): the
/// first front section is the front-left one, the first right section the one next to the
/// front, the first rear section the rear-right one, the first left section the one next to
/// the rear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SectionId {
    pub edge: Edge,
    pub index: u8,
}

impl SectionId {
    /// A section id; `None` when `index` is not on `edge`.
    pub fn new(edge: Edge, index: u8) -> Option<SectionId> {
        (index < Self::count_on(edge)).then_some(SectionId { edge, index })
    }

    /// Sections on an edge (III): 4 on the front and rear, 2 on the sides.
    pub const fn count_on(edge: Edge) -> u8 {
        match edge {
            Edge::Front | Edge::Rear => 4,
            Edge::Left | Edge::Right => 2,
        }
    }

    /// All 12 sections in clockwise perimeter order, starting at the front-left one.
    pub fn all() -> impl Iterator<Item = SectionId> {
        Edge::ALL
            .into_iter()
            .flat_map(|edge| (0..Self::count_on(edge)).map(move |index| SectionId { edge, index }))
    }

    /// Position in the clockwise perimeter cycle (0..12), front-left section first.
    pub fn perimeter_index(self) -> usize {
        let start = match self.edge {
            Edge::Front => 0,
            Edge::Right => 4,
            Edge::Rear => 6,
            Edge::Left => 10,
        };
        start + usize::from(self.index)
    }

    /// The section at a perimeter position (taken modulo 12).
    pub fn from_perimeter_index(i: usize) -> SectionId {
        let i = i % 12;
        match i {
            0..=3 => SectionId {
                edge: Edge::Front,
                index: i as u8,
            },
            4..=5 => SectionId {
                edge: Edge::Right,
                index: (i - 4) as u8,
            },
            6..=9 => SectionId {
                edge: Edge::Rear,
                index: (i - 6) as u8,
            },
            _ => SectionId {
                edge: Edge::Left,
                index: (i - 10) as u8,
            },
        }
    }

    /// The next section clockwise (`clockwise`) or counter-clockwise around the card.
    pub fn neighbour(self, clockwise: bool) -> SectionId {
        let i = self.perimeter_index();
        SectionId::from_perimeter_index(if clockwise { i + 1 } else { i + 11 })
    }
}

/// One of a unit's front sections: the four of the card and, when extended, the markers at
/// either end of the front line (VII-2.B). Ordered left to right as the unit sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FrontSlot {
    ExtendedLeft,
    /// Front section 0..=3 of the card, 0 being the front-left one.
    Card(u8),
    ExtendedRight,
}

impl FrontSlot {
    /// All slots left to right.
    pub const ALL: [FrontSlot; 6] = [
        FrontSlot::ExtendedLeft,
        FrontSlot::Card(0),
        FrontSlot::Card(1),
        FrontSlot::Card(2),
        FrontSlot::Card(3),
        FrontSlot::ExtendedRight,
    ];

    /// Position on the front line, left to right: -1 for the left marker, 0..=3 for the card,
    /// 4 for the right marker.
    pub fn order(self) -> i8 {
        match self {
            FrontSlot::ExtendedLeft => -1,
            FrontSlot::Card(i) => i as i8,
            FrontSlot::ExtendedRight => 4,
        }
    }

    /// The slot at a front-line position.
    pub fn from_order(order: i8) -> Option<FrontSlot> {
        match order {
            -1 => Some(FrontSlot::ExtendedLeft),
            0..=3 => Some(FrontSlot::Card(order as u8)),
            4 => Some(FrontSlot::ExtendedRight),
            _ => None,
        }
    }

    /// The extended marker's flank, for marker slots.
    pub fn flank(self) -> Option<Flank> {
        match self {
            FrontSlot::ExtendedLeft => Some(Flank::Left),
            FrontSlot::ExtendedRight => Some(Flank::Right),
            FrontSlot::Card(_) => None,
        }
    }

    /// The slot of an extended marker.
    pub fn extended(flank: Flank) -> FrontSlot {
        match flank {
            Flank::Left => FrontSlot::ExtendedLeft,
            Flank::Right => FrontSlot::ExtendedRight,
        }
    }

    /// The same slot seen as a part that others can touch.
    pub fn part(self) -> Part {
        match self {
            FrontSlot::ExtendedLeft => Part::Extended(Flank::Left),
            FrontSlot::ExtendedRight => Part::Extended(Flank::Right),
            FrontSlot::Card(i) => Part::Section(SectionId {
                edge: Edge::Front,
                index: i,
            }),
        }
    }
}

/// A part of a unit that an opponent's front section can face: a section of its card or one
/// of its extended markers (whose front edge continues the front line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Part {
    Section(SectionId),
    Extended(Flank),
}

impl Part {
    /// The card edge this part belongs to; extended markers are part of the front line.
    pub fn edge(self) -> Edge {
        match self {
            Part::Section(s) => s.edge,
            Part::Extended(_) => Edge::Front,
        }
    }

    /// Whether this part is one of the unit's front sections (card or marker).
    pub fn front_slot(self) -> Option<FrontSlot> {
        match self {
            Part::Section(SectionId {
                edge: Edge::Front,
                index,
            }) => Some(FrontSlot::Card(index)),
            Part::Section(_) => None,
            Part::Extended(f) => Some(FrontSlot::extended(f)),
        }
    }
}

/// What a unit did this turn, as far as the table rules care.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnState {
    /// Has an Active Unit marker (VII-1).
    pub activated: bool,
    /// Reorganized this turn after being activated broken: reduced movement and no charge
    /// (VII-1 "Activating broken units").
    pub rallied: bool,
    /// Made its move (or acted as an engaged unit) this turn; it may not move again in the
    /// Movement Phase.
    pub moved: bool,
    /// Actually left its place or turned this turn (accuracy, IX: "units that did not move";
    /// artillery, VII-3: "if they moved at all").
    pub displaced: bool,
    /// DU spent in the Movement Phase (for the skirmishers phase, VII-4).
    pub spent: f64,
    /// The budget of the move it made, DU.
    pub budget: f64,
    /// May still shoot in the Ranged Attack Phase (VII-2.B "Performing a ranged attack").
    pub may_shoot: bool,
    /// Its combat this turn started with its own charge (arrowhead, lunge, javelins).
    pub charged: bool,
    /// Has already moved in the skirmishers phase.
    pub skirmished: bool,
    /// Started fleeing this turn (such units skip the Flight Phase, VII-6).
    pub fled_this_turn: bool,
}

/// Complementary units stacked on each other (IX "Complementary units").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stack {
    /// The main unit, on top; the auxiliary is `0`.
    MainOver(UnitId),
    /// The auxiliary unit, underneath the main `0`.
    AuxiliaryUnder(UnitId),
}

impl Stack {
    /// The other unit of the stack.
    pub fn partner(self) -> UnitId {
        match self {
            Stack::MainOver(u) | Stack::AuxiliaryUnder(u) => u,
        }
    }
}

/// A unit on the table: its card, its markers, where it stands and what it did this turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableUnit {
    pub id: UnitId,
    /// Index of the owning player.
    pub owner: u8,
    /// The card, shared: it never changes during a battle, and a state is cloned for every
    /// action tried (serialized as the card itself).
    pub card: Arc<UnitCard>,
    pub state: UnitState,
    pub pose: Pose,
    pub size: CardSize,
    pub turn: TurnState,
    /// Stacked with a complementary unit (IX).
    pub stack: Option<Stack>,
    /// The tower or watchtower the unit holds (T&F IV "Unit markers", "Towers"): its card is
    /// set aside and the tower stands for it on the table ([`TableUnit::rect`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tower: Option<Garrison>,
    /// The Climbing marker on the card (T&F V "Assaulting fortresses"): the wall or tower
    /// the unit climbs from outside and how far up it is ([`crate::tower::Climb`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub climb: Option<crate::tower::Climb>,
    /// The Section markers the unit has wrapped round a tower from outside (T&F V "Assaulting
    /// fortresses"; [`crate::tower_wrap`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrap: Option<crate::tower_wrap::TowerWrap>,
}

/// A tower held by a unit (T&F IV "Unit markers": "one to be placed on the structure and the
/// other on the unit's card"; "Towers": the card "will be moved out of the battlefield").
/// Ruling (docs/rulings.md, T&F IV "Towers"): on the table the unit is the tower's tile, its
/// card set aside: contacts, ranges and sight reach the unit where the tower stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Garrison {
    /// The structure's id on the battlefield.
    pub structure: String,
    /// The tower's tile, turned to the unit's facing.
    pub rect: OrientedRect,
}

/// Which piece of a unit's footprint: the card or one of its extended markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Piece {
    Card,
    Extended(Flank),
}

impl TableUnit {
    /// A unit with a fresh state, at `pose`, with the card's size.
    pub fn new(id: UnitId, owner: u8, card: impl Into<Arc<UnitCard>>, pose: Pose) -> TableUnit {
        let card = card.into();
        let size = CardSize::of(&card);
        TableUnit {
            id,
            owner,
            card,
            state: UnitState::default(),
            pose,
            size,
            turn: TurnState::default(),
            stack: None,
            tower: None,
            climb: None,
            wrap: None,
        }
    }

    /// Builder: the markers on the card.
    pub fn with_state(mut self, state: UnitState) -> TableUnit {
        self.state = state;
        self
    }

    /// Builder: an Active Unit marker.
    pub fn activated(mut self) -> TableUnit {
        self.turn.activated = true;
        self
    }

    pub fn has(&self, ability: Ability) -> bool {
        self.card.has(ability)
    }

    pub fn is_kind(&self, kind: UnitKind) -> bool {
        self.card.kind == kind
    }

    /// In an active special formation (blue marker, VIII).
    pub fn in_formation(&self) -> bool {
        self.state.formation.is_some()
    }

    pub fn formation_is(&self, f: Formation) -> bool {
        self.state.formation == Some(f)
    }

    /// A fleeing elephant unit (VII-2 "Moving through units", VII-6).
    pub fn is_fleeing_elephant(&self) -> bool {
        self.state.fleeing && self.card.kind == UnitKind::Elephant
    }

    /// Whether the extended marker on `flank` is placed.
    pub fn extended(&self, flank: Flank) -> bool {
        match flank {
            Flank::Left => self.state.extended_left,
            Flank::Right => self.state.extended_right,
        }
    }

    pub(crate) fn set_extended(&mut self, flank: Flank, on: bool) {
        match flank {
            Flank::Left => self.state.extended_left = on,
            Flank::Right => self.state.extended_right = on,
        }
    }

    /// The card as a rectangle; for a unit in a tower, the tower's tile (T&F IV "Towers").
    pub fn rect(&self) -> OrientedRect {
        match &self.tower {
            Some(g) => g.rect,
            None => card_rect(self.pose, self.size),
        }
    }

    /// The extended marker on `flank`, if placed (never in a tower).
    pub fn extended_rect(&self, flank: Flank) -> Option<OrientedRect> {
        (self.extended(flank) && self.tower.is_none())
            .then(|| extended_marker_rect(self.pose, self.size, flank))
    }

    /// Everything of the unit that stands on the table: the card and its extended markers;
    /// for a unit in a tower, the tower's tile.
    pub fn footprint(&self) -> Footprint {
        if let Some(g) = &self.tower {
            return Footprint::card(g.rect);
        }
        footprint_at(
            self.pose,
            self.size,
            self.extended(Flank::Left),
            self.extended(Flank::Right),
        )
    }

    /// The segment of a section of the card's perimeter.
    pub fn section_segment(&self, s: SectionId) -> Segment {
        section_segment(&self.rect(), s)
    }

    /// The front slots the unit has now (the card's four and its extended markers), left to
    /// right.
    pub fn front_slots(&self) -> Vec<FrontSlot> {
        FrontSlot::ALL
            .into_iter()
            .filter(|s| s.flank().is_none_or(|f| self.extended(f)))
            .collect()
    }

    /// The front edge of a front slot, running left to right as the unit sees it; `None` for
    /// a marker that is not placed.
    pub fn slot_segment(&self, slot: FrontSlot) -> Option<Segment> {
        self.slot_segment_on(&self.rect(), slot)
    }

    /// [`TableUnit::slot_segment`], the unit's [`TableUnit::rect`] given (computed once for
    /// many slots).
    pub(crate) fn slot_segment_on(&self, card: &OrientedRect, slot: FrontSlot) -> Option<Segment> {
        match slot {
            FrontSlot::Card(i) => SectionId::new(Edge::Front, i).map(|s| section_segment(card, s)),
            _ => {
                let flank = slot.flank()?;
                self.extended_rect(flank).map(|r| r.edge(Edge::Front))
            }
        }
    }

    /// The segment of any part, with its outward normal.
    pub fn part_segment(&self, part: Part) -> Option<(Segment, Vec2)> {
        self.part_segment_on(&self.rect(), part)
    }

    /// [`TableUnit::part_segment`], the unit's [`TableUnit::rect`] given (computed once for
    /// many parts).
    pub(crate) fn part_segment_on(
        &self,
        card: &OrientedRect,
        part: Part,
    ) -> Option<(Segment, Vec2)> {
        match part {
            Part::Section(s) => Some((section_segment(card, s), card.outward_normal(s.edge))),
            Part::Extended(f) => {
                let r = self.extended_rect(f)?;
                Some((r.edge(Edge::Front), r.outward_normal(Edge::Front)))
            }
        }
    }

    /// The centre of the front edge, from which ranges are measured (VII-3 "Range").
    pub fn front_centre(&self) -> Vec2 {
        self.rect().edge(Edge::Front).midpoint()
    }
}

/// The card rectangle at a pose.
pub fn card_rect(pose: Pose, size: CardSize) -> OrientedRect {
    OrientedRect::new(pose, size.width, size.depth)
}

/// An extended-formation marker (VII-2.B): one front section wide, [`MARKER_DEPTH`] deep,
/// flush with the front line at the `flank` end of it.
pub fn extended_marker_rect(pose: Pose, size: CardSize, flank: Flank) -> OrientedRect {
    let w = size.front_section();
    let x = size.width / 2.0 + w / 2.0;
    let local = Vec2::new(
        match flank {
            Flank::Left => -x,
            Flank::Right => x,
        },
        size.depth / 2.0 - MARKER_DEPTH / 2.0,
    );
    OrientedRect::new(
        Pose::new(pose.to_world(local), pose.heading),
        w,
        MARKER_DEPTH,
    )
}

/// The pieces of a unit on the table ([`TableUnit::footprint`], [`footprint_at`]): the card,
/// then its extended markers, left before right. At most three, kept inline (no allocation:
/// footprints are asked for at every step of every path checked); a slice of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    pieces: [(Piece, OrientedRect); 3],
    len: usize,
}

impl Footprint {
    /// The card alone.
    fn card(rect: OrientedRect) -> Footprint {
        Footprint {
            pieces: [(Piece::Card, rect); 3],
            len: 1,
        }
    }

    fn push(&mut self, piece: Piece, rect: OrientedRect) {
        if let Some(slot) = self.pieces.get_mut(self.len) {
            *slot = (piece, rect);
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Footprint {
    type Target = [(Piece, OrientedRect)];

    fn deref(&self) -> &[(Piece, OrientedRect)] {
        self.pieces.get(..self.len).unwrap_or_default()
    }
}

impl IntoIterator for Footprint {
    type Item = (Piece, OrientedRect);
    type IntoIter = std::iter::Take<std::array::IntoIter<(Piece, OrientedRect), 3>>;

    fn into_iter(self) -> Self::IntoIter {
        self.pieces.into_iter().take(self.len)
    }
}

impl<'a> IntoIterator for &'a Footprint {
    type Item = &'a (Piece, OrientedRect);
    type IntoIter = std::slice::Iter<'a, (Piece, OrientedRect)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Card and extended markers at a pose.
pub fn footprint_at(pose: Pose, size: CardSize, left: bool, right: bool) -> Footprint {
    let mut out = Footprint::card(card_rect(pose, size));
    if left {
        out.push(
            Piece::Extended(Flank::Left),
            extended_marker_rect(pose, size, Flank::Left),
        );
    }
    if right {
        out.push(
            Piece::Extended(Flank::Right),
            extended_marker_rect(pose, size, Flank::Right),
        );
    }
    out
}

/// The segment of a section on a card rectangle.
pub fn section_segment(rect: &OrientedRect, s: SectionId) -> Segment {
    let n = SectionId::count_on(s.edge);
    let edge = rect.edge(s.edge);
    let k = f64::from(n);
    let i = f64::from(s.index.min(n - 1));
    Segment::new(edge.point_at(i / k), edge.point_at((i + 1.0) / k))
}

/// An enveloping Section marker placed against section `s` of the card `target` (VII-2.C):
/// outside the card, covering the section's length, [`MARKER_DEPTH`] deep, its front edge on
/// the section.
///
/// Ruling (VII-2.C): a marker on a side section (0.6 DU with the default card) takes that
/// section's length, so markers tile the perimeter without overlapping each other.
pub fn enveloping_marker_rect(target: &OrientedRect, s: SectionId) -> OrientedRect {
    let seg = section_segment(target, s);
    let n = target.outward_normal(s.edge);
    let centre = seg.midpoint() + n * (MARKER_DEPTH / 2.0);
    OrientedRect::new(
        Pose::new(centre, (-n).heading()),
        seg.length(),
        MARKER_DEPTH,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use onus_model::{AttackValues, DefenseValues};
    use std::collections::BTreeSet;

    pub(crate) fn card() -> UnitCard {
        UnitCard {
            id: "t".into(),
            name: "T".into(),
            faction: String::new(),
            kind: UnitKind::Infantry,
            attack: AttackValues { hit: 3, damage: 3 },
            ranged: None,
            defense: DefenseValues { dodge: 4, armor: 6 },
            morale: 7,
            health: 8,
            movement: 2.0,
            value: 100,
            abilities: BTreeSet::new(),
            formations: BTreeSet::new(),
            size: None,
        }
    }

    #[test]
    fn sections_follow_the_card_iii() {
        // III: 4 sections front and rear, 2 on each side.
        let u = TableUnit::new(UnitId(1), 0, card(), Pose::new(Vec2::ZERO, 0.0));
        let all: Vec<SectionId> = SectionId::all().collect();
        assert_eq!(all.len(), 12);
        for (i, s) in all.iter().enumerate() {
            assert_eq!(s.perimeter_index(), i);
            assert_eq!(SectionId::from_perimeter_index(i), *s);
            let len = u.section_segment(*s).length();
            let want = if matches!(s.edge, Edge::Front | Edge::Rear) {
                0.5
            } else {
                0.6
            };
            assert!((len - want).abs() < 1e-12);
        }
        let f0 = u.section_segment(SectionId {
            edge: Edge::Front,
            index: 0,
        });
        assert!(f0.a.approx_eq(Vec2::new(-1.0, 0.6), 1e-12));
        assert!(f0.b.approx_eq(Vec2::new(-0.5, 0.6), 1e-12));
        // Clockwise neighbours wrap around the corners.
        let f3 = SectionId {
            edge: Edge::Front,
            index: 3,
        };
        assert_eq!(
            f3.neighbour(true),
            SectionId {
                edge: Edge::Right,
                index: 0
            }
        );
        let l1 = SectionId {
            edge: Edge::Left,
            index: 1,
        };
        assert_eq!(
            l1.neighbour(true),
            SectionId {
                edge: Edge::Front,
                index: 0
            }
        );
        assert_eq!(
            SectionId {
                edge: Edge::Front,
                index: 0
            }
            .neighbour(false),
            l1
        );
    }

    #[test]
    fn extended_markers_continue_the_front_line_vii_2b() {
        let mut u = TableUnit::new(UnitId(1), 0, card(), Pose::new(Vec2::new(5.0, 5.0), 0.0));
        u.state.extended_left = true;
        let m = u.extended_rect(Flank::Left);
        let Some(m) = m else { panic!("marker") };
        assert!((m.width - 0.5).abs() < 1e-12 && (m.depth - 0.4).abs() < 1e-12);
        let seg = u.slot_segment(FrontSlot::ExtendedLeft);
        let Some(seg) = seg else { panic!("segment") };
        assert!(seg.a.approx_eq(Vec2::new(3.5, 5.6), 1e-12));
        assert!(seg.b.approx_eq(Vec2::new(4.0, 5.6), 1e-12));
        assert!(!m.overlaps(&u.rect()) && m.touches(&u.rect()));
        assert_eq!(u.front_slots().len(), 5);
        assert!(u.extended_rect(Flank::Right).is_none());
    }

    #[test]
    fn enveloping_marker_lies_along_the_section() {
        let r = card_rect(Pose::new(Vec2::ZERO, 0.0), CardSize::default());
        let s = SectionId {
            edge: Edge::Left,
            index: 0,
        };
        let m = enveloping_marker_rect(&r, s);
        assert!((m.width - 0.6).abs() < 1e-12);
        assert!(m.touches(&r));
        assert!(m.centre().approx_eq(Vec2::new(-1.2, -0.3), 1e-12));
        // It faces the section.
        assert!(m.pose.forward().approx_eq(Vec2::X, 1e-12));
    }
}

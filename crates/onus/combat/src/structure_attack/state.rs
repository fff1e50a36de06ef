//! A structure as an attack sees it, and the damage it carries: Wound markers, Fire markers,
//! its gate, whether it has collapsed (T&F IV "Structures", V "Razing structures").

use serde::{Deserialize, Serialize};

/// A gate's own values (T&F IV "Walls with a gate"): its resistance in melee and its
/// durability (5/5 in a wooden wall, 6/6 in a stone one). The gate is always wooden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Gate {
    pub resistance: u8,
    pub durability: u8,
}

/// The values of the structure (or wall section, or village half) under attack, as the
/// engine reads them from `onus_terrain::StructureValues` (T&F IV "Structures":
/// "Resistance: how hard it is to destroy (for both attacking values)", "Durability: how much
/// damage it can take before collapsing").
///
/// From a `Structure` `s` with values `v`: `resistance` and `durability` are `v.resistance`
/// and `v.durability` (a kind without them cannot be attacked), `wooden` is `v.flammable`,
/// `gate` is `v.gate`, `encloses` is `s.kind.holds_a_unit_by_marker()` or a village. Each
/// half of a village is a target of its own (IV "Villages"); a bridge (III "Bridges") is one
/// too, wooden or not by its material.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureTarget {
    /// For the roll log, e.g. `"wooden wall with a gate s1"`.
    pub name: String,
    pub resistance: u8,
    pub durability: u8,
    /// Made of wood: it burns, rams and elephants can damage it (T&F IV "Structures").
    pub wooden: bool,
    /// A wall with a gate's gate.
    pub gate: Option<Gate>,
    /// A tower, watchtower, siege tower or village: the unit inside is destroyed when it is
    /// razed (T&F V "Razing structures", IV "Collapsed tower").
    pub encloses: bool,
}

impl StructureTarget {
    /// A structure of these values (T&F IV "Structures").
    pub fn new(name: impl Into<String>, resistance: u8, durability: u8, wooden: bool) -> Self {
        Self {
            name: name.into(),
            resistance,
            durability,
            wooden,
            gate: None,
            encloses: false,
        }
    }

    /// With a gate of these values (T&F IV "Walls with a gate").
    pub fn with_gate(mut self, resistance: u8, durability: u8) -> Self {
        self.gate = Some(Gate {
            resistance,
            durability,
        });
        self
    }

    /// A tower or enclosed structure, whose occupant dies when it is razed (T&F V "Razing
    /// structures").
    pub fn enclosing(mut self) -> Self {
        self.encloses = true;
        self
    }
}

/// What an attack or a melee aims at: the structure, or its gate (T&F IV "Walls with a
/// gate": "For melee attacks you can choose to target either the wall or the gate if the
/// unit touches both"; "You cannot target the door directly with ranged attacks").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    #[default]
    Structure,
    Gate,
}

/// Fire markers on a structure (T&F V "Fire damage"). A marker placed during a turn is
/// `new`: it does no damage at the end of that turn; from then on it is `burning` and does 1
/// damage at the end of every turn, each side's, while it stays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FireMarkers {
    pub burning: u32,
    pub new: u32,
}

impl FireMarkers {
    pub fn total(&self) -> u32 {
        self.burning + self.new
    }
}

/// The damage a structure carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StructureDamage {
    /// Wound markers (T&F IV "Structures": "mark it using Wound markers"). On a wall with a
    /// gate they count for both the gate and the wall (IV "Walls with a gate").
    pub wounds: u32,
    pub fire: FireMarkers,
    /// The gate has fallen (its durability met): the wall is open there.
    pub gate_destroyed: bool,
    /// Collapsed, razed: the tile is removed or flipped over (V "Razing structures").
    pub collapsed: bool,
}

/// What a change of damage did to the structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DamageChange {
    /// The gate fell now.
    pub gate_fell: bool,
    /// The structure collapsed now.
    pub collapsed: bool,
    /// Fire markers that were on it when it collapsed, to spread to the structures it touches
    /// ([`crate::spread_fire`], V "Razing structures").
    pub fire_to_spread: u32,
    /// Fire markers put out because nothing wooden is left to burn (the gate of a stone
    /// wall fell; ruling).
    pub fire_out: u32,
}

impl StructureDamage {
    /// Damage the structure can still take before it collapses (T&F IV "Structures":
    /// "Durability").
    pub fn remaining(&self, target: &StructureTarget) -> u32 {
        u32::from(target.durability).saturating_sub(self.wounds)
    }

    /// The gate stands (a wall with a gate whose gate has not fallen).
    pub fn gate_stands(&self, target: &StructureTarget) -> bool {
        target.gate.is_some() && !self.gate_destroyed && !self.collapsed
    }

    /// Something wooden stands to burn: a wooden structure, or the gate of a stone wall
    /// (T&F IV "Walls with a gate": "The door is always made of wood, so it can be set on
    /// fire"; V "Set wood on fire").
    pub fn can_burn(&self, target: &StructureTarget) -> bool {
        !self.collapsed && (target.wooden || self.gate_stands(target))
    }

    /// Fire markers on it (T&F V "Fire damage": "a unit cannot climb a burning structure").
    pub fn is_burning(&self) -> bool {
        self.fire.total() > 0
    }

    /// Adds `n` Wound markers (T&F IV "Structures", "Walls with a gate": "Wound markers
    /// received apply to both the wall and the gate"). The gate falls when the wounds meet its
    /// durability; the structure collapses when they meet its own (V "Razing structures":
    /// "met or exceeded"); a collapsing structure's Fire markers are handed back to spread.
    pub fn take_damage(&mut self, target: &StructureTarget, n: u32) -> DamageChange {
        let mut change = DamageChange::default();
        if self.collapsed || n == 0 {
            return change;
        }
        self.wounds += n;
        let gate_falls = target
            .gate
            .is_some_and(|g| !self.gate_destroyed && self.wounds >= u32::from(g.durability));
        if gate_falls {
            self.gate_destroyed = true;
            change.gate_fell = true;
            if !target.wooden {
                change.fire_out = self.fire.total();
                self.fire = FireMarkers::default();
            }
        }
        if self.wounds >= u32::from(target.durability) {
            self.collapsed = true;
            self.gate_destroyed = self.gate_destroyed || target.gate.is_some();
            change.collapsed = true;
            change.fire_to_spread = self.fire.total();
            self.fire = FireMarkers::default();
        }
        change
    }

    /// Places `n` new Fire markers (T&F V "Fire damage": "When the fire starts, the attacker
    /// will add the corresponding markers ... but no damage is applied until the end of the
    /// next turn"). Nothing is placed on what cannot burn; returns how many were placed.
    pub fn add_fire(&mut self, target: &StructureTarget, n: u32) -> u32 {
        if !self.can_burn(target) {
            return 0;
        }
        self.fire.new += n;
        n
    }

    /// The end of a side's turn (T&F V "Fire damage"): every burning marker does 1 damage;
    /// then the markers placed this turn start burning. Returns the damage and what it did.
    ///
    /// Ruling (docs/rulings.md, T&F V "Fire damage"): "at the end of the attacker's turn the
    /// damage caused by fire in previous turns will be applied and new markers are added ...
    /// After the defender's turn, apply the damage again, this time using all the markers"
    /// is read marker by marker: none does damage at the end of the turn it was placed in,
    /// each does 1 at the end of every later turn of either side while it stays (cumulative).
    pub fn end_of_turn(&mut self, target: &StructureTarget) -> (u32, DamageChange) {
        let damage = self.fire.burning;
        let change = self.take_damage(target, damage);
        self.fire.burning += self.fire.new;
        self.fire.new = 0;
        (damage, change)
    }

    /// A unit puts out fire (T&F V "Fire extinguishing": "eliminating 1 Fire marker per turn
    /// and section in contact with the fire"): removes up to `sections` markers, the burning
    /// ones first (ruling). Returns how many were removed.
    pub fn extinguish(&mut self, sections: u32) -> u32 {
        let from_burning = sections.min(self.fire.burning);
        self.fire.burning -= from_burning;
        let from_new = (sections - from_burning).min(self.fire.new);
        self.fire.new -= from_new;
        from_burning + from_new
    }
}

/// What a razed structure does to the unit defending it (T&F V "Razing structures", IV
/// "Collapsed wall", "Collapsed tower").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Casualties {
    /// A tower or an enclosed structure (a village): "the unit inside is destroyed".
    Destroyed,
    /// "1 damage for each unit section in contact with it, and will automatically perform a
    /// morale check".
    Wounded { wounds: u32 },
}

/// T&F V "Razing structures": what the collapse of `target` does to a defender with
/// `sections` sections in contact with it.
pub fn razing_casualties(target: &StructureTarget, sections: u32) -> Casualties {
    if target.encloses {
        Casualties::Destroyed
    } else {
        Casualties::Wounded { wounds: sections }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wooden_gate_wall() -> StructureTarget {
        StructureTarget::new("gate", 6, 7, true).with_gate(5, 5)
    }

    /// T&F IV "Walls with a gate", the Triarii's example: the gate falls at 5 damage, the
    /// wall 2 damage later.
    #[test]
    fn tf_iv_gate_falls_at_five_and_the_wall_two_later() {
        let t = wooden_gate_wall();
        let mut s = StructureDamage::default();
        assert!(!s.take_damage(&t, 4).gate_fell);
        let c = s.take_damage(&t, 1);
        assert!(c.gate_fell && !c.collapsed && s.gate_destroyed);
        assert_eq!(s.remaining(&t), 2);
        assert!(!s.take_damage(&t, 1).collapsed);
        assert!(s.take_damage(&t, 1).collapsed);
        assert!(s.collapsed);
        // A collapsed structure takes no more.
        assert_eq!(s.take_damage(&t, 3), DamageChange::default());
        assert_eq!(s.wounds, 7);
    }

    #[derive(Clone, Debug)]
    enum Op {
        Damage(u32),
        Fire(u32),
        EndOfTurn,
        Extinguish(u32),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            (0u32..5).prop_map(Op::Damage),
            (0u32..5).prop_map(Op::Fire),
            Just(Op::EndOfTurn),
            (0u32..5).prop_map(Op::Extinguish),
        ]
    }

    proptest::proptest! {
        /// Whatever happens to a structure: it has collapsed exactly when its wounds meet its
        /// durability, its gate has fallen exactly when they meet the gate's, nothing burns
        /// that cannot, and every Fire marker placed is still there, put out, spread or gone
        /// with a fallen stone gate.
        #[test]
        fn damage_state_invariants(
            kind in 0usize..4,
            ops in proptest::collection::vec(op(), 0..40),
        ) {
            let target = [
                StructureTarget::new("wooden wall", 6, 7, true),
                StructureTarget::new("stone wall", 7, 8, false),
                StructureTarget::new("wooden gate", 6, 7, true).with_gate(5, 5),
                StructureTarget::new("stone gate", 7, 8, false).with_gate(6, 6),
            ][kind]
                .clone();
            let mut s = StructureDamage::default();
            let (mut placed, mut removed) = (0u32, 0u32);
            for op in ops {
                let change = match op {
                    Op::Damage(n) => s.take_damage(&target, n),
                    Op::Fire(n) => {
                        placed += s.add_fire(&target, n);
                        DamageChange::default()
                    }
                    Op::EndOfTurn => s.end_of_turn(&target).1,
                    Op::Extinguish(n) => {
                        removed += s.extinguish(n);
                        DamageChange::default()
                    }
                };
                removed += change.fire_to_spread + change.fire_out;
                proptest::prop_assert_eq!(s.collapsed, s.wounds >= u32::from(target.durability));
                let gate_met = target
                    .gate
                    .is_some_and(|g| s.wounds >= u32::from(g.durability));
                proptest::prop_assert_eq!(s.gate_destroyed, gate_met || (s.collapsed && target.gate.is_some()));
                proptest::prop_assert!(s.can_burn(&target) || !s.is_burning());
                proptest::prop_assert_eq!(placed, removed + s.fire.total());
            }
        }
    }

    #[test]
    fn tf_v_fire_on_a_stone_gate_goes_out_when_the_gate_falls() {
        let t = StructureTarget::new("stone gate", 7, 8, false).with_gate(6, 6);
        let mut s = StructureDamage::default();
        assert_eq!(s.add_fire(&t, 3), 3);
        let c = s.take_damage(&t, 6);
        assert!(c.gate_fell);
        assert_eq!(c.fire_out, 3);
        assert!(!s.can_burn(&t));
        assert_eq!(s.add_fire(&t, 2), 0);
    }
}

//! Fire: how many dice a melee unit rolls to set wood on fire, and how the fire of a
//! collapsing structure spreads (T&F V "Damaging and setting structures on fire").

use serde::{Deserialize, Serialize};

use super::StructureAttackError;

/// T&F V "Set wood on fire": "we will roll as many dice as sections are in contact but minus
/// 1 die ... a unit with only 1 section in contact will not be able to set a structure on
/// fire". `sections` are the unit's sections in contact with this structure (wall section,
/// tower, gate); `None` when it cannot try.
///
/// Ruling (docs/rulings.md, T&F V "Set wood on fire"): the count is per structure: a unit
/// in contact with 2 wall sections ("it can attack both but rolling only 1 die") rolls, on
/// each, its sections in contact with that one minus 1 (2 and 2: 1 die on each).
pub fn fire_dice(sections: u32) -> Option<u32> {
    (sections >= 2).then(|| sections - 1)
}

/// How the Fire markers of a collapsing structure spread (T&F V "Razing structures": "the
/// Fire markers are automatically moved to the sides when in contact with other structures,
/// distributing them evenly. If a marker remains after distribution, the defender chooses
/// where to place it").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FireSpread {
    /// The structures in contact that can take them.
    pub neighbours: u32,
    /// Markers each of them receives.
    pub each: u32,
    /// Markers left over, placed by the defender ([`FireSpread::place`]).
    pub remainder: u32,
    /// Markers lost: nothing in contact can burn.
    pub lost: u32,
}

/// Spreads `markers` over `neighbours` structures in contact with the collapsed one that can
/// burn (standing, wooden or a standing gate). Ruling (docs/rulings.md, T&F V "Razing
/// structures"): the spread markers are new fires on their structures (no damage at the end
/// of this turn); with no neighbour that can burn they are lost.
pub fn spread_fire(markers: u32, neighbours: u32) -> FireSpread {
    if neighbours == 0 {
        return FireSpread {
            neighbours,
            each: 0,
            remainder: 0,
            lost: markers,
        };
    }
    FireSpread {
        neighbours,
        each: markers / neighbours,
        remainder: markers % neighbours,
        lost: 0,
    }
}

impl FireSpread {
    /// Whether the defender has a choice to make (T&F V "Razing structures": "If a marker
    /// remains after distribution, the defender chooses where to place it").
    pub fn needs_choice(&self) -> bool {
        self.remainder > 0
    }

    /// The markers each neighbour receives, the leftovers where the defender chose
    /// (`chosen`: indices of neighbours, one per leftover marker). Ruling: each leftover
    /// goes to a different neighbour, so the spread stays even ("distributing them evenly").
    pub fn place(&self, chosen: &[u32]) -> Result<Vec<u32>, StructureAttackError> {
        if chosen.len() as u32 != self.remainder {
            return Err(StructureAttackError::FireChoice {
                reason: format!(
                    "{} leftover Fire markers, {} places chosen",
                    self.remainder,
                    chosen.len()
                ),
            });
        }
        let mut out = vec![self.each; self.neighbours as usize];
        for &i in chosen {
            let Some(slot) = out.get_mut(i as usize) else {
                return Err(StructureAttackError::FireChoice {
                    reason: format!("no neighbour {i} (there are {})", self.neighbours),
                });
            };
            if *slot > self.each {
                return Err(StructureAttackError::FireChoice {
                    reason: format!(
                        "neighbour {i} chosen twice: the leftovers go to different structures"
                    ),
                });
            }
            *slot += 1;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T&F V "Set wood on fire": an enveloped tower, 4 sections: 3 dice; 1 section cannot.
    #[test]
    fn tf_v_fire_dice_are_sections_minus_one() {
        assert_eq!(fire_dice(4), Some(3));
        assert_eq!(fire_dice(2), Some(1));
        assert_eq!(fire_dice(1), None);
        assert_eq!(fire_dice(0), None);
        assert_eq!(fire_dice(6), Some(5));
    }

    /// T&F V "Razing structures", the example: 3 markers, a wall with a gate on one side and
    /// a tower on the other: 1 each, the third where the defender chooses.
    #[test]
    fn tf_v_fire_spreads_evenly_and_the_defender_places_the_rest() {
        let s = spread_fire(3, 2);
        assert_eq!((s.each, s.remainder, s.lost), (1, 1, 0));
        assert!(s.needs_choice());
        assert_eq!(s.place(&[1]).ok(), Some(vec![1, 2]));
        assert!(s.place(&[]).is_err());
        assert!(s.place(&[2]).is_err());
        let s = spread_fire(5, 3);
        assert_eq!((s.each, s.remainder), (1, 2));
        assert!(s.place(&[0, 0]).is_err());
        assert_eq!(s.place(&[0, 2]).ok(), Some(vec![2, 1, 2]));
        let s = spread_fire(4, 0);
        assert_eq!((s.each, s.remainder, s.lost), (0, 0, 4));
        assert_eq!(s.place(&[]).ok(), Some(vec![]));
    }
}

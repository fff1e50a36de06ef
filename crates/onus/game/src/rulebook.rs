//! The sections of the ONUS! rulebook (`000_88f1f000e170bca2.txt`) and of *Terrain &
//! Fortresses* (`002_c2a3f764af97b82f.txt`, cited "T&F ...") that the engine cites: in its
//! refusals (`[VII-2.C Charging]`), its rolls (`RollRecord::rule`), the sources of its
//! modifiers ("bravery (VIII)"), its events and the table's hover help. This table is the
//! source of truth: every citation the engine writes resolves to one of these sections
//! ([`acies_data::rules::resolve`]; `tests/rulebook.rs` checks the code's literals and the
//! citations of random battles), and every section has our own summary in
//! `data/onus/rules/summaries.toml` (checked by `onus-server`).

use acies_data::rules::Section;

/// Every section the engine cites, in the rulebook's order.
pub const SECTIONS: &[Section] = &[
    Section::whole("III", "Units"),
    Section::whole("IV", "Generals"),
    Section::part("IV", "Area of influence"),
    Section::part("IV", "Special ability"),
    Section::whole("V", "Action cards"),
    Section::part("V", "Orders"),
    Section::part("V", "Events"),
    Section::whole("VI", "Setting up the battle"),
    Section::part("VI", "Creating the armies"),
    Section::part("VI", "Victory conditions"),
    Section::part("VI", "Troop deployment"),
    Section::whole("VII", "Turn sequence"),
    Section::whole("VII-1", "Activation phase"),
    Section::part("VII-1", "Unique orders"),
    Section::part("VII-1", "Non-active units in combat"),
    Section::part("VII-1", "Activating broken units"),
    Section::part("VII-1", "Activating fleeing units"),
    Section::whole("VII-2", "Movement phase"),
    Section::part("VII-2", "Moving through units"),
    Section::part("VII-2", "Overlapping"),
    Section::whole("VII-2.A", "Types of movement"),
    Section::part("VII-2.A", "Regular movement"),
    Section::part("VII-2.A", "Forced march"),
    Section::part("VII-2.A", "Reduced movement"),
    Section::whole("VII-2.B", "Special maneuvers"),
    Section::part("VII-2.B", "Movement in all directions"),
    Section::part("VII-2.B", "Free rotation"),
    Section::part("VII-2.B", "Extending or reducing a formation"),
    Section::part("VII-2.B", "Adopting or changing a special formation"),
    Section::part("VII-2.B", "Performing a ranged attack"),
    Section::part("VII-2.B", "Combining special maneuvers"),
    Section::whole("VII-2.C", "Charging"),
    Section::part("VII-2.C", "Charging against several units"),
    Section::part("VII-2.C", "Charging against enveloping or extended units"),
    Section::whole("VII-2.D", "Activation of units engaged in combat"),
    Section::part("VII-2.D", "Enveloping the enemy"),
    Section::part("VII-2.D", "Reducing an extended unit"),
    Section::part("VII-2.D", "Repositioning a unit engaged in combat"),
    Section::part("VII-2.D", "90° repositioning"),
    Section::part("VII-2.D", "180° repositioning"),
    Section::part("VII-2.D", "Withdrawal"),
    Section::part("VII-2.D", "Retreat"),
    Section::whole("VII-3", "Ranged attack phase"),
    Section::part("VII-3", "Procedure"),
    Section::part("VII-3", "Range"),
    Section::part("VII-3", "Line of sight"),
    Section::part("VII-3", "Events"),
    Section::part("VII-3", "Combat resolution"),
    Section::part("VII-3", "Consequences"),
    Section::part("VII-3", "Modifiers for flank and rear attacks"),
    Section::whole("VII-4", "Skirmishers phase"),
    Section::whole("VII-5", "Melee phase"),
    Section::part("VII-5", "Sequence"),
    Section::part("VII-5", "Events"),
    Section::part("VII-5", "Types of melee combat").aka(&["Attack priority"]),
    Section::part("VII-5", "Dice"),
    Section::part("VII-5", "Damage"),
    Section::part("VII-5", "Morale check"),
    Section::part("VII-5", "Flight in combat"),
    Section::part("VII-5", "Voluntary flight"),
    Section::whole("VII-6", "Flight phase"),
    Section::part("VII-6", "Phases"),
    Section::part("VII-6", "Recovering a fleeing unit"),
    Section::part("VII-6", "Fleeing elephants"),
    Section::part("VII-6", "Elephant trampling"),
    Section::part("VII-6", "Combat with fleeing elephants"),
    Section::whole("VII-7", "End of turn phase"),
    Section::whole("VIII", "Special formations"),
    Section::part("VIII", "Wall of shields"),
    Section::part("VIII", "Phalanx"),
    Section::part("VIII", "Square"),
    Section::part("VIII", "Arrowhead"),
    Section::part("VIII", "Diamond"),
    Section::part("VIII", "Bravery"),
    Section::whole("IX", "Unit abilities"),
    Section::part("IX", "Sylvan"),
    Section::part("IX", "Mountaineers"),
    Section::part("IX", "Amphibious"),
    Section::part("IX", "Athletes"),
    Section::part("IX", "Lunge"),
    Section::part("IX", "Skirmishers"),
    Section::part("IX", "Maneuverable"),
    Section::part("IX", "Professionals"),
    Section::part("IX", "Fear"),
    Section::part("IX", "Steadfast"),
    Section::part("IX", "Brash"),
    Section::part("IX", "Javelins"),
    Section::part("IX", "Spearmen"),
    Section::part("IX", "Deadly"),
    Section::part("IX", "Accuracy"),
    Section::part("IX", "Sarissas"),
    Section::part("IX", "Complementary units").aka(&["Complementary"]),
    Section::whole("X", "Modifiers"),
    Section::part("X", "Casualties"),
    Section::whole("XI", "More info about orders and events"),
    Section::part("XI", "Veterans and elites").aka(&["Veterans", "Elite", "Elites"]),
    Section::part("XI", "Ambush"),
    Section::part("XI", "Throw javelins"),
    Section::part("XI", "The wind changes"),
    Section::part("XI", "Stampede"),
    Section::whole("XII-A", "Optional rules"),
    Section::part("XII-A", "Rookie general"),
    Section::part("XII-A", "Always-active general").aka(&["Always active general"]),
    Section::part("XII-A", "Several generals"),
    Section::part("XII-A", "Playing without events"),
    Section::part("XII-A", "Limited visibility"),
    Section::part("XII-A", "Fog of war"),
    Section::part("XII-A", "Protected flanks"),
    Section::part("XII-A", "Advancing in line"),
    Section::part("XII-A", "Intimidating dromedaries"),
    Section::part("XII-A", "Reinforced units"),
    Section::whole("XII-B", "Games with 4 or 6 players"),
    Section::whole("XII-C", "Games with 3 or 5 players"),
    Section::whole("T&F II", "Special rules"),
    Section::part("T&F II", "Ranged attacks from different heights"),
    Section::part("T&F II", "Melee from different heights"),
    Section::part("T&F II", "Ranged attacks and line of sight").aka(&["Line of sight"]),
    Section::part("T&F II", "Difficult terrain movement"),
    Section::part("T&F II", "Limited movement"),
    Section::part("T&F II", "Overlapping"),
    Section::part("T&F II", "Facing"),
    Section::whole("T&F III", "Types of terrain"),
    Section::part("T&F III", "Forest"),
    Section::part("T&F III", "Mountains and Lakes"),
    Section::part("T&F III", "Hills"),
    Section::part("T&F III", "Rivers"),
    Section::part("T&F III", "Fords"),
    Section::part("T&F III", "Bridges"),
    Section::part("T&F III", "Choke Points"),
    Section::whole("T&F IV", "Structures"),
    Section::part("T&F IV", "Villages"),
    Section::part("T&F IV", "Fleeing from fortresses"),
    Section::part("T&F IV", "Walls"),
    Section::part("T&F IV", "Towers"),
    Section::part("T&F IV", "Walls with a gate"),
    Section::part("T&F IV", "Watchtowers"),
    Section::part("T&F IV", "Siege towers"),
    Section::part("T&F IV", "Caltrops"),
    Section::part("T&F IV", "Trenches and barricades"),
    Section::whole("T&F V", "Assaults and damaging structures"),
    Section::part("T&F V", "Assaulting fortresses"),
    Section::part("T&F V", "Artillery"),
    Section::part("T&F V", "Collateral damages"),
    Section::part("T&F V", "Rams and Elephants"),
    Section::part("T&F V", "Damaging and setting structures on fire"),
    Section::part("T&F V", "Set wood on fire"),
    Section::part("T&F V", "Shooting at structures"),
    Section::part("T&F V", "Events"),
    Section::part("T&F V", "Fire damage"),
    Section::part("T&F V", "Fire extinguishing"),
    Section::part("T&F V", "Razing structures"),
    Section::whole("T&F VI", "Scenarios with fortresses"),
    Section::part("T&F VI", "Point value"),
    Section::part("T&F VI", "Victory conditions"),
    Section::part("T&F VI", "Deployment"),
    Section::part("T&F VI", "Fortress design"),
    Section::part("T&F VI", "Fortress types"),
];

/// The sections a citation names (none when it names none).
pub fn resolve(citation: &str) -> Vec<&'static Section> {
    acies_data::rules::resolve(SECTIONS, citation)
        .into_iter()
        .map(|i| &SECTIONS[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_citable_on_its_own() {
        let clashes = acies_data::rules::clashes(SECTIONS);
        assert!(clashes.is_empty(), "{clashes:#?}");
        for s in SECTIONS {
            assert_eq!(resolve(&s.cite()), [s], "{}", s.cite());
        }
    }

    #[test]
    fn the_engines_ways_of_citing_resolve() {
        let one = |c: &str| -> Vec<String> { resolve(c).iter().map(|s| s.cite()).collect() };
        assert_eq!(one("VII-2.C Charging"), ["VII-2.C Charging"]);
        assert_eq!(one("[VII-2.C Charging]"), ["VII-2.C Charging"]);
        assert_eq!(one("VII-2.C"), ["VII-2.C Charging"]);
        assert_eq!(one("VII-5"), ["VII-5 Melee phase"]);
        assert_eq!(one("VII-3 combat resolution"), ["VII-3 Combat resolution"]);
        assert_eq!(
            one("VII-3 Events / VII-5 Events / XI"),
            [
                "VII-3 Events",
                "VII-5 Events",
                "XI More info about orders and events"
            ]
        );
        assert_eq!(
            one("IV Generals (Transfer of the General)"),
            ["IV Generals"]
        );
        assert_eq!(
            one("VI Victory conditions: casualties"),
            ["VI Victory conditions"]
        );
        assert_eq!(one("T&F III Fords"), ["T&F III Fords"]);
        assert_eq!(one("IX, terrain abilities"), ["IX Unit abilities"]);
    }
}

//! `acies odds structure`: the exact odds of an attack on a structure (*Terrain & Fortresses*
//! V): the damage it takes, the gate and the collapse, the unit inside, artillery's misfires.
//! The values come from the game's own `onus_game::structures::attack_setup`, the rolls from
//! onus-combat's resolver, the odds from onus-odds.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use onus_combat::{Aim, Fighter, Range, RuleOptions, StructureDamage};
use onus_game::structures::{
    StructureAttack, attack_setup, sheltered, shot_ground, target_of_kind,
};
use onus_odds::{Method, StructureOdds};
use onus_terrain::{Material, StructureKind};

use crate::odds_cmd::{OutputArgs, RangeArg, load_catalog};
use crate::unit_spec::parse_unit_spec;

/// How the unit attacks the structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum How {
    /// A siege unit's shot (T&F V "Artillery").
    Artillery,
    /// A siege unit's incendiary shot, one die fewer, Fire markers.
    IncendiaryArtillery,
    /// Another shooter's incendiary projectiles (T&F V "Shooting at structures").
    Incendiary,
    /// A melee unit sets wood on fire: its sections in contact minus 1 die (T&F V "Set wood on
    /// fire").
    SetOnFire,
    /// A unit with a battering ram: 4 dice, +1/+1 (T&F V "Rams and Elephants").
    Ram,
    /// An elephant unit against wood: 4 dice (T&F V "Rams and Elephants").
    Elephant,
}

/// The structure's material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MaterialArg {
    #[default]
    Wood,
    Stone,
}

#[derive(Args, Debug)]
pub struct StructureArgs {
    /// The attacking unit, as for `melee` (catalog id with markers, or an inline card).
    #[arg(long)]
    pub attacker: String,
    /// How it attacks.
    #[arg(long, value_enum)]
    pub how: How,
    /// The structure: wall, corner_wall, gate_wall, tower, watchtower, siege_tower, village,
    /// bridge.
    #[arg(long)]
    pub structure: String,
    #[arg(long, value_enum, default_value_t)]
    pub material: MaterialArg,
    /// Short or long range, for a shot.
    #[arg(long, value_enum)]
    pub range: Option<RangeArg>,
    /// Sections in contact, to set it on fire.
    #[arg(long, value_name = "N")]
    pub sections: Option<u32>,
    /// Aim at the gate of a wall with a gate (melee attacks only, T&F IV "Walls with a gate").
    #[arg(long)]
    pub gate: bool,
    /// A shot from a higher position than the structure's base (a wall, a tower, a hill's
    /// top): +1 power (T&F II; IV "Siege towers": "you will attack the base of the tower").
    #[arg(long)]
    pub from_above: bool,
    /// Terrain covering the structure on every sight line, named (-1 power, T&F II "Ranged
    /// attacks and line of sight").
    #[arg(long, value_name = "NAME")]
    pub cover: Option<String>,
    /// Wound markers the structure already carries.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub wounds: u32,
    /// The unit in or on the structure, as for `--attacker`: collateral damage and the
    /// collapse's casualties fall on it.
    #[arg(long)]
    pub occupant: Option<String>,
    /// The occupant's sections in contact with the structure.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub occupant_sections: u32,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Most wound markers or sections given on the command line: far above any structure's
/// durability or unit's width, so nothing absurd reaches the resolver.
const MAX_COUNT: u32 = 20;

pub fn run_structure(args: &StructureArgs) -> Result<String> {
    for (n, flag) in [
        (args.wounds, "--wounds"),
        (args.occupant_sections, "--occupant-sections"),
        (args.sections.unwrap_or(0), "--sections"),
    ] {
        if n > MAX_COUNT {
            bail!("{flag} {n}: at most {MAX_COUNT}");
        }
    }
    let catalog = load_catalog(args.output.data.as_deref())?;
    let lookup = |id: &str| catalog.unit(id).cloned().map_err(|e| e.to_string());
    let unit = |text: &str, role: &str| -> Result<Fighter> {
        let spec = parse_unit_spec(text, lookup).map_err(|e| anyhow::anyhow!("--{role}: {e}"))?;
        Ok(Fighter::new(spec.card).with_state(spec.state))
    };
    let me = unit(&args.attacker, "attacker")?;
    let occupant = args
        .occupant
        .as_deref()
        .map(|t| unit(t, "occupant"))
        .transpose()?;
    let Some(kind) = StructureKind::any_from_id(&args.structure) else {
        bail!(
            "--structure {}: not a structure that can be damaged (wall, corner_wall, gate_wall, tower, watchtower, siege_tower, village, bridge)",
            args.structure
        );
    };
    let material = match args.material {
        MaterialArg::Wood => Material::Wood,
        MaterialArg::Stone => Material::Stone,
    };
    let name = match material {
        Material::Wood => format!("wooden {kind}"),
        Material::Stone => format!("stone {kind}"),
    };
    let Some(target) = target_of_kind(kind, material, name) else {
        bail!("a {kind} of that material cannot be attacked (T&F IV Structures)");
    };
    let range = || match args.range {
        Some(RangeArg::Short) => Ok(Range::Short),
        Some(RangeArg::Long) => Ok(Range::Long),
        None => bail!("give --range short|long for a shot"),
    };
    let how = match args.how {
        How::Artillery => StructureAttack::Artillery {
            range: range()?,
            incendiary: false,
        },
        How::IncendiaryArtillery => StructureAttack::Artillery {
            range: range()?,
            incendiary: true,
        },
        How::Incendiary => StructureAttack::IncendiaryShot { range: range()? },
        How::SetOnFire => match args.sections {
            Some(sections) => StructureAttack::SetOnFire { sections },
            None => bail!("give --sections N (in contact) to set it on fire"),
        },
        How::Ram => StructureAttack::Ram,
        How::Elephant => StructureAttack::Elephant,
    };
    let ranged = matches!(
        how,
        StructureAttack::Artillery { .. } | StructureAttack::IncendiaryShot { .. }
    );
    let (mut setup, armor) =
        attack_setup(&me, occupant.as_ref(), how, target, &RuleOptions::default());
    let armor = armor.map(|a| sheltered(a, kind, material, ranged));
    if (args.from_above || args.cover.is_some()) && !ranged {
        bail!("--from-above and --cover are for a shot (artillery or incendiary projectiles)");
    }
    shot_ground(&mut setup, args.cover.as_deref(), args.from_above);
    let mut damage = StructureDamage::default();
    if damage.take_damage(&setup.target, args.wounds).collapsed {
        bail!(
            "--wounds {}: the {} has collapsed at {} (T&F V Razing structures)",
            args.wounds,
            setup.target.name,
            setup.target.durability
        );
    }
    setup = setup.state(damage);
    if args.gate {
        setup = setup.aim(Aim::Gate);
    }
    if let (Some(o), Some(armor)) = (&occupant, armor) {
        setup = setup.occupant(o.card.name.clone(), armor, args.occupant_sections);
    }
    let odds = match args.output.sample {
        Some(n) => onus_odds::sample_structure_attack(&setup, n, args.output.seed),
        None => onus_odds::structure_attack_odds(&setup),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    if args.output.json {
        return Ok(serde_json::to_string_pretty(&odds)? + "\n");
    }
    let title = format!(
        "{} attacks the {} ({}), durability {}",
        me.card.name,
        setup.target.name,
        args.how
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string()),
        setup.target.durability
    );
    let (hit, damage) = setup.attack_values();
    let values = [
        format!("to hit: {hit}"),
        format!("to damage: {damage}"),
        format!("resistance: {}", setup.resistance()),
    ];
    Ok(render(&odds, &title, &values))
}

fn pct(p: f64) -> String {
    format!("{:6.2}%", p * 100.0)
}

fn render(odds: &StructureOdds, title: &str, values: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = match odds.method {
        Method::Exact { outcomes } => writeln!(out, "Method: exact ({outcomes} outcomes)"),
        Method::Sampled { samples, seed } => {
            writeln!(out, "Method: Monte Carlo ({samples} samples, seed {seed})")
        }
    };
    let n = odds.needs;
    let _ = writeln!(
        out,
        "Rolls {} dice: needs {}+ to hit, then {}+ to damage",
        n.dice, n.hit, n.damage
    );
    for v in values {
        let _ = writeln!(out, "  {v}");
    }
    let marker = if odds.fire { "Fire" } else { "Wound" };
    let _ = writeln!(out, "\n{marker} markers placed   probability");
    for (k, p) in odds.damage.iter().enumerate() {
        let _ = writeln!(out, "  {k:>3}                 {}", pct(*p));
    }
    let _ = writeln!(out, "Expected: {:.3}", odds.expected_damage);
    let _ = writeln!(out, "Gate falls:          {}", pct(odds.gate_falls));
    let _ = writeln!(out, "Structure collapses: {}", pct(odds.collapses));
    if odds.misfires.len() > 1 {
        let _ = writeln!(out, "At least one misfire: {}", pct(1.0 - odds.misfires[0]));
    }
    if odds.occupant_wounds.len() > 1 || odds.occupant_destroyed > 0.0 {
        let _ = writeln!(out, "\nThe unit in the structure");
        for (k, p) in odds.occupant_wounds.iter().enumerate().skip(1) {
            let _ = writeln!(out, "  {k} wound(s)          {}", pct(*p));
        }
        let _ = writeln!(
            out,
            "  destroyed           {}",
            pct(odds.occupant_destroyed)
        );
        let _ = writeln!(
            out,
            "  morale check        {}",
            pct(odds.occupant_morale_check)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(attacker: &str, how: How, structure: &str) -> StructureArgs {
        StructureArgs {
            attacker: attacker.into(),
            how,
            structure: structure.into(),
            material: MaterialArg::Wood,
            range: Some(RangeArg::Long),
            sections: None,
            gate: false,
            from_above: false,
            cover: None,
            wounds: 0,
            occupant: None,
            occupant_sections: 4,
            output: OutputArgs {
                seed: 1,
                json: true,
                ..OutputArgs::default()
            },
        }
    }

    fn odds(a: &StructureArgs) -> StructureOdds {
        let text = run_structure(a).unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// T&F V "Artillery", the Onagers' example: at long range 2 dice; two 6s to hit are four
    /// damage dice, four 6s are 8 damage. Power 5 against resistance 6: 2+ to hit and to
    /// damage; a die shows 6 at 7/36 (a 6, or a 1 re-rolled into a 6: artillery re-rolls its
    /// 1s), so the 8 is (7/36)^2 for the double hits times (7/36)^4 for the criticals.
    #[test]
    fn tf_v_the_onagers_eight_damage_at_long_range() {
        let o = odds(&args("onager", How::Artillery, "wall"));
        assert_eq!((o.needs.dice, o.needs.hit, o.needs.damage), (2, 2, 2));
        let eight = o.damage.get(8).copied().unwrap_or(0.0);
        assert!((eight - (7.0f64 / 36.0).powi(6)).abs() < 1e-12, "{eight}");
        let total: f64 = o.damage.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(o.misfires.len() > 1, "artillery can misfire");
    }

    /// T&F II and IV "Siege towers" (ruling): a shot from above the structure's base has +1
    /// power, a covered structure -1. The Onager (power 5) against a wooden wall (6): 2+ to
    /// hit and damage; covered 3+; both together 2+ again. Archers' incendiary arrows need
    /// more: from above they need one less and do more damage. Not for a melee attack.
    #[test]
    fn tf_ii_a_shot_at_a_structure_from_above_or_covered() {
        let odds_of = |from_above: bool, cover: Option<&str>| {
            let mut a = args("onager", How::Artillery, "wall");
            a.from_above = from_above;
            a.cover = cover.map(str::to_string);
            odds(&a)
        };
        let plain = odds_of(false, None);
        let covered = odds_of(false, Some("west wood"));
        let both = odds_of(true, Some("west wood"));
        assert_eq!((plain.needs.hit, plain.needs.damage), (2, 2));
        assert_eq!((covered.needs.hit, covered.needs.damage), (3, 3));
        assert_eq!((both.needs.hit, both.needs.damage), (2, 2));
        assert!((both.expected_damage - plain.expected_damage).abs() < 1e-12);
        let arrows = |from_above: bool| {
            let mut a = args("dacians/archers", How::Incendiary, "wall");
            a.range = Some(RangeArg::Short);
            a.from_above = from_above;
            odds(&a)
        };
        let (low, high) = (arrows(false), arrows(true));
        assert_eq!(
            high.needs.hit + 1,
            low.needs.hit,
            "{:?} {:?}",
            low.needs,
            high.needs
        );
        assert!(high.expected_damage > low.expected_damage + 1e-6);
        let mut ram = args("triarii", How::Ram, "gate_wall");
        ram.from_above = true;
        assert!(run_structure(&ram).is_err());
    }

    /// T&F III "Bridges" with V "Artillery": a wooden bridge (7 resistance) needs a 3+ of the
    /// Onager (power 5), a stone one (8) a 4+; wood burns, stone does not.
    #[test]
    fn tf_iii_bridges_shot_at_by_artillery() {
        let mut a = args("onager", How::Artillery, "bridge");
        let wood = odds(&a);
        a.material = MaterialArg::Stone;
        let stone = odds(&a);
        assert_eq!((wood.needs.hit, wood.needs.damage), (3, 3));
        assert_eq!((stone.needs.hit, stone.needs.damage), (4, 4));
        assert!(wood.expected_damage > stone.expected_damage);
        let mut fire = args("onager", How::IncendiaryArtillery, "bridge");
        assert!(odds(&fire).fire);
        fire.material = MaterialArg::Stone;
        assert!(run_structure(&fire).is_err(), "stone does not burn");
    }

    /// The values are the game's (`attack_setup`): a ram's +1/+1 on the unit's melee values,
    /// and the unit in the structure takes the collateral dice.
    #[test]
    fn tf_v_a_ram_at_the_gate_with_a_defender_on_it() {
        let mut a = args("triarii", How::Ram, "gate_wall");
        a.gate = true;
        a.occupant = Some("legionaries".into());
        let o = odds(&a);
        assert_eq!(o.needs.dice, 4);
        assert!(o.occupant_morale_check > 0.5);
        assert!(!o.fire);
        a.output.json = false;
        let text = run_structure(&a).unwrap_or_else(|e| panic!("{e}"));
        assert!(text.contains("battering ram"), "{text}");
    }

    #[test]
    fn refusals_name_their_rule() {
        let cases = [
            (
                args("legionaries", How::Artillery, "wall"),
                "T&F V Artillery",
            ),
            (
                args("legionaries", How::Elephant, "wall"),
                "Rams and Elephants",
            ),
            (
                {
                    let mut a = args("legionaries", How::SetOnFire, "tower");
                    a.sections = Some(4);
                    a.material = MaterialArg::Stone;
                    a
                },
                "T&F IV Structures",
            ),
            (
                {
                    let mut a = args("onager", How::Artillery, "wall");
                    a.wounds = 7;
                    a
                },
                "Razing structures",
            ),
            (
                {
                    let mut a = args("onager", How::Artillery, "wall");
                    a.wounds = 1_000;
                    a
                },
                "at most",
            ),
            (args("onager", How::Artillery, "caltrops"), "T&F IV"),
        ];
        for (a, rule) in cases {
            let Err(e) = run_structure(&a) else {
                panic!("{a:?} was accepted");
            };
            assert!(e.to_string().contains(rule), "{a:?}: {e}");
        }
    }
}

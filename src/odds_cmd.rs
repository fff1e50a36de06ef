//! `acies odds [--system ID] ...`: the exact odds of a described fight, with every modifier
//! explained. ONUS! is the default system and its flags are these; the other systems' flags
//! are in [`crate::odds_systems`], chosen by `--system` before the fight's kind.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use onus_combat::{
    CombatEffect, CombatKind, Contact, Fighter, FlightPolicy, MeleeSetup, Range, RangedSetup,
    RuleOptions, Side,
};
use onus_model::data::Catalog;
use onus_odds::{Method, Odds, SideOdds};

use crate::unit_spec::{UnitSpec, parse_unit_spec};

/// `acies odds`: the system, then that system's own arguments.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The rule system: onus (the default), command-points, morale-clock or othw. Comes before the
    /// kind of fight: `acies odds --system command-points combat --attack 6 --defence 4`.
    #[arg(long, value_name = "ID", default_value = "onus")]
    pub system: String,
    /// The kind of fight and its arguments, as the system reads them (`melee --help`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "FIGHT ARGS"
    )]
    pub fight: Vec<String>,
}

/// ONUS!'s fights.
#[derive(Parser, Debug)]
#[command(name = "acies odds")]
struct OnusOdds {
    #[command(subcommand)]
    command: OddsCommand,
}

/// Dispatches to the system's odds.
pub fn run_system(args: &OddsArgs) -> Result<String> {
    match args.system.as_str() {
        "onus" => {
            let words = std::iter::once("odds").chain(args.fight.iter().map(String::as_str));
            run(&OnusOdds::try_parse_from(words)?.command)
        }
        "command-points" => crate::odds_systems::command_points(&args.fight),
        "morale-clock" => crate::odds_systems::morale_clock(&args.fight),
        "othw" => crate::odds_othw::othw(&args.fight),
        other => bail!(
            "unknown system `{other}` (known: {})",
            crate::systems::IDS.join(", ")
        ),
    }
}

#[derive(Subcommand, Debug)]
pub enum OddsCommand {
    /// A melee: both units roll the same number of dice (VII-5).
    Melee(MeleeArgs),
    /// A ranged attack: 4 dice at short range, 2 at long range (VII-3).
    Ranged(RangedArgs),
    /// An attack on a structure: artillery, incendiary shots, setting wood on fire, rams,
    /// elephants (T&F V).
    Structure(crate::odds_structure::StructureArgs),
}

/// Which unit of a melee stands higher (T&F II "Melee from different heights").
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HigherSide {
    Attacker,
    Defender,
}

/// Why it stands higher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HeightArg {
    /// On a hill's top against a unit on its hillside or off the hill (T&F III "Hills").
    #[default]
    HillTop,
    /// On the bank, facing a unit coming out of a ford (T&F III "Fords").
    FordBank,
    /// On top of a wall against the unit climbing it: +1/+1 and attack priority, the wall's
    /// +2/+0 (T&F IV "Walls"; V "Assaulting fortresses").
    WallTop,
    /// Holding a tower against the unit climbing it: +1/+1 and attack priority, the tower's
    /// +2/+0 (T&F IV "Towers"; V "Assaulting fortresses").
    TowerTop,
    /// In a siege tower against the unit on a wall: +1/+1 and attack priority; the wall's
    /// +2/+0 to the other (T&F IV "Siege towers").
    SiegeTower,
}

/// Which of a unit's sides the enemy's front sections reach (X: flank -1, rear -2, both -3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AttackedSide {
    #[default]
    Front,
    Flank,
    Rear,
    #[value(name = "flank+rear", alias = "flank-rear")]
    FlankRear,
}

impl AttackedSide {
    fn contact(self) -> Contact {
        match self {
            AttackedSide::Front => Contact::default(),
            AttackedSide::Flank => Contact {
                flank: true,
                rear: false,
            },
            AttackedSide::Rear => Contact {
                flank: false,
                rear: true,
            },
            AttackedSide::FlankRear => Contact {
                flank: true,
                rear: true,
            },
        }
    }
}

/// Voluntary flight (VII-5): whether the owner flees by choice after taking a wound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Flee {
    #[default]
    Never,
    Wounded,
}

impl Flee {
    fn policy(self) -> FlightPolicy {
        match self {
            Flee::Never => FlightPolicy::Never,
            Flee::Wounded => FlightPolicy::WhenWounded,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RangeArg {
    Short,
    Long,
}

/// Optional rules of XII-A that change a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OptionalRule {
    IntimidatingDromedaries,
    ReinforcedUnits,
    ProtectedFlanks,
}

/// What both kinds of fight share.
#[derive(Args, Debug)]
pub struct CommonArgs {
    /// The active player's unit: a catalog id (`romans/legionaries`, or `legionaries` when
    /// unique) optionally followed by markers (`'legionaries wounds=2 broken hero'`), or an
    /// inline card (`'attack=4/4 defense=5/7 morale=8 health=8 abilities=professionals'`).
    /// Markers: wounds=N broken fleeing marching hero no-officer veteran elite
    /// formation=NAME extended=left|right|both.
    #[arg(long)]
    pub attacker: String,
    /// The other unit, in the same form.
    #[arg(long)]
    pub defender: String,
    /// Which side of the defender is attacked (X, VII-3 "Modifiers for flank and rear attacks").
    #[arg(long, value_enum, default_value_t)]
    pub side: AttackedSide,
    /// General attached to the attacker's unit (catalog id), with its modifiers (IV).
    #[arg(long, value_name = "GENERAL")]
    pub attacker_general: Option<String>,
    /// General attached to the defender's unit (catalog id).
    #[arg(long, value_name = "GENERAL")]
    pub defender_general: Option<String>,
    /// The attacker is within a friendly general's area of influence (+1 morale, X).
    #[arg(long)]
    pub attacker_in_area: bool,
    /// The defender is within a friendly general's area of influence (+1 morale, X).
    #[arg(long)]
    pub defender_in_area: bool,
    /// The attacker's army general is fleeing, wounded or dead (-1 morale, IV).
    #[arg(long)]
    pub attacker_general_lost: bool,
    /// The defender's army general is fleeing, wounded or dead (-1 morale, IV).
    #[arg(long)]
    pub defender_general_lost: bool,
    /// The attacker's owner flees voluntarily after taking a wound (VII-5 "Voluntary flight").
    #[arg(long, value_enum, default_value_t)]
    pub attacker_flee: Flee,
    /// The defender's owner flees voluntarily after taking a wound.
    #[arg(long, value_enum, default_value_t)]
    pub defender_flee: Flee,
    /// Optional rules in force (XII-A), comma-separated.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub options: Vec<OptionalRule>,
    /// Protected flanks of the attacker (0-2; needs --options protected-flanks).
    #[arg(long, default_value_t = 0)]
    pub attacker_protected_flanks: u32,
    /// Protected flanks of the defender (0-2; needs --options protected-flanks).
    #[arg(long, default_value_t = 0)]
    pub defender_protected_flanks: u32,
    /// An event effect as JSON, e.g.
    /// '{"effect":"modify","side":"defender","stat":"morale","delta":2,"source":"Resist"}'
    /// (repeatable; see onus_combat::CombatEffect).
    #[arg(long = "effect", value_name = "JSON")]
    pub effects: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// The attacker's card has its centre in a forest (+1/+1 defence, T&F III "Forest").
    #[arg(long)]
    pub attacker_in_forest: bool,
    /// The defender's card has its centre in a forest.
    #[arg(long)]
    pub defender_in_forest: bool,
}

/// How the odds are computed and shown, and the data they read: every ONUS! fight's.
#[derive(Args, Debug, Default)]
pub struct OutputArgs {
    /// Monte Carlo with this many samples instead of exact enumeration.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// Seed of the Monte Carlo sampler.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// A directory of data files replacing the built-in starter data (see data/onus/README.md).
    #[arg(long, value_name = "DIR")]
    pub data: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct MeleeArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Dice each side rolls: the attacker's front sections in contact (VII-5 "Dice").
    #[arg(long)]
    pub dice: u32,
    /// The attacker charged this turn (arrowhead, diamond, lunge, throw javelins).
    #[arg(long)]
    pub charge: bool,
    /// Which side of the attacker the defender's front sections reach.
    #[arg(long, value_enum, default_value_t)]
    pub attacker_side: AttackedSide,
    /// Other units of the attacker's army engaged with the defender (X "Allies in combat").
    #[arg(long, default_value_t = 0)]
    pub allies: u32,
    /// Other units of the defender's army engaged with the attacker.
    #[arg(long, default_value_t = 0)]
    pub defender_allies: u32,
    /// No front section of the attacker is in contact with an enemy (phalanx has no effect).
    #[arg(long)]
    pub attacker_front_free: bool,
    /// No front section of the defender is in contact with an enemy (phalanx has no effect).
    #[arg(long)]
    pub defender_front_free: bool,
    /// The unit standing higher (+1/+1 and attack priority, T&F II); why: --height.
    #[arg(long, value_enum)]
    pub higher: Option<HigherSide>,
    /// Why --higher stands higher.
    #[arg(long, value_enum, default_value_t)]
    pub height: HeightArg,
    /// The attacker is crossing a ford: it loses Lunge (T&F III "Fords").
    #[arg(long)]
    pub attacker_wading: bool,
    /// With --height wall-top|tower-top: the climber has enveloped the unit on top (or also
    /// faces a breach), which loses the structure's bonus, the +1/+1 and attack priority
    /// (T&F IV "Walls", the Triarii's example; V "Razing structures").
    #[arg(long)]
    pub enveloped: bool,
    /// The defender holds a tower attacked from inside its fortress: no bonus, attack
    /// priority (T&F IV "Towers"; V "Assaulting fortresses").
    #[arg(long)]
    pub tower_from_inside: bool,
    /// The unit defending its fortress: +1 morale (T&F V "Assaulting fortresses").
    #[arg(long, value_enum)]
    pub fortress_defender: Option<HigherSide>,
}

#[derive(Args, Debug)]
pub struct RangedArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Short (4 dice) or long (2 dice) range (VII-3). Give this or --distance.
    #[arg(long, value_enum)]
    pub range: Option<RangeArg>,
    /// Distance in DU to the target; short range is half the shooter's range or less.
    #[arg(long, value_name = "DU")]
    pub distance: Option<f64>,
    /// Line of sight blocked by a unit in between (-1/-1, VII-3).
    #[arg(long)]
    pub blocked: bool,
    /// The shooter moved this turn (no accuracy bonus, IX).
    #[arg(long)]
    pub moved: bool,
    /// The target is hidden by the fog of war (-1/-1, XII-A).
    #[arg(long)]
    pub hidden: bool,
    /// The shooter stands higher than the target: +1 power, short range 1 DU farther (T&F
    /// II "Ranged attacks from different heights").
    #[arg(long)]
    pub from_above: bool,
    /// Terrain covering the target on every sight line, named (-1; T&F II "Ranged attacks
    /// and line of sight").
    #[arg(long, value_name = "PIECE")]
    pub cover: Option<String>,
}

pub fn run(cmd: &OddsCommand) -> Result<String> {
    match cmd {
        OddsCommand::Melee(args) => run_melee(args),
        OddsCommand::Ranged(args) => run_ranged(args),
        OddsCommand::Structure(args) => crate::odds_structure::run_structure(args),
    }
}

/// The catalog to look units up in: the user's directory, or the built-in starter data
/// (parsed once per process).
pub(crate) fn load_catalog(
    data: Option<&std::path::Path>,
) -> Result<std::borrow::Cow<'static, Catalog>> {
    static BUILTIN: std::sync::OnceLock<Result<Catalog, String>> = std::sync::OnceLock::new();
    match data {
        Some(dir) => Catalog::load_dir(dir)
            .map(std::borrow::Cow::Owned)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("loading data from {}", dir.display())),
        None => match BUILTIN.get_or_init(|| Catalog::builtin().map_err(|e| e.to_string())) {
            Ok(c) => Ok(std::borrow::Cow::Borrowed(c)),
            Err(e) => bail!("built-in data: {e}"),
        },
    }
}

struct Prepared {
    attacker: Fighter,
    defender: Fighter,
    options: RuleOptions,
    effects: Vec<CombatEffect>,
}

fn prepare(common: &CommonArgs) -> Result<Prepared> {
    let catalog = load_catalog(common.output.data.as_deref())?;
    let lookup = |id: &str| catalog.unit(id).cloned().map_err(|e| e.to_string());
    let spec = |text: &str, role: &str| -> Result<UnitSpec> {
        parse_unit_spec(text, lookup).map_err(|e| anyhow::anyhow!("--{role}: {e}"))
    };
    let a = spec(&common.attacker, "attacker")?;
    let d = spec(&common.defender, "defender")?;
    let mut attacker = Fighter::new(a.card).with_state(a.state);
    let mut defender = Fighter::new(d.card).with_state(d.state);
    if let Some(id) = &common.attacker_general {
        let g = catalog
            .general(id)
            .map_err(|e| anyhow::anyhow!("--attacker-general: {e}"))?;
        attacker = attacker.general(g.clone());
    }
    if let Some(id) = &common.defender_general {
        let g = catalog
            .general(id)
            .map_err(|e| anyhow::anyhow!("--defender-general: {e}"))?;
        defender = defender.general(g.clone());
    }
    attacker.in_general_area = common.attacker_in_area;
    defender.in_general_area = common.defender_in_area;
    attacker.army_general_lost = common.attacker_general_lost;
    defender.army_general_lost = common.defender_general_lost;
    defender.attacked_from = common.side.contact();
    let mut options = RuleOptions::default();
    for o in &common.options {
        match o {
            OptionalRule::IntimidatingDromedaries => options.intimidating_dromedaries = true,
            OptionalRule::ReinforcedUnits => options.reinforced_units = true,
            OptionalRule::ProtectedFlanks => options.protected_flanks = true,
        }
    }
    for (n, flag) in [
        (
            common.attacker_protected_flanks,
            "--attacker-protected-flanks",
        ),
        (
            common.defender_protected_flanks,
            "--defender-protected-flanks",
        ),
    ] {
        if n > 2 {
            bail!("{flag}: a unit has at most 2 flanks");
        }
        if n > 0 && !options.protected_flanks {
            bail!("{flag} needs the optional rule: add --options protected-flanks");
        }
    }
    attacker.protected_flanks = common.attacker_protected_flanks;
    defender.protected_flanks = common.defender_protected_flanks;
    let effects = common
        .effects
        .iter()
        .map(|json| {
            serde_json::from_str::<CombatEffect>(json)
                .with_context(|| format!("--effect {json}: not a combat effect"))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Prepared {
        attacker,
        defender,
        options,
        effects,
    })
}

fn run_melee(args: &MeleeArgs) -> Result<String> {
    let common = &args.common;
    let Prepared {
        mut attacker,
        mut defender,
        options,
        effects,
    } = prepare(common)?;
    attacker.charged = args.charge;
    attacker.attacked_from = args.attacker_side.contact();
    defender.other_enemies = args.allies;
    attacker.other_enemies = args.defender_allies;
    attacker.front_in_contact = !args.attacker_front_free;
    defender.front_in_contact = !args.defender_front_free;
    if args.attacker_wading {
        onus_game::terrain::wade(&mut attacker);
    }
    let mut ground = onus_game::terrain::FightGround {
        attacker_in_forest: common.attacker_in_forest,
        defender_in_forest: common.defender_in_forest,
        ..Default::default()
    };
    fortress_ground(args, &mut ground)?;
    let title = format!(
        "Melee: {} (attacker) vs {} (defender), {} dice each",
        attacker.card.name, defender.card.name, args.dice
    );
    let mut setup = MeleeSetup::new(attacker, defender, args.dice)
        .options(options)
        .policy(Side::Attacker, common.attacker_flee.policy())
        .policy(Side::Defender, common.defender_flee.policy());
    setup.effects = effects;
    let terrain = ground.effects(&setup.attacker, &setup.defender);
    setup.effects.extend(terrain);
    let odds = match common.output.sample {
        Some(n) => onus_odds::sample_melee(&setup, n, common.output.seed),
        None => onus_odds::melee_odds(&setup),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    output(&odds, &title, common.output.json, true)
}

impl HigherSide {
    fn side(self) -> Side {
        match self {
            HigherSide::Attacker => Side::Attacker,
            HigherSide::Defender => Side::Defender,
        }
    }
}

/// The ground of a melee told by `--higher`, `--height` and the fortress's options, with the
/// game's own effects (`onus_game::assault::top_effects`, `siege_engines::siege_tower_effects`,
/// `towers::tower_defence`, `towers::fortress_morale_of`: what the game's fight at a wall or
/// tower adds, never restated here). A stone wall and a stone tower.
fn fortress_ground(args: &MeleeArgs, ground: &mut onus_game::terrain::FightGround) -> Result<()> {
    use onus_terrain::{Material, StructureKind};
    let fortress = matches!(
        args.height,
        HeightArg::WallTop | HeightArg::TowerTop | HeightArg::SiegeTower
    );
    if fortress && args.higher.is_none() {
        bail!(
            "--height wall-top|tower-top|siege-tower: give --higher attacker|defender (the unit on top, or in the siege tower)"
        );
    }
    if args.enveloped && !matches!(args.height, HeightArg::WallTop | HeightArg::TowerTop) {
        bail!("--enveloped is for --height wall-top|tower-top (T&F IV Walls)");
    }
    if args.tower_from_inside && (args.higher.is_some() || args.enveloped) {
        bail!(
            "--tower-from-inside: the attacker comes from inside the fortress, with no climb (T&F V Assaulting fortresses): no --higher, no --enveloped"
        );
    }
    if let Some(h) = args.higher {
        let side = h.side();
        match args.height {
            HeightArg::HillTop => ground.higher = Some((side, onus_table::Height::HillTop)),
            HeightArg::FordBank => ground.higher = Some((side, onus_table::Height::FordBank)),
            HeightArg::WallTop | HeightArg::TowerTop => {
                let kind = if args.height == HeightArg::WallTop {
                    StructureKind::Wall
                } else {
                    StructureKind::Tower
                };
                // Enveloped from the top, the unit there defends no top (the game's
                // `assault::melee_effects`).
                if !args.enveloped {
                    let name = format!("the {kind}");
                    ground.assault =
                        onus_game::assault::top_effects(side, kind, Material::Stone, &name);
                }
                // The tower's +2/+0 to the unit in it when it is the fight's defender, as
                // the game's `towers::defence` gives it (enveloped or not).
                if kind == StructureKind::Tower && side == Side::Defender {
                    ground.tower = onus_game::towers::tower_defence(
                        StructureKind::Tower,
                        Material::Stone,
                        "besieged".into(),
                        false,
                        true,
                    );
                }
            }
            HeightArg::SiegeTower => {
                ground.assault = onus_game::siege_engines::siege_tower_effects(
                    side,
                    "of the assault",
                    StructureKind::Wall,
                    Material::Stone,
                    "the wall",
                );
            }
        }
    }
    if args.tower_from_inside {
        ground.tower = onus_game::towers::tower_defence(
            StructureKind::Tower,
            Material::Stone,
            "besieged".into(),
            true,
            true,
        );
    }
    if let Some(f) = args.fortress_defender {
        ground.fortress_morale = vec![onus_game::towers::fortress_morale_of(
            f.side(),
            "under assault",
        )];
    }
    Ok(())
}

fn run_ranged(args: &RangedArgs) -> Result<String> {
    let common = &args.common;
    let Prepared {
        mut attacker,
        mut defender,
        options,
        effects,
    } = prepare(common)?;
    let Some(ranged) = attacker.card.ranged.filter(|r| r.power > 0) else {
        bail!(
            "--attacker: {} has no ranged attack (give ranged=POWER/RANGE in an inline card)",
            attacker.card.name
        );
    };
    let range = match (args.range, args.distance) {
        (Some(_), Some(_)) => bail!("give --range or --distance, not both"),
        (Some(RangeArg::Short), None) => Range::Short,
        (Some(RangeArg::Long), None) => Range::Long,
        (None, Some(d)) => {
            if !d.is_finite() || d < 0.0 {
                bail!("--distance must be a distance in DU >= 0");
            }
            match onus_table::RangeBand::of_shot(d, ranged.range, args.from_above) {
                None => bail!(
                    "the target is out of range: {d} DU > {} DU (VII-3 \"Range\")",
                    ranged.range
                ),
                Some(onus_table::RangeBand::Short) => Range::Short,
                Some(onus_table::RangeBand::Long) => Range::Long,
            }
        }
        (None, None) => bail!("give --range short|long or --distance DU"),
    };
    attacker.los_blocked = args.blocked;
    attacker.moved = args.moved;
    defender.hidden = args.hidden;
    let title = format!(
        "Ranged attack: {} shoots {} at {} range ({} dice)",
        attacker.card.name,
        defender.card.name,
        match range {
            Range::Short => "short",
            Range::Long => "long",
        },
        range.dice()
    );
    let ground = onus_game::terrain::FightGround {
        from_above: args.from_above,
        cover: args.cover.clone(),
        attacker_in_forest: common.attacker_in_forest,
        defender_in_forest: common.defender_in_forest,
        ..Default::default()
    };
    let mut setup = RangedSetup::new(attacker, defender, range).options(options);
    setup.target_policy = common.defender_flee.policy();
    setup.effects = effects;
    let terrain = ground.effects(&setup.shooter, &setup.target);
    setup.effects.extend(terrain);
    let odds = match common.output.sample {
        Some(n) => onus_odds::sample_ranged(&setup, n, common.output.seed),
        None => onus_odds::ranged_odds(&setup),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    output(&odds, &title, common.output.json, false)
}

fn output(odds: &Odds, title: &str, json: bool, melee: bool) -> Result<String> {
    if json {
        return Ok(serde_json::to_string_pretty(odds)? + "\n");
    }
    Ok(render(odds, title, melee))
}

fn pct(p: f64) -> String {
    format!("{:6.2}%", p * 100.0)
}

fn render(odds: &Odds, title: &str, melee: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let kind = match odds.kind {
        CombatKind::Simultaneous => "simultaneous".to_string(),
        CombatKind::Priority(side) => {
            format!("attack priority: the {} strikes first", side.as_str())
        }
        CombatKind::Single(side) => format!("single attack by the {}", side.as_str()),
        CombatKind::Ranged => "ranged: only the shooter rolls".to_string(),
        CombatKind::Cancelled => "cancelled by an event".to_string(),
    };
    let _ = writeln!(out, "Combat: {kind}");
    for reason in &odds.kind_reasons {
        let _ = writeln!(out, "  - {reason}");
    }
    let _ = match odds.method {
        Method::Exact { outcomes } => {
            writeln!(out, "Method: exact ({outcomes} outcomes enumerated)")
        }
        Method::Sampled { samples, seed } => {
            writeln!(out, "Method: Monte Carlo ({samples} samples, seed {seed})")
        }
    };
    for (label, side) in [("Attacker", &odds.attacker), ("Defender", &odds.defender)] {
        let _ = writeln!(out, "\n{label}");
        if let Some(n) = side.needs {
            let _ = writeln!(
                out,
                "  rolls {} dice: needs {}+ to hit, then {}+ to damage (6 always succeeds, 1 always fails)",
                n.dice, n.hit, n.damage
            );
        }
        for v in &side.values {
            let _ = writeln!(out, "  {v}");
        }
    }
    let rows = odds
        .attacker
        .wounds_taken
        .len()
        .max(odds.defender.wounds_taken.len());
    let _ = writeln!(out, "\nWounds taken in this fight  attacker   defender");
    for k in 0..rows {
        let get = |s: &SideOdds| s.wounds_taken.get(k).copied().unwrap_or(0.0);
        let _ = writeln!(
            out,
            "  {k:>2}                        {}   {}",
            pct(get(&odds.attacker)),
            pct(get(&odds.defender))
        );
    }
    let _ = writeln!(
        out,
        "  expected                  {:7.3}   {:7.3}",
        odds.attacker.expected_wounds, odds.defender.expected_wounds
    );
    let _ = writeln!(out, "\nFinal state                 attacker   defender");
    for (name, f) in [
        (
            "eliminated",
            (|s: &SideOdds| s.states.eliminated) as fn(&SideOdds) -> f64,
        ),
        ("fleeing", |s: &SideOdds| s.states.fleeing),
        ("broken", |s: &SideOdds| s.states.broken),
        ("unbroken", |s: &SideOdds| s.states.unbroken),
    ] {
        let _ = writeln!(
            out,
            "  {name:<24}  {}   {}",
            pct(f(&odds.attacker)),
            pct(f(&odds.defender))
        );
    }
    let sides: &[(&str, &SideOdds)] = if melee {
        &[("attacker", &odds.attacker), ("defender", &odds.defender)]
    } else {
        &[("defender", &odds.defender)]
    };
    for (name, side) in sides {
        let _ = writeln!(out, "\nWounds taken by the {name}");
        let _ = write!(out, "{}", histogram(&side.wounds_taken));
    }
    out
}

/// A text histogram, one bar per wound count, 40 characters for the most likely count.
fn histogram(p: &[f64]) -> String {
    let max = p.iter().copied().fold(0.0_f64, f64::max);
    let mut out = String::new();
    for (k, &x) in p.iter().enumerate() {
        let width = if max > 0.0 {
            (x / max * 40.0).round() as usize
        } else {
            0
        };
        let _ = writeln!(
            out,
            "  {k:>2} | {:<40} {}",
            "#".repeat(width),
            pct(x).trim()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Odds {
        #[command(subcommand)]
        cmd: OddsCommand,
    }

    /// `acies odds melee` of Legionaries (hit 4, damage 4, dodge 5, armor 7) against Gallic
    /// Warriors (hit 4, damage 3, dodge 3, armor 4), 4 dice, with `extra`: the JSON answer.
    fn melee(extra: &[&str]) -> serde_json::Value {
        let text = run(&parse(&[extra, &["--json"]].concat())).unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    fn parse(extra: &[&str]) -> OddsCommand {
        let mut args = vec![
            "odds",
            "melee",
            "--attacker",
            "romans/legionaries",
            "--defender",
            "celts/warriors",
            "--dice",
            "4",
        ];
        args.extend_from_slice(extra);
        Odds::try_parse_from(args)
            .unwrap_or_else(|e| panic!("{e}"))
            .cmd
    }

    fn refused(extra: &[&str]) -> String {
        match run(&parse(extra)) {
            Ok(out) => panic!("{extra:?} accepted: {out}"),
            Err(e) => e.to_string(),
        }
    }

    /// `side`'s hit, damage, dodge, armor and morale after the modifiers.
    fn values(j: &serde_json::Value, side: &str) -> [i64; 5] {
        let total = |name: &str| {
            j[side]["values"]
                .as_array()
                .and_then(|vs| vs.iter().find(|v| v["name"] == name))
                .map_or(-99, |v| {
                    let base = v["base"].as_i64().unwrap_or(0);
                    let mods: i64 = v["modifiers"]
                        .as_array()
                        .map_or(0, |m| m.iter().filter_map(|m| m["delta"].as_i64()).sum());
                    base + mods
                })
        };
        ["hit", "damage", "dodge", "armor", "morale"].map(total)
    }

    const LEGIONARIES: [i64; 5] = [4, 4, 5, 7, 8];
    const WARRIORS: [i64; 5] = [4, 3, 3, 4, 6];

    /// T&F IV "Walls": "Defending on top of the wall against an attacker climbing it gives a
    /// +1/+1 bonus and attack priority to the defender", with the wall's +2/+0 (the
    /// Summary's "Straight Section ... +2/+0"; ruling in docs/rulings.md); V "Assaulting
    /// fortresses": "All units defending the fortress will get a +1 morale bonus".
    #[test]
    fn tf_iv_walls_the_defender_on_top_against_its_climber() {
        let j = melee(&[
            "--higher",
            "defender",
            "--height",
            "wall-top",
            "--fortress-defender",
            "defender",
        ]);
        assert_eq!(values(&j, "defender"), [5, 4, 5, 4, 7]);
        assert_eq!(values(&j, "attacker"), LEGIONARIES);
        assert_eq!(j["kind"]["priority"], "defender", "{}", j["kind"]);
        assert!(j.to_string().contains("T&F IV Walls"));
        // Its own turn, the unit on top strikes its climber with the same.
        let own = melee(&["--higher", "attacker", "--height", "wall-top"]);
        assert_eq!(values(&own, "attacker"), [5, 5, 7, 7, 8]);
        assert_eq!(own["kind"]["priority"], "attacker", "{}", own["kind"]);
    }

    /// T&F IV "Walls", the Triarii's example: enveloped by its climber, the unit on top "will
    /// lose the +2/+0 defense bonus granted by the wall, the attack priority" (ruling: the
    /// +1/+1 goes with them): the plain fight's odds.
    #[test]
    fn tf_iv_walls_enveloped_from_the_top_the_defender_loses_its_bonuses() {
        let j = melee(&[
            "--higher",
            "defender",
            "--height",
            "wall-top",
            "--enveloped",
        ]);
        assert_eq!(values(&j, "defender"), WARRIORS);
        let plain = melee(&[]);
        assert_eq!(
            j["defender"]["wounds_taken"],
            plain["defender"]["wounds_taken"]
        );
        assert!(refused(&["--enveloped"]).contains("T&F IV Walls"));
    }

    /// T&F IV "Towers": "grant a defense bonus of +2/+0 to defenders, except if the assault
    /// comes from within the fortress"; V "Assaulting fortresses": at the top of its climb
    /// the climber meets +1/+1 and attack priority; from inside the fortress "the attacker
    /// does not need to climb, but the defender has attack priority".
    #[test]
    fn tf_iv_towers_the_defender_at_the_top_and_from_inside() {
        let top = melee(&["--higher", "defender", "--height", "tower-top"]);
        assert_eq!(values(&top, "defender"), [5, 4, 5, 4, 6]);
        assert_eq!(top["kind"]["priority"], "defender");
        // Enveloped, the tower's +2/+0 stays (the game's `towers::defence`), the top's goes.
        let wrapped = melee(&[
            "--higher",
            "defender",
            "--height",
            "tower-top",
            "--enveloped",
        ]);
        assert_eq!(values(&wrapped, "defender"), [4, 3, 5, 4, 6]);
        let inside = melee(&["--tower-from-inside"]);
        assert_eq!(values(&inside, "defender"), WARRIORS);
        assert_eq!(inside["kind"]["priority"], "defender", "{}", inside["kind"]);
        assert!(refused(&["--tower-from-inside", "--higher", "defender"]).contains("T&F V"));
    }

    /// T&F IV "Siege towers", "Melee": the unit in the siege tower attacks the unit on the
    /// wall from a higher position (+1/+1, attack priority), which keeps the wall's +2/+0.
    #[test]
    fn tf_iv_siege_towers_the_attack_from_the_siege_tower() {
        let j = melee(&["--higher", "attacker", "--height", "siege-tower"]);
        assert_eq!(values(&j, "attacker"), [5, 5, 5, 7, 8]);
        assert_eq!(values(&j, "defender"), [4, 3, 5, 4, 6]);
        assert_eq!(j["kind"]["priority"], "attacker", "{}", j["kind"]);
        assert!(refused(&["--height", "siege-tower"]).contains("--higher"));
    }
}

//! The sheet's tables as pure functions: one function per table, its doc comment naming the
//! heading. Every cell is pinned by a test in `tests/tables.rs`. The procedures that roll the
//! dice and apply the results are in the modules named after each heading.

use serde::{Deserialize, Serialize};

use command_points_model::{LineKind, PushColumn, Troop};

/// MOVEMENT ACTIVATION "Modifiers": Light Infantry / Infantry Skirmishers +1, Cavalry +2,
/// Light Cavalry +3 (formed infantry 0).
pub fn movement_modifier(troop: Troop, skirmisher: bool) -> i32 {
    match troop {
        Troop::Infantry if skirmisher => 1,
        Troop::Infantry => 0,
        Troop::LightInfantry => 1,
        Troop::Cavalry => 2,
        Troop::LightCavalry => 3,
    }
}

/// MOVEMENT ACTIVATION table: modified roll 1 → 0, 2/3 → 1, 4/5 → 2, 6/7 → 3, 8/9 → 4
/// Movement Points (below 1 counts as 1, above 9 as 9).
pub fn movement_points(modified: i32) -> u8 {
    match modified {
        i32::MIN..=1 => 0,
        2..=3 => 1,
        4..=5 => 2,
        6..=7 => 3,
        _ => 4,
    }
}

/// MOVEMENT ACTIVATION: an unmodified 1 is a failed activation; 1-2 if the army is
/// Fatigued.
pub fn movement_failed(natural: u8, fatigued: bool) -> bool {
    natural == 1 || (fatigued && natural == 2)
}

/// MANOEUVRE TEST: success on a modified roll equal to or above the Manoeuvre Rating; an
/// unmodified 1 always fails and a 6 always succeeds.
pub fn manoeuvre_passes(natural: u8, modified: i32, rating: i32) -> bool {
    match natural {
        1 => false,
        6 => true,
        _ => modified >= rating,
    }
}

/// MANOEUVRE TEST "Modifiers" for the ground: infantry manoeuvring in Rough Terrain -1,
/// cavalry -2.
pub fn rough_manoeuvre_modifier(troop: Troop) -> i32 {
    if troop.is_mounted() { -2 } else { -1 }
}

/// MANOEUVRE TEST "Modifiers": About Face -1.
pub const ABOUT_FACE_MODIFIER: i32 = -1;

/// MANOEUVRE TEST "Manoeuvres": Oblique Advance, Forward Turn 90°, Drifting and About Face
/// 180° cost 2 points; moving forward in Rough Terrain 1 per square.
pub const MANOEUVRE_COST: u8 = 2;
/// MANOEUVRE TEST "Manoeuvres": moving forward in Rough Terrain, per square (also the cost
/// of a square forward on open ground).
pub const ROUGH_FORWARD_COST: u8 = 1;

/// Who rolls and who chooses: the attacker (the shooter) or the defender (the target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Attacker,
    Defender,
}

/// COMBAT ACTIVATION 2): equal ratings, the attacker rolls one die; higher but not double,
/// two dice; double or more, three dice; the player with the higher Combat Rating chooses
/// the result. Returns the number of dice and who chooses (nobody with one die).
pub fn combat_dice(attack: i32, defence: i32) -> (u8, Option<Role>) {
    let (high, low, chooser) = if attack > defence {
        (attack, defence, Role::Attacker)
    } else {
        (defence, attack, Role::Defender)
    };
    if high == low {
        (1, None)
    } else if i64::from(high) >= 2 * i64::from(low) {
        (3, Some(chooser))
    } else {
        (2, Some(chooser))
    }
}

/// SHOOTING ACTIVATION 2): a lower rating rolls one die at -1 per point of difference; equal,
/// one die; higher but not double, two dice; double or more, three; the shooter chooses.
/// Returns the number of dice and the penalty on the result die.
pub fn shooting_dice(ranged: i32, target: i32) -> (u8, i32) {
    if ranged < target {
        (1, target - ranged)
    } else if ranged == target {
        (1, 0)
    } else if i64::from(ranged) >= 2 * i64::from(target) {
        (3, 0)
    } else {
        (2, 0)
    }
}

/// COMBAT ACTIVATION 3): "Defending unit rolls one Defence dice (Cataphracts roll two dice
/// unless \"Repulsed\" result)" — before any bought with Defence Points.
pub fn combat_defence_dice(cataphracts: bool, result: CombatResult) -> u8 {
    if cataphracts && result != CombatResult::Repulsed {
        2
    } else {
        1
    }
}

/// SHOOTING ACTIVATION 3): one Defence die, two if the target is in Cover.
pub fn shooting_defence_dice(cover: bool) -> u8 {
    if cover { 2 } else { 1 }
}

/// COMBAT RESULTS: the result of the chosen combat die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatResult {
    Repulsed,
    Grind,
    Stand,
    PushBack,
    Advance,
    Crunch,
}

impl CombatResult {
    pub const ALL: [CombatResult; 6] = [
        CombatResult::Repulsed,
        CombatResult::Grind,
        CombatResult::Stand,
        CombatResult::PushBack,
        CombatResult::Advance,
        CombatResult::Crunch,
    ];

    /// COMBAT RESULTS table: 1 Repulsed, 2 Grind, 3 Stand, 4 Push Back, 5 Advance, 6 Crunch.
    pub fn of_face(face: u8) -> CombatResult {
        match face {
            0 | 1 => CombatResult::Repulsed,
            2 => CombatResult::Grind,
            3 => CombatResult::Stand,
            4 => CombatResult::PushBack,
            5 => CombatResult::Advance,
            _ => CombatResult::Crunch,
        }
    }

    /// COMBAT RESULTS exceptions: a Grind against a Battle Trained defender becomes a
    /// Repulsed; an Advance against a defender with the Skirmisher characteristic becomes a
    /// Stand.
    pub fn against(self, battle_trained: bool, skirmisher: bool) -> CombatResult {
        match self {
            CombatResult::Grind if battle_trained => CombatResult::Repulsed,
            CombatResult::Advance if skirmisher => CombatResult::Stand,
            other => other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CombatResult::Repulsed => "Repulsed",
            CombatResult::Grind => "Grind",
            CombatResult::Stand => "Stand",
            CombatResult::PushBack => "Push Back",
            CombatResult::Advance => "Advance",
            CombatResult::Crunch => "Crunch",
        }
    }

    /// What the result does, as the COMBAT RESULTS outcome column says it.
    pub fn effects(self) -> ResultEffects {
        let none = ResultEffects::default();
        match self {
            CombatResult::Repulsed => ResultEffects {
                attacker_pushed: true,
                attacker_tests: true,
                reversal: true,
                ..none
            },
            CombatResult::Grind => ResultEffects {
                attacker_pushed: true,
                attacker_tests: true,
                defender_pushed: true,
                defender_tests: true,
                reversal: true,
            },
            CombatResult::Stand => none,
            CombatResult::PushBack => ResultEffects {
                defender_pushed: true,
                ..none
            },
            CombatResult::Advance | CombatResult::Crunch => ResultEffects {
                defender_pushed: true,
                defender_tests: true,
                ..none
            },
        }
    }
}

/// Who a combat result pushes back and tests (COMBAT RESULTS outcome column). Setback
/// cards follow from the push backs of Formed units (SETBACK AND DISASTER CARDS "Formed unit
/// is Pushed Back").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultEffects {
    pub attacker_pushed: bool,
    pub attacker_tests: bool,
    pub defender_pushed: bool,
    pub defender_tests: bool,
    /// Reversal of Fortune for the attacker ("pushed back with Repulsed or Grind result").
    pub reversal: bool,
}

/// SHOOTING RESULTS: the result of the chosen shooting die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShootingResult {
    ShortOfAmmunition,
    NoEffect,
    PushBack,
    TellingShots,
    WitheringShooting,
}

impl ShootingResult {
    pub const ALL: [ShootingResult; 5] = [
        ShootingResult::ShortOfAmmunition,
        ShootingResult::NoEffect,
        ShootingResult::PushBack,
        ShootingResult::TellingShots,
        ShootingResult::WitheringShooting,
    ];

    /// SHOOTING RESULTS table: 1 Short of Ammunition, 2-3 No Effect, 4 Push Back, 5 Telling
    /// Shots, 6 Withering Shooting. The -1 per point of a lower rating applies to the result
    /// (ruling: Short of Ammunition needs an unmodified 1; a modified result below 2 from any
    /// other face is No Effect).
    pub fn of_die(natural: u8, penalty: i32) -> ShootingResult {
        if natural <= 1 {
            return ShootingResult::ShortOfAmmunition;
        }
        match i32::from(natural) - penalty {
            i32::MIN..=3 => ShootingResult::NoEffect,
            4 => ShootingResult::PushBack,
            5 => ShootingResult::TellingShots,
            _ => ShootingResult::WitheringShooting,
        }
    }

    /// SHOOTING RESULTS exception: Telling Shots against a target with the Skirmisher
    /// characteristic becomes No Effect.
    pub fn against(self, skirmisher: bool) -> ShootingResult {
        match self {
            ShootingResult::TellingShots if skirmisher => ShootingResult::NoEffect,
            other => other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ShootingResult::ShortOfAmmunition => "Short of Ammunition",
            ShootingResult::NoEffect => "No Effect",
            ShootingResult::PushBack => "Push Back",
            ShootingResult::TellingShots => "Telling Shots",
            ShootingResult::WitheringShooting => "Withering Shooting",
        }
    }
}

/// SKIRMISH AND RESERVE LINES OUTCOME: a line in combat is removed on 1-4 (infantry or
/// cavalry; a Reserve Line is of infantry, ruling), 1-3 (light chariots), 1-2 (elephants).
pub fn line_removed(line: LineKind, face: u8) -> bool {
    let up_to = match line {
        LineKind::InfantrySkirmish | LineKind::CavalrySkirmish | LineKind::Reserve => 4,
        LineKind::LightChariotSkirmish => 3,
        LineKind::ElephantSkirmish => 2,
    };
    face <= up_to
}

/// The distance column shared by the PUSH BACK and FOLLOW UP tables (the two tables hold the
/// same numbers): formed infantry 1 → none, 2-4 → 1, 5-6 → 2; skirmishers and cavalry 1 → 1,
/// 2-4 → 2, 5-6 → 3 squares.
fn squares(column: PushColumn, face: u8) -> u8 {
    let band = match face {
        0 | 1 => 0,
        2..=4 => 1,
        _ => 2,
    };
    match column {
        PushColumn::FormedInfantry => band,
        PushColumn::Skirmishers | PushColumn::Cavalry => band + 1,
    }
}

/// PUSH BACK table: how many squares a pushed back unit moves.
pub fn push_back_squares(column: PushColumn, face: u8) -> u8 {
    squares(column, face)
}

/// FOLLOW UP table: how many squares a unit following up advances (also the rout move of
/// FAILED DISCIPLINE / FAILED REFORM OUTCOME "Rout").
pub fn follow_up_squares(column: PushColumn, face: u8) -> u8 {
    squares(column, face)
}

/// LOST EAGLES AND CENTURION CASUALTIES: the four events of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EagleEvent {
    RoutedFromCombat,
    RoutedNotFromCombat,
    RetiringFromCombat,
    RetiringNotFromCombat,
}

/// LOST EAGLES AND CENTURION CASUALTIES: what the 2D6 gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EagleResult {
    EagleLost,
    CenturionCasualties,
    NoEffect,
}

/// LOST EAGLES AND CENTURION CASUALTIES table (2D6): routed from combat 2-6 / 7-8 / 9-12;
/// routed not from combat 2-5 / 6-7 / 8-12; retiring from combat 2 / 3-4 / 5-12; retiring
/// not from combat 2 / 3 / 4-12 (Eagle Lost / Centurion Casualties / No Effect).
pub fn lost_eagles(event: EagleEvent, total: u8) -> EagleResult {
    let (eagle, centurions) = match event {
        EagleEvent::RoutedFromCombat => (6, 8),
        EagleEvent::RoutedNotFromCombat => (5, 7),
        EagleEvent::RetiringFromCombat => (2, 4),
        EagleEvent::RetiringNotFromCombat => (2, 3),
    };
    if total <= eagle {
        EagleResult::EagleLost
    } else if total <= centurions {
        EagleResult::CenturionCasualties
    } else {
        EagleResult::NoEffect
    }
}

/// RISK TO GENERALS: what happened to the General's unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralRisk {
    PushedBack,
    Disordered,
    Retiring,
    Routing,
}

/// RISK TO GENERALS 1): injured on 2D6 of 2 (Pushed Back), 2-3 (Disordered), 2-4 (Retiring),
/// 2-5 (Routing).
pub fn general_injured(event: GeneralRisk, total: u8) -> bool {
    let up_to = match event {
        GeneralRisk::PushedBack => 2,
        GeneralRisk::Disordered => 3,
        GeneralRisk::Retiring => 4,
        GeneralRisk::Routing => 5,
    };
    total <= up_to
}

/// RISK TO GENERALS 2): what the injury is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralFate {
    Killed,
    SeriouslyWounded,
    LightlyWounded,
}

impl GeneralFate {
    /// RISK TO GENERALS 2) table (1D6): 1-2 killed, 3-4 seriously wounded, 5-6 lightly
    /// wounded.
    pub fn of_face(face: u8) -> GeneralFate {
        match face {
            0..=2 => GeneralFate::Killed,
            3 | 4 => GeneralFate::SeriouslyWounded,
            _ => GeneralFate::LightlyWounded,
        }
    }

    /// RISK TO GENERALS 2) "Roll 1D6 per Command Point": removed on 1-3 (killed), 1-2
    /// (seriously wounded), 1 (lightly wounded).
    pub fn point_lost(self, face: u8) -> bool {
        let up_to = match self {
            GeneralFate::Killed => 3,
            GeneralFate::SeriouslyWounded => 2,
            GeneralFate::LightlyWounded => 1,
        };
        face <= up_to
    }
}

/// DISCIPLINE TEST / REFORM TEST: how a 2D6 test went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TestOutcome {
    /// Equal to or greater than the Discipline Rating; `natural_twelve` removes one unseen
    /// Setback Card.
    Pass { natural_twelve: bool },
    /// Less than the rating, by `margin`.
    Failure { margin: i32 },
    /// Less than the rating with a double: the Critical Failure Modifier applies.
    CriticalFailure { margin: i32 },
}

impl TestOutcome {
    pub fn passed(self) -> bool {
        matches!(self, TestOutcome::Pass { .. })
    }
}

/// DISCIPLINE TEST and REFORM TEST tables: pass on a modified total equal to or greater than
/// the Discipline Rating; failure below it; critical failure below it with a double.
pub fn discipline_test(faces: [u8; 2], modifier: i32, rating: i32) -> TestOutcome {
    let natural = i32::from(faces[0]) + i32::from(faces[1]);
    let total = natural + modifier;
    if total >= rating {
        TestOutcome::Pass {
            natural_twelve: natural == 12,
        }
    } else if faces[0] == faces[1] {
        TestOutcome::CriticalFailure {
            margin: rating - total,
        }
    } else {
        TestOutcome::Failure {
            margin: rating - total,
        }
    }
}

/// FAILED DISCIPLINE OUTCOME and FAILED REFORM OUTCOME: the three results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailedOutcome {
    Rout,
    Retiring,
    Disordered,
}

impl FailedOutcome {
    /// FAILED DISCIPLINE OUTCOME / FAILED REFORM OUTCOME tables (2D6 modified): 2-4 Rout
    /// (below 2 too), 5-6 Retiring, 7-12 Disordered (above 12 too).
    pub fn of_total(total: i32) -> FailedOutcome {
        match total {
            i32::MIN..=4 => FailedOutcome::Rout,
            5 | 6 => FailedOutcome::Retiring,
            _ => FailedOutcome::Disordered,
        }
    }
}

/// FAILED DISCIPLINE / FAILED REFORM OUTCOME "Modifiers": -1 for each point by which the
/// test failed if a Critical Failure; -2 if the army is Fatigued.
pub fn failed_outcome_modifiers(test: TestOutcome, fatigued: bool) -> Vec<(&'static str, i32)> {
    let mut mods = Vec::new();
    if let TestOutcome::CriticalFailure { margin } = test {
        mods.push(("Critical Failure: -1 per point failed", -margin));
    }
    if fatigued {
        mods.push(("Fatigued army", -2));
    }
    mods
}

/// HOMUNCULUS EST!: what the revealed points do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HomunculusOutcome {
    /// Equal to or higher than the Army Break Point: broken, the battle is lost.
    Broken,
    /// Below the Break Point but at least half: not broken, all units Fatigued, one revealed
    /// card may be discarded, Reversal of Fortune.
    Fatigued,
    /// Below half: not broken, one revealed card may be discarded, Reversal of Fortune.
    Holds,
}

/// HOMUNCULUS EST! outcome table.
pub fn homunculus_outcome(points: u32, break_point: u16) -> HomunculusOutcome {
    let bp = u32::from(break_point);
    if points >= bp {
        HomunculusOutcome::Broken
    } else if 2 * points >= bp {
        HomunculusOutcome::Fatigued
    } else {
        HomunculusOutcome::Holds
    }
}

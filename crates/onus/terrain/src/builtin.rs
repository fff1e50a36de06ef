//! The battlefields that ship with acies (ours, not the publisher's), embedded at build time
//! so the binary works from any directory. A player's own files are read with
//! [`crate::load::parse`].

use crate::battlefield::Battlefield;

macro_rules! file {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../../data/onus/battlefields/", $name)),
        )
    };
}

/// `(file name, text)` of every shipped battlefield.
pub const SOURCES: &[(&str, &str)] = &[
    file!("forest-and-hill.toml"),
    file!("river-crossing.toml"),
    file!("mountain-pass.toml"),
    file!("siege-castellum.toml"),
    file!("fort-and-village.toml"),
    file!("stone-citadel.toml"),
    file!("watchtower-line.toml"),
    file!("hamlet-and-ditches.toml"),
    file!("central-castellum.toml"),
];

/// Every shipped battlefield, parsed. Their files are checked by this crate's tests, so a
/// broken one cannot ship; `Err` names the file and the problem all the same.
pub fn all() -> Result<Vec<Battlefield>, String> {
    SOURCES
        .iter()
        .map(|(name, text)| {
            crate::load::parse(&format!("data/onus/battlefields/{name}"), text)
                .map_err(|e| acies_data::render_all("battlefield", &e))
        })
        .collect()
}

/// The shipped battlefields a game can be played on now: those whose structures, if any, are
/// of kinds the game plays ([`Battlefield::playable`]; T&F IV: siege towers and rams are still
/// to come, and `onus-game` refuses a battlefield with any). What a lobby offers.
pub fn playable() -> Result<Vec<Battlefield>, String> {
    Ok(all()?.into_iter().filter(Battlefield::playable).collect())
}

/// The shipped battlefield `id`.
pub fn get(id: &str) -> Result<Battlefield, String> {
    let all = all()?;
    let ids: Vec<String> = all.iter().map(|b| b.id.clone()).collect();
    all.into_iter().find(|b| b.id == id).ok_or_else(|| {
        format!(
            "no battlefield `{id}`; the shipped ones are {}",
            ids.join(", ")
        )
    })
}

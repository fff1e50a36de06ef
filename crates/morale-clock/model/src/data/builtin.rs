//! The shipped data files, embedded at build time so the binary works from any directory.

macro_rules! file {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../../../data/morale-clock/", $name)),
        )
    };
}

/// `(relative path, text)` of every shipped file.
pub const SOURCES: &[(&str, &str)] = &[
    file!("system.toml"),
    file!("stratagems.toml"),
    file!("armies/republican-romans.toml"),
    file!("armies/gauls.toml"),
    file!("armies/seleucids.toml"),
    file!("scenarios/open-field.toml"),
    file!("scenarios/river-crossing.toml"),
];

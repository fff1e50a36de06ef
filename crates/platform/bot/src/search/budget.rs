//! How much a search player may think: a level (easy, normal, hard) or a think time.

/// The named difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

/// What one decision may spend. Counted in playouts, a decision is reproducible for a given
/// seed; with a think time it depends on the machine's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Playouts shared among the candidate actions (successive halving).
    pub playouts: u32,
    /// Actions played after a candidate before the position is evaluated.
    pub depth: u32,
    /// Candidate actions considered: the policy's choice and the system's others.
    pub width: u32,
    /// When set, playouts until about this many milliseconds have passed, instead of
    /// `playouts` (not reproducible).
    pub think_ms: Option<u32>,
}

/// The shape of one level: how many playouts, how deep, over how many candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub playouts: u32,
    pub depth: u32,
    pub width: u32,
}

/// A system's three levels. A system whose actions are cheap or slow tunes its own (in its
/// bot crate) and maps a level's budget onto them with [`Budget::in_system`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Levels {
    pub easy: Shape,
    pub normal: Shape,
    pub hard: Shape,
}

impl Levels {
    /// The levels of a system that tunes none.
    pub const DEFAULT: Levels = Levels {
        easy: Shape {
            playouts: 8,
            depth: 8,
            width: 3,
        },
        normal: Shape {
            playouts: 24,
            depth: 12,
            width: 4,
        },
        hard: Shape {
            playouts: 64,
            depth: 16,
            width: 6,
        },
    };

    /// The shape of `level`.
    pub fn shape(&self, level: Level) -> Shape {
        match level {
            Level::Easy => self.easy,
            Level::Normal => self.normal,
            Level::Hard => self.hard,
        }
    }

    /// The budget of `level`, in playouts (reproducible).
    pub fn budget(&self, level: Level) -> Budget {
        let Shape {
            playouts,
            depth,
            width,
        } = self.shape(level);
        Budget {
            playouts,
            depth,
            width,
            think_ms: None,
        }
    }
}

impl Budget {
    /// The budget of a level, in playouts (reproducible), before a system tunes it.
    pub fn level(level: Level) -> Budget {
        Levels::DEFAULT.budget(level)
    }

    /// The level this budget is, if it is one of [`Levels::DEFAULT`]'s.
    pub fn named_level(&self) -> Option<Level> {
        [Level::Easy, Level::Normal, Level::Hard]
            .into_iter()
            .find(|l| *self == Budget::level(*l))
    }

    /// This budget in a system whose levels are `levels`: a level's budget becomes that
    /// system's level, a think time takes that system's normal depth and width, and any
    /// other budget stays as it is.
    pub fn in_system(self, levels: &Levels) -> Budget {
        if self.think_ms.is_some() {
            return Budget {
                depth: levels.normal.depth,
                width: levels.normal.width,
                ..self
            };
        }
        match self.named_level() {
            Some(level) => levels.budget(level),
            None => self,
        }
    }

    /// The normal level's shape, thinking for `ms` milliseconds a decision.
    pub fn think(ms: u32) -> Budget {
        Budget {
            think_ms: Some(ms),
            ..Budget::level(Level::Normal)
        }
    }

    /// The budget written after `search:` on the command line: a level or a think time
    /// (`250ms`); a bare `search` is the normal level.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let level = match text {
            "" | "normal" => Level::Normal,
            "easy" => Level::Easy,
            "hard" => Level::Hard,
            other => {
                let ms = other.strip_suffix("ms").and_then(|n| n.parse::<u32>().ok());
                return ms.filter(|ms| *ms > 0).map(Budget::think).ok_or_else(|| {
                    format!("unknown search budget `{other}` (easy, normal, hard or e.g. 100ms)")
                });
            }
        };
        Ok(Budget::level(level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_levels_and_think_times() {
        assert_eq!(Budget::parse("hard"), Ok(Budget::level(Level::Hard)));
        assert_eq!(Budget::parse(""), Ok(Budget::level(Level::Normal)));
        assert_eq!(Budget::parse("80ms").map(|b| b.think_ms), Ok(Some(80)));
        assert!(Budget::parse("0ms").is_err());
        assert!(Budget::parse("fast").is_err());
    }

    #[test]
    fn a_system_maps_the_levels_onto_its_own() {
        let mut levels = Levels::DEFAULT;
        levels.normal.playouts = 40;
        let normal = Budget::level(Level::Normal).in_system(&levels);
        assert_eq!((normal.playouts, normal.depth), (40, 12));
        assert_eq!(
            Budget::level(Level::Hard).in_system(&levels),
            Budget::level(Level::Hard)
        );
        levels.normal.depth = 5;
        assert_eq!(Budget::think(80).in_system(&levels).depth, 5);
        let other = Budget {
            playouts: 3,
            ..Budget::level(Level::Easy)
        };
        assert_eq!(other.in_system(&levels), other);
    }
}

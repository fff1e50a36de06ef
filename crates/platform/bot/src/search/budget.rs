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

impl Budget {
    /// The budget of a level, in playouts (reproducible).
    pub fn level(level: Level) -> Budget {
        let (playouts, depth, width) = match level {
            Level::Easy => (8, 8, 3),
            Level::Normal => (24, 12, 4),
            Level::Hard => (64, 16, 6),
        };
        Budget {
            playouts,
            depth,
            width,
            think_ms: None,
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
}

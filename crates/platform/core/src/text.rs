//! Names that players give and other players see (seat names, army and scenario names), and
//! the short messages of a game's chat.
//!
//! A name travels to every other viewer and is shown in browsers and terminals, so what it
//! may hold is decided once, here, for every rule system and every face: letters, digits,
//! single spaces and a little punctuation. That refuses control characters, the invisible
//! formatting characters that reorder or hide text (U+202E "right-to-left override" makes
//! `exe.txt` read as `txt.exe`), and markup (`<`, `>`, `&`, quotes other than the apostrophe).

use std::fmt;

/// The longest name, in characters, unless a caller asks for less.
pub const MAX_NAME_CHARS: usize = 64;

/// Punctuation a name may hold besides letters, digits and single spaces.
pub const NAME_PUNCTUATION: &str = "-_.,'()!?#+:";

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Empty, or only spaces.
    Empty,
    /// More than the allowed number of characters.
    TooLong { chars: usize, max: usize },
    /// Starts or ends with a space, or has two in a row.
    Spacing,
    /// A character outside letters, digits, space and [`NAME_PUNCTUATION`].
    Character(char),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "a name must not be empty"),
            NameError::TooLong { chars, max } => {
                write!(f, "a name has at most {max} characters, not {chars}")
            }
            NameError::Spacing => write!(
                f,
                "a name neither starts nor ends with a space, nor has two spaces in a row"
            ),
            NameError::Character(c) => write!(
                f,
                "a name holds letters, digits, single spaces and {NAME_PUNCTUATION} only, not {:?} (U+{:04X})",
                c, *c as u32
            ),
        }
    }
}

impl std::error::Error for NameError {}

fn allowed(c: char) -> bool {
    c == ' ' || c.is_alphanumeric() || NAME_PUNCTUATION.contains(c)
}

/// Checks a display name of at most `max_chars` characters (see the module's doc).
pub fn check_name(name: &str, max_chars: usize) -> Result<(), NameError> {
    if name.trim().is_empty() {
        return Err(NameError::Empty);
    }
    // Counting stops past the limit: a long name costs no more than a short one.
    let chars = name.chars().take(max_chars + 1).count();
    if chars > max_chars {
        return Err(NameError::TooLong {
            chars: name.chars().count(),
            max: max_chars,
        });
    }
    if let Some(c) = name.chars().find(|c| !allowed(*c)) {
        return Err(NameError::Character(c));
    }
    if name.starts_with(' ') || name.ends_with(' ') || name.contains("  ") {
        return Err(NameError::Spacing);
    }
    Ok(())
}

/// The longest chat message, in characters, unless a server asks for less.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// Why a chat message is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// Empty, or only white space.
    Empty,
    /// More than the allowed number of characters (once trimmed).
    TooLong { chars: usize, max: usize },
    /// A control character (other than a line break) or an invisible formatting character.
    Character(char),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::Empty => write!(f, "a message must not be empty"),
            MessageError::TooLong { chars, max } => {
                write!(f, "a message has at most {max} characters, not {chars}")
            }
            MessageError::Character(c) => write!(
                f,
                "a message may not hold the control or formatting character U+{:04X}",
                *c as u32
            ),
        }
    }
}

impl std::error::Error for MessageError {}

/// The invisible characters that reorder or hide text (bidirectional overrides and
/// isolates, marks, the byte-order mark). The zero-width joiner U+200D stays: emoji need it.
fn formatting(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{200C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A chat message of at most `max_chars` characters as it is kept and shown: trimmed, line
/// breaks as `\n` (`\r\n` and `\r` become one), at most one empty line in a row. Any
/// other control character and the invisible formatting characters are refused. Markup is
/// not refused: a message is text, and every face shows it as text (never as HTML).
pub fn check_message(text: &str, max_chars: usize) -> Result<String, MessageError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim();
    if text.is_empty() {
        return Err(MessageError::Empty);
    }
    // Counting stops past the limit: a long message costs no more than a short one.
    if text.chars().take(max_chars + 1).count() > max_chars {
        return Err(MessageError::TooLong {
            chars: text.chars().count(),
            max: max_chars,
        });
    }
    if let Some(c) = text
        .chars()
        .find(|&c| (c.is_control() && c != '\n') || formatting(c))
    {
        return Err(MessageError::Character(c));
    }
    let mut kept = String::with_capacity(text.len());
    let mut breaks = 0;
    for c in text.chars() {
        if c == '\n' {
            breaks += 1;
            if breaks > 2 {
                continue;
            }
        } else {
            breaks = 0;
        }
        kept.push(c);
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_pass() {
        for name in [
            "Ann",
            "Hannibal",
            "Trajan's vexillation",
            "Brennus' warband",
            "José Ñúñez",
            "Αλέξανδρος",
            "王",
            "Player 2 (north)",
            "computer",
        ] {
            assert_eq!(check_name(name, MAX_NAME_CHARS), Ok(()), "{name}");
        }
    }

    #[test]
    fn control_formatting_and_markup_are_refused() {
        for (name, c) in [
            ("evil\u{202E}txt.exe", '\u{202E}'),
            ("a\u{200B}b", '\u{200B}'),
            ("a\u{2066}b", '\u{2066}'),
            ("line\nbreak", '\n'),
            ("tab\there", '\t'),
            ("<b>bold</b>", '<'),
            ("Tom & Jerry", '&'),
            ("say \"hi\"", '"'),
            ("`code`", '`'),
            ("bom\u{FEFF}", '\u{FEFF}'),
        ] {
            assert_eq!(
                check_name(name, MAX_NAME_CHARS),
                Err(NameError::Character(c)),
                "{name:?}"
            );
        }
    }

    #[test]
    fn length_and_spacing_are_bounded() {
        assert_eq!(check_name("", 8), Err(NameError::Empty));
        assert_eq!(check_name("   ", 8), Err(NameError::Empty));
        assert_eq!(
            check_name("abcdefghi", 8),
            Err(NameError::TooLong { chars: 9, max: 8 })
        );
        assert_eq!(check_name("ééééééé", 8), Ok(()));
        assert_eq!(check_name(" lead", 8), Err(NameError::Spacing));
        assert_eq!(check_name("trail ", 8), Err(NameError::Spacing));
        assert_eq!(check_name("two  gap", 8), Err(NameError::Spacing));
    }

    #[test]
    fn messages_are_trimmed_and_bounded() {
        assert_eq!(check_message("  gg  ", 500), Ok("gg".to_owned()));
        assert_eq!(
            check_message("<b>not bold</b> & \"quoted\"", 500),
            Ok("<b>not bold</b> & \"quoted\"".to_owned())
        );
        assert_eq!(
            check_message("a\r\nb\rc\n\n\n\n\nd", 500),
            Ok("a\nb\nc\n\nd".to_owned())
        );
        assert_eq!(check_message("Αλέξανδρος 👍🏽 👨‍👩‍👧", 500).map(|_| ()), Ok(()));
        assert_eq!(check_message(" \n\t ", 500), Err(MessageError::Empty));
        assert_eq!(
            check_message(&"é".repeat(501), 500),
            Err(MessageError::TooLong {
                chars: 501,
                max: 500
            })
        );
        assert_eq!(
            check_message(&"é".repeat(500), 500).map(|m| m.chars().count()),
            Ok(500)
        );
        for (text, c) in [
            ("evil\u{202E}txt.exe", '\u{202E}'),
            ("a\u{200B}b", '\u{200B}'),
            ("tab\there", '\t'),
            ("bell\u{7}", '\u{7}'),
            ("bom\u{FEFF}x", '\u{FEFF}'),
        ] {
            assert_eq!(
                check_message(text, 500),
                Err(MessageError::Character(c)),
                "{text:?}"
            );
        }
    }
}

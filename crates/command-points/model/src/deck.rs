//! The Setback and Disaster decks: how many cards of each point value.

use serde::{Deserialize, Serialize};

/// Which deck a card comes from (SETBACK AND DISASTER CARDS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Setback,
    Disaster,
}

impl std::fmt::Display for CardKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CardKind::Setback => "Setback",
            CardKind::Disaster => "Disaster",
        })
    }
}

/// `count` cards worth `value` points each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeckEntry {
    pub value: u8,
    pub count: u8,
}

/// The composition of both decks (ours; the sheet gives none).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deck {
    pub setback: Vec<DeckEntry>,
    pub disaster: Vec<DeckEntry>,
}

impl Deck {
    pub fn entries(&self, kind: CardKind) -> &[DeckEntry] {
        match kind {
            CardKind::Setback => &self.setback,
            CardKind::Disaster => &self.disaster,
        }
    }

    /// Every card's value, in data order (before shuffling).
    pub fn values(&self, kind: CardKind) -> Vec<u8> {
        self.entries(kind)
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.value, usize::from(e.count)))
            .collect()
    }
}

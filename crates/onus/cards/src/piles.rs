//! Where every card is: the draw pile, the discard pile, each player's hand, the cards on the
//! table during a fight, and the cards removed from the game (V, VI "Troop deployment",
//! VII-7 "End of turn").
//!
//! Every card of the deck is in exactly one place, always: `draw + hands + table + discard +
//! removed = deck size` ([`CardPiles::check`]). All randomness (shuffles) comes from the
//! game's [`GameRng`].

use acies_core::GameRng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::deck::CardId;

/// A player (seat) index, from 0.
pub type Player = usize;

/// How the active player draws at the end of the turn (VII-7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnDraw {
    /// The player played at least one order this turn: draw 1.
    OrderPlayed,
    /// No order this turn: discard these cards (possibly none) and draw as many plus 1.
    Discard(Vec<CardId>),
    /// No order this turn: draw 3.
    DrawThree,
}

/// A move the piles refuse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PileError {
    #[error("there is no player {player} (players are 0..{players})")]
    NoSuchPlayer { player: Player, players: usize },
    #[error("card {card} is not in player {player}'s hand")]
    NotInHand { player: Player, card: CardId },
    #[error("card {card} is not in the discard pile")]
    NotInDiscard { card: CardId },
    #[error("card {card} is not part of this deck")]
    UnknownCard { card: CardId },
    #[error("card {card} is listed twice")]
    Repeated { card: CardId },
    #[error(
        "VII-7: a player who played an order this turn draws 1 card; discard-and-draw or draw 3 are for a turn without orders"
    )]
    OrderWasPlayed,
    #[error("VII-7: no order was played this turn; choose to discard and draw +1, or to draw 3")]
    NoOrderPlayed,
    #[error("hand limit (V, VII-7): discard exactly {excess} card(s), not {given}")]
    WrongDiscardCount { excess: usize, given: usize },
    #[error("only {available} card(s) can be looked at, not {wanted}")]
    NotEnoughCards { available: usize, wanted: usize },
    #[error("the new order of the top cards must be a permutation of the cards looked at")]
    NotAPermutation,
}

/// The state of the deck during a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardPiles {
    size: usize,
    /// Face down; the top is the last element.
    draw: Vec<CardId>,
    /// Face up; the top is the last element.
    discard: Vec<CardId>,
    hands: Vec<Vec<CardId>>,
    /// Cards revealed or played in the fight being resolved, discarded by
    /// [`CardPiles::clear_table`].
    table: Vec<CardId>,
    removed: Vec<CardId>,
    /// How many times the draw pile ran out and the discard pile was shuffled into a new one.
    exhaustions: u32,
}

impl CardPiles {
    /// A deck of `size` cards in id order, face down, with `players` empty hands. Call
    /// [`CardPiles::shuffle`] before dealing (or use [`CardPiles::new_shuffled`]).
    pub fn new(size: usize, players: usize) -> Self {
        let draw = (0..size.min(usize::from(u16::MAX) + 1))
            .filter_map(|i| u16::try_from(i).ok().map(CardId))
            .rev()
            .collect::<Vec<_>>();
        CardPiles {
            size: draw.len(),
            draw,
            discard: Vec::new(),
            hands: vec![Vec::new(); players],
            table: Vec::new(),
            removed: Vec::new(),
            exhaustions: 0,
        }
    }

    /// VI "Troop deployment": shuffle the Action card deck.
    pub fn new_shuffled(size: usize, players: usize, rng: &mut GameRng) -> Self {
        let mut p = CardPiles::new(size, players);
        p.shuffle(rng);
        p
    }

    /// Shuffles the draw pile.
    pub fn shuffle(&mut self, rng: &mut GameRng) {
        rng.shuffle(&mut self.draw);
    }

    /// How many cards the deck has in all.
    pub fn size(&self) -> usize {
        self.size
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// The draw pile, bottom first (the top card is the last).
    pub fn draw_pile(&self) -> &[CardId] {
        &self.draw
    }

    /// The discard pile, bottom first.
    pub fn discard_pile(&self) -> &[CardId] {
        &self.discard
    }

    /// The cards on the table in the current fight.
    pub fn table(&self) -> &[CardId] {
        &self.table
    }

    pub fn removed(&self) -> &[CardId] {
        &self.removed
    }

    /// How many times the deck ran out and was rebuilt from the discard pile (VII-7 "End of
    /// the deck": "this could trigger the end of the game in some scenarios").
    pub fn exhaustions(&self) -> u32 {
        self.exhaustions
    }

    /// A player's hand, in the order the cards were received.
    pub fn hand(&self, player: Player) -> Result<&[CardId], PileError> {
        self.hands
            .get(player)
            .map(Vec::as_slice)
            .ok_or(PileError::NoSuchPlayer {
                player,
                players: self.hands.len(),
            })
    }

    /// The piles as `player` may know them (`None`: a spectator): the cards it cannot see,
    /// the draw pile and the other hands, pooled, sorted and dealt back by count, so that
    /// two piles that differ only in what `player` cannot see become equal. Its own hand,
    /// the discard pile, the table and the removed cards stay as they are.
    pub fn as_seen_by(&self, player: Option<Player>) -> CardPiles {
        let mut unknown: Vec<CardId> = self.draw.clone();
        for (p, hand) in self.hands.iter().enumerate() {
            if Some(p) != player {
                unknown.extend_from_slice(hand);
            }
        }
        unknown.sort_unstable();
        let mut rest = unknown.into_iter();
        let hands = self
            .hands
            .iter()
            .enumerate()
            .map(|(p, hand)| {
                if Some(p) == player {
                    hand.clone()
                } else {
                    rest.by_ref().take(hand.len()).collect()
                }
            })
            .collect();
        // Field by field: `..self.clone()` would copy the draw pile and hands only to drop them.
        CardPiles {
            size: self.size,
            draw: rest.collect(),
            discard: self.discard.clone(),
            hands,
            table: self.table.clone(),
            removed: self.removed.clone(),
            exhaustions: self.exhaustions,
        }
    }

    fn hand_mut(&mut self, player: Player) -> Result<&mut Vec<CardId>, PileError> {
        let players = self.hands.len();
        self.hands
            .get_mut(player)
            .ok_or(PileError::NoSuchPlayer { player, players })
    }

    /// Takes the top card of the draw pile. When the draw pile is empty, the discard pile is
    /// shuffled into a new draw pile first (VII-7 "End of the deck"; ruling: when a card is
    /// needed, not as soon as the last one is taken). `None` when both are empty.
    fn take_top(&mut self, rng: &mut GameRng) -> Option<CardId> {
        if self.draw.is_empty() && !self.discard.is_empty() {
            self.draw = std::mem::take(&mut self.discard);
            rng.shuffle(&mut self.draw);
            self.exhaustions += 1;
        }
        self.draw.pop()
    }

    /// Draws up to `n` cards into a player's hand; returns the cards drawn (fewer than `n`
    /// only if the draw and discard piles are both empty).
    pub fn draw(
        &mut self,
        player: Player,
        n: usize,
        rng: &mut GameRng,
    ) -> Result<Vec<CardId>, PileError> {
        self.hand(player)?;
        let mut drawn = Vec::with_capacity(n);
        for _ in 0..n {
            match self.take_top(rng) {
                Some(c) => drawn.push(c),
                None => break,
            }
        }
        self.hand_mut(player)?.extend_from_slice(&drawn);
        Ok(drawn)
    }

    /// VI / V: each player starts with as many cards as the leadership of their General.
    pub fn deal(
        &mut self,
        player: Player,
        leadership: u32,
        rng: &mut GameRng,
    ) -> Result<Vec<CardId>, PileError> {
        self.draw(player, leadership as usize, rng)
    }

    /// Reveals the top card of the draw pile onto the table: a random event (VII-3 step 3,
    /// VII-5 "Events"). `None` if there is no card left anywhere to draw.
    pub fn reveal(&mut self, rng: &mut GameRng) -> Option<CardId> {
        let c = self.take_top(rng)?;
        self.table.push(c);
        Some(c)
    }

    /// Plays a card from hand onto the table (an event in a fight, or an order until its
    /// effect is done).
    pub fn play(&mut self, player: Player, card: CardId) -> Result<(), PileError> {
        self.take_from_hand(player, card)?;
        self.table.push(card);
        Ok(())
    }

    fn take_from_hand(&mut self, player: Player, card: CardId) -> Result<(), PileError> {
        let hand = self.hand_mut(player)?;
        let pos = hand
            .iter()
            .position(|&c| c == card)
            .ok_or(PileError::NotInHand { player, card })?;
        hand.remove(pos);
        Ok(())
    }

    /// Discards a card from hand.
    pub fn discard(&mut self, player: Player, card: CardId) -> Result<(), PileError> {
        self.take_from_hand(player, card)?;
        self.discard.push(card);
        Ok(())
    }

    /// Moves cards from one hand to another (VII-7: players of one team "can give action
    /// cards to each other"). All or nothing: every card must be in the giver's hand, once.
    pub fn give(&mut self, from: Player, to: Player, cards: &[CardId]) -> Result<(), PileError> {
        self.hand(to)?;
        let hand = self.hand(from)?;
        for (i, c) in cards.iter().enumerate() {
            if cards[..i].contains(c) {
                return Err(PileError::Repeated { card: *c });
            }
            if !hand.contains(c) {
                return Err(PileError::NotInHand {
                    player: from,
                    card: *c,
                });
            }
        }
        for &c in cards {
            self.take_from_hand(from, c)?;
            self.hand_mut(to)?.push(c);
        }
        Ok(())
    }

    /// Puts every card on the table on the discard pile (end of a fight), in the order they
    /// were revealed or played.
    pub fn clear_table(&mut self) {
        self.discard.append(&mut self.table);
    }

    /// Takes a chosen card from the discard pile into a hand ("take from discard" orders).
    pub fn take_from_discard(&mut self, player: Player, card: CardId) -> Result<(), PileError> {
        self.hand(player)?;
        let pos = self
            .discard
            .iter()
            .position(|&c| c == card)
            .ok_or(PileError::NotInDiscard { card })?;
        self.discard.remove(pos);
        self.hand_mut(player)?.push(card);
        Ok(())
    }

    /// The top `n` cards of the draw pile, top first, without taking them (the "scouts"
    /// order). Does not reshuffle: with fewer cards left, fewer are shown.
    pub fn peek(&self, n: usize) -> Vec<CardId> {
        self.draw.iter().rev().take(n).copied().collect()
    }

    /// Puts the top cards back in a new order, `new_top_first[0]` on top. The cards must be
    /// exactly the top `new_top_first.len()` cards.
    pub fn reorder_top(&mut self, new_top_first: &[CardId]) -> Result<(), PileError> {
        let n = new_top_first.len();
        if n > self.draw.len() {
            return Err(PileError::NotEnoughCards {
                available: self.draw.len(),
                wanted: n,
            });
        }
        let mut current = self.peek(n);
        let mut wanted = new_top_first.to_vec();
        current.sort_unstable();
        wanted.sort_unstable();
        if current != wanted {
            return Err(PileError::NotAPermutation);
        }
        let keep = self.draw.len() - n;
        self.draw.truncate(keep);
        self.draw.extend(new_top_first.iter().rev());
        Ok(())
    }

    /// Removes a card from the game, wherever it is.
    pub fn remove_from_game(&mut self, card: CardId) -> Result<(), PileError> {
        if card.index() >= self.size {
            return Err(PileError::UnknownCard { card });
        }
        if self.removed.contains(&card) {
            return Ok(());
        }
        let piles = std::iter::once(&mut self.draw)
            .chain(std::iter::once(&mut self.discard))
            .chain(std::iter::once(&mut self.table))
            .chain(self.hands.iter_mut());
        for pile in piles {
            if let Some(pos) = pile.iter().position(|&c| c == card) {
                pile.remove(pos);
                self.removed.push(card);
                return Ok(());
            }
        }
        Err(PileError::UnknownCard { card })
    }

    /// VII-7 "End of the turn": the active player draws 1 card if they played an order;
    /// otherwise they either discard any cards and draw as many plus 1, or draw 3. Returns
    /// the cards drawn. The hand limit is applied afterwards with
    /// [`CardPiles::enforce_hand_limit`].
    pub fn end_of_turn(
        &mut self,
        player: Player,
        played_order: bool,
        choice: &TurnDraw,
        rng: &mut GameRng,
    ) -> Result<Vec<CardId>, PileError> {
        self.hand(player)?;
        match (choice, played_order) {
            (TurnDraw::OrderPlayed, true) => self.draw(player, 1, rng),
            (TurnDraw::OrderPlayed, false) => Err(PileError::NoOrderPlayed),
            (_, true) => Err(PileError::OrderWasPlayed),
            (TurnDraw::DrawThree, false) => self.draw(player, 3, rng),
            (TurnDraw::Discard(cards), false) => {
                self.check_in_hand(player, cards)?;
                for &c in cards {
                    self.discard(player, c)?;
                }
                self.draw(player, cards.len() + 1, rng)
            }
        }
    }

    /// Every card listed is in the hand, once.
    fn check_in_hand(&self, player: Player, cards: &[CardId]) -> Result<(), PileError> {
        let hand = self.hand(player)?;
        for (i, &c) in cards.iter().enumerate() {
            if cards.get(..i).is_some_and(|before| before.contains(&c)) {
                return Err(PileError::Repeated { card: c });
            }
            if !hand.contains(&c) {
                return Err(PileError::NotInHand { player, card: c });
            }
        }
        Ok(())
    }

    /// How many cards a player must discard to respect the hand limit.
    pub fn hand_excess(&self, player: Player, limit: u32) -> Result<usize, PileError> {
        Ok(self.hand(player)?.len().saturating_sub(limit as usize))
    }

    /// V, VII-7: at the end of the turn the hand may not exceed the leadership; the player
    /// chooses which cards to discard, exactly as many as the excess.
    pub fn enforce_hand_limit(
        &mut self,
        player: Player,
        limit: u32,
        discards: &[CardId],
    ) -> Result<(), PileError> {
        let excess = self.hand_excess(player, limit)?;
        if discards.len() != excess {
            return Err(PileError::WrongDiscardCount {
                excess,
                given: discards.len(),
            });
        }
        self.check_in_hand(player, discards)?;
        for &c in discards {
            self.discard(player, c)?;
        }
        Ok(())
    }

    /// Checks that every card of the deck is in exactly one place. `Err` names what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let mut seen = vec![0u8; self.size];
        let all = self
            .draw
            .iter()
            .chain(&self.discard)
            .chain(&self.table)
            .chain(&self.removed)
            .chain(self.hands.iter().flatten());
        let mut total = 0usize;
        for c in all {
            total += 1;
            match seen.get_mut(c.index()) {
                Some(n) => *n = n.saturating_add(1),
                None => return Err(format!("card {c} is not part of a {}-card deck", self.size)),
            }
        }
        if let Some(i) = seen.iter().position(|&n| n != 1) {
            return Err(format!(
                "card #{i} is in {} places ({} cards counted for a {}-card deck)",
                seen.get(i).copied().unwrap_or(0),
                total,
                self.size
            ));
        }
        Ok(())
    }

    /// Cards in the draw pile, hands, table, discard and removed: always the deck size.
    pub fn total(&self) -> usize {
        self.draw.len()
            + self.discard.len()
            + self.table.len()
            + self.removed.len()
            + self.hands.iter().map(Vec::len).sum::<usize>()
    }
}

//! VII-7 "End of turn phase" and XII-B/C (games with 3 to 6 players): players of one team
//! give action cards to each other.
//!
//! The text (VII-7): "If there are several players in one team, they can give action cards
//! to each other. If the number of cards in their hand exceeds the General's leadership
//! value, the player must discard any excess cards." It comes after the draw, so a player
//! gives after drawing and before the hand limit. Rulings: the giver is a player in its own
//! End of Turn phase (with XII-B team turns the team-mates are there together and give to
//! each other; with allied or alternating turns each gives in its own turn); any number of
//! cards, to any team-mate still in the battle; the hand limit is then checked for the giver
//! and for each receiver (a receiver of the same group that has not drawn yet is checked
//! after its own draw).

use onus_cards::CardId;

use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::state::{GameState, Phase, Seat};

const RULE: &str = "VII-7 End of turn phase (giving cards, XII-B)";

/// The team-mates of `seat` still in the battle (XII-B).
pub fn team_mates(state: &GameState, seat: Seat) -> Vec<Seat> {
    state
        .players
        .iter()
        .filter(|p| p.seat != seat && p.defeated.is_none() && state.allies(p.seat, seat))
        .map(|p| p.seat)
        .collect()
}

/// Whether `seat` has drawn at the end of its turn and may give cards now.
pub fn may_give(state: &GameState, seat: Seat) -> bool {
    state.phase == Phase::EndOfTurn && state.book.giving == Some(seat)
}

/// VII-7 / XII-B: `seat` gives `cards` from its hand to the team-mate `to`.
pub fn give_cards(state: &mut GameState, seat: Seat, to: Seat, cards: &[CardId]) -> GameResult<()> {
    if !may_give(state, seat) {
        return Err(GameError::rule(
            RULE,
            "cards are given after the end-of-turn draw, before the turn ends",
        ));
    }
    if to == seat {
        return Err(GameError::rule(
            RULE,
            "give the cards to a team-mate, not to yourself",
        ));
    }
    if !team_mates(state, seat).contains(&to) {
        return Err(GameError::rule(
            RULE,
            format!("{to} is not a team-mate of {seat} still in the battle"),
        ));
    }
    if cards.is_empty() {
        return Err(GameError::rule(RULE, "name at least one card to give"));
    }
    state.piles.give(seat.index(), to.index(), cards)?;
    state.book.given_to.insert(to);
    state.emit(GameEvent::CardsGiven {
        from: seat,
        to,
        count: cards.len(),
        cards: cards.to_vec(),
    });
    Ok(())
}

//! Take-backs (issue 10 item 8): whether a game may be rewound to an earlier state.
//!
//! A game may go back from `later` to `earlier` when rewinding tells no one anything and
//! undoes no die: the random generator did not advance (no roll, no shuffle, no random
//! event: dice forced by tests count too), no unit that was face down was turned, and no card
//! moved into, out of or within the hidden piles (the draw pile and every hand: a card drawn,
//! given, discarded or played from a hand shows what was hidden), and the battle is not over.
//! Moves, turns, charges checked but not fought, deployments and the end of a phase that
//! draws nothing may be taken back.

use crate::state::GameState;

/// Whether the game may be taken back from `later` to `earlier` (see the module).
pub fn may_take_back(earlier: &GameState, later: &GameState) -> bool {
    let (a, b) = (earlier.rng(), later.rng());
    let no_chance = a.seed() == b.seed()
        && a.word_pos() == b.word_pos()
        && earlier.forced_dice.len() == later.forced_dice.len();
    // Under the fog of war a unit is never hidden again: one missing was turned.
    let none_turned = earlier.hidden().is_subset(later.hidden());
    let (pa, pb) = (earlier.piles(), later.piles());
    let cards_stayed = pa.draw_pile() == pb.draw_pile()
        && pa.players() == pb.players()
        && (0..pa.players()).all(|p| pa.hand(p).ok() == pb.hand(p).ok());
    no_chance && none_turned && cards_stayed && later.outcome.is_none()
}

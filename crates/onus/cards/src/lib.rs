//! ONUS! action cards (rulebook V, VII-1, VII-3, VII-5, VII-7, XI, XII-A).
//!
//! * [`Deck`]: the deck as data — orders and events defined once in a TOML file, paired into
//!   cards with a number of copies. The shipped deck ([`Deck::builtin`]) is **our own**, not
//!   the official ONUS! deck, and a player's own file loads with [`Deck::load`].
//! * [`effect`]: the typed vocabulary of what orders and events do; no card has code of its
//!   own.
//! * [`CardPiles`]: the draw pile, the discard pile, the hands, the table and the removed
//!   cards, with dealing, drawing (reshuffling the discard pile when the deck runs out), the
//!   end-of-turn draw of VII-7 and the hand limit.
//! * [`resolve_events`]: the event procedure of one fight, as a pure function returning the
//!   [`onus_combat::CombatEffect`]s for the resolver and the consequences for the game.
//!
//! ```
//! use acies_core::GameRng;
//! use onus_cards::{CardPiles, Deck, EventPlay, FightKind, RandomEvent, resolve_events};
//!
//! let deck = Deck::builtin()?;
//! let mut rng = GameRng::new(7);
//! let mut piles = CardPiles::new_shuffled(deck.len(), 2, &mut rng);
//! piles.deal(0, 8, &mut rng)?; // VI: as many cards as the General's leadership
//! piles.deal(1, 4, &mut rng)?;
//!
//! // A melee: a random event from the deck, nothing from the hands.
//! let random = piles.reveal(&mut rng).ok_or("empty deck")?;
//! let play = EventPlay {
//!     kind: FightKind::Melee { charge: false },
//!     random: RandomEvent::Drawn(random),
//!     ..EventPlay::default()
//! };
//! let outcome = resolve_events(&deck, &play)?;
//! // `outcome.combat` goes into the combat resolver's setup; then the cards are discarded.
//! piles.clear_table();
//! assert_eq!(piles.total(), deck.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod deck;
pub mod effect;
pub mod events;
pub mod piles;

pub use deck::{Card, CardId, CardKind, Deck, Event, MAX_CARDS, Order, STARTER_NOTICE};
pub use effect::{
    CombatTemplate, Count, EventEffect, Icons, OrderEffect, OrderType, STAMPEDE_MOUNTED_MORALE,
    STAMPEDE_RADIUS_DU, Who,
};
pub use events::{
    Consequence, EventError, EventLog, EventOutcome, EventPlay, EventStatus, FightKind, FightSide,
    Origin, RandomEvent, resolve_events,
};
pub use piles::{CardPiles, PileError, Player, TurnDraw};

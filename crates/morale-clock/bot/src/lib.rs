//! Computer players of the 1d10 "Morale Clock" system (`morale-clock-game`), behind the
//! generic [`acies_bot::Bot`] trait.
//!
//! [`ScriptedBot`] decides on a seat's knowledge only (a determinized state: the dice to come
//! replaced by a stand-in generator) and values every option with the engine's own checks and
//! exact odds: volleys by the odds of each result on their target; orders by what they change
//! on the table — the melees they start or support (each valued by
//! `morale_clock_game::odds::melee`), the ground gained towards the enemy (missile troops
//! towards their range), the line kept (friends on a unit's flanks), and the charges the enemy
//! could make next against the units that moved, each valued by its exact odds, and the
//! chance of winning the half-turn's count of losses (Turn Sequence 5: the loser's Morale
//! Clock goes down) less the chance of losing it, from every melee's exact odds; faces turned
//! after the orders; the stratagem that rallies again. It ends a step when nothing is worth an
//! order. With a [`Lookahead`] (`Weights::look`, off by default), it also plays its best
//! options out on its own determinized battle, the other army's half-turn played by the
//! random player's policy, and takes another option when the playouts clearly favour it. The
//! random player is the generic [`acies_bot::RandomBot`] on the game's
//! `Candidates`. [`MoraleClockArena`] puts the system in the generic battle runner
//! (`acies sim --system morale-clock`, with `--check` asserting the game's invariants).

mod attacks;
mod battle;
mod decide;
mod lookahead;
mod stakes;
mod standoff;
mod value;

pub use battle::{MAX_ACTIONS, MoraleClockArena, RANDOM_CHOICES, setups};
pub use decide::ScriptedBot;
pub use lookahead::{Lookahead, Looked};
pub use value::{Weights, loss, melee_value, volley_value};

//! The scripted ONUS! opponent: plain rules of thumb scored with exact odds.
//!
//! Each call looks at the situation (a pending decision, or the phase), proposes candidate
//! actions best first, and returns the first the rules accept on what its seat knows (an
//! [`Observation`](crate::Observation)'s state, never the real one). The
//! pieces:
//!
//! * deployment ([`deploy`]): a line, infantry in the centre, mounted units on the wings,
//!   shooters and artillery in a second row; the General on a sturdy central unit;
//! * activation ([`orders`]): each unit is worth activating by what it can do (charge at good
//!   odds, shoot a target, recover from flight or reorganise, advance); the order that
//!   activates the most worth is played if it beats keeping the card;
//! * movement ([`moves`]): charges whose exact odds favour the charger; otherwise moves scored
//!   by progress towards the enemy, facing, danger from stronger enemies within their reach,
//!   and keeping in line with the friends;
//! * terrain ([`ground`], *Terrain & Fortresses*): deployment off insurmountable ground,
//!   shooters on a hill's top and foot in a wood near their place; progress measured along
//!   the way round mountains, lakes and rivers (by their ends, bridges, passes and fords),
//!   crossings faced and crossed; the engine's melee ground (height, cover) in the score;
//! * fights ([`fights`]): the best shot by exact odds, every melee fought in order of
//!   advantage, the event card that improves the fight the most when it is worth a card,
//!   the side least exposed when defending.
//!
//! The bot is deterministic: ties break by unit and card ids, and the only randomness (the
//! fallback to the random chooser, which should never be needed) comes from its own seeded
//! RNG.

mod decisions;
mod deploy;
mod fights;
mod ground;
mod moves;
mod orders;
mod siege;

use acies_bot::Bot;
use acies_core::{GameRng, Ruleset};
use onus_cards::{CardId, Deck, EventEffect, OrderEffect, TurnDraw};
use onus_game::state::{Pending, Phase};
use onus_game::{Action, GameState, Onus, Seat, chooser};
use onus_table::{TableUnit, UnitId};

use crate::BotError;
use crate::eval::Matchups;

/// Tunable weights of the scripted bot. The defaults are the measured ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// What keeping a card in hand is worth, in points (orders cost cards).
    pub card_value: f64,
    /// A charge is made when its score (points) is above this.
    pub charge_margin: f64,
    /// The round after which units stop fearing enemies and close in (games must end).
    pub patience_rounds: u32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            card_value: 12.0,
            charge_margin: 0.0,
            patience_rounds: 6,
        }
    }
}

/// The scripted opponent (see the module documentation).
#[derive(Clone, Debug)]
pub struct ScriptedBot {
    rng: GameRng,
    params: Params,
    fallbacks: u64,
}

impl ScriptedBot {
    /// A scripted bot; `seed` feeds its fallback randomness only.
    pub fn new(seed: u64) -> ScriptedBot {
        ScriptedBot::with_params(seed, Params::default())
    }

    pub fn with_params(seed: u64, params: Params) -> ScriptedBot {
        ScriptedBot {
            rng: GameRng::new(seed),
            params,
            fallbacks: 0,
        }
    }
}

impl ScriptedBot {
    /// The action `seat` takes now, decided on `known`: what the seat knows of the game (an
    /// [`Observation`](crate::Observation)'s state, or [`crate::known_state`]'s).
    pub fn decide(&mut self, known: &GameState, seat: Seat) -> Result<Action, BotError> {
        if Onus::to_act(known) != Some(seat) {
            return Err(BotError::NotToAct(seat));
        }
        let mut ctx = Ctx::new(known, seat, &self.params)?;
        let mut last_refusal = String::new();
        for a in ctx.candidates()? {
            match Onus::apply(known, seat, &a) {
                Ok(_) => return Ok(a),
                Err(e) => last_refusal = format!("{} refused: {e}", a.name()),
            }
        }
        // Never expected: the candidates end with an action that is always open. Keep the
        // game going with the random legal chooser rather than stopping it.
        self.fallbacks += 1;
        match chooser::choose(known, &mut self.rng) {
            Some((s, a)) if s == seat => Ok(a),
            _ => Err(BotError::NoLegalAction {
                bot: "scripted",
                seat,
                situation: format!(
                    "{} phase, pending {:?}; {last_refusal}",
                    known.phase(),
                    known.pending()
                ),
            }),
        }
    }
}

impl Bot<Onus> for ScriptedBot {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    fn act(&mut self, known: &GameState, seat: Seat) -> Result<Action, acies_bot::BotError> {
        self.decide(known, seat).map_err(Into::into)
    }
}

/// One decision's working set: the known state, the deck, the odds cache.
pub(crate) struct Ctx<'a> {
    pub s: &'a GameState,
    pub seat: Seat,
    pub deck: std::sync::Arc<Deck>,
    pub params: &'a Params,
    pub matchups: Matchups,
}

impl<'a> Ctx<'a> {
    fn new(s: &'a GameState, seat: Seat, params: &'a Params) -> Result<Ctx<'a>, BotError> {
        Ok(Ctx {
            s,
            seat,
            deck: s.deck()?,
            params,
            matchups: Matchups::default(),
        })
    }

    /// The state after `a`, if the rules accept it.
    pub fn after(&self, a: &Action) -> Option<GameState> {
        Onus::apply(self.s, self.seat, a).ok().map(|x| x.state)
    }

    pub fn legal(&self, a: &Action) -> bool {
        self.after(a).is_some()
    }

    pub fn mine(&self) -> impl Iterator<Item = &'a TableUnit> + '_ {
        let seat = self.seat;
        self.s.table().units().filter(move |u| u.owner == seat.0)
    }

    pub fn enemies(&self) -> impl Iterator<Item = &'a TableUnit> + '_ {
        let (s, seat) = (self.s, self.seat);
        s.table()
            .units()
            .filter(move |u| u.owner != seat.0 && !s.allies(Seat(u.owner), seat))
    }

    /// The enemies still standing (not fleeing), nearest first.
    pub fn standing_enemies_by_distance(&self, unit: &TableUnit) -> Vec<(f64, UnitId)> {
        let r = unit.rect();
        let mut v: Vec<(f64, UnitId)> = self
            .enemies()
            .filter(|e| !e.state.fleeing)
            .map(|e| (e.rect().distance(&r), e.id))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        v
    }

    pub fn hand(&self) -> Vec<CardId> {
        self.s
            .piles()
            .hand(self.seat.index())
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    }

    /// Rounds played, for the bot's growing impatience.
    pub fn round(&self) -> u32 {
        self.s.round()
    }

    /// The event of the hand to play: the card whose play (`score`, in the same units as
    /// `now`, the score with no card) gains the most beyond what keeping it is worth, if one
    /// gains at all.
    pub(super) fn best_event(
        &self,
        now: f64,
        mut score: impl FnMut(CardId) -> Option<f64>,
    ) -> Option<Action> {
        let mut best: Option<(f64, CardId)> = None;
        for c in self.hand() {
            let Some(sc) = score(c) else {
                continue;
            };
            let gain = sc - now - self.keep_value(c);
            if gain > 0.0 && best.is_none_or(|b| gain > b.0) {
                best = Some((gain, c));
            }
        }
        best.map(|(_, c)| Action::PlayEvents {
            cards: vec![c],
            redraw: false,
            flee_if_wounded: false,
            wind_target: None,
        })
    }

    /// What keeping a card is worth: the better of its order and its event, roughly.
    pub fn keep_value(&self, card: CardId) -> f64 {
        let Some(c) = self.deck.card(card) else {
            return 0.0;
        };
        let order = match &c.order.effect {
            OrderEffect::Activate { count } | OrderEffect::ForcedMarch { count } => match count {
                onus_cards::Count::Fixed(n) => 4.0 + 4.0 * f64::from(*n),
                _ => 18.0,
            },
            OrderEffect::Rally { .. } => 10.0,
            OrderEffect::Heal { .. } => 8.0,
            OrderEffect::DrawCards { n } => 6.0 * f64::from(*n),
            _ => 3.0,
        };
        let event = match &c.event.effect {
            EventEffect::Combat { .. } => 10.0,
            EventEffect::Hero | EventEffect::CancelEvents => 8.0,
            _ => 4.0,
        };
        order.max(event) + 0.3 * order.min(event)
    }

    /// VII-7 / XII-B: the cards over the hand limit, least valuable first, go to the
    /// team-mate with the most room under its own limit rather than to the discard pile.
    fn gifts(&self) -> Vec<Action> {
        let limit = onus_game::general::leadership(self.s, self.seat) as usize;
        let mut hand = self.hand();
        if hand.len() <= limit {
            return Vec::new();
        }
        hand.sort_by(|a, b| {
            self.keep_value(*a)
                .total_cmp(&self.keep_value(*b))
                .then(a.cmp(b))
        });
        let room = |mate: onus_game::Seat| {
            let held = self.s.piles().hand(mate.index()).map_or(0, <[_]>::len);
            (onus_game::general::leadership(self.s, mate) as usize).saturating_sub(held)
        };
        let best = onus_game::teams::team_mates(self.s, self.seat)
            .into_iter()
            .map(|m| (room(m), m))
            .filter(|(r, _)| *r > 0)
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let excess = hand.len() - limit;
        match best {
            Some((r, to)) => vec![Action::GiveCards {
                to,
                cards: hand.into_iter().take(excess.min(r)).collect(),
            }],
            None => Vec::new(),
        }
    }

    /// Candidate actions, best first, ending with one the rules always accept when nothing
    /// else is left to do in the phase.
    fn candidates(&mut self) -> Result<Vec<Action>, BotError> {
        if let Some(d) = self.s.decisions().first() {
            return Ok(decisions::candidates(self, d));
        }
        match self.s.pending() {
            Some(Pending::Fight(f)) => return Ok(fights::pending_fight(self, f)),
            Some(Pending::HandLimit { excess, .. }) => {
                let mut hand = self.hand();
                hand.sort_by(|a, b| {
                    self.keep_value(*a)
                        .total_cmp(&self.keep_value(*b))
                        .then(a.cmp(b))
                });
                return Ok(vec![Action::DiscardExcess {
                    cards: hand.into_iter().take(*excess).collect(),
                }]);
            }
            None => {}
        }
        let mut out = match self.s.phase() {
            Phase::Deployment => deploy::candidates(self),
            // T&F VI: the siege's defender plays no orders (it holds out for the deck).
            Phase::Activation if siege::defending(self) => decisions::reorients(self),
            Phase::Activation => {
                let mut v = orders::candidates(self);
                v.extend(decisions::reorients(self));
                v
            }
            Phase::Movement => moves::candidates(self),
            Phase::RangedAttack => {
                let mut v = fights::shots(self);
                v.extend(siege::free_shots(self));
                v.extend(siege::structure_shots(self));
                v
            }
            Phase::Melee => {
                let mut v = siege::take_tops(self);
                v.extend(siege::batters(self));
                v.extend(fights::melees(self));
                v.extend(siege::fires(self));
                v
            }
            Phase::EndOfTurn if onus_game::teams::may_give(self.s, self.seat) => self.gifts(),
            Phase::EndOfTurn => {
                let played = self.s.book().orders.iter().any(|o| o.seat == self.seat);
                let choice = if played {
                    TurnDraw::OrderPlayed
                } else if siege::defending(self) {
                    // T&F VI "Victory conditions": the defender discards its hand to run the
                    // deck out sooner.
                    TurnDraw::Discard(self.hand())
                } else {
                    TurnDraw::DrawThree
                };
                vec![Action::Draw { choice }]
            }
            Phase::Flight => {
                let mut v = decisions::reorients(self);
                v.extend(decisions::flight_checks(self));
                v
            }
            Phase::Skirmishers | Phase::GameOver => Vec::new(),
        };
        out.push(Action::EndPhase);
        Ok(out)
    }
}

//! A toy rule system for testing and load-testing the server: a two-seat dice race with
//! hidden hands.
//!
//! Each seat races to `target`. On its turn a seat rolls a die and moves that far, plays a
//! card from its hand (moves by the card's value), or draws a card from its own deck. Cards
//! carry a secret name: only their owner ever learns it (playing a card reveals its value,
//! not its name), so any name seen by another seat or a spectator is a leak. The setup may
//! fix the starting hands, which makes part of the setup hidden too. With `simultaneous`,
//! both seats act in every round, in either order (the server must take an action from any
//! seat of [`Ruleset::actors`]).

use std::collections::BTreeMap;

use acies_core::{
    Applied, Board, Dice, GameRng, Information, Outcome, Ruleset, SystemInfo, Viewer,
};
use serde::{Deserialize, Serialize};

use crate::host::{ErrorOf, Host, SetupOf};
use crate::rules::RuleBook;
use crate::store::ComputerLevel;

/// The dice race.
#[derive(Clone, Copy, Debug)]
pub struct DiceRace;

/// A seat of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RaceSeat {
    A,
    B,
}

impl RaceSeat {
    fn index(self) -> usize {
        match self {
            RaceSeat::A => 0,
            RaceSeat::B => 1,
        }
    }

    fn other(self) -> Self {
        match self {
            RaceSeat::A => RaceSeat::B,
            RaceSeat::B => RaceSeat::A,
        }
    }
}

/// A card: its name is secret to its owner, its value is revealed when played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub name: String,
    pub value: u32,
}

/// How a race starts.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSetup {
    /// The position that wins (1..=1000).
    pub target: u32,
    /// Fixed starting hands (hidden information of the setup); dealt from the deck if absent.
    #[serde(default)]
    pub hands: BTreeMap<RaceSeat, Vec<Card>>,
    /// Turns after which the race is a draw (default 200).
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// Both seats act in every round, in either order.
    #[serde(default)]
    pub simultaneous: bool,
}

/// One seat's private and public state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Runner {
    pub position: u32,
    pub hand: Vec<Card>,
    pub deck: Vec<Card>,
}

/// The full state, hidden cards and RNG included.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RaceState {
    target: u32,
    max_turns: u32,
    turns: u32,
    rng: GameRng,
    runners: [Runner; 2],
    turn: RaceSeat,
    winner: Option<RaceSeat>,
    /// Simultaneous races only: the seats that have acted in this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    acted: Option<Vec<RaceSeat>>,
}

/// A seat's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RaceAction {
    /// Roll a die and move that far.
    Roll,
    /// Play the named card from the hand and move by its value.
    Play { card: String },
    /// Draw a card from the own deck.
    Draw,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RaceEvent {
    Rolled {
        seat: RaceSeat,
        die: u8,
        position: u32,
    },
    /// `card` is the name, shown to the owner only.
    Played {
        seat: RaceSeat,
        card: Option<String>,
        value: u32,
        position: u32,
    },
    /// `card` is shown to the owner only.
    Drew {
        seat: RaceSeat,
        card: Option<Card>,
    },
    Won {
        seat: RaceSeat,
    },
    Drawn {
        turns: u32,
    },
}

/// What a viewer sees: positions and counts for all, the hand for its owner only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceView {
    pub target: u32,
    pub turns: u32,
    pub positions: BTreeMap<RaceSeat, u32>,
    pub hand_sizes: BTreeMap<RaceSeat, usize>,
    pub deck_sizes: BTreeMap<RaceSeat, usize>,
    /// The viewer's own hand (none for spectators).
    pub hand: Option<Vec<Card>>,
}

/// A refused action or setup, naming the rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {message}")]
pub struct RaceError {
    pub rule: &'static str,
    pub message: String,
}

fn refuse(rule: &'static str, message: impl Into<String>) -> RaceError {
    RaceError {
        rule,
        message: message.into(),
    }
}

/// The race's rules, as its refusals cite them: the rules reader's sections.
pub const RACE_SECTIONS: &[acies_data::rules::Section] = &[
    acies_data::rules::Section::titled("setup"),
    acies_data::rules::Section::titled("turn order"),
    acies_data::rules::Section::titled("play"),
    acies_data::rules::Section::titled("draw").aka(&["drawing"]),
    acies_data::rules::Section::titled("end"),
];

/// Our summaries of the race's rules (the format of `data/<system>/rules.toml`).
pub const RACE_SUMMARIES: &str = r#"
[rules]
title = "Dice race"
notice = "Our own summaries of the race's rules."

[[section]]
cite = "setup"
summary = "The target is between 1 and 1000."

[[section]]
cite = "turn order"
heading = ["TURN ORDER"]
summary = "Seats take turns; with simultaneous rounds both act in either order."

[[section]]
cite = "play"
heading = ["PLAYING A CARD"]
summary = "Play a card of your hand to move by its value."

[[section]]
cite = "draw"
heading = ["DRAWING"]
summary = "Draw a card from your own deck; a hand holds at most 5 cards."

[[section]]
cite = "end"
summary = "The first seat at the target wins; after the last turn it is a draw."
"#;

/// A 64-bit fingerprint of a byte stream, eight bytes at a time (each word xored in,
/// multiplied by FNV's prime and folded, then a final avalanche): the same on every machine
/// (words are read little-endian), and unlike FNV-1a not a multiplication per byte.
#[derive(Default)]
struct Fingerprint {
    hash: u64,
    /// Bytes not yet making a whole word, and how many.
    pending: u64,
    pending_len: u32,
    total: u64,
}

impl Fingerprint {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn mix(&mut self, word: u64) {
        let h = (self.hash ^ word).wrapping_mul(Self::PRIME);
        self.hash = h ^ (h >> 29);
    }

    fn u64(&mut self, n: u64) {
        self.feed(&n.to_le_bytes());
    }

    /// A length, then the bytes.
    fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.feed(b);
    }

    fn feed(&mut self, mut b: &[u8]) {
        self.total = self.total.wrapping_add(b.len() as u64);
        while self.pending_len != 0 && !b.is_empty() {
            self.pending |= u64::from(b[0]) << (8 * self.pending_len);
            self.pending_len = (self.pending_len + 1) % 8;
            b = &b[1..];
            if self.pending_len == 0 {
                let word = std::mem::take(&mut self.pending);
                self.mix(word);
            }
        }
        let mut words = b.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            self.mix(u64::from_le_bytes(a));
        }
        for &byte in words.remainder() {
            self.pending |= u64::from(byte) << (8 * self.pending_len);
            self.pending_len += 1;
        }
    }

    fn finish(mut self) -> u64 {
        let (pending, total) = (self.pending, self.total);
        self.mix(pending);
        self.mix(total);
        // SplitMix64's finalizer: every input bit reaches every output bit.
        let mut z = self.hash;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl std::io::Write for Fingerprint {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.feed(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const HAND_LIMIT: usize = 5;
const DECK_SIZE: usize = 8;
const STARTING_HAND: usize = 3;

fn new_card(rng: &mut GameRng) -> Card {
    Card {
        name: format!("card-{:016x}", rng.next_u64()),
        value: u32::from(rng.roll(6)),
    }
}

impl Ruleset for DiceRace {
    const INFO: SystemInfo = SystemInfo {
        id: "dice-race",
        name: "Dice race (a test system)",
        rule_text: "crates/platform/server/src/testing.rs",
        board: Board::SquareGrid,
        seats: (2, 2),
        chance: true,
        information: Information::Imperfect,
        rules_version: 1,
    };

    type Setup = RaceSetup;
    type State = RaceState;
    type Action = RaceAction;
    type Event = RaceEvent;
    type View = RaceView;
    type Error = RaceError;
    type Seat = RaceSeat;

    fn new_game(setup: &RaceSetup, seed: u64) -> Result<RaceState, RaceError> {
        if !(1..=1000).contains(&setup.target) {
            return Err(refuse("setup", "target must be between 1 and 1000"));
        }
        let mut rng = GameRng::new(seed);
        let mut runners = [RaceSeat::A, RaceSeat::B].map(|_| Runner {
            position: 0,
            hand: Vec::new(),
            deck: Vec::new(),
        });
        for seat in [RaceSeat::A, RaceSeat::B] {
            let runner = &mut runners[seat.index()];
            runner.deck = (0..DECK_SIZE).map(|_| new_card(&mut rng)).collect();
            match setup.hands.get(&seat) {
                Some(hand) => {
                    if hand.len() > HAND_LIMIT || hand.iter().any(|c| !(1..=6).contains(&c.value)) {
                        return Err(refuse(
                            "setup",
                            "a hand has at most 5 cards of value 1 to 6",
                        ));
                    }
                    runner.hand = hand.clone();
                }
                None => {
                    let split = runner.deck.len() - STARTING_HAND;
                    runner.hand = runner.deck.split_off(split);
                }
            }
        }
        Ok(RaceState {
            target: setup.target,
            max_turns: setup.max_turns.unwrap_or(200).max(1),
            turns: 0,
            rng,
            runners,
            turn: RaceSeat::A,
            winner: None,
            acted: setup.simultaneous.then(Vec::new),
        })
    }

    fn seats(_: &RaceState) -> Vec<RaceSeat> {
        vec![RaceSeat::A, RaceSeat::B]
    }

    fn actors(state: &RaceState) -> Vec<RaceSeat> {
        if state.winner.is_some() || state.turns >= state.max_turns {
            return Vec::new();
        }
        match &state.acted {
            Some(acted) => [RaceSeat::A, RaceSeat::B]
                .into_iter()
                .filter(|s| !acted.contains(s))
                .collect(),
            None => vec![state.turn],
        }
    }

    /// Every field of the state, hidden cards and the RNG included, fed in a fixed order
    /// (lengths before contents, so no two states feed the same bytes) to [`Fingerprint`].
    /// It was FNV-1a over the state's JSON, byte by byte: 11% of the load test's server time.
    fn state_hash(state: &RaceState) -> u64 {
        let mut h = Fingerprint::default();
        h.u64(u64::from(state.target));
        h.u64(u64::from(state.max_turns));
        h.u64(u64::from(state.turns));
        // The generator's whole state (seed, key, stream, position) as it serializes.
        if serde_json::to_writer(&mut h, &state.rng).is_err() {
            h.u64(u64::MAX);
        }
        for runner in &state.runners {
            h.u64(u64::from(runner.position));
            for cards in [&runner.hand, &runner.deck] {
                h.u64(cards.len() as u64);
                for card in cards {
                    h.bytes(card.name.as_bytes());
                    h.u64(u64::from(card.value));
                }
            }
        }
        let seat = |s: RaceSeat| s.index() as u64;
        h.u64(seat(state.turn));
        h.u64(state.winner.map_or(0, |s| 1 + seat(s)));
        match &state.acted {
            None => h.u64(0),
            Some(acted) => {
                h.u64(1 + acted.len() as u64);
                acted.iter().for_each(|s| h.u64(seat(*s)));
            }
        }
        h.finish()
    }

    fn apply(
        state: &RaceState,
        seat: RaceSeat,
        action: &RaceAction,
    ) -> Result<Applied<RaceState, RaceEvent>, RaceError> {
        if Self::actors(state).is_empty() {
            return Err(refuse("end", "the race is over"));
        }
        if !Self::actors(state).contains(&seat) {
            return Err(refuse("turn order", "it is the other seat's turn"));
        }
        let mut next = state.clone();
        let mut events = Vec::new();
        let runner = &mut next.runners[seat.index()];
        match action {
            RaceAction::Roll => {
                let die = next.rng.d6();
                runner.position += u32::from(die);
                events.push(RaceEvent::Rolled {
                    seat,
                    die,
                    position: runner.position,
                });
            }
            RaceAction::Play { card } => {
                let Some(i) = runner.hand.iter().position(|c| &c.name == card) else {
                    return Err(refuse("play", "that card is not in your hand"));
                };
                let card = runner.hand.remove(i);
                runner.position += card.value;
                events.push(RaceEvent::Played {
                    seat,
                    card: Some(card.name),
                    value: card.value,
                    position: runner.position,
                });
            }
            RaceAction::Draw => {
                if runner.hand.len() >= HAND_LIMIT {
                    return Err(refuse("draw", "a hand holds at most 5 cards"));
                }
                let Some(card) = runner.deck.pop() else {
                    return Err(refuse("draw", "your deck is empty"));
                };
                runner.hand.push(card.clone());
                events.push(RaceEvent::Drew {
                    seat,
                    card: Some(card),
                });
            }
        }
        next.turns += 1;
        if next.runners[seat.index()].position >= next.target {
            next.winner = Some(seat);
            events.push(RaceEvent::Won { seat });
        } else if next.turns >= next.max_turns {
            events.push(RaceEvent::Drawn { turns: next.turns });
        }
        next.turn = seat.other();
        if let Some(acted) = &mut next.acted {
            acted.push(seat);
            if acted.len() == 2 {
                acted.clear();
            }
        }
        Ok(Applied {
            state: next,
            events,
        })
    }

    fn view(state: &RaceState, viewer: Viewer<RaceSeat>) -> RaceView {
        let seats = [RaceSeat::A, RaceSeat::B];
        let per_seat = |f: &dyn Fn(&Runner) -> usize| {
            seats
                .iter()
                .map(|s| (*s, f(&state.runners[s.index()])))
                .collect()
        };
        RaceView {
            target: state.target,
            turns: state.turns,
            positions: seats
                .iter()
                .map(|s| (*s, state.runners[s.index()].position))
                .collect(),
            hand_sizes: per_seat(&|r| r.hand.len()),
            deck_sizes: per_seat(&|r| r.deck.len()),
            hand: match viewer {
                Viewer::Seat(s) => Some(state.runners[s.index()].hand.clone()),
                Viewer::Spectator => None,
            },
        }
    }

    fn event_view(
        _state: &RaceState,
        event: &RaceEvent,
        viewer: Viewer<RaceSeat>,
    ) -> Option<RaceEvent> {
        let owner = |seat: &RaceSeat| viewer == Viewer::Seat(*seat);
        Some(match event {
            RaceEvent::Played {
                seat,
                card,
                value,
                position,
            } => RaceEvent::Played {
                seat: *seat,
                card: card.clone().filter(|_| owner(seat)),
                value: *value,
                position: *position,
            },
            RaceEvent::Drew { seat, card } => RaceEvent::Drew {
                seat: *seat,
                card: card.clone().filter(|_| owner(seat)),
            },
            other => other.clone(),
        })
    }

    /// Nothing rolled and nothing drawn since (a card played shows only its value, which
    /// the toy lets a take-back hide again).
    fn may_take_back(earlier: &RaceState, later: &RaceState) -> bool {
        earlier.rng.word_pos() == later.rng.word_pos()
            && earlier
                .runners
                .iter()
                .zip(&later.runners)
                .all(|(a, b)| a.deck.len() == b.deck.len())
            && later.winner.is_none()
    }

    fn outcome(state: &RaceState) -> Option<Outcome<RaceSeat>> {
        if let Some(seat) = state.winner {
            return Some(Outcome::Winners {
                seats: vec![seat],
                reason: "reached the target".into(),
            });
        }
        (state.turns >= state.max_turns).then(|| Outcome::Draw {
            reason: format!("no winner after {} turns", state.turns),
        })
    }
}

impl Host for DiceRace {
    type Rules = DiceRace;

    fn seat_id(seat: RaceSeat) -> String {
        match seat {
            RaceSeat::A => "a".into(),
            RaceSeat::B => "b".into(),
        }
    }

    fn error_rule(error: &RaceError) -> Option<String> {
        Some(error.rule.to_owned())
    }

    fn rule_book() -> Option<RuleBook> {
        Some(RuleBook {
            sections: RACE_SECTIONS,
            summaries: RACE_SUMMARIES,
            file: "acies_server::testing::RACE_SUMMARIES",
        })
    }

    /// Decides from the seat's own view only: plays its best card if it is worth at least
    /// 4, draws while the hand is small, rolls otherwise. The race has no search player: a
    /// search level decides the same after a pause standing in for its thinking (50, 150
    /// and 400 ms), so tests can watch a slow computer.
    fn bot_action(state: &RaceState, seat: RaceSeat, level: ComputerLevel) -> Option<RaceAction> {
        let pause = match level {
            ComputerLevel::Scripted => 0,
            ComputerLevel::Easy => 50,
            ComputerLevel::Normal => 150,
            ComputerLevel::Hard => 400,
        };
        std::thread::sleep(std::time::Duration::from_millis(pause));
        let view = Self::view(state, Viewer::Seat(seat));
        let hand = view.hand.unwrap_or_default();
        if let Some(best) = hand.iter().max_by_key(|c| c.value)
            && best.value >= 4
        {
            return Some(RaceAction::Play {
                card: best.name.clone(),
            });
        }
        let deck = view.deck_sizes.get(&seat).copied().unwrap_or(0);
        if hand.len() < 2 && deck > 0 {
            return Some(RaceAction::Draw);
        }
        Some(RaceAction::Roll)
    }

    /// `{"kind": "hand_value"}`: the total value of the asker's own hand (seats only);
    /// `{"kind": "distance_left"}`: how far each seat is from the target (public).
    fn query(
        state: &RaceState,
        viewer: Viewer<RaceSeat>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        match query.get("kind").and_then(|k| k.as_str()) {
            Some("hand_value") => match viewer {
                Viewer::Seat(seat) => {
                    let total: u32 = state.runners[seat.index()]
                        .hand
                        .iter()
                        .map(|c| c.value)
                        .sum();
                    Ok(serde_json::json!({ "hand_value": total }))
                }
                Viewer::Spectator => Err((
                    "no_seat".into(),
                    "only a seat has a hand: ask with its token".into(),
                )),
            },
            Some("distance_left") => {
                let left = |s: RaceSeat| {
                    state
                        .target
                        .saturating_sub(state.runners[s.index()].position)
                };
                Ok(serde_json::json!({ "a": left(RaceSeat::A), "b": left(RaceSeat::B) }))
            }
            other => Err((
                "bad_query".into(),
                format!("unknown query kind {other:?}; try hand_value or distance_left"),
            )),
        }
    }
}

/// The rule citations of random legal battles of `H` from `setup` (one per seed), for a
/// system's test that every citation names a section of its rule book ([`Host::rule_book`]):
/// every `rule` string in the events (roll records and events citing a rule), and the rule
/// ([`Host::error_rule`]) of every refusal of a bad action tried before each legal one — the
/// legal action sent by another seat, and an earlier action replayed out of its situation.
pub fn random_citations<H>(
    setup: &SetupOf<H>,
    seeds: std::ops::Range<u64>,
    max_actions: usize,
) -> std::collections::BTreeSet<String>
where
    H: Host,
    H::Rules: acies_core::Candidates,
{
    use acies_core::Candidates;
    type R<H> = <H as Host>::Rules;
    fn rules_in(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("rule", serde_json::Value::String(s)) => {
                            out.insert(s.clone());
                        }
                        _ => rules_in(x, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| rules_in(x, out)),
            _ => {}
        }
    }
    let mut out = std::collections::BTreeSet::new();
    let refused = |e: &ErrorOf<H>, out: &mut std::collections::BTreeSet<String>| {
        if let Some(rule) = H::error_rule(e) {
            out.insert(rule);
        }
    };
    for seed in seeds {
        let Ok(mut state) = R::<H>::new_game(setup, seed) else {
            continue;
        };
        let mut rng = GameRng::new(seed ^ 0xc17e);
        let mut earlier = Vec::new();
        for _ in 0..max_actions {
            if R::<H>::outcome(&state).is_some() {
                break;
            }
            let Some(seat) = R::<H>::to_act(&state) else {
                break;
            };
            let options = R::<H>::candidates(&state, seat, &mut rng, 8);
            if options.is_empty() {
                break;
            }
            let action = options[rng.below(options.len() as u32) as usize].clone();
            for other in R::<H>::seats(&state) {
                if other != seat
                    && let Err(e) = R::<H>::apply(&state, other, &action)
                {
                    refused(&e, &mut out);
                }
            }
            if !earlier.is_empty() {
                let old = &earlier[rng.below(earlier.len() as u32) as usize];
                if let Err(e) = R::<H>::apply(&state, seat, old) {
                    refused(&e, &mut out);
                }
            }
            let Ok(applied) = R::<H>::apply(&state, seat, &action) else {
                break;
            };
            for ev in &applied.events {
                if let Ok(v) = serde_json::to_value(ev) {
                    rules_in(&v, &mut out);
                }
            }
            if earlier.len() < 300 {
                earlier.push(action);
            }
            state = applied.state;
        }
    }
    out
}

/// The citations of `citations` that name no section of `sections`.
pub fn unresolved(
    sections: &[acies_data::rules::Section],
    citations: &std::collections::BTreeSet<String>,
) -> Vec<String> {
    citations
        .iter()
        .filter(|c| acies_data::rules::resolve(sections, c).is_empty())
        .cloned()
        .collect()
}

/// What is wrong with a system's summaries file against the sections its engine cites: a
/// file that does not read, a section without its summary or a summary of no section, a
/// header that does not say the summaries are ours, a summary under 40 bytes. Empty when all
/// is well (each system's server tests it).
pub fn summaries_problems(
    file: &str,
    text: &str,
    sections: &[acies_data::rules::Section],
) -> Vec<String> {
    let s = match acies_data::rules::Summaries::parse(file, text) {
        Ok(s) => s,
        Err(e) => return vec![format!("{file}: {e}")],
    };
    let mut problems = s.mismatches(sections);
    if !s.notice.contains("Our own summaries") {
        problems.push(format!(
            "{file}: the header does not say the summaries are ours"
        ));
    }
    problems.extend(
        s.sections
            .iter()
            .filter(|x| x.summary.len() < 40)
            .map(|x| format!("{}: a summary of {} bytes", x.cite, x.summary.len())),
    );
    problems
}

/// What is wrong with the citations of random battles of `H` (seeds `seeds`, at most
/// `max_actions` each): fewer than 4 distinct, `expected` not among them, or one naming no
/// section of `sections`. Empty when all is well.
pub fn citation_problems<H>(
    setup: &SetupOf<H>,
    seeds: std::ops::Range<u64>,
    max_actions: usize,
    sections: &[acies_data::rules::Section],
    expected: &str,
) -> Vec<String>
where
    H: Host,
    H::Rules: acies_core::Candidates,
{
    let cited = random_citations::<H>(setup, seeds, max_actions);
    let mut problems: Vec<String> = unresolved(sections, &cited)
        .into_iter()
        .map(|c| format!("{c}: names no section"))
        .collect();
    if !cited.contains(expected) {
        problems.push(format!("{expected} was never cited: {cited:?}"));
    }
    if cited.len() < 4 {
        problems.push(format!("only {} citations: {cited:?}", cited.len()));
    }
    problems
}

#[cfg(test)]
mod tests {

    #[test]
    fn summaries_problems_reports_an_unreadable_file_and_missing_sections() {
        let bad = super::summaries_problems("rules.toml", "not toml [", &[]);
        assert!(bad.iter().any(|p| p.starts_with("rules.toml")), "{bad:?}");
    }
    use super::*;

    fn setup() -> RaceSetup {
        RaceSetup {
            target: 30,
            hands: BTreeMap::new(),
            max_turns: None,
            simultaneous: false,
        }
    }

    #[test]
    fn simultaneous_rounds_take_both_seats_in_either_order() {
        let setup = RaceSetup {
            simultaneous: true,
            ..setup()
        };
        let state = DiceRace::new_game(&setup, 5).unwrap();
        assert_eq!(DiceRace::actors(&state), vec![RaceSeat::A, RaceSeat::B]);
        assert_eq!(DiceRace::to_act(&state), None);
        let state = DiceRace::apply(&state, RaceSeat::B, &RaceAction::Roll)
            .unwrap()
            .state;
        assert_eq!(DiceRace::actors(&state), vec![RaceSeat::A]);
        let e = DiceRace::apply(&state, RaceSeat::B, &RaceAction::Roll).unwrap_err();
        assert_eq!(e.rule, "turn order");
        let state = DiceRace::apply(&state, RaceSeat::A, &RaceAction::Roll)
            .unwrap()
            .state;
        assert_eq!(DiceRace::actors(&state), vec![RaceSeat::A, RaceSeat::B]);
    }

    #[test]
    fn same_seed_same_game() {
        let a = DiceRace::new_game(&setup(), 7).unwrap();
        let b = DiceRace::new_game(&setup(), 7).unwrap();
        assert_eq!(a.runners[0].hand, b.runners[0].hand);
        let c = DiceRace::new_game(&setup(), 8).unwrap();
        assert_ne!(a.runners[0].hand, c.runners[0].hand);
    }

    #[test]
    fn others_never_see_card_names() {
        let state = DiceRace::new_game(&setup(), 1).unwrap();
        let card = state.runners[0].hand[0].name.clone();
        let applied = DiceRace::apply(
            &state,
            RaceSeat::A,
            &RaceAction::Play { card: card.clone() },
        )
        .unwrap();
        let for_b = serde_json::to_string(&DiceRace::event_view(
            &applied.state,
            &applied.events[0],
            Viewer::Seat(RaceSeat::B),
        ))
        .unwrap();
        let for_a = serde_json::to_string(&DiceRace::event_view(
            &applied.state,
            &applied.events[0],
            Viewer::Seat(RaceSeat::A),
        ))
        .unwrap();
        assert!(!for_b.contains(&card));
        assert!(for_a.contains(&card));
        let view_b =
            serde_json::to_string(&DiceRace::view(&applied.state, Viewer::Seat(RaceSeat::B)))
                .unwrap();
        for card in &applied.state.runners[0].hand {
            assert!(!view_b.contains(&card.name));
        }
    }

    #[test]
    fn the_state_hash_sees_every_part_of_the_state() {
        let state = DiceRace::new_game(&setup(), 7).unwrap();
        let hash = DiceRace::state_hash;
        assert_eq!(hash(&state), hash(&state.clone()));
        // The same on every machine: a fixed value for a fixed seed.
        assert_eq!(hash(&state), 0xbaaa_0e82_2f79_297b);
        type Change = Box<dyn Fn(&mut RaceState)>;
        let mut changes: Vec<Change> = vec![
            Box::new(|s| s.target += 1),
            Box::new(|s| s.max_turns += 1),
            Box::new(|s| s.turns += 1),
            Box::new(|s| {
                s.rng.next_u64();
            }),
            Box::new(|s| s.rng = GameRng::with_stream(7, 1)),
            Box::new(|s| s.runners[1].position += 1),
            Box::new(|s| s.runners[0].hand[1].name.push('x')),
            Box::new(|s| s.runners[0].hand[2].value += 1),
            Box::new(|s| s.runners[1].deck[0].name.insert(0, 'x')),
            Box::new(|s| {
                let card = s.runners[0].hand.pop().unwrap();
                s.runners[0].deck.push(card);
            }),
            Box::new(|s| s.runners.swap(0, 1)),
            Box::new(|s| s.turn = RaceSeat::B),
            Box::new(|s| s.winner = Some(RaceSeat::A)),
            Box::new(|s| s.acted = Some(Vec::new())),
            Box::new(|s| s.acted = Some(vec![RaceSeat::A])),
        ];
        // A name's bytes moved into the next name.
        changes.push(Box::new(|s| {
            let last = s.runners[0].hand[0].name.pop().unwrap();
            s.runners[0].hand[1].name.insert(0, last);
        }));
        let mut seen = vec![hash(&state)];
        for change in &changes {
            let mut changed = state.clone();
            change(&mut changed);
            let h = hash(&changed);
            assert!(
                !seen.contains(&h),
                "a change left the hash as it was: {h:016x}"
            );
            seen.push(h);
        }
    }

    #[test]
    fn refusals_name_the_rule() {
        let state = DiceRace::new_game(&setup(), 1).unwrap();
        let e = DiceRace::apply(&state, RaceSeat::B, &RaceAction::Roll).unwrap_err();
        assert_eq!(e.rule, "turn order");
        let e = DiceRace::apply(&state, RaceSeat::A, &RaceAction::Play { card: "x".into() })
            .unwrap_err();
        assert_eq!(e.rule, "play");
    }

    #[test]
    fn bots_finish_a_race() {
        let mut state = DiceRace::new_game(&setup(), 3).unwrap();
        let mut steps = 0;
        while let Some(seat) = DiceRace::to_act(&state) {
            let action = DiceRace::bot_action(&state, seat, ComputerLevel::Scripted).unwrap();
            state = DiceRace::apply(&state, seat, &action).unwrap().state;
            steps += 1;
            assert!(steps <= 200);
        }
        assert!(DiceRace::outcome(&state).is_some());
    }
}

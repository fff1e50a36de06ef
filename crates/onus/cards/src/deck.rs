//! The action-card deck (V "Action cards"): orders and events defined once, and the cards that
//! pair an order (top half) with an event (bottom half), with their number of copies.
//!
//! A deck file has a `[deck]` table, `[[order]]` and `[[event]]` definitions, and `[[card]]`
//! entries (`{ order = "skirmish", event = "resist", copies = 2 }`). The format is documented
//! in `data/onus/deck/README.md`. Every problem is reported with its file, line, column and
//! field, all at once, as [`onus_model::data::LoadErrors`].

use std::fmt;
use std::ops::Range;
use std::path::Path;

use onus_combat::{Reroll, Stat};
use onus_model::data::located::{self, Ctx, Entry, Got, entry_path, suggest, type_name};
use onus_model::data::{DataErrorKind as K, LoadErrors};
use serde::{Deserialize, Serialize};
use toml::de::{DeTable, DeValue};

use crate::effect::{CombatTemplate, Count, EventEffect, Icons, OrderEffect, OrderType, Who};

/// The header every shipped deck file carries in its `[deck] notice`.
pub const STARTER_NOTICE: &str =
    "acies starter deck — our own, not the official ONUS! deck; replaceable by your own file";

/// The largest deck the loader accepts (a card id is a `u16`; no real deck comes close).
pub const MAX_CARDS: usize = 2_000;

/// The top half of a card: an order for the Activation Phase (V "Orders").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Order {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: OrderType,
    pub title: String,
    pub text: String,
    pub effect: OrderEffect,
}

/// The bottom half of a card: an event for the fights (V "Events"). Two events with the same
/// `id` are duplicates (VII-3: "Duplicate events cannot be played in a single attack").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub title: String,
    pub text: String,
    pub icons: Icons,
    pub effect: EventEffect,
}

/// One physical card of a deck, an index from 0 to the deck's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CardId(pub u16);

impl CardId {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A card as seen by a player: its order and its event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Card<'d> {
    pub id: CardId,
    pub order: &'d Order,
    pub event: &'d Event,
}

/// A `[[card]]` entry: an order, an event, and how many copies of that card the deck holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardKind {
    pub order: String,
    pub event: String,
    pub copies: u32,
}

/// A whole deck: its definitions, and each physical card (`CardId` `n` is the `n`-th card when
/// the `[[card]]` entries are expanded copy by copy, in file order).
#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    pub name: String,
    /// The `[deck] notice` (for the shipped deck, [`STARTER_NOTICE`]).
    pub notice: Option<String>,
    /// The file the deck was read from.
    pub source: String,
    orders: Vec<Order>,
    events: Vec<Event>,
    kinds: Vec<CardKind>,
    /// `(order index, event index)` of each physical card.
    cards: Vec<(usize, usize)>,
}

const BUILTIN_NAME: &str = "deck/standard.toml";
const BUILTIN: &str = include_str!("../../../../data/onus/deck/standard.toml");

impl Deck {
    /// The acies starter deck (`data/onus/deck/standard.toml`, embedded at build time).
    pub fn builtin() -> Result<Deck, LoadErrors> {
        Deck::from_source(BUILTIN_NAME, BUILTIN)
    }

    /// The text of the shipped deck file, e.g. to write it out as a template.
    pub fn builtin_source() -> (&'static str, &'static str) {
        (BUILTIN_NAME, BUILTIN)
    }

    /// Reads a player's own deck file.
    pub fn load(path: impl AsRef<Path>) -> Result<Deck, LoadErrors> {
        let path = path.as_ref();
        let text = located::read_text(path)?;
        Deck::from_source(&path.display().to_string(), &text)
    }

    /// Parses a deck file given as text; `file` is only used in errors and as
    /// [`Deck::source`].
    pub fn from_source(file: &str, text: &str) -> Result<Deck, LoadErrors> {
        let mut ctx = Ctx::new(file, text);
        let deck = read_deck(&mut ctx);
        ctx.finish(deck).map_err(LoadErrors)
    }

    /// How many cards the deck holds.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Every card id, in order.
    pub fn ids(&self) -> impl Iterator<Item = CardId> + '_ {
        (0..self.cards.len()).filter_map(|i| u16::try_from(i).ok().map(CardId))
    }

    /// The card with this id, if the deck has it.
    pub fn card(&self, id: CardId) -> Option<Card<'_>> {
        let &(o, e) = self.cards.get(id.index())?;
        Some(Card {
            id,
            order: self.orders.get(o)?,
            event: self.events.get(e)?,
        })
    }

    /// Every card, in id order.
    pub fn cards(&self) -> impl Iterator<Item = Card<'_>> + '_ {
        self.ids().filter_map(|id| self.card(id))
    }

    /// The order definitions, in file order.
    pub fn orders(&self) -> &[Order] {
        &self.orders
    }

    /// The event definitions, in file order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The `[[card]]` entries, in file order.
    pub fn kinds(&self) -> &[CardKind] {
        &self.kinds
    }

    /// The order definition with this id.
    pub fn order(&self, id: &str) -> Option<&Order> {
        self.orders.iter().find(|o| o.id == id)
    }

    /// The event definition with this id.
    pub fn event(&self, id: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.id == id)
    }

    /// How many cards carry an order of each type.
    pub fn count_by_order_type(&self) -> Vec<(OrderType, usize)> {
        OrderType::ALL
            .into_iter()
            .map(|t| (t, self.cards().filter(|c| c.order.kind == t).count()))
            .collect()
    }
}

const TOP_FIELDS: &[&str] = &["deck", "order", "event", "card"];
const DECK_FIELDS: &[&str] = &["name", "notice", "description"];
const ORDER_COMMON: &[&str] = &["id", "type", "title", "text", "effect"];
const EVENT_COMMON: &[&str] = &["id", "title", "text", "icons", "effect"];
const CARD_FIELDS: &[&str] = &["order", "event", "copies"];

/// The parameters each order effect takes.
fn order_params(effect: &str) -> &'static [&'static str] {
    match effect {
        "activate" | "forced_march" => &["count"],
        "scouts" => &["look"],
        "heal" => &["count", "wounds"],
        "rally" => &["count", "check", "fleeing"],
        "draw_cards" | "take_from_discard" => &["n"],
        "discard_and_draw" => &["max", "bonus"],
        _ => &[],
    }
}

/// The parameters each event effect takes.
fn event_params(effect: &str) -> &'static [&'static str] {
    match effect {
        "combat" => &["combat"],
        _ => &[],
    }
}

fn template_params(effect: &str) -> &'static [&'static str] {
    match effect {
        "modify" => &["effect", "who", "stat", "delta"],
        "grant_priority" | "cancel_priority" => &["effect", "who"],
        "extra_dice" => &["effect", "who", "dice"],
        "reroll" => &["effect", "who", "hit", "damage"],
        "ambush" => &["effect", "dice"],
        _ => &["effect"],
    }
}

fn read_deck(ctx: &mut Ctx<'_>) -> Option<Deck> {
    let doc =
        ctx.parse("a deck file needs a [deck] table, [[order]], [[event]] and [[card]] entries")?;
    ctx.check_top_keys(
        &doc,
        TOP_FIELDS,
        "a deck file has [deck], [[order]], [[event]] and [[card]]",
    );
    let header = ctx
        .table(&doc, "deck", "missing [deck] table (with `name`)")
        .and_then(|e| {
            e.check_fields(ctx, DECK_FIELDS, "");
            let name = e.text(ctx, "name", "the deck's name");
            let notice = e.string(ctx, "notice").optional();
            // Checked for its type only.
            let _ = e.string(ctx, "description");
            name.zip(notice)
        });

    let orders: Vec<(Order, Range<usize>)> = ctx.entries(&doc, "order", read_order);
    let events: Vec<(Event, Range<usize>)> = ctx.entries(&doc, "event", read_event);
    let ok_defs = count_entries(&doc, "order") == orders.len()
        && count_entries(&doc, "event") == events.len();
    for key in ["order", "event", "card"] {
        ctx.require_entries(&doc, key, "the deck");
    }
    let duplicate = |what: &'static str| {
        move |id: &str, line: usize| {
            format!("duplicate {what} id `{id}` (first defined on line {line}); ids must be unique")
        }
    };
    let order_ids = orders.iter().map(|(o, s)| (o.id.as_str(), s));
    ctx.duplicate_ids("order", order_ids, duplicate("order"));
    let event_ids = events.iter().map(|(e, s)| (e.id.as_str(), s));
    ctx.duplicate_ids("event", event_ids, duplicate("event"));

    let order_ids: Vec<&str> = orders.iter().map(|(o, _)| o.id.as_str()).collect();
    let event_ids: Vec<&str> = events.iter().map(|(e, _)| e.id.as_str()).collect();
    // Card references are only checked when every definition was read, so a bad definition
    // does not also produce "unknown order" errors.
    let kinds: Vec<(CardKind, usize, usize)> = ctx.entries(&doc, "card", |ctx, i, t, span| {
        read_card(ctx, i, t, span, &order_ids, &event_ids, ok_defs)
    });

    let total: u64 = kinds.iter().map(|(k, _, _)| u64::from(k.copies)).sum();
    if total as usize > MAX_CARDS {
        ctx.err(
            K::OutOfRange,
            doc.get("card").map(|v| v.span()),
            Some("card".into()),
            format!("the deck has {total} cards; at most {MAX_CARDS} are allowed"),
        );
        return None;
    }
    let mut cards = Vec::new();
    for (k, o, e) in &kinds {
        for _ in 0..k.copies {
            cards.push((*o, *e));
        }
    }
    let (name, notice) = header?;
    if ctx.has_errors() {
        return None;
    }
    Some(Deck {
        name,
        notice,
        source: ctx.file().to_string(),
        orders: orders.into_iter().map(|(o, _)| o).collect(),
        events: events.into_iter().map(|(e, _)| e).collect(),
        kinds: kinds.into_iter().map(|(k, _, _)| k).collect(),
        cards,
    })
}

fn count_entries(doc: &DeTable<'_>, key: &str) -> usize {
    match doc.get(key).map(|v| v.get_ref()) {
        Some(DeValue::Array(a)) => a.len(),
        _ => 0,
    }
}

/// What order and event definitions share.
struct Definition {
    /// The effect's name, to be read with its parameters.
    effect: Option<(String, Range<usize>)>,
    id: Option<(String, Range<usize>)>,
    title: Option<String>,
    text: Option<String>,
}

/// The fields of one kind of definition.
struct DefinitionSpec {
    /// `order` or `event`.
    what: &'static str,
    /// The names of its effects.
    effects: &'static [&'static str],
    /// The fields every definition of the kind has.
    common: &'static [&'static str],
    /// The parameters each effect takes.
    params: fn(&str) -> &'static [&'static str],
}

const ORDER_SPEC: DefinitionSpec = DefinitionSpec {
    what: "order",
    effects: &OrderEffect::NAMES,
    common: ORDER_COMMON,
    params: order_params,
};

const EVENT_SPEC: DefinitionSpec = DefinitionSpec {
    what: "event",
    effects: &EventEffect::NAMES,
    common: EVENT_COMMON,
    params: event_params,
};

/// Reads the start of an order or event definition: the required `effect`, then the check of
/// the fields (the common ones and the effect's parameters), then `id`, `title` and `text`.
fn read_definition(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, spec: &DefinitionSpec) -> Definition {
    let DefinitionSpec {
        what,
        effects,
        common,
        params,
    } = spec;
    let effect = e.req_string(ctx, "effect", &format!("one of: {}", effects.join(", ")));
    let params = effect.as_ref().map_or(&[][..], |(n, _)| params(n));
    let allowed: Vec<&str> = common.iter().chain(params).copied().collect();
    let context = effect
        .as_ref()
        .map(|(n, _)| format!(" for effect `{n}`"))
        .unwrap_or_default();
    e.check_fields(ctx, &allowed, &context);
    Definition {
        effect,
        id: e.id(ctx),
        title: e.text(ctx, "title", &format!("the {what}'s name")),
        text: e.text(ctx, "text", "the rules text"),
    }
}

/// `count = 2` or `count = "leadership"`.
fn read_count(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, default: Option<Count>) -> Option<Count> {
    let Some(v) = e.get("count") else {
        if default.is_none() {
            e.missing(
                ctx,
                "count",
                "a number of units or \"leadership\", \"half_units\", \"in_general_area\"",
            );
        }
        return default;
    };
    match v.get_ref() {
        DeValue::Integer(_) => e
            .int_in(ctx, "count", 1..=50, None, "")
            .map(|n| Count::Fixed(n as u32)),
        DeValue::String(s) => {
            let c = Count::parse_name(s);
            if c.is_none() {
                e.bad(
                    ctx,
                    K::UnknownName,
                    "count",
                    &v.span(),
                    format!(
                        "unknown count `{s}`{}; use a whole number or one of: {}",
                        suggest(s, &Count::NAMES),
                        Count::NAMES.join(", ")
                    ),
                );
            }
            c
        }
        _ => {
            e.wrong_type(
                ctx,
                "count",
                "a whole number or a name such as \"leadership\"",
                v,
            );
            None
        }
    }
}

fn read_order(
    ctx: &mut Ctx<'_>,
    index: usize,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<(Order, Range<usize>)> {
    let e = Entry::new(table, span, entry_path("order", index, table));
    let def = read_definition(&e, ctx, &ORDER_SPEC);
    let kind = e.name_of(
        ctx,
        "type",
        "order type",
        &OrderType::ALL.map(|t| t.as_str()),
        None,
        OrderType::parse,
    );

    let effect = def.effect.and_then(|(name, sp)| {
        let small = |ctx: &mut Ctx<'_>, key: &str, max: i64, what: &str| {
            e.int_in(ctx, key, 1..=max, None, what).map(|n| n as u32)
        };
        match name.as_str() {
            "activate" => read_count(&e, ctx, None).map(|count| OrderEffect::Activate { count }),
            "forced_march" => {
                read_count(&e, ctx, None).map(|count| OrderEffect::ForcedMarch { count })
            }
            "stampede" => Some(OrderEffect::Stampede),
            "scouts" => small(ctx, "look", 10, "how many cards to look at")
                .map(|look| OrderEffect::Scouts { look }),
            "heal" => {
                let count = read_count(&e, ctx, Some(Count::Fixed(1)));
                let wounds = small(ctx, "wounds", 20, "wounds removed per unit");
                Some(OrderEffect::Heal {
                    count: count?,
                    wounds: wounds?,
                })
            }
            "rally" => {
                let count = read_count(&e, ctx, Some(Count::Fixed(1)));
                let check = e.bool_or(ctx, "check", None, "whether a morale check is needed");
                let fleeing =
                    e.bool_or(ctx, "fleeing", None, "whether fleeing units can be rallied");
                Some(OrderEffect::Rally {
                    count: count?,
                    check: check?,
                    fleeing: fleeing?,
                })
            }
            "transfer_general" => Some(OrderEffect::TransferGeneral),
            "draw_cards" => {
                small(ctx, "n", 10, "cards to draw").map(|n| OrderEffect::DrawCards { n })
            }
            "take_from_discard" => {
                small(ctx, "n", 10, "cards to take").map(|n| OrderEffect::TakeFromDiscard { n })
            }
            "discard_and_draw" => {
                let max = small(ctx, "max", 20, "most cards to discard");
                let bonus = e
                    .int_in(ctx, "bonus", 0..=10, Some(0), "")
                    .map(|n| n as u32);
                Some(OrderEffect::DiscardAndDraw {
                    max: max?,
                    bonus: bonus?,
                })
            }
            other => {
                e.unknown_name(
                    ctx,
                    "effect",
                    "order effect",
                    other,
                    &sp,
                    &OrderEffect::NAMES,
                );
                None
            }
        }
    });

    if let (Some(k), Some(eff)) = (kind, &effect)
        && eff.order_type() != k
        && let Some(v) = e.get("type")
    {
        e.bad(
            ctx,
            K::BadValue,
            "type",
            &v.span(),
            format!(
                "effect `{}` is a {} order, not a {k} order (V \"Orders\")",
                eff.name(),
                eff.order_type()
            ),
        );
        return None;
    }
    let (id, id_span) = def.id?;
    Some((
        Order {
            id,
            kind: kind?,
            title: def.title?,
            text: def.text?,
            effect: effect?,
        },
        id_span,
    ))
}

fn read_event(
    ctx: &mut Ctx<'_>,
    index: usize,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<(Event, Range<usize>)> {
    let e = Entry::new(table, span, entry_path("event", index, table));
    let def = read_definition(&e, ctx, &EVENT_SPEC);
    let icons = read_icons(&e, ctx);

    let effect = def.effect.and_then(|(name, sp)| match name.as_str() {
        "combat" => read_combat(&e, ctx).map(|combat| EventEffect::Combat { combat }),
        "hero" => Some(EventEffect::Hero),
        "no_officer" => Some(EventEffect::NoOfficer),
        "general_wounded" => Some(EventEffect::GeneralWounded),
        "veteran" => Some(EventEffect::Veteran),
        "wind_changes" => Some(EventEffect::WindChanges),
        "cancel_events" => Some(EventEffect::CancelEvents),
        other => {
            e.unknown_name(
                ctx,
                "effect",
                "event effect",
                other,
                &sp,
                &EventEffect::NAMES,
            );
            None
        }
    });
    let (id, id_span) = def.id?;
    Some((
        Event {
            id,
            title: def.title?,
            text: def.text?,
            icons: icons?,
            effect: effect?,
        },
        id_span,
    ))
}

fn read_icons(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>) -> Option<Icons> {
    let (items, span) = match e.string_list(ctx, "icons", "a list of strings") {
        Got::Absent => {
            e.missing(ctx, "icons", "a list of sword, shield, bow, charge");
            return None;
        }
        Got::Bad => return None,
        Got::Val(items, span) => (items, span),
    };
    let mut icons = Icons::default();
    let mut ok = true;
    for (name, sp) in items {
        let slot = match name.as_str() {
            "sword" => &mut icons.attacker,
            "shield" => &mut icons.defender,
            "bow" => &mut icons.ranged,
            "charge" => &mut icons.charge,
            other => {
                ok = false;
                e.unknown_name(ctx, "icons", "icon", other, &sp, &Icons::NAMES);
                continue;
            }
        };
        if *slot {
            ok = false;
            e.bad(
                ctx,
                K::Duplicate,
                "icons",
                &sp,
                format!("icon `{name}` is listed twice"),
            );
        }
        *slot = true;
    }
    if ok && !(icons.attacker || icons.defender || icons.ranged) {
        ok = false;
        e.bad(
            ctx,
            K::BadValue,
            "icons",
            &span,
            "an event needs a sword, a shield or a bow: the icons say whom it benefits (V \"Events\")".into(),
        );
    }
    ok.then_some(icons)
}

fn parse_stat(s: &str) -> Option<Stat> {
    match s {
        "hit" => Some(Stat::Hit),
        "damage" => Some(Stat::Damage),
        "power" => Some(Stat::Power),
        "dodge" => Some(Stat::Dodge),
        "armor" => Some(Stat::Armor),
        "morale" => Some(Stat::Morale),
        _ => None,
    }
}

const STATS: [&str; 6] = ["hit", "damage", "power", "dodge", "armor", "morale"];

fn parse_reroll(s: &str) -> Option<Reroll> {
    match s {
        "none" => Some(Reroll::None),
        "ones" => Some(Reroll::Ones),
        "failures" => Some(Reroll::Failures),
        _ => None,
    }
}

const REROLLS: [&str; 3] = ["none", "ones", "failures"];
const WHO: [&str; 2] = ["beneficiary", "opponent"];

fn read_combat(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>) -> Option<Vec<CombatTemplate>> {
    let Some(v) = e.get("combat") else {
        e.missing(
            ctx,
            "combat",
            "a list of combat effects, e.g. [{ effect = \"modify\", stat = \"hit\", delta = 1 }]",
        );
        return None;
    };
    let DeValue::Array(items) = v.get_ref() else {
        e.wrong_type(ctx, "combat", "a list of tables", v);
        return None;
    };
    if items.is_empty() {
        e.bad(
            ctx,
            K::Empty,
            "combat",
            &v.span(),
            "`combat` lists no effect".into(),
        );
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let path = format!("{}[{}]", e.field("combat"), i + 1);
        let DeValue::Table(t) = item.get_ref() else {
            ok = false;
            ctx.err(
                K::WrongType,
                Some(item.span()),
                Some(path),
                format!(
                    "each combat effect must be a table, not {}",
                    type_name(item.get_ref())
                ),
            );
            continue;
        };
        let c = Entry::new(t, item.span(), path);
        match read_template(&c, ctx) {
            Some(x) => out.push(x),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn read_template(c: &Entry<'_, '_>, ctx: &mut Ctx<'_>) -> Option<CombatTemplate> {
    let names = &CombatTemplate::NAMES;
    let (name, sp) = c.req_string(ctx, "effect", &format!("one of: {}", names.join(", ")))?;
    if !names.contains(&name.as_str()) {
        c.unknown_name(ctx, "effect", "combat effect", &name, &sp, names);
        return None;
    }
    c.check_fields(
        ctx,
        template_params(&name),
        &format!(" for combat effect `{name}`"),
    );
    let who =
        |ctx: &mut Ctx<'_>| c.name_of(ctx, "who", "side", &WHO, Some(Who::Beneficiary), Who::parse);
    match name.as_str() {
        "modify" => {
            let who = who(ctx);
            let stat = c.name_of(ctx, "stat", "stat", &STATS, None, parse_stat);
            let delta = c.int_in(ctx, "delta", -6..=6, None, "the change, e.g. 1 or -1");
            if delta == Some(0)
                && let Some(v) = c.get("delta")
            {
                c.bad(
                    ctx,
                    K::OutOfRange,
                    "delta",
                    &v.span(),
                    "`delta` must not be 0".into(),
                );
                return None;
            }
            Some(CombatTemplate::Modify {
                who: who?,
                stat: stat?,
                delta: delta? as i32,
            })
        }
        "grant_priority" => who(ctx).map(|who| CombatTemplate::GrantPriority { who }),
        "cancel_priority" => who(ctx).map(|who| CombatTemplate::CancelPriority { who }),
        "extra_dice" => {
            let who = who(ctx);
            let dice = c.int_in(ctx, "dice", 1..=6, None, "how many extra dice");
            Some(CombatTemplate::ExtraDice {
                who: who?,
                dice: dice? as u32,
            })
        }
        "reroll" => {
            let who = who(ctx);
            let hit = c.name_of(
                ctx,
                "hit",
                "re-roll",
                &REROLLS,
                Some(Reroll::None),
                parse_reroll,
            );
            let damage = c.name_of(
                ctx,
                "damage",
                "re-roll",
                &REROLLS,
                Some(Reroll::None),
                parse_reroll,
            );
            if hit == Some(Reroll::None) && damage == Some(Reroll::None) {
                ctx.err(
                    K::MissingField,
                    Some(c.span().clone()),
                    Some(c.path().to_string()),
                    "a reroll needs `hit` or `damage` (\"ones\" or \"failures\")",
                );
                return None;
            }
            Some(CombatTemplate::Reroll {
                who: who?,
                hit: hit?,
                damage: damage?,
            })
        }
        "ambush" => c
            .int_in(ctx, "dice", 1..=8, None, "the ambusher's dice")
            .map(|d| CombatTemplate::Ambush { dice: d as u32 }),
        "throw_javelins" => Some(CombatTemplate::ThrowJavelins),
        _ => Some(CombatTemplate::CancelCombat),
    }
}

fn read_card(
    ctx: &mut Ctx<'_>,
    index: usize,
    table: &DeTable<'_>,
    span: Range<usize>,
    orders: &[&str],
    events: &[&str],
    check_refs: bool,
) -> Option<(CardKind, usize, usize)> {
    let e = Entry::new(table, span, format!("card[{index}]"));
    e.check_fields(ctx, CARD_FIELDS, "");
    let reference = |ctx: &mut Ctx<'_>, key: &str, known: &[&str]| -> Option<(String, usize)> {
        let (id, sp) = e.req_string(ctx, key, &format!("the id of an [[{key}]]"))?;
        match known.iter().position(|k| *k == id) {
            Some(i) => Some((id, i)),
            None => {
                if check_refs {
                    e.bad(
                        ctx,
                        K::UnknownName,
                        key,
                        &sp,
                        format!(
                            "no {key} `{id}` is defined in this deck{}",
                            suggest(&id, known)
                        ),
                    );
                }
                None
            }
        }
    };
    let order = reference(ctx, "order", orders);
    let event = reference(ctx, "event", events);
    let copies = e.int_in(ctx, "copies", 1..=100, Some(1), "");
    let ((order, oi), (event, ei)) = (order?, event?);
    Some((
        CardKind {
            order,
            event,
            copies: copies? as u32,
        },
        oi,
        ei,
    ))
}

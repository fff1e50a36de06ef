//! A value's JSON with every object's keys in sorted order, written straight to bytes: the
//! very bytes of `serde_json::to_string(&serde_json::to_value(value)?)` (a `Value`'s objects
//! are sorted maps), without building the `Value` (its keys, nodes and strings allocated one
//! by one: 6.5% of the load test's server time for the acting seat's view alone).
//!
//! Every view a system gives goes out this way whole (the answer to an action, a view, a
//! replay); the WebSocket patches still diff `Value`s. Scalars are written by serde_json
//! itself, converted first as `to_value` converts them (an `f32` as the `f64` it becomes,
//! 128-bit integers only within 64 bits, map keys as `Value`'s string keys); an object's
//! members are written each into a buffer, then in the order of their keys (the last of
//! equal keys wins, as in a map).

use std::borrow::Cow;
use std::ops::Range;

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::Error;

/// `value` as JSON, objects' keys sorted: the bytes of `to_string(&to_value(value)?)`.
pub(crate) fn to_sorted_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut out = Vec::with_capacity(256);
    value.serialize(Sorted { out: &mut out })?;
    // Only serde_json's own output and valid UTF-8 keys were written.
    String::from_utf8(out).map_err(ser::Error::custom)
}

/// Writes one value to `out`.
struct Sorted<'a> {
    out: &'a mut Vec<u8>,
}

fn scalar<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    serde_json::to_writer(out, value)
}

/// `{"variant":` before a variant's content (closed by `}` after it).
fn open_variant(out: &mut Vec<u8>, variant: &str) -> Result<(), Error> {
    out.push(b'{');
    scalar(out, variant)?;
    out.push(b':');
    Ok(())
}

impl<'a> ser::Serializer for Sorted<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        let v = i64::try_from(v).map_err(|_| ser::Error::custom("number out of range"))?;
        scalar(self.out, &v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        let v = u64::try_from(v).map_err(|_| ser::Error::custom("number out of range"))?;
        scalar(self.out, &v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        // `to_value` keeps an f32 as the f64 it converts to.
        scalar(self.out, &f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        scalar(self.out, v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        // An array of numbers, as `to_value` makes it.
        scalar(self.out, v)
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        scalar(self.out, variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        open_variant(self.out, variant)?;
        value.serialize(Sorted {
            out: &mut *self.out,
        })?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'a>, Error> {
        self.out.push(b'[');
        Ok(Seq {
            out: self.out,
            first: true,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Seq<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Seq<'a>, Error> {
        open_variant(self.out, variant)?;
        self.out.push(b'[');
        Ok(Seq {
            out: self.out,
            first: true,
            variant: true,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Object<'a>, Error> {
        Ok(Object::new(self.out, false))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Object<'a>, Error> {
        Ok(Object::new(self.out, false))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Object<'a>, Error> {
        open_variant(self.out, variant)?;
        Ok(Object::new(self.out, true))
    }
}

/// An array being written (a tuple variant's inside its `{"variant": ...}`).
struct Seq<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    variant: bool,
}

impl Seq<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        value.serialize(Sorted {
            out: &mut *self.out,
        })
    }

    fn close(self) -> Result<(), Error> {
        self.out.push(b']');
        if self.variant {
            self.out.push(b'}');
        }
        Ok(())
    }
}

/// The four array-like compounds, each an element at a time.
macro_rules! array_like {
    ($($compound:ident :: $element:ident),*) => {$(
        impl ser::$compound for Seq<'_> {
            type Ok = ();
            type Error = Error;
            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                self.close()
            }
        }
    )*};
}

array_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An object being written: each member's value into `values`, then all of them in the order
/// of their keys (a struct variant's inside its `{"variant": ...}`).
struct Object<'a> {
    out: &'a mut Vec<u8>,
    members: Vec<(Cow<'static, str>, Range<usize>)>,
    values: Vec<u8>,
    /// A map's key, waiting for its value.
    key: Option<String>,
    variant: bool,
}

impl<'a> Object<'a> {
    fn new(out: &'a mut Vec<u8>, variant: bool) -> Self {
        Object {
            out,
            members: Vec::new(),
            values: Vec::new(),
            key: None,
            variant,
        }
    }

    fn member<T: Serialize + ?Sized>(
        &mut self,
        key: Cow<'static, str>,
        value: &T,
    ) -> Result<(), Error> {
        let start = self.values.len();
        value.serialize(Sorted {
            out: &mut self.values,
        })?;
        self.members.push((key, start..self.values.len()));
        Ok(())
    }

    fn close(mut self) -> Result<(), Error> {
        // Stable: of equal keys the last one stays last, and is the one written.
        self.members
            .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        self.out.push(b'{');
        let mut first = true;
        for (i, (key, range)) in self.members.iter().enumerate() {
            if self.members.get(i + 1).is_some_and(|next| next.0 == *key) {
                continue;
            }
            if !std::mem::take(&mut first) {
                self.out.push(b',');
            }
            scalar(self.out, key.as_ref())?;
            self.out.push(b':');
            self.out.extend_from_slice(&self.values[range.clone()]);
        }
        self.out.push(b'}');
        if self.variant {
            self.out.push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(MapKey)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("a map value without its key"))?;
        self.member(Cow::Owned(key), value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

/// Structs and struct variants, a named field at a time.
macro_rules! struct_like {
    ($($compound:ident),*) => {$(
        impl ser::$compound for Object<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.member(Cow::Borrowed(key), value)
            }
            fn end(self) -> Result<(), Error> {
                self.close()
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);

/// A map key as `to_value` makes it a string: serde_json's own key serializer, through a
/// one-entry map (strings, characters, integers, booleans, finite floats, unit variants and
/// newtypes of those; anything else is its error).
struct MapKey;

impl MapKey {
    fn through_json<T: Serialize + ?Sized>(key: &T) -> Result<String, Error> {
        struct One<'k, K: ?Sized>(&'k K);
        impl<K: Serialize + ?Sized> Serialize for One<'_, K> {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeMap;
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(self.0, &())?;
                map.end()
            }
        }
        match serde_json::to_value(One(key))? {
            serde_json::Value::Object(map) => map
                .into_iter()
                .next()
                .map(|(k, _)| k)
                .ok_or_else(|| ser::Error::custom("a map key that made no key")),
            _ => Err(ser::Error::custom("a map key that made no key")),
        }
    }
}

impl ser::Serializer for MapKey {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result<String, Error> {
        Self::through_json(&v)
    }
    fn serialize_i8(self, v: i8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i128(self, v: i128) -> Result<String, Error> {
        Self::through_json(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u128(self, v: u128) -> Result<String, Error> {
        Self::through_json(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<String, Error> {
        Self::through_json(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<String, Error> {
        Self::through_json(&v)
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<String, Error> {
        Self::through_json(&Bytes(v))
    }
    fn serialize_none(self) -> Result<String, Error> {
        Self::through_json(&Option::<()>::None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, Error> {
        Self::through_json(&Some(value))
    }
    fn serialize_unit(self) -> Result<String, Error> {
        Self::through_json(&())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, Error> {
        Self::through_json(&())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

/// Bytes handed on as bytes.
struct Bytes<'b>(&'b [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use acies_core::{GameRng, Ruleset, Viewer};
    use serde::Serialize;
    use serde_json::{Value, json};

    use super::to_sorted_string;
    use crate::testing::{DiceRace, RaceAction, RaceSeat, RaceSetup};

    /// The bytes the server wrote before: through a `Value`.
    fn through_value<T: Serialize>(value: &T) -> String {
        serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
    }

    fn same<T: Serialize + std::fmt::Debug>(value: &T) {
        assert_eq!(
            to_sorted_string(value).unwrap(),
            through_value(value),
            "{value:?}"
        );
    }

    #[derive(Serialize, Debug)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { zeta: bool, alpha: Option<f32> },
    }

    #[derive(Serialize, Debug)]
    struct Inner {
        b: u8,
        #[serde(rename = "A")]
        upper: char,
    }

    #[derive(Serialize, Debug)]
    struct Unit;

    #[derive(Serialize, Debug)]
    struct Wrapper(Vec<u16>);

    #[derive(Serialize, Debug)]
    struct Pair(i8, &'static str);

    /// Every shape of serde's data model, keys out of order, escapes, floats, duplicates.
    #[derive(Serialize, Debug)]
    struct Everything {
        zebra: u64,
        apple: i64,
        #[serde(rename = "Émile \"quoted\"\n")]
        escaped: &'static str,
        #[serde(rename = "_under")]
        under: f64,
        small: f32,
        not_a_number: f64,
        big: u128,
        shapes: Vec<Shape>,
        by_number: BTreeMap<u32, Inner>,
        by_seat: HashMap<RaceSeat, Vec<Option<Unit>>>,
        by_shape: BTreeMap<Shape, i16>,
        by_bool: BTreeMap<bool, ()>,
        wrapper: Wrapper,
        pair: Pair,
        tuple: (u8, Option<&'static str>),
        bytes: &'static [u8],
        value: Value,
        #[serde(flatten)]
        flattened: BTreeMap<String, Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    impl PartialEq for Shape {
        fn eq(&self, other: &Self) -> bool {
            format!("{self:?}") == format!("{other:?}")
        }
    }
    impl Eq for Shape {}
    impl PartialOrd for Shape {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Shape {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            format!("{self:?}").cmp(&format!("{other:?}"))
        }
    }

    #[test]
    fn every_shape_gives_the_bytes_of_a_value() {
        let everything = Everything {
            zebra: u64::MAX,
            apple: i64::MIN,
            escaped: "tab\t, \u{1} and \u{202e}",
            under: 0.1,
            small: 0.1,
            not_a_number: f64::NAN,
            big: 12,
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(7),
                Shape::Tuple(-3, "x".into()),
                Shape::Struct {
                    zeta: true,
                    alpha: Some(1.5),
                },
            ],
            by_number: [
                (10, Inner { b: 1, upper: 'é' }),
                (9, Inner { b: 2, upper: '"' }),
            ]
            .into_iter()
            .collect(),
            by_seat: [(RaceSeat::B, vec![None, Some(Unit)]), (RaceSeat::A, vec![])]
                .into_iter()
                .collect(),
            by_shape: [(Shape::Unit, 1)].into_iter().collect(),
            by_bool: [(true, ()), (false, ())].into_iter().collect(),
            wrapper: Wrapper(vec![1, 2]),
            pair: Pair(-1, "p"),
            tuple: (3, None),
            bytes: b"ab",
            value: json!({"z": [1, 2.5, null, {"b": {}, "a": []}], "": "empty"}),
            // Keys equal to a field's: the last written wins, as in a map.
            flattened: [
                ("apple".to_owned(), json!("again")),
                ("0".to_owned(), json!(0)),
            ]
            .into_iter()
            .collect(),
            skipped: None,
        };
        same(&everything);
        // What a `Value` refuses is refused.
        assert!(to_sorted_string(&[u128::MAX]).is_err());
        assert!(serde_json::to_value([u128::MAX]).is_err());
        let bad_key: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        assert!(to_sorted_string(&bad_key).is_err());
        assert!(serde_json::to_value(&bad_key).is_err());
    }

    /// Random JSON values (odd keys, every kind of number, nesting) come out as they went in.
    #[test]
    fn random_values_give_the_bytes_of_a_value() {
        fn random(rng: &mut GameRng, depth: u32) -> Value {
            match rng.below(if depth > 3 { 6 } else { 8 }) {
                0 => Value::Null,
                1 => Value::Bool(rng.below(2) == 1),
                2 => json!(rng.next_u64()),
                3 => json!(-(rng.below(1000) as i64)),
                4 => json!(f64::from(rng.below(10_000)) / 7.0),
                5 => {
                    let chars = ["a", "B", "é", "\"", "\\", "\n", "\u{7f}", "😀", "0", "_"];
                    let n = rng.below(5);
                    Value::String((0..n).map(|_| chars[rng.below(10) as usize]).collect())
                }
                6 => Value::Array((0..rng.below(4)).map(|_| random(rng, depth + 1)).collect()),
                _ => {
                    let keys = ["b", "a", "A", "aa", "", "é", "Z", "a\"b", "10", "9"];
                    Value::Object(
                        (0..rng.below(6))
                            .map(|_| {
                                let key = keys[rng.below(10) as usize].to_owned();
                                (key, random(rng, depth + 1))
                            })
                            .collect(),
                    )
                }
            }
        }
        let mut rng = GameRng::new(9);
        for _ in 0..2000 {
            same(&random(&mut rng, 0));
        }
    }

    /// The race's views, for both seats and a spectator, through whole games.
    #[test]
    fn the_race_views_keep_their_bytes() {
        for simultaneous in [false, true] {
            let setup = RaceSetup {
                target: 40,
                hands: BTreeMap::new(),
                max_turns: None,
                simultaneous,
            };
            let mut state = DiceRace::new_game(&setup, 11).unwrap();
            let actions = [RaceAction::Draw, RaceAction::Roll];
            let mut i = 0;
            while let Some(&seat) = DiceRace::actors(&state).first() {
                for viewer in [
                    Viewer::Seat(RaceSeat::A),
                    Viewer::Seat(RaceSeat::B),
                    Viewer::Spectator,
                ] {
                    same(&DiceRace::view(&state, viewer));
                }
                let action = &actions[i % 3 % 2];
                state = DiceRace::apply(&state, seat, action)
                    .or_else(|_| DiceRace::apply(&state, seat, &RaceAction::Roll))
                    .unwrap()
                    .state;
                i += 1;
            }
        }
    }
}

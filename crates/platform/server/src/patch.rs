//! What changed between two views, as a JSON Patch (RFC 6902, the `add`, `remove` and
//! `replace` operations only), so that after its first view a client receives only the
//! differences.
//!
//! Arrays are compared by their common beginning and end, so an appended log entry is one
//! `add` at the end and a unit removed from the middle of a list is one `remove`, whatever
//! the length of the list. A client applies the operations in order (`patch.js` of the web
//! shell does).

use serde_json::{Map, Value, json};

/// The operations turning `old` into `new` (empty when they are equal).
pub fn diff(old: &Value, new: &Value) -> Vec<Value> {
    let mut ops = Vec::new();
    diff_at(&mut String::new(), old, new, &mut ops);
    ops
}

/// The operations turning `old` into `new`, or one `replace` of the whole document when that
/// is shorter.
pub fn diff_or_replace(old: &Value, new: &Value) -> Vec<Value> {
    let ops = diff(old, new);
    let replace = || vec![json!({ "op": "replace", "path": "", "value": new })];
    if ops.len() > 1 && encoded_len(&ops) > encoded_len(new) {
        return replace();
    }
    ops
}

fn encoded_len(v: &impl serde::Serialize) -> usize {
    serde_json::to_vec(v).map(|b| b.len()).unwrap_or(usize::MAX)
}

/// A JSON Pointer reference token: `~` and `/` escaped (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn op(kind: &str, path: &str, value: Option<&Value>) -> Value {
    let mut o = Map::new();
    o.insert("op".into(), kind.into());
    o.insert("path".into(), path.into());
    if let Some(v) = value {
        o.insert("value".into(), v.clone());
    }
    Value::Object(o)
}

/// Appends to `ops` what turns `old` into `new` at `path` (restored before returning).
fn diff_at(path: &mut String, old: &Value, new: &Value, ops: &mut Vec<Value>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => diff_objects(path, a, b, ops),
        (Value::Array(a), Value::Array(b)) => diff_arrays(path, a, b, ops),
        _ if old == new => {}
        _ => ops.push(op("replace", path, Some(new))),
    }
}

fn with_segment(path: &mut String, segment: &str, f: impl FnOnce(&mut String)) {
    let len = path.len();
    path.push('/');
    path.push_str(segment);
    f(path);
    path.truncate(len);
}

fn diff_objects(
    path: &mut String,
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    ops: &mut Vec<Value>,
) {
    for (key, old) in a {
        let segment = escape(key);
        match b.get(key) {
            Some(new) => with_segment(path, &segment, |p| diff_at(p, old, new, ops)),
            None => with_segment(path, &segment, |p| ops.push(op("remove", p, None))),
        }
    }
    for (key, new) in b {
        if !a.contains_key(key) {
            with_segment(path, &escape(key), |p| ops.push(op("add", p, Some(new))));
        }
    }
}

fn diff_arrays(path: &mut String, a: &[Value], b: &[Value], ops: &mut Vec<Value>) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (&a[prefix..], &b[prefix..]);
    let suffix = a_rest
        .iter()
        .rev()
        .zip(b_rest.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let old_mid = &a_rest[..a_rest.len() - suffix];
    let new_mid = &b_rest[..b_rest.len() - suffix];
    let common = old_mid.len().min(new_mid.len());
    for i in 0..common {
        with_segment(path, &(prefix + i).to_string(), |p| {
            diff_at(p, &old_mid[i], &new_mid[i], ops);
        });
    }
    let at = prefix + common;
    // Elements removed: each `remove` at the same index takes the next one.
    for _ in common..old_mid.len() {
        with_segment(path, &at.to_string(), |p| ops.push(op("remove", p, None)));
    }
    // Elements added: appended with `-` when nothing follows them (each lands at the end),
    // inserted at their index otherwise.
    for (k, value) in new_mid.iter().enumerate().skip(common) {
        let segment = if suffix == 0 {
            "-".to_owned()
        } else {
            (prefix + k).to_string()
        };
        with_segment(path, &segment, |p| ops.push(op("add", p, Some(value))));
    }
}

/// Applies `ops` to `doc` (the same subset: `add`, `remove`, `replace`). The server never
/// needs this; it is the reference the tests check [`diff`] against, and what `patch.js`
/// mirrors.
pub fn apply(doc: &mut Value, ops: &[Value]) -> Result<(), String> {
    for o in ops {
        let kind = o["op"].as_str().ok_or("an operation without op")?;
        let path = o["path"].as_str().ok_or("an operation without path")?;
        if path.is_empty() {
            match kind {
                "replace" | "add" => *doc = o["value"].clone(),
                _ => return Err(format!("cannot {kind} the whole document")),
            }
            continue;
        }
        let (parent_path, last) = path.rsplit_once('/').ok_or("a path must start with /")?;
        let key = last.replace("~1", "/").replace("~0", "~");
        let parent = doc
            .pointer_mut(parent_path)
            .ok_or_else(|| format!("no {parent_path:?} in the document"))?;
        apply_one(parent, kind, &key, &o["value"])?;
    }
    Ok(())
}

fn apply_one(parent: &mut Value, kind: &str, key: &str, value: &Value) -> Result<(), String> {
    match parent {
        Value::Object(map) => {
            match kind {
                "add" | "replace" => {
                    map.insert(key.to_owned(), value.clone());
                }
                "remove" => {
                    map.remove(key)
                        .ok_or_else(|| format!("no key {key:?} to remove"))?;
                }
                other => return Err(format!("unknown op {other:?}")),
            }
            Ok(())
        }
        Value::Array(list) => {
            let index = if key == "-" {
                list.len()
            } else {
                key.parse::<usize>()
                    .map_err(|_| format!("{key:?} is not an index"))?
            };
            match kind {
                "add" if index <= list.len() => list.insert(index, value.clone()),
                "replace" if index < list.len() => list[index] = value.clone(),
                "remove" if index < list.len() => {
                    list.remove(index);
                }
                _ => return Err(format!("{kind} at index {index} of {}", list.len())),
            }
            Ok(())
        }
        _ => Err("the parent is not a container".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(old: Value, new: Value) -> Vec<Value> {
        let ops = diff(&old, &new);
        let mut patched = old.clone();
        apply(&mut patched, &ops).unwrap();
        assert_eq!(patched, new, "ops {ops:?}");
        ops
    }

    #[test]
    fn equal_documents_need_nothing() {
        assert!(
            round_trip(
                json!({"a": [1, 2], "b": null}),
                json!({"a": [1, 2], "b": null})
            )
            .is_empty()
        );
    }

    #[test]
    fn an_appended_entry_is_one_add_whatever_the_length() {
        let long: Vec<u32> = (0..1000).collect();
        let mut longer = long.clone();
        longer.push(1000);
        let ops = round_trip(json!({ "log": long }), json!({ "log": longer }));
        assert_eq!(
            ops,
            vec![json!({"op": "add", "path": "/log/-", "value": 1000})]
        );
    }

    #[test]
    fn a_removed_middle_element_is_one_remove() {
        let ops = round_trip(
            json!([{"id": 1}, {"id": 2}, {"id": 3}]),
            json!([{"id": 1}, {"id": 3}]),
        );
        assert_eq!(ops, vec![json!({"op": "remove", "path": "/1"})]);
    }

    #[test]
    fn nested_changes_nulls_and_keys() {
        let ops = round_trip(
            json!({"units": [{"id": 1, "pose": {"x": 1.0}}], "pending": {"k": 1}, "gone": 3, "a/b": 1}),
            json!({"units": [{"id": 1, "pose": {"x": 2.5}}], "pending": null, "new": [1], "a/b": 2}),
        );
        assert!(ops.contains(&json!({"op": "replace", "path": "/units/0/pose/x", "value": 2.5})));
        assert!(ops.contains(&json!({"op": "replace", "path": "/a~1b", "value": 2})));
    }

    #[test]
    fn arrays_growing_and_shrinking_in_the_middle() {
        round_trip(json!([1, 2, 3, 4]), json!([1, 9, 8, 7, 3, 4]));
        round_trip(json!([1, 9, 8, 7, 3, 4]), json!([1, 2, 4]));
        round_trip(json!([]), json!([1, 2]));
        round_trip(json!([1, 2]), json!([]));
        round_trip(json!([1, 1, 1]), json!([1, 1, 1, 1]));
        round_trip(json!([1, 2, 1]), json!([1]));
        round_trip(json!(1), json!([1]));
    }

    #[test]
    fn a_whole_replacement_when_it_is_shorter() {
        let old = json!({"a": 1, "b": 2, "c": 3});
        let new = json!([0]);
        let ops = diff_or_replace(&old, &new);
        let mut patched = old.clone();
        apply(&mut patched, &ops).unwrap();
        assert_eq!(patched, new);
        assert_eq!(ops.len(), 1);
    }
}

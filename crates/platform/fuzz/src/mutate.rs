//! Mutations of an action's JSON: the values a careless or hostile client would send (zero,
//! negative, huge and tiny numbers, empty and long strings, emptied or swollen lists, missing
//! and unknown fields), each applied at one node chosen at random.

use acies_core::GameRng;
use serde_json::{Map, Number, Value};

/// Longest list or string a mutation makes (bounded so that a fuzz run stays fast while
/// still exceeding every limit an engine should enforce).
const SWOLLEN: usize = 2_000;

/// `value` with one to three random mutations.
pub fn mutate(value: &Value, rng: &mut GameRng) -> Value {
    let mut out = value.clone();
    for _ in 0..=rng.below(3) {
        let nodes = count(&out);
        let target = rng.below(nodes as u32) as usize;
        let mut seen = 0;
        mutate_nth(&mut out, target, &mut seen, rng);
    }
    out
}

/// How many nodes `value` has (itself included).
fn count(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count).sum(),
        Value::Object(fields) => fields.values().map(count).sum(),
        _ => 0,
    }
}

/// Mutates the `target`-th node in depth-first order; `seen` counts the nodes passed.
fn mutate_nth(value: &mut Value, target: usize, seen: &mut usize, rng: &mut GameRng) -> bool {
    if *seen == target {
        *value = replacement(value, rng);
        return true;
    }
    *seen += 1;
    match value {
        Value::Array(items) => items
            .iter_mut()
            .any(|item| mutate_nth(item, target, seen, rng)),
        Value::Object(fields) => fields
            .values_mut()
            .any(|field| mutate_nth(field, target, seen, rng)),
        _ => false,
    }
}

/// What replaces one node.
fn replacement(value: &Value, rng: &mut GameRng) -> Value {
    match value {
        Value::Number(n) => number(n, rng),
        Value::String(s) => string(s, rng),
        Value::Bool(b) => Value::Bool(!b),
        Value::Array(items) => array(items, rng),
        Value::Object(fields) => object(fields, rng),
        Value::Null => Value::from(rng.below(5)),
    }
}

fn number(n: &Number, rng: &mut GameRng) -> Value {
    let x = n.as_f64().unwrap_or(0.0);
    let choices: [Value; 16] = [
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(u32::MAX),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(1e308),
        Value::from(-1e308),
        Value::from(1e-308),
        Value::from(0.5),
        Value::from(x * 1000.0),
        Value::from(-x),
        Value::from(x + 1.0),
        Value::from(x - 1.0),
        Value::from(x + 0.01),
    ];
    choices[rng.below(choices.len() as u32) as usize].clone()
}

fn string(s: &str, rng: &mut GameRng) -> Value {
    match rng.below(5) {
        0 => Value::from(""),
        1 => Value::from(format!("{s}x")),
        2 => Value::from("\u{202e}<script>"),
        3 => Value::from("a".repeat(SWOLLEN)),
        _ => Value::from(s.chars().rev().collect::<String>()),
    }
}

fn array(items: &[Value], rng: &mut GameRng) -> Value {
    let mut out = items.to_vec();
    match rng.below(4) {
        0 => out.clear(),
        1 if !out.is_empty() => {
            let i = rng.below(out.len() as u32) as usize;
            out.remove(i);
        }
        2 if !out.is_empty() => {
            let i = rng.below(out.len() as u32) as usize;
            out.push(out[i].clone());
        }
        _ => {
            let first = out.first().cloned().unwrap_or(Value::from(0));
            out = vec![first; SWOLLEN];
        }
    }
    Value::Array(out)
}

fn object(fields: &Map<String, Value>, rng: &mut GameRng) -> Value {
    let mut out = fields.clone();
    let keys: Vec<String> = out.keys().cloned().collect();
    if !keys.is_empty() && rng.below(2) == 0 {
        let key = &keys[rng.below(keys.len() as u32) as usize];
        out.remove(key);
    } else {
        out.insert("unexpected".into(), Value::from(1));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_can_be_reached_and_the_input_is_kept() {
        let input = serde_json::json!({"a": [1, 2, {"b": "c"}], "d": true, "e": null});
        assert_eq!(count(&input), 8);
        let mut rng = GameRng::new(1);
        let mut changed = 0;
        for _ in 0..200 {
            if mutate(&input, &mut rng) != input {
                changed += 1;
            }
        }
        assert!(changed > 150, "only {changed} of 200 mutants differ");
        assert_eq!(input["a"][2]["b"], "c");
    }

    #[test]
    fn numbers_become_extreme_values() {
        let mut rng = GameRng::new(2);
        let seen: Vec<Value> = (0..400)
            .map(|_| number(&Number::from(3), &mut rng))
            .collect();
        assert!(seen.contains(&Value::from(1e308)));
        assert!(seen.contains(&Value::from(-1)));
        assert!(seen.contains(&Value::from(u64::MAX)));
    }
}

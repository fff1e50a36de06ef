//! Writing a faction back to the TOML format the loader reads (the inverse of `parse`).

use std::fmt::Write as _;

use super::FactionData;
use crate::card::UnitCard;
use crate::general::GeneralCard;

/// A TOML string literal (quoted and escaped).
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A number as written in the files: `2`, `2.5`.
fn num(x: f64) -> String {
    format!("{x}")
}

fn signed(x: i32) -> String {
    format!("{x:+}")
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<String> = items.map(q).collect();
    format!("[{}]", v.join(", "))
}

pub(crate) fn faction_to_toml(data: &FactionData, header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        let _ = writeln!(s, "# {line}");
    }
    let f = &data.faction;
    let _ = writeln!(s, "\n[faction]\nid = {}\nname = {}", q(&f.id), q(&f.name));
    if let Some(d) = &f.description {
        let _ = writeln!(s, "description = {}", q(d));
    }
    if f.mercenary {
        let _ = writeln!(s, "mercenary = true");
    }
    for u in &data.units {
        write_unit(&mut s, u);
        if let Some(max) = f.max_units.get(&u.id) {
            let _ = writeln!(s, "max = {max}");
        }
    }
    for g in &data.generals {
        write_general(&mut s, g);
    }
    s
}

fn write_unit(s: &mut String, u: &UnitCard) {
    let _ = writeln!(s, "\n[[unit]]");
    let _ = writeln!(s, "id = {}", q(&u.id));
    let _ = writeln!(s, "name = {}", q(&u.name));
    let _ = writeln!(s, "kind = {}", q(u.kind.as_str()));
    let _ = writeln!(s, "attack = \"{}/{}\"", u.attack.hit, u.attack.damage);
    if let Some(r) = u.ranged {
        let _ = writeln!(s, "ranged = \"{}/{}\"", r.power, num(r.range));
    }
    let _ = writeln!(s, "defense = \"{}/{}\"", u.defense.dodge, u.defense.armor);
    let _ = writeln!(s, "morale = {}", u.morale);
    let _ = writeln!(s, "health = {}", u.health);
    let _ = writeln!(s, "movement = {}", num(u.movement));
    let _ = writeln!(s, "value = {}", u.value);
    if !u.abilities.is_empty() {
        let _ = writeln!(
            s,
            "abilities = {}",
            list(u.abilities.iter().map(|a| a.as_str()))
        );
    }
    if !u.formations.is_empty() {
        let _ = writeln!(
            s,
            "formations = {}",
            list(u.formations.iter().map(|f| f.as_str()))
        );
    }
    if let Some((w, d)) = u.size {
        let _ = writeln!(s, "size = [{}, {}]", num(w), num(d));
    }
}

fn write_general(s: &mut String, g: &GeneralCard) {
    let _ = writeln!(s, "\n[[general]]");
    let _ = writeln!(s, "id = {}", q(&g.id));
    let _ = writeln!(s, "name = {}", q(&g.name));
    if let Some(d) = &g.dates {
        let _ = writeln!(s, "dates = {}", q(d));
    }
    let _ = writeln!(
        s,
        "attack = \"{}/{}\"",
        signed(g.attack.hit),
        signed(g.attack.damage)
    );
    let _ = writeln!(
        s,
        "defense = \"{}/{}\"",
        signed(g.defense.dodge),
        signed(g.defense.armor)
    );
    let _ = writeln!(s, "morale = {}", g.morale);
    let _ = writeln!(s, "area_of_influence = {}", num(g.area_of_influence));
    let _ = writeln!(s, "leadership = {}", g.leadership);
    let _ = writeln!(s, "points_modifier_pct = {}", g.points_modifier_pct);
    if let Some(sp) = &g.special {
        let mut t = format!(
            "special = {{ name = {}, text = {}",
            q(&sp.name),
            q(&sp.text)
        );
        if let Some(e) = &sp.effect {
            let _ = write!(t, ", effect = {}", q(e));
        }
        t.push_str(" }");
        let _ = writeln!(s, "{t}");
    }
}

//! A battlefield written out as the file [`crate::load::parse`] reads (the layout of
//! `data/onus/battlefields/*.toml`, crates/onus/terrain/README.md): what an editor saves.

use crate::battlefield::Battlefield;
use crate::kind::Material;
use crate::piece::Zone;

fn text(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn number(x: f64) -> String {
    toml::Value::Float(x).to_string()
}

fn pair(a: [f64; 2]) -> String {
    format!("[{}, {}]", number(a[0]), number(a[1]))
}

fn zone(out: &mut String, header: &str, z: &Zone) {
    let s = z.spec();
    out.push_str(&format!(
        "[[{header}]]\ncentre = {}\nsize = {}\n",
        pair(s.centre),
        pair(s.size)
    ));
    if s.angle != 0.0 {
        out.push_str(&format!("angle = {}\n", number(s.angle)));
    }
}

impl Battlefield {
    /// The battlefield as a battlefield file, `header`'s lines as its opening comment. What
    /// the file holds reads back as this battlefield (its problems too: nothing is checked
    /// here).
    pub fn to_toml(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!(
            "\n[battlefield]\nid = {}\nname = {}\n",
            text(&self.id),
            text(&self.name)
        ));
        if !self.description.is_empty() {
            out.push_str(&format!("description = {}\n", text(&self.description)));
        }
        out.push_str(&format!("table = {}\n", pair([self.width, self.depth])));
        if self.fordable_rivers {
            out.push_str("fordable_rivers = true\n");
        }
        for f in &self.fortresses {
            out.push_str(&format!(
                "\n[[fortress]]\nid = {}\nname = {}\nowner = {}\n",
                text(&f.id),
                text(&f.name),
                text(f.owner.id())
            ));
            if f.stone_towers_agreed {
                out.push_str("stone_towers_agreed = true\n");
            }
        }
        for s in &self.structures {
            out.push_str(&format!("\n[[structure]]\nid = {}\n", text(&s.id)));
            if !s.name.is_empty() {
                out.push_str(&format!("name = {}\n", text(&s.name)));
            }
            out.push_str(&format!("kind = {}\n", text(s.kind.id())));
            if s.kind.may_be_stone() || s.material != Material::Wood {
                out.push_str(&format!("material = {}\n", text(s.material.id())));
            }
            if let Some(f) = &s.fortress {
                out.push_str(&format!("fortress = {}\n", text(f)));
            }
            if let Some(o) = s.owner {
                out.push_str(&format!("owner = {}\n", text(o.id())));
            }
            for z in &s.zones {
                zone(&mut out, "structure.zone", z);
            }
        }
        for p in &self.pieces {
            out.push_str(&format!(
                "\n[[piece]]\nid = {}\nname = {}\nkind = {}\n",
                text(&p.id),
                text(&p.name),
                text(p.kind.id())
            ));
            if let Some(m) = p.material {
                out.push_str(&format!("material = {}\n", text(m.id())));
            }
            if let Some(n) = p.sections {
                out.push_str(&format!("sections = {n}\n"));
            }
            for z in &p.zones {
                zone(&mut out, "piece.zone", z);
            }
            for z in &p.top {
                zone(&mut out, "piece.top", z);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::builtin;
    use crate::load::{parse, read};

    /// Every shipped battlefield, written out, reads back as itself.
    #[test]
    fn a_written_battlefield_reads_back_as_itself() -> Result<(), String> {
        for b in builtin::all()? {
            let toml = b.to_toml("A test.\nTwo lines.");
            let back = parse("written.toml", &toml).map_err(|e| format!("{e:?}"));
            assert_eq!(back, Ok(b), "{toml}");
        }
        Ok(())
    }

    /// An editor's reading keeps the battlefield that breaks a rule, with the rule's problem
    /// located; a file that cannot be read gives none.
    #[test]
    fn read_keeps_a_battlefield_that_breaks_a_rule() {
        let castellum = builtin::SOURCES
            .iter()
            .find(|(name, _)| *name == "siege-castellum.toml")
            .map(|(_, text)| *text)
            .unwrap_or_default();
        assert!(!castellum.is_empty(), "siege-castellum.toml is shipped");
        let no_gate = castellum.replace("kind = \"gate_wall\"", "kind = \"wall\"");
        let (battlefield, problems) = read("no-gate.toml", &no_gate);
        let cost = battlefield
            .as_ref()
            .and_then(|b| b.fortress("castellum"))
            .map(|f| f.cost());
        assert_eq!(cost, Some(640), "read all the same");
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("at least one gate")
                    && p.field.as_deref() == Some("fortress \"castellum\".id")
                    && p.line > 1),
            "{problems:?}"
        );
        assert!(parse("no-gate.toml", &no_gate).is_err());
        let (none, problems) = read("broken.toml", "[battlefield]\nid = 3");
        assert!(none.is_none() && !problems.is_empty());
        let (ok, problems) = read("castellum.toml", castellum);
        assert!(ok.is_some() && problems.is_empty(), "{problems:?}");
    }
}

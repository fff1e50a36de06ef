//! The rules reader's API: `GET /api/{system}/rules?section=CITATION` resolves a citation as the
//! engine writes it ("VII-2.C Charging", "[VII-2.C Charging]", "VII-2.C") to the sections it
//! names, each with our own summary ([`crate::Host::rule_book`]) and, when the server was
//! pointed at the user's own copy of the text ([`crate::ServeConfig::rules_text`], `acies serve
//! --rules-text SYSTEM=PATH`), the passage of that copy under the section's heading.
//! `GET /api/{system}/rules` lists the sections.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use acies_data::rules::{MAX_CITATION, Section, Summaries, excerpt, resolve};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::system::SystemEntry;

/// The sections of the text a system cites and our summaries of them (a TOML file of ours in
/// `acies_data::rules::Summaries`' format, compiled in), for the rules reader.
#[derive(Clone, Copy, Debug)]
pub struct RuleBook {
    /// Every section the engine cites: the engine's own table.
    pub sections: &'static [Section],
    /// Our summaries, as TOML.
    pub summaries: &'static str,
    /// Where the summaries come from, for error messages ("data/onus/rules/summaries.toml").
    pub file: &'static str,
}

/// The largest copy of a text the server reads, in bytes.
pub const MAX_TEXT_BYTES: u64 = 16 * 1024 * 1024;

/// What was found of the sections in a user's copy of a text, reported at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextReport {
    pub system: String,
    pub path: PathBuf,
    /// Sections whose heading was found in this copy (and in no copy given before it).
    pub found: usize,
    /// Sections with a heading to look for.
    pub sought: usize,
    /// Sections found in no copy of this system, when this is its last copy.
    pub missing: Vec<String>,
}

/// One system's reader: the sections, our summaries and the passages of the user's copies.
pub(crate) struct Reader {
    system: &'static str,
    sections: &'static [Section],
    summaries: Summaries,
    /// By citation: the passage and the name of the copy it comes from.
    passages: HashMap<String, (String, String)>,
    own_text: bool,
}

impl Reader {
    /// Reads `book`'s summaries and the user's copies (`texts`, searched in order: the first
    /// copy where a section's heading is found gives its passage).
    pub(crate) fn new(
        system: &'static str,
        book: RuleBook,
        texts: &[PathBuf],
    ) -> Result<(Reader, Vec<TextReport>), String> {
        let summaries = Summaries::parse(book.file, book.summaries)
            .map_err(|e| format!("the summaries of {system}: {e}"))?;
        let all: Vec<Vec<String>> = summaries
            .sections
            .iter()
            .map(|s| s.heading.clone())
            .collect();
        let sought = summaries
            .sections
            .iter()
            .filter(|s| !s.heading.is_empty())
            .count();
        let mut passages: HashMap<String, (String, String)> = HashMap::new();
        let mut reports = Vec::new();
        for path in texts {
            let text = read_text(path)?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut found = 0;
            for s in &summaries.sections {
                if passages.contains_key(&s.cite) {
                    continue;
                }
                if let Some(p) = excerpt(&text, &s.heading, &all) {
                    passages.insert(s.cite.clone(), (p, name.clone()));
                    found += 1;
                }
            }
            reports.push(TextReport {
                system: system.to_owned(),
                path: path.clone(),
                found,
                sought,
                missing: Vec::new(),
            });
        }
        if let Some(last) = reports.last_mut() {
            last.missing = summaries
                .sections
                .iter()
                .filter(|s| !s.heading.is_empty() && !passages.contains_key(&s.cite))
                .map(|s| s.cite.clone())
                .collect();
        }
        Ok((
            Reader {
                system,
                sections: book.sections,
                summaries,
                passages,
                own_text: !texts.is_empty(),
            },
            reports,
        ))
    }

    fn head(&self) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        m.insert("system".into(), self.system.into());
        m.insert("title".into(), self.summaries.title.clone().into());
        m.insert("notice".into(), self.summaries.notice.clone().into());
        m.insert("own_text".into(), self.own_text.into());
        m
    }

    /// Every section, without its summary.
    fn list(&self) -> Value {
        let mut m = self.head();
        let sections: Vec<Value> = self
            .sections
            .iter()
            .map(|s| json!({ "cite": s.cite(), "number": s.number, "title": s.title }))
            .collect();
        m.insert("sections".into(), sections.into());
        Value::Object(m)
    }

    /// The sections a citation names, each with its summary and the user's passage.
    fn lookup(&self, citation: &str) -> Result<Value, ApiError> {
        let found = resolve(self.sections, citation);
        if found.is_empty() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_section",
                format!(
                    "no section of the {} rules is cited as {citation:?}",
                    self.system
                ),
            ));
        }
        let sections: Vec<Value> = found
            .into_iter()
            .map(|i| {
                let s = &self.sections[i];
                let cite = s.cite();
                let mut v = json!({
                    "cite": cite,
                    "number": s.number,
                    "title": s.title,
                    "summary": self.summaries.get(s).map(|x| x.summary.as_str()),
                });
                if let Some((text, source)) = self.passages.get(&cite) {
                    v["text"] = text.as_str().into();
                    v["source"] = source.as_str().into();
                }
                v
            })
            .collect();
        let mut m = self.head();
        m.insert("citation".into(), citation.into());
        m.insert("sections".into(), sections.into());
        Ok(Value::Object(m))
    }
}

fn read_text(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown} is not a file"));
    }
    if meta.len() > MAX_TEXT_BYTES {
        return Err(format!(
            "{shown} is {} bytes; a text of at most {MAX_TEXT_BYTES} bytes is read",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[derive(Deserialize)]
struct RulesQuery {
    #[serde(default)]
    section: Option<String>,
}

async fn rules(
    State(reader): State<Arc<Reader>>,
    q: Result<Query<RulesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = q
        .map(|Query(q)| q)
        .map_err(|r| ApiError::bad_request(r.body_text()))?;
    let body = match q.section.as_deref().map(str::trim) {
        None | Some("") => reader.list(),
        Some(c) if c.len() > MAX_CITATION => {
            return Err(ApiError::bad_request(format!(
                "a citation of at most {MAX_CITATION} bytes, not {}",
                c.len()
            )));
        }
        Some(c) => reader.lookup(c)?,
    };
    Ok(([(header::CACHE_CONTROL, "public, max-age=300")], Json(body)).into_response())
}

/// The reader of every system with a rule book, with the user's copies of its text
/// (`texts`: `(system id, path)`; a copy for a system without a reader is an error), and what
/// was found in each copy.
pub(crate) fn readers(
    systems: &[SystemEntry],
    texts: &[(String, PathBuf)],
) -> Result<(Vec<Reader>, Vec<TextReport>), String> {
    for (id, path) in texts {
        if !systems
            .iter()
            .any(|e| e.info.id == id && (e.rule_book)().is_some())
        {
            let known: Vec<&str> = systems
                .iter()
                .filter(|e| (e.rule_book)().is_some())
                .map(|e| e.info.id)
                .collect();
            return Err(format!(
                "a copy of the rules for {id:?} ({}): no system of that id has a rules reader; one of {}",
                path.display(),
                known.join(", ")
            ));
        }
    }
    let mut readers = Vec::new();
    let mut reports = Vec::new();
    for e in systems {
        let Some(book) = (e.rule_book)() else {
            continue;
        };
        let mine: Vec<PathBuf> = texts
            .iter()
            .filter(|(id, _)| id == e.info.id)
            .map(|(_, p)| p.clone())
            .collect();
        let (reader, report) = Reader::new(e.info.id, book, &mine)?;
        readers.push(reader);
        reports.extend(report);
    }
    Ok((readers, reports))
}

/// The routes of every reader (relative to `/api`): `/{system}/rules`.
pub(crate) fn routes(readers: Vec<Reader>) -> Router {
    let mut router = Router::new();
    for reader in readers {
        let path = format!("/{}/rules", reader.system);
        router = router.route(&path, get(rules).with_state(Arc::new(reader)));
    }
    router
}

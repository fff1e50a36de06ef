//! Rules in context: the sections of a rule text that a system cites, our own summaries of
//! them, and the excerpt of a section from the user's own copy of the text.
//!
//! A rule system says which sections its refusals, rolls and help cite as a table of
//! [`Section`]s (its source of truth, in the engine crate). A citation as the engine writes it
//! ("VII-2.C Charging", "VII-2.C", "[VII-2.C Charging]", "VII-3 Events / VII-5 Events / XI",
//! "Rallying (leaders)") is resolved to those sections by [`resolve`]. What each section says
//! is ours: a data file of short summaries written in our own words ([`Summaries`], read
//! from `data/<system>/rules.toml`), never the text itself. A player who owns the text may
//! point the server at a plain-text copy; [`excerpt`] finds a section's heading in it.

use std::ops::Range;

use toml::de::DeTable;

use crate::LoadErrors;
use crate::error::DataErrorKind as K;
use crate::located::{Ctx, Entry, Got};

/// A section of a rule text that a system cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// The section's number in the text ("VII-2.C", "T&F III"); empty for texts cited by
    /// heading alone (the quick-reference sheets).
    pub number: &'static str,
    /// Its heading ("Charging").
    pub title: &'static str,
    /// Other headings it is cited by ("Elite" for "Veterans and elites").
    pub aliases: &'static [&'static str],
    /// Whether the section is the whole of its number, so that the number alone cites it
    /// ("VII-2.C" is "VII-2.C Charging").
    pub whole: bool,
}

impl Section {
    /// A part of a numbered section ("VII-2.D", "Withdrawal").
    pub const fn part(number: &'static str, title: &'static str) -> Section {
        Section {
            number,
            title,
            aliases: &[],
            whole: false,
        }
    }

    /// A numbered section as a whole ("VII-2.C", "Charging"): the number alone cites it.
    pub const fn whole(number: &'static str, title: &'static str) -> Section {
        Section {
            number,
            title,
            aliases: &[],
            whole: true,
        }
    }

    /// A section cited by its heading alone ("Melee Combat").
    pub const fn titled(title: &'static str) -> Section {
        Section {
            number: "",
            title,
            aliases: &[],
            whole: false,
        }
    }

    /// The same section, also cited by these headings.
    pub const fn aka(self, aliases: &'static [&'static str]) -> Section {
        Section { aliases, ..self }
    }

    /// The citation that names it: "VII-2.C Charging", or its title when it has no number.
    pub fn cite(&self) -> String {
        if self.number.is_empty() {
            self.title.to_owned()
        } else {
            format!("{} {}", self.number, self.title)
        }
    }

    /// Every normalized key the section answers to (see [`resolve`]).
    fn keys(&self) -> Vec<String> {
        let mut keys = vec![norm(&self.cite())];
        for alias in self.aliases {
            keys.push(if self.number.is_empty() {
                norm(alias)
            } else {
                norm(&format!("{} {alias}", self.number))
            });
        }
        if self.whole {
            keys.push(norm(self.number));
        }
        keys
    }
}

/// The longest citation [`resolve`] looks at; a longer one resolves to nothing.
pub const MAX_CITATION: usize = 300;

/// A citation as compared: lower case, without brackets, quotes and emphasis, spaces
/// collapsed, no trailing full stop.
pub fn norm(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '[' | ']' | '"' | '“' | '”' | '*' | '_' => {}
            '’' => out.push('\''),
            c if c.is_whitespace() => {
                if !out.ends_with(' ') && !out.is_empty() {
                    out.push(' ');
                }
            }
            c => out.extend(c.to_lowercase()),
        }
    }
    let t = out.trim().trim_end_matches('.').trim_end();
    t.to_owned()
}

/// The index of every key of `sections`: its own keys first; a title or alias alone also
/// answers for a numbered section when no other section has it.
fn index(sections: &[Section]) -> Vec<(String, usize)> {
    let mut keys: Vec<(String, usize)> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        for k in s.keys() {
            if !keys.iter().any(|(x, _)| *x == k) {
                keys.push((k, i));
            }
        }
    }
    let mut bare: Vec<(String, usize, usize)> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        if s.number.is_empty() {
            continue;
        }
        for t in std::iter::once(&s.title).chain(s.aliases.iter()) {
            let k = norm(t);
            match bare.iter_mut().find(|(x, _, _)| *x == k) {
                Some(found) => found.2 += 1,
                None => bare.push((k, i, 1)),
            }
        }
    }
    for (k, i, n) in bare {
        if n == 1 && !keys.iter().any(|(x, _)| *x == k) {
            keys.push((k, i));
        }
    }
    keys
}

/// Keys that two sections share (each section must be citable on its own): empty for a
/// good table. A test of every system's table.
pub fn clashes(sections: &[Section]) -> Vec<String> {
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        for k in s.keys() {
            match seen.iter().find(|(x, _)| *x == k) {
                Some((_, j)) if *j != i => out.push(format!(
                    "\"{k}\" names both \"{}\" and \"{}\"",
                    sections[*j].cite(),
                    s.cite()
                )),
                Some(_) => {}
                None => seen.push((k, i)),
            }
        }
    }
    out
}

/// The sections (indices into `sections`) a citation names, most specific first:
///
/// 1. the whole citation, as a section's number and title, its number alone for a whole
///    section, an alias, or a title no other section has ("[VII-2.C Charging]", "VII-2.C",
///    "Fog of war");
/// 2. a trailing parenthesis: what comes before it and what is inside it ("Rallying
///    (leaders)", "VII-7 End of turn phase (giving cards, XII-B)");
/// 3. several citations joined by " / ", ", " or "; " ("VII-3 Events / VII-5 Events / XI");
/// 4. the longest key the citation starts with, followed by a space or punctuation
///    ("VII-7: discard and draw +1", "XI \"Elite\": ...").
///
/// Nothing for an empty citation, one longer than [`MAX_CITATION`], or one naming no section.
pub fn resolve(sections: &[Section], citation: &str) -> Vec<usize> {
    if citation.len() > MAX_CITATION {
        return Vec::new();
    }
    let keys = index(sections);
    let mut out = Vec::new();
    find(&keys, &norm(citation), 0, &mut out);
    out
}

fn push(out: &mut Vec<usize>, i: usize) {
    if !out.contains(&i) {
        out.push(i);
    }
}

fn find(keys: &[(String, usize)], n: &str, depth: u32, out: &mut Vec<usize>) {
    if n.is_empty() || depth > 4 {
        return;
    }
    if let Some((_, i)) = keys.iter().find(|(k, _)| k == n) {
        push(out, *i);
        return;
    }
    let before = out.len();
    if n.ends_with(')')
        && let Some(open) = n.rfind('(')
    {
        find(keys, n[..open].trim(), depth + 1, out);
        find(keys, n[open + 1..n.len() - 1].trim(), depth + 1, out);
        if out.len() > before {
            return;
        }
    }
    for sep in [" / ", "; ", ", "] {
        if n.contains(sep) {
            for part in n.split(sep) {
                find(keys, part.trim(), depth + 1, out);
            }
            if out.len() > before {
                return;
            }
        }
    }
    let prefix = keys
        .iter()
        .filter(|(k, _)| {
            n.len() > k.len()
                && n.starts_with(k.as_str())
                && n[k.len()..].starts_with([' ', ':', ',', ';', '('])
        })
        .max_by_key(|(k, _)| k.len());
    if let Some((_, i)) = prefix {
        push(out, *i);
    }
}

/// Our summary of one section, from a summaries file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The section it summarizes, as [`Section::cite`] writes it.
    pub cite: String,
    /// Our words: a few sentences.
    pub summary: String,
    /// Where the section's heading is in the text, outermost first (["MELEE PHASE",
    /// "EVENTS"]): each is looked for after the one before ([`excerpt`]). Empty: the
    /// section is not looked for in the user's copy.
    /// A heading ending in "…" is the line that starts with the words before it (a
    /// numbered paragraph: ["Limits to Movement", "Individual units / groups may move…"]).
    pub heading: Vec<String>,
}

/// A summaries file: `[rules]` (`title`, `notice`) and one `[[section]]` per section cited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summaries {
    /// What the summaries are of ("ONUS! and Terrain & Fortresses").
    pub title: String,
    /// Says that the summaries are ours and not the text.
    pub notice: String,
    pub sections: Vec<Summary>,
}

/// The most sections a summaries file may hold.
pub const MAX_SECTIONS: usize = 1000;
/// The longest summary, in bytes.
pub const MAX_SUMMARY: usize = 2000;

impl Summaries {
    /// Reads a summaries file; every problem located by line and field.
    pub fn parse(file: &str, text: &str) -> Result<Summaries, LoadErrors> {
        let mut ctx = Ctx::new(file, text);
        let value = ctx
            .parse("a summaries file has [rules] and [[section]] entries")
            .and_then(|doc| read(&mut ctx, &doc));
        ctx.finish(value).map_err(LoadErrors)
    }

    /// The summary of a section, by its citation.
    pub fn get(&self, section: &Section) -> Option<&Summary> {
        let cite = section.cite();
        self.sections.iter().find(|s| s.cite == cite)
    }

    /// What does not match between the summaries and the sections a system cites: a section
    /// without its summary, a summary of no section. Empty for a complete file.
    pub fn mismatches(&self, sections: &[Section]) -> Vec<String> {
        let mut out = Vec::new();
        for s in sections {
            if self.get(s).is_none() {
                out.push(format!("no summary of \"{}\"", s.cite()));
            }
        }
        for s in &self.sections {
            if !sections.iter().any(|x| x.cite() == s.cite) {
                out.push(format!(
                    "\"{}\" summarizes no section the system cites",
                    s.cite
                ));
            }
        }
        out
    }
}

fn read(ctx: &mut Ctx<'_>, doc: &DeTable<'_>) -> Option<Summaries> {
    ctx.check_top_keys(
        doc,
        &["rules", "section"],
        "a summaries file has [rules] and [[section]]",
    );
    ctx.require_entries(doc, "section", "a summaries file");
    let head = ctx.table(doc, "rules", "a summaries file needs a [rules] table");
    let (title, notice) = match head {
        Some(h) => {
            h.check_fields(ctx, &["title", "notice"], "[rules]");
            (
                required(ctx, &h, "title", 200),
                required(ctx, &h, "notice", 1000),
            )
        }
        None => (None, None),
    };
    let sections = ctx.entries(doc, "section", |ctx, i, t, span| section(ctx, i, t, span));
    let sections = ctx.at_most(sections, MAX_SECTIONS, "section", "sections")?;
    let mut first: Vec<(&str, usize)> = Vec::new();
    let mut dup = Vec::new();
    for (s, line) in &sections {
        match first.iter().find(|(c, _)| *c == s.cite) {
            Some((_, l)) => dup.push((s.cite.clone(), *line, *l)),
            None => first.push((&s.cite, *line)),
        }
    }
    for (cite, _, l) in dup {
        ctx.err(
            K::Duplicate,
            None,
            Some(format!("section \"{cite}\"")),
            format!("\"{cite}\" is summarized twice (first on line {l})"),
        );
    }
    Some(Summaries {
        title: title?,
        notice: notice?,
        sections: sections.into_iter().map(|(s, _)| s).collect(),
    })
}

fn required(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str, max: usize) -> Option<String> {
    match e.string(ctx, key) {
        Got::Val(s, span) => {
            if s.trim().is_empty() || s.len() > max {
                e.bad(
                    ctx,
                    K::BadValue,
                    key,
                    &span,
                    format!("`{key}` must be a text of 1 to {max} bytes"),
                );
                None
            } else {
                Some(s.trim().to_owned())
            }
        }
        Got::Absent => {
            e.missing(ctx, key, "a text");
            None
        }
        Got::Bad => None,
    }
}

fn section(
    ctx: &mut Ctx<'_>,
    i: usize,
    t: &DeTable<'_>,
    span: Range<usize>,
) -> Option<(Summary, usize)> {
    let line = ctx.line(&span);
    let path = match t.get("cite").map(|v| v.get_ref()) {
        Some(toml::de::DeValue::String(s)) => format!("section \"{s}\""),
        _ => format!("section[{i}]"),
    };
    let e = Entry::new(t, span, path);
    e.check_fields(ctx, &["cite", "summary", "heading"], "a [[section]]");
    let cite = required(ctx, &e, "cite", 200);
    let summary = required(ctx, &e, "summary", MAX_SUMMARY);
    let heading = match e.string_list(
        ctx,
        "heading",
        "a list of headings, e.g. [\"MELEE PHASE\", \"EVENTS\"]",
    ) {
        Got::Absent => Some(Vec::new()),
        Got::Bad => None,
        Got::Val(list, span) => {
            if list.len() > 8
                || list
                    .iter()
                    .any(|(h, _)| h.trim().is_empty() || h.len() > 200)
            {
                e.bad(
                    ctx,
                    K::BadValue,
                    "heading",
                    &span,
                    "`heading` lists 1 to 8 headings of 1 to 200 bytes".into(),
                );
                None
            } else {
                Some(list.into_iter().map(|(h, _)| h).collect())
            }
        }
    };
    Some((
        Summary {
            cite: cite?,
            summary: summary?,
            heading: heading?,
        },
        line,
    ))
}

/// The longest excerpt returned, in bytes (cut at a line).
pub const MAX_EXCERPT: usize = 6000;

/// A line of a text as a heading: without emphasis, markup, leading bullets and numbering
/// ("◆ **UNIQUE ORDERS:**", "2.C. CHARGING", "A. OPTIONAL RULES", "VII - TURN SEQUENCE",
/// "## FORDS:"), normalized like a citation; and whether it is a step of an enumeration
/// ("② **RANGE:** measure..."), which is never a heading.
fn heading_of(line: &str) -> (String, bool) {
    let mut s = String::with_capacity(line.len());
    let mut in_tag = false;
    for c in line.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            '#' => {}
            c => s.push(c),
        }
    }
    let mut rest = norm(&s);
    let mut step = false;
    loop {
        let t = rest.trim_start();
        let first = t.split(' ').next().unwrap_or("");
        let circled = t.starts_with(|c: char| ('①'..='⑳').contains(&c));
        let bullet = circled || t.starts_with(['-', '◆', '●', '○', '•', '▶', '·']);
        let numbering = first.len() >= 2
            && first.ends_with('.')
            && (first.chars().next().is_some_and(|c| c.is_ascii_digit())
                && first
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c.is_ascii_lowercase())
                || first.len() == 2 && first.starts_with(|c: char| c.is_ascii_lowercase()));
        let roman_word = first.trim_end_matches('-');
        let roman = !roman_word.is_empty()
            && roman_word
                .chars()
                .all(|c| matches!(c, 'i' | 'v' | 'x' | 'l'))
            && (first.ends_with('-') || t[first.len()..].trim_start().starts_with('-'));
        if bullet {
            step |= circled;
            let c = t.chars().next().map_or(1, char::len_utf8);
            rest = t[c..].to_owned();
        } else if numbering {
            rest = t[first.len()..].to_owned();
        } else if roman {
            rest = t[first.len()..]
                .trim_start()
                .trim_start_matches('-')
                .to_owned();
        } else {
            rest = t.to_owned();
            break;
        }
    }
    (rest.trim().to_owned(), step)
}

/// Whether `line` is the heading `h` (as [`heading_of`] gives it): `Some(true)` when the whole
/// line is, `Some(false)` for a paragraph that starts with it and a colon ("MODIFIERS FOR
/// FLANK AND REAR ATTACKS: if ..."); never a step of an enumeration.
fn heading_match(line: &str, h: &str) -> Option<bool> {
    let (l, step) = heading_of(line);
    if step || h.is_empty() {
        return None;
    }
    let l = l.trim_end_matches(':').trim_end();
    // A heading written "First words of the line…" is the line that starts so (the numbered
    // paragraphs of a quick-reference sheet).
    if let Some(start) = h.strip_suffix('…') {
        return l.starts_with(start.trim_end()).then_some(true);
    }
    if l == h {
        Some(true)
    } else if l.len() > h.len() && l.starts_with(h) && l[h.len()..].starts_with(':') {
        Some(false)
    } else {
        None
    }
}

/// Whether a line looks like a heading of the text, ours or not: a Markdown heading, or a
/// short line in capitals ("COMBAT DEVELOPMENT", "XII - OTHER WAYS TO PLAY ONUS!").
fn looks_like_heading(line: &str) -> bool {
    let t = line.trim();
    if t.starts_with('#') {
        return true;
    }
    // Tables (columns separated by tabs, "CHARGE ▶ NO") and lists of column names
    // ("NAME/MOVES/ATTACKS") are no headings.
    if t.len() > 80 || t.contains(['\t', '▶', '/']) || heading_of(t).1 {
        return false;
    }
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    letters >= 3 && !t.chars().any(|c| c.is_lowercase())
}

/// The excerpt of the section whose heading path is `heading` from `text` (the user's own
/// copy). Each heading of the path is looked for after the one before (the whole line, or
/// a paragraph starting with it and a colon). The excerpt runs from the last one to the next
/// heading: a line that is a heading of `all` (every section's heading path) or looks like
/// one, or a paragraph starting with the heading of a section beside this one or inside it.
/// At most [`MAX_EXCERPT`] bytes; `None` when a heading is not found.
pub fn excerpt(text: &str, heading: &[String], all: &[Vec<String>]) -> Option<String> {
    if heading.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    let mut start = None;
    for h in heading {
        let h = heading_of(h).0;
        let found = (at..lines.len()).find(|&i| heading_match(lines[i], &h).is_some())?;
        start = Some(found);
        at = found + 1;
    }
    let start = start?;
    let own = heading_of(heading.last()?).0;
    let parent = heading.len().checked_sub(2).map(|i| &heading[i]);
    // Headings that end the excerpt as a whole line, and those that end it even as the start
    // of a paragraph: the sections beside this one (same parent) or inside it.
    let mut lines_stop = Vec::new();
    let mut inline_stop = Vec::new();
    for path in all {
        let Some(last) = path.last() else { continue };
        let h = heading_of(last).0;
        if h == own || h.is_empty() {
            continue;
        }
        let sibling = path.len().checked_sub(2).map(|i| &path[i]) == parent;
        let inside = path[..path.len() - 1]
            .iter()
            .any(|p| heading_of(p).0 == own);
        if sibling || inside {
            inline_stop.push(h);
        } else {
            lines_stop.push(h);
        }
    }
    let stops = |line: &str| {
        looks_like_heading(line)
            || lines_stop
                .iter()
                .any(|h| heading_match(line, h) == Some(true))
            || inline_stop.iter().any(|h| heading_match(line, h).is_some())
    };
    let mut out = String::new();
    let mut blank = false;
    for (k, line) in lines.iter().enumerate().skip(start) {
        if k > start && stops(line) {
            break;
        }
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank = true;
            continue;
        }
        let add = usize::from(blank && !out.is_empty()) + line.len() + 1;
        if out.len() + add > MAX_EXCERPT {
            if out.is_empty() {
                let mut cut = MAX_EXCERPT.min(line.len());
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.push_str(&line[..cut]);
            }
            out.push_str("\n…");
            break;
        }
        if blank && !out.is_empty() {
            out.push('\n');
        }
        blank = false;
        out.push_str(line);
        out.push('\n');
    }
    Some(out.trim_end().to_owned())
}

/// Checks that every string constant of `pub mod {module} { ... }` in a system's source file
/// (`code`, its `include_str!`) is a section of `sections` that a citation of it finds alone,
/// and that no two sections clash: the test each system runs so that a heading constant added
/// to the engine cannot miss the rules reader. The number of constants found, or the problems.
pub fn check_heading_module(
    code: &str,
    module: &str,
    sections: &[Section],
) -> Result<usize, String> {
    let opening = format!("pub mod {module} {{");
    let start = code
        .find(&opening)
        .ok_or_else(|| format!("no `{opening}` in the file"))?;
    let block = &code[start..];
    let block = &block[..block.find("\n}").unwrap_or(block.len())];
    let consts: Vec<&str> = block
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub const "))
        .filter(|rest| rest.contains(": &str = \""))
        .filter_map(|rest| rest.split('"').nth(1))
        .collect();
    let cited: Vec<String> = sections.iter().map(Section::cite).collect();
    let mut problems: Vec<String> = consts
        .iter()
        .filter(|c| !cited.iter().any(|s| s == *c) || resolve(sections, c).len() != 1)
        .map(|c| format!("the heading {c:?} is not one section of SECTIONS"))
        .collect();
    problems.extend(clashes(sections));
    if problems.is_empty() {
        Ok(consts.len())
    } else {
        Err(problems.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_constant_missing_from_the_sections_is_named() {
        let code = "pub mod heading {\n    pub const A: &str = \"Rallying\";\n    pub const B: &str = \"Pursuit\";\n}\n";
        let listed = [Section::titled("Rallying"), Section::titled("Pursuit")];
        assert_eq!(check_heading_module(code, "heading", &listed), Ok(2));
        let err = check_heading_module(code, "heading", &listed[..1]).unwrap_err();
        assert!(err.contains("\"Pursuit\""), "{err}");
        assert!(check_heading_module(code, "rule", &listed).is_err());
    }

    const BOOK: &[Section] = &[
        Section::whole("VII-2.C", "Charging"),
        Section::part("VII-2.C", "Charging against several units"),
        Section::whole("VII-3", "Ranged attack phase"),
        Section::part("VII-3", "Events"),
        Section::part("VII-5", "Events"),
        Section::whole("VII-7", "End of turn phase"),
        Section::whole("XI", "More info about orders and events"),
        Section::part("XI", "Veterans and elites").aka(&["Elite", "Veterans"]),
        Section::whole("XII-B", "Games with 4 or 6 players"),
        Section::part("XII-A", "Fog of war"),
        Section::titled("Rallying"),
        Section::titled("Movement / Orders: Basics"),
        Section::titled("Limits to Movement 1"),
        Section::titled("Limits to Movement 12"),
    ];

    fn cites(c: &str) -> Vec<String> {
        resolve(BOOK, c)
            .into_iter()
            .map(|i| BOOK[i].cite())
            .collect()
    }

    #[test]
    fn a_citation_is_found_however_it_is_written() {
        for c in [
            "VII-2.C Charging",
            "VII-2.C",
            "[VII-2.C Charging]",
            "vii-2.c  charging.",
        ] {
            assert_eq!(cites(c), ["VII-2.C Charging"], "{c}");
        }
        assert_eq!(
            cites("VII-2.C Charging against several units"),
            ["VII-2.C Charging against several units"]
        );
        assert_eq!(cites("Fog of war"), ["XII-A Fog of war"]);
        // A title two sections share is no citation on its own.
        assert!(cites("Events").is_empty());
    }

    #[test]
    fn several_citations_parentheses_and_sentences() {
        assert_eq!(
            cites("VII-3 Events / VII-5 Events / XI"),
            [
                "VII-3 Events",
                "VII-5 Events",
                "XI More info about orders and events"
            ]
        );
        assert_eq!(
            cites("VII-7 End of turn phase (giving cards, XII-B)"),
            ["VII-7 End of turn phase", "XII-B Games with 4 or 6 players"]
        );
        assert_eq!(
            cites("VII-7: discard and draw +1"),
            ["VII-7 End of turn phase"]
        );
        assert_eq!(
            cites(
                "XI \"Elite\": 2 random events may be drawn only if the opposing unit is not also elite"
            ),
            ["XI Veterans and elites"]
        );
        assert_eq!(cites("Rallying (leaders)"), ["Rallying"]);
        assert_eq!(
            cites("Movement / Orders: Basics (stratagems)"),
            ["Movement / Orders: Basics"]
        );
        assert_eq!(cites("Limits to Movement 12"), ["Limits to Movement 12"]);
        assert_eq!(cites("Limits to Movement 1"), ["Limits to Movement 1"]);
        assert!(cites("Limits to Movement 13").is_empty());
        assert!(cites("").is_empty());
        assert!(cites("nothing at all").is_empty());
        assert!(cites(&"VII-3 ".repeat(100)).is_empty());
    }

    #[test]
    fn a_table_whose_sections_share_a_key_is_reported() {
        assert!(clashes(BOOK).is_empty(), "{:?}", clashes(BOOK));
        let bad = [
            Section::whole("VII-2.C", "Charging"),
            Section::whole("VII-2.C", "Charges"),
        ];
        assert_eq!(clashes(&bad).len(), 1);
    }

    const FILE: &str = r#"
[rules]
title = "Test rules"
notice = "Our own summaries, not the text."

[[section]]
cite = "VII-2.C Charging"
heading = ["MOVEMENT PHASE", "CHARGING"]
summary = "A charge is a move into frontal contact."

[[section]]
cite = "XII-A Fog of war"
summary = "Units stay face down until an enemy comes near."
"#;

    #[test]
    fn summaries_are_read_and_checked_against_the_sections() -> Result<(), LoadErrors> {
        let s = Summaries::parse("rules.toml", FILE)?;
        assert_eq!(s.title, "Test rules");
        assert_eq!(s.sections.len(), 2);
        assert_eq!(s.sections[0].heading, ["MOVEMENT PHASE", "CHARGING"]);
        let sections = [
            Section::whole("VII-2.C", "Charging"),
            Section::part("VII-3", "Range"),
        ];
        assert_eq!(
            s.mismatches(&sections),
            [
                "no summary of \"VII-3 Range\"",
                "\"XII-A Fog of war\" summarizes no section the system cites"
            ]
        );
        Ok(())
    }

    #[test]
    fn a_bad_summaries_file_is_located() {
        let bad = FILE.replace("summary = \"Units", "sumary = \"Units")
            + "\n[[section]]\ncite = \"VII-2.C Charging\"\nsummary = \"again\"\n";
        let e = Summaries::parse("rules.toml", &bad).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("sumary"), "{text}");
        assert!(text.contains("summarized twice"), "{text}");
    }

    const TEXT: &str = "CONTENT\n2.C. Charging\t18\n\n2. MOVEMENT PHASE\n\nActive units move.\n\n2.C. CHARGING\n\nA charge is a\nmove.\n\n\nMore about it.\n\nCHARGING AGAINST SEVERAL UNITS\n\nWhen you collide...\n\n1. ACTIVATION PHASE\n\n◆ **UNIQUE ORDERS:** one order per unit.\nVICTORY CONDITIONS: check them now.\n\nMODIFIERS FOR FLANK ATTACKS: the defender has -1.\nNext paragraph.\n\nVII - TURN SEQUENCE\n";

    fn paths(p: &[&[&str]]) -> Vec<Vec<String>> {
        p.iter()
            .map(|x| x.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn an_excerpt_runs_from_its_heading_to_the_next() {
        let all = paths(&[
            &["MOVEMENT PHASE", "CHARGING"],
            &["CHARGING", "CHARGING AGAINST SEVERAL UNITS"],
            &["ACTIVATION PHASE", "UNIQUE ORDERS"],
            &["ACTIVATION PHASE", "MODIFIERS FOR FLANK ATTACKS"],
            &["SETUP", "VICTORY CONDITIONS"],
            &["TURN SEQUENCE"],
        ]);
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            excerpt(TEXT, &path(&["MOVEMENT PHASE", "CHARGING"]), &all).as_deref(),
            Some("2.C. CHARGING\n\nA charge is a\nmove.\n\nMore about it.")
        );
        // A paragraph starting with the heading of a section elsewhere does not end it; one
        // beside it does.
        assert_eq!(
            excerpt(TEXT, &path(&["ACTIVATION PHASE", "Unique orders"]), &all).as_deref(),
            Some("◆ **UNIQUE ORDERS:** one order per unit.\nVICTORY CONDITIONS: check them now.")
        );
        assert_eq!(
            excerpt(
                TEXT,
                &path(&["ACTIVATION PHASE", "MODIFIERS FOR FLANK ATTACKS"]),
                &all
            )
            .as_deref(),
            Some("MODIFIERS FOR FLANK ATTACKS: the defender has -1.\nNext paragraph.")
        );
        assert!(excerpt(TEXT, &path(&["TURN SEQUENCE"]), &all).is_some());
        // A step of an enumeration is no heading; a lettered heading is one; a line in
        // capitals ends an excerpt.
        let steps = "PROCEDURE\n- ② **RANGE:** measure it.\n- ③ **EVENTS:** draw.\n\nRANGE\n\nThe range is...\n\nA. OPTIONAL RULES\nSome.\n\nIMPORTANT RULES SUMMARY\nNot this.\n";
        let all2 = paths(&[&["PROCEDURE"], &["RANGE"], &["EVENTS"], &["OPTIONAL RULES"]]);
        assert_eq!(
            excerpt(steps, &path(&["PROCEDURE"]), &all2).as_deref(),
            Some("PROCEDURE\n- ② **RANGE:** measure it.\n- ③ **EVENTS:** draw.")
        );
        assert_eq!(
            excerpt(steps, &path(&["RANGE"]), &all2).as_deref(),
            Some("RANGE\n\nThe range is...")
        );
        assert_eq!(
            excerpt(steps, &path(&["OPTIONAL RULES"]), &all2).as_deref(),
            Some("A. OPTIONAL RULES\nSome.")
        );
        assert!(excerpt(TEXT, &path(&["FORDS"]), &all).is_none());
        // A numbered paragraph, by its first words.
        let sheet = "Limits to Movement\n- 1. Units may move to their front.\n  - Phalanxes incline right.\n- 2. Units may wheel.\n";
        let all3 = paths(&[
            &["Limits to Movement", "Units may move to their front…"],
            &["Limits to Movement", "Units may wheel…"],
        ]);
        assert_eq!(
            excerpt(
                sheet,
                &path(&["Limits to Movement", "Units may move to their front…"]),
                &all3
            )
            .as_deref(),
            Some("- 1. Units may move to their front.\n  - Phalanxes incline right.")
        );
        assert!(excerpt(TEXT, &[], &all).is_none());
        // A long section is cut.
        let long = format!("FORDS\n{}", "word ".repeat(3000));
        let e = excerpt(&long, &path(&["FORDS"]), &all).unwrap_or_default();
        assert!(
            e.len() <= MAX_EXCERPT + 4 && e.ends_with('…'),
            "{}",
            e.len()
        );
    }
}

// Army lists pasted by a player: a small reader for the TOML of data/onus/armies/*.toml
// (tables, arrays of tables, strings, numbers, booleans, inline arrays and tables), or JSON,
// turned into the `onus_model::army::ArmyList` JSON the server checks. The server is the judge
// of the list itself; this only reads the text.

export class TomlError extends Error {
  constructor(line, message) {
    super(`line ${line}: ${message}`);
    this.line = line;
  }
}

function stripComment(line) {
  let inStr = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inStr) {
      if (c === '\\' && inStr === '"') i++;
      else if (c === inStr) inStr = null;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

class Reader {
  constructor(text, line) {
    this.t = text;
    this.i = 0;
    this.line = line;
  }
  ws() {
    while (this.i < this.t.length && /\s/.test(this.t[this.i])) this.i++;
  }
  fail(msg) {
    throw new TomlError(this.line, msg);
  }
  value() {
    this.ws();
    const c = this.t[this.i];
    if (c === '"') return this.basicString();
    if (c === "'") {
      const end = this.t.indexOf("'", this.i + 1);
      if (end < 0) this.fail('unterminated string');
      const v = this.t.slice(this.i + 1, end);
      this.i = end + 1;
      return v;
    }
    if (c === '[') {
      this.i++;
      const out = [];
      for (;;) {
        this.ws();
        if (this.t[this.i] === ']') {
          this.i++;
          return out;
        }
        out.push(this.value());
        this.ws();
        if (this.t[this.i] === ',') this.i++;
        else if (this.t[this.i] !== ']') this.fail('expected , or ] in an array');
      }
    }
    if (c === '{') {
      this.i++;
      const out = {};
      for (;;) {
        this.ws();
        if (this.t[this.i] === '}') {
          this.i++;
          return out;
        }
        const key = this.key();
        this.ws();
        if (this.t[this.i] !== '=') this.fail('expected = in an inline table');
        this.i++;
        out[key] = this.value();
        this.ws();
        if (this.t[this.i] === ',') this.i++;
        else if (this.t[this.i] !== '}') this.fail('expected , or } in an inline table');
      }
    }
    const m = /^(true|false|[+-]?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?)/.exec(this.t.slice(this.i));
    if (!m) this.fail(`cannot read a value at "${this.t.slice(this.i, this.i + 12)}"`);
    this.i += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    return Number(m[0].replace(/_/g, ''));
  }
  basicString() {
    let out = '';
    this.i++;
    while (this.i < this.t.length) {
      const c = this.t[this.i++];
      if (c === '"') return out;
      if (c === '\\') {
        const e = this.t[this.i++];
        out += { n: '\n', t: '\t', '"': '"', '\\': '\\', r: '\r' }[e] ?? e;
      } else out += c;
    }
    this.fail('unterminated string');
  }
  key() {
    this.ws();
    if (this.t[this.i] === '"') return this.basicString();
    const m = /^[A-Za-z0-9_-]+/.exec(this.t.slice(this.i));
    if (!m) this.fail('expected a key');
    this.i += m[0].length;
    return m[0];
  }
}

/** Reads the TOML subset; multi-line arrays are joined first. */
export function parseToml(text) {
  const root = {};
  let cur = root;
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    let line = stripComment(lines[n]).trim();
    const lineNo = n + 1;
    if (!line) continue;
    let m;
    if ((m = /^\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]$/.exec(line))) {
      const arr = (root[m[1]] ||= []);
      if (!Array.isArray(arr)) throw new TomlError(lineNo, `${m[1]} is not an array of tables`);
      cur = {};
      arr.push(cur);
      continue;
    }
    if ((m = /^\[\s*([A-Za-z0-9_.-]+)\s*\]$/.exec(line))) {
      cur = root[m[1]] ||= {};
      continue;
    }
    // Join a value spread over several lines (an array) until the brackets balance.
    const open = () => (line.match(/\[/g) || []).length - (line.match(/\]/g) || []).length;
    while (open() > 0 && n + 1 < lines.length) {
      n++;
      line += ' ' + stripComment(lines[n]).trim();
    }
    const r = new Reader(line, lineNo);
    const key = r.key();
    r.ws();
    if (line[r.i] !== '=') throw new TomlError(lineNo, `expected "=" after ${key}`);
    r.i++;
    cur[key] = r.value();
    r.ws();
    if (r.i < line.length) throw new TomlError(lineNo, `unexpected "${line.slice(r.i)}"`);
  }
  return root;
}

/**
 * An army list for `ArmySpec::Inline` from pasted TOML or JSON. Accepts the file layout
 * (`[army]` + `[[unit]]`) or the ArmyList JSON itself. `points` overrides the list's limit.
 */
export function armyListFrom(text, points) {
  const t = text.trim();
  if (!t) throw new Error('the army list is empty');
  let doc;
  if (t.startsWith('{')) {
    try {
      doc = JSON.parse(t);
    } catch (e) {
      throw new Error(`the JSON cannot be read: ${e.message}`);
    }
  } else {
    doc = parseToml(t);
  }
  let list;
  if (doc.army || doc.unit) {
    const a = doc.army || {};
    list = {
      id: a.id || 'pasted',
      name: a.name || 'Pasted army',
      faction: a.faction || '',
      general: a.general || '',
      points: a.points || 0,
      units: (doc.unit || []).map((u) => ({
        unit: u.id ?? u.unit ?? '',
        rank: (u.rank || 'regular').toLowerCase(),
        count: u.count ?? 1,
      })),
    };
  } else {
    list = { ...doc, units: (doc.units || []).map((u) => ({ rank: 'regular', count: 1, ...u })) };
  }
  list.source = 'pasted army list';
  if (points) list.points = points;
  for (const f of ['id', 'name', 'faction', 'general']) {
    if (typeof list[f] !== 'string' || !list[f]) throw new Error(`the army list has no ${f}`);
  }
  if (!list.units.length) throw new Error('the army list has no unit');
  return list;
}

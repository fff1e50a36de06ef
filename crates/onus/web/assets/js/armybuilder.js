// The ONUS! army builder (VI "Creating the armies", XI "Veterans and elites", XII-A "Several
// generals"): a faction, its General, units with their ranks and counts, mercenaries and
// allied contingents under their own Generals. Every change is sent to the engine
// (`POST /api/onus/armies/check`), whose answer is shown as it is: the points total, each
// entry's cost, every limit broken with its rule, and the army file it writes. Nothing is
// priced or judged here. Armies are saved in this browser ("my armies"), downloaded or
// copied as the same TOML the engine reads, and loaded back from a pasted or chosen file.

import { h, replace, debounce, copyText } from '/assets/js/dom.js';
import { modal } from '/assets/js/dialogs.js';
import { api } from './onusapi.js';

/** Where "my armies" are kept in this browser. */
const STORE = 'acies.onus.my-armies';

/** The armies saved in this browser: `[{id, name, faction, points, total, ok, needs, draft, toml}]`. */
export function myArmies() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || '[]');
    return Array.isArray(saved) ? saved.filter((a) => a && a.draft && a.id) : [];
  } catch {
    return [];
  }
}

function saveArmy(entry) {
  const others = myArmies().filter((a) => a.id !== entry.id);
  localStorage.setItem(STORE, JSON.stringify([...others, entry]));
}

/** The army list the game's setup takes inline (`onus_model::army::ArmyList`) for a saved army. */
export function inlineList(saved) {
  return { ...saved.draft, source: `my army "${saved.id}"` };
}

/** A preset of the catalog as a draft (its units by qualified id). */
export function presetDraft(preset) {
  return {
    id: `my-${preset.id}`,
    name: preset.name,
    faction: preset.faction,
    general: preset.general.split('/').pop(),
    points: preset.points,
    units: preset.units.map((u) => ({ unit: u.unit, rank: u.rank, count: u.count })),
  };
}

/** The id of a card of `faction` as the list writes it: bare for the army's own faction. */
const cardId = (card, faction) => (card.faction === faction ? card.id : `${card.faction}/${card.id}`);
const qualified = (card) => `${card.faction}/${card.id}`;

/**
 * Opens the builder in a dialog. `start`: a draft to edit (or none: a new army of `points`);
 * `onUse(saved)`: the army was saved and chosen for the battle.
 */
export function openArmyBuilder(cat, { start, points = 1000, onUse }) {
  const factions = cat.factions || [];
  const firstFaction = factions.find((f) => !f.mercenary) || factions[0];
  const draft = start ? structuredClone(start) : {
    id: 'my-army', name: 'My army', faction: firstFaction?.id || '', general: '', points, units: [],
  };
  const generalsOf = (f) => (cat.generals || []).filter((g) => g.faction === f);
  const unitsOf = (f) => (cat.units || []).filter((u) => u.faction === f);
  const mercenaryFactions = () => factions.filter((f) => f.mercenary && f.id !== draft.faction);
  if (!draft.general) draft.general = generalsOf(draft.faction)[0]?.id || '';
  // The allied contingents' Generals (qualified), including those with no unit yet.
  let allies = [...new Set(draft.units.map((u) => u.contingent).filter(Boolean))];
  let answer = null;
  let checking = 0;
  // What each "add" list shows, kept when the sections are drawn again.
  const picked = {};

  const factionName = (id) => factions.find((f) => f.id === id)?.name || id;
  const generalCard = (q) => (cat.generals || []).find((g) => qualified(g) === q || (g.faction === draft.faction && g.id === q));
  const unitCard = (id, home) => {
    const [f, u] = id.includes('/') ? id.split('/') : [home, id];
    return (cat.units || []).find((c) => c.faction === f && c.id === u)
      || (cat.units || []).find((c) => c.id === u && factions.find((x) => x.id === c.faction)?.mercenary);
  };
  const pct = (g) => `${g.points_modifier_pct >= 0 ? '+' : ''}${g.points_modifier_pct}%`;

  // ---- the army's own fields ----
  const nameInput = h('input', { value: draft.name, 'data-testid': 'army-name', 'aria-label': 'Army name', oninput: (e) => { draft.name = e.target.value; changed(); } });
  const idInput = h('input', { value: draft.id, class: 'narrow', 'data-testid': 'army-id', 'aria-label': 'Army id (file name)', oninput: (e) => { draft.id = e.target.value; changed(); } });
  const pointsInput = h('input', {
    type: 'number', min: String(cat.army_bounds?.points?.[0] ?? 1), max: String(cat.army_bounds?.points?.[1] ?? 100000), step: '50',
    value: draft.points, class: 'narrow', 'data-testid': 'army-points', 'aria-label': 'Points limit',
    oninput: (e) => { draft.points = Math.trunc(Number(e.target.value)) || 0; changed(); },
  });
  const factionSel = h('select', { 'data-testid': 'army-faction', 'aria-label': 'Faction' },
    factions.map((f) => h('option', { value: f.id, selected: f.id === draft.faction }, f.mercenary ? `${f.name} (mercenaries)` : f.name)));
  const generalSel = h('select', { 'data-testid': 'army-general', 'aria-label': 'General' });
  const fillGenerals = () => replace(generalSel, generalsOf(draft.faction).map((g) => h('option', { value: g.id, selected: g.id === draft.general },
    `${g.name} — leadership ${g.leadership}, ${pct(g)} points`)));
  factionSel.addEventListener('change', () => {
    // Another army: its own General and units.
    draft.faction = factionSel.value;
    draft.general = generalsOf(draft.faction)[0]?.id || '';
    draft.units = [];
    allies = [];
    fillGenerals();
    changed();
  });
  generalSel.addEventListener('change', () => { draft.general = generalSel.value; changed(); });
  fillGenerals();

  // ---- the engine's answer ----
  const totalBox = h('div', { class: 'army-total', 'data-testid': 'army-total', role: 'status' }, 'Asking the engine…');
  const linesBox = h('ul', { class: 'army-lines muted', 'data-testid': 'army-lines' });
  const problemsBox = h('div', { 'data-testid': 'army-verdict' });
  const tomlBox = h('textarea', { rows: 9, readonly: true, class: 'army-toml', 'data-testid': 'army-toml', 'aria-label': 'The army file (TOML)' });
  const download = h('a', { 'data-testid': 'army-download', class: 'button' }, 'Download');
  const sections = h('div', { class: 'army-sections' });

  /** One row per entry of `contingent` (null: the army's own General's). */
  function entryRows(contingent) {
    return draft.units.map((u, i) => [u, i]).filter(([u]) => (u.contingent || null) === contingent).map(([u, i]) => {
      const card = unitCard(u.unit, contingent ? contingent.split('/')[0] : draft.faction);
      const line = answer?.entries?.[i];
      const wrong = (answer?.problems || []).filter((p) => p.entry === i);
      const cost = line ? (line.count > 1 ? `${line.base + line.surcharge} × ${line.count} = ${line.subtotal}` : `${line.subtotal}`) : '—';
      const setCount = (n) => { u.count = Math.max(1, n); changed(); };
      return h('li', { class: ['army-entry', wrong.length && 'bad'], 'data-testid': `army-entry-${i}` },
        h('span', { class: 'army-unit' }, card ? card.name : u.unit,
          line?.mercenary ? h('span', { class: 'tag' }, ' mercenary') : null),
        h('select', {
          'data-testid': `army-rank-${i}`, 'aria-label': `Rank of ${card?.name || u.unit}`,
          onchange: (e) => { u.rank = e.target.value; changed(); },
        }, (cat.ranks || []).map((r) => h('option', { value: r.id, selected: r.id === (u.rank || 'regular') }, r.pct ? `${r.id} +${r.pct}%` : r.id))),
        h('span', { class: 'army-count' },
          h('button', { type: 'button', 'data-testid': `army-less-${i}`, 'aria-label': 'One fewer', onclick: () => setCount(u.count - 1) }, '−'),
          h('input', {
            type: 'number', min: '1', max: String(cat.army_bounds?.count?.[1] ?? 50), value: u.count, class: 'tiny', 'data-testid': `army-count-${i}`,
            'aria-label': `Number of ${card?.name || u.unit}`, onchange: (e) => setCount(Math.trunc(Number(e.target.value)) || 1),
          }),
          h('button', { type: 'button', 'data-testid': `army-more-${i}`, 'aria-label': 'One more', onclick: () => setCount(u.count + 1) }, '+')),
        h('span', { class: 'army-cost', 'data-testid': `army-cost-${i}` }, `${cost} pts`),
        h('button', {
          type: 'button', class: 'link', 'data-testid': `army-remove-${i}`, 'aria-label': `Remove ${card?.name || u.unit}`,
          onclick: () => { draft.units.splice(i, 1); changed(); },
        }, '✕'),
        wrong.length ? h('div', { class: 'army-entry-problem' }, wrong.map((p) => p.message).join(' ')) : null);
    });
  }

  /** The units a section may add: its faction's, then the mercenaries'. */
  function addControls(contingent, key) {
    const home = contingent ? contingent.split('/')[0] : draft.faction;
    const option = (c) => h('option', { value: cardId(c, contingent ? '' : draft.faction) },
      `${c.name} — ${c.value} pts${(cat.factions.find((f) => f.id === c.faction)?.max_units || {})[c.id] ? `, at most ${cat.factions.find((f) => f.id === c.faction).max_units[c.id]}` : ''}`);
    const sel = h('select', {
      'data-testid': `army-add-unit-${key}`, 'aria-label': 'Unit to add',
      onchange: (e) => { picked[key] = e.target.value; },
    },
    h('optgroup', { label: factionName(home) }, unitsOf(home).map(option)),
    mercenaryFactions().filter((f) => f.id !== home).map((f) => h('optgroup', { label: `${f.name} (mercenaries)` }, unitsOf(f.id).map(option))));
    if (picked[key] && [...sel.options].some((o) => o.value === picked[key])) sel.value = picked[key];
    const add = h('button', {
      type: 'button', 'data-testid': `army-add-${key}`,
      onclick: () => {
        const same = draft.units.find((u) => u.unit === sel.value && (u.rank || 'regular') === 'regular' && (u.contingent || null) === contingent);
        if (same) same.count += 1;
        else draft.units.push({ unit: sel.value, rank: 'regular', count: 1, ...(contingent ? { contingent } : {}) });
        changed();
      },
    }, 'Add');
    return h('div', { class: 'army-add' }, sel, ' ', add);
  }

  function renderSections() {
    const main = generalCard(draft.general);
    const blocks = [h('section', { class: 'army-section', 'data-testid': 'army-section-main' },
      h('h3', {}, `Under ${main?.name || 'the General'}`),
      h('ul', { class: 'army-entries' }, entryRows(null)),
      addControls(null, 'main'))];
    allies.forEach((g, k) => {
      const card = generalCard(g);
      blocks.push(h('section', { class: 'army-section allied', 'data-testid': `army-section-ally-${k}` },
        h('h3', {}, `Allied contingent: ${card?.name || g} (${factionName(g.split('/')[0])}, ${card ? pct(card) : ''})`, ' ',
          h('button', {
            type: 'button', class: 'link', 'data-testid': `army-remove-ally-${k}`,
            onclick: () => { allies.splice(k, 1); draft.units = draft.units.filter((u) => u.contingent !== g); changed(); },
          }, 'remove')),
        h('ul', { class: 'army-entries' }, entryRows(g)),
        addControls(g, `ally-${k}`)));
    });
    // XII-A: another army within this one, under its own General (any faction's, or another
    // of the army's own).
    const candidates = (cat.generals || []).filter((g) => !(g.faction === draft.faction && g.id === draft.general) && !allies.includes(qualified(g)));
    const allySel = h('select', {
      'data-testid': 'army-ally-general', 'aria-label': 'General of the allied contingent',
      onchange: (e) => { picked.ally = e.target.value; },
    },
      factions.map((f) => {
        const gs = candidates.filter((g) => g.faction === f.id);
        return gs.length ? h('optgroup', { label: f.name }, gs.map((g) => h('option', { value: qualified(g) }, `${g.name} (${pct(g)})`))) : null;
      }));
    if (picked.ally && [...allySel.options].some((o) => o.value === picked.ally)) allySel.value = picked.ally;
    blocks.push(h('section', { class: 'army-section' },
      h('h3', {}, 'Allied contingents ', h('span', { class: 'rule' }, 'XII-A Several generals')),
      h('p', { class: 'muted' }, 'Another army within yours, under its own General: its units are of that General\'s faction or mercenaries.'),
      h('div', { class: 'army-add' }, allySel, ' ', h('button', {
        type: 'button', 'data-testid': 'army-add-ally', disabled: !candidates.length,
        onclick: () => { if (allySel.value) { allies.push(allySel.value); changed(); } },
      }, 'Add a contingent'))));
    replace(sections, blocks);
  }

  function renderAnswer() {
    if (!answer) return;
    const total = answer.total;
    replace(totalBox, total === null || total === undefined
      ? 'No total: the engine cannot price this army yet.'
      : h('span', {}, h('strong', { 'data-testid': 'army-total-points' }, String(total)), ` / ${answer.points} points`,
        answer.budget !== null && answer.budget !== undefined ? h('span', { class: 'muted' }, ` (units up to ${answer.budget})`) : null));
    totalBox.classList.toggle('over', (answer.problems || []).some((p) => p.kind === 'over_limit'));
    replace(linesBox, (answer.lines || []).map(([text, pts]) => h('li', {}, `${pts >= 0 ? '' : '−'}${Math.abs(pts)} ${text}`)));
    const problems = answer.problems || [];
    replace(problemsBox,
      problems.length
        ? h('ul', { class: 'army-problems', 'data-testid': 'army-problems', role: 'alert' },
          problems.map((p) => h('li', { 'data-testid': `army-problem-${p.kind}` }, p.field ? h('code', {}, p.field) : null, ' ', p.message, p.rule ? h('span', { class: 'rule' }, ` [${p.rule}]`) : null)))
        : h('p', { class: 'army-ok', 'data-testid': 'army-ok' }, 'The engine accepts this army.'),
      (answer.needs || []).includes('several_generals')
        ? h('p', { class: 'muted', 'data-testid': 'army-needs' }, 'Its allied contingents need the optional rule "Several generals" (XII-A); the new-battle form turns it on.')
        : null);
    if (answer.toml) {
      tomlBox.value = answer.toml;
      download.href = URL.createObjectURL(new Blob([answer.toml], { type: 'application/toml' }));
      download.download = `${draft.id || 'army'}.toml`;
    }
    saveButton.disabled = !answer.list;
    useButton.disabled = !answer.ok;
  }

  async function check() {
    const mine = ++checking;
    let got;
    try {
      got = await api.post('/armies/check', { army: draft });
    } catch (e) {
      if (mine === checking) replace(problemsBox, h('p', { class: 'form-error', role: 'alert' }, `The server could not check it: ${e.message}`));
      return;
    }
    if (mine !== checking) return;
    answer = got;
    renderSections();
    renderAnswer();
  }
  const checkSoon = debounce(check, 120);

  function changed() {
    renderSections();
    checkSoon();
  }

  // ---- saving, sharing, loading ----
  const status = h('span', { class: 'muted', 'data-testid': 'army-saved', role: 'status' });
  const store = () => {
    const entry = {
      id: draft.id, name: draft.name, faction: draft.faction, points: draft.points,
      total: answer?.total ?? null, ok: !!answer?.ok, needs: answer?.needs || [], draft: structuredClone(draft), toml: answer?.toml || '',
    };
    saveArmy(entry);
    replace(status, `Saved in this browser as "${draft.id}".`);
    return entry;
  };
  const saveButton = h('button', { type: 'button', 'data-testid': 'army-save', disabled: true, onclick: () => store() }, 'Save to my armies');
  const useButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'army-use', disabled: true }, 'Use this army');
  const copy = h('button', { type: 'button', 'data-testid': 'army-copy', onclick: () => answer?.toml && copyText(answer.toml) }, 'Copy TOML');

  const loadText = h('textarea', {
    rows: 4, class: 'army-toml', 'data-testid': 'army-load-text', 'aria-label': 'An army file to load (TOML, or the list as JSON)',
    placeholder: '[army]\nid = "my-army"\n…',
  });
  const loadFile = h('input', { type: 'file', accept: '.toml,.json,text/plain', 'data-testid': 'army-load-file', 'aria-label': 'Load an army file' });
  const loadStatus = h('div', { 'data-testid': 'army-load-status' });
  async function load(text) {
    const t = text.trim();
    let body;
    if (t.startsWith('{')) {
      try {
        body = { army: JSON.parse(t) };
      } catch (e) {
        replace(loadStatus, h('p', { class: 'form-error' }, `The JSON cannot be read: ${e.message}`));
        return;
      }
    } else body = { toml: text };
    let got;
    try {
      got = await api.post('/armies/check', body);
    } catch (e) {
      replace(loadStatus, h('p', { class: 'form-error', role: 'alert' }, e.message));
      return;
    }
    if (!got.list) {
      replace(loadStatus, h('ul', { class: 'army-problems', 'data-testid': 'army-load-problems', role: 'alert' }, (got.problems || []).map((p) => h('li', {}, p.text))));
      return;
    }
    const l = got.list;
    Object.assign(draft, {
      id: l.id, name: l.name, faction: l.faction, general: l.general.replace(`${l.faction}/`, ''), points: l.points,
      units: l.units.map((u) => ({ unit: u.unit, rank: u.rank, count: u.count, ...(u.contingent ? { contingent: u.contingent } : {}) })),
    });
    allies = [...new Set(draft.units.map((u) => u.contingent).filter(Boolean))];
    nameInput.value = draft.name;
    idInput.value = draft.id;
    pointsInput.value = draft.points;
    factionSel.value = draft.faction;
    fillGenerals();
    replace(loadStatus, h('p', { class: 'muted' }, `Loaded "${draft.name}".`));
    loadBox.open = false;
    changed();
  }
  loadFile.addEventListener('change', async () => {
    const f = loadFile.files?.[0];
    if (f) load(await f.text());
  });
  const mine = myArmies();
  const openMine = mine.length ? h('label', {}, 'My armies ', h('select', {
    'data-testid': 'army-open-mine', 'aria-label': 'Open one of my armies',
    onchange: (e) => { const a = myArmies().find((x) => x.id === e.target.value); if (a) load(JSON.stringify(a.draft)); },
  }, h('option', { value: '' }, '—'), mine.map((a) => h('option', { value: a.id }, `${a.name} (${a.id})`)))) : null;

  const loadBox = h('details', { 'data-testid': 'army-load' }, h('summary', {}, 'Load an army (paste, file, or one of mine)'),
    openMine, loadText, h('div', {}, h('button', { type: 'button', 'data-testid': 'army-load-button', onclick: () => load(loadText.value) }, 'Load'), ' ', loadFile));
  const body = h('div', { class: 'army-builder', 'data-testid': 'army-builder' },
    h('div', { class: 'army-main' },
      h('div', { class: 'army-head' },
        h('label', {}, 'Name ', nameInput), h('label', {}, 'Id ', idInput), h('label', {}, 'Points ', pointsInput),
        h('label', {}, 'Faction ', factionSel), h('label', {}, 'General ', generalSel)),
      sections),
    h('div', { class: 'army-side' },
      totalBox, linesBox, problemsBox,
      h('div', { class: 'tools' }, useButton, ' ', saveButton, ' ', download, ' ', copy), status,
      h('details', {}, h('summary', {}, 'The army file (TOML)'), tomlBox),
      loadBox, loadStatus));
  const dlg = modal({ title: 'Army builder', body, testid: 'army-builder-dialog', wide: true });
  useButton.addEventListener('click', () => {
    if (!answer?.ok) return;
    const saved = store();
    onUse?.(saved);
    dlg.close();
  });
  changed();
  return dlg;
}

// The ONUS! "new battle" form of the lobby: preset armies, the armies saved in this browser
// or one made in the army builder (armybuilder.js), points, the table depth, the optional
// rules of XII-A (from the catalog), hotseat / online / vs computer.

import { ApiError } from '/assets/js/api.js';
import { h, replace, words } from '/assets/js/dom.js';
import { levelField } from '/assets/js/computer.js';
import { catalog } from './onusapi.js';
import { openEditor } from './editor.js';
import { openFortressEditor } from './fortress.js';
import { inlineList, myArmies, openArmyBuilder, presetDraft } from './armybuilder.js';

/**
 * The battlefield (Terrain & Fortresses): the open field, a shipped one, or one made in the
 * editor. Sets `state.battlefield()` to the scenario's choice (null: the open field).
 */
function battlefieldForm(cat, state) {
  const shipped = cat.battlefields || [];
  const sel = h('select', { 'data-testid': 'battlefield', 'aria-label': 'Battlefield' });
  const fill = () => replace(sel,
    h('option', { value: '' }, 'Open field (no terrain)'),
    shipped.map((b) => h('option', { value: b.id }, `${b.name} — ${b.width} × ${b.depth} DU`)),
    state.custom ? h('option', { value: '__custom' }, `${state.custom.battlefield.name} (from the editor)`) : null);
  fill();
  const describe = h('div', { class: 'muted', 'data-testid': 'battlefield-description' });
  const show = () => replace(describe, shipped.find((b) => b.id === sel.value)?.description
    || (sel.value === '__custom' ? 'Your battlefield; the table takes its size.' : ''));
  sel.addEventListener('change', show);
  const editor = h('button', {
    type: 'button', 'data-testid': 'open-editor',
    onclick: () => openEditor({
      start: shipped.find((b) => b.id === sel.value) || state.custom?.battlefield || null,
      onUse: (toml, battlefield) => {
        state.custom = { toml, battlefield };
        fill();
        sel.value = '__custom';
        show();
      },
    }),
  }, 'Battlefield editor…');
  state.battlefield = () => {
    if (!sel.value) return null;
    if (sel.value === '__custom') return { toml: state.custom.toml };
    return { shipped: sel.value };
  };
  // The fortress editor designs, saves and starts a siege on the fortress (T&F VI).
  const fortress = h('button', { type: 'button', 'data-testid': 'open-fortress-editor', onclick: () => openFortressEditor({ cat, start: state.create }) }, 'Fortress editor…');
  return h('fieldset', {}, h('legend', {}, 'Battlefield (Terrain & Fortresses)'), h('label', {}, 'Terrain ', sel), ' ', editor, ' ', fortress, describe);
}

function sideForm(cat, index, state) {
  const presetSel = h('select', { 'data-testid': `army-${index}`, 'aria-label': `Army of seat ${index}` });
  const note = h('div', { class: 'muted', 'data-testid': `army-note-${index}` });
  let previous = '';
  const mine = (value) => myArmies().find((a) => `mine:${a.id}` === value);
  const fill = () => {
    const pts = state.points;
    const wanted = (cat.presets || []).filter((p) => !pts || p.points === pts);
    const keep = presetSel.value;
    const saved = myArmies();
    replace(presetSel,
      h('optgroup', { label: 'Preset armies' }, wanted.map((p) => h('option', { value: p.id }, `${p.name} — ${cat.factions.find((f) => f.id === p.faction)?.name || p.faction}, ${p.value}/${p.points} pts`))),
      saved.length ? h('optgroup', { label: 'My armies' }, saved.map((a) => h('option', { value: `mine:${a.id}` },
        `${a.name} — ${cat.factions.find((f) => f.id === a.faction)?.name || a.faction}, ${a.total ?? '?'}/${a.points} pts${a.ok ? '' : ' (not accepted)'}`))) : null,
      h('option', { value: '__build' }, 'Build an army…'));
    if ([...presetSel.options].some((o) => o.value === keep && keep !== '__build')) presetSel.value = keep;
    else if (index === 1 && wanted.length > 1) {
      // A different army for the second seat by default.
      const other = wanted.find((p) => p.faction !== wanted[0].faction);
      if (other) presetSel.value = other.id;
    }
    previous = presetSel.value;
    chosen();
  };
  // What the chosen army needs: XII-A "Several generals" for allied contingents (the engine's
  // answer when it was checked).
  const chosen = () => {
    const a = mine(presetSel.value);
    replace(note, a ? `${a.ok ? 'Checked by the engine' : 'The engine found problems with it'}${(a.needs || []).length ? '; its allied contingents turn on "Several generals" (XII-A)' : ''}.` : '');
    state.needsChanged();
  };
  const build = (start) => openArmyBuilder(cat, {
    start, points: state.points,
    onUse: (saved) => {
      state.refill.forEach((f) => f());
      presetSel.value = `mine:${saved.id}`;
      previous = presetSel.value;
      chosen();
    },
  });
  presetSel.addEventListener('change', () => {
    if (presetSel.value === '__build') {
      presetSel.value = previous;
      build(null);
      return;
    }
    previous = presetSel.value;
    chosen();
  });
  const edit = h('button', {
    type: 'button', class: 'link', 'data-testid': `army-edit-${index}`,
    onclick: () => {
      const a = mine(presetSel.value);
      const p = (cat.presets || []).find((x) => x.id === presetSel.value);
      build(a ? a.draft : p ? presetDraft(p) : null);
    },
  }, 'Edit in the army builder…');
  state.refill.push(fill);
  state.sides[index] = () => {
    const a = mine(presetSel.value);
    if (a) return { army: { inline: inlineList(a) } };
    return { army: { preset: presetSel.value } };
  };
  state.needs[index] = () => mine(presetSel.value)?.needs || [];
  fill();
  return h('fieldset', { class: 'side-form' }, h('legend', {}, `Seat ${index}`), h('label', {}, 'Army ', presetSel), ' ', edit, note);
}

function optionInputs(cat, state) {
  const boxes = [];
  for (const o of cat.options || []) {
    const label = o.title || words(o.key);
    if (o.type === 'bool') {
      boxes.push(h('label', { class: 'opt', title: o.rule || '' },
        h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}`, onchange: (e) => { if (e.target.checked) state.options[o.key] = true; else delete state.options[o.key]; } }),
        ` ${label}`, o.rule ? h('span', { class: 'rule' }, ` ${o.rule}`) : null));
    } else if (o.type === 'number') {
      const num = h('input', { type: 'number', step: '0.5', min: '0', value: o.default ?? 6, class: 'narrow', 'aria-label': `${label} (${o.unit || ''})` });
      const box = h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}` });
      const sync = () => { if (box.checked) state.options[o.key] = Number(num.value); else delete state.options[o.key]; };
      box.addEventListener('change', sync);
      num.addEventListener('input', sync);
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, box, ` ${label} `, num, ` ${o.unit || ''}`, o.rule ? h('span', { class: 'rule' }, ` ${o.rule}`) : null));
    } else if (o.type === 'enum') {
      const sel = h('select', { 'data-testid': `opt-${o.key}`, onchange: (e) => { state.options[o.key] = e.target.value; } },
        (o.values || []).map((v) => h('option', { value: v }, words(v))));
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, `${label} `, sel));
    } else if (o.type === 'object' || o.fields) {
      // e.g. limited visibility {max_range, penalty_beyond}
      const fields = o.fields || [];
      const box = h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}` });
      const inputs = fields.map((f) => h('input', { type: 'number', step: '0.5', min: '0', value: f.default ?? 6, class: 'narrow', 'aria-label': f.title || f.key }));
      const sync = () => {
        if (!box.checked) delete state.options[o.key];
        else state.options[o.key] = Object.fromEntries(fields.map((f, i) => [f.key, Number(inputs[i].value)]));
      };
      box.addEventListener('change', sync);
      inputs.forEach((i) => i.addEventListener('input', sync));
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, box, ` ${label} `, fields.map((f, i) => [` ${f.title || words(f.key)} `, inputs[i]])));
    }
  }
  return boxes;
}

/**
 * A siege (Terrain & Fortresses VI "Scenarios with fortresses"): one of the scenarios the
 * server's catalog lists with the engine's setup of each, or none (a field battle). A siege
 * brings its armies, battlefield, zones and victory conditions.
 */
function siegeForm(cat, onChange) {
  const sieges = cat.scenarios || [];
  const sel = h('select', { 'data-testid': 'siege', 'aria-label': 'Siege scenario' },
    h('option', { value: '' }, 'None: a field battle'),
    sieges.map((s) => h('option', { value: s.id }, `${s.name} (${s.points} points)`)));
  const info = h('div', { class: 'muted', 'data-testid': 'siege-description' });
  sel.addEventListener('change', () => {
    const s = sieges.find((x) => x.id === sel.value);
    replace(info, s ? `${s.description} Attacker (seat 0): ${s.attacker}; defender (seat 1): ${s.defender}. `
      + 'The scenario brings the armies and the battlefield; the defender deploys first.' : '');
    onChange(!!s);
  });
  return {
    box: h('fieldset', {}, h('legend', {}, 'Siege (Terrain & Fortresses VI)'), sel, info),
    chosen: () => sieges.find((x) => x.id === sel.value) || null,
  };
}

function battleForm(cat, create) {
  const state = { sides: [], refill: [], needs: [], options: {}, points: 1000, needsChanged: () => {} };
  // A siege started from the fortress editor: the form's optional rules ticked, then created.
  state.create = (body, mode) => {
    body.setup.options = { ...(body.setup.options || {}), ...state.options };
    return create(body, mode);
  };
  const pointsSel = h('select', { 'data-testid': 'points', 'aria-label': 'Points', onchange: (e) => { state.points = Number(e.target.value); state.refill.forEach((f) => f()); } },
    [...new Set((cat.presets || []).map((p) => p.points))].sort((a, b) => a - b).map((p) => h('option', { value: p, selected: p === 1000 }, `${p} points`)));
  const modeInputs = [
    ['hotseat', 'Hotseat', 'both players at this browser'],
    ['online', 'Online', 'a secret link for each seat, to share'],
    ['computer', 'Vs computer', 'the computer plays seat 1'],
  ].map(([v, label, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'mode', value: v, checked: i === 0, 'data-testid': `mode-${v}` }), ` ${label}`, h('span', { class: 'muted' }, ` — ${hint}`)));
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
  const button = h('button', { class: 'primary', type: 'submit', 'data-testid': 'create-game' }, 'Create the game');
  const computer = levelField();
  // While a siege scenario is chosen, what it decides (the armies, the points, the table and
  // the battlefield) is not asked here: those fields are disabled, with a note.
  const siegeNote = h('p', { class: 'muted siege-note', 'data-testid': 'siege-overrides', hidden: true },
    'The siege scenario brings both armies, the points and the battlefield: the fields above are not used.');
  const overridden = () => form.querySelectorAll('[data-testid^=army-]:is(select, button), [data-testid=points], [data-testid=table-depth], [data-testid=battlefield], [data-testid=open-editor]');
  const siege = siegeForm(cat, (on) => {
    siegeNote.hidden = !on;
    for (const el of overridden()) el.disabled = on;
    form.querySelectorAll('.side-form').forEach((f) => f.classList.toggle('overridden', on));
  });
  const form = h('form', { class: 'new-game', 'data-testid': 'new-game' },
    h('h2', {}, 'New battle'),
    h('label', {}, 'Size ', pointsSel),
    h('div', { class: 'sides' }, sideForm(cat, 0, state), sideForm(cat, 1, state)),
    h('label', { class: 'opt' }, 'Table depth ', h('input', {
      type: 'number', min: '8', max: '40', step: '1', class: 'narrow', placeholder: '18', 'data-testid': 'table-depth',
      'aria-label': 'Table depth in DU (empty: the default of VI)',
      oninput: (e) => { state.depth = e.target.value ? Number(e.target.value) : null; },
    }), ' DU ', h('span', { class: 'muted' }, '(empty: 18 DU, VI; less brings the armies closer; a battlefield sets its own)')),
    battlefieldForm(cat, state),
    siege.box,
    siegeNote,
    h('fieldset', {}, h('legend', {}, 'Optional rules (XII-A)'), h('div', { class: 'opts' }, optionInputs(cat, state))),
    h('fieldset', {}, h('legend', {}, 'Players'), modeInputs, computer.box),
    errorBox,
    button);
  computer.follow(form);
  // An army with allied contingents needs XII-A "Several generals": the box is ticked for it.
  state.needsChanged = () => {
    const several = state.needs.some((f) => f().includes('several_generals'));
    const box = form.querySelector('[data-testid=opt-several_generals]');
    if (several && box && !box.checked) {
      box.checked = true;
      box.dispatchEvent(new Event('change'));
    }
  };
  state.needsChanged();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    replace(errorBox);
    const mode = form.querySelector('input[name=mode]:checked').value;
    const body = siegeBody(siege.chosen(), state) || fieldBody(state, errorBox);
    if (!body) return;
    if (mode === 'computer') body.seats = [{ seat: '1', kind: 'computer', name: 'computer', level: computer.level() }];
    button.disabled = true;
    try {
      await create(body, mode);
    } catch (e) {
      replace(errorBox, e instanceof ApiError ? e.describe() : e.message);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** The new game's body for a siege: the engine's setup of the scenario, with the optional
 * rules ticked; `null` for a field battle. */
function siegeBody(siege, state) {
  if (!siege) return null;
  const setup = JSON.parse(JSON.stringify(siege.setup));
  setup.options = { ...(setup.options || {}), ...state.options };
  return { setup };
}

/** The new game's body for a field battle from the form; `null` (the reason shown) when a
 * side is not ready. */
function fieldBody(state, errorBox) {
  let players;
  try {
    players = state.sides.map((f) => f());
  } catch (e) {
    replace(errorBox, e.message);
    return null;
  }
  const body = { setup: { players, options: { ...state.options } } };
  const battlefield = state.battlefield();
  // A battlefield sets the table's size; otherwise the depth asked for, if any.
  if (battlefield) body.setup.scenario = { battlefield };
  else if (state.depth) body.setup.scenario = { depth: state.depth };
  return body;
}

/**
 * The form, once the catalog is loaded (the table module's `newGameForm`): `create(body,
 * mode)` creates the game and takes the page on; a refusal is shown in the form.
 */
export async function newGameForm({ create }) {
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    return h('div', { class: 'fatal', role: 'alert' }, `The server's catalog could not be loaded: ${e.message}`);
  }
  return h('div', {}, battleForm(cat, create), h('p', { class: 'notice muted' }, cat.deck?.notice || ''));
}

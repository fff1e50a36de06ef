// The lobby's "new battle" form: a scenario and a preset army for each side (from the
// server's catalog of data/command-points/), and who plays: hotseat, online by link, or
// against the computer. The setup posted is the one the server builds from those ids.

import { ApiError, systemApi } from '/assets/js/api.js';
import { h, replace } from '/assets/js/dom.js';
import { SYSTEM } from './words.js';

const api = systemApi(SYSTEM);

function presetOptions(cat) {
  return cat.armies.flatMap((a) => a.presets.map((p) => h('option', { value: p.id },
    `${p.name} — ${a.name}: ${p.units.length} units, General ${p.general.name}, break point ${p.break_point}`)));
}

export async function newGameForm({ create }) {
  let cat;
  try {
    cat = await api.get('/catalog');
  } catch (e) {
    return h('div', { class: 'fatal', role: 'alert' }, `The catalog could not be loaded: ${e.message}`);
  }
  const scenario = h('select', { 'data-testid': 'scenario', 'aria-label': 'Scenario' },
    cat.scenarios.map((s) => h('option', { value: s.id }, `${s.name} — ${s.board.cols}×${s.board.rows} squares, ${s.turns} turns`)));
  const south = h('select', { 'data-testid': 'army-south', 'aria-label': 'South\'s army' }, presetOptions(cat));
  const north = h('select', { 'data-testid': 'army-north', 'aria-label': 'North\'s army' }, presetOptions(cat));
  const ids = cat.armies.flatMap((a) => a.presets.map((p) => p.id));
  if (ids.length > 1) north.value = ids[1];
  const detail = h('div', { class: 'muted', 'data-testid': 'preset-detail' });
  const describe = () => {
    const line = (id) => {
      for (const a of cat.armies) {
        const p = a.presets.find((x) => x.id === id);
        if (p) return `${p.name}: ${p.units.join(', ')}; Command Points A${p.points.attack} M${p.points.movement} D${p.points.defence} S${p.points.strategy}; Generalship ${p.general.generalship}`;
      }
      return '';
    };
    replace(detail, h('div', {}, `South — ${line(south.value)}`), h('div', {}, `North — ${line(north.value)}`));
  };
  south.addEventListener('change', describe);
  north.addEventListener('change', describe);
  describe();
  const modes = [
    ['hotseat', 'Hotseat', 'both players at this browser'],
    ['online', 'Online', 'a secret link for each seat, to share'],
    ['computer', 'Vs computer', 'the scripted player takes North'],
  ].map(([v, label, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'mode', value: v, checked: i === 0, 'data-testid': `mode-${v}` }), ` ${label}`, h('span', { class: 'muted' }, ` — ${hint}`)));
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
  const button = h('button', { class: 'primary', type: 'submit', 'data-testid': 'create-game' }, 'Create the game');
  const form = h('form', { class: 'new-game', 'data-testid': 'new-game' },
    h('h2', {}, 'New battle (Command Points, square grid)'),
    h('label', {}, 'Scenario ', scenario),
    h('div', { class: 'sides' }, h('label', {}, 'South ', south), h('label', {}, 'North ', north)),
    detail,
    h('fieldset', {}, h('legend', {}, 'Players'), modes),
    errorBox, button,
    h('p', { class: 'notice muted' }, cat.notice));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    replace(errorBox);
    button.disabled = true;
    try {
      const q = new URLSearchParams({ scenario: scenario.value, south: south.value, north: north.value });
      const setup = await api.get(`/setup?${q}`);
      const mode = form.querySelector('input[name=mode]:checked').value;
      const body = { setup };
      if (mode === 'computer') body.seats = [{ seat: 'north', kind: 'computer', name: 'computer' }];
      await create(body, mode);
    } catch (e) {
      replace(errorBox, e instanceof ApiError ? e.describe() : e.message);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// The lobby's "new battle" form: a scenario and a preset army for each side (from the
// server's catalog of data/command-points/), and who plays: hotseat, online by link, or
// against the computer. The setup posted is the one the server builds from those ids.

import { systemApi } from '/assets/js/api.js';
import { h, replace } from '/assets/js/dom.js';
import { gameForm, withCatalog } from '/assets/js/newgame.js';
import { SYSTEM } from './words.js';

const api = systemApi(SYSTEM);

function presetOptions(cat) {
  return cat.armies.flatMap((a) => a.presets.map((p) => h('option', { value: p.id },
    `${p.name} — ${a.name}: ${p.units.length} units, General ${p.general.name}, break point ${p.break_point}`)));
}

export function newGameForm({ create }) {
  return withCatalog(api, (cat) => form(cat, create));
}

function form(cat, create) {
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
  return gameForm({
    title: 'New battle (Command Points, square grid)',
    fields: [h('label', {}, 'Scenario ', scenario),
      h('div', { class: 'sides' }, h('label', {}, 'South ', south), h('label', {}, 'North ', north)),
      detail],
    notice: cat.notice,
    computerSeat: 'north',
    computerHint: 'the scripted player takes North',
    create,
    setup: () => api.get(`/setup?${new URLSearchParams({ scenario: scenario.value, south: south.value, north: north.value })}`),
  });
}

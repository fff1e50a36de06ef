// The lobby's "new battle" form: a scenario and an army for each side, from the server's
// catalog of data/othw/; who plays (the platform's part). The setup posted is the one the
// server builds from those ids.

import { systemApi } from '/assets/js/api.js';
import { h } from '/assets/js/dom.js';
import { gameForm, withCatalog } from '/assets/js/newgame.js';
import { SYSTEM } from './words.js';

const api = systemApi(SYSTEM);

export function newGameForm({ create }) {
  return withCatalog(api, (cat) => form(cat, create));
}

function form(cat, create) {
  const armyOptions = () => cat.armies.map((a) => h('option', { value: a.id },
    `${a.name}: ${a.units} units${a.general ? `, General ${a.general.name}` : ''}`));
  const scenario = h('select', { 'data-testid': 'scenario', 'aria-label': 'Scenario' },
    cat.scenarios.map((s) => h('option', { value: s.id }, `${s.name} — ${s.board.cols}×${s.board.rows} squares, ${s.turns} turns`)));
  const south = h('select', { 'data-testid': 'army-south', 'aria-label': 'South\'s army' }, armyOptions());
  const north = h('select', { 'data-testid': 'army-north', 'aria-label': 'North\'s army' }, armyOptions());
  if (cat.armies.length > 1) north.value = cat.armies[1].id;
  return gameForm({
    title: 'New battle (O/THW Ancients, square grid)',
    fields: [h('label', {}, 'Scenario ', scenario),
      h('div', { class: 'sides' }, h('label', {}, 'South ', south), h('label', {}, 'North ', north))],
    notice: cat.notice,
    computerSeat: 'north',
    computerHint: 'the scripted player takes North',
    create,
    setup: () => api.get(`/setup?${new URLSearchParams({ scenario: scenario.value, south: south.value, north: north.value })}`),
  });
}

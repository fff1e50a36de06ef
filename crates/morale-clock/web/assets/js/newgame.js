// The lobby's "new battle" form: a scenario and an army for each side, from the catalog; the
// players (hotseat, online, against the computer). The form sends the scenario, the armies
// and the rules as the catalog gives them: the server starts the battle from them.

import { ApiError } from '/assets/js/api.js';
import { h, replace } from '/assets/js/dom.js';
import { catalog } from './api.js';

export async function newGameForm({ create }) {
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    return h('div', { class: 'fatal', role: 'alert' }, `The server's catalog could not be loaded: ${e.message}`);
  }
  const scenarioSel = h('select', { 'data-testid': 'mc-scenario', 'aria-label': 'Scenario' },
    cat.scenarios.map((s) => h('option', { value: s.id }, `${s.name} (${s.table[0]}" × ${s.table[1]}", ${s.turn_limit} turns)`)));
  const armySel = (i) => h('select', { 'data-testid': `mc-army-${i}`, 'aria-label': `Army of side ${i ? 'B' : 'A'}` },
    cat.armies.map((a, j) => h('option', { value: a.id, selected: j === i % cat.armies.length }, `${a.name} (Morale Clock ${a.morale_clock}, ${a.units.length} bases)`)));
  const armies = [armySel(0), armySel(1)];
  const describe = h('p', { class: 'muted', 'data-testid': 'mc-scenario-text' });
  const showScenario = () => {
    const s = cat.scenarios.find((x) => x.id === scenarioSel.value);
    replace(describe, s?.description || '', s ? ` Side ${s.first === 'a' ? 'A' : 'B'} plays first.` : '');
  };
  scenarioSel.addEventListener('change', showScenario);
  showScenario();
  const modes = [
    ['hotseat', 'Hotseat', 'both sides at this browser'],
    ['online', 'Online', 'a secret link for each side, to share'],
    ['computer', 'Vs computer', 'the scripted player commands side B'],
  ].map(([v, label, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'mc-mode', value: v, checked: i === 0, 'data-testid': `mode-${v}` }), ` ${label}`,
    h('span', { class: 'muted' }, ` — ${hint}`)));
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
  const button = h('button', { class: 'primary', type: 'submit', 'data-testid': 'create-game' }, 'Create the battle');
  const form = h('form', { class: 'new-game', 'data-testid': 'new-game' },
    h('h2', {}, 'New battle'),
    h('label', {}, 'Scenario ', scenarioSel), describe,
    h('div', { class: 'sides' },
      h('fieldset', {}, h('legend', {}, 'Side A (near edge)'), armies[0]),
      h('fieldset', {}, h('legend', {}, 'Side B (far edge)'), armies[1])),
    h('fieldset', {}, h('legend', {}, 'Players'), modes),
    errorBox, button);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    replace(errorBox);
    const mode = form.querySelector('input[name=mc-mode]:checked').value;
    const scenario = cat.scenarios.find((s) => s.id === scenarioSel.value);
    const chosen = armies.map((sel) => cat.armies.find((a) => a.id === sel.value));
    const body = { setup: { scenario, armies: chosen, rules: cat.rules } };
    if (mode === 'computer') body.seats = [{ seat: 'b', kind: 'computer', name: 'computer' }];
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

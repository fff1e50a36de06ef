// The lobby's "new battle" form: a scenario and an army for each side, from the catalog; the
// players (hotseat, online, against the computer). The form sends the scenario, the armies
// and the rules as the catalog gives them: the server starts the battle from them.

import { h, replace } from '/assets/js/dom.js';
import { gameForm } from '/assets/js/newgame.js';
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
  return gameForm({
    title: 'New battle',
    fields: [h('label', {}, 'Scenario ', scenarioSel), describe,
      h('div', { class: 'sides' },
        h('fieldset', {}, h('legend', {}, 'Side A (near edge)'), armies[0]),
        h('fieldset', {}, h('legend', {}, 'Side B (far edge)'), armies[1]))],
    computerSeat: 'b',
    computerHint: 'the scripted player commands side B',
    button: 'Create the battle',
    create,
    setup: () => ({
      scenario: cat.scenarios.find((s) => s.id === scenarioSel.value),
      armies: armies.map((sel) => cat.armies.find((a) => a.id === sel.value)),
      rules: cat.rules,
    }),
  });
}

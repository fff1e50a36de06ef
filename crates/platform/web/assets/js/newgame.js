// The parts of a lobby's "new game" form every system shares: who plays (hotseat, online by
// link, against the computer), the error line, the button, and the submission: the system
// gives its fields and builds the setup; the server creates the game from it.

import { ApiError } from './api.js';
import { h, replace } from './dom.js';
import { levelField } from './computer.js';

/** `build(catalog)` with the system's catalog (`GET /api/{system}/catalog`), or why it is missing. */
export async function withCatalog(api, build) {
  let cat;
  try {
    cat = await api.get('/catalog');
  } catch (e) {
    return h('div', { class: 'fatal', role: 'alert' }, `The catalog could not be loaded: ${e.message}`);
  }
  return build(cat);
}

/**
 * A form titled `title` with the system's `fields` (elements), `notice` below the button.
 * On submit, `setup()` gives the setup to post (it may ask the server); a game against the
 * computer gives it `computerSeat`, named `computerHint` in the choice of players, at the
 * level chosen.
 */
export function gameForm({ title, fields, notice = null, setup, create, computerSeat, computerHint, button: label = 'Create the game' }) {
  const modes = [
    ['hotseat', 'Hotseat', 'both players at this browser'],
    ['online', 'Online', 'a secret link for each seat, to share'],
    ['computer', 'Vs computer', computerHint],
  ].map(([v, name, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'mode', value: v, checked: i === 0, 'data-testid': `mode-${v}` }), ` ${name}`, h('span', { class: 'muted' }, ` — ${hint}`)));
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
  const button = h('button', { class: 'primary', type: 'submit', 'data-testid': 'create-game' }, label);
  const computer = levelField();
  const form = h('form', { class: 'new-game', 'data-testid': 'new-game' },
    h('h2', {}, title), fields,
    h('fieldset', {}, h('legend', {}, 'Players'), modes, computer.box),
    errorBox, button,
    notice ? h('p', { class: 'notice muted' }, notice) : null);
  computer.follow(form);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    replace(errorBox);
    button.disabled = true;
    try {
      const body = { setup: await setup() };
      const mode = form.querySelector('input[name=mode]:checked').value;
      if (mode === 'computer') body.seats = [{ seat: computerSeat, kind: 'computer', name: 'computer', level: computer.level() }];
      await create(body, mode);
    } catch (e) {
      replace(errorBox, e instanceof ApiError ? e.describe() : e.message);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// Modal dialogs: the decisions the game waits for from this seat (events in a fight, the side
// a shot comes from, discards to the hand limit, the end-of-turn draw, other decisions), the
// hotseat hand-over and the victory screen.

import { h, clear, raiseToasts } from './dom.js';

/** Opens a modal <dialog>; returns {el, close}. `body` is a node or list of nodes. */
export function modal({ title, body, testid, onClose, dismissable = true, wide = false, opaque = false }) {
  const id = `dlg-${Math.random().toString(36).slice(2)}`;
  const el = h('dialog', { class: ['dialog', wide && 'wide', opaque && 'opaque'], 'aria-labelledby': id, 'data-testid': testid });
  el.append(h('h2', { id }, title));
  const content = h('div', { class: 'dialog-body' });
  el.append(content);
  const set = (b) => {
    clear(content);
    for (const x of [b].flat()) if (x) content.append(x);
  };
  set(body);
  el.addEventListener('cancel', (ev) => {
    if (!dismissable) ev.preventDefault();
  });
  el.addEventListener('close', () => {
    el.remove();
    // Messages shown in it go back to the page (or the dialog now on top).
    raiseToasts();
    onClose?.();
  });
  document.body.append(el);
  el.showModal();
  // A message (a refusal) shown while the dialog is open must not sit under its backdrop.
  raiseToasts();
  return { el, set, close: () => el.open && el.close() };
}

// The computer in the browser: the level asked for when seating it, and the sign that it is
// thinking. The server says who plays each seat (`seats`, with every whole view and sync)
// and which seats may act (`actors`, with every message): nothing here decides whose turn
// it is.

import { h, replace } from './dom.js';

/** The levels a computer seat may play at, as the server spells them, with their names. */
export const LEVELS = [
  ['scripted', 'Scripted — quick'],
  ['easy', 'Easy'],
  ['normal', 'Normal'],
  ['hard', 'Hard'],
];

/** The select of the computer's level (the server's default, scripted, first). */
export function levelSelect() {
  return h('select', { name: 'level', 'data-testid': 'computer-level', 'aria-label': 'Computer level' },
    LEVELS.map(([value, name]) => h('option', { value }, name)));
}

/**
 * The computer's part of a new-game form: the level select (`box`), shown once `follow(form)`
 * is called while the form's "vs computer" player mode is chosen; `level()` is the level
 * chosen.
 */
export function levelField() {
  const select = levelSelect();
  const box = h('label', { class: 'computer-level', hidden: true }, 'Computer level ', select);
  const follow = (form) => form.addEventListener('change', (ev) => {
    if (ev.target.name === 'mode') box.hidden = ev.target.value !== 'computer';
  });
  return { box, follow, level: () => select.value };
}

/** A computer seat as the page names it: "Computer (hard)". */
export function computerName(seat) {
  return seat.level ? `Computer (${seat.level})` : 'Computer';
}

/** "Computer (hard) is thinking…" with a small animation while a computer seat may act. */
export class ThinkingSign {
  constructor() {
    this.seats = [];
    this.el = h('span', { class: 'thinking', 'data-testid': 'thinking', role: 'status', 'aria-live': 'polite', hidden: true });
  }

  /** Takes the seats and the seats that may act from a server message. */
  accept(msg) {
    if (Array.isArray(msg.seats)) this.seats = msg.seats;
    const actors = msg.outcome ? [] : (msg.actors || []);
    const thinking = this.seats.filter((s) => s.kind === 'computer' && actors.includes(s.seat));
    this.el.hidden = thinking.length === 0;
    this.el.dataset.seats = thinking.map((s) => s.seat).join(' ');
    replace(this.el, thinking.length
      ? [h('span', { class: 'thinking-dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')),
        ` ${thinking.map(computerName).join(' and ')} is thinking…`]
      : []);
  }
}

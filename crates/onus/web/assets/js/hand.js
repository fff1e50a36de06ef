// The hand of action cards: each card's order (top half) and event (bottom half), from the
// deck in the catalog. Orders are played from here in the Activation Phase.

import { h, clear, words } from '/assets/js/dom.js';
import { ruleLink } from '/assets/js/rules.js';

const ICON_LABEL = { attacker: 'att', defender: 'def', ranged: 'bow', charge: 'charge' };
const TYPE_ICON = { activation: '⚑', command: '✉', morale: '♣', health: '✚' };

export function cardView(card, id, { onPlay, playable, selectable, selected, onToggle, testid } = {}) {
  const o = card?.order;
  const ev = card?.event;
  const el = h('article', {
    class: ['action-card', o && `type-${o.type}`, selected && 'selected'],
    'data-testid': testid || `card-${id}`,
    'data-card': id,
    tabindex: '0',
    'aria-label': card ? `${o.title} (${o.type} order): ${o.text} / event ${ev.title}: ${ev.text}` : `card ${id}`,
  },
  h('div', { class: 'order-half' },
    h('div', { class: 'card-head' },
      h('span', { class: 'card-title' }, h('span', { class: 'type-icon', 'aria-hidden': 'true' }, TYPE_ICON[o?.type] || '•'), o?.title || `card ${id}`),
      ruleLink(o?.rule, { label: '§', className: 'card-rule' }),
      onPlay ? h('button', {
        class: 'small play', disabled: !playable, onclick: () => onPlay(id), 'data-testid': `play-order-${id}`,
        'aria-label': `Play the order ${o?.title || id}`,
      }, 'Play') : null),
    h('p', { class: 'card-text', title: o?.text || '' }, o?.text || '')),
  h('div', { class: 'event-half' },
    h('div', { class: 'card-title event-title' }, h('span', { class: 'type-icon', 'aria-hidden': 'true' }, '⚔'), ev?.title || '',
      ruleLink(ev?.rule, { label: '§', className: 'card-rule' }),
      ev?.icons ? h('span', { class: 'icons', title: 'when the event can be played' },
        Object.entries(ev.icons).filter(([, on]) => on).map(([k]) => h('span', { class: `icon icon-${k}` }, ICON_LABEL[k] || k))) : null),
    h('p', { class: 'card-text', title: ev?.text || '' }, ev?.text || '')));
  if (selectable) {
    const box = h('input', {
      type: 'checkbox', checked: selected, 'data-testid': `pick-card-${id}`,
      'aria-label': `Choose ${ev?.title || o?.title || id}`, onchange: (e) => onToggle?.(id, e.target.checked),
    });
    el.prepend(h('label', { class: 'card-pick' }, box, ' choose'));
  }
  return el;
}

export class Hand {
  constructor(container) {
    this.container = container;
    // The width each card needs to show all its text at the bar's height (by card id).
    this.widths = new Map();
    this.height = 0;
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => this.fit()).observe(container);
  }

  /**
   * Widens each card of the bar until its whole text shows (no text is ever cut off: a long
   * card is wider, and the row scrolls sideways). Cards not on screen are left as they are.
   */
  fit() {
    const row = this.container.querySelector('.hand-row');
    if (!row) return;
    const height = Math.round(row.getBoundingClientRect().height);
    if (!height) return;
    if (height !== this.height) {
      this.height = height;
      this.widths.clear();
    }
    for (const card of row.querySelectorAll(':scope > .action-card')) {
      const id = card.dataset.card;
      if (this.widths.has(id)) {
        card.style.width = `${this.widths.get(id)}px`;
        continue;
      }
      card.style.width = '';
      let w = card.getBoundingClientRect().width;
      for (let i = 0; i < 40 && card.scrollHeight > card.clientHeight + 1; i++) {
        w += 16;
        card.style.width = `${w}px`;
      }
      this.widths.set(id, w);
    }
  }

  render({ hand, names, canPlay, onPlay, handCount, spectator }) {
    const c = clear(this.container);
    if (spectator || !hand) {
      c.append(h('div', { class: 'hand-empty' }, spectator ? 'Spectating: hands are hidden.' : ''));
      return;
    }
    c.append(h('h2', { class: 'sr-only' }, 'Your hand'));
    if (!hand.length) c.append(h('div', { class: 'hand-empty', 'data-testid': 'hand-empty' }, 'No card in hand.'));
    const row = h('div', { class: 'hand-row', role: 'list', 'data-testid': 'hand', 'data-count': handCount ?? hand.length });
    for (const id of hand) {
      const card = names.card(id);
      const item = cardView(card, id, { onPlay, playable: canPlay });
      item.setAttribute('role', 'listitem');
      row.append(item);
    }
    c.append(row);
    this.fit();
  }
}

// The log: every event of the game in order, and every roll with its purpose, rule (a link to
// the rules reader), faces,
// the face needed and the breakdown of each operand ("hit 4 = 4 +1 (general) -1 (broken)"),
// so that "why did I need a 5?" is answered. The rolls are acies_core's `RollRecord`s, the
// same in every system; the sentence for each event is the system's (`describe`).

import { h, clear, signed } from './dom.js';
import { ruleLink } from './rules.js';

/** Every roll record inside an event (fight results, morale and leadership checks...). */
export function rollsOf(event) {
  const out = [];
  const walk = (x) => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      x.forEach(walk);
      return;
    }
    if (typeof x.purpose === 'string' && Array.isArray(x.dice) && x.target) {
      out.push(x);
      return;
    }
    for (const v of Object.values(x)) walk(v);
  };
  walk(event);
  return out;
}

/** "hit 4 = 4 +1 (general) -1 (broken)", with "[min 1]" when the floor raised it. */
export function valueText(v) {
  const sum = v.modifiers.reduce((a, m) => a + m.delta, 0);
  const raw = v.base + sum;
  const total = v.floor !== null && v.floor !== undefined && raw < v.floor ? v.floor : raw;
  let t = `${v.name} ${total} = ${v.base}`;
  for (const m of v.modifiers) t += ` ${signed(m.delta)} (${m.source})`;
  if (total !== raw) t += ` [min ${v.floor}]`;
  return t;
}

export function needText(need) {
  switch (need?.kind) {
    case 'at_least': return `${need.face}+`;
    case 'at_most': return `${need.face} or less`;
    case 'always': return 'always';
    case 'never': return 'never';
    case 'secret': return 'secret (a face-down unit)';
    default: return '?';
  }
}

const PIPS = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

export function rollView(r, compact = false) {
  const dice = r.dice.map((d, i) => h('span', {
    class: ['die', d.success ? 'ok' : 'fail'],
    title: `${d.faces.join(' → ')}${d.note ? ` (${d.note})` : ''}${d.success ? `: success${d.worth > 1 ? ` worth ${d.worth}` : ''}` : ': failure'}`,
    'data-testid': 'die',
    'aria-label': `die ${i + 1}: ${d.faces.join(' then ')}, ${d.success ? 'success' : 'failure'}${d.note ? `, ${d.note}` : ''}`,
  }, d.faces.length > 1 ? h('s', {}, d.faces.slice(0, -1).join(',')) : null, ` ${d.faces[d.faces.length - 1]}`, d.worth > 1 ? h('sup', {}, `×${d.worth}`) : null));
  const succ = r.dice.filter((d) => d.success).length;
  return h('div', { class: 'roll', 'data-testid': 'roll' },
    h('div', { class: 'roll-head' },
      h('span', { class: 'roll-purpose' }, r.purpose),
      ruleLink(r.rule, { className: 'roll-rule' })),
    h('div', { class: 'roll-line' },
      h('span', { class: 'need', 'data-testid': 'roll-need' }, `need ${needText(r.target.need)}`),
      h('span', { class: 'dice' }, dice),
      h('span', { class: 'succ' }, `${succ}/${r.dice.length} ✓`)),
    compact ? null : h('div', { class: 'formula' }, r.target.formula),
    h('ul', { class: 'operands' }, r.target.operands.map((v) => h('li', { 'data-testid': 'operand' }, valueText(v)))),
  );
}

/** The kind of an event, for its CSS class (`ev-{kind}`). */
const kindOf = (e) => e?.event ?? e?.type ?? 'event';

/**
 * The log panel. `describe(event, names)` is the system's sentence for an event; events of
 * the kinds in `quiet` are shown dimmed.
 */
export class DiceLog {
  constructor(container, { describe, quiet = new Set() }) {
    this.container = container;
    this.describe = describe;
    this.quiet = quiet;
    this.rollsOnly = false;
    this.count = -1;
    this.filter = h('label', { class: 'log-filter' },
      h('input', { type: 'checkbox', 'data-testid': 'log-rolls-only', onchange: (e) => { this.rollsOnly = e.target.checked; this.count = -1; this.render(this.last, this.names); } }),
      ' rolls only');
    this.list = h('ol', { class: 'log-list', 'data-testid': 'dice-log', 'aria-label': 'Events and dice', tabindex: '0' });
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite', 'data-testid': 'log-live' });
    container.append(h('div', { class: 'log-head' }, h('h2', {}, 'Log & dice'), this.filter), this.list, this.live);
    // Stay at the newest entry unless the reader scrolled up, also when the panel above grows.
    this.stick = true;
    // Only the reader's own scrolling decides (re-rendering the list scrolls it too).
    const userScroll = () => setTimeout(() => {
      this.stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 30;
    }, 50);
    for (const ev of ['wheel', 'touchmove', 'keydown', 'pointerup']) this.list.addEventListener(ev, userScroll, { passive: true });
    if (window.ResizeObserver) {
      new ResizeObserver(() => { if (this.stick) this.list.scrollTop = this.list.scrollHeight; }).observe(this.list);
    }
  }

  /** Forgets every entry shown (a hotseat hand-over: the next reader may not see them). */
  reset() {
    this.last = null;
    this.count = -1;
    clear(this.list);
    this.live.textContent = '';
  }

  render(events, names) {
    this.last = events;
    this.names = names;
    if (!events) return;
    if (events.length === this.count) return;
    clear(this.list);
    events.forEach((e, i) => {
      const rolls = rollsOf(e);
      if (this.rollsOnly && !rolls.length) return;
      const kind = kindOf(e);
      const li = h('li', {
        class: ['log-entry', `ev-${kind}`, rolls.length && 'has-rolls', this.quiet.has(kind) && 'quiet'],
        'data-testid': 'log-entry', 'data-event': kind, 'data-index': i,
      }, h('div', { class: 'log-text' }, this.describe(e, names)));
      for (const r of rolls) li.append(rollView(r));
      this.list.append(li);
    });
    if (this.count >= 0 && events.length > this.count) {
      this.live.textContent = events.slice(this.count).slice(-3).map((e) => this.describe(e, names)).join(' ');
    }
    this.count = events.length;
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
  }
}

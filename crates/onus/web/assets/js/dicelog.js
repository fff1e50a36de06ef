// The log: every event of the game in order, and every roll with its purpose, rule, faces,
// the face needed and the breakdown of each operand ("hit 4 = 4 +1 (general) -1 (broken)"),
// so that "why did I need a 5?" is answered.

import { h, clear, num, words, signed } from './dom.js';
import { phaseName } from './cards.js';

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
      h('span', { class: 'roll-rule' }, r.rule)),
    h('div', { class: 'roll-line' },
      h('span', { class: 'need', 'data-testid': 'roll-need' }, `need ${needText(r.target.need)}`),
      h('span', { class: 'dice' }, dice),
      h('span', { class: 'succ' }, `${succ}/${r.dice.length} ✓`)),
    compact ? null : h('div', { class: 'formula' }, r.target.formula),
    h('ul', { class: 'operands' }, r.target.operands.map((v) => h('li', { 'data-testid': 'operand' }, valueText(v)))),
  );
}

/** One line of text for an event. */
export function describeEvent(e, n) {
  const u = (id) => n.unit(id);
  const seat = (s) => n.shortSeat(s);
  switch (e.event) {
    case 'game_started': return `The battle is set up: ${e.seats.length} players, a table of ${num(e.width)} × ${num(e.depth)} DU.`;
    case 'deployment_order': return `${seat(e.first)} deploys first.`;
    case 'unit_deployed': return `${seat(e.seat)} deploys ${e.card ? u(e.unit) : `unit #${e.unit} face down`}.`;
    case 'units_revealed': return `The units are revealed (${e.units.length}).`;
    case 'general_placed': return `${seat(e.seat)} places ${e.general} with ${u(e.unit)}.`;
    case 'cards_drawn': return `${seat(e.seat)} draws ${e.count} card${e.count === 1 ? '' : 's'}${e.cards?.length ? ` (${e.cards.map((c) => n.orderTitle(c)).join(', ')})` : ''} — ${e.why}.`;
    case 'cards_given': return `${seat(e.from)} gives ${e.count} card${e.count === 1 ? '' : 's'} to ${seat(e.to)}${e.cards?.length ? ` (${e.cards.map((c) => n.orderTitle(c)).join(', ')})` : ''} — VII-7, XII-B.`;
    case 'cards_discarded': return `${seat(e.seat)} discards ${e.cards.map((c) => n.orderTitle(c)).join(', ') || 'nothing'} — ${e.why}.`;
    case 'deck_reshuffled': return `The discard pile becomes the draw pile (exhaustion ${e.exhaustions}).`;
    case 'starting_player': return `${seat(e.seat)} starts${e.rolls?.length ? ` (rolls: ${e.rolls.map(([s, d, t]) => `seat ${s}: ${d} → ${t}`).join(', ')})` : ''}.`;
    case 'turn_started': return `Turn ${e.turn} (round ${e.round}): ${e.seats.map(seat).join(', ')}.`;
    case 'phase_started': return `${phaseName(e.phase)} phase.`;
    case 'leadership_check': return `Leadership check of ${seat(e.seat)} (losses ${e.losses} of ${e.starting_value}): ${e.passed ? 'passed' : 'failed'}.`;
    case 'order_played': return `${seat(e.seat)} plays ${n.orderTitle(e.card)}${e.units?.length ? ` on ${e.units.map(u).join(', ')}` : ''}.`;
    case 'unit_activated': return `${u(e.unit)} is activated (${e.why}).`;
    case 'morale_check': return `Morale check of ${u(e.unit)} (${e.reason}): ${e.passed ? 'passed' : 'failed'}.`;
    case 'unit_rallied': return `${u(e.unit)} rallies${e.fleeing ? ' (still fleeing)' : e.broken ? ' (still broken)' : ''}.`;
    case 'unit_healed': return `${u(e.unit)} heals ${e.wounds} wound${e.wounds === 1 ? '' : 's'}.`;
    case 'unit_broken': return `${u(e.unit)} breaks: ${e.why}.`;
    case 'unit_fled': return `${u(e.unit)} flees: ${e.why}.`;
    case 'moved': return `${u(e.unit)} moves (${e.kind}, ${num(e.cost)} DU).`;
    case 'charged': return `${u(e.unit)} charges ${u(e.target)}${e.engaged?.length > 1 ? ` (engaged with ${e.engaged.map(u).join(', ')})` : ''}${e.swept_wounds ? `, ${e.swept_wounds} wounds swept` : ''}.`;
    case 'enveloped': return `${u(e.unit)} envelops ${u(e.target)} with ${e.sections} section${e.sections === 1 ? '' : 's'}.`;
    case 'flight_move': return `${u(e.unit)} flees${e.crossed?.length ? ` through ${e.crossed.map(u).join(', ')}` : ''}.`;
    case 'fight_declared': return `${e.ranged ? 'Shot' : 'Melee'}: ${u(e.attacker)} → ${u(e.defender)}, ${e.dice} dice.`;
    case 'shot_lost': return `Shot lost: ${u(e.target)} is ${num(e.distance)} DU from ${u(e.shooter)}, beyond ${num(e.limit)} DU (${e.rule}).`;
    case 'random_event_revealed': return `Random event: ${n.eventTitle(e.card)}${e.redraw ? ' (redrawn)' : ''}.`;
    case 'event_played': return `${seat(e.seat)} plays ${e.cards.map((c) => n.eventTitle(c)).join(', ') || 'no event'}.`;
    case 'events_resolved': return `Events: ${(e.log || []).map((l) => `${l.title || words(l.event)} — ${words(l.status?.status)}${l.status?.reason ? ` (${l.status.reason})` : ''}`).join('; ') || 'none'}.`;
    case 'fight_resolved': {
      const r = e.result;
      const side = (x, id) => `${u(id)} ${x.wounds_taken} wound${x.wounds_taken === 1 ? '' : 's'}, ${words(x.final_state)}`;
      return `Result (${words(r.kind)}): ${side(r.attacker, e.attacker)}; ${side(r.defender, e.defender)}.`;
    }
    case 'free_attack_resolved': return `Free attack (${e.rule}): ${u(e.attacker)} → ${u(e.defender)}.`;
    case 'unit_removed': return `${u(e.unit)} ${e.why === 'fled_off_table' ? 'leaves the battlefield' : 'is eliminated'}.`;
    case 'general_changed': return `${e.general} (${seat(e.seat)}): ${words(e.status)}${e.fleeing ? ', fleeing' : ''}.`;
    case 'general_transferred': return `${e.general} moves from ${u(e.from)} to ${u(e.to)}.`;
    case 'end_of_turn_draw': return `${seat(e.seat)} draws at the end of the turn (${typeof e.choice === 'string' ? words(e.choice) : Object.keys(e.choice).map(words).join(', ')}).`;
    case 'player_defeated': return `${seat(e.seat)} is defeated: ${e.reason}.`;
    case 'game_over': return e.outcome.winners
      ? `Game over: ${e.outcome.winners.seats.map(seat).join(', ')} win${e.outcome.winners.seats.length === 1 ? 's' : ''} (${e.outcome.winners.reason}).`
      : `Game over: a draw (${e.outcome.draw?.reason}).`;
    case 'withdrawn': return `${u(e.unit)} withdraws.`;
    case 'random_event_kept': return `Elite: keeps ${n.eventTitle(e.kept)}, sets aside ${n.eventTitle(e.set_aside)}.`;
    case 'repositioned': return `${u(e.unit)} repositions (${e.degrees}°).`;
    case 'markers_removed': return `${u(e.unit)}: ${e.markers} marker${e.markers === 1 ? '' : 's'} removed (${e.why}).`;
    case 'retreated': return `${u(e.unit)} retreats${e.disengaged ? ' and disengages' : ''}.`;
    case 'flight_blocked': return `${u(e.unit)} cannot flee (blocked).`;
    default: return `${words(e.event)}: ${JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'event'))).slice(0, 160)}`;
  }
}

const QUIET = new Set(['unit_deployed']);

/** The log panel. */
export class DiceLog {
  constructor(container) {
    this.container = container;
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

  render(events, names) {
    this.last = events;
    this.names = names;
    if (!events) return;
    if (events.length === this.count) return;
    clear(this.list);
    let lastTurn = null;
    events.forEach((e, i) => {
      const rolls = rollsOf(e);
      if (this.rollsOnly && !rolls.length) return;
      if (e.event === 'turn_started') lastTurn = e.turn;
      const li = h('li', {
        class: ['log-entry', `ev-${e.event}`, rolls.length && 'has-rolls', QUIET.has(e.event) && 'quiet'],
        'data-testid': 'log-entry', 'data-event': e.event, 'data-index': i,
      }, h('div', { class: 'log-text' }, describeEvent(e, names)));
      for (const r of rolls) li.append(rollView(r));
      this.list.append(li);
    });
    if (this.count >= 0 && events.length > this.count) {
      this.live.textContent = events.slice(this.count).slice(-3).map((e) => describeEvent(e, names)).join(' ');
    }
    this.count = events.length;
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
    void lastTurn;
  }
}

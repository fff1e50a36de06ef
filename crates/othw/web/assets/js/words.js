// Words for the O/THW Ancients table: sides, units, actions and events. Nothing here decides a
// rule; it only says what the engine's actions and events are.

import { h, words } from '/assets/js/dom.js';

export const SYSTEM = 'othw';

export const SIDE_COLOUR = { south: '#a8322a', north: '#2f5d9e' };

/** Events shown dimmed in the log. */
export const QUIET = new Set(['activation']);

export function sideName(side) {
  return side === 'south' ? 'South' : side === 'north' ? 'North' : String(side);
}

/** A side with its army, from a view. */
export function sideLabel(view, side) {
  const a = view?.armies?.[side === 'north' ? 1 : 0];
  return a ? `${sideName(side)} (${a.name})` : sideName(side);
}

export function unitName(view, id) {
  const u = view?.units?.[id];
  return u ? `${u.profile.name} #${id}` : `unit #${id}`;
}

export function cellText(c) {
  return c ? `(${c.col},${c.row})` : '';
}

/** The general with unit `id`, if any. */
export function generalWith(view, id) {
  for (const a of view?.armies || []) {
    if (a.general && a.general.with === id) return a.general;
  }
  return null;
}

/** "south won: the north army's morale fell to 0", or the draw's reason. */
export function outcomeText(view, o) {
  if (!o) return '';
  const w = o.winners;
  if (w) return `${w.seats.map((s) => sideLabel(view, s)).join(' and ')} won: ${w.reason}.`;
  if (o.draw) return `A draw: ${o.draw.reason}.`;
  return JSON.stringify(o);
}

/** What a button offering `a` says; `detail` is the engine's (the `actions` query). */
export function actionText(view, a, detail = null) {
  const u = (id) => unitName(view, id);
  switch (a.kind) {
    case 'move': {
      const who = a.units.length > 1 ? `Group of ${a.units.length}` : u(a.units[0]);
      const steps = a.steps.map((s) => (s === 'forward' ? '↑' : s === 'left' ? '↶' : '↷')).join(' ');
      if (!detail) return `${who}: ${a.steps.map(words).join(', ')}`;
      const lead = detail.units[0];
      const where = `${cellText(lead.to)} facing ${lead.facing}`;
      const charge = detail.charge ? ` — charges ${u(detail.charge.target)}` : '';
      return `${who}: ${steps} → ${where}${charge}${detail.second ? ' (second move: a leadership test)' : ''}`;
    }
    case 'combat': return detail?.target !== undefined ? `${u(a.unit)} attacks ${u(detail.target)}` : `${u(a.unit)}: combat activation`;
    case 'put_down': return `Mahouts put down ${u(a.unit)}`;
    case 'follow_up': return a.accept ? 'Follow up (a leadership test)' : 'Stay in place';
    case 'end_phase': return 'End the phase';
    default: return JSON.stringify(a);
  }
}

/** Flight, pursuit and rampage stand out in the log. */
function alarm(kind, text) {
  return h('span', {}, h('b', { class: `alarm alarm-${kind}`, 'data-testid': `alarm-${kind}` }, kind.toUpperCase()), ' ', text);
}

function changeText(view, id, c) {
  const u = unitName(view, id);
  const t = (x) => unitName(view, x);
  switch (c.kind) {
    case 'moved': return `${u} moves ${cellText(c.from)} → ${cellText(c.to)}.`;
    case 'turned': return `${u} faces ${c.facing}.`;
    case 'charged': return `${u} charges ${t(c.target)}!`;
    case 'fought': return `${u} attacks ${t(c.target)}.`;
    case 'hits': return `${u} takes ${c.hits} hit${c.hits === 1 ? '' : 's'}${c.cancelled ? ` (${c.cancelled} cancelled)` : ''}: strength ${c.strength}.`;
    case 'lost_round': return `${u} loses the round.`;
    case 'won_round': return `${u} wins the round.`;
    case 'drew_round': return `${u}: the round is drawn.`;
    case 'kept_at_one': return `${u} is kept at 1 strength point (both would flee).`;
    case 'stood': return `${u} stands its ground.`;
    case 'fell_back': return `${u} falls back to ${cellText(c.to)}.`;
    case 'faced_away': return `${u} turns to face ${c.facing}.`;
    case 'broke': return alarm('flight', `${u} breaks and flees towards its base edge!`);
    case 'fled': return alarm('flight', `${u} flees to ${cellText(c.to)}.`);
    case 'removed': return alarm(c.how === 'fled_off' ? 'flight' : 'lost', `${u} is out of the battle: ${words(c.how)}.`);
    case 'pursues': return alarm('pursuit', `${u} pursues ${t(c.target)}.`);
    case 'pursuit_ended': return alarm('pursuit', `${u} stops its pursuit.`);
    case 'followed_up': return `${u} follows up into ${cellText(c.to)}.`;
    case 'rampages': return alarm('rampage', `${u} rampages, heading ${c.facing}!`);
    case 'attrition': return `${u} loses a strength point as the army's morale falls.`;
    case 'blocked': return `${u} is blocked while retreating: a hit instead.`;
    default: return `${u}: ${words(c.kind)}.`;
  }
}

/** The log's sentence for an event. */
export function describeEvent(e, view) {
  switch (e.event) {
    case 'phase_started': return h('b', {}, `Turn ${e.turn}: ${sideLabel(view, e.side)}'s phase.`);
    case 'activation':
      if (e.die === null || e.die === undefined) return 'A general\'s unused activation (no die).';
      return e.die === 1 ? h('span', {}, 'Activation die: ', h('b', { class: 'alarm alarm-die' }, '1'), ' — the phase ends after this action.') : `Activation die: ${e.die}.`;
    case 'phase_ending': return h('i', {}, `The phase ends after this action: ${e.rule}.`);
    case 'roll': return 'Dice:';
    case 'unit': return changeText(view, e.unit, e.change);
    case 'general': return `General ${e.name} (${sideName(e.side)}): ${e.what}.`;
    case 'morale': return h('span', {}, `Army morale of ${sideLabel(view, e.side)}: ${e.from} → `, h('b', {}, String(e.to)), ` (${e.why}).`);
    case 'ended': return h('b', {}, `The battle is over: ${outcomeText(view, e.winners ? { winners: e.winners } : e.draw ? { draw: e.draw } : e)}`);
    default: return words(e.event || 'event');
  }
}

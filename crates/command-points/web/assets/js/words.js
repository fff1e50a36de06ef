// Words for the Command Points table: seats, units, actions, decisions and events. Nothing
// here decides a rule; it only says what the engine's actions and events are.

import { words } from '/assets/js/dom.js';

export const SYSTEM = 'command-points';

export const SEAT_COLOUR = { south: '#a8322a', north: '#2f5d9e' };

export function seatName(seat) {
  return seat === 'south' ? 'South' : seat === 'north' ? 'North' : String(seat);
}

/** A seat with its army, from a view. */
export function seatLabel(view, seat) {
  const p = view?.players?.find((x) => x.seat === seat);
  return p ? `${seatName(seat)} (${p.army})` : seatName(seat);
}

/** The viewer's seat in a view or message (`{seat: "south"}`), or null for a spectator. */
export function viewerSeat(viewer) {
  return viewer && typeof viewer === 'object' && 'seat' in viewer ? viewer.seat : null;
}

export function unitName(view, id) {
  const u = view?.units?.find((x) => x.id === id);
  return u ? `${u.profile.name} #${id}` : `unit #${id}`;
}

export function cellText(c) {
  return c ? `(${c.col},${c.row})` : '';
}

/** A step of a move: "forward", {"oblique":"left"}... */
export function stepText(step) {
  if (typeof step === 'string') return step === 'about_face' ? 'about face (180°)' : words(step);
  const [k, side] = Object.entries(step)[0];
  const name = { oblique: 'oblique advance', turn: 'turn 90°', drift: 'drift' }[k] || words(k);
  return `${name} ${side}`;
}

export function pointsText(p) {
  return `A ${p.attack} · M ${p.movement} · D ${p.defence} · S ${p.strategy}`;
}

/** What a button offering `a` says. */
export function actionText(view, a) {
  const u = (id) => unitName(view, id);
  switch (a.action) {
    case 'deploy': return `Deploy ${u(a.unit)} on ${cellText(a.cell)}`;
    case 'move':
      if (a.line) return `Advance as a line (1 Movement Point)`;
      if (a.partner !== null && a.partner !== undefined) return `Move with ${u(a.partner)} behind`;
      return 'Movement activation';
    case 'charge':
      return a.partner !== null && a.partner !== undefined ? `Charge with ${u(a.partner)} behind` : 'Charge activation';
    case 'combat': return 'Combat activation (the enemy in front)';
    case 'shoot': return `Shoot at ${u(a.target)}`;
    case 'reform': return 'Reform (Reform Test)';
    case 'return': return 'Return from pursuit';
    case 'call_homunculus': return 'Homunculus Est!';
    case 'end_phase': return 'End the phase';
    case 'step': return stepText(a.step);
    case 'end_move': return 'Stop here';
    case 'reroll': return 'Re-roll (spend a point)';
    case 'accept': return 'Accept the roll';
    case 'charge_bonus': return `Add ${a.points} Attack Point${a.points > 1 ? 's' : ''} (+${a.points})`;
    case 'choose_die': return `Die ${a.index + 1}`;
    case 'defence_dice': return a.extra ? `Roll ${a.extra} extra Defence ${a.extra > 1 ? 'dice' : 'die'} (${a.extra} Defence Point${a.extra > 1 ? 's' : ''})` : 'No extra Defence die';
    case 'follow_up': return a.follow ? 'Follow up' : 'Try to remain stationary';
    case 'follow_up_oblique': return a.take ? 'Advance obliquely (1 point)' : 'Straight on';
    case 'cancel_homunculus': return a.cancel ? 'Cancel it (a Strategy or Generalship Point, once a battle)' : 'Let it stand';
    case 'discard': return a.card === null || a.card === undefined ? 'Keep every card' : `Discard card ${a.card}`;
    case 'exchange': return `${a.give.join(' + ')} → ${a.take}`;
    case 'reallocate': return `Re-allocate: ${pointsText(a.points)}`;
    default: return words(a.action);
  }
}

/** What the pending decision asks, in words. */
export function pendingText(view, p) {
  const who = seatLabel(view, p.seat);
  const u = (id) => unitName(view, id);
  switch (p.decision) {
    case 'movement_roll': return `${who}: movement roll ${p.natural} (modified ${p.modified}${p.bonus ? `, +${p.bonus} Attack` : ''}) for ${u(p.unit)}${p.charge ? ' (charge)' : ''}: accept or re-roll`;
    case 'manoeuvre': return `${who}: ${u(p.unit)} failed its Manoeuvre Test (${stepText(p.step)}): accept or re-roll`;
    case 'combat_dice': return `${who}: combat dice ${p.fight.faces.join(', ')}: accept or re-roll all (an Attack Point)`;
    case 'choose_die': return `${who}: choose the result die among ${p.fight.faces.join(', ')}`;
    case 'defence_dice': return `${who}: the result die is ${p.fight.chosen}; roll extra Defence dice?`;
    case 'discipline_reroll': return `${who}: ${u(p.unit)} failed its Discipline Test (${words(p.test)}): accept or re-roll (a Defence Point)`;
    case 'follow_up': return `${who}: ${u(p.unit)} beat ${u(p.beaten)}: follow up?`;
    case 'follow_up_oblique': return `${who}: ${u(p.unit)} may advance obliquely ${p.side}`;
    case 'homunculus_cancel': return `${who}: ${seatLabel(view, p.caller)} called Homunculus Est!: cancel it?`;
    case 'homunculus_discard': return `${who}: discard one revealed card?`;
    default: return `${who}: ${words(p.decision)}`;
  }
}

/** The log's sentence for an event. */
export function describeEvent(e, view) {
  const u = (id) => unitName(view, id);
  const s = (seat) => seatLabel(view, seat);
  switch (e.event) {
    case 'roll': return `Roll: ${e.record.purpose}`;
    case 'unit_deployed': return `${u(e.unit)} deployed on ${cellText(e.cell)} facing ${e.facing}`;
    case 'battle_started': return `The battle begins; ${s(e.first)} plays first`;
    case 'phase_started': return `Turn ${e.turn}: ${s(e.seat)}'s phase`;
    case 'phase_ended': return `${s(e.seat)}'s phase ends${e.reversal ? ' (Reversal of Fortune)' : ''}`;
    case 'activated': return `${u(e.unit)}: ${words(e.order)} activation`;
    case 'movement_points': return e.failed ? `${u(e.unit)}: the activation fails` : `${u(e.unit)}: ${e.points} Movement Point${e.points === 1 ? '' : 's'}`;
    case 'stepped': return `${u(e.unit)}: ${stepText(e.step)} ${cellText(e.from)} → ${cellText(e.to)}, facing ${e.facing}`;
    case 'moved_along': return `${u(e.unit)} moves along ${cellText(e.from)} → ${cellText(e.to)}`;
    case 'manoeuvre_test': return `${u(e.unit)}: Manoeuvre Test ${e.passed ? 'passed' : 'failed'}`;
    case 'reversal_of_fortune': return `Reversal of Fortune for ${s(e.seat)}: ${words(e.trigger)}${e.ends_phase ? ' — the phase ends' : ''}`;
    case 'points_spent': return `${s(e.seat)} spends a ${e.generalship ? 'Generalship Point as ' : ''}${e.kind} point to ${e.why}`;
    case 'points_exchanged': return `${s(e.seat)} exchanges ${e.give.join(', ')} for ${e.take}`;
    case 'points_reallocated': return `${s(e.seat)} re-allocates: ${pointsText(e.points)}`;
    case 'command_point_lost': return `${s(e.seat)} loses a ${e.kind} Command Point`;
    case 'ratings': return `${u(e.attacker)} ${e.attack.base}→${total(e.attack)} against ${u(e.defender)} ${e.defence.base}→${total(e.defence)}: ${e.dice} ${e.dice === 1 ? 'die' : 'dice'}${e.chooser ? `, ${s(e.chooser)} chooses` : ''}`;
    case 'die_chosen': return `${s(e.seat)} chooses the ${e.face}`;
    case 'defence_rolled': return `Defence dice ${e.faces.join(', ') || 'none'}: ${e.matched ? 'a match — no effect' : 'no match'}`;
    case 'combat_outcome': return `${u(e.attacker)} against ${u(e.defender)}: ${words(e.result)}${e.cancelled ? ' (cancelled)' : ''}`;
    case 'shooting_outcome': return `${u(e.shooter)} shoots ${u(e.target)}: ${words(e.result)}${e.cancelled ? ' (cancelled)' : ''}`;
    case 'line_removed': return `${u(e.unit)} loses its ${words(e.line)} line`;
    case 'pushed_back': return `${u(e.unit)} pushed back ${e.squares} ${cellText(e.from)} → ${cellText(e.to)}`;
    case 'displaced': return `${u(e.unit)} makes room ${cellText(e.from)} → ${cellText(e.to)}`;
    case 'halted': return `${u(e.unit)} halts: ${e.why}`;
    case 'disordered': return `${u(e.unit)} is Disordered`;
    case 'retiring': return `${u(e.unit)} is Retiring`;
    case 'reformed': return `${u(e.unit)} reforms`;
    case 'routed': return `${u(e.unit)} routs`;
    case 'removed': return `${u(e.unit)} leaves the battle (${words(e.why)})`;
    case 'stood_fast': return `${u(e.unit)} stands fast`;
    case 'followed_up': return `${u(e.unit)} follows up ${cellText(e.from)} → ${cellText(e.to)}`;
    case 'pursued_off_table': return `${u(e.unit)} pursues off the table`;
    case 'returned': return `${u(e.unit)} returns on ${cellText(e.cell)}`;
    case 'stayed_off': return `${u(e.unit)} stays off the table`;
    case 'discipline_passed': return `${u(e.unit)} passes its Discipline Test`;
    case 'discipline_failed': return `${u(e.unit)} fails its Discipline Test by ${e.margin}${e.critical ? ' (critical)' : ''}`;
    case 'general_injured': return `${s(e.seat)}'s General: ${words(e.fate)}`;
    case 'general_moved': return `${s(e.seat)}'s General ${e.to === null || e.to === undefined ? 'leaves the field' : `joins ${u(e.to)}`}`;
    case 'eagle_lost': return `${u(e.unit)} loses its Eagle`;
    case 'centurion_casualties': return `${u(e.unit)}: Centurion casualties`;
    case 'card_collected': return `${s(e.seat)} collects a ${e.kind} card${e.value !== null && e.value !== undefined ? ` worth ${e.value}` : ' (face down)'}: ${e.why}`;
    case 'card_removed': return `${s(e.seat)} removes a Setback card${e.value !== null && e.value !== undefined ? ` worth ${e.value}` : ''}`;
    case 'homunculus_called': return `${s(e.by)} calls Homunculus Est!`;
    case 'homunculus_cancelled': return `${s(e.by)} cancels Homunculus Est!`;
    case 'cards_revealed': return `${s(e.seat)} reveals ${e.cards.map((c) => `${c[1]} ${c[2]}`).join(', ') || 'no card'}: ${e.total} against a break point of ${e.break_point}`;
    case 'card_discarded': return `${s(e.seat)} discards card ${e.card} (${e.value})`;
    case 'army_fatigued': return `${s(e.seat)}'s army is Fatigued`;
    case 'camp_captured': return `${s(e.seat)}'s camp is captured`;
    case 'deck_reshuffled': return `The ${e.kind} deck is reshuffled`;
    case 'game_over': return `Game over: ${outcomeText(view, e.outcome)}`;
    default: return words(e.event);
  }
}

export function total(v) {
  const raw = v.base + v.modifiers.reduce((a, m) => a + m.delta, 0);
  return v.floor !== null && v.floor !== undefined && raw < v.floor ? v.floor : raw;
}

export function outcomeText(view, o) {
  if (!o) return '';
  if (o.winners) return `${o.winners.seats.map((x) => seatLabel(view, x)).join(' and ')} won — ${o.winners.reason}`;
  if (o.draw) return `a draw — ${o.draw.reason}`;
  return JSON.stringify(o);
}

/** Events shown dimmed in the log. */
export const QUIET = new Set(['points_spent', 'moved_along', 'activated']);

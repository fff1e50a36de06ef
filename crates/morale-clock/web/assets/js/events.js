// What each event of the engine says, as a sentence for the log (the rolls inside an event are
// shown by the shell's dice log with every modifier).

import { sideName } from './api.js';

const n = (x) => Math.round(x * 100) / 100;

/** A name for unit `id` of `battle`. */
export function unitName(battle, id) {
  const u = battle?.units?.[id];
  return u ? `${u.profile.name} (${sideName(u.side)})` : `unit ${id}`;
}

function command(by, battle) {
  if (!by) return '';
  if (by.kind === 'clock') return 'a Morale Clock order';
  if (by.kind === 'leader') return `the free order of ${unitName(battle, by.leader)}`;
  return 'its own move';
}

function fate(f) {
  if (f.kind === 'unharmed') return 'unharmed';
  if (f.kind === 'dmz') return `${f.total} DMZ`;
  return 'destroyed';
}

export const QUIET = new Set(['half_turn', 'losses']);

/** The sentence for `e`, naming units as `battle` (a view's battle) has them. */
export function describeEvent(e, battle) {
  const u = (id) => unitName(battle, id);
  switch (e.event) {
    case 'half_turn': return `Turn ${e.turn}: ${sideName(e.side)}'s half-turn begins.`;
    case 'rally': return `${u(e.unit)} tests to rally: ${e.passed ? 'passed' : 'failed'}; ${e.dmz} DMZ now.`;
    case 'volley': {
      const s = e.shot;
      return `${e.firers.map(u).join(', ')} shoot${e.firers.length > 1 ? '' : 's'} at ${u(e.target)}: die ${s.die}, modified ${s.modified}, ${e.firers.length} unit${e.firers.length > 1 ? 's' : ''} firing → ${s.result === 'no_effect' ? 'no effect' : s.result === 'dmz' ? 'a DMZ marker' : 'killed'}.`;
    }
    case 'moved': {
      const used = e.units.map((id, i) => `${u(id)} ${n(e.cost[i])}" of ${n(e.allowance[i])}"`).join('; ');
      const wheels = e.wheels.length ? `; wheels: outside unit ${e.wheels.map((x) => `${n(x)}"`).join(', ')}` : '';
      return `Moved by ${command(e.by, battle)}: ${used}${wheels}.`;
    }
    case 'fearsome_test': return `${u(e.unit)} tests to charge fearsome ${u(e.target)}: ${e.passed ? 'passed' : 'failed'}.`;
    case 'charge_halted': return `The order halts: ${e.units.map(u).join(', ')} stay where they were.`;
    case 'charged': return `${u(e.attacker)} charges ${u(e.target)} on its ${e.edge.toLowerCase()} edge.`;
    case 'defender_turned': return `${u(e.unit)} turns to face its attacker.`;
    case 'conformed': return `${u(e.unit)} conforms to full base contact.`;
    case 'disengaged': return `${u(e.unit)} disengages.`;
    case 'faced': return `${u(e.unit)} changes face (${e.turn}).`;
    case 'dressed': return `${u(e.unit)} dresses ranks.`;
    case 'leader_joined': return `${u(e.leader)} joins ${u(e.unit)}.`;
    case 'stratagem': return `${sideName(e.side)} uses the stratagem ${e.id} (${e.orders} order${e.orders === 1 ? '' : 's'}).`;
    case 'melee': {
      const m = e.melee;
      const d = m.decision;
      const result = d.kind === 'tie' ? 'a tie'
        : `${u(d.winner === 0 ? e.a : e.b)} wins${d.loss?.kind === 'doubled' ? ' with double the score' : ''}`;
      return `Melee: ${u(e.a)} ${m.dice[0]} + ${m.scores[0].base + m.scores[0].modifiers.reduce((a, x) => a + x.delta, 0)} = ${m.totals[0]} against ${u(e.b)} ${m.dice[1]} + ${m.scores[1].base + m.scores[1].modifiers.reduce((a, x) => a + x.delta, 0)} = ${m.totals[1]}: ${result} (${fate(m.fates[0])} / ${fate(m.fates[1])}).`;
    }
    case 'dmz': return `${u(e.unit)} gains ${e.gained} DMZ marker${e.gained > 1 ? 's' : ''} (${e.total} now).`;
    case 'destroyed': return `${u(e.unit)} is destroyed.`;
    case 'retreated': return `${u(e.unit)} retreats a base depth.`;
    case 'retreat_blocked': return `${u(e.unit)} cannot retreat.`;
    case 'leader_fate': {
      const o = e.outcome;
      return `${u(e.leader)}: ${o.kind === 'escaped' ? `escapes to ${u(o.to)}` : o.kind}.`;
    }
    case 'clock_down': return `${sideName(e.side)}'s Morale Clock goes down to ${e.clock}: ${e.reason}.`;
    case 'losses': return `Losses this half-turn: side A ${e.losses[0]}, side B ${e.losses[1]}${e.loser ? `; ${sideName(e.loser)} loses the half-turn` : '; nobody loses the half-turn'}.`;
    case 'battle_over': return `${outcomeText(e.outcome)}.`;
    default: return e.event || 'event';
  }
}

/** "side A wins: ..." or "drawn: ..." for an `Outcome` (`{winners: {seats, reason}}` or `{draw: {reason}}`). */
export function outcomeText(o) {
  if (!o) return '';
  if (o.draw) return `The battle is drawn: ${o.draw.reason}`;
  const w = o.winners || {};
  return `${(w.seats || []).map(sideName).join(', ')} win${(w.seats || []).length > 1 ? '' : 's'}: ${w.reason}`;
}

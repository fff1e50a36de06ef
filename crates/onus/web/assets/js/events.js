// What each ONUS! event says in the log and the replay, in one line.

import { num, words } from '/assets/js/dom.js';
import { phaseName } from './cards.js';

/** Events shown dimmed in the log (many, and told again by the table). */
export const QUIET = new Set(['unit_deployed']);

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
    case 'structure_events_resolved': return `Events of ${u(e.attacker)} against ${e.structure}: ${(e.log || []).map((l) => `${l.title || words(l.event)} — ${words(l.status?.status)}${l.status?.reason ? ` (${l.status.reason})` : ''}`).join('; ') || 'none'}${e.cancelled ? '; the attack is cancelled' : ''}.`;
    case 'fight_resolved': {
      const r = e.result;
      const hidden = e.undisclosed || [];
      const side = (x, id, name) => (hidden.includes(name) ? `${u(id)} face down, not told (XII-A)`
        : `${u(id)} ${x.wounds_taken} wound${x.wounds_taken === 1 ? '' : 's'}, ${words(x.final_state)}`);
      return `Result (${words(r.kind)}): ${side(r.attacker, e.attacker, 'attacker')}; ${side(r.defender, e.defender, 'defender')}.`;
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
    case 'structure_attacked': {
      const r = e.result || {};
      const what = [`${r.dice} dice`, `${r.damage} damage${r.fire ? ' (fire)' : ''}`];
      if (r.misfires) what.push(`${r.misfires} misfire${r.misfires === 1 ? '' : 's'}`);
      if (r.change?.gate_fell) what.push('the gate falls');
      if (r.change?.collapsed) what.push('it collapses');
      return `${u(e.attacker)} attacks ${e.structure} (${words(r.kind)}): ${what.join(', ')}.`;
    }
    case 'structure_casualties': return `${u(e.unit)} in ${e.structure}: ${e.destroyed ? 'destroyed' : `${e.wounds} wound${e.wounds === 1 ? '' : 's'}`} (${e.rule}).`;
    case 'misfire': return `Misfire of ${u(e.shooter)}: ${e.victim != null ? `${u(e.victim)} takes ${e.wounds} wound${e.wounds === 1 ? '' : 's'}` : 'no friend near'}.`;
    case 'fire_damage': return `Fire on ${e.structure}: ${e.damage} damage${e.gate_fell ? ', the gate falls' : ''}${e.collapsed ? ', it collapses' : ''}.`;
    case 'fire_spread': return e.to?.length
      ? `Fire spreads from ${e.from} to ${e.to.map(([id, n]) => `${id} (${n})`).join(', ')}${e.lost ? `; ${e.lost} marker${e.lost === 1 ? '' : 's'} lost` : ''}.`
      : `The fire of ${e.from} has nothing to spread to${e.lost ? `: ${e.lost} marker${e.lost === 1 ? '' : 's'} lost` : ''}.`;
    case 'fire_extinguished': return `${u(e.unit)} puts out ${(e.removed || []).map(([id, n]) => `${n} fire on ${id}`).join(', ') || 'no fire'}.`;
    case 'caltrops_rolled': return `Caltrops (${(e.structures || []).join(', ')}): ${e.dice} dice against ${u(e.unit)}, ${e.wounds} wound${e.wounds === 1 ? '' : 's'}.`;
    case 'structure_removed': return `${u(e.unit)} removes ${words(e.kind)} ${e.structure}.`;
    case 'returned_to_bank': return `The bridge ${e.bridge} is down: ${u(e.unit)} goes back to the bank (T&F III Bridges).`;
    // T&F IV–V: siege engines, climbs and the tops of walls and towers.
    case 'zone_chosen': return `${seat(e.seat)} chooses deployment zone ${e.choice + 1} (x ${num(e.zone.x0)}–${num(e.zone.x1)}, y ${num(e.zone.y0)}–${num(e.zone.y1)}; T&F VI Deployment).`;
    case 'siege_engine_placed': return `${seat(e.seat)} places the siege engine ${e.structure} (T&F VI Deployment).`;
    case 'ram_taken': return `${u(e.unit)} takes up the ram ${e.ram}.`;
    case 'ram_dropped': return `${u(e.unit)} drops the ram ${e.ram} (${e.why}).`;
    case 'siege_tower_moved': return `${u(e.unit)} pushes the siege tower ${e.structure} (${num(e.cost)} DU).`;
    case 'siege_tower_met': return `${u(e.unit)}, in the siege tower ${e.structure}, engages ${u(e.enemy)}.`;
    case 'crossed_to_wall': return `${u(e.unit)} crosses from the siege tower ${e.structure} onto the wall ${e.wall}.`;
    case 'tower_enveloped': return `${u(e.unit)} envelops ${e.structure}: ${e.sections} Section marker${e.sections === 1 ? '' : 's'} round the tower.`;
    case 'climb_started': return `${u(e.unit)} starts climbing ${e.structure} (${e.height} level${e.height === 1 ? '' : 's'}): Climbing marker placed.`;
    case 'climbed': return `${u(e.unit)} climbs ${e.structure}: ${e.climbed} of ${e.height} level${e.height === 1 ? '' : 's'}${e.climbed >= e.height ? ' — Climbed' : ''}.`;
    case 'climbed_down': return `${u(e.unit)} climbs down ${e.structure}.`;
    case 'took_top': return `${u(e.unit)} takes the top of ${e.structure}${e.tower ? ' (into the tower)' : ''}.`;
    case 'met_at_top': return `${u(e.unit)}, at the top, engages ${u(e.enemy)}.`;
    case 'below_engaged': return `${u(e.top)} gone from the top, ${u(e.unit)} engages ${u(e.enemy)} below it.`;
    case 'climb_ended': return `${u(e.unit)} stops climbing ${e.structure} (${e.reason}).`;
    default: return `${words(e.event)}: ${JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'event'))).slice(0, 160)}`;
  }
}

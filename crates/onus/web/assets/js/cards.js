// Names and words for the things of a view: units, seats, cards of the deck, phases.

import { words } from '/assets/js/dom.js';

export const PHASES = [
  ['activation', 'Activation', 'VII-1'],
  ['movement', 'Movement', 'VII-2'],
  ['ranged_attack', 'Ranged attack', 'VII-3'],
  ['skirmishers', 'Skirmishers', 'VII-4'],
  ['melee', 'Melee', 'VII-5'],
  ['flight', 'Flight', 'VII-6'],
  ['end_of_turn', 'End of turn', 'VII-7'],
];

export function phaseName(phase) {
  if (phase === 'deployment') return 'Deployment';
  if (phase === 'game_over') return 'Game over';
  return PHASES.find((p) => p[0] === phase)?.[1] || words(phase);
}

export const SEAT_COLOURS = ['#b8322a', '#2a5c9a', '#2f7d3a', '#a8741a', '#6b3fa0', '#1f7f86'];

export function seatColour(seat) {
  return SEAT_COLOURS[Number(seat) % SEAT_COLOURS.length];
}

/** Looks things up in the catalog and the current view. */
export class Names {
  constructor(catalog, view) {
    this.catalog = catalog;
    this.view = view;
    this.units = new Map();
    for (const u of view?.units || []) this.units.set(u.id, u);
    this.eliminated = new Map();
    for (const p of view?.players || []) for (const [id, card] of p.eliminated || []) this.eliminated.set(id, card);
  }

  seat(seat) {
    const p = this.view?.players?.find((x) => x.seat === Number(seat));
    if (!p) return `Seat ${seat}`;
    return `Seat ${seat} · ${p.army_name}`;
  }

  shortSeat(seat) {
    const p = this.view?.players?.find((x) => x.seat === Number(seat));
    const f = p ? this.faction(p.faction) : '';
    return f ? `${f} (seat ${seat})` : `Seat ${seat}`;
  }

  faction(id) {
    return this.catalog?.factions?.find((f) => f.id === id)?.name || words(id);
  }

  /** "Legionaries #3", or "face-down unit #3". */
  unit(id) {
    const u = this.units.get(id);
    const card = u?.card || this.eliminated.get(id);
    if (card) return `${card.name} #${id}`;
    return `unit #${id}`;
  }

  card(id) {
    return this.catalog?.deck?.cards?.find((c) => c.id === id) || null;
  }

  orderTitle(id) {
    const c = this.card(id);
    return c ? c.order.title : `card ${id}`;
  }

  eventTitle(id) {
    const c = this.card(id);
    return c ? c.event.title : `card ${id}`;
  }

  general(seat) {
    const p = this.view?.players?.find((x) => x.seat === Number(seat));
    return p?.generals?.[0]?.card?.name || 'General';
  }
}

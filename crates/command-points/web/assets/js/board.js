// The Command Points table on the platform's square grid (/assets/js/grid.js): its terrain,
// linear obstacles, camps, and each unit with its markers (Disordered, Retiring, General,
// Skirmish and Reserve Lines, lost Eagle) and its army's colour. Highlights are squares and
// units the page marks (what the engine offers); clicks are passed on. North's player sees
// the table turned round.

import { s } from '/assets/js/dom.js';
import { Grid, CELL } from '/assets/js/grid.js';
import { SEAT_COLOUR } from './words.js';

const TERRAIN = { open: '#e9e3c4', rough: '#9fb27d', hill: '#d5bd86', impassable: '#6f7f8f' };
const GLYPHS = { rough: 'trees', hill: 'hill' };

function terrainAt(scenario, cell) {
  let t = 'open';
  for (const p of scenario.terrain || []) {
    if (p.cells.some((c) => c.col === cell.col && c.row === cell.row)) t = p.terrain;
  }
  return t;
}

export class Board {
  constructor(container, { onCell = () => {}, onUnit = () => {}, onKey = null } = {}) {
    this.grid = new Grid(container, { className: 'cp-board', onCell, onUnit, onKey });
    this.svg = this.grid.svg;
  }

  /**
   * Draws `view`: `flipped` turns the table for North; `cells` (Map "col,row" -> class) and
   * `units` (Map id -> class) are highlights; `selected` a unit id.
   */
  render(view, { flipped = false, cells = new Map(), units = new Map(), selected = null } = {}) {
    const grid = this.grid;
    const g = grid.begin(view.scenario.board, {
      flipped, terrainAt: (c) => terrainAt(view.scenario, c), fill: TERRAIN, glyphs: GLYPHS, cells,
    });
    for (const e of view.scenario.obstacles || []) {
      const [x, y] = grid.at(e.cell);
      let line;
      // The edge on the cell's north or east side, as the viewer sees it.
      const north = e.side === 'north';
      if (north) line = flipped ? [x, y + CELL, x + CELL, y + CELL] : [x, y, x + CELL, y];
      else line = flipped ? [x, y, x, y + CELL] : [x + CELL, y, x + CELL, y + CELL];
      g.append(s('line', { x1: line[0], y1: line[1], x2: line[2], y2: line[3], class: 'obstacle' }, s('title', {}, 'linear obstacle')));
    }
    (view.scenario.camps || []).forEach((c, i) => {
      if (!c) return;
      const [x, y] = grid.at(c);
      g.append(s('g', { class: 'camp', 'pointer-events': 'none' },
        s('path', { d: `M${x + 4} ${y + 16} L${x + 11} ${y + 4} L${x + 18} ${y + 16} Z` }),
        s('text', { x: x + 21, y: y + 15 }, `camp ${i === 0 ? 'S' : 'N'}`)));
    });
    for (const u of view.units) {
      if (u.place.kind !== 'table') continue;
      g.append(this.unit(view, u, units.get(u.id), selected === u.id));
    }
  }

  unit(view, u, hl, selected) {
    const general = view.players.find((p) => p.seat === u.owner)?.general;
    const hasGeneral = general && general.status === 'commanding' && general.unit === u.id;
    const marks = [];
    if (u.disordered) marks.push(['D', 'Disordered']);
    if (u.retiring) marks.push(['R', 'Retiring']);
    if (view.players.find((p) => p.seat === u.owner)?.fatigued) marks.push(['F', 'Fatigued']);
    if (hasGeneral) marks.push(['★', `General ${general.name}`]);
    for (const l of u.lines || []) marks.push([l === 'reserve' ? 'r' : 's', l.replace(/_/g, ' ')]);
    if (u.eagle_lost) marks.push(['E', 'Eagle lost']);
    return this.grid.unit({
      id: u.id, cell: u.place.cell, facing: u.facing, colour: SEAT_COLOUR[u.owner] || '#555',
      label: u.profile.name.split(/\s+/)[0].slice(0, 6),
      sub: `#${u.id} ${u.profile.combat}${u.profile.ranged ? `/${u.profile.ranged}` : ''}`,
      marks,
      classes: [hl, selected && 'selected', u.disordered && 'disordered', u.activated && 'activated'],
      attrs: { 'data-owner': u.owner, 'data-disordered': String(u.disordered), 'data-retiring': String(u.retiring) },
      title: `${u.profile.name} #${u.id} (${u.owner}), facing ${u.facing}; Combat ${u.profile.combat}, Ranged ${u.profile.ranged}, Manoeuvre ${u.profile.manoeuvre}, Discipline ${u.profile.discipline + (u.discipline_increase || 0)}${marks.length ? `; ${marks.map((m) => m[1]).join(', ')}` : ''}`,
    });
  }
}

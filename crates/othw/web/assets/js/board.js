// The O/THW table on the platform's square grid (/assets/js/grid.js): woods, fords and hills,
// and each unit on the table with its facing, strength and leadership, its markers (general,
// fleeing, pursuing, rampaging, skirmisher) and its side's colour. Highlights are the squares
// and units the page marks from the engine's answers; clicks are passed on.

import { Grid } from '/assets/js/grid.js';
import { SIDE_COLOUR, generalWith, sideName } from './words.js';

const TERRAIN = { open: '#e9e3c4', woods: '#9fb27d', ford: '#a9c7dc', hill: '#d5bd86' };
const GLYPHS = { woods: 'trees', ford: 'water', hill: 'hill' };

/** A name short enough for a square: "Hannibal's veterans" -> "Veteran.", "Hastati". */
function shortName(name) {
  const w = name.split(/\s+/);
  const word = w[0].endsWith("'s") && w[1] ? w[1] : w[0];
  const cap = word[0].toUpperCase() + word.slice(1);
  return cap.length > 7 ? `${cap.slice(0, 6)}.` : cap;
}

export class Board {
  constructor(container, { onCell = () => {}, onUnit = () => {}, onKey = null } = {}) {
    this.grid = new Grid(container, { className: 'othw-board', onCell, onUnit, onKey });
  }

  /**
   * Draws `view`: `flipped` turns the table for North; `cells` (Map "col,row" -> class) and
   * `units` (Map id -> class) are highlights; `selected` the ids of the units selected;
   * `ghosts` [{from, to, facing}] planned moves.
   */
  render(view, { flipped = false, cells = new Map(), units = new Map(), selected = [], ghosts = [] } = {}) {
    const terrain = view.scenario.terrain || {};
    const g = this.grid.begin(view.scenario.board, {
      flipped, terrainAt: (c) => terrain[`${c.col},${c.row}`] || 'open', fill: TERRAIN, glyphs: GLYPHS, cells,
    });
    for (const u of view.units) {
      if (u.status.status === 'removed') continue;
      g.append(this.unit(view, u, units.get(u.id), selected.includes(u.id)));
    }
    for (const m of ghosts) g.append(this.grid.ghost(m.from, m.to, m.facing));
  }

  unit(view, u, hl, selected) {
    const p = u.profile;
    const st = u.status.status;
    const general = generalWith(view, u.id);
    const marks = [];
    if (general) marks.push(['★', `General ${general.general.name}${general.absence !== 'present' ? ` (absent: ${general.absence.replace(/_/g, ' ')})` : ''}`]);
    if (st === 'fleeing') marks.push(['F', 'Fleeing']);
    if (st === 'rampaging') marks.push(['R', 'Rampaging']);
    if (u.pursuing !== null) marks.push(['P', `Pursuing #${u.pursuing}`]);
    if (p.traits.includes('skirmisher')) marks.push(['s', 'Skirmisher']);
    return this.grid.unit({
      id: u.id, cell: u.at, facing: u.facing, colour: SIDE_COLOUR[u.side] || '#555',
      label: shortName(p.name),
      sub: `#${u.id} S${u.strength}/${p.strength} L${p.leadership}`,
      marks,
      classes: [hl, selected && 'selected', st, u.activated && 'activated'],
      attrs: { 'data-side': u.side, 'data-status': st, 'data-strength': u.strength },
      title: `${p.name} #${u.id} (${sideName(u.side)}), facing ${u.facing}; moves ${p.moves}, attacks ${p.attacks}, defence ${p.defence}, strength ${u.strength}/${p.strength}, leadership ${p.leadership}${p.traits.length ? `; ${p.traits.map((t) => t.replace(/_/g, ' ')).join(', ')}` : ''}${marks.length ? `; ${marks.map((m) => m[1]).join(', ')}` : ''}`,
    });
  }
}

// The square grid as SVG: terrain, linear obstacles, camps, and each unit on its square with
// its facing, markers (Disordered, Retiring, General, Skirmish and Reserve Lines, lost Eagle)
// and its army's colour. Highlights are squares and units the page marks (what the engine
// offers); clicks are passed on. North's player sees the table turned round.

import { s, clear } from '/assets/js/dom.js';
import { SEAT_COLOUR } from './words.js';

const CELL = 56;
const TERRAIN = { open: '#e9e3c4', rough: '#9fb27d', hill: '#d5bd86', impassable: '#6f7f8f' };
const ARROW = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

function terrainAt(scenario, cell) {
  let t = 'open';
  for (const p of scenario.terrain || []) {
    if (p.cells.some((c) => c.col === cell.col && c.row === cell.row)) t = p.terrain;
  }
  return t;
}

export class Board {
  constructor(container, { onCell = () => {}, onUnit = () => {}, onKey = null } = {}) {
    this.container = container;
    this.onCell = onCell;
    this.onUnit = onUnit;
    this.svg = s('svg', { class: 'cp-board', 'data-testid': 'board', role: 'img', 'aria-label': 'The battlefield', tabindex: '0' });
    if (onKey) this.svg.addEventListener('keydown', (ev) => { if (onKey(ev)) ev.preventDefault(); });
    container.append(this.svg);
  }

  /** Screen position of a cell's top-left corner. */
  at(cell) {
    const { cols, rows } = this.board;
    const x = this.flipped ? cols - 1 - cell.col : cell.col;
    const y = this.flipped ? cell.row : rows - 1 - cell.row;
    return [x * CELL, y * CELL];
  }

  /**
   * Draws `view`: `flipped` turns the table for North; `cells` (Map "col,row" -> class) and
   * `units` (Map id -> class) are highlights; `selected` a unit id.
   */
  render(view, { flipped = false, cells = new Map(), units = new Map(), selected = null } = {}) {
    this.board = view.scenario.board;
    this.flipped = flipped;
    const { cols, rows } = this.board;
    const svg = this.svg;
    clear(svg);
    svg.setAttribute('viewBox', `-18 -18 ${cols * CELL + 36} ${rows * CELL + 36}`);
    const g = s('g', {});
    for (let col = 0; col < cols; col += 1) {
      for (let row = 0; row < rows; row += 1) {
        const cell = { col, row };
        const [x, y] = this.at(cell);
        const t = terrainAt(view.scenario, cell);
        const hl = cells.get(`${col},${row}`);
        const rect = s('rect', {
          x, y, width: CELL, height: CELL, fill: TERRAIN[t] || TERRAIN.open,
          class: ['sq', `t-${t}`, hl], 'data-cell': `${col},${row}`, 'data-testid': hl ? 'target-cell' : null,
        }, s('title', {}, `(${col},${row}) ${t}`));
        rect.addEventListener('click', () => this.onCell(cell));
        g.append(rect);
        if (t === 'rough') {
          for (const [dx, dy] of [[14, 16], [36, 22], [22, 40]]) g.append(s('circle', { cx: x + dx, cy: y + dy, r: 4, class: 'tree', 'pointer-events': 'none' }));
        }
        if (t === 'hill') g.append(s('path', { d: `M${x + 8} ${y + 44} Q${x + 28} ${y + 12} ${x + 48} ${y + 44}`, class: 'hill', 'pointer-events': 'none' }));
      }
    }
    // Coordinates along two edges.
    for (let col = 0; col < cols; col += 1) {
      const [x] = this.at({ col, row: 0 });
      g.append(s('text', { x: x + CELL / 2, y: rows * CELL + 13, class: 'coord' }, String(col)));
    }
    for (let row = 0; row < rows; row += 1) {
      const [, y] = this.at({ col: 0, row });
      g.append(s('text', { x: -9, y: y + CELL / 2 + 4, class: 'coord' }, String(row)));
    }
    for (const e of view.scenario.obstacles || []) {
      const [x, y] = this.at(e.cell);
      let line;
      // The edge on the cell's north or east side, as the viewer sees it.
      const north = e.side === 'north';
      if (north) line = this.flipped ? [x, y + CELL, x + CELL, y + CELL] : [x, y, x + CELL, y];
      else line = this.flipped ? [x, y, x, y + CELL] : [x + CELL, y, x + CELL, y + CELL];
      g.append(s('line', { x1: line[0], y1: line[1], x2: line[2], y2: line[3], class: 'obstacle' }, s('title', {}, 'linear obstacle')));
    }
    (view.scenario.camps || []).forEach((c, i) => {
      if (!c) return;
      const [x, y] = this.at(c);
      g.append(s('g', { class: 'camp', 'pointer-events': 'none' },
        s('path', { d: `M${x + 4} ${y + 16} L${x + 11} ${y + 4} L${x + 18} ${y + 16} Z` }),
        s('text', { x: x + 21, y: y + 15 }, `camp ${i === 0 ? 'S' : 'N'}`)));
    });
    for (const u of view.units) {
      if (u.place.kind !== 'table') continue;
      g.append(this.unit(view, u, units.get(u.id), selected === u.id));
    }
    svg.append(g);
  }

  unit(view, u, hl, selected) {
    const [x, y] = this.at(u.place.cell);
    const colour = SEAT_COLOUR[u.owner] || '#555';
    let [dx, dy] = ARROW[u.facing];
    if (this.flipped) [dx, dy] = [-dx, -dy];
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    const general = view.players.find((p) => p.seat === u.owner)?.general;
    const hasGeneral = general && general.status === 'commanding' && general.unit === u.id;
    const g = s('g', {
      class: ['unit', hl, selected && 'selected', u.disordered && 'disordered', u.activated && 'activated'],
      'data-unit': u.id, 'data-testid': `unit-${u.id}`, 'data-owner': u.owner, 'data-facing': u.facing,
      'data-disordered': String(u.disordered), 'data-retiring': String(u.retiring),
      transform: '',
    });
    g.append(s('rect', { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 4, fill: colour, class: 'body' }));
    // The front edge: a bar and a triangle on the side the unit faces.
    const fx = cx + dx * (CELL / 2 - 7);
    const fy = cy + dy * (CELL / 2 - 7);
    const px = -dy;
    const py = dx;
    g.append(s('line', { x1: fx + px * 20, y1: fy + py * 20, x2: fx - px * 20, y2: fy - py * 20, class: 'front' }));
    g.append(s('path', { d: `M${fx + dx * 6} ${fy + dy * 6} L${fx + px * 6} ${fy + py * 6} L${fx - px * 6} ${fy - py * 6} Z`, class: 'arrow' }));
    const short = u.profile.name.split(/\s+/)[0].slice(0, 6);
    g.append(s('text', { x: cx, y: cy - 1, class: 'label' }, short));
    g.append(s('text', { x: cx, y: cy + 11, class: 'sub' }, `#${u.id} ${u.profile.combat}${u.profile.ranged ? `/${u.profile.ranged}` : ''}`));
    const marks = [];
    if (u.disordered) marks.push(['D', 'Disordered']);
    if (u.retiring) marks.push(['R', 'Retiring']);
    if (view.players.find((p) => p.seat === u.owner)?.fatigued) marks.push(['F', 'Fatigued']);
    if (hasGeneral) marks.push(['★', `General ${general.name}`]);
    for (const l of u.lines || []) marks.push([l === 'reserve' ? 'r' : 's', l.replace(/_/g, ' ')]);
    if (u.eagle_lost) marks.push(['E', 'Eagle lost']);
    marks.forEach(([m, title], i) => {
      g.append(s('g', { class: ['mark', `m-${m}`] },
        s('rect', { x: x + 6 + i * 11, y: y + CELL - 17, width: 10, height: 11, rx: 2 }),
        s('text', { x: x + 11 + i * 11, y: y + CELL - 8 }, m),
        s('title', {}, title)));
    });
    g.append(s('title', {}, `${u.profile.name} #${u.id} (${u.owner}), facing ${u.facing}; Combat ${u.profile.combat}, Ranged ${u.profile.ranged}, Manoeuvre ${u.profile.manoeuvre}, Discipline ${u.profile.discipline + (u.discipline_increase || 0)}${marks.length ? `; ${marks.map((m) => m[1]).join(', ')}` : ''}`));
    g.addEventListener('click', (ev) => { ev.stopPropagation(); this.onUnit(u.id); });
    return g;
  }
}

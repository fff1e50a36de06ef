// The square grid as SVG, shared by the square-grid systems' tables (Command Points, O/THW):
// squares with their terrain and its glyph, coordinates along two edges, the squares and
// units the page highlights (what the engine offers), and units with their front edge,
// facing arrow, labels and markers; clicks are passed on. Row 0 is the south edge, at the
// bottom; `flipped` turns the table round for the player at the north edge. Its styles are
// `/assets/css/grid.css`.

import { s, clear } from './dom.js';

export const CELL = 56;
const ARROW = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

/** A square's glyph, drawn over its fill: trees, a hill's contour, or water's ripples. */
function glyph(kind, x, y) {
  const none = { 'pointer-events': 'none' };
  switch (kind) {
    case 'trees':
      return [[14, 16], [36, 22], [22, 40]].map(([dx, dy]) => s('circle', { cx: x + dx, cy: y + dy, r: 4, class: 'tree', ...none }));
    case 'hill':
      return [s('path', { d: `M${x + 8} ${y + 44} Q${x + 28} ${y + 12} ${x + 48} ${y + 44}`, class: 'hill', ...none })];
    case 'water':
      return [16, 30, 44].map((dy) => s('path', { d: `M${x + 8} ${y + dy} q7 -5 14 0 t14 0 t14 0`, class: 'water', ...none }));
    default:
      return [];
  }
}

export class Grid {
  /** `className` is the system's class for the SVG, besides `grid-board`. */
  constructor(container, { className = '', onCell = () => {}, onUnit = () => {}, onKey = null } = {}) {
    this.onCell = onCell;
    this.onUnit = onUnit;
    this.svg = s('svg', { class: ['grid-board', className], 'data-testid': 'board', role: 'img', 'aria-label': 'The battlefield', tabindex: '0' });
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
   * Starts a drawing of `board` ({cols, rows}): the squares, each with the terrain
   * `terrainAt(cell)` names, its `fill[terrain]` and `glyphs[terrain]`, and the highlight
   * class `cells.get("col,row")`; the coordinates. Returns the group to draw the rest into.
   */
  begin(board, { flipped = false, terrainAt = () => 'open', fill = {}, glyphs = {}, cells = new Map() } = {}) {
    this.board = board;
    this.flipped = flipped;
    const { cols, rows } = board;
    clear(this.svg);
    this.svg.setAttribute('viewBox', `-18 -18 ${cols * CELL + 36} ${rows * CELL + 36}`);
    const g = s('g', {});
    for (let col = 0; col < cols; col += 1) {
      for (let row = 0; row < rows; row += 1) {
        const cell = { col, row };
        const [x, y] = this.at(cell);
        const t = terrainAt(cell);
        const hl = cells.get(`${col},${row}`);
        const rect = s('rect', {
          x, y, width: CELL, height: CELL, fill: fill[t] || fill.open || '#e9e3c4',
          class: ['sq', `t-${t}`, hl], 'data-cell': `${col},${row}`, 'data-testid': hl ? 'target-cell' : null,
        }, s('title', {}, `(${col},${row}) ${t}`));
        rect.addEventListener('click', () => this.onCell(cell));
        g.append(rect, ...glyph(glyphs[t], x, y));
      }
    }
    for (let col = 0; col < cols; col += 1) {
      const [x] = this.at({ col, row: 0 });
      g.append(s('text', { x: x + CELL / 2, y: rows * CELL + 13, class: 'coord' }, String(col)));
    }
    for (let row = 0; row < rows; row += 1) {
      const [, y] = this.at({ col: 0, row });
      g.append(s('text', { x: -9, y: y + CELL / 2 + 4, class: 'coord' }, String(row)));
    }
    this.svg.append(g);
    return g;
  }

  /**
   * A unit on its square: `colour` body, the front edge and arrow on the side it faces,
   * `label` and `sub` lines, `marks` ([letter, title] badges along the bottom), the classes
   * `classes`, `attrs` (data attributes) and the tooltip `title`. A click calls `onUnit(id)`.
   */
  unit({ id, cell, facing, colour, label, sub = '', marks = [], classes = [], attrs = {}, title = '' }) {
    const [x, y] = this.at(cell);
    let [dx, dy] = ARROW[facing] || [0, 0];
    if (this.flipped) [dx, dy] = [-dx, -dy];
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    const g = s('g', { class: ['unit', ...classes], 'data-unit': id, 'data-testid': `unit-${id}`, 'data-facing': facing, ...attrs });
    g.append(s('rect', { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 4, fill: colour, class: 'body' }));
    const fx = cx + dx * (CELL / 2 - 7);
    const fy = cy + dy * (CELL / 2 - 7);
    const px = -dy;
    const py = dx;
    g.append(s('line', { x1: fx + px * 20, y1: fy + py * 20, x2: fx - px * 20, y2: fy - py * 20, class: 'front' }));
    g.append(s('path', { d: `M${fx + dx * 6} ${fy + dy * 6} L${fx + px * 6} ${fy + py * 6} L${fx - px * 6} ${fy - py * 6} Z`, class: 'arrow' }));
    g.append(s('text', { x: cx, y: cy - 1, class: 'label' }, label));
    g.append(s('text', { x: cx, y: cy + 11, class: 'sub' }, sub));
    marks.forEach(([m, why], i) => {
      g.append(s('g', { class: ['mark', `m-${m}`] },
        s('rect', { x: x + 6 + i * 11, y: y + CELL - 17, width: 10, height: 11, rx: 2 }),
        s('text', { x: x + 11 + i * 11, y: y + CELL - 8 }, m),
        s('title', {}, why)));
    });
    g.append(s('title', {}, title));
    g.addEventListener('click', (ev) => { ev.stopPropagation(); this.onUnit(id); });
    return g;
  }

  /** A ghost arrow from `from` to `to` (a planned move), with `facing` at its end. */
  ghost(from, to, facing, cls = 'ghost') {
    const [x1, y1] = this.at(from);
    const [x2, y2] = this.at(to);
    let [dx, dy] = ARROW[facing] || [0, 0];
    if (this.flipped) [dx, dy] = [-dx, -dy];
    const c = CELL / 2;
    const ex = x2 + c + dx * 16;
    const ey = y2 + c + dy * 16;
    return s('g', { class: cls, 'pointer-events': 'none' },
      s('line', { x1: x1 + c, y1: y1 + c, x2: x2 + c, y2: y2 + c }),
      s('path', { d: `M${ex + dx * 8} ${ey + dy * 8} L${ex - dy * 8} ${ey + dx * 8} L${ex + dy * 8} ${ey - dx * 8} Z` }));
  }
}

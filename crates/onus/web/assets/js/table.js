// The SVG table, drawn in DU (viewBox in DU, 1 DU = 5 cm): cards as oriented rectangles with
// their sections, markers and values, deployment zones, engagements, overlays (targets, lines
// of fire), the ghost of a move; pan (drag the background, arrow keys), zoom (wheel, +/-,
// pinch). It draws what it is given and reports pointer and key input to its owner.

import { s, clear, num } from '/assets/js/dom.js';
import { seatColour } from './cards.js';
import { corners, envelopingMarker, extendedMarker, sectionSegment, toWorld, vec } from './geom.js';

const FORMATION_ABBR = {
  wall_of_shields: 'WS', phalanx: 'PH', square: 'SQ', arrowhead: 'AH', diamond: 'DI', bravery: 'BR',
  testudo: 'TE', cantabrian_circle: 'CC', skirmish_line: 'SL',
};

/** Terrain kinds in legend order, and what each means in play (T&F II-III). */
const TERRAIN_KINDS = ['forest', 'hill', 'mountain', 'lake', 'river', 'ford', 'bridge', 'choke_point'];
const TERRAIN_LEGEND = {
  forest: 'forest: difficult, cover +1/+1, hides beyond 1 DU, 1 level',
  hill: 'hill (darker: top, 1 level): climbing up is limited movement',
  mountain: 'mountain: impassable, blocks sight',
  lake: 'lake: impassable',
  river: 'river: impassable',
  ford: 'ford: difficult, straight crossing only',
  bridge: 'bridge',
  choke_point: 'choke point',
};

/** The markers the engine says a structure carries (T&F V: Wound and Fire markers, a fallen
 *  gate, a collapse), as words, with whether it burns and has collapsed. */
function damageMarks(dmg) {
  const fire = (dmg?.fire?.burning || 0) + (dmg?.fire?.new || 0);
  const marks = [];
  if (dmg?.wounds) marks.push(`${dmg.wounds} wound${dmg.wounds === 1 ? '' : 's'}`);
  if (fire) marks.push(`${fire} fire`);
  if (dmg?.gate_destroyed) marks.push('gate destroyed');
  if (dmg?.collapsed) marks.push('collapsed');
  return { marks, fire, collapsed: Boolean(dmg?.collapsed) };
}

export class TableView {
  /**
   * `handlers`: onUnitClick(id, ev), onBackgroundClick(world), onGhostDrag(startWorld, nowWorld, phase),
   * onRotateDrag(nowWorld, phase), onKey(ev) -> true when handled, onFit() after each fit.
   * `options.autoTurn`: the table may be drawn a quarter turn round (the near edge on the
   * left) when that fits the window better (a deep table in a wide window).
   */
  constructor(container, handlers, options = {}) {
    this.container = container;
    this.handlers = handlers;
    this.autoTurn = !!options.autoTurn;
    this.width = 14;
    this.depth = 18;
    this.flipped = false;
    // A quarter turn: the near edge on the left, the far edge on the right.
    this.sideways = false;
    // The reader's choice of turn (null: whichever fits the window best).
    this.turnPref = null;
    // Whether the view is as the last fit left it (a resize then fits again).
    this.fitted = false;
    this.hasTerrain = false;
    this.vb = null;
    this.pointers = new Map();
    this.drag = null;
    this.svg = s('svg', {
      class: 'table-svg',
      role: 'application',
      'aria-label': 'Battle table. Arrow keys pan, + and - zoom, 0 fits the table.',
      tabindex: '0',
      'data-testid': 'table',
      preserveAspectRatio: 'xMidYMid meet',
    });
    const defs = s('defs', {},
      s('pattern', { id: 'cardback', width: '0.3', height: '0.3', patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        s('rect', { width: '0.3', height: '0.3', fill: '#5b4a3a' }),
        s('line', { x1: '0', y1: '0', x2: '0', y2: '0.3', stroke: '#8a735c', 'stroke-width': '0.12' })),
      s('pattern', { id: 'grid', width: '1', height: '1', patternUnits: 'userSpaceOnUse' },
        s('path', { d: 'M 1 0 L 0 0 0 1', fill: 'none', stroke: 'rgba(60,50,20,0.16)', 'stroke-width': '0.02' })));
    this.layers = {};
    this.svg.append(defs);
    for (const name of ['board', 'terrain', 'zones', 'units', 'engagements', 'overlay', 'ghost', 'labels']) {
      this.layers[name] = s('g', { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    container.append(this.svg);
    this.bind();
    if (typeof ResizeObserver === 'function') {
      let last = '';
      new ResizeObserver(() => {
        const r = this.svg.getBoundingClientRect();
        const key = `${Math.round(r.width)}x${Math.round(r.height)}`;
        if (key === last || !r.width) return;
        last = key;
        if (this.fitted && this.model) this.fit();
      }).observe(this.svg);
    }
  }

  // ---- coordinates -------------------------------------------------------------------

  /** Table point (DU, y towards the far edge) to SVG user space (a quarter turn clockwise
   *  when sideways: the near edge on the left, its left end at the top). */
  toSvg(p) {
    const q = this.flipped ? { x: this.width - p.x, y: p.y } : { x: p.x, y: this.depth - p.y };
    return this.sideways ? { x: this.depth - q.y, y: q.x } : q;
  }

  fromSvg(p) {
    const q = this.sideways ? { x: p.y, y: this.depth - p.x } : p;
    return this.flipped ? { x: this.width - q.x, y: q.y } : { x: q.x, y: this.depth - q.y };
  }

  /** The SVG user space's width and height (the table's, turned when sideways). */
  svgSize() {
    return this.sideways ? { w: this.depth, h: this.width } : { w: this.width, h: this.depth };
  }

  /** The SVG rotation (degrees, clockwise) of a card with this heading. */
  rotation(heading) {
    return (-heading * 180) / Math.PI + (this.flipped ? 180 : 0) + (this.sideways ? 90 : 0);
  }

  clientToWorld(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = pt.matrixTransform(m.inverse());
    return this.fromSvg(p);
  }

  /** Screen pixels per DU at the current zoom. */
  scale() {
    const r = this.svg.getBoundingClientRect();
    if (!this.vb || !r.width) return 40;
    return Math.min(r.width / this.vb.w, r.height / this.vb.h);
  }

  // ---- pan and zoom ------------------------------------------------------------------

  /**
   * The whole table in the window, as large as it fits: upright or, when allowed and it
   * fits better (a deep table in a wide window), a quarter turn round.
   */
  fit() {
    const m = 0.55;
    // Room under the board for the terrain legend.
    const legend = this.hasTerrain ? 0.5 : 0;
    const r = this.svg.getBoundingClientRect();
    const scaleOf = (w, h) => Math.min(r.width / (w + 2 * m), r.height / (h + 2 * m + legend));
    let sideways = false;
    if (this.autoTurn && this.turnPref !== null) sideways = this.turnPref;
    else if (this.autoTurn && r.width > 0 && r.height > 0) {
      sideways = scaleOf(this.depth, this.width) > 1.08 * scaleOf(this.width, this.depth);
    }
    if (sideways !== this.sideways) {
      this.sideways = sideways;
      if (this.model) this.redraw();
    }
    const { w, h } = this.svgSize();
    this.vb = { x: -m, y: -m, w: w + 2 * m, h: h + 2 * m + legend };
    this.fitted = true;
    this.applyViewBox();
    this.handlers.onFit?.();
  }

  /** Turns the view a quarter round (or back), then fits it. */
  turn() {
    this.turnPref = !this.sideways;
    this.fit();
  }

  applyViewBox() {
    const { x, y, w, h } = this.vb;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  }

  zoomAt(factor, svgPoint) {
    this.fitted = false;
    const vb = this.vb;
    const nw = Math.min(Math.max(vb.w * factor, 2), (this.width + this.depth) * 3);
    const k = nw / vb.w;
    const c = svgPoint || { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 };
    this.vb = { x: c.x - (c.x - vb.x) * k, y: c.y - (c.y - vb.y) * k, w: vb.w * k, h: vb.h * k };
    this.applyViewBox();
  }

  pan(dx, dy) {
    this.fitted = false;
    this.vb.x += dx;
    this.vb.y += dy;
    this.applyViewBox();
  }

  svgPoint(ev) {
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const m = this.svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  bind() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      this.zoomAt(ev.deltaY > 0 ? 1.15 : 1 / 1.15, this.svgPoint(ev));
    }, { passive: false });

    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== undefined && ev.button > 0) return;
      svg.focus({ preventScroll: true });
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (this.pointers.size === 2) {
        // Pinch: stop whatever one finger started.
        if (this.drag?.kind === 'ghost') this.handlers.onGhostDrag?.(this.drag.start, this.drag.start, 'cancel');
        const [a, b] = [...this.pointers.values()];
        this.drag = { kind: 'pinch', d0: Math.hypot(a.x - b.x, a.y - b.y), vb0: { ...this.vb } };
        return;
      }
      const handle = ev.target.closest?.('[data-handle]');
      const ghost = ev.target.closest?.('[data-ghost-body]');
      const unit = ev.target.closest?.('[data-unit]');
      const world = this.clientToWorld(ev.clientX, ev.clientY);
      try {
        svg.setPointerCapture(ev.pointerId);
      } catch {
        // A pointer the browser no longer tracks (lifted already): nothing to capture.
      }
      if (handle) {
        this.drag = { kind: 'rotate', id: ev.pointerId };
        this.handlers.onRotateDrag?.(world, 'start');
      } else if (ghost) {
        this.drag = { kind: 'ghost', id: ev.pointerId, start: world, moved: false, x: ev.clientX, y: ev.clientY };
        this.handlers.onGhostDrag?.(world, world, 'start');
      } else {
        this.drag = {
          kind: 'pan', id: ev.pointerId, x: ev.clientX, y: ev.clientY, moved: false,
          unit: unit ? Number(unit.dataset.unit) : null, vb0: { ...this.vb },
          terrain: ev.target.closest?.('[data-terrain]')?.dataset.terrain ?? null,
        };
      }
      ev.preventDefault();
    });

    svg.addEventListener('pointermove', (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      const d = this.drag;
      if (!d) return;
      if (d.kind === 'pinch' && this.pointers.size >= 2) {
        const [a, b] = [...this.pointers.values()];
        const dd = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        const k = d.d0 / dd;
        const vb0 = d.vb0;
        const cx = vb0.x + vb0.w / 2;
        const cy = vb0.y + vb0.h / 2;
        const w = Math.min(Math.max(vb0.w * k, 2), (this.width + this.depth) * 3);
        const h = (vb0.h * w) / vb0.w;
        this.vb = { x: cx - w / 2, y: cy - h / 2, w, h };
        this.fitted = false;
        this.applyViewBox();
      } else if (d.kind === 'pan' && d.id === ev.pointerId) {
        const px = this.scale();
        const dx = (ev.clientX - d.x) / px;
        const dy = (ev.clientY - d.y) / px;
        if (Math.abs(ev.clientX - d.x) + Math.abs(ev.clientY - d.y) > 4) d.moved = true;
        if (d.moved) {
          this.fitted = false;
          this.vb = { ...d.vb0, x: d.vb0.x - dx, y: d.vb0.y - dy };
          this.applyViewBox();
        }
      } else if (d.kind === 'ghost' && d.id === ev.pointerId) {
        d.moved = true;
        this.handlers.onGhostDrag?.(d.start, this.clientToWorld(ev.clientX, ev.clientY), 'move');
      } else if (d.kind === 'rotate' && d.id === ev.pointerId) {
        this.handlers.onRotateDrag?.(this.clientToWorld(ev.clientX, ev.clientY), 'move');
      }
    });

    const end = (ev) => {
      this.pointers.delete(ev.pointerId);
      const d = this.drag;
      if (!d) return;
      if (d.kind === 'pinch') {
        if (this.pointers.size === 0) this.drag = null;
        return;
      }
      if (d.id !== ev.pointerId) return;
      this.drag = null;
      const world = this.clientToWorld(ev.clientX, ev.clientY);
      if (ev.type === 'pointercancel') {
        if (d.kind === 'ghost') this.handlers.onGhostDrag?.(d.start, d.start, 'cancel');
        return;
      }
      if (d.kind === 'pan' && !d.moved) {
        if (d.unit !== null) this.handlers.onUnitClick?.(d.unit, ev);
        else this.handlers.onBackgroundClick?.(world, ev, d.terrain);
      } else if (d.kind === 'ghost') {
        this.handlers.onGhostDrag?.(d.start, world, 'end');
      } else if (d.kind === 'rotate') {
        this.handlers.onRotateDrag?.(world, 'end');
      }
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);

    svg.addEventListener('keydown', (ev) => {
      if (ev.target !== svg && ev.target.closest?.('[data-unit]') && (ev.key === 'Enter' || ev.key === ' ')) {
        ev.preventDefault();
        this.handlers.onUnitClick?.(Number(ev.target.closest('[data-unit]').dataset.unit), ev);
        return;
      }
      if (this.handlers.onKey?.(ev)) {
        ev.preventDefault();
        return;
      }
      const step = (ev.shiftKey ? 3 : 1) * Math.max(this.vb.w / 14, 0.5);
      const keys = {
        ArrowLeft: () => this.pan(-step, 0),
        ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step),
        ArrowDown: () => this.pan(0, step),
        '+': () => this.zoomAt(1 / 1.2),
        '=': () => this.zoomAt(1 / 1.2),
        '-': () => this.zoomAt(1.2),
        _: () => this.zoomAt(1.2),
        0: () => this.fit(),
      };
      const f = keys[ev.key];
      if (f) {
        ev.preventDefault();
        f();
      }
    });
  }

  // ---- drawing -----------------------------------------------------------------------

  /**
   * model: { view, mySeat, selected, highlights: Map(id -> {kind, label}), zones: [{seat, x0,y0,x1,y1, mine}],
   *          lines: [{from, to, kind, label}], hideUnits: Set(id),
   *          pickedTerrain: id, badTerrain: Set(id) (the battlefield editor's marks) }
   */
  render(model) {
    const v = model.view;
    if (!v) return;
    const hasTerrain = Boolean(v.terrain && ((v.terrain.pieces || []).length || (v.terrain.structures || []).length));
    const resized = v.width !== this.width || v.depth !== this.depth || hasTerrain !== this.hasTerrain;
    this.hasTerrain = hasTerrain;
    this.width = v.width;
    this.depth = v.depth;
    if (model.flipped !== undefined && model.flipped !== this.flipped) {
      this.flipped = model.flipped;
    }
    if (!this.vb || resized) this.fit();
    this.model = model;
    this.redraw();
  }

  /** Draws the last model again (after a turn of the view). */
  redraw() {
    const model = this.model;
    const v = model.view;
    this.drawBoard();
    this.drawTerrain(v.terrain, v.structures);
    this.drawZones(model.zones || []);
    this.drawUnits(model);
    this.drawEngagements(v, model.help);
    this.drawOverlay(model);
    if (this.ghost !== undefined) this.setGhost(this.ghost);
  }

  drawBoard() {
    const g = clear(this.layers.board);
    const { w, h } = this.svgSize();
    g.append(
      s('rect', { x: 0, y: 0, width: w, height: h, class: 'board', 'data-testid': 'board' }),
      s('rect', { x: 0, y: 0, width: w, height: h, fill: 'url(#grid)', 'pointer-events': 'none' }),
    );
    // Edge labels outside the board (the near, own edge at the bottom, or on the left when
    // the view is turned), read along their edge.
    const label = (y, text) => {
      const p = this.toSvg({ x: this.width / 2, y });
      // Glyphs rise from the baseline (leftwards when turned): more room below and right.
      if (!this.sideways && p.y > h) p.y += 0.25;
      if (this.sideways && p.x > w) p.x += 0.25;
      const attrs = { x: p.x, y: p.y, class: 'edge-label' };
      if (this.sideways) attrs.transform = `rotate(-90 ${p.x} ${p.y})`;
      return s('text', attrs, text);
    };
    g.append(label(-0.2, 'South edge'), label(this.depth + 0.2, 'North edge'));
    // A ruler along the near edge: 1 DU ticks.
    const nearY = this.flipped ? this.depth : 0;
    const out = this.flipped ? 0.12 : -0.12;
    for (let i = 0; i <= Math.floor(this.width); i++) {
      const a = this.toSvg({ x: i, y: nearY });
      const b = this.toSvg({ x: i, y: nearY + out });
      g.append(s('line', { x1: a.x, x2: b.x, y1: a.y, y2: b.y, class: 'ruler' }));
    }
  }

  /**
   * The battlefield's terrain (Terrain & Fortresses), as the engine gives it: each piece a
   * union of rectangles ({centre, size, angle} in DU, angle counter-clockwise in degrees),
   * a hill's top drawn over its hillside, the piece's name on its first zone, and a legend of
   * the kinds present under the near edge.
   */
  drawTerrain(terrain, damage = {}) {
    const g = clear(this.layers.terrain);
    if (!terrain) return;
    const pieces = terrain.pieces || [];
    const structures = terrain.structures || [];
    if (!pieces.length && !structures.length) return;
    const zoneRect = (z, cls, extra = {}) => {
      const grp = this.cardGroup({ centre: { x: z.centre[0], y: z.centre[1] }, heading: (z.angle * Math.PI) / 180 });
      grp.append(s('rect', { x: -z.size[0] / 2, y: -z.size[1] / 2, width: z.size[0], height: z.size[1], class: cls, ...extra }));
      return grp;
    };
    const kinds = new Set();
    for (const p of pieces) {
      kinds.add(p.kind);
      const cls = ['terrain', `terrain-${p.kind}`, p.material && `terrain-${p.material}`].filter(Boolean).join(' ');
      const picked = this.model?.pickedTerrain === p.id;
      const bad = this.model?.badTerrain?.has(p.id);
      const piece = s('g', {
        'data-testid': `terrain-${p.id}`, 'data-kind': p.kind, 'data-terrain': p.id,
        class: ['terrain-piece', picked && 'picked', bad && 'bad'].filter(Boolean).join(' '),
      });
      piece.append(s('title', {}, `${p.name} (${TERRAIN_LEGEND[p.kind] || p.kind})`));
      for (const z of p.zones) piece.append(zoneRect(z, cls));
      for (const z of p.top || []) piece.append(zoneRect(z, 'terrain terrain-hill-top'));
      const first = p.zones[0];
      if (first) {
        const c = this.toSvg({ x: first.centre[0], y: first.centre[1] });
        piece.append(s('text', { x: c.x, y: c.y, class: 'terrain-label' }, p.name));
        // T&F III "Bridges": a bridge is a structure too; its Wound and Fire markers as the engine gives them.
        const marks = p.kind === 'bridge' ? damageMarks(damage?.[p.id]).marks : [];
        if (marks.length) {
          piece.append(s('text', { x: c.x, y: c.y + 0.35, class: 'structure-marks', 'data-testid': `structure-marks-${p.id}` }, marks.join(' · ')));
        }
      }
      g.append(piece);
    }
    for (const st of structures) g.append(this.structureGroup(st, damage, zoneRect));
    this.drawTerrainLegend(g, [...kinds], !!terrain.fordable_rivers);
  }

  /**
   * One structure of the battlefield (T&F IV) with the damage the engine says it carries
   * (T&F V: Wound and Fire markers, a fallen gate, a collapse): its tiles, its name, and its
   * markers as a badge. A collapsed structure is drawn as rubble. A village carries its damage
   * half by half (T&F IV "Villages"), under the ids the engine gives its halves
   * (`onus_terrain::Structure::half`: "{village}#1", "{village}#2"), each with its badge.
   */
  structureGroup(st, damage, zoneRect) {
    const parts = st.kind === 'village'
      ? st.zones.map((z, i) => ({ id: `${st.id}#${i + 1}`, zones: [z], half: i + 1 }))
      : [{ id: st.id, zones: st.zones }];
    const drawn = parts.map((p) => ({ ...p, ...damageMarks(damage?.[p.id]) }));
    // The group is collapsed or burning when all of it is or any of it is; each tile says its own.
    const collapsed = drawn.every((p) => p.collapsed);
    const fire = drawn.some((p) => p.fire);
    const g = s('g', {
      'data-testid': `structure-${st.id}`, 'data-structure': st.id, 'data-kind': st.kind,
      class: ['structure', `kind-${st.kind}`, `mat-${st.material}`, collapsed && 'collapsed', fire && 'burning'].filter(Boolean).join(' '),
    });
    const name = st.name || `${st.kind.replaceAll('_', ' ')} ${st.id}`;
    const summary = drawn.filter((p) => p.marks.length)
      .map((p) => `${p.half ? `half ${p.half}: ` : ''}${p.marks.join(', ')}`).join('; ');
    g.append(s('title', {}, `${name} (${st.kind.replaceAll('_', ' ')}, ${st.material})${summary ? `: ${summary}` : ''}`));
    for (const p of drawn) {
      const cls = ['tile', p.collapsed && 'collapsed', p.fire && 'burning'].filter(Boolean).join(' ');
      for (const z of p.zones) g.append(zoneRect(z, cls));
    }
    const first = st.zones[0];
    if (first && st.name) {
      const c = this.toSvg({ x: first.centre[0], y: first.centre[1] });
      g.append(s('text', { x: c.x, y: c.y, class: 'terrain-label' }, st.name));
    }
    for (const p of drawn.filter((x) => x.marks.length)) {
      const z = p.zones[0];
      const c = this.toSvg({ x: z.centre[0], y: z.centre[1] });
      g.append(s('text', { x: c.x, y: c.y + 0.35, class: 'structure-marks', 'data-testid': `structure-marks-${p.id}` }, p.marks.join(' · ')));
    }
    return g;
  }

  drawTerrainLegend(g, kinds, fordable = false) {
    const text = (k) => (k === 'river' && fordable ? 'river: fordable here (as a ford)' : TERRAIN_LEGEND[k]);
    const y = this.svgSize().h + 0.85;
    let x = 0;
    const legend = s('g', { class: 'terrain-legend', 'data-testid': 'terrain-legend' });
    for (const k of TERRAIN_KINDS.filter((k) => kinds.includes(k))) {
      legend.append(
        s('rect', { x, y: y - 0.22, width: 0.3, height: 0.3, class: `terrain terrain-${k}` }),
        s('text', { x: x + 0.38, y: y, class: 'terrain-legend-text' }, text(k)),
      );
      x += 0.5 + text(k).length * 0.13;
    }
    g.append(legend);
  }

  drawZones(zones) {
    const g = clear(this.layers.zones);
    for (const z of zones) {
      const p0 = this.toSvg({ x: z.x0, y: z.y0 });
      const p1 = this.toSvg({ x: z.x1, y: z.y1 });
      const x = Math.min(p0.x, p1.x);
      const y = Math.min(p0.y, p1.y);
      const col = seatColour(z.seat);
      g.append(
        s('rect', {
          x, y, width: Math.abs(p1.x - p0.x), height: Math.abs(p1.y - p0.y),
          class: ['zone', z.mine && 'mine'], fill: col, stroke: col, 'data-testid': z.choice === undefined ? `zone-${z.seat}` : `zone-${z.seat}-choice-${z.choice}`,
        }),
        s('text', { x: x + 0.15, y: y + 0.35, class: 'zone-label', fill: col }, z.label || `deployment zone · seat ${z.seat}`),
      );
      // A zone to choose carries its number large in its middle, as the panel's buttons name it.
      if (z.choice !== undefined) {
        g.append(s('text', {
          x: x + Math.abs(p1.x - p0.x) / 2, y: y + Math.abs(p1.y - p0.y) / 2, class: 'zone-number', fill: col, 'data-testid': `zone-${z.seat}-choice-${z.choice}-number`,
        }, String(z.choice + 1)));
      }
    }
  }

  cardGroup(pose, extra = {}) {
    const c = this.toSvg(pose.centre);
    return s('g', { transform: `translate(${c.x} ${c.y}) rotate(${this.rotation(pose.heading)})`, ...extra });
  }

  /** Whether text on a card at this heading would be upside down on screen. */
  upsideDown(heading) {
    const r = ((this.rotation(heading) % 360) + 360) % 360;
    return r > 90 && r < 270;
  }

  drawUnits(model) {
    const g = clear(this.layers.units);
    const v = model.view;
    const generals = new Map();
    for (const p of v.players || []) {
      for (const gen of p.generals || []) if (gen.unit !== null && gen.unit !== undefined) generals.set(gen.unit, { seat: p.seat, gen });
    }
    // T&F II "Overlapping": inside a fortress the engine's stacking level says which unit lies
    // on top; the higher is drawn last (the sort is stable: the view's order otherwise).
    const stacked = [...v.units].sort((a, b) => (a.level || 0) - (b.level || 0));
    for (const u of stacked) {
      if (model.hideUnits?.has(u.id)) continue;
      g.append(this.unitShape(u, model, generals.get(u.id)));
    }
  }

  unitShape(u, model, general) {
    // T&F IV "Unit markers": a unit holding a tower is drawn as the marker on the tower, the
    // tower's size (its card is set aside); the engine's view names the tower.
    const tower = u.tower && (model.view.terrain?.structures || []).find((st) => st.id === u.tower);
    const zone = tower?.zones?.[0];
    const { width: w, depth: d } = zone ? { width: zone.size[0], depth: zone.size[1] } : u.size;
    const col = seatColour(u.owner);
    const st = u.state || {};
    const selected = model.selected === u.id;
    const hl = model.highlights?.get(u.id);
    const army = model.seatName ? model.seatName(u.owner) : `seat ${u.owner}`;
    const held = u.tower ? ` in the tower ${tower?.name || u.tower}` : '';
    const label = (u.hidden ? `face-down unit #${u.id} (${army})` : `${u.card.name} #${u.id} (${army})`) + held;
    const g = this.cardGroup(u.pose, {
      class: ['unit', u.hidden && 'hidden', selected && 'selected', hl && `hl-${hl.kind}`, st.fleeing && 'fleeing', u.tower && 'in-tower'],
      'data-unit': u.id,
      'data-owner': u.owner,
      'data-testid': `unit-${u.id}`,
      'data-hidden': u.hidden ? 'true' : 'false',
      role: 'button',
      tabindex: '0',
      'aria-label': label,
      'aria-pressed': selected ? 'true' : 'false',
    });
    g.append(s('title', {}, label));
    // Extended markers (white Section markers beside the front line).
    for (const flank of ['Left', 'Right']) {
      if (!st[`extended_${flank.toLowerCase()}`]) continue;
      const x = (flank === 'Left' ? -1 : 1) * (w / 2 + w / 8);
      g.append(s('rect', {
        x: x - w / 8, y: -d / 2, width: w / 4, height: 0.4, class: 'extended-marker', stroke: col,
        'data-testid': `extended-${u.id}-${flank.toLowerCase()}`,
      }, s('title', {}, `extended ${flank.toLowerCase()}${model.help?.extended ? `: ${model.help.extended}` : ''}`)));
    }
    if (selected) g.append(s('rect', { x: -w / 2 - 0.08, y: -d / 2 - 0.08, width: w + 0.16, height: d + 0.16, rx: 0.08, class: 'select-ring' }));
    if (hl) g.append(s('rect', { x: -w / 2 - 0.06, y: -d / 2 - 0.06, width: w + 0.12, height: d + 0.12, rx: 0.06, class: `hl-ring hl-ring-${hl.kind}` }));
    g.append(s('rect', {
      x: -w / 2, y: -d / 2, width: w, height: d, rx: 0.04, class: 'card-body',
      fill: u.hidden ? 'url(#cardback)' : '#fbf6e9', stroke: col,
    }));
    // The front edge, emphasised.
    g.append(s('line', { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, class: 'front-edge', stroke: col }));
    // T&F V "Assaulting fortresses": the Climbing marker (red arrows) against the front edge,
    // flipped to its Climbed side (green arrows) at the top; the engine's view gives the
    // structure and the levels climbed.
    if (u.climb) g.append(this.climbMarker(u, w, d));
    // Section ticks: 4 on the front and rear, 2 on each side.
    const tick = 0.12;
    for (const i of [1, 2, 3]) {
      const x = -w / 2 + (w * i) / 4;
      g.append(s('line', { x1: x, y1: -d / 2, x2: x, y2: -d / 2 + tick, class: 'tick' }));
      g.append(s('line', { x1: x, y1: d / 2, x2: x, y2: d / 2 - tick, class: 'tick' }));
    }
    g.append(s('line', { x1: -w / 2, y1: 0, x2: -w / 2 + tick, y2: 0, class: 'tick' }));
    g.append(s('line', { x1: w / 2, y1: 0, x2: w / 2 - tick, y2: 0, class: 'tick' }));
    // T&F III "Bridges", "Choke Points": lined up on a bridge or pass, the sections beyond its
    // width (the engine's view gives the crossing) are Section markers, drawn apart.
    if (u.crossing && u.crossing.sections < 4 && !u.tower) {
      const inner = (w * u.crossing.sections) / 4;
      const why = `Section markers: the sections beyond the ${u.crossing.sections}-section width of ${u.crossing.name} (T&F III Choke Points)`;
      for (const [side, x] of [['left', -w / 2], ['right', inner / 2]]) {
        g.append(s('rect', {
          x, y: -d / 2, width: (w - inner) / 2, height: d, class: 'crossing-markers', stroke: col,
          'data-testid': `crossing-markers-${u.id}-${side}`,
        }, s('title', {}, why)));
      }
    }

    // The text reads as near upright on screen as the card allows: turned with the card,
    // half a turn more when that would be upside down, a quarter turn when the card lies
    // across the screen (then laid out along the card's length).
    const r = ((this.rotation(u.pose.heading) % 360) + 360) % 360;
    const turn = r > 45 && r < 135 ? -90 : r > 225 && r < 315 ? 90 : r >= 135 && r <= 225 ? 180 : 0;
    const across = turn === 90 || turn === -90;
    const boxW = across ? d : w;
    const boxH = across ? w : d;
    const txt = s('g', { class: 'card-text', transform: turn ? `rotate(${turn})` : '' });
    g.append(txt);
    if (u.hidden) {
      txt.append(s('text', { x: 0, y: 0.08, class: 'back-mark' }, '?'));
      return g;
    }
    const c = u.card;
    const hp = c.health - (st.wounds || 0);
    // The name as large as the card allows: on two lines when it is too long for one and
    // has a space, squeezed to the card's width (about 0.15 DU a letter) only when a line
    // is still too long, never made smaller.
    const room = boxW - 0.12;
    const perChar = 0.16;
    let nameLines = [c.name];
    // Two lines only when the card has the height for them (lying across the screen, or a
    // tower's marker, which shows nothing else but its health).
    if (c.name.length * perChar > room && c.name.includes(' ') && (boxH >= 1.6 || (boxW < 1.2 && boxH >= 0.9))) {
      const mid = c.name.length / 2;
      let cut = -1;
      for (let i = 0; i < c.name.length; i++) if (c.name[i] === ' ' && (cut < 0 || Math.abs(i - mid) < Math.abs(cut - mid))) cut = i;
      nameLines = [c.name.slice(0, cut), c.name.slice(cut + 1)];
    }
    const top = -boxH / 2;
    let y = top + 0.3;
    const name = s('text', { class: 'card-name', 'data-testid': `unit-name-${u.id}` });
    nameLines.forEach((line, i) => {
      const squeeze = line.length * perChar > room ? { textLength: room, lengthAdjust: 'spacingAndGlyphs' } : {};
      // The space between the lines stays in the text (not drawn: it ends a line).
      name.append(s('tspan', { x: 0, y: y + i * 0.29, ...squeeze }, i < nameLines.length - 1 ? `${line} ` : line));
    });
    txt.append(name);
    y += (nameLines.length - 1) * 0.29 + 0.26;
    const ranged = c.ranged ? `R ${c.ranged.power}·${num(c.ranged.range, 1)}` : '';
    // A unit holding a tower is drawn the tower's size (1 DU): its name and health only, the
    // rest in its panel (three lines of values there were squeezed past reading).
    const values = boxW < 1.2 ? [`H ${hp}/${c.health}`] : boxW >= 1.6
      ? [`A ${c.attack.hit}/${c.attack.damage}  D ${c.defense.dodge}/${c.defense.armor}`, `M ${c.morale}  H ${hp}/${c.health}${ranged ? `  ${ranged}` : ''}`]
      : [`A ${c.attack.hit}/${c.attack.damage}  D ${c.defense.dodge}/${c.defense.armor}`, `M ${c.morale}  H ${hp}/${c.health}`, ranged].filter(Boolean);
    // The values keep clear of the card's border and its section ticks.
    const valueRoom = boxW - 0.28;
    for (const line of values) {
      const squeeze = line.length * 0.13 > valueRoom ? { textLength: valueRoom, lengthAdjust: 'spacingAndGlyphs' } : {};
      txt.append(s('text', { x: 0, y, class: 'card-values', ...squeeze }, line));
      y += 0.23;
    }
    // Markers along the rear of the card (in rows when they do not fit in one).
    const badges = [];
    if (st.wounds) badges.push(['wound', `${st.wounds}`, `${st.wounds} wound${st.wounds > 1 ? 's' : ''}`]);
    if (st.fleeing) badges.push(['fleeing', 'F', 'fleeing']);
    else if (st.broken) badges.push(['broken', 'B', 'broken']);
    if (st.marching) badges.push(['marching', 'Mr', 'marching']);
    if (st.formation) badges.push(['formation', FORMATION_ABBR[st.formation] || st.formation.slice(0, 2).toUpperCase(), `formation: ${st.formation.replace(/_/g, ' ')}`]);
    if (st.hero) badges.push(['hero', 'H', 'hero']);
    if (st.no_officer) badges.push(['no-officer', 'NO', 'no officer']);
    if (st.rank && st.rank !== 'regular') badges.push(['rank', st.rank === 'elite' ? 'El' : 'Vt', st.rank]);
    if (u.turn?.activated) badges.push(['active', 'Act', 'activated']);
    if (general) badges.push(['general', 'G', `General ${general.gen.card.name}${general.gen.status !== 'healthy' ? ` (${general.gen.status})` : ''}`]);
    const bw = 0.32;
    const perRow = Math.max(1, Math.floor((boxW - 0.08) / (bw + 0.04)));
    const rows = Math.ceil(badges.length / perRow);
    const help = model.help || {};
    badges.forEach(([kind, text, title], i) => {
      const row = Math.floor(i / perRow);
      const inRow = Math.min(perRow, badges.length - row * perRow);
      const total = inRow * (bw + 0.04);
      const x = -total / 2 + (i % perRow) * (bw + 0.04) + bw / 2;
      const by = boxH / 2 - 0.17 - (rows - 1 - row) * 0.27;
      const key = kind === 'rank' ? st.rank : kind === 'formation' ? `formation_${st.formation}` : kind.replace(/-/g, '_');
      const more = help[key] || null;
      txt.append(s('g', { class: ['badge', `badge-${kind}`], 'data-testid': `marker-${kind}-${u.id}`, 'data-help': more ? 'yes' : 'no' },
        s('title', {}, more ? `${title}: ${more}` : title),
        kind === 'general'
          ? s('circle', { cx: x, cy: by, r: bw / 2 + 0.02 })
          : s('rect', { x: x - bw / 2, y: by - 0.115, width: bw, height: 0.23, rx: 0.05 }),
        s('text', { x, y: by + 0.06 }, text)));
    });
    return g;
  }

  /** The Climbing / Climbed marker of a climbing unit, just beyond its front edge. */
  climbMarker(u, w, d) {
    const c = u.climb;
    const top = c.climbed >= c.height;
    const mw = Math.min(0.9, w * 0.6);
    const what = top
      ? `Climbed: at the top of ${c.structure} (${c.height} level${c.height > 1 ? 's' : ''})`
      : `Climbing ${c.structure}: ${c.climbed} of ${c.height} level${c.height > 1 ? 's' : ''}`;
    return s('g', {
      class: ['climb-marker', top ? 'climbed' : 'climbing'], 'data-testid': `climbing-${u.id}`,
      'data-structure': c.structure, 'data-climbed': String(c.climbed), 'data-height': String(c.height),
    },
    s('title', {}, what),
    s('rect', { x: -mw / 2, y: -d / 2 - 0.34, width: mw, height: 0.3, rx: 0.05 }),
    s('text', { x: 0, y: -d / 2 - 0.12 }, `▲▲ ${c.climbed}/${c.height}`));
  }

  drawEngagements(v, help = {}) {
    const g = clear(this.layers.engagements);
    const byId = new Map(v.units.map((u) => [u.id, u]));
    // T&F V "Assaulting fortresses": the Section markers a unit wrapped round a tower, where the
    // engine's view places them (they also stand for its enveloping contacts at the top).
    for (const u of v.units) {
      for (const m of u.wrap || []) {
        const grp = this.cardGroup(m.pose, { class: 'enveloping-marker', 'data-testid': `wrap-${u.id}` });
        grp.append(s('title', {}, `Section marker of ${u.card ? `${u.card.name} ` : ''}#${u.id} wrapped round the tower`));
        grp.append(s('rect', { x: -m.width / 2, y: -m.depth / 2, width: m.width, height: m.depth, fill: seatColour(u.owner), stroke: '#fff' }));
        grp.append(s('path', { d: `M ${-m.width * 0.28} ${m.depth * 0.25} L 0 ${-m.depth * 0.25} L ${m.width * 0.28} ${m.depth * 0.25}`, class: 'enveloping-chevron' }));
        g.append(grp);
      }
    }
    for (const e of v.engagements || []) {
      const a = byId.get(e.a);
      const b = byId.get(e.b);
      if (!a || !b) continue;
      const pa = this.toSvg(a.pose.centre);
      const pb = this.toSvg(b.pose.centre);
      g.append(s('line', { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, class: 'engagement', 'data-testid': `engagement-${e.a}-${e.b}` }));
      for (const c of e.contacts || []) {
        const target = byId.get(c.against);
        const by = byId.get(c.by);
        if (!target || !by || !c.part?.Section) continue;
        const { edge, index } = c.part.Section;
        if (c.enveloping && target.tower) continue; // drawn as the climber's wrap above
        if (c.enveloping) {
          const m = envelopingMarker(target.pose, target.size, edge, index);
          // Drawn in the enveloping unit's colour with a white chevron pointing at the card it
          // envelops: seen at a glance, and whose it is.
          const col = seatColour(by.owner);
          const { width: mw, depth: md } = m.size;
          const grp = this.cardGroup(m.pose, { class: 'enveloping-marker', 'data-testid': `enveloping-${c.by}-${c.against}`, 'data-help': help.enveloping ? 'yes' : 'no' });
          const what = `enveloping Section marker of ${by.card ? `${by.card.name} ` : ''}#${c.by} on ${target.card ? `${target.card.name} ` : ''}#${c.against}`;
          grp.append(s('title', {}, help.enveloping ? `${what}: ${help.enveloping}` : what));
          grp.append(s('rect', { x: -mw / 2, y: -md / 2, width: mw, height: md, fill: col, stroke: '#fff' }));
          grp.append(s('path', { d: `M ${-mw * 0.28} ${md * 0.25} L 0 ${-md * 0.25} L ${mw * 0.28} ${md * 0.25}`, class: 'enveloping-chevron' }));
          g.append(grp);
        } else {
          const [p, q] = sectionSegment(target.pose, target.size, edge, index).map((x) => this.toSvg(x));
          g.append(s('line', { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: 'contact' }));
        }
      }
      const mid = { x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 };
      g.append(s('g', { class: 'engagement-mark', transform: `translate(${mid.x} ${mid.y})` },
        s('circle', { r: 0.16 }),
        s('path', { d: 'M -0.08 -0.08 L 0.08 0.08 M 0.08 -0.08 L -0.08 0.08' })));
    }
  }

  drawOverlay(model) {
    const g = clear(this.layers.overlay);
    const labels = clear(this.layers.labels);
    for (const l of model.lines || []) {
      const a = this.toSvg(l.from);
      const b = this.toSvg(l.to);
      g.append(s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: ['fire-line', `fire-${l.kind}`] }));
      if (l.label) {
        const m = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        labels.append(this.pill(m, l.label, `fire-${l.kind}`));
      }
    }
    if (model.measure) {
      // The measuring tool: its chosen points, and the ruler line with the distance.
      for (const p of model.measure.points) {
        const c = this.toSvg(p);
        g.append(s('circle', { cx: c.x, cy: c.y, r: 0.08, class: 'measure-point' }));
      }
      const l = model.measure.line;
      if (l) {
        const a = this.toSvg(l.from);
        const b = this.toSvg(l.to);
        g.append(s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'measure-line', 'data-testid': 'measure-line' }));
        for (const e of [a, b]) g.append(s('circle', { cx: e.x, cy: e.y, r: 0.05, class: 'measure-end' }));
        labels.append(this.pill({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 0.2 }, l.label, 'measure-label', 'measure-label'));
      }
    }
    if (model.range) {
      const c = this.toSvg(model.range.centre);
      g.append(s('circle', { cx: c.x, cy: c.y, r: model.range.long, class: 'range-ring long', 'data-testid': 'range-ring-long' }));
      g.append(s('circle', { cx: c.x, cy: c.y, r: model.range.short, class: 'range-ring short', 'data-testid': 'range-ring-short' }));
    }
    const byId = new Map(model.view.units.map((u) => [u.id, u]));
    for (const [id, hl] of model.highlights || []) {
      const u = byId.get(id);
      if (!u || !hl.label) continue;
      const cs = corners(u.pose, u.size).map((p) => this.toSvg(p));
      const top = Math.min(...cs.map((p) => p.y));
      const cx = cs.reduce((a, p) => a + p.x, 0) / 4;
      labels.append(this.pill({ x: cx, y: top - 0.25 }, hl.label, `hl-${hl.kind}`, `target-label-${id}`));
    }
  }

  pill(at, text, cls, testid) {
    const w = Math.max(0.6, text.length * 0.105 + 0.2);
    return s('g', { class: ['pill', cls], transform: `translate(${at.x} ${at.y})`, 'data-testid': testid },
      s('rect', { x: -w / 2, y: -0.17, width: w, height: 0.32, rx: 0.1 }),
      s('text', { x: 0, y: 0.06 }, text));
  }

  /**
   * ghost: { pose, size, state: 'ok' | 'bad' | 'checking', label, path: [poses], extended: {left,right},
   *          rotate: bool, pivot: table point or null }
   */
  setGhost(ghost) {
    this.ghost = ghost;
    const g = clear(this.layers.ghost);
    if (!ghost) return;
    const { width: w, depth: d } = ghost.size;
    if (ghost.path?.length > 1) {
      const pts = ghost.path.map((p) => this.toSvg(p.centre));
      g.append(s('polyline', { points: pts.map((p) => `${p.x},${p.y}`).join(' '), class: 'ghost-path' }));
    }
    const grp = this.cardGroup(ghost.pose, {
      class: ['ghost', `ghost-${ghost.state}`], 'data-testid': 'ghost', 'data-state': ghost.state,
    });
    const body = s('g', { 'data-ghost-body': '1', class: 'ghost-body' });
    body.append(s('rect', { x: -w / 2, y: -d / 2, width: w, height: d, rx: 0.04 }));
    body.append(s('line', { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, class: 'ghost-front' }));
    for (const flank of ['left', 'right']) {
      if (!ghost.extended?.[flank]) continue;
      const x = (flank === 'left' ? -1 : 1) * (w / 2 + w / 8);
      body.append(s('rect', { x: x - w / 8, y: -d / 2, width: w / 4, height: 0.4, class: 'ghost-ext' }));
    }
    grp.append(body);
    if (ghost.rotate) {
      grp.append(s('line', { x1: 0, y1: -d / 2, x2: 0, y2: -d / 2 - 0.55, class: 'handle-stem' }));
      grp.append(s('circle', {
        cx: 0, cy: -d / 2 - 0.7, r: 0.17, class: 'rotate-handle', 'data-handle': 'rotate', 'data-testid': 'rotate-handle',
      }, s('title', {}, 'Drag to rotate (or Q / E)')));
    }
    g.append(grp);
    if (ghost.pivot) {
      const p = this.toSvg(ghost.pivot);
      g.append(s('circle', { cx: p.x, cy: p.y, r: 0.09, class: 'pivot-dot' }));
    }
    if (ghost.label) {
      const cs = corners(ghost.pose, ghost.size).map((p) => this.toSvg(p));
      const bottom = Math.max(...cs.map((p) => p.y));
      const cx = cs.reduce((a, p) => a + p.x, 0) / 4;
      g.append(this.pill({ x: cx, y: bottom + 0.35 }, ghost.label, `ghost-label-${ghost.state}`, 'ghost-label'));
    }
  }

  /** Centres the view on a table point without changing the zoom. */
  centreOn(p) {
    const c = this.toSvg(p);
    this.vb = { ...this.vb, x: c.x - this.vb.w / 2, y: c.y - this.vb.h / 2 };
    this.applyViewBox();
  }
}

export { toWorld, vec, extendedMarker };

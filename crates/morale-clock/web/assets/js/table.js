// The table in inches, drawn in SVG: side A's edge at the bottom, terrain, every base with its
// front edge marked, DMZ markers, leaders riding with units, and ghosts (where a checked order
// would put bases). Coordinates are the engine's: inches from the left and from side A's edge,
// a pose's heading in radians counter-clockwise (0 faces side B's edge).

import { s, clear } from '/assets/js/dom.js';

/** The four corners of a base of `w` × `d` at `pose` (front-left, front-right, rear-right, rear-left). */
export function corners(pose, w, d) {
  const c = Math.cos(pose.heading);
  const n = Math.sin(pose.heading);
  const at = (lx, ly) => ({ x: pose.centre.x + lx * c - ly * n, y: pose.centre.y + lx * n + ly * c });
  return [at(-w / 2, d / 2), at(w / 2, d / 2), at(w / 2, -d / 2), at(-w / 2, -d / 2)];
}

const TERRAIN_CLASS = {
  rough: 't-rough', dense_woods: 't-woods', hill: 't-hill', stream: 't-stream', impassable: 't-impassable',
};

export class TableView {
  constructor(container, { onUnitClick = () => {}, onTableClick = () => {} } = {}) {
    this.container = container;
    this.onUnitClick = onUnitClick;
    this.onTableClick = onTableClick;
    this.svg = s('svg', { class: 'mc-table', 'data-testid': 'mc-table', role: 'img', 'aria-label': 'The table' });
    container.append(this.svg);
    this.svg.addEventListener('click', (ev) => {
      if (ev.target.closest('[data-unit]')) return;
      const p = this.toTable(ev);
      if (p) this.onTableClick(p);
    });
  }

  /** A click's point in table inches. */
  toTable(ev) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm || !this.depth) return null;
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(ctm.inverse());
    return { x: p.x, y: this.depth - p.y };
  }

  /**
   * Draws `battle` (the view's `battle`). `opts`: `selected` (Set of unit ids), `targets`
   * (Map id -> 'ok' | 'no'), `ghosts` ([{pose, width, depth, bad}]), `marks` (Map id -> class).
   */
  render(battle, opts = {}) {
    const [w, d] = battle.scenario.table;
    this.depth = d;
    const svg = this.svg;
    clear(svg);
    svg.setAttribute('viewBox', `-1 -1 ${w + 2} ${d + 2}`);
    const Y = (y) => d - y;
    const poly = (pts, attrs) => s('polygon', { points: pts.map((p) => `${p.x},${Y(p.y)}`).join(' '), ...attrs });
    svg.append(s('rect', { x: 0, y: 0, width: w, height: d, class: 'mc-cloth' }));
    // Grid every 6 inches, to judge distances by eye.
    for (let x = 6; x < w; x += 6) svg.append(s('line', { x1: x, y1: 0, x2: x, y2: d, class: 'mc-grid' }));
    for (let y = 6; y < d; y += 6) svg.append(s('line', { x1: 0, y1: Y(y), x2: w, y2: Y(y), class: 'mc-grid' }));
    const zone = battle.scenario.deployment_depth;
    svg.append(s('line', { x1: 0, y1: Y(zone), x2: w, y2: Y(zone), class: 'mc-zone' }));
    svg.append(s('line', { x1: 0, y1: Y(d - zone), x2: w, y2: Y(d - zone), class: 'mc-zone' }));
    for (const t of battle.scenario.terrain) {
      const pose = { centre: { x: t.centre[0], y: t.centre[1] }, heading: (t.angle * Math.PI) / 180 };
      const g = s('g', { class: ['mc-terrain', TERRAIN_CLASS[t.kind]], 'data-testid': 'mc-terrain' },
        poly(corners(pose, t.size[0], t.size[1]), {}),
        s('title', {}, `${t.name} (${t.kind.replace('_', ' ')})`),
        s('text', { x: t.centre[0], y: Y(t.centre[1]), class: 'mc-terrain-label' }, t.name));
      svg.append(g);
    }
    const riders = new Map();
    for (const u of battle.units) {
      if (u.removed === null && u.attached_to !== null) {
        if (!riders.has(u.attached_to)) riders.set(u.attached_to, []);
        riders.get(u.attached_to).push(u);
      }
    }
    for (const u of battle.units) {
      if (u.removed !== null || u.attached_to !== null) continue;
      const p = u.profile;
      const c = corners(u.pose, p.width, p.depth);
      const target = opts.targets?.get(u.id);
      const g = s('g', {
        class: ['mc-unit', `side-${u.side}`, p.troop === 'general' || p.troop === 'subordinate' ? 'leader' : null,
          opts.selected?.has(u.id) && 'selected', target && `target-${target}`, opts.marks?.get(u.id)],
        'data-unit': u.id, 'data-testid': `unit-${u.id}`, 'data-side': u.side, 'data-dmz': u.dmz,
      });
      g.append(poly(c, { class: 'base' }));
      // The front edge.
      g.append(s('line', { x1: c[0].x, y1: Y(c[0].y), x2: c[1].x, y2: Y(c[1].y), class: 'front' }));
      const cx = u.pose.centre.x;
      const cy = Y(u.pose.centre.y);
      const short = p.name.length > 10 ? `${p.name.slice(0, 9)}…` : p.name;
      g.append(s('text', { x: cx, y: cy, class: 'label' }, short));
      for (let i = 0; i < u.dmz; i += 1) {
        g.append(s('circle', { cx: cx - 0.25 + i * 0.5, cy: cy + 0.45, r: 0.2, class: 'dmz', 'data-testid': 'dmz-marker' }));
      }
      for (const l of riders.get(u.id) || []) {
        g.append(s('text', { x: cx, y: cy - 0.45, class: 'rider' }, `★ ${l.profile.name}`));
      }
      const lines = [`${p.name} — ${p.troop.replace('_', ' ')}, CF ${p.combat_factor}, move ${p.move_open}" (${p.move_rough}" rough)`];
      if (p.missile_range) lines.push(`range ${p.missile_range}"`);
      if (p.qualities.length) lines.push(p.qualities.join(', '));
      if (u.dmz) lines.push(`${u.dmz} DMZ`);
      for (const l of riders.get(u.id) || []) lines.push(`with ${l.profile.name} (CF +${l.profile.combat_factor}, RF +${l.profile.rally_factor})`);
      g.append(s('title', {}, lines.join('\n')));
      g.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this.onUnitClick(u.id, ev);
      });
      svg.append(g);
    }
    for (const gh of opts.ghosts || []) {
      svg.append(poly(corners(gh.pose, gh.width, gh.depth), { class: ['mc-ghost', gh.bad && 'bad'], 'data-testid': 'mc-ghost' }));
      const c = corners(gh.pose, gh.width, gh.depth);
      svg.append(s('line', { x1: c[0].x, y1: Y(c[0].y), x2: c[1].x, y2: Y(c[1].y), class: 'mc-ghost-front' }));
    }
  }
}

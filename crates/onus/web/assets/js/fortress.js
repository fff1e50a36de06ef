// The fortress editor (Terrain & Fortresses IV and VI "Fortress design"): walls, corner
// walls, walls with a gate and towers, and the defender's other works (watchtowers,
// villages, trenches, barricades, caltrops) placed on a table drawn in DU, snapped end to
// end, turned a quarter, moved and deleted. After each change the engine judges the design
// (`POST /api/onus/battlefields/check`): the fortress's price and each side's structure
// points, every broken rule with its line, field and rule, and the battlefield file it reads,
// which the editor saves. Loads a file or starts from a shipped battlefield.
//
// The editor decides nothing: the prices, the tiles' sizes and whether a design may be built
// are the engine's answer; this module only draws, places by geometry and sends.
//
// A siege on the fortress designed (T&F VI "Scenarios with fortresses"): the defender's and
// the attacker's preset armies, the battle's points, who plays first and the players; the
// engine makes the scenario (`POST /api/onus/scenarios/check`: zones, points, the
// defender's artillery, the design rules), whose setup starts the game and whose file the
// editor saves.

import { h, s, replace } from '/assets/js/dom.js';
import { modal } from '/assets/js/dialogs.js';
import { levelField } from '/assets/js/computer.js';
import { api } from './onusapi.js';

/** The kinds the palette offers, in its order; the last ones, siege towers and rams, are the
 * attacker's (T&F VI "Deployment": laid in its zone, along the southern edge). */
const PALETTE = ['wall', 'corner_wall', 'gate_wall', 'tower', 'watchtower', 'village', 'trench', 'barricade', 'caltrops', 'large_caltrops', 'siege_tower', 'ram'];
const ATTACKERS = new Set(['siege_tower', 'ram']);
/** How near (DU) a placement must be to a snap position to take it; otherwise the grid's. */
const SNAP_RADIUS = 1.5;
const GRID = 0.25;
const EPS = 1e-6;

const round = (x) => Math.round(x * 1000) / 1000;
const onGrid = (x) => Math.round(x / GRID) * GRID;

/** A blank table with one fortress of the defender's and nothing on it. */
function blank() {
  return {
    id: 'my-fortress', name: 'My fortress', width: 28, depth: 16, pieces: [],
    fortresses: [{ id: 'fortress', name: 'Fortress', owner: 'defender' }], structures: [],
  };
}

/** The axis-aligned box of a zone: [x0, y0, x1, y1] (any angle). */
function box(z) {
  const a = ((z.angle || 0) * Math.PI) / 180;
  const hw = Math.abs((z.size[0] / 2) * Math.cos(a)) + Math.abs((z.size[1] / 2) * Math.sin(a));
  const hh = Math.abs((z.size[0] / 2) * Math.sin(a)) + Math.abs((z.size[1] / 2) * Math.cos(a));
  return [z.centre[0] - hw, z.centre[1] - hh, z.centre[0] + hw, z.centre[1] + hh];
}

const boxesOverlap = (a, b) => a[0] < b[2] - EPS && b[0] < a[2] - EPS && a[1] < b[3] - EPS && b[1] < a[3] - EPS;

/**
 * Where a rectangle of `dims` (its box's width and depth) would lie against each side of
 * `other`'s box, flush with either end of that side or centred on it: the snap positions,
 * pure geometry of the tiles' sizes.
 */
function snapsAgainst(other, [w, d]) {
  const [x0, y0, x1, y1] = other;
  const xs = [x0 + w / 2, x1 - w / 2, (x0 + x1) / 2];
  const ys = [y0 + d / 2, y1 - d / 2, (y0 + y1) / 2];
  return [
    ...ys.map((y) => [x1 + w / 2, y]), ...ys.map((y) => [x0 - w / 2, y]),
    ...xs.map((x) => [x, y1 + d / 2]), ...xs.map((x) => [x, y0 - d / 2]),
  ];
}

/** The rectangles a new structure of `kind` is made of, from the engine's tile. */
function newZones(kind, tile, at, angle) {
  // A square tile turned a quarter is the same tile: written unturned.
  if (tile.exact) return [{ centre: at, size: [...tile.exact], angle: tile.exact[0] === tile.exact[1] ? 0 : angle }];
  if (tile.halves) {
    // Two halves of the smallest size, side by side.
    const [w, d] = tile.halves.min;
    return [{ centre: [at[0] - w / 2, at[1]], size: [w, d], angle: 0 }, { centre: [at[0] + w / 2, at[1]], size: [w, d], angle: 0 }];
  }
  const side = tile.area.max_side;
  return [{ centre: at, size: [side, round(tile.area.max / side)], angle }];
}

/**
 * The siege on the battlefield edited (T&F VI): its form, and the engine's answer for the
 * design (`siege.ask(battlefieldToml)` after each check of the battlefield). `start(body,
 * mode)` creates the game (the lobby's).
 */
function siegeSection(cat, start, onAnswer) {
  const presets = cat?.presets || [];
  const option = (p) => h('option', { value: p.id }, `${p.name} — ${p.value}/${p.points} pts`);
  const defenderSel = h('select', { 'data-testid': 'siege-defender', 'aria-label': 'The defender\'s army (seat 1)' }, presets.map(option));
  const attackerSel = h('select', { 'data-testid': 'siege-attacker', 'aria-label': 'The attacker\'s army (seat 0)' }, presets.map(option));
  const first1000 = presets.find((p) => p.points === 1000) || presets[0];
  if (first1000) defenderSel.value = first1000.id;
  const other = presets.find((p) => p.points === 1000 && p.faction !== first1000?.faction);
  if (other) attackerSel.value = other.id;
  const pointsIn = h('input', { type: 'number', min: '1', max: '100000', step: '10', value: '2000', class: 'narrow', 'data-testid': 'siege-points', 'aria-label': 'The battle\'s points' });
  const firstSel = h('select', { 'data-testid': 'siege-first', 'aria-label': 'Who plays first' },
    h('option', { value: 'attacker' }, 'the attacker (VI)'), h('option', { value: 'defender' }, 'the defender'));
  const modes = [
    ['hotseat', 'Hotseat', 'both players at this browser'],
    ['online', 'Online', 'a secret link for each seat'],
    ['computer', 'Vs computer', 'the computer defends (seat 1)'],
  ].map(([v, label, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'siege-mode', value: v, checked: i === 0, 'data-testid': `siege-mode-${v}` }), ` ${label}`, h('span', { class: 'muted' }, ` — ${hint}`)));
  const computer = levelField();
  const verdict = h('div', { class: 'fortress-verdict', 'data-testid': 'siege-verdict', role: 'status' });
  const tomlBox = h('textarea', { rows: 6, readonly: true, 'data-testid': 'siege-toml', 'aria-label': 'The siege scenario file' });
  const save = h('a', { class: 'button', 'data-testid': 'siege-save', download: 'my-siege.toml' }, 'Save siege TOML');
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'siege-error' });
  const startButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'siege-start', disabled: true }, 'Start the siege');
  let battlefield = null;
  let answer = null;
  let asked = 0;

  function show() {
    const a = answer;
    startButton.disabled = !a?.ok;
    if (!a) return;
    const sp = a.spending;
    const spent = (who, x) => (x ? h('li', { 'data-testid': `siege-spent-${who}` },
      `${who === 'defender' ? 'Defender (seat 1)' : 'Attacker (seat 0)'}: army ${x.army} + structures ${x.structures} = `,
      h('strong', {}, String(x.total)), ` of ${a.scenario?.points ?? pointsIn.value} points`) : null);
    const problems = a.problems || [];
    replace(verdict,
      sp ? h('ul', { class: 'siege-spending' }, spent('defender', sp.defender), spent('attacker', sp.attacker)) : null,
      a.ok
        ? h('p', { class: 'editor-ok', 'data-testid': 'siege-ok' }, `The engine accepts this siege: ${a.scenario.name}.`)
        : h('ul', { class: 'fortress-problems', 'data-testid': 'siege-problems' }, problems.map((p) => h('li', { class: 'fortress-problem', 'data-testid': 'siege-problem' },
          p.column != null ? h('span', { class: 'where' }, `line ${p.line}${p.field ? ` · ${p.field}` : ''}: `) : null, p.message, p.rule ? h('span', { class: 'rule' }, ` [${p.rule}]`) : null))));
    tomlBox.value = a.toml || '';
    if (save.href) URL.revokeObjectURL(save.href);
    if (a.toml) {
      save.href = URL.createObjectURL(new Blob([a.toml], { type: 'application/toml' }));
      save.download = `${a.scenario?.id || 'siege'}.toml`;
    } else save.removeAttribute('href');
  }

  async function ask(toml) {
    if (toml !== undefined) battlefield = toml;
    if (!battlefield) {
      answer = null;
      startButton.disabled = true;
      return;
    }
    const mine = ++asked;
    const design = {
      battlefield, defender: defenderSel.value, attacker: attackerSel.value,
      points: Math.max(1, Math.round(Number(pointsIn.value) || 0)), first: firstSel.value,
    };
    let a;
    try {
      a = await api.post('/scenarios/check', { design });
    } catch (e) {
      if (mine === asked) replace(errorBox, `The server could not check the siege: ${e.message}`);
      return;
    }
    if (mine !== asked) return;
    replace(errorBox);
    answer = a;
    window.__acies = window.__acies || {};
    window.__acies.siege = { answer: a, design, checks: mine };
    show();
    onAnswer?.();
  }

  startButton.addEventListener('click', async () => {
    if (!answer?.ok || !start) return;
    const mode = box.querySelector('input[name=siege-mode]:checked')?.value || 'hotseat';
    const body = { setup: JSON.parse(JSON.stringify(answer.setup)) };
    if (mode === 'computer') body.seats = [{ seat: '1', kind: 'computer', name: 'computer', level: computer.level() }];
    startButton.disabled = true;
    replace(errorBox);
    try {
      await start(body, mode);
    } catch (e) {
      replace(errorBox, e.describe ? e.describe() : e.message);
    } finally {
      startButton.disabled = !answer?.ok;
    }
  });
  for (const el of [defenderSel, attackerSel, firstSel]) el.addEventListener('change', () => ask());
  pointsIn.addEventListener('change', () => ask());

  const box = h('fieldset', { class: 'fortress-siege', 'data-testid': 'fortress-siege' },
    h('legend', {}, 'A siege on this fortress (T&F VI)'),
    h('label', {}, 'Defender (seat 1) ', defenderSel),
    h('label', {}, 'Attacker (seat 0) ', attackerSel),
    h('label', {}, 'Points ', pointsIn),
    h('label', {}, 'First turn: ', firstSel),
    h('div', { class: 'siege-modes' }, modes, computer.box),
    verdict,
    errorBox,
    h('p', { class: 'tools' }, startButton, ' ', save),
    h('details', {}, h('summary', {}, 'The siege scenario file'), tomlBox),
    h('p', { class: 'muted' }, 'The engine lays the zones: the attacker along the southern edge, the defender in and around its structures.'));
  computer.follow(box);
  // The deployment zones the engine laid for the siege, the last it made (kept while a
  // change is refused, so that what to move back into them stays in view).
  let laid = [];
  const zones = () => {
    if (answer?.scenario) laid = [['attacker', answer.scenario.attacker.zone], ['defender', answer.scenario.defender.zone]];
    else if (!battlefield) laid = [];
    return laid;
  };
  return { box, ask, zones };
}

/** Opens the editor in a dialog; `cat` (the catalog) and `start(body, mode)` (the lobby's
 * game creation) offer a siege on the fortress designed. */
export function openFortressEditor({ cat = null, start = null } = {}) {
  let bf = blank();
  let answer = null;
  let selected = null; // a structure's id
  let tool = 'wall'; // the kind new elements are, or null: select and move
  let toolAngle = 0;
  let material = 'wood';
  let checking = 0;
  const kinds = () => new Map((answer?.kinds || []).map((k) => [k.id, k]));
  // The siege on it, when the lobby opened the editor; the dialog closes as the game starts.
  let dlg = null;
  const siege = start ? siegeSection(cat, async (body, mode) => {
    await start(body, mode);
    dlg?.close();
  }, () => drawTable()) : null;

  const svg = s('svg', { class: 'fortress-svg', 'data-testid': 'fortress-table', role: 'img', 'aria-label': 'The table, in DU' });
  const tableBox = h('div', { class: 'fortress-table', tabindex: '0', 'aria-label': 'The table: click to place or move; R turns, Delete removes, arrows nudge' }, svg);
  const palette = h('div', { class: 'fortress-palette', role: 'toolbar', 'aria-label': 'Elements' });
  const priceBox = h('div', { class: 'fortress-price', 'data-testid': 'fortress-price', 'aria-live': 'polite' });
  const verdict = h('div', { class: 'fortress-verdict', 'data-testid': 'fortress-verdict', role: 'status' });
  const pickedBox = h('div', { class: 'fortress-picked', 'data-testid': 'fortress-picked' });
  const tomlBox = h('textarea', { rows: 8, readonly: true, 'data-testid': 'fortress-toml', 'aria-label': 'The battlefield file' });
  const save = h('a', { class: 'button', 'data-testid': 'fortress-save', download: 'my-fortress.toml' }, 'Save TOML');
  const startSel = h('select', { 'data-testid': 'fortress-start', 'aria-label': 'Start from' }, h('option', { value: '' }, 'A blank table'));
  const xIn = h('input', { type: 'number', step: '0.25', value: '14', class: 'narrow', 'data-testid': 'fortress-x', 'aria-label': 'x (DU)' });
  const yIn = h('input', { type: 'number', step: '0.25', value: '8', class: 'narrow', 'data-testid': 'fortress-y', 'aria-label': 'y (DU)' });

  const fortressOf = () => bf.fortresses[0] || null;
  const structure = (id) => bf.structures.find((x) => x.id === id);

  // ---- editing (geometry only) ----

  function freeId(kind) {
    const stem = kind.replaceAll('_', '-');
    let n = 1;
    while (bf.structures.some((x) => x.id === `${stem}-${n}`)) n += 1;
    return `${stem}-${n}`;
  }

  /** The nearest snap position for a single-rectangle structure at `at`, else the grid's. */
  function snap(zone, at, except) {
    const b = box(zone);
    const dims = [b[2] - b[0], b[3] - b[1]];
    const others = bf.structures.filter((x) => x.id !== except).flatMap((x) => x.zones.map(box));
    let best = null;
    for (const o of others) {
      for (const c of snapsAgainst(o, dims)) {
        const cb = [c[0] - dims[0] / 2, c[1] - dims[1] / 2, c[0] + dims[0] / 2, c[1] + dims[1] / 2];
        if (others.some((q) => boxesOverlap(q, cb))) continue;
        const dist = Math.hypot(c[0] - at[0], c[1] - at[1]);
        if (dist <= SNAP_RADIUS && (!best || dist < best.dist - EPS)) best = { c, dist };
      }
    }
    return best ? best.c.map(round) : at.map(onGrid);
  }

  function moveTo(st, at) {
    const c = st.zones[0].centre;
    const target = st.zones.length === 1 ? snap(st.zones[0], at, st.id) : at.map(onGrid);
    const dx = target[0] - c[0];
    const dy = target[1] - c[1];
    st.zones = st.zones.map((z) => ({ ...z, centre: [round(z.centre[0] + dx), round(z.centre[1] + dy)] }));
  }

  function place(at) {
    const k = kinds().get(tool);
    if (!k) return;
    let fortress = null;
    if (k.fortress_element) {
      if (!fortressOf()) bf.fortresses.push({ id: 'fortress', name: 'Fortress', owner: 'defender' });
      fortress = fortressOf().id;
    }
    const st = {
      id: freeId(tool), kind: tool,
      // Stone where the engine prices it in stone; wood otherwise.
      material: material === 'stone' && k.cost.stone != null ? 'stone' : 'wood',
      zones: newZones(tool, k.tile, [0, 0], toolAngle),
    };
    if (fortress) st.fortress = fortress;
    else if (ATTACKERS.has(tool)) st.owner = 'attacker';
    else if (tool !== 'village') st.owner = fortressOf()?.owner || 'defender';
    moveTo(st, at);
    bf.structures.push(st);
    selected = st.id;
  }

  /** A quarter turn about the structure's centre. */
  function turn(st) {
    const zs = st.zones;
    const cx = zs.reduce((a, z) => a + z.centre[0], 0) / zs.length;
    const cy = zs.reduce((a, z) => a + z.centre[1], 0) / zs.length;
    st.zones = zs.map((z) => ({
      centre: [round(cx - (z.centre[1] - cy)), round(cy + (z.centre[0] - cx))],
      size: z.size,
      angle: ((z.angle || 0) + 90) % 180,
    }));
    return st.zones[0].angle;
  }

  function nudge(dx, dy) {
    const st = structure(selected);
    if (!st) return;
    st.zones = st.zones.map((z) => ({ ...z, centre: [round(z.centre[0] + dx), round(z.centre[1] + dy)] }));
    changed();
  }

  function remove() {
    bf.structures = bf.structures.filter((x) => x.id !== selected);
    selected = null;
    changed();
  }

  function rotate() {
    const st = structure(selected);
    if (st) toolAngle = turn(st);
    else toolAngle = (toolAngle + 90) % 180;
    changed();
  }

  // ---- drawing ----

  function problemIds() {
    const bad = new Set();
    for (const p of answer?.problems || []) {
      if (p.subject === 'structure') bad.add(p.id);
      if (p.subject === 'fortress') bf.structures.filter((x) => x.fortress === p.id).forEach((x) => bad.add(x.id));
    }
    return bad;
  }

  function drawTable() {
    const W = bf.width;
    const D = bf.depth;
    svg.setAttribute('viewBox', `-0.8 -0.4 ${W + 1.2} ${D + 1.2}`);
    const Y = (y) => D - y;
    const grid = [];
    for (let x = 0; x <= W + EPS; x += 1) grid.push(s('line', { x1: x, y1: 0, x2: x, y2: D, class: x % 5 === 0 ? 'major' : '' }));
    for (let y = 0; y <= D + EPS; y += 1) grid.push(s('line', { x1: 0, y1: Y(y), x2: W, y2: Y(y), class: y % 5 === 0 ? 'major' : '' }));
    const labels = [];
    for (let x = 0; x <= W + EPS; x += 5) labels.push(s('text', { x, y: D + 0.6, class: 'axis' }, String(x)));
    for (let y = 0; y <= D + EPS; y += 5) labels.push(s('text', { x: -0.45, y: Y(y) + 0.15, class: 'axis' }, String(y)));
    const rect = (z, cls) => s('rect', {
      x: -z.size[0] / 2, y: -z.size[1] / 2, width: z.size[0], height: z.size[1], class: cls,
      transform: `translate(${z.centre[0]} ${Y(z.centre[1])}) rotate(${-(z.angle || 0)})`,
    });
    const pieces = bf.pieces.map((p) => s('g', { class: `fortress-piece terrain-${p.kind}` }, p.zones.map((z) => rect(z, 'piece'))));
    const bad = problemIds();
    const structures = bf.structures.map((st) => {
      const c = st.zones[0].centre;
      const g = s('g', {
        class: ['structure', `kind-${st.kind}`, `mat-${st.material}`, st.id === selected && 'selected', bad.has(st.id) && 'bad'],
        'data-structure': st.id, 'data-testid': `fortress-el-${st.id}`, 'data-kind': st.kind,
      }, st.zones.map((z) => rect(z, 'tile')));
      if (st.kind === 'gate_wall') g.append(rect({ ...st.zones[0], size: [st.zones[0].size[0] * 0.4, st.zones[0].size[1]] }, 'gate'));
      g.append(s('title', {}, `${st.id} (${st.kind.replaceAll('_', ' ')}, ${st.material})`));
      const mark = { tower: 'T', watchtower: 'W', siege_tower: 'S', ram: 'R' }[st.kind];
      if (mark) g.append(s('text', { x: c[0], y: Y(c[1]) + 0.15, class: 'mark' }, mark));
      return g;
    });
    // The siege's deployment zones, as the engine laid them (T&F VI "Deployment").
    const zones = (siege?.zones() || []).map(([who, z]) => s('g', { class: `siege-zone zone-${who}`, 'data-testid': `siege-zone-${who}` },
      s('rect', { x: z.x0, y: Y(z.y1), width: z.x1 - z.x0, height: z.y1 - z.y0 }),
      s('text', { x: (z.x0 + z.x1) / 2, y: Y(who === 'attacker' ? z.y0 : z.y1) + (who === 'attacker' ? -0.25 : 0.55) }, `${who}'s deployment zone`)));
    replace(svg, s('rect', { x: 0, y: 0, width: W, height: D, class: 'ground' }), s('g', { class: 'grid' }, grid), labels, zones, pieces, structures);
  }

  function drawPalette() {
    const ks = kinds();
    const button = (id, label, title) => h('button', {
      type: 'button', class: ['tool', tool === id && 'on'], 'data-testid': `fortress-tool-${id ?? 'select'}`, 'aria-pressed': String(tool === id), title,
      onclick: () => { tool = id; selected = null; draw(); },
    }, label);
    replace(palette,
      button(null, 'Select / move', 'Click an element to select it, then click the table to move it'),
      PALETTE.filter((id) => ks.has(id)).map((id) => {
        const k = ks.get(id);
        const price = k.cost.stone != null ? `${k.cost.wood} / ${k.cost.stone}` : `${k.cost.wood}`;
        return button(id, [k.name, h('span', { class: 'cost' }, ` ${price}`)], `${k.name}: ${price} points (wood${k.cost.stone != null ? ' / stone' : ''})`);
      }),
      h('button', { type: 'button', 'data-testid': 'fortress-rotate', title: 'R', onclick: rotate }, `⟳ 90° (new: ${toolAngle}°)`));
  }

  function drawPicked() {
    const st = structure(selected);
    if (!st) {
      replace(pickedBox, h('p', { class: 'muted' }, tool
        ? `Click the table (or give x, y and Place) to lay a ${tool.replaceAll('_', ' ')}; it snaps end to end against what is there.`
        : 'Click an element to select it.'));
      return;
    }
    const k = kinds().get(st.kind);
    const cost = (answer?.structures || []).find((x) => x.id === st.id)?.cost;
    const z = st.zones[0];
    replace(pickedBox,
      h('h3', {}, `${st.id}: ${k?.name || st.kind}`, cost != null ? h('span', { class: 'cost', 'data-testid': 'fortress-picked-cost' }, ` ${cost} pts`) : null),
      h('p', { class: 'muted' }, `Centre (${z.centre.join(', ')}) DU, ${z.size.join(' × ')} DU, ${z.angle || 0}°.`),
      h('div', { class: 'tools' },
        h('label', {}, 'Material ', h('select', {
          'data-testid': 'fortress-picked-material',
          onchange: (e) => { st.material = e.target.value; changed(); },
        }, ['wood', 'stone'].map((m) => h('option', { value: m, selected: st.material === m }, m)))),
        h('button', { type: 'button', 'data-testid': 'fortress-left', 'aria-label': 'Left 0.25 DU', onclick: () => nudge(-GRID, 0) }, '←'),
        h('button', { type: 'button', 'data-testid': 'fortress-right', 'aria-label': 'Right 0.25 DU', onclick: () => nudge(GRID, 0) }, '→'),
        h('button', { type: 'button', 'data-testid': 'fortress-up', 'aria-label': 'Up 0.25 DU', onclick: () => nudge(0, GRID) }, '↑'),
        h('button', { type: 'button', 'data-testid': 'fortress-down', 'aria-label': 'Down 0.25 DU', onclick: () => nudge(0, -GRID) }, '↓'),
        h('button', { type: 'button', 'data-testid': 'fortress-delete', onclick: remove }, 'Delete'),
        h('button', { type: 'button', 'data-testid': 'fortress-done', onclick: () => { selected = null; draw(); } }, 'Done')));
  }

  function drawAnswer() {
    if (!answer) return;
    const pts = answer.structure_points;
    replace(priceBox,
      (answer.fortresses || []).map((f) => h('p', { class: 'fortress-cost' },
        h('strong', {}, `${f.name}: `),
        h('span', { 'data-testid': `fortress-cost-${f.id}` }, String(f.cost)), ` points (${f.materials.join(' and ') || 'empty'}, ${f.elements} elements, the ${f.owner}'s)`)),
      pts ? h('p', {}, 'Structure points: defender ', h('strong', { 'data-testid': 'fortress-points-defender' }, String(pts.defender)),
        ', attacker ', h('strong', { 'data-testid': 'fortress-points-attacker' }, String(pts.attacker))) : null);
    const problems = answer.problems || [];
    replace(verdict, answer.ok
      ? h('p', { class: 'editor-ok', 'data-testid': 'fortress-ok' }, 'The engine accepts this design.')
      : h('ul', { class: 'fortress-problems', 'data-testid': 'fortress-problems' }, problems.map((p) => h('li', {
        class: 'fortress-problem', 'data-testid': 'fortress-problem', 'data-subject': p.subject || '', 'data-id': p.id || '',
        onclick: () => { if (p.subject === 'structure' && structure(p.id)) { selected = p.id; tool = null; draw(); } },
      }, h('span', { class: 'where' }, `line ${p.line}${p.field ? ` · ${p.field}` : ''}: `), p.message, p.rule ? h('span', { class: 'rule' }, ` [${p.rule}]`) : null))));
    tomlBox.value = answer.toml || '';
    if (save.href) URL.revokeObjectURL(save.href);
    save.href = URL.createObjectURL(new Blob([answer.toml || ''], { type: 'application/toml' }));
    save.download = `${bf.id || 'fortress'}.toml`;
    if (startSel.options.length === 1) {
      for (const b of answer.shipped || []) startSel.append(h('option', { value: b.id }, `${b.name} (${b.width} × ${b.depth} DU)`));
    }
  }

  function draw() {
    drawTable();
    drawPalette();
    drawPicked();
    drawAnswer();
    head.sync();
  }

  // ---- the engine ----

  /** Asks the engine about `body`; `adopt`: take its battlefield as the one edited. */
  async function ask(body, adopt = false) {
    const mine = ++checking;
    let a;
    try {
      a = await api.post('/battlefields/check', body);
    } catch (e) {
      if (mine === checking) replace(verdict, h('p', { class: 'form-error', 'data-testid': 'fortress-error' }, `The server could not check it: ${e.message}`));
      return;
    }
    if (mine !== checking) return;
    answer = a;
    siege?.ask(a.toml || null);
    if (adopt && a.battlefield) {
      bf = { pieces: [], structures: [], fortresses: [], ...a.battlefield };
      selected = null;
    }
    window.__acies = window.__acies || {};
    window.__acies.fortress = { answer: a, battlefield: bf, checks: mine };
    draw();
  }

  function changed() {
    draw();
    ask({ battlefield: bf });
  }

  // ---- the head: table, owner, material ----

  const num = (label, testid, get, set) => {
    const input = h('input', {
      type: 'number', step: '1', min: '8', max: '60', class: 'narrow', 'data-testid': testid, 'aria-label': label,
      onchange: (e) => { const v = Number(e.target.value); if (Number.isFinite(v)) { set(v); changed(); } },
    });
    return { input, sync: () => { if (document.activeElement !== input) input.value = get(); } };
  };
  const width = num('Table width (DU)', 'fortress-width', () => bf.width, (v) => { bf.width = v; });
  const depth = num('Table depth (DU)', 'fortress-depth', () => bf.depth, (v) => { bf.depth = v; });
  const nameIn = h('input', { 'data-testid': 'fortress-name', 'aria-label': 'Name', onchange: (e) => { bf.name = e.target.value; changed(); } });
  const ownerSel = h('select', {
    'data-testid': 'fortress-owner', 'aria-label': 'Owner',
    onchange: (e) => {
      const f = fortressOf();
      if (f) f.owner = e.target.value;
      changed();
    },
  }, ['defender', 'attacker'].map((o) => h('option', { value: o }, o)));
  const agreed = h('input', {
    type: 'checkbox', 'data-testid': 'fortress-agreed',
    onchange: (e) => { const f = fortressOf(); if (f) f.stone_towers_agreed = e.target.checked; changed(); },
  });
  const materialSel = h('select', {
    'data-testid': 'fortress-material', 'aria-label': 'Material of new elements',
    onchange: (e) => { material = e.target.value; },
  }, ['wood', 'stone'].map((m) => h('option', { value: m }, m)));
  const head = h('div', { class: 'fortress-head' },
    h('label', {}, 'Start from ', startSel),
    h('label', {}, 'Name ', nameIn),
    h('label', {}, 'Table ', width.input, ' × ', depth.input, ' DU'),
    h('label', {}, 'Owner ', ownerSel),
    h('label', {}, 'New elements of ', materialSel),
    h('label', { title: 'T&F VI "Fortress types": stone towers in a wooden fortress, if both sides agree' }, agreed, ' stone towers agreed'));
  head.sync = () => {
    width.sync();
    depth.sync();
    if (document.activeElement !== nameIn) nameIn.value = bf.name;
    const f = fortressOf();
    ownerSel.value = f?.owner || 'defender';
    agreed.checked = !!f?.stone_towers_agreed;
  };
  startSel.addEventListener('change', () => {
    if (startSel.value) ask({ shipped: startSel.value }, true);
    else { bf = blank(); selected = null; changed(); }
  });

  const placeButton = h('button', {
    type: 'button', 'data-testid': 'fortress-place',
    onclick: () => {
      const at = [Number(xIn.value), Number(yIn.value)];
      if (!at.every(Number.isFinite)) return;
      const st = structure(selected);
      if (tool) place(at);
      else if (st) moveTo(st, at);
      changed();
    },
  }, 'Place / move');

  // ---- the table's pointer and keys ----

  svg.addEventListener('click', (ev) => {
    const hit = ev.target.closest?.('[data-structure]')?.dataset.structure;
    if (hit && !tool) {
      selected = hit;
      draw();
      return;
    }
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
    const at = [p.x, bf.depth - p.y];
    const st = structure(selected);
    if (tool) place(at);
    else if (st) moveTo(st, at);
    else return;
    changed();
  });
  tableBox.addEventListener('keydown', (ev) => {
    const keys = {
      r: rotate, R: rotate, Delete: remove, Backspace: remove, Escape: () => { selected = null; tool = null; draw(); },
      ArrowLeft: () => nudge(-GRID, 0), ArrowRight: () => nudge(GRID, 0), ArrowUp: () => nudge(0, GRID), ArrowDown: () => nudge(0, -GRID),
    };
    if (!keys[ev.key]) return;
    ev.preventDefault();
    keys[ev.key]();
  });

  // ---- loading a file ----

  const loadText = h('textarea', { rows: 5, 'data-testid': 'fortress-load-text', 'aria-label': 'A battlefield file to load', placeholder: '[battlefield]\nid = "..."' });
  const loadFile = h('input', {
    type: 'file', accept: '.toml,text/plain', 'data-testid': 'fortress-load-file', 'aria-label': 'Choose a battlefield file',
    onchange: async (e) => { const f = e.target.files?.[0]; if (f) { loadText.value = await f.text(); ask({ toml: loadText.value }, true); } },
  });
  const load = h('details', { class: 'fortress-load' }, h('summary', { 'data-testid': 'fortress-load' }, 'Load TOML'),
    loadFile, loadText,
    h('button', { type: 'button', 'data-testid': 'fortress-load-button', onclick: () => ask({ toml: loadText.value }, true) }, 'Load'));

  const body = h('div', { class: 'fortress-editor', 'data-testid': 'fortress-editor' },
    head,
    palette,
    h('div', { class: 'fortress-main' },
      tableBox,
      h('div', { class: 'fortress-side' },
        priceBox,
        verdict,
        h('div', { class: 'fortress-at' }, 'x ', xIn, ' y ', yIn, ' DU ', placeButton),
        pickedBox,
        siege?.box,
        h('p', { class: 'tools' }, save),
        load,
        h('details', {}, h('summary', {}, 'The battlefield file'), tomlBox))));
  dlg = modal({ title: 'Fortress editor', body, testid: 'fortress-editor-dialog', wide: true });
  changed();
  return dlg;
}

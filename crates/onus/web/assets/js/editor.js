// The battlefield editor (Terrain & Fortresses): place, move, rotate, resize and delete
// terrain pieces on a table of chosen size, each change checked by the engine as you go
// (`POST /api/onus/battlefields/check`, every rule of laying terrain), saved as the same TOML
// the engine reads, and handed to the new-battle form to fight on.
//
// The editor decides nothing: the engine's answer says whether the battlefield is valid and
// why not; this module only draws, edits numbers and writes the file.

import { h, replace } from '/assets/js/dom.js';
import { modal } from '/assets/js/dialogs.js';
import { api } from './onusapi.js';
import { TableView } from './table.js';

/** Each kind a new piece may be, with its size when placed (DU) and its extra fields. */
const NEW_PIECE = {
  forest: { size: [4, 3] },
  hill: { size: [5, 3.5], top: 0.5 },
  mountain: { size: [5, 3] },
  lake: { size: [3, 2] },
  river: { size: [6, 1.5] },
  ford: { size: [3, 1.5] },
  bridge: { size: [1, 2.5], material: 'wood', sections: 2 },
  choke_point: { size: [1, 3], sections: 2 },
};

const round = (x) => Math.round(x * 100) / 100;

/** A battlefield as a TOML file (the layout of `data/onus/battlefields/*.toml`). */
export function battlefieldToml(bf) {
  const q = (x) => JSON.stringify(String(x));
  const nums = (a) => `[${a.map(round).join(', ')}]`;
  const zone = (header, z) => `[[${header}]]\ncentre = ${nums(z.centre)}\nsize = ${nums(z.size)}\nangle = ${round(z.angle || 0)}\n`;
  const out = [
    '# A battlefield made with the acies battlefield editor.',
    '',
    '[battlefield]',
    `id = ${q(bf.id)}`,
    `name = ${q(bf.name)}`,
    `table = ${nums([bf.width, bf.depth])}`,
    ...(bf.fordable_rivers ? ['fordable_rivers = true'] : []),
    '',
  ];
  for (const p of bf.pieces) {
    out.push('[[piece]]', `id = ${q(p.id)}`, `name = ${q(p.name)}`, `kind = ${q(p.kind)}`);
    if (p.material) out.push(`material = ${q(p.material)}`);
    if (p.sections) out.push(`sections = ${p.sections}`);
    out.push(...p.zones.map((z) => zone('piece.zone', z)));
    out.push(...(p.top || []).map((z) => zone('piece.top', z)));
  }
  return out.join('\n');
}

/** A new piece of `kind` centred at `at`, with an id not yet used on `bf`. */
function newPiece(bf, kind, at) {
  const spec = NEW_PIECE[kind];
  let n = 1;
  while (bf.pieces.some((p) => p.id === `${kind.replace('_', '-')}-${n}`)) n += 1;
  const id = `${kind.replace('_', '-')}-${n}`;
  const centre = [round(at.x), round(at.y)];
  const piece = { id, name: `${kind.replace('_', ' ')} ${n}`, kind, zones: [{ centre, size: [...spec.size], angle: 0 }] };
  if (spec.top) piece.top = [{ centre: [...centre], size: spec.size.map((s) => s * spec.top), angle: 0 }];
  if (spec.material) piece.material = spec.material;
  if (spec.sections) piece.sections = spec.sections;
  return piece;
}

/** Every zone of a piece (its top too) moved by `d` or turned about the piece's centre. */
function transform(piece, { dx = 0, dy = 0, turn = 0, grow = 0 }) {
  const c = piece.zones[0].centre;
  const rad = (turn * Math.PI) / 180;
  const moveZone = (z) => {
    const rx = z.centre[0] - c[0];
    const ry = z.centre[1] - c[1];
    const x = c[0] + rx * Math.cos(rad) - ry * Math.sin(rad) + dx;
    const y = c[1] + rx * Math.sin(rad) + ry * Math.cos(rad) + dy;
    let angle = (z.angle || 0) + turn;
    if (angle > 180) angle -= 360;
    if (angle < -180) angle += 360;
    return { centre: [round(x), round(y)], size: z.size.map((s) => round(Math.max(0.25, s + grow))), angle };
  };
  piece.zones = piece.zones.map(moveZone);
  if (piece.top) piece.top = piece.top.map(moveZone);
}

/**
 * Opens the editor in a dialog. `start`: a battlefield to edit (or none: an empty 22 x 18
 * table); `onUse(toml, battlefield)`: the user chose to fight on it (only offered when the
 * engine accepts it).
 */
export function openEditor({ start, onUse }) {
  const bf = start ? structuredClone(start) : { id: 'my-battlefield', name: 'My battlefield', width: 22, depth: 18, pieces: [] };
  let picked = null;
  let bad = new Set();
  let accepted = null;
  let checking = 0;

  const tableBox = h('div', { class: 'editor-table', 'data-testid': 'editor-table' });
  const kindSel = h('select', { 'data-testid': 'editor-kind', 'aria-label': 'Kind of the new piece' },
    Object.keys(NEW_PIECE).map((k) => h('option', { value: k }, k.replace('_', ' '))));
  const newAt = { x: bf.width / 2, y: bf.depth / 2 };
  const coord = (axis, testid) => h('input', {
    type: 'number', step: '0.5', value: newAt[axis], class: 'narrow', 'data-testid': testid, 'aria-label': `New piece ${axis} (DU)`,
    oninput: (e) => { const v = Number(e.target.value); if (Number.isFinite(v)) newAt[axis] = v; },
  });
  const addButton = h('button', {
    type: 'button', 'data-testid': 'editor-add',
    onclick: () => { const p = newPiece(bf, kindSel.value, newAt); bf.pieces.push(p); picked = p.id; changed(); },
  }, 'Add');
  const status = h('div', { 'data-testid': 'editor-status', role: 'status' });
  const tomlBox = h('textarea', { rows: 10, readonly: true, 'data-testid': 'editor-toml', 'aria-label': 'The battlefield file' });
  const pickedBox = h('div', { 'data-testid': 'editor-picked' });
  const download = h('a', { 'data-testid': 'editor-download' }, 'Download the TOML file');
  const useButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'editor-use', disabled: true }, 'Fight on this battlefield');
  const numberInput = (label, value, testid, set) => h('label', {}, `${label} `, h('input', {
    type: 'number', step: '0.5', value, class: 'narrow', 'data-testid': testid,
    oninput: (e) => { const v = Number(e.target.value); if (Number.isFinite(v)) { set(v); changed(); } },
  }));
  const head = h('div', { class: 'editor-head' },
    h('label', {}, 'Name ', h('input', { value: bf.name, 'data-testid': 'editor-name', oninput: (e) => { bf.name = e.target.value; changed(); } })),
    h('label', {}, ' Id ', h('input', { value: bf.id, class: 'narrow', 'data-testid': 'editor-id', oninput: (e) => { bf.id = e.target.value; changed(); } })),
    numberInput(' Width', bf.width, 'editor-width', (v) => { bf.width = v; }),
    numberInput(' Depth', bf.depth, 'editor-depth', (v) => { bf.depth = v; }),
    ' DU ',
    h('label', { title: 'Terrain & Fortresses III "Rivers": a scenario may treat its rivers as fords' },
      h('input', { type: 'checkbox', checked: !!bf.fordable_rivers, 'data-testid': 'editor-fordable', onchange: (e) => { bf.fordable_rivers = e.target.checked; changed(); } }),
      ' rivers fordable'));

  const table = new TableView(tableBox, {
    onUnitClick: () => {},
    onBackgroundClick: (world, _ev, terrainId) => {
      if (terrainId) {
        picked = terrainId;
      } else if (picked) {
        const p = bf.pieces.find((x) => x.id === picked);
        if (p) transform(p, { dx: world.x - p.zones[0].centre[0], dy: world.y - p.zones[0].centre[1] });
      } else {
        const p = newPiece(bf, kindSel.value, world);
        bf.pieces.push(p);
        picked = p.id;
      }
      changed();
    },
  });

  const pickedPiece = () => bf.pieces.find((p) => p.id === picked);
  const edit = (change) => () => {
    const p = pickedPiece();
    if (p) transform(p, change);
    changed();
  };
  function renderPicked() {
    const p = pickedPiece();
    if (!p) {
      replace(pickedBox, h('p', { class: 'muted' }, 'Click the table to place a piece of the kind chosen; click a piece to pick it.'));
      return;
    }
    const z = p.zones[0];
    // Exact numbers for the first rectangle: its centre moves the whole piece, its size and
    // angle are its own.
    const field = (label, value, testid, apply) => h('label', {}, ` ${label} `, h('input', {
      type: 'number', step: '0.5', value, class: 'narrow', 'data-testid': testid,
      onchange: (e) => { const v = Number(e.target.value); if (Number.isFinite(v)) { apply(v); changed(); } },
    }));
    replace(pickedBox,
      h('h3', {}, `${p.name} (${p.kind.replace('_', ' ')})`),
      h('label', {}, 'Name ', h('input', { value: p.name, 'data-testid': 'editor-piece-name', onchange: (e) => { p.name = e.target.value; changed(); } })),
      h('div', {},
        field('x', z.centre[0], 'editor-x', (v) => transform(p, { dx: v - z.centre[0] })),
        field('y', z.centre[1], 'editor-y', (v) => transform(p, { dy: v - z.centre[1] })),
        field('width', z.size[0], 'editor-w', (v) => { z.size[0] = Math.max(0.25, v); }),
        field('depth', z.size[1], 'editor-d', (v) => { z.size[1] = Math.max(0.25, v); }),
        field('angle', z.angle || 0, 'editor-angle', (v) => transform(p, { turn: v - (z.angle || 0) }))),
      h('div', { class: 'tools' },
        h('button', { type: 'button', 'data-testid': 'editor-left', onclick: edit({ dx: -0.5 }) }, '← 0.5'),
        h('button', { type: 'button', 'data-testid': 'editor-right', onclick: edit({ dx: 0.5 }) }, '→ 0.5'),
        h('button', { type: 'button', 'data-testid': 'editor-up', onclick: edit({ dy: 0.5 }) }, '↑ 0.5'),
        h('button', { type: 'button', 'data-testid': 'editor-down', onclick: edit({ dy: -0.5 }) }, '↓ 0.5'),
        h('button', { type: 'button', 'data-testid': 'editor-rotate-left', onclick: edit({ turn: 15 }) }, '⟲ 15°'),
        h('button', { type: 'button', 'data-testid': 'editor-rotate-right', onclick: edit({ turn: -15 }) }, '⟳ 15°'),
        h('button', { type: 'button', 'data-testid': 'editor-grow', onclick: edit({ grow: 0.5 }) }, 'larger'),
        h('button', { type: 'button', 'data-testid': 'editor-shrink', onclick: edit({ grow: -0.5 }) }, 'smaller'),
        h('button', {
          type: 'button', 'data-testid': 'editor-delete',
          onclick: () => { bf.pieces = bf.pieces.filter((x) => x !== p); picked = null; changed(); },
        }, 'Delete'),
        h('button', { type: 'button', 'data-testid': 'editor-unpick', onclick: () => { picked = null; changed(); } }, 'Done')),
      h('p', { class: 'muted' }, `Centre (${z.centre.join(', ')}) DU, ${z.size.join(' × ')} DU, ${z.angle || 0}°. Click the table to move it there.`));
  }

  function draw() {
    const view = { width: bf.width, depth: bf.depth, units: [], engagements: [], players: [], terrain: bf };
    table.render({ view, highlights: new Map(), lines: [], zones: [], pickedTerrain: picked, badTerrain: bad });
    renderPicked();
    const toml = battlefieldToml(bf);
    tomlBox.value = toml;
    download.href = URL.createObjectURL(new Blob([toml], { type: 'application/toml' }));
    download.download = `${bf.id || 'battlefield'}.toml`;
  }

  async function check() {
    const mine = ++checking;
    let answer;
    try {
      answer = await api.post('/battlefields/check', { toml: battlefieldToml(bf) });
    } catch (e) {
      replace(status, h('p', { class: 'form-error' }, `The server could not check it: ${e.message}`));
      return;
    }
    if (mine !== checking) return;
    accepted = answer.ok ? answer.battlefield : null;
    const errors = answer.problems || [];
    bad = new Set(errors.map((e) => /piece "([^"]+)"/.exec(e.field || '')?.[1]).filter(Boolean));
    useButton.disabled = !accepted;
    replace(status, accepted
      ? h('p', { class: 'editor-ok', 'data-testid': 'editor-valid' }, `The engine accepts it: ${bf.pieces.length} pieces.`)
      : h('ul', { class: 'editor-errors', 'data-testid': 'editor-errors' }, errors.map((e) => h('li', {}, `${e.field ? `${e.field}: ` : ''}${e.message}`))));
    draw();
  }

  function changed() {
    draw();
    check();
  }

  const body = h('div', { class: 'editor', 'data-testid': 'battlefield-editor' },
    h('div', {}, head, tableBox),
    h('div', {},
      h('div', {}, h('label', {}, 'New piece ', kindSel), ' at x ', coord('x', 'editor-new-x'), ' y ', coord('y', 'editor-new-y'), ' ', addButton),
      pickedBox, status, useButton, h('p', {}, download), tomlBox));
  const dlg = modal({ title: 'Battlefield editor', body, testid: 'editor-dialog', wide: true });
  useButton.addEventListener('click', () => {
    if (!accepted) return;
    onUse(battlefieldToml(bf), accepted);
    dlg.close();
  });
  changed();
  return dlg;
}

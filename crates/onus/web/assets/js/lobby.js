// The lobby: create a game (preset armies or a pasted list, points, optional rules of XII-A,
// hotseat / online / vs computer), the games this browser holds, and opening a link.

import { api, catalog, ApiError } from './api.js';
import { h, replace, toast, copyText, words } from './dom.js';
import { armyListFrom } from './toml.js';
import { loadGames, rememberGame, forgetGame } from './mygames.js';

function sideForm(cat, index, state) {
  const presetSel = h('select', { 'data-testid': `army-${index}`, 'aria-label': `Army of seat ${index}` });
  const paste = h('textarea', {
    rows: 8, class: 'paste', 'data-testid': `army-paste-${index}`, 'aria-label': `Army list of seat ${index} (TOML or JSON)`,
    placeholder: '[army]\nid = "my-army"\nname = "My army"\nfaction = "romans"\ngeneral = "trajan"\npoints = 1000\n\n[[unit]]\nid = "legionaries"\ncount = 4',
  });
  const pasteBox = h('div', { class: 'paste-box', hidden: true }, paste,
    h('div', { class: 'muted' }, 'The [army] and [[unit]] layout of data/onus/armies/*.toml, or the same as JSON. The server checks it.'));
  const fill = () => {
    const pts = state.points;
    replace(presetSel,
      (cat.presets || []).filter((p) => !pts || p.points === pts).map((p) => h('option', { value: p.id }, `${p.name} — ${cat.factions.find((f) => f.id === p.faction)?.name || p.faction}, ${p.value}/${p.points} pts`)),
      h('option', { value: '__paste' }, 'My own army list (paste TOML or JSON)…'));
    const wanted = (cat.presets || []).filter((p) => !pts || p.points === pts);
    if (wanted[index % Math.max(wanted.length, 1)] && index === 1 && wanted.length > 1) {
      // A different army for the second seat by default.
      const first = wanted.find((p) => p.faction !== wanted[0].faction);
      if (first) presetSel.value = first.id;
    }
    pasteBox.hidden = presetSel.value !== '__paste';
  };
  presetSel.addEventListener('change', () => {
    pasteBox.hidden = presetSel.value !== '__paste';
  });
  state.refill.push(fill);
  fill();
  state.sides[index] = () => {
    if (presetSel.value === '__paste') return { army: { inline: armyListFrom(paste.value, state.points) } };
    return { army: { preset: presetSel.value } };
  };
  return h('fieldset', { class: 'side-form' }, h('legend', {}, `Seat ${index}`), h('label', {}, 'Army ', presetSel), pasteBox);
}

function optionInputs(cat, state) {
  const boxes = [];
  for (const o of cat.options || []) {
    const label = o.title || words(o.key);
    if (o.type === 'bool') {
      boxes.push(h('label', { class: 'opt', title: o.rule || '' },
        h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}`, onchange: (e) => { if (e.target.checked) state.options[o.key] = true; else delete state.options[o.key]; } }),
        ` ${label}`, o.rule ? h('span', { class: 'rule' }, ` ${o.rule}`) : null));
    } else if (o.type === 'number') {
      const num = h('input', { type: 'number', step: '0.5', min: '0', value: o.default ?? 6, class: 'narrow', 'aria-label': `${label} (${o.unit || ''})` });
      const box = h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}` });
      const sync = () => { if (box.checked) state.options[o.key] = Number(num.value); else delete state.options[o.key]; };
      box.addEventListener('change', sync);
      num.addEventListener('input', sync);
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, box, ` ${label} `, num, ` ${o.unit || ''}`, o.rule ? h('span', { class: 'rule' }, ` ${o.rule}`) : null));
    } else if (o.type === 'enum') {
      const sel = h('select', { 'data-testid': `opt-${o.key}`, onchange: (e) => { state.options[o.key] = e.target.value; } },
        (o.values || []).map((v) => h('option', { value: v }, words(v))));
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, `${label} `, sel));
    } else if (o.type === 'object' || o.fields) {
      // e.g. limited visibility {max_range, penalty_beyond}
      const fields = o.fields || [];
      const box = h('input', { type: 'checkbox', 'data-testid': `opt-${o.key}` });
      const inputs = fields.map((f) => h('input', { type: 'number', step: '0.5', min: '0', value: f.default ?? 6, class: 'narrow', 'aria-label': f.title || f.key }));
      const sync = () => {
        if (!box.checked) delete state.options[o.key];
        else state.options[o.key] = Object.fromEntries(fields.map((f, i) => [f.key, Number(inputs[i].value)]));
      };
      box.addEventListener('change', sync);
      inputs.forEach((i) => i.addEventListener('input', sync));
      boxes.push(h('label', { class: 'opt', title: o.rule || '' }, box, ` ${label} `, fields.map((f, i) => [` ${f.title || words(f.key)} `, inputs[i]])));
    }
  }
  return boxes;
}

function newGameForm(cat, onCreated) {
  const state = { sides: [], refill: [], options: {}, points: 1000 };
  const pointsSel = h('select', { 'data-testid': 'points', 'aria-label': 'Points', onchange: (e) => { state.points = Number(e.target.value); state.refill.forEach((f) => f()); } },
    [...new Set((cat.presets || []).map((p) => p.points))].sort((a, b) => a - b).map((p) => h('option', { value: p, selected: p === 1000 }, `${p} points`)));
  const modeInputs = [
    ['hotseat', 'Hotseat', 'both players at this browser'],
    ['online', 'Online', 'a secret link for each seat, to share'],
    ['computer', 'Vs computer', 'the scripted opponent plays seat 1'],
  ].map(([v, label, hint], i) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'mode', value: v, checked: i === 0, 'data-testid': `mode-${v}` }), ` ${label}`, h('span', { class: 'muted' }, ` — ${hint}`)));
  const errorBox = h('div', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
  const button = h('button', { class: 'primary', type: 'submit', 'data-testid': 'create-game' }, 'Create the game');
  const form = h('form', { class: 'new-game', 'data-testid': 'new-game' },
    h('h2', {}, 'New battle'),
    h('label', {}, 'Size ', pointsSel),
    h('div', { class: 'sides' }, sideForm(cat, 0, state), sideForm(cat, 1, state)),
    h('label', { class: 'opt' }, 'Table depth ', h('input', {
      type: 'number', min: '8', max: '40', step: '1', class: 'narrow', placeholder: '18', 'data-testid': 'table-depth',
      'aria-label': 'Table depth in DU (empty: the default of VI)',
      oninput: (e) => { state.depth = e.target.value ? Number(e.target.value) : null; },
    }), ' DU ', h('span', { class: 'muted' }, '(empty: 18 DU, VI; less brings the armies closer)')),
    h('fieldset', {}, h('legend', {}, 'Optional rules (XII-A)'), h('div', { class: 'opts' }, optionInputs(cat, state))),
    h('fieldset', {}, h('legend', {}, 'Players'), modeInputs),
    errorBox,
    button);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    replace(errorBox);
    const mode = form.querySelector('input[name=mode]:checked').value;
    let players;
    try {
      players = state.sides.map((f) => f());
    } catch (e) {
      replace(errorBox, e.message);
      return;
    }
    const body = { setup: { players, options: { ...state.options } } };
    if (state.depth) body.setup.scenario = { depth: state.depth };
    if (mode === 'computer') body.seats = [{ seat: '1', kind: 'computer', name: 'computer' }];
    // A fixed seed from the page's address (`/?seed=N`): only a test server accepts it (a
    // normal server answers that it draws every seed itself, shown like any refusal).
    const seed = new URLSearchParams(location.search).get('seed');
    if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
    button.disabled = true;
    try {
      const r = await api.createGame(body);
      onCreated(r, mode);
    } catch (e) {
      replace(errorBox, e instanceof ApiError ? e.describe() : e.message);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function linksPanel(r) {
  const abs = (p) => `${location.origin}${p}`;
  const rows = r.seats.map((s) => s.link
    ? h('div', { class: 'link-row' }, h('b', {}, `Seat ${s.seat}`),
      h('code', { 'data-testid': `seat-link-${s.seat}` }, abs(s.link)),
      h('button', { type: 'button', class: 'small', onclick: () => copyText(abs(s.link)) }, 'Copy'),
      h('a', { class: 'button small', href: s.link, 'data-testid': `open-seat-${s.seat}` }, 'Open'))
    : h('div', { class: 'link-row' }, h('b', {}, `Seat ${s.seat}`), ` ${s.kind}`));
  return h('section', { class: 'links', 'data-testid': 'links' },
    h('h2', {}, 'Game created'),
    h('p', {}, 'Each seat link is secret: whoever has it plays that seat. Send the other one to your opponent.'),
    rows,
    h('div', { class: 'link-row' }, h('b', {}, 'Spectators'), h('code', { 'data-testid': 'spectator-link' }, abs(r.spectator_link)),
      h('button', { type: 'button', class: 'small', onclick: () => copyText(abs(r.spectator_link)) }, 'Copy')));
}

async function myGamesSection(box) {
  const games = loadGames();
  if (!games.length) {
    replace(box, h('h2', {}, 'My games'), h('p', { class: 'muted', 'data-testid': 'no-games' }, 'No game yet in this browser.'));
    return;
  }
  let info = new Map();
  try {
    const tokens = games.flatMap((g) => g.seats.map((s) => s.token)).slice(0, 200);
    const r = await api.listGames(tokens);
    info = new Map(r.games.map((g) => [g.game_id, g]));
  } catch (e) {
    toast(`The list of games could not be loaded: ${e.message}`, 'error');
  }
  const rows = games.map((g) => {
    const i = info.get(g.game_id);
    const status = !i ? 'unknown' : i.finished ? (i.outcome?.winners ? `won by seat ${i.outcome.winners.seats.join(', ')}` : 'finished') : `in play · version ${i.version}`;
    const first = g.seats[0];
    return h('tr', { 'data-testid': `my-game-${g.game_id}` },
      h('td', {}, h('code', { title: g.game_id }, g.game_id.slice(0, 8))),
      h('td', {}, g.mode || ''),
      h('td', {}, g.seats.map((s) => `seat ${s.seat}`).join(', ')),
      h('td', {}, status),
      h('td', {}, i ? new Date(i.created_at).toLocaleString() : ''),
      h('td', { class: 'actions' },
        first ? h('a', { class: 'button small primary', href: `/games/${encodeURIComponent(g.game_id)}?token=${encodeURIComponent(first.token)}`, 'data-testid': `open-${g.game_id}` }, 'Open') : null,
        h('a', { class: 'button small', href: `/games/${encodeURIComponent(g.game_id)}/replay${first ? `?token=${encodeURIComponent(first.token)}` : ''}` }, 'Replay'),
        h('button', { class: 'small', onclick: () => { forgetGame(g.game_id); myGamesSection(box); }, 'aria-label': `Forget game ${g.game_id}` }, 'Forget')));
  });
  replace(box, h('h2', {}, 'My games'),
    h('table', { class: 'games', 'data-testid': 'my-games' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Mode'), h('th', {}, 'My seats'), h('th', {}, 'Status'), h('th', {}, 'Created'), h('th', {}, ''))),
      h('tbody', {}, rows)));
}

function openLinkForm() {
  const input = h('input', { type: 'text', placeholder: 'https://…/games/ID or …?token=…', 'data-testid': 'link-input', 'aria-label': 'A game link' });
  const form = h('form', { class: 'open-link' }, h('h2', {}, 'Open a link'),
    h('p', { class: 'muted' }, 'A seat link (with its token) or a spectator link.'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', 'data-testid': 'open-link' }, 'Open')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    let url;
    try {
      url = new URL(input.value.trim(), location.origin);
    } catch {
      toast('That is not a link', 'error');
      return;
    }
    const m = /\/games\/([^/?#]+)/.exec(url.pathname);
    if (!m) {
      toast('That is not a game link', 'error');
      return;
    }
    location.href = `/games/${m[1]}${url.search}`;
  });
  return form;
}

export async function lobbyPage(root) {
  document.title = 'acies · ONUS! lobby';
  const main = h('main', { class: 'lobby' });
  replace(root, h('div', { class: 'lobby-page' },
    h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '/' }, 'acies', h('span', {}, ' · ONUS!')), h('span', { class: 'spacer' }),
      h('span', { class: 'muted' }, 'ancient battles, exact odds')),
    main));
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    replace(main, h('div', { class: 'fatal', role: 'alert' }, `The server's catalog could not be loaded: ${e.message}`));
    return;
  }
  const created = h('div', {});
  const mine = h('section', { class: 'my-games' });
  const onCreated = (r, mode) => {
    const humans = r.seats.filter((s) => s.token);
    if (mode === 'online') {
      rememberGame(r.game_id, humans.slice(0, 1), { mode });
      replace(created, linksPanel(r));
      created.scrollIntoView({ behavior: 'smooth', block: 'start' });
      myGamesSection(mine);
      return;
    }
    rememberGame(r.game_id, humans, { mode });
    location.href = `/games/${encodeURIComponent(r.game_id)}?token=${encodeURIComponent(humans[0].token)}`;
  };
  replace(main,
    h('div', { class: 'lobby-grid' },
      h('div', {}, newGameForm(cat, onCreated), created),
      h('div', {}, mine, openLinkForm(),
        h('p', { class: 'notice muted' }, cat.deck?.notice || ''))));
  myGamesSection(mine);
}

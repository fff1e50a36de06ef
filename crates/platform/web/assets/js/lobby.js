// The lobby of every system: the systems the server hosts (`GET /api/systems`), the chosen
// one's "new game" form (from its table module), the links of a game created online, the
// games this browser holds (of every system: those where it is this browser's move first,
// marked; asked again every half minute and whenever the page is looked at again), and
// opening a link.

import { systemApi, myGames } from './api.js';
import { h, replace, toast, copyText } from './dom.js';
import { computerName } from './computer.js';
import { loadGames, rememberGame, forgetGame } from './mygames.js';
import { systems, withTables, loadModule, gamePath } from './systems.js';

function linksPanel(r) {
  const abs = (p) => `${location.origin}${p}`;
  const rows = r.seats.map((s) => s.link
    ? h('div', { class: 'link-row' }, h('b', {}, `Seat ${s.seat}`),
      h('code', { 'data-testid': `seat-link-${s.seat}` }, abs(s.link)),
      h('button', { type: 'button', class: 'small', onclick: () => copyText(abs(s.link)) }, 'Copy'),
      h('a', { class: 'button small', href: s.link, 'data-testid': `open-seat-${s.seat}` }, 'Open'))
    : h('div', { class: 'link-row' }, h('b', {}, `Seat ${s.seat}`), ` ${s.kind === 'computer' ? computerName(s) : s.kind}`));
  return h('section', { class: 'links', 'data-testid': 'links' },
    h('h2', {}, 'Game created'),
    h('p', {}, 'Each seat link is secret: whoever has it plays that seat. Send the other one to your opponent.'),
    rows,
    h('div', { class: 'link-row' }, h('b', {}, 'Spectators'), h('code', { 'data-testid': 'spectator-link' }, abs(r.spectator_link)),
      h('button', { type: 'button', class: 'small', onclick: () => copyText(abs(r.spectator_link)) }, 'Copy')));
}

/** How often the lobby asks again whose move it is (and whenever it is looked at again). */
const REFRESH_MS = 30_000;

/**
 * The status of this browser's games (`POST /api/my-games` with every token it holds, of
 * every system): game id -> {system, my_seats, actors, to_act, my_move, version, finished,
 * outcome, seats, created_at}. A game the server does not know is missing.
 */
async function statusOf(games) {
  const info = new Map();
  const tokens = [...new Set(games.flatMap((g) => g.seats.map((s) => s.token)).filter(Boolean))];
  try {
    for (const g of await myGames(tokens)) info.set(g.game_id, g);
  } catch (e) {
    toast(`The list of games could not be loaded: ${e.message}`, 'error');
    return null;
  }
  return info;
}

/** A seat as the list names it: its player's name, or the computer. */
function seatName(i, seat) {
  const s = i.seats?.find((x) => x.seat === seat);
  if (!s) return `seat ${seat}`;
  if (s.kind === 'computer') return computerName(s);
  return s.name && s.name !== seat ? `${s.name} (seat ${seat})` : `seat ${seat}`;
}

/** Whose move a game is, as its status cell says it. */
function statusCell(i) {
  if (!i) return h('td', { class: 'muted' }, 'unknown');
  if (i.finished) return h('td', {}, i.outcome?.winners ? `won by seat ${i.outcome.winners.seats.join(', ')}` : 'finished');
  const move = h('span', { class: 'sub' }, `${i.version} move${i.version === 1 ? '' : 's'} played`);
  if (i.my_move) return h('td', {}, h('span', { class: 'my-move', 'data-testid': 'my-move' }, 'Your move'), move);
  const waiting = (i.actors || []).map((a) => seatName(i, a)).join(' and ');
  return h('td', { 'data-testid': 'their-move' }, waiting ? `Waiting for ${waiting}` : 'in play', move);
}

/** The order of the list: my move first, then the games in play, then the rest (each as kept). */
function rank(i) {
  if (!i) return 3;
  if (i.my_move) return 0;
  return i.finished ? 2 : 1;
}

async function myGamesSection(box, all) {
  const games = loadGames();
  if (!games.length) {
    replace(box, h('h2', {}, 'My games'), h('p', { class: 'muted', 'data-testid': 'no-games' }, 'No game yet in this browser.'));
    setTitle(0);
    return;
  }
  const info = await statusOf(games);
  if (!info) return;
  const name = (id) => all.find((s) => s.id === id)?.name || id;
  const sorted = games.map((g, order) => ({ g, i: info.get(g.game_id), order }))
    .sort((x, y) => rank(x.i) - rank(y.i) || x.order - y.order);
  const rows = sorted.map(({ g, i }) => {
    const system = i?.system || g.system || all[0]?.id;
    const first = g.seats.find((s) => i?.actors?.includes(s.seat)) || g.seats[0];
    return h('tr', { 'data-testid': `my-game-${g.game_id}`, class: i?.my_move ? 'is-my-move' : '', 'data-my-move': String(!!i?.my_move) },
      h('td', {}, h('code', { title: g.game_id }, g.game_id.slice(0, 8)),
        h('span', { class: 'sub' }, [name(system), g.mode, g.seats.map((s) => `seat ${s.seat}`).join(', ')].filter(Boolean).join(' · '))),
      statusCell(i),
      h('td', { class: 'col-created' }, i ? new Date(i.created_at).toLocaleString() : ''),
      h('td', { class: 'actions' },
        first ? h('a', { class: ['button', 'small', i?.my_move ? 'primary' : ''], href: gamePath(system, g.game_id, { token: first.token }), 'data-testid': `open-${g.game_id}` }, i?.my_move ? 'Play' : 'Open') : null,
        h('a', { class: 'button small', href: gamePath(system, g.game_id, { token: first?.token, replay: true }) }, 'Replay'),
        h('button', { class: 'small', onclick: () => { forgetGame(g.game_id); myGamesSection(box, all); }, 'aria-label': `Forget game ${g.game_id}` }, 'Forget')));
  });
  const mine = sorted.filter(({ i }) => i?.my_move).length;
  setTitle(mine);
  replace(box, h('h2', {}, 'My games', mine ? h('span', { class: 'my-move-count', 'data-testid': 'my-move-count' }, `your move in ${mine}`) : null),
    h('table', { class: 'games', 'data-testid': 'my-games', 'data-loaded': String(Date.now()) },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Status'), h('th', { class: 'col-created' }, 'Created'), h('th', {}, ''))),
      h('tbody', {}, rows)));
}

/** The tab says how many games wait for this browser's move. */
function setTitle(mine) {
  document.title = mine ? `(${mine}) acies · lobby` : 'acies · lobby';
}

/** Asks again whose move it is every REFRESH_MS while the lobby is shown, and when it is looked at again. */
function keepFresh(box, all) {
  const again = () => {
    if (!document.hidden && box.isConnected) myGamesSection(box, all);
  };
  const timer = setInterval(() => {
    if (!box.isConnected) clearInterval(timer);
    else again();
  }, REFRESH_MS);
  document.addEventListener('visibilitychange', again);
  window.addEventListener('focus', again);
}

function openLinkForm() {
  const input = h('input', { type: 'text', placeholder: 'https://…/SYSTEM/games/ID or …?token=…', 'data-testid': 'link-input', 'aria-label': 'A game link' });
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
    const m = /^((?:\/[a-z0-9-]+)?\/games\/[^/?#]+)/.exec(url.pathname);
    if (!m) {
      toast('That is not a game link', 'error');
      return;
    }
    location.href = `${m[1]}${url.search}`;
  });
  return form;
}

/** The systems to choose from: a button each, those without a table module disabled. */
function systemPicker(all, tables, chosen, onPick) {
  return h('nav', { class: 'systems', 'aria-label': 'Rule systems', 'data-testid': 'systems' },
    all.map((s) => h('button', {
      type: 'button', class: 'system', 'data-testid': `system-${s.id}`, 'aria-pressed': String(s.id === chosen),
      disabled: !tables.has(s.id), title: tables.has(s.id) ? '' : 'no table for it in the browser yet',
      onclick: () => onPick(s.id),
    }, h('b', {}, s.name), h('span', { class: 'muted' }, `${s.seats[0]}–${s.seats[1]} players · ${s.board.kind === 'table' ? `table in ${s.board.unit === 'du' ? 'DU' : 'inches'}` : 'square grid'}`))));
}

/**
 * Creates a game of `system` (what a table module's form calls): a fixed seed from the page's
 * address (`/?seed=N`) is asked for (only a test server accepts it; a normal one refuses,
 * shown like any refusal); then the game is remembered and opened, or its links shown.
 */
function creator(system, created, mine, all) {
  return async (body, mode) => {
    const seed = new URLSearchParams(location.search).get('seed');
    if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
    const r = await systemApi(system).createGame(body);
    const humans = r.seats.filter((s) => s.token);
    if (mode === 'online') {
      rememberGame(r.game_id, humans.slice(0, 1), { system, mode });
      replace(created, linksPanel(r));
      created.scrollIntoView({ behavior: 'smooth', block: 'start' });
      myGamesSection(mine, all);
      return r;
    }
    rememberGame(r.game_id, humans, { system, mode });
    location.href = gamePath(system, r.game_id, { token: humans[0].token });
    return r;
  };
}

export async function lobbyPage(root) {
  document.title = 'acies · lobby';
  const main = h('main', { class: 'lobby' });
  replace(root, h('div', { class: 'lobby-page' },
    h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '/' }, 'acies'), h('span', { class: 'spacer' }),
      h('span', { class: 'muted' }, 'ancient battles, exact odds')),
    main));
  let all;
  let tables;
  try {
    [all, tables] = await Promise.all([systems(), withTables()]);
  } catch (e) {
    replace(main, h('div', { class: 'fatal', role: 'alert' }, `The server's systems could not be loaded: ${e.message}`));
    return;
  }
  const picker = h('div', {});
  const form = h('div', { 'data-testid': 'new-game-form' });
  const created = h('div', {});
  const mine = h('section', { class: 'my-games' });
  const wanted = new URLSearchParams(location.search).get('system');
  const playable = all.filter((s) => tables.has(s.id));
  async function pick(system) {
    const info = all.find((s) => s.id === system);
    replace(picker, systemPicker(all, tables, system, pick));
    replace(form, h('p', { class: 'loading' }, `Loading ${info.name}…`));
    try {
      const module = await loadModule(system);
      replace(form, await module.newGameForm({ system, info, create: creator(system, created, mine, all) }));
    } catch (e) {
      replace(form, h('div', { class: 'fatal', role: 'alert' }, `${info.name} could not be loaded: ${e.message}`));
    }
  }
  replace(main,
    picker,
    h('div', { class: 'lobby-grid' },
      h('div', {}, form, created),
      h('div', {}, mine, openLinkForm())));
  const first = playable.find((s) => s.id === wanted) || playable[0];
  if (first) pick(first.id);
  else replace(picker, systemPicker(all, tables, null, pick), h('p', { class: 'muted' }, 'No system of this server has a table in the browser yet.'));
  myGamesSection(mine, all);
  keepFresh(mine, all);
}

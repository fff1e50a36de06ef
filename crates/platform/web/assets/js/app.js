// The entry point of the web shell: picks the page from the address.
//   /                                 the lobby of every system
//   /{system}/games/{id}?token=...    a seat's table (no token: a spectator's), drawn by the
//                                     system's table module
//   /{system}/games/{id}/replay       the replay viewer
//   /games/{id}[/replay]              the same for the server's first system (older links)

import { lobbyPage } from './lobby.js';
import { replayPage } from './replay.js';
import { systems, withTables, loadModule } from './systems.js';
import { h, replace } from './dom.js';
import { setRuleSystem } from './rules.js';

function fatal(root, message) {
  replace(root, h('main', { class: 'lobby' },
    h('div', { class: 'fatal', role: 'alert', 'data-testid': 'page-error' }, message),
    h('a', { href: '/' }, 'To the lobby')));
}

/** The system of a game page's address, its info and its table module. */
async function systemOf(named) {
  const all = await systems();
  const info = named === null ? all[0] : all.find((s) => s.id === named);
  if (!info) throw new Error(`this server hosts no system ${JSON.stringify(named)}`);
  if (!(await withTables()).has(info.id)) throw new Error(`${info.name} has no table in this browser client yet`);
  return { info, module: await loadModule(info.id) };
}

async function main() {
  const root = document.getElementById('app');
  const path = location.pathname;
  const token = new URLSearchParams(location.search).get('token');
  if (path === '/' || path === '/index.html') {
    lobbyPage(root);
    return;
  }
  const m = /^(?:\/([a-z0-9-]+))?\/games\/([^/]+?)(\/replay)?\/?$/.exec(path);
  if (!m) {
    replace(root, h('main', { class: 'lobby' }, h('h1', {}, 'Not found'), h('a', { href: '/' }, 'To the lobby')));
    return;
  }
  const gameId = decodeURIComponent(m[2]);
  let found;
  try {
    found = await systemOf(m[1] ?? null);
  } catch (e) {
    fatal(root, `This game cannot be opened: ${e.message}`);
    return;
  }
  const ctx = { system: found.info.id, info: found.info, gameId, token };
  // Every rule cited on the page is this system's (the rules reader asks its server).
  setRuleSystem(found.info.id);
  if (m[3]) {
    replayPage(root, { ...ctx, module: found.module });
  } else {
    document.title = `acies · ${found.info.name} · game ${gameId.slice(0, 8)}`;
    found.module.mountGame(root, ctx);
  }
}

main();

// The entry point: picks the page from the address.
//   /                        the lobby
//   /onus/games/{id}?token=...  a seat's table (no token: a spectator's); /games/{id} too
//   /onus/games/{id}/replay     the replay viewer

import { lobbyPage } from './lobby.js';
import { Game } from './game.js';
import { replayPage } from './replay.js';
import { h, replace } from './dom.js';

function main() {
  const root = document.getElementById('app');
  const path = location.pathname;
  const token = new URLSearchParams(location.search).get('token');
  let m;
  if ((m = /^(?:\/onus)?\/games\/([^/]+)\/replay\/?$/.exec(path))) {
    replayPage(root, decodeURIComponent(m[1]), token);
  } else if ((m = /^(?:\/onus)?\/games\/([^/]+)\/?$/.exec(path))) {
    const id = decodeURIComponent(m[1]);
    document.title = `acies · game ${id.slice(0, 8)}`;
    new Game(root, id, token).start();
  } else if (path === '/' || path === '/index.html') {
    lobbyPage(root);
  } else {
    replace(root, h('main', { class: 'lobby' }, h('h1', {}, 'Not found'), h('a', { href: '/' }, 'To the lobby')));
  }
}

main();

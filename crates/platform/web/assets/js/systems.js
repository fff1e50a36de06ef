// The rule systems of the server and their table modules.
//
// A table module is the part of the browser UI a rule system brings: the files the binary
// serves under /systems/{system}/, whose index.js default-exports (see the web crate's README)
//
//   { stylesheets?: ['css/x.css'],                    relative to the module's folder, or
//                                                     the shell's ('/assets/css/grid.css')
//     newGameForm({ system, info, create, onCreated }) -> Element | Promise<Element>,
//     mountGame(root, { system, info, gameId, token }),
//     replayBoard(container, { system, info }) -> Promise<{ render(view), describe(event),
//                                                          caption?(view), log?(view) }> }

import { listSystems, request } from './api.js';

let systemsPromise = null;
/** The systems the server hosts, in its order (the first also owns the old /games/... links). */
export function systems() {
  if (!systemsPromise) {
    systemsPromise = listSystems().catch((e) => {
      systemsPromise = null;
      throw e;
    });
  }
  return systemsPromise;
}

let manifestPromise = null;
/** The ids of the systems that have a table module in this binary. */
export function withTables() {
  if (!manifestPromise) {
    manifestPromise = request('GET', '/systems/modules.json').then((m) => new Set(m.modules || []));
  }
  return manifestPromise;
}

const loaded = new Map();
/** A system's table module (its stylesheets added to the page once). */
export function loadModule(system) {
  if (!loaded.has(system)) {
    const root = `/systems/${encodeURIComponent(system)}/`;
    loaded.set(system, import(`${root}index.js`).then((m) => {
      const module = m.default;
      for (const css of module.stylesheets || []) {
        // A path from the root is a shared stylesheet of the shell (e.g. /assets/css/grid.css).
        const href = css.startsWith('/') ? css : `${root}${css}`;
        document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href }));
      }
      return module;
    }));
  }
  return loaded.get(system);
}

/** The page of a game: its table, or its replay. */
export function gamePath(system, gameId, { token = null, replay = false } = {}) {
  const q = token ? `?token=${encodeURIComponent(token)}` : '';
  return `/${encodeURIComponent(system)}/games/${encodeURIComponent(gameId)}${replay ? '/replay' : ''}${q}`;
}

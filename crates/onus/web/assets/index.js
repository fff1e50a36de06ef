// The ONUS! table module of the acies web shell (the interface: crates/platform/web/README.md).

import { Game } from './js/game.js';
import { newGameForm } from './js/newgame.js';
import { catalog } from './js/onusapi.js';
import { Names, phaseName } from './js/cards.js';
import { TableView } from './js/table.js';
import { describeEvent, QUIET } from './js/events.js';

/** The read-only table of the replay viewer. */
async function replayBoard(container, { onKey }) {
  let cat;
  try {
    cat = await catalog();
  } catch {
    cat = { deck: { cards: [] }, factions: [] };
  }
  const table = new TableView(container, { onUnitClick: () => {}, onKey }, { autoTurn: true });
  let names = new Names(cat, null);
  return {
    quiet: QUIET,
    render(view) {
      names = new Names(cat, view);
      table.render({ view, highlights: new Map(), lines: [], zones: [], flipped: false });
    },
    describe: (event) => describeEvent(event, names),
    log: (view) => view.log,
    caption: (view, step) => (view.phase === 'deployment' ? 'deployment'
      : step === 0 ? phaseName(view.phase) : `turn ${view.turn}, ${phaseName(view.phase)}`),
  };
}

export default {
  stylesheets: ['css/table.css'],
  newGameForm,
  mountGame(root, { gameId, token }) {
    new Game(root, gameId, token).start();
  },
  replayBoard,
};
